"""`companion stickers ...`: the tactile code from the command line, and what to stick where.

    companion stickers decode carré pointé, rond pointé, deux points   -> 17: ...
    companion stickers describe 23 --lang fr
    companion stickers colour goutte d'eau
    companion stickers plan GAME [--lang fr] [--item-points]
    companion stickers labels GAME --out labels.svg [--format svg|pdf] [--lang fr]
    companion stickers labels GAME --out part.svg --only SHEET

The games offered are those installed whose CardHooks have a sticker plan, or labels;
`--only` chooses one sheet of a game whose labels need several pages.

Every output is plain lines (screen readers, braille displays); an error is one line on
stderr and exit status 2.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from pathlib import Path

from companion.cards.labels import FORMATS, write_labels
from companion.cards.payload import PayloadError, card_games, hooks
from stickers import (
    LANGS,
    Lang,
    StickerParseError,
    decode,
    describe,
    describe_colour,
    guess_lang,
    parse_colour,
)

# --- commands --------------------------------------------------------------------------


def _fail(message: str) -> int:
    print(f"error: {message}", file=sys.stderr)
    return 2


def _guarded(command: Callable[[argparse.Namespace], int]) -> Callable[[argparse.Namespace], int]:
    """Turn the expected errors into one plain line and exit status 2."""

    def run(args: argparse.Namespace) -> int:
        try:
            return command(args)
        except (StickerParseError, PayloadError, ValueError, OSError) as error:
            return _fail(str(error))

    return run


def _cmd_decode(args: argparse.Namespace) -> int:
    text = " ".join(args.text)
    value = decode(text)
    lang = args.lang or guess_lang(text)
    print(f"{value}: {describe(value, lang) if value <= 99 else ''}".rstrip(": "))
    return 0


def _cmd_describe(args: argparse.Namespace) -> int:
    print(describe(args.n, args.lang))
    return 0


def _cmd_colour(args: argparse.Namespace) -> int:
    colour = parse_colour(" ".join(args.text))
    print(describe_colour(colour, args.lang))
    return 0


def _cmd_plan(args: argparse.Namespace) -> int:
    plan = hooks(args.game).sticker_plan
    assert plan is not None  # the parser offers only games with a plan
    for line in plan(args.lang, args.item_points):
        print(line)
    return 0


def _sheets(games: list[str]) -> dict[str, list[str]]:
    """Sheet name -> the games that have it, for games whose labels need several sheets."""
    owners: dict[str, list[str]] = {}
    for game in games:
        sheets = hooks(game).sheets
        if len(sheets) > 1:
            for name in sheets:
                owners.setdefault(name, []).append(game)
    return owners


def _cmd_labels(args: argparse.Namespace) -> int:
    fmt = args.format or ("pdf" if Path(args.out).suffix.lower() == ".pdf" else "svg")
    sheets = hooks(args.game).sheets
    only = getattr(args, "only", None)
    if only and (len(sheets) < 2 or only not in sheets):
        owners = _sheets(card_games())[only]
        names = " or ".join(dict.fromkeys(n for g in owners for n in hooks(g).sheets))
        games = " or ".join(g.capitalize() for g in owners)
        return _fail(f"--only chooses a {games} sheet: {names}")
    sheet = sheets[only] if only else next(iter(sheets.values()))
    n = write_labels(args.out, args.game, fmt, args.lang, sheet.kinds)
    print(f"wrote {n} labels to {args.out} ({fmt})")
    if sheet.advice:
        print(sheet.advice)
    return 0


def add_parser(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Register `stickers` and its sub-commands; each sets `func(args) -> exit status`."""
    parser = subparsers.add_parser(
        "stickers",
        help="the tactile sticker code: decode, describe, adaptation plan, QR labels",
        description="The tactile sticker code (numbers and colour symbols), French and English.",
    )
    commands = parser.add_subparsers(dest="stickers_command", metavar="COMMAND", required=True)

    p = commands.add_parser("decode", help="value of a number sticker description")
    p.add_argument("text", nargs="+", metavar="TEXT", help="e.g. carré pointé, deux points")
    _lang_option(p, None)
    p.set_defaults(func=_guarded(_cmd_decode))

    p = commands.add_parser("describe", help="number stickers for a number from 0 to 99")
    p.add_argument("n", type=int, metavar="N")
    _lang_option(p)
    p.set_defaults(func=_guarded(_cmd_describe))

    p = commands.add_parser(
        "colour", aliases=["color"], help="colour of a symbol, or symbol of a colour"
    )
    p.add_argument("text", nargs="+", metavar="TEXT", help="e.g. goutte d'eau, heart, rouge")
    _lang_option(p)
    p.set_defaults(func=_guarded(_cmd_colour))
    _add_game_commands(commands)

    from companion.cli_quiz import add_quiz

    add_quiz(commands)


def _lang_option(p: argparse.ArgumentParser, default: Lang | None = "en") -> None:
    """`--lang`, the language the sub-command's output is written in."""
    p.add_argument("--lang", choices=LANGS, default=default, help="language of the output"
                   + (f" (default: {default})" if default else ""))


def _add_game_commands(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """`plan` and `labels`: what a game with printed cards offers (its card hooks)."""
    games = card_games()
    p = commands.add_parser("plan", help="checklist of stickers to adapt a copy of a game")
    p.add_argument("game", choices=[g for g in games if hooks(g).sticker_plan is not None])
    _lang_option(p)
    p.add_argument(
        "--item-points", action="store_true",
        help="also put a number sticker for the points on each item card",
    )  # fmt: skip
    p.set_defaults(func=_guarded(_cmd_plan))

    p = commands.add_parser("labels", help="printable sheet of QR labels, one per card")
    p.add_argument("game", choices=games)
    p.add_argument("--out", required=True, metavar="FILE", help="the sheet to write")
    sheets = _sheets(games)
    p.add_argument("--only", choices=list(sheets), metavar="SHEET",
                   help="one sheet of a game whose labels need several, the first by default: "
                   + ", ".join(f"{name} ({', '.join(owners)})" for name, owners in sheets.items()))
    p.add_argument("--format", choices=FORMATS, help="default: from FILE's extension, else svg")
    _lang_option(p)
    p.set_defaults(func=_guarded(_cmd_labels))
