"""Voice in the spoken tools beside play (`companion rules`, `companion stickers quiz`).

A tool listens for a bag of phrases in the player's language (`Phrases`: its words, the
section titles, the numbers, the sticker symbols…), decoded by the Whisper engine as a
game's phrases are in French, Spanish and Ukrainian (`recognize_phrases`), and read back
by the tool's own reader into the canonical text of one of its commands. Push-to-talk
("00", as in play) or always listening; recognitions join the tool's input queue.

Nothing a tool hears changes a game, so the policy is play's with one difference: what a
tool marks `scored` (a quiz answer: a misheard number would count as a miss) is asked
about below the policy's threshold ("Seven? Yes or no."), everything else (reading on, a
question, a description) is answered at once. Why voice cannot start or stopped (no
microphone, a package missing, no Whisper) is said once; the keys go on working.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from companion.inputs.hub import InputHub, InputItem
from companion.inputs.voice import PushKey, start_listening, voice_off
from companion.narrate.message import Message, Priority
from companion.shared_words import ANSWER_WORD

Announce = Callable[[list[Message]], None]
# Yes and no as each language writes them (the recognizer's bag when a question is asked).
YES = {lang: (word,) for lang, word in ANSWER_WORD["yes"].items()}
NO = {lang: (word,) for lang, word in ANSWER_WORD["no"].items()}


@dataclass(frozen=True)
class Phrases:
    """What a tool listens for now: `phrases` (as the language spells them), the words a
    recognizer is prompted with (default: the phrases), and `read`, the tool's reader of
    a transcript (the canonical text of a command valid now, or None). `scored(command)`:
    whether a command counts (asked about when unsure)."""

    name: str
    phrases: tuple[str, ...]
    read: Callable[[str], str | None] = field(compare=False)
    prompt: tuple[str, ...] = ()
    scored: Callable[[str], bool] = field(default=lambda command: False, compare=False)


def yes_no(lang: str) -> Phrases:
    """A yes or a no, after a question."""
    yes, no = YES.get(lang, YES["en"]), NO.get(lang, NO["en"])

    def read(text: str) -> str | None:
        from companion.normalize import fold

        said = set(fold(text).replace(",", " ").replace(".", " ").split())
        folded_yes, folded_no = {fold(w) for w in yes}, {fold(w) for w in no}
        if said & folded_yes and not said & folded_no:
            return "yes"
        if said & folded_no and not said & folded_yes:
            return "no"
        return None

    return Phrases("yes_no", (*yes, *no), read)


class Unavailable(Exception):
    """The recognizer here cannot hold speech to a bag of phrases (pocketsphinx)."""


class PhraseRecognizer:
    """`recognize(pcm, phrases)` as companion/voice/listen.py expects."""

    def __init__(self, engine: Any) -> None:
        if not hasattr(engine, "recognize_phrases"):
            raise Unavailable(type(engine).__name__)
        self.engine = engine

    def recognize(self, pcm: bytes, context: Phrases | None = None) -> Any:
        assert context is not None, "a tool always listens for its phrases"
        return self.engine.recognize_phrases(pcm, context.phrases, context.read,
                                             prompt=context.prompt or None)


@dataclass(frozen=True)
class Heard:
    """What to do with a recognition: `command` to apply (None: nothing), `said` first."""

    command: str | None
    said: tuple[Message, ...] = ()


class Listening:
    """The policy of a tool's voice, with the question it may have asked (pure)."""

    def __init__(self, lang: str) -> None:
        self.lang = lang
        self.asked: str | None = None  # the scored command asked about

    def context(self, phrases: Phrases) -> Phrases:
        """What to listen for: a yes or a no while a question waits, else the tool's."""
        return yes_no(self.lang) if self.asked is not None else phrases

    def heard(self, recognition: Any, phrases: Phrases,
              readback: Callable[[str], str]) -> Heard:
        """A recognition made in `self.context(phrases)` → what to do. `readback(command)`
        says a scored command in the player's words (the question's subject)."""
        from companion.voice.listen import MicrophoneUnavailable
        from companion.voice.policy import CONFIRM_THRESHOLD, decide

        if isinstance(recognition, MicrophoneUnavailable):
            return Heard(None, (voice_off(recognition, Priority.REFUSAL),))
        asked, self.asked = self.asked, None
        if asked is not None:  # the answer to "… Yes or no?"
            if recognition.command == "yes":
                return Heard(asked)
            return Heard(None, (_repeat(),))
        command = recognition.command
        if command is None or recognition.confidence < 0.4:
            reason = decide(recognition).reason  # "too_noisy" or "not_understood"
            return Heard(None, (Message("error", reason, priority=Priority.REFUSAL),))
        if phrases.scored(command) and recognition.confidence < CONFIRM_THRESHOLD:
            self.asked = command
            return Heard(None, (Message("confirm", "voice_reading_confirm",
                                        {"heard": readback(command)},
                                        {"command": command}, Priority.PROMPT),))
        return Heard(command)


def _repeat() -> Message:
    return Message("error", "not_understood", priority=Priority.REFUSAL)


def _unavailable(reason: Message, detail: str) -> Message:
    return Message("voice_unavailable", "voice_unavailable", {"reason": reason},
                   {"reason": detail}, Priority.REFUSAL)


class ReadingVoice:
    """Push-to-talk or always listening for a tool; recognitions go to the hub's queue.
    `phrases()` is what the tool listens for now."""

    def __init__(self, hub: InputHub, phrases: Callable[[], Phrases], lang: str, mode: str,
                 whisper_model: str | None = None,
                 readback: Callable[[str], str] = str) -> None:
        from companion.voice.listen import BackgroundListener, PushToTalk

        self.hub, self.mode, self.lang = hub, mode, lang
        self.phrases = phrases
        self.readback = readback
        self.listening = Listening(lang)
        self._push_key = PushKey()
        self._push: Any = None
        self._listener: Any = None
        if mode == "push":  # the microphone first: without one, no model is loaded
            self._push = PushToTalk(None)
        else:
            self._listener = BackgroundListener(None, self._heard, self.context(),
                                                on_lost=self._heard)
            self._listener.open()

        from companion.voice.whisper import WhisperRecognizer
        from companion.voice.whisper_model import ModelMissing

        # pocketsphinx holds no bag of phrases: Whisper or no voice. Without rescoring:
        # the confidence is the text mapper's share, not calibration.py's model, which was
        # fitted on game commands; on a rulebook's phrases it refused right readings
        # ("contents" at 0.32, "what is a gift" rescored as "what is again"), measured on
        # espeak-ng in docs/voice.md ("The rulebook and the quiz by voice").
        try:
            decoders = WhisperRecognizer(whisper_model, lang, rescore=False)
        except ModelMissing as missing:
            raise Unavailable(str(missing)) from None
        start_listening(hub, decoders, lambda: PhraseRecognizer(decoders), self._push,
                        self._listener)
        self._engine = decoders

    def context(self) -> Phrases:
        return self.listening.context(self.phrases())

    def heard(self, recognition: Any) -> Heard:
        """A recognition from the queue → what the tool does with it."""
        return self.listening.heard(recognition, self.phrases(), self.readback)

    def _heard(self, recognition: Any) -> None:
        self.hub.queue.put(InputItem("voice", event=recognition))

    def follow(self) -> None:
        """Listen for what the tool expects now (call after each handled input)."""
        if self._listener is not None:
            self._listener.context = self.context()

    def is_push_key(self, item: InputItem) -> bool:
        if item.source != "voice":
            cancel = getattr(self._engine, "cancel", None)
            if cancel is not None:
                cancel()  # the player moved on: a decode in flight is stale
        return self._push_key.pressed(item)

    def push_to_talk(self) -> None:
        if self._push is None:
            return
        context = self.context()

        def capture() -> None:
            from companion.voice.listen import MicrophoneUnavailable

            try:
                recognition = self._push.capture(context)
            except MicrophoneUnavailable as lost:
                self._push = None
                self._heard(lost)
                return
            if recognition is not None:
                self._heard(recognition)

        threading.Thread(target=capture, name="push-to-talk", daemon=True).start()


def attach_reading_voice(hub: InputHub, phrases: Callable[[], Phrases], lang: str,
                         mode: str, announce: Announce, whisper_model: str | None = None,
                         readback: Callable[[str], str] = str) -> ReadingVoice | None:
    """Start listening for a tool, or say once why voice is not available (None)."""
    from companion.voice.listen import MicrophoneUnavailable

    try:
        return ReadingVoice(hub, phrases, lang, mode, whisper_model, readback)
    except Unavailable as missing:
        reason, detail = Message("", "voice_needs_whisper"), str(missing)
    except MicrophoneUnavailable as error:  # its reason: a package, the device, a stop
        announce([voice_off(error, Priority.REFUSAL)])
        return None
    except Exception as error:  # audio libraries fail in many ways without a microphone
        reason, detail = Message("", "no_microphone"), f"{type(error).__name__}: {error}"
    announce([_unavailable(reason, detail)])
    return None
