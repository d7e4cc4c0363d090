"""`companion listen`: recognize one spoken command from a WAV file.

Its refusals and notes are said in the person's language (`--lang`, else the one chosen on
this machine, as `companion play`): the errors carry their reason as a catalogue `message`
(reasons.py). The command recognized is printed in its canonical text, which a script reads.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import TYPE_CHECKING, Any

from companion.narrate.message import Message
from companion.voice.audio import AudioError, read_wav
from companion.voice.decoders import VoiceUnavailable
from companion.voice.options import add_engine_options
from companion.voice.reasons import Explained, explained, why
from companion.voice.whisper_model import ModelMissing

if TYPE_CHECKING:
    from companion.narrate.catalogue import Catalogue


def add_parser(subparsers: argparse._SubParsersAction) -> argparse.ArgumentParser:
    parser = subparsers.add_parser(
        "listen", help="recognize one spoken command from a WAV file",
        description="Recognize one utterance (WAV; 16 kHz mono 16-bit is best, others are "
                    "converted) and print the command in canonical form, or nothing recognized.")
    parser.add_argument("--file", required=True, help="the WAV file to recognize")
    parser.add_argument("--lang", default=None, help="language: en, fr, es, uk (Whisper: tiny.en "
                        "for English, the multilingual base for the others; or a Vosk model, "
                        "see docs/voice.md; default: listen for English, say refusals in the "
                        "language chosen on this machine)")
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


class GameVoiceMissing(Explained, ValueError):
    """No game, or none with voice commands, of that name; `message` says it in the
    catalogue (reasons.py), str() in English."""


class ListenRefused(Explained, ValueError):
    """What was asked cannot be listened for (a language without the game's words, a
    context a recording cannot be heard in); `message` says it in the catalogue."""


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


def _catalogue(lang: str | None) -> Catalogue:
    """Where this command's sentences come from: the language asked (--lang), else the one
    chosen on this machine (as `companion play`); one the companion does not speak is
    English."""
    from companion.language import player_language
    from companion.narrate.catalogue import Catalogue

    return Catalogue(player_language(lang), games=())


def _say(catalogue: Catalogue, said: Message | str) -> None:
    """One plain line on stderr; stdout holds only the answer."""
    print(f"companion listen: {catalogue.value(said)}", file=sys.stderr)


def _engine(args: argparse.Namespace, hooks: Any, catalogue: Catalogue) -> Any:
    """Whisper by default in every language the game's words exist in (base for all but
    English); pocketsphinx (English only) when asked or when Whisper cannot run; Vosk with
    the model given."""
    lang = args.lang or "en"  # what is listened for: English unless asked
    english = lang.lower().startswith("en")
    if args.vosk_model and args.engine != "whisper" or not english and args.engine == "sphinx":
        from companion.voice.vosk_backend import VoskRecognizer
        return VoskRecognizer(args.vosk_model, lang)
    if lang.lower()[:2] not in getattr(hooks, "languages", ("en",)):
        raise explained(ListenRefused, "no_words_in", lang=repr(lang))
    from companion.voice.engines import make_engine
    model = None
    if args.profile:
        from companion.voice.profiles import Profile
        model = Profile.named(args.profile).require_model()
    missing: list[Exception] = []

    def fallback(reason: Exception) -> None:
        _say(catalogue, Message("", "voice_listen.fallback", {"reason": why(reason)}))

    engine = make_engine(args.engine, args.whisper_model, model, hooks.pronunciations,
                         lang, say=fallback if english else missing.append)
    if missing:  # pocketsphinx knows English only
        engine.close()
        raise explained(VoiceUnavailable, "english_only", reason=why(missing[0]))
    return engine


def _context(hooks: Any, name: str) -> Any:
    """The game's listening context named, or ValueError naming those it offers."""
    offered = list(hooks.listen_contexts)
    if name not in offered:
        if not offered:
            raise explained(ListenRefused, "no_context", context=repr(name))
        raise explained(ListenRefused, "bad_context", context=repr(name), known=", ".join(offered))
    return hooks.listen_context(name)


def run(args: argparse.Namespace) -> int:
    catalogue = _catalogue(args.lang)
    try:
        pcm = read_wav(args.file)
        hooks = game_voice(args.game)
        ctx = _context(hooks, args.context)
        engine = _engine(args, hooks, catalogue)
        recognition = hooks.make_recognizer(engine).recognize(pcm, ctx)
    except (AudioError, VoiceUnavailable, ModelMissing, ValueError, OSError) as exc:
        _say(catalogue, why(exc))
        return 2
    if args.json:
        print(json.dumps({"command": recognition.command,
                          "confidence": round(recognition.confidence, 3)}))
    else:
        print(recognition.command if recognition.command is not None
              else catalogue.render(Message("", "error.not_understood")))
    others = [c for c in hooks.listen_contexts if c != args.context]
    if recognition.command is None and args.context == "any" and others:
        # `any` (the default) is the hardest test: every command competes with every other,
        # and the stricter confidence there refuses even some clean speech (docs/voice.md).
        _say(catalogue, Message("", "voice_listen.any_refused",
                                {"choices": catalogue.join(others, "or_sep")}))
    return 0 if recognition.command is not None else 1


def main(argv: list[str] | None = None) -> int:
    """Stand-alone entry (`python -m companion.voice.cli listen --file x.wav`)."""
    parser = argparse.ArgumentParser(prog="companion")
    add_parser(parser.add_subparsers(dest="command", required=True))
    args = parser.parse_args(argv)
    return int(args.func(args))


if __name__ == "__main__":
    raise SystemExit(main())
