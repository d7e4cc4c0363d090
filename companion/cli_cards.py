"""`companion cards enroll` and `companion cards check`: the card registry from the CLI.

Enrolment is spoken and keypad-driven: each card is asked for in turn ("scan a flute card,
1 of 2"); a scan from a serial reader (--reader) or a typed line (a keyboard-wedge
scanner types the id then Enter) enrols it. 0 stops, star repeats, minus undoes the last
one, Enter alone skips; Ctrl-C and the end of input stop too. Everything enrolled is saved
at once, so the next run simply goes on with what is missing.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from companion.narrate.catalogue import LANGUAGES


def add_parser(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Register `cards` and its sub-commands; each sets `func(args) -> exit status`.
    Nothing is registered when no installed game enrols its cards."""
    from companion.cards.enroll import enrolling_games
    from companion.cards.payload import hooks

    games = enrolling_games()
    if not games:
        return
    kinds = list(dict.fromkeys(k for game in games for k in hooks(game).enrolment))
    parser = subparsers.add_parser(
        "cards", help="the card registry: enrol RFID tags and barcodes, check what is missing",
        description="Tell the companion which tag or barcode is on which physical card.",
    )
    commands = parser.add_subparsers(dest="cards_command", metavar="COMMAND", required=True)

    def common(p: argparse.ArgumentParser) -> None:
        p.add_argument("--registry", type=Path, metavar="PATH",
                       help="the registry file (default: cards.json in the user data folder)")
        p.add_argument("--lang", choices=LANGUAGES, help="language (default: the system's)")
        p.add_argument("--no-speech", action="store_true", help="print only")
        p.add_argument("--json", action="store_true", help="one JSON object per line")
        p.add_argument("--game", choices=games, default=games[0],
                       help=f"the game whose cards to enrol (default: {games[0]})")
        p.add_argument("--only", choices=kinds, action="append", metavar="KIND",
                       help=f"only these kinds of card: {', '.join(kinds)} (repeatable)")

    p = commands.add_parser("enroll", aliases=["enrol"], help="scan each card once, spoken")
    p.add_argument("--reader", metavar="URL",
                   help="serial reader: /dev/ttyUSB0, /dev/serial/by-id/..., loop://, ...")
    p.add_argument("--protocol", default="rdm6300", metavar="P",
                   help="reader protocol: rdm6300 (default), line, uid-lines")
    common(p)
    p.set_defaults(func=run_enroll)

    p = commands.add_parser("check", help="say which cards are enrolled and which are missing")
    common(p)
    p.set_defaults(func=run_check)


def _setup(args: argparse.Namespace) -> tuple[Any, Any, Any]:
    """(output, speaker, registry or None after saying why it cannot be read)."""
    from companion.cards.registry import CardRegistry, RegistryError
    from companion.narrate.catalogue import Catalogue
    from companion.narrate.message import Message
    from companion.output import Output

    lang = args.lang
    if lang is None:
        from companion.cli import system_language

        lang = system_language()
    catalogue = Catalogue(lang)
    speaker = None
    if not args.no_speech:
        from companion.speech import open_speaker

        speaker, notice = open_speaker(lang, enabled=True)
        if notice is not None:
            speaker = None
            print(catalogue.word("messages", "speech_unavailable"))
    out = Output(catalogue, json_mode=args.json, speaker=speaker)
    try:
        registry = CardRegistry.load(args.registry)
    except RegistryError as error:
        out.emit([Message("error", "cards.registry_unreadable", {"reason": str(error)})])
        return out, speaker, None
    return out, speaker, registry


def _cards(args: argparse.Namespace) -> Any:
    from companion.cards.enroll import enrolled_cards

    kinds = set(args.only) if args.only else None
    return [c for c in enrolled_cards(args.game) if kinds is None or c.kind in kinds]


def _finish(speaker: Any, interactive: bool) -> None:
    if speaker is not None:
        speaker.wait(timeout=60 if interactive else 600)
        speaker.close()


def run_check(args: argparse.Namespace) -> int:
    from companion.cards.enroll import check_messages

    out, speaker, registry = _setup(args)
    try:
        if registry is None:
            return 2
        out.emit(check_messages(registry, _cards(args)))
        return 0 if not registry.missing(_cards(args)) and not registry.problems else 1
    finally:
        _finish(speaker, False)


def run_enroll(args: argparse.Namespace) -> int:
    from companion.cards.enroll import Enrollment
    from companion.inputs.hub import InputHub, InputItem
    from companion.narrate.message import Message, Priority

    out, speaker, registry = _setup(args)
    if registry is None:
        _finish(speaker, False)
        return 2
    walk = Enrollment(registry, _cards(args))
    out.emit(walk.start())
    if walk.done:
        _finish(speaker, False)
        return 0
    interactive = sys.stdin.isatty()
    hub = InputHub()
    hub.add_lines(sys.stdin, "keyboard")
    if args.reader:
        from hardware import SerialReader

        try:
            reader = SerialReader(args.reader, args.protocol, name="1",
                                  on_event=lambda e: hub.queue.put(InputItem("reader", event=e)))
        except ValueError:  # an unknown protocol: typed ids still work
            out.emit([Message("error", "cards.reader_bad_protocol", {"protocol": args.protocol},
                              priority=Priority.REFUSAL)])
        else:
            reader.start()
            hub.add_closer(reader.close)
    try:
        for item in hub:
            if speaker is not None and interactive:
                speaker.stop()  # a new scan or key silences the previous prompt
            out.emit(_enroll_input(walk, item))
            if walk.done:
                break
        else:
            out.emit(walk.stop())  # end of input
    except KeyboardInterrupt:
        out.emit(walk.stop())
    finally:
        hub.close()
        _finish(speaker, interactive)
    return 0


def _enroll_input(walk: Any, item: Any) -> list[Any]:
    from companion.narrate.message import Message, Priority

    if item.text is not None:
        return walk.handle_line(item.text)
    event = item.event
    if event is None:
        return []
    if event.kind == "scan":
        return walk.handle_tag(event.value)
    if event.kind in ("error", "disconnected"):
        return [Message("error", "cards.enroll_reader_error",
                        {"reader": event.reader, "detail": event.detail},
                        priority=Priority.REFUSAL)]
    if event.kind == "connected":
        return [Message("reader_connected", "cards.reader_connected")]
    return []
