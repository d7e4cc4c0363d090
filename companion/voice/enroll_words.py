"""`companion voice-enroll --words`: the player says the game's context words, two or three
times each, in their language; the recognizer then compares what it hears with them
(enrolled.py, enrolled_engine.py).

Each word is asked ("5 of 22: trois."; the count on the first word and every fifth, the
word alone on the others), recorded `takes` times ("Again."), kept on
disk at once (word_profiles.py), then the player keys Enter (next word), R (say it again:
its recordings are replaced) or 0 (stop; what is recorded is kept, and running the same
command again asks only for the words not yet recorded). The keys are said in full after
the first word, then only "Enter?" (the whole sentence each time was a quarter of the
enrolment's length: benchmarks/enrol_time_bench.py). At the end the templates are
made once for the Whisper model that will listen (a few seconds), so a game starts
without that wait.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from companion.language import player_language
from companion.narrate.message import Message
from companion.voice.enrol_speech import Say, cannot_record, speaking
from companion.voice.reasons import why
from companion.voice.word_profiles import WordProfile

if TYPE_CHECKING:
    pass

TAKES = 2
MIN_SECONDS = 0.2  # a shorter recording is a click, not a word
# One word ends after this much silence (SpeechRecognition's default, 0.8 s, is made for
# sentences; a word has no pause inside it).
PAUSE = 0.5
# The player's time, for the estimate said at the start (benchmarks/enrol_time_bench.py
# measures it from the sentences synthesized: 2.6 to 2.8 minutes for 22 words said twice,
# 3.3 to 3.6 three times): per take the word asked or "Again", the player's reaction, the
# word and the recorder's end of speech; per word the keys said and one pressed.
SECONDS_PER_TAKE = 2.2
SECONDS_PER_WORD = 3.0

Capture = Callable[[], "bytes | None"]
Key = Callable[[], str]


def minutes(words: int, takes: int) -> int:
    """The enrolment's expected length, whole minutes rounded up."""
    return max(1, math.ceil(words * (takes * SECONDS_PER_TAKE + SECONDS_PER_WORD) / 60))


def _message(key: str, **params: object) -> Message:
    return Message("voice_enroll", f"voice_words.{key}", dict(params))


def intro(name: str, game: str, words: int, takes: int) -> Message:
    return _message("intro", name=name, n=words, game=game, takes=takes,
                    minutes=minutes(words, takes))


PROGRESS_EVERY = 5


def ask(n: int, total: int, word: str) -> Message:
    """The word asked: with the count on the first word and every PROGRESS_EVERY-th."""
    if n == 1 or n % PROGRESS_EVERY == 0:
        return _message("say", n=n, total=total, word=word)
    return _message("word", word=word)


def enrolment_sentences(name: str, game: str, words: Sequence[str], takes: int
                        ) -> list[Message]:
    """Everything said in an enrolment where each word is kept at once, in order (what
    `run_cli` and `WordEnrollment.run` say; benchmarks/enrol_time_bench.py times it)."""
    out = [intro(name, game, len(words), takes)]
    for n, word in enumerate(words, 1):
        out.append(ask(n, len(words), word))
        out += [_message("again", word=word)] * (takes - 1)
        out.append(_message("kept" if n == 1 else "next"))
    return out


@dataclass
class WordEnrollment:
    """Ask for each word, record its takes, keep them; keys decide what comes next."""

    profile: WordProfile
    say: Say
    capture: Capture
    key: Key
    takes: int = TAKES

    def todo(self, words: Sequence[str]) -> list[str]:
        """The words not yet recorded `takes` times (an interrupted enrolment goes on)."""
        done = {w: len(r) for w, r in self.profile.recordings().items()}
        return [w for w in words if done.get(w, 0) < self.takes]

    def _record(self, word: str) -> bytes | None:
        pcm = self.capture()
        if pcm is None or len(pcm) < MIN_SECONDS * 32000:
            self.say(_message("nothing", word=word))
            pcm = self.capture()
        return pcm if pcm is not None and len(pcm) >= MIN_SECONDS * 32000 else None

    def run(self, words: Sequence[str]) -> bool:
        """Record every word still to do; False when the player stopped (0)."""
        total = len(words)
        for asked, word in enumerate(self.todo(words)):
            n = list(words).index(word) + 1
            while True:
                self.profile.forget(word)  # again from the first take
                self.say(ask(n, total, word))
                for take in range(self.takes):
                    if take:
                        self.say(_message("again", word=word))
                    pcm = self._record(word)
                    if pcm is not None:
                        self.profile.save(pcm, word)
                self.say(_message("next" if asked else "kept"))
                answer = self.key().strip().lower()
                if answer == "0":
                    self.say(_message("stopped"))
                    return False
                if answer not in ("r", "*"):
                    break
        return True


def _game(name: str | None) -> str:
    """The game named, or `companion play`'s default (as voice.cli.game_voice chooses)."""
    from companion.games.registry import default_game, game_names

    return name or default_game() or game_names()[0]


def run_cli(args: Any) -> int:
    """`companion voice-enroll --name NAME --words [--game G] [--lang L] [--takes N]
    [--from-dir DIR] [--no-speech]`."""
    from companion.narrate.catalogue import Catalogue
    from companion.voice.profiles import ProfileError

    lang = player_language(args.lang)
    opened = _open_profile(args, lang)
    if opened is None:
        return 2
    hooks, game, profile = opened
    speaker, say = speaking(Catalogue(lang, games=(game,)), not args.no_speech)
    try:
        enrol = getattr(hooks, "enrolment_words", None)
        words = list(enrol(lang)) if enrol is not None else []
        if not words:
            say(_message("no_words"))
            return 2
        stopped = _record_words(args, profile, game, words, say)
        if stopped is not None:
            return stopped
        return _learn(profile, lang, say, args.name)
    except (ProfileError, OSError) as exc:
        say(Message("voice_enroll", "voice_profile.not_made", {"reason": why(exc)}))
        return 2
    finally:
        speaker.close()


def _open_profile(args: Any, lang: str) -> tuple[Any, str, WordProfile] | None:
    """(the game's voice hooks, the game, the player's word profile), or None with the
    reason printed (an unknown game, a bad name): nothing is said before a profile opens."""
    import sys

    from companion.narrate.catalogue import Catalogue
    from companion.voice.cli import game_voice
    from companion.voice.profiles import ProfileError

    try:
        hooks = game_voice(args.game)
        game = _game(args.game)
        profile = WordProfile.named(args.name, game, lang)
    except (ValueError, ProfileError) as exc:
        reason = Catalogue(lang, games=()).value(why(exc))
        print(f"companion voice-enroll: {reason}", file=sys.stderr)
        return None
    return hooks, game, profile


def _record_words(args: Any, profile: WordProfile, game: str, words: Sequence[str],
                  say: Say) -> int | None:
    """Every word's recordings into `profile`: read from `--from-dir` or walked through at
    the microphone. None when the templates are to be made; else the exit code (1: the
    player stopped, 2: no microphone, or it stopped working)."""
    import sys

    if args.from_dir is not None:  # recordings made elsewhere: X.wav with X.txt
        from companion.voice.profiles import load_recordings

        for utterance in load_recordings(args.from_dir):
            profile.save(utterance.pcm, utterance.text)
        return None
    from companion.voice.listen import MicrophoneUnavailable, Recorder

    try:
        capture = Recorder(pause=PAUSE).record
    except MicrophoneUnavailable as error:  # no microphone, or a package, said as such
        say(cannot_record(error, _message))
        return 2
    say(intro(args.name, game.capitalize(), len(words), args.takes))
    walk = WordEnrollment(profile, say, capture, sys.stdin.readline, args.takes)
    try:
        if not walk.run(words):
            return 1
    except KeyboardInterrupt:
        say(_message("stopped"))
        return 1
    except MicrophoneUnavailable as lost:  # unplugged meanwhile: what is recorded stays
        say(_message("lost", reason=why(lost)))
        return 2
    return None


def _learn(profile: WordProfile, lang: str, say: Say, name: str) -> int:
    """Make the templates once for the Whisper model that will listen."""
    from companion.voice.enrolled_engine import Frames, load_voice
    from companion.voice.whisper import WhisperRecognizer
    from companion.voice.whisper_model import ModelMissing

    say(_message("learning"))
    try:
        engine = WhisperRecognizer(None, lang)
        try:
            voice = load_voice(profile, Frames(engine), engine.path.name)
        finally:
            engine.close()
    except ModelMissing as missing:
        say(_message("no_whisper", reason=why(missing)))
        return 2
    say(_message("ready", n=len(voice.words), name=name))
    return 0
