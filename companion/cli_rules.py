"""`companion rules [game]`: a game's rulebook read aloud, section by section.

Lines come from standard input (typed, or a keypad that types: Enter or plus reads on,
minus goes back, star repeats, slash gives the contents, a number opens a section) or
from `--script`; any other line is a question by word ("what is a gift"). Each answer is
one printed line, and spoken unless `--no-speech`. See docs/learning.md.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from companion.narrate.message import Message


def add_parser(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    from companion.cli import add_game_options

    p = sub.add_parser("rules", help="a game's rules read aloud: sections, contents, "
                                     "questions by word")
    add_game_options(p)
    p.add_argument("--script", type=Path, help="read the lines from FILE, then end")
    p.add_argument("--json", action="store_true", help="one JSON object per announcement")
    p.add_argument("--no-speech", action="store_true", help="print only")
    p.set_defaults(func=run_rules)


def run_rules(args: argparse.Namespace) -> int:
    from companion.cli import system_language
    from companion.narrate.catalogue import Catalogue
    from companion.output import Output
    from companion.rulebook.book import RulebookMissing, load
    from companion.rulebook.navigator import Navigator

    lang = args.lang or system_language()
    catalogue = Catalogue(lang, games=(args.game,))
    if args.script is not None and not args.script.is_file():
        print(catalogue.render(Message("error", "no_script", {"path": str(args.script)})))
        return 2
    try:
        book = load(args.game, catalogue.lang)
    except RulebookMissing:
        print(catalogue.render(Message("error", "rules.missing",
                                       {"game": args.game.capitalize()})))
        return 2
    speaker = None
    if not args.no_speech:
        from companion.speech import load_settings, open_speaker

        settings, _ = load_settings()
        speaker, _ = open_speaker(catalogue.lang, settings, enabled=True)
    out = Output(catalogue, json_mode=args.json, speaker=speaker)
    interactive = args.script is None
    navigator = Navigator(book)
    source = open(args.script, encoding="utf-8") if args.script else sys.stdin  # noqa: SIM115
    try:
        out.emit(navigator.opening())
        for line in source:
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
