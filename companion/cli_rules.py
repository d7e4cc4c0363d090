"""`companion rules [game]`: a game's rulebook read aloud, section by section.

Lines come from standard input (typed, or a keypad that types: Enter or plus reads on,
minus goes back, star repeats, slash gives the contents, a number opens a section) or
from `--script`; any other line is a question by word ("what is a gift"). Each answer is
one printed line, and spoken unless `--no-speech`. See docs/learning.md.
"""

from __future__ import annotations

import argparse
import sys

from companion.narrate.message import Message


def add_parser(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    from companion.cli import add_game_options, add_reading_options

    p = sub.add_parser("rules", help="a game's rules read aloud: sections, contents, "
                                     "questions by word")
    add_game_options(p)
    add_reading_options(p)
    p.set_defaults(func=run_rules)


def run_rules(args: argparse.Namespace) -> int:
    from companion.cli import reading_catalogue, reading_outputs
    from companion.inputs.hub import read_lines
    from companion.rulebook.book import RulebookMissing, load
    from companion.rulebook.navigator import Navigator

    catalogue = reading_catalogue(args)
    if catalogue is None:
        return 2
    try:
        book = load(args.game, catalogue.lang)
    except RulebookMissing:
        print(catalogue.render(Message("error", "rules.missing",
                                       {"game": args.game.capitalize()})))
        return 2
    out, speaker = reading_outputs(args, catalogue)
    interactive = args.script is None
    navigator = Navigator(book)
    source = open(args.script, encoding="utf-8") if args.script else sys.stdin  # noqa: SIM115
    try:
        out.emit(navigator.opening())
        for line in read_lines(source):  # bounded, never ended by a bad byte
            if speaker is not None and interactive:
                speaker.stop()  # a new line silences what is being read
            messages = navigator.handle(line)
            out.emit(messages)
            if any(m.event == "quit" for m in messages):
                break
    except KeyboardInterrupt:
        pass
    finally:
        if args.script:
            source.close()
        if speaker is not None:
            speaker.wait(timeout=600 if not interactive else 5)
            speaker.close()
    return 0
