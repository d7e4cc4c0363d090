"""Voice in play: recognitions join the input queue, in the context the game is in.

The recognizer listens for what is valid now (an answer to a gift can only name one of
its three cards); what it hears goes through the confirmation policy: state-changing
commands it is unsure of are asked about ("… Yes or no?"), anything else is refused with
"please repeat". Why voice cannot start or stopped (no microphone, a package missing, no
recognizer), or listens without the player's enrolled words, is said once; play goes on by
keys. A player Whisper keeps missing is told, once, how to enrol their own words (EnrolHint).
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from companion.errors import CompanionError, InvalidCommand
from companion.inputs.hub import InputHub, InputItem
from companion.narrate.message import Message, Priority
from companion.shared_commands import Ask, Query

Announce = Callable[[list[Message]], None]
PUSH_TO_TALK_LINE = "00"  # the keypad's double zero (or "00" then Enter) starts listening
# A keypad read directly (--keypad) acts on each key: its "00" key is two zeros this close.
DOUBLE_ZERO_SECONDS = 0.5
# After this many voice inputs in a row not understood, enrolling the player's own words
# is suggested, once a game: without them French is right on about 70% of clean commands
# and a third at 20 dB, with them 97% and more, and 90% at 10 dB (docs/voice.md). Three
# misses in a row are rare in quiet speech (at 70% right, about one time in 37) and where
# a player starts giving up on voice.
HINT_AFTER = 3
MISSED = frozenset({"error.not_understood", "error.too_noisy"})  # what a refusal said


class NoVoice(Exception):
    """The game being played offers no voice commands."""


@dataclass(frozen=True)
class WordsUnusable:
    """A player's enrolled words that could not load (found by the loading thread once
    play has begun): said on the queue like a recognition; Whisper alone listens."""

    player: str
    game: str
    lang: str
    error: Exception


def _hooks(session: Any) -> Any:
    """The voice hooks of the session's game (companion.games.protocol.VoiceHooks)."""
    voice = getattr(session.game, "voice", None)
    hooks = voice() if voice is not None else None
    if hooks is None:
        raise NoVoice(session.game.name)
    return hooks


Private = Callable[[int], bool]  # whether a seat has a private channel (an earbud, a page)


def context_for(session: Any, private: Private | None = None) -> Any:
    """The voice context matching the session's game and state (using what a seat told
    privately only where `private(seat)`)."""
    return _hooks(session).context_for(session, private)


def handle_recognition(session: Any, recognition: Any) -> list[Message]:
    """Apply, ask about, or refuse what the recognizer heard (the same policy for every
    game): sure commands are applied, unsure ones asked about, the rest refused."""
    from companion.voice.listen import MicrophoneUnavailable
    from companion.voice.policy import Accept, Confirm, Refuse, decide

    if isinstance(recognition, MicrophoneUnavailable):  # the microphone went away mid-game
        return [voice_off(recognition, Priority.REFUSAL)
                ] + session.execute(Ask(Query.WHAT))  # the prompt stays the last thing said
    if isinstance(recognition, WordsUnusable):
        return [words_unusable(recognition)] + session.execute(Ask(Query.WHAT))
    decision = decide(recognition, answering=session.awaiting_answer)
    if isinstance(decision, (Accept, Confirm)):
        try:
            command = _hooks(session).parse_command(decision.command)
        except CompanionError:
            pass  # words the game cannot read: refused below
        else:
            private_to = recognition.private_to
            if isinstance(decision, Accept) or (private_to is None and session.begins(command)):
                # A begun offer (a list with its last card not heard) changes nothing: the
                # table hears its cards so far and is asked for the rest. Heard from a
                # player's own hand, that is asked on their channel first.
                return session.execute(command)
            return session.propose(command, private_to)
    if not isinstance(decision, Refuse):
        decision = Refuse()  # a command the game could not read
    return session.refuse(InvalidCommand(decision.reason, decision.message))


def voice_off(error: Any, priority: Priority = Priority.NARRATION) -> Message:
    """Why voice is off, said in one sentence with the reason of a MicrophoneUnavailable
    (a package to install, a microphone that will not open, or that stopped) or of a
    VoiceUnavailable (a recognizer that cannot run, a word it cannot say), so that
    whoever set the machine up is not sent to the hardware for a missing package. Its
    English text, with the device's own words, stays in the data (--json, logs)."""
    from companion.voice.reasons import why

    return Message("voice_unavailable", "voice_off_why", {"reason": why(error)},
                   {"reason": str(error)}, priority)


def words_unusable(notice: WordsUnusable) -> Message:
    """Why a player's enrolled words are not listened with (a recording that cannot be
    read, no middle encoder in the cache), in their language; what to do is in the
    reason or in enrolling again."""
    from companion.voice.reasons import why

    return Message("voice_engine", "voice_words_unusable",
                   {"name": notice.player, "game": notice.game, "lang": notice.lang,
                    "reason": why(notice.error)},
                   {"reason": str(notice.error)})


def fallback_message(lang: str, reason: str) -> Message:
    """What a player hears when Whisper cannot run and pocketsphinx listens instead: it
    understands English only, which a player speaking another language must be told."""
    key = "voice_whisper_missing" if lang == "en" else "voice_whisper_missing_english"
    return Message("voice_engine", key, {}, {"reason": reason})


def language_notice(hooks: Any, lang: str) -> Message | None:
    """What a player hears when the game's spoken words do not exist in their language
    (a game whose voice hooks name no `languages` has English ones only): voice listens for
    English words, which they must be told in their own language rather than find out by
    not being understood."""
    if lang in getattr(hooks, "languages", ("en",)):
        return None
    return Message("voice_engine", "voice_words_english")


class EnrolHint:
    """How to enrol the player's own words, said once after HINT_AFTER voice inputs in a
    row were not understood (Whisper alone listens, and the game has words to enrol in the
    player's language): right after the refusal, so that the prompt stays the last thing
    heard. `name`: the --voice-profile given, else a placeholder the player replaces."""

    def __init__(self, name: str | None, game: str, lang: str, minutes: int) -> None:
        self.name, self.game, self.lang, self.minutes = name, game, lang, minutes
        self.missed = 0  # voice inputs not understood in a row
        self.said = False

    def after(self, messages: list[Message]) -> list[Message]:
        """What a voice input said, with the hint when it is due."""
        refused = [i for i, m in enumerate(messages) if m.key in MISSED]
        if not refused:
            self.missed = 0
            return messages
        self.missed += 1
        if self.said or self.missed < HINT_AFTER:
            return messages
        self.said = True
        at = refused[0] + 1
        return [*messages[:at], self.message(), *messages[at:]]

    def message(self) -> Message:
        name: Any = self.name if self.name else Message("", "voice_your_name")
        return Message("voice_engine", "voice_enrol_hint",
                       {"n": self.missed, "minutes": self.minutes, "name": name,
                        "game": self.game, "lang": self.lang},
                       {"name": self.name, "game": self.game, "lang": self.lang})


def enrol_hint(session: Any, engine: str | None, profile: str | None) -> EnrolHint | None:
    """The hint for a player listened to without enrolled words; None where enrolling
    would not be heard (pocketsphinx listens, or the game has no words to enrol)."""
    from companion.voice.enroll_words import TAKES, minutes

    words_for = _words_for(session, engine)
    if words_for is None:
        return None
    game, lang = words_for
    count = len(_hooks(session).enrolment_words(lang))
    return EnrolHint(profile, game, lang, minutes(count, TAKES))


class PushKey:
    """Which inputs start push-to-talk: the line "00" (typed, or a keyboard-like keypad's
    "00" then Enter), or a keypad read directly (--keypad) giving 0 twice within
    DOUBLE_ZERO_SECONDS (its "00" key; the first 0 has already acted as a 0)."""

    def __init__(self) -> None:
        self._zeros: dict[str, float] = {}  # keypad → when its last lone 0 came

    def pressed(self, item: InputItem) -> bool:
        if item.text == PUSH_TO_TALK_LINE:
            return True
        event = item.event
        if getattr(event, "kind", None) != "key" or getattr(event, "value", None) != "0":
            return False
        last = self._zeros.pop(event.reader, None)
        if last is not None and 0 <= event.timestamp - last <= DOUBLE_ZERO_SECONDS:
            return True
        self._zeros[event.reader] = event.timestamp
        return False


class Voice:
    """Push-to-talk (default) or always listening; recognitions go to the hub's queue."""

    def __init__(self, hub: InputHub, session: Any, mode: str, model: str | None = None,
                 engine: str | None = None, whisper_model: str | None = None,
                 announce: Announce | None = None, private: Private | None = None,
                 words: Any = None, hint: EnrolHint | None = None,
                 others: Path | None = None) -> None:
        """`words`: a player's enrolled words (word_profiles.WordProfile), compared beside
        Whisper with what is heard (enrolled_engine.py); `hint`: how to enrol them, said
        when Whisper keeps missing a player who has none; `others`: where other voices'
        words are kept, which stand in for a player who has none (stand_ins.py; None: not
        used)."""
        from companion.voice.listen import BackgroundListener, PushToTalk

        self.session = session
        self._private = private
        self.mode = mode
        self.hub = hub
        self._push_key = PushKey()
        hooks = _hooks(session)
        self._push: Any = None
        self._listener: Any = None
        # The microphone first: without one, no decoder (nor its process) is built.
        if mode == "push":
            self._push = PushToTalk(None)
        else:
            self._listener = BackgroundListener(None, self._heard,
                                                context_for(session, private),
                                                on_lost=self._heard)
            self._listener.open()
        from companion.voice.engines import make_engine

        # The game's language when its voice words exist in it (else English: the words
        # every game has, which the player is told).
        lang = getattr(session, "lang", "en")
        notice = language_notice(hooks, lang)
        heard_in = lang if notice is None else "en"
        if notice is not None and announce is not None:
            announce([notice])

        def fallback(reason: Exception) -> None:
            if announce is not None:
                announce([fallback_message(heard_in, str(reason))])

        decoders = make_engine(engine, whisper_model, model, hooks.pronunciations, heard_in,
                               say=fallback)
        if words is not None and hasattr(decoders, "encode"):  # Whisper: its encoder's frames
            from companion.voice.enrolled_engine import EnrolledEngine

            decoders = EnrolledEngine(decoders, words, lambda error: self._heard(
                WordsUnusable(words.player, words.game, words.lang, error)))
        elif others is not None:
            from companion.voice import stand_ins

            enrolment = getattr(hooks, "enrolment_words", None)
            decoders = stand_ins.listening(
                decoders, session.game.name, heard_in,
                tuple(enrolment(heard_in)) if enrolment is not None else (), others)
        self._engine = decoders
        # Only Whisper hears enrolled words (pocketsphinx may have stood in for it).
        self._hint = hint if words is None and hasattr(decoders, "encode") else None
        self._capture: threading.Event | None = None  # set: the capture in flight is stale
        start_listening(hub, decoders, lambda: hooks.make_recognizer(decoders), self._push,
                        self._listener)

    def _heard(self, recognition: Any) -> None:
        """A Recognition, the MicrophoneUnavailable that ended listening, or the enrolled
        words found unusable (WordsUnusable)."""
        self.hub.queue.put(InputItem("voice", event=recognition))

    def after(self, messages: list[Message]) -> list[Message]:
        """What a recognition said, with how to enrol the player's words when voice keeps
        missing them (EnrolHint)."""
        return self._hint.after(messages) if self._hint is not None else messages

    def follow(self) -> None:
        """Listen for what the game expects now (call after each handled input)."""
        if self._listener is not None:
            self._listener.context = context_for(self.session, self._private)

    def is_push_key(self, item: InputItem) -> bool:
        """Whether `item` starts listening; any input but a recognition first cancels the
        decode in flight (its words are stale: the player has moved on)."""
        if item.source != "voice":
            self.cancel()
        return self._push_key.pressed(item)

    def cancel(self) -> None:
        if self._capture is not None:
            self._capture.set()
        cancel = getattr(self._engine, "cancel", None)
        if cancel is not None:
            cancel()

    def push_to_talk(self) -> None:
        if self._push is None:
            return
        context = context_for(self.session, self._private)
        stale = self._capture = threading.Event()

        def capture() -> None:
            from companion.voice.listen import MicrophoneUnavailable

            try:
                recognition = self._push.capture(context)
            except MicrophoneUnavailable as lost:
                self._push = None  # said once; the 00 key no longer listens
                self._heard(lost)
                return
            if recognition is not None and not stale.is_set():
                self._heard(recognition)

        threading.Thread(target=capture, name="push-to-talk", daemon=True).start()


def profile_model(name: str | None, announce: Announce, base: Path | None = None,
                  words_for: tuple[str, str] | None = None) -> str | None:
    """The adapted model of the player's voice profile; when it does not exist (yet), say so
    and listen with the standard model (None). `words_for` (game, language): Whisper
    listens, so the enrolment to suggest is the player's own words for them (any
    language), not the English commands a Sphinx profile reads."""
    if not name:
        return None
    from companion.voice.profiles import Profile, ProfileError

    try:
        return Profile.named(name, base).require_model()
    except ProfileError:
        if words_for is not None:
            game, lang = words_for
            announce([Message("voice_profile_missing", "voice_words_missing",
                              {"name": name, "game": game, "lang": lang})])
        else:
            announce([Message("voice_profile_missing", "voice_profile_missing",
                              {"name": name})])
        return None


def word_profile(name: str | None, session: Any, base: Path | None = None) -> Any:
    """The player's enrolled words for the session's game and language
    (`companion voice-enroll --words`), or None when there are none."""
    if not name:
        return None
    from companion.voice.profiles import ProfileError
    from companion.voice.word_profiles import WordProfile

    try:
        words = WordProfile.named(name, session.game.name, getattr(session, "lang", "en"), base)
    except ProfileError:
        return None
    return words if words.ready() else None


def _words_for(session: Any, engine: str | None) -> tuple[str, str] | None:
    """(game, language) of the words a player would enrol when Whisper listens; None when
    pocketsphinx does (asked for, or Whisper not installed) or the game has no words to
    enrol in this language (no `enrolment_words` in its voice hooks)."""
    from companion.voice.whisper_model import engine_available

    if engine == "sphinx" or not engine_available():
        return None
    lang = getattr(session, "lang", "en")
    try:
        enrolment = getattr(_hooks(session), "enrolment_words", None)
    except NoVoice:
        return None
    if enrolment is None or not enrolment(lang):
        return None
    return session.game.name, lang


def attach_voice(hub: InputHub, session: Any, mode: str, announce: Announce,
                 profile: str | None = None, profiles: Path | None = None,
                 engine: str | None = None, whisper_model: str | None = None,
                 private: Private | None = None) -> Voice | None:
    """Start listening (with the player's voice profile, if any), or say once why voice is
    not available and return None. `private(seat)`: whether a seat has a private channel
    (only then may listening use the cards that player told privately)."""
    from companion.voice.decoders import VoiceUnavailable
    from companion.voice.listen import MicrophoneUnavailable

    words = word_profile(profile, session, profiles) if engine != "sphinx" else None
    model = None if words is not None or not profile else profile_model(
        profile, announce, profiles, _words_for(session, engine))
    try:
        hint = enrol_hint(session, engine, profile) if words is None else None
        others = None
        if words is None and engine != "sphinx":
            from companion.voice.stand_ins import folder

            others = folder(profiles)
        return Voice(hub, session, mode, model, engine, whisper_model, announce, private,
                     words, hint, others)
    except NoVoice:
        reason: Any = Message("", "voice_not_for_game")
        detail = f"the game {session.game.name} offers no voice commands"
    except (MicrophoneUnavailable, VoiceUnavailable) as error:
        # its reason: a package, the device, a stop, a word the recognizer cannot say
        announce([voice_off(error)])
        return None
    except Exception as error:  # audio libraries fail in many ways when there is no microphone
        reason = Message("", "no_microphone")
        detail = f"{type(error).__name__}: {error}"
    else:  # pragma: no cover
        return None
    announce([Message("voice_unavailable", "voice_unavailable", {"reason": reason},
                      {"reason": detail})])
    return None


def start_listening(hub: InputHub, decoders: Any, recognizer: Callable[[], Any], push: Any,
                    listener: Any) -> None:
    """Give the recognizer made from `decoders` to push-to-talk, or to the background
    listener (started, and stopped with the hub); the decoders close with the hub, or at
    once when no microphone opens (their process is not needed then)."""
    try:
        made = recognizer()
        if push is not None:
            push.recognizer = made
        else:
            listener.recognizer = made
            listener.start()
            hub.add_closer(listener.stop)
    except BaseException:
        decoders.close()
        raise
    hub.add_closer(decoders.close)
