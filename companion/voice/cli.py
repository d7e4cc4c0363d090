"""`companion listen`: recognize one spoken command from a WAV file."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from companion.narrate.message import Message
from companion.voice.audio import AudioError, read_wav
from companion.voice.decoders import VoiceUnavailable
from companion.voice.options import add_engine_options
from companion.voice.reasons import explained
from companion.voice.whisper_model import ModelMissing


def add_parser(subparsers: argparse._SubParsersAction) -> argparse.ArgumentParser:
    parser = subparsers.add_parser(
        "listen", help="recognize one spoken command from a WAV file",
        description="Recognize one utterance (WAV; 16 kHz mono 16-bit is best, others are "
                    "converted) and print the command in canonical form, or nothing recognized.")
    parser.add_argument("--file", required=True, help="the WAV file to recognize")
    parser.add_argument("--lang", default="en", help="language: en, fr, es, uk (Whisper: tiny.en "
                        "for English, the multilingual base for the others; or a Vosk model, "
                        "see docs/voice.md; default: en)")
    parser.add_argument("--vosk-model", default=None, help="path of a Vosk model directory")
    parser.add_argument("--profile", metavar="NAME",
                        help="recognize with NAME's voice profile (companion voice-enroll)")
    parser.add_argument("--json", action="store_true",
                        help='print {"command": ..., "confidence": ...}')
    parser.add_argument("--context", default="any",
                        help="the game's listening context: " + _contexts_said()
                             + " (default: any)")
    parser.add_argument("--game", default=None,
                        help="the game whose commands to listen for (default: the first "
                             "installed)")
    add_engine_options(parser)
    parser.set_defaults(func=run)
    return parser


def _contexts_said() -> str:
    """The contexts a recording can be heard in alone, for the default game's help line."""
    try:
        return ", ".join(game_voice(None).listen_contexts) + " for the default game"
    except ValueError:
        return "none (no installed game has voice commands)"


class GameVoiceMissing(ValueError):
    """No game, or none with voice commands, of that name; `message` says it in the
    catalogue (reasons.py), str() in English."""

    message: Message | None = None


def game_voice(name: str | None) -> Any:
    """The voice hooks of the named game (default: the default game of `companion play`),
    or GameVoiceMissing (a ValueError; loading the game may raise another)."""
    from companion.games.registry import default_game, game_names, load_game

    names = game_names()
    if not names:
        raise explained(GameVoiceMissing, "no_game_installed")
    name = name or default_game() or names[0]
    if name not in names:
        raise explained(GameVoiceMissing, "no_game", name=name, installed=", ".join(names))
    voice = getattr(load_game(name), "voice", None)
    hooks = voice() if voice is not None else None
    if hooks is None:
        raise explained(GameVoiceMissing, "no_voice", name=name)
    return hooks


def _say_fallback(reason: str) -> None:
    print(f"companion listen: {reason}; listening with pocketsphinx.", file=sys.stderr)


def _engine(args: argparse.Namespace, hooks: Any) -> Any:
    """Whisper by default in every language the game's words exist in (base for all but
    English); pocketsphinx (English only) when asked or when Whisper cannot run; Vosk with
    the model given."""
    english = args.lang.lower().startswith("en")
    if args.vosk_model and args.engine != "whisper" or not english and args.engine == "sphinx":
        from companion.voice.vosk_backend import VoskRecognizer
        return VoskRecognizer(args.vosk_model, args.lang)
    if args.lang.lower()[:2] not in getattr(hooks, "languages", ("en",)):
        raise ValueError(f"this game has no voice words in {args.lang!r}")
    from companion.voice.engines import make_engine
    model = None
    if args.profile:
        from companion.voice.profiles import Profile
        model = Profile.named(args.profile).require_model()
    missing: list[str] = []
    engine = make_engine(args.engine, args.whisper_model, model, hooks.pronunciations,
                         args.lang, say=_say_fallback if english else missing.append)
    if missing:  # pocketsphinx knows English only
        engine.close()
        raise VoiceUnavailable(f"{missing[0]}; pocketsphinx listens in English only: give "
                               "--vosk-model for this language")
    return engine


def run(args: argparse.Namespace) -> int:
    try:
        pcm = read_wav(args.file)
        hooks = game_voice(args.game)
        if args.context not in hooks.listen_contexts:
            known = ", ".join(hooks.listen_contexts) or "none"
            raise ValueError(f"the context {args.context!r} cannot be heard in a recording "
                             f"alone; this game offers: {known}")
        ctx = hooks.listen_context(args.context)
        engine = _engine(args, hooks)
        recognition = hooks.make_recognizer(engine).recognize(pcm, ctx)
    except (AudioError, VoiceUnavailable, ModelMissing, ValueError, OSError) as exc:
        print(f"companion listen: {exc}", file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps({"command": recognition.command,
                          "confidence": round(recognition.confidence, 3)}))
    else:
        print(recognition.command if recognition.command is not None
              else "I did not understand, please repeat.")
    others = [c for c in hooks.listen_contexts if c != args.context]
    if recognition.command is None and args.context == "any" and others:
        # `any` (the default) is the hardest test: every command competes with every other,
        # and the stricter confidence there refuses even some clean speech (docs/voice.md).
        from companion.narrate.catalogue import Catalogue

        choices = Catalogue("en").join(others, "or_sep")  # this command speaks English
        print("companion listen: nothing recognized in the 'any' context, where every "
              f"command competes; name the game's moment if you know it: --context "
              f"{choices}", file=sys.stderr)
    return 0 if recognition.command is not None else 1


def main(argv: list[str] | None = None) -> int:
    """Stand-alone entry (`python -m companion.voice.cli listen --file x.wav`)."""
    parser = argparse.ArgumentParser(prog="companion")
    add_parser(parser.add_subparsers(dest="command", required=True))
    args = parser.parse_args(argv)
    return int(args.func(args))


if __name__ == "__main__":
    raise SystemExit(main())
