"""`companion stickers quiz [game]`: the sticker code trainer, spoken and printed.

Answers come from a card reader (`--reader URL`, as `companion play --reader`; printed QR
labels, or tags enrolled with `companion cards enroll`), from keyed or typed lines (the
piece's number as in play; a wedge scanner types its label), or as a description of what
is felt; with `--voice`, said (companion/sticker_quiz_spoken.py: the numbers, what is
felt, skip, repeat, help, quit in each language). See companion/sticker_quiz.py and
docs/learning.md.
"""

from __future__ import annotations

import argparse
import random
from pathlib import Path
from typing import Any

from companion.narrate.message import Message, Priority


def add_quiz(commands: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    from companion.cards.payload import card_games
    from companion.cli import add_reading_options
    from companion.narrate.catalogue import LANGUAGES

    games = card_games()
    p = commands.add_parser("quiz", help="the sticker code trainer: find each piece asked "
                                         "for by touch, scan it or key its number")
    p.add_argument("game", nargs="?", choices=games, default=games[0] if games else None,
                   help="the game whose pieces to practise (default: "
                        f"{games[0] if games else 'none installed'})")
    p.add_argument("--lang", choices=LANGUAGES, help="language (default: the system's)")
    p.add_argument("--seed", type=int, help="the questions' order (default: random)")
    p.add_argument("--rounds", type=int, default=10, metavar="N",
                   help="questions before the missed pieces come back (default 10)")
    p.add_argument("--explore", action="store_true",
                   help="no questions: each scan or description is named (default: a quiz)")
    p.add_argument("--reader", action="append", metavar="URL",
                   help="a card reader by pyserial URL (repeatable), e.g. /dev/ttyUSB0")
    p.add_argument("--reader-protocol", action="append",
                   choices=["line", "rdm6300", "uid-lines"], help="one per --reader")
    p.add_argument("--registry", type=Path, help="the card registry file (enrolled tags)")
    add_reading_options(p)
    p.set_defaults(func=run_quiz)


def run_quiz(args: argparse.Namespace) -> int:
    from companion.cli import reading_catalogue, reading_outputs
    from companion.inputs.hub import InputHub
    from companion.reading_loop import answer_each, close_reading, open_lines
    from companion.sticker_quiz import pieces

    catalogue = reading_catalogue(args)
    if catalogue is None:
        return 2
    found = pieces(args.game)
    if not found:
        print(catalogue.render(Message("error", "quiz.no_pieces",
                                       {"game": args.game.capitalize()})))
        return 2
    quiz = _new_quiz(args, found)
    out, speaker = reading_outputs(args, catalogue)
    registry = _registry(args, out)
    hub = InputHub()
    source = open_lines(args)
    # before the first question: why voice cannot start is said first
    voice = _listen(args, hub, found, catalogue, out) if args.voice else None
    out.emit(quiz.start())
    hub.add_lines(source, "script" if args.script else "keyboard")
    if args.reader:
        from companion.inputs.devices import attach_devices

        attach_devices(hub, args, out.emit)

    def respond(item: Any) -> bool:
        out.emit(answer(quiz, item, registry, voice and voice.heard))
        return quiz.over

    try:
        answer_each(hub, speaker, voice, args.script is None, respond)
        if not quiz.over:  # the input ended first: the summary all the same
            out.emit(quiz.finish())
    except KeyboardInterrupt:
        out.emit(quiz.finish())
    finally:
        close_reading(args, hub, source, speaker)
    return 0


def _new_quiz(args: argparse.Namespace, found: Any) -> Any:
    from companion.sticker_quiz import Quiz

    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(10**6)
    return Quiz(found, seed, max(1, args.rounds), explore=args.explore)


def _registry(args: argparse.Namespace, out: Any) -> Any:
    """The enrolled tags; one that cannot be read is said, and the labels still count."""
    from companion.cards.registry import open_registry

    registry, problem = open_registry(args.registry)
    if problem is not None:
        out.emit([Message("error", "cards.registry_unreadable", {"reason": problem})])
    return registry


def _listen(args: argparse.Namespace, hub: Any, found: Any, catalogue: Any, out: Any) -> Any:
    """The voice listening for the pieces' numbers and feels, or None once said why not."""
    from companion.inputs.reading_voice import attach_reading_voice
    from companion.sticker_quiz_spoken import phrases, readback

    listened = phrases(found, catalogue.lang)
    return attach_reading_voice(hub, lambda: listened, catalogue.lang, args.voice,
                                out.emit, args.whisper_model, readback)


def answer(quiz: Any, item: Any, registry: Any, heard_by: Any = None) -> list[Message]:
    """One input: a reader's scan, what was heard (a number or a description, read back
    from the quiz's phrases; a number the recognizer is unsure of is asked about), or a
    line (a label or enrolled tag typed by a wedge scanner is a scan too)."""
    from companion.cards.payload import PayloadError
    from companion.cards.registry import resolve
    from companion.sticker_quiz import Scan, parse, read

    if item.source == "voice" and heard_by is not None:  # ReadingVoice.heard
        heard = heard_by(item.event)
        return list(heard.said) + (quiz.handle(parse(heard.command))
                                   if heard.command is not None else [])
    event = getattr(item, "event", None)
    if event is not None:
        if event.kind != "scan":
            return [Message("reader_disconnected" if event.kind != "connected"
                            else "reader_connected",
                            "cards.reader_connected" if event.kind == "connected"
                            else "cards.enroll_reader_error",
                            {"reader": event.reader, "detail": event.detail})]
        value = event.value
    else:
        value = (item.text or "").strip()
        if not value:
            return quiz.handle(read("*"))  # Enter alone: the question again
    try:
        ref = resolve(value, registry)
    except PayloadError as error:
        return [Message("error", "quiz.not_understood", {"line": str(error)},
                        priority=Priority.REFUSAL)]
    if ref is not None:
        return quiz.handle(Scan(ref))
    if event is not None:  # a tag nobody enrolled
        return [Message("error", "cards.unknown_tag", {"tag": value},
                        priority=Priority.REFUSAL)] + quiz.handle(read("*"))
    return quiz.handle(read(value), value)
