"""`companion listen`: recognize one spoken command from a WAV file."""

from __future__ import annotations

import argparse
import json
import sys

from companion.voice.audio import AudioError, read_wav
from companion.voice.context import Context
from companion.voice.sphinx import VoiceUnavailable


def add_parser(subparsers: argparse._SubParsersAction) -> argparse.ArgumentParser:
    parser = subparsers.add_parser(
        "listen", help="recognize one spoken command from a WAV file",
        description="Recognize one utterance (WAV; 16 kHz mono 16-bit is best, others are "
                    "converted) and print the command in canonical form, or nothing recognized.")
    parser.add_argument("--file", required=True, help="the WAV file to recognize")
    parser.add_argument("--lang", default="en", help="language (en: built in; others need a "
                        "Vosk model, see docs/voice.md)")
    parser.add_argument("--vosk-model", default=None, help="path of a Vosk model directory")
    parser.add_argument("--profile", metavar="NAME",
                        help="recognize with NAME's voice profile (companion voice-enroll)")
    parser.add_argument("--json", action="store_true",
                        help='print {"command": ..., "confidence": ...}')
    parser.add_argument("--context", default="any", choices=STANDALONE,
                        help="listening context (only `any` needs no game state)")
    parser.set_defaults(func=run)
    return parser


# The contexts a WAV file can be heard in alone; answering an offer needs the game's offer,
# so those are heard through the session (companion play --voice), not offered here.
STANDALONE = ("any", "action", "reveal", "confirm")


def _context(kind: str) -> Context:
    return getattr(Context, kind)()


def run(args: argparse.Namespace) -> int:
    try:
        pcm = read_wav(args.file)
        ctx = _context(args.context)
        if args.lang.lower().startswith("en") and not args.vosk_model:
            from companion.voice.sphinx import SphinxRecognizer
            model = None
            if args.profile:
                from companion.voice.profiles import Profile
                model = Profile.named(args.profile).require_model()
            recognition = SphinxRecognizer(hmm=model).recognize(pcm, ctx)
        else:
            from companion.voice.vosk_backend import VoskRecognizer
            recognition = VoskRecognizer(args.vosk_model, args.lang).recognize(pcm, ctx)
    except (AudioError, VoiceUnavailable, ValueError, OSError) as exc:
        print(f"companion listen: {exc}", file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps({"command": recognition.command,
                          "confidence": round(recognition.confidence, 3)}))
    else:
        print(recognition.command if recognition.command is not None
              else "I did not understand, please repeat.")
    return 0 if recognition.command is not None else 1


def main(argv: list[str] | None = None) -> int:
    """Stand-alone entry (`python -m companion.voice.cli listen --file x.wav`)."""
    parser = argparse.ArgumentParser(prog="companion")
    add_parser(parser.add_subparsers(dest="command", required=True))
    args = parser.parse_args(argv)
    return int(args.func(args))


if __name__ == "__main__":
    raise SystemExit(main())
