"""The input loop the spoken reading tools share (`companion rules`, `companion stickers
quiz`): typed or scripted lines and what is heard, one answer each, until the tool is done.

The tool says what each input gets (`respond`); this module owns the order around it, the
same in every tool: a new input silences what is being read, the push-to-talk key listens
instead of being answered, the voice listens for what is expected after each answer, and
at the end the speaker finishes (all of a script's answers, a moment of a player's).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Iterable
from typing import Any, TextIO


def open_lines(args: argparse.Namespace) -> TextIO:
    """The lines to read: `--script`'s file, else standard input (closed by close_reading)."""
    return open(args.script, encoding="utf-8") if args.script else sys.stdin  # noqa: SIM115


def answer_each(inputs: Iterable[Any], speaker: Any, voice: Any, interactive: bool,
                respond: Callable[[Any], bool]) -> None:
    """Each input answered by `respond`, which says whether the tool is done, until then or
    until the input ends. `voice`: a ReadingVoice, or None (no --voice, or none here)."""
    for item in inputs:
        if speaker is not None and interactive:
            speaker.stop()  # a new line silences what is being read
        if voice is not None and voice.is_push_key(item):
            voice.push_to_talk()
            continue
        if respond(item):
            break
        if voice is not None:
            voice.follow()


def close_reading(args: argparse.Namespace, hub: Any, source: TextIO, speaker: Any) -> None:
    """The end of a reading tool, however it ends: the inputs closed, then the speaker
    finishes (a script's answers all said; a player who left is not kept waiting)."""
    hub.close()
    if args.script:
        source.close()
    if speaker is not None:
        speaker.wait(timeout=600 if args.script is not None else 5)
        speaker.close()
