"""The recognizer options `companion play` and `companion listen` share (a module of its own:
building `play`'s parser must not import the voice engine)."""

from __future__ import annotations

import argparse


def add_engine_options(parser: argparse.ArgumentParser) -> None:
    """--engine and --whisper-model, for `companion play` and `companion listen`."""
    parser.add_argument("--engine", choices=["sphinx", "whisper"], default=None,
                        help="the recognizer: whisper (default when its model is installed, "
                             "unless a Sphinx voice profile is given) or sphinx")
    parser.add_argument("--whisper-model", metavar="DIR", default=None,
                        help="a CTranslate2 Whisper model directory (default: the installed "
                             "tiny.en for English, base for other languages)")
