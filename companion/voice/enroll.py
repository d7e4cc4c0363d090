"""`companion voice-enroll`: a player reads commands aloud, the model learns their voice
(`--words`: the player's own voice for the enrolled recognizer, enroll_words.py).

The companion says and prints each command to read, from the game's voice hooks ("12 of 40.
Say: gift flute, fan and tea"), records it, keeps the recording at once
(profiles.Profile.save), and at the end adapts the acoustic model (adapt.adapt). Its
sentences are in the player's language (`--lang`, else the one chosen on this machine, as
`companion play` takes it; the catalogue's `[messages.voice_profile]`); the commands stay
English, the model's language, and the English voice says them. `--from-dir` takes
recordings made elsewhere (`X.wav` with `X.txt`). Then `companion play --voice
--voice-profile NAME` uses the profile.
Recording where the game is played, with the same microphone, adapts to the room as well.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from companion.language import player_language
from companion.narrate.message import Message
from companion.voice.adapt import (
    MIN_UTTERANCES,
    AdaptationUnavailable,
    Utterance,
    adapt,
    find_tools,
)
from companion.voice.cli import game_voice
from companion.voice.enrol_speech import Say, cannot_record, speaking
from companion.voice.enroll_words import TAKES
from companion.voice.profiles import Profile, ProfileError, load_recordings
from companion.voice.reasons import why

if TYPE_CHECKING:
    pass

DEFAULT_COUNT = 40
MIN_SECONDS = 0.3  # shorter recordings are a click or a cough, not a command


def said(key: str, **params: object) -> Message:
    """One of voice-enroll's sentences (`[messages.voice_profile]`)."""
    return Message("voice_enroll", f"voice_profile.{key}", dict(params))


class Enrollment:
    """Read prompts to the player and record each answer into the profile."""

    def __init__(self, profile: Profile, say: Say, capture: Callable[[], bytes | None]) -> None:
        self.profile = profile
        self.say = say
        self.capture = capture

    def run(self, texts: list[str]) -> int:
        """Record every prompt (a silence is asked again once); the number recorded."""
        index = self.profile.next_index()
        recorded = 0
        for n, text in enumerate(texts, 1):
            for attempt in range(2):
                self.say(said("say", n=n, total=len(texts), command=text) if attempt == 0
                         else said("again", command=text))
                pcm = self.capture()
                if pcm is not None and len(pcm) >= MIN_SECONDS * 32000:
                    self.profile.save(index, pcm, text)
                    index += 1
                    recorded += 1
                    break
            else:
                self.say(said("skipped"))
        return recorded


def add_parser(subparsers: argparse._SubParsersAction) -> argparse.ArgumentParser:
    parser = subparsers.add_parser(
        "voice-enroll", help="teach the voice recognizer one player's voice",
        description="Read commands aloud (or give recordings with --from-dir); the English "
                    "voice model is adapted to this voice and saved as a profile for "
                    "`companion play --voice --voice-profile NAME`.")
    parser.add_argument("--name", required=True, help="the player's name (the profile name)")
    parser.add_argument("--count", type=int, default=DEFAULT_COUNT,
                        help=f"commands to read (default {DEFAULT_COUNT}; more is better; 0: "
                             "only adapt again from what is already recorded)")
    parser.add_argument("--from-dir", type=Path, metavar="DIR",
                        help="use the recordings in DIR (X.wav with X.txt) instead of "
                             "the microphone")
    parser.add_argument("--no-speech", action="store_true", help="print the prompts only")
    parser.add_argument("--game", default=None,
                        help="the game whose commands to read (default: that of companion play)")
    parser.add_argument("--words", action="store_true",
                        help="enrol the player's own voice instead: say each of the game's "
                             "context words two or three times (under three minutes said "
                             "twice, any language or accent); play then compares what it "
                             "hears with them, beside Whisper")
    parser.add_argument("--lang", default=None,
                        help="the language the companion speaks (default: the one chosen "
                             "on this machine, else the system's, as for companion play; the "
                             "commands read stay English, the model's language); with --words "
                             "also the words' language")
    parser.add_argument("--takes", type=int, default=TAKES, choices=(2, 3),
                        help=f"with --words: times each word is said (default {TAKES})")
    parser.set_defaults(func=run)
    return parser


def run(args: argparse.Namespace) -> int:
    if args.words:
        from companion.voice.enroll_words import run_cli

        return run_cli(args)
    from companion.narrate.catalogue import Catalogue

    catalogue = Catalogue(player_language(args.lang), games=())
    try:
        hooks = game_voice(args.game)
    except ValueError as exc:
        print(f"companion voice-enroll: {catalogue.value(why(exc))}", file=sys.stderr)
        return 2
    speaker, say = speaking(catalogue, not args.no_speech)
    kept = 0
    missing = _missing_tools()
    try:
        profile = Profile.named(args.name)
        if args.from_dir is not None:
            for n, utt in enumerate(load_recordings(args.from_dir), profile.next_index()):
                profile.save(n, utt.pcm, utt.text)
        elif args.count > 0 and not _read_aloud(args, hooks, profile, say, missing):
            return 2
        utterances: list[Utterance] = (load_recordings(profile.recordings)
                                       if profile.recordings.is_dir() else [])
        kept = len(utterances)
        _learn(args.name, profile, utterances, hooks, say, missing)
        return 0
    except (AdaptationUnavailable, ProfileError, OSError) as exc:
        say(said("not_made", reason=why(exc)))
        if kept >= MIN_UTTERANCES:
            say(said("kept", n=kept, name=args.name))
        return 2
    finally:
        speaker.close()


def _missing_tools() -> AdaptationUnavailable | None:
    """Why this computer cannot adapt a model (SphinxTrain's programs), or None."""
    try:
        find_tools()
    except AdaptationUnavailable as exc:
        return exc
    return None


def _read_aloud(args: argparse.Namespace, hooks: Any, profile: Profile, say: Say,
                missing: AdaptationUnavailable | None) -> bool:
    """The player reads `--count` commands into the profile; False, once said, when
    nothing can be read (no commands in this game, no microphone) or the microphone stopped
    meanwhile."""
    # Another session of the same player reads other commands.
    texts = hooks.enrolment_prompts(args.count, seed=profile.next_index())
    if not texts:
        say(said("no_commands"))
        return False
    from companion.voice.listen import MicrophoneUnavailable, Recorder

    try:
        capture = Recorder().record
    except MicrophoneUnavailable as error:  # no microphone, or a package, said as such
        say(cannot_record(error, said))
        return False
    if missing is not None:
        # Said before the reading, not after it; what happens to it first.
        say(said("cannot_learn_yet", reason=why(missing), name=args.name))
    say(said("intro", name=args.name))
    try:
        Enrollment(profile, say, capture).run(texts)
    except KeyboardInterrupt:
        say(said("stopped"))
    except MicrophoneUnavailable as lost:  # unplugged meanwhile: what is recorded stays
        say(said("lost", reason=why(lost)))
        return False
    return True


def _learn(name: str, profile: Profile, utterances: list[Utterance], hooks: Any, say: Say,
           missing: AdaptationUnavailable | None) -> None:
    """The model adapted to every recording the profile holds (adapt refuses too few, or
    a computer without the tools: AdaptationUnavailable), then said ready."""
    if len(utterances) >= MIN_UTTERANCES and missing is None:
        say(said("learning", n=len(utterances)))
    report = adapt(utterances, profile.model, hooks.pronunciations)
    profile.record_made(report)
    say(said("ready", name=name, aligned=report.aligned, n=report.utterances))
