"""`companion stickers ...`: the tactile code from the command line, and what to stick where.

    companion stickers decode carré pointé, rond pointé, deux points   -> 17: ...
    companion stickers describe 23 --lang fr
    companion stickers colour goutte d'eau
    companion stickers plan hanamikoji [--lang fr] [--item-points]
    companion stickers labels hanamikoji --out labels.svg [--format svg|pdf] [--lang fr]
    companion stickers labels momiji --out leaves.svg [--only leaf|objective]

Every output is plain lines (screen readers, braille displays); an error is one line on
stderr and exit status 2.
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from collections.abc import Callable
from pathlib import Path

from companion.cards.labels import FORMATS, item_name, token_name, write_labels
from companion.cards.payload import PayloadError
from companion.games.hanamikoji.data import COPIES, GEISHAS, Token
from stickers import (
    LANGS,
    Colour,
    Lang,
    NumberStickers,
    Piece,
    StickerParseError,
    decode,
    describe,
    describe_colour,
    guess_lang,
    parse_colour,
)

GAMES = ("hanamikoji",)
LABEL_GAMES = ("hanamikoji", "momiji")  # games with printed QR labels (no Momiji plan yet)
MOMIJI_SHEETS = ("leaf", "objective")  # one page each: all 40 labels do not fit on one
PLAYERS = 2

# --- the adaptation plan -------------------------------------------------------------

_PLAN: dict[Lang, dict[str, str]] = {
    "en": {
        "title": "Sticker plan for one copy of Hanamikoji: {geishas} geisha cards, {items} item "
                 "cards, {tokens} action tokens ({total} pieces).",
        "code": "Number code: dot = 1, dotted circle = 5, dotted square = 10, dotted square "
                "with n dots = n × 10, added up. Each dot is counted as its own sticker.",
        "geishas": "Geisha cards: {n} cards, each with its colour symbol and a number sticker "
                   "for its points.",
        "geisha": "Geisha {pos}, {name}: {symbol}; {points} points: {number}.",
        "items": "Item cards: {n} cards, each with its geisha's colour symbol only (the points "
                 "belong to the colour and are on the geisha card).",
        "items+": "Item cards: {n} cards, each with its geisha's colour symbol and a number "
                  "sticker for its points.",
        "item": "{name}, {copies} cards ({geisha}): {symbol}.",
        "item+": "{name}, {copies} cards ({geisha}): {symbol}; {points} points: {number}.",
        "tokens": "Action tokens: {n} tokens, {each} per player, each with a number sticker.",
        "token": "Token {value}, {name}, {copies} tokens: {number}.",
        "totals": "Totals to buy or cut:",
        "symbols": "{what}: {n} symbol{s}.",
        "numbers": "{what}: {n} sticker{s}.",
        "all": "In all: {symbols} colour symbols and {numbers} number stickers.",
    },
    "fr": {
        "title": "Plan des stickers pour un exemplaire de Hanamikoji : {geishas} cartes Geisha, "
                 "{items} cartes Objet, {tokens} jetons Action ({total} pièces).",
        "code": "Code numérique : point = 1, rond pointé = 5, carré pointé = 10, carré pointé à "
                "n points = n × 10, additionnés. Chaque point compte pour un sticker.",
        "geishas": "Cartes Geisha : {n} cartes, chacune avec son symbole de couleur et un "
                   "sticker chiffre pour ses points.",
        "geisha": "Geisha {pos}, {name} : {symbol} ; {points} points : {number}.",
        "items": "Cartes Objet : {n} cartes, chacune avec le symbole de couleur de sa geisha "
                 "seulement (les points vont avec la couleur, sur la carte Geisha).",
        "items+": "Cartes Objet : {n} cartes, chacune avec le symbole de couleur de sa geisha "
                  "et un sticker chiffre pour ses points.",
        "item": "{name}, {copies} cartes ({geisha}) : {symbol}.",
        "item+": "{name}, {copies} cartes ({geisha}) : {symbol} ; {points} points : {number}.",
        "tokens": "Jetons Action : {n} jetons, {each} par joueur, chacun avec un sticker chiffre.",
        "token": "Jeton {value}, {name}, {copies} jetons : {number}.",
        "totals": "Totaux à acheter ou découper :",
        "symbols": "{what} : {n} symbole{s}.",
        "numbers": "{what} : {n} sticker{s}.",
        "all": "En tout : {symbols} symboles de couleur et {numbers} stickers chiffre.",
    },
}  # fmt: skip


def hanamikoji_plan(lang: Lang = "en", item_points: bool = False) -> list[str]:
    """The checklist a volunteer follows to adapt one copy, as plain lines.

    Item cards carry only their colour symbol by default: their points are those of their
    geisha, so a number sticker would add 21 stickers and crowd the card without telling
    a player anything new. `item_points` adds it for tables that want it anyway.
    """
    t = _PLAN[lang]
    symbols: Counter[Colour] = Counter()
    pieces: Counter[Piece] = Counter()
    n_items = sum(COPIES.values())
    n_tokens = len(Token) * PLAYERS
    lines = [
        t["title"].format(
            geishas=len(GEISHAS), items=n_items, tokens=n_tokens,
            total=len(GEISHAS) + n_items + n_tokens,
        ),
        t["code"],
        "",
        t["geishas"].format(n=len(GEISHAS)),
    ]  # fmt: skip
    for g in GEISHAS:
        symbols[g.colour] += 1
        pieces += NumberStickers.from_value(g.points).pieces()
        lines.append(
            t["geisha"].format(
                pos=g.position, name=g.name, symbol=describe_colour(g.colour, lang),
                points=g.points, number=describe(g.points, lang),
            )
        )  # fmt: skip
    lines += ["", t["items+" if item_points else "items"].format(n=n_items)]
    for g in GEISHAS:
        copies = COPIES[g.item]
        symbols[g.colour] += copies
        if item_points:
            for _ in range(copies):
                pieces += NumberStickers.from_value(g.points).pieces()
        lines.append(
            t["item+" if item_points else "item"].format(
                name=item_name(g.item, lang).capitalize(), copies=copies, geisha=g.name,
                symbol=describe_colour(g.colour, lang), points=g.points,
                number=describe(g.points, lang),
            )
        )  # fmt: skip
    lines += ["", t["tokens"].format(n=n_tokens, each=len(Token))]
    for token in Token:
        for _ in range(PLAYERS):
            pieces += NumberStickers.from_value(int(token)).pieces()
        lines.append(
            t["token"].format(
                value=int(token), name=token_name(token, lang), copies=PLAYERS,
                number=describe(int(token), lang),
            )
        )  # fmt: skip
    lines += ["", t["totals"]]
    for colour in Colour:
        if symbols[colour]:
            n = symbols[colour]
            what = describe_colour(colour, lang)
            lines.append(t["symbols"].format(what=what, n=n, s="s" if n > 1 else ""))
    for piece in sorted(pieces):
        n = pieces[piece]
        lines.append(
            t["numbers"].format(what=piece.describe(lang), n=n, s="s" if n > 1 else "")
        )
    lines.append(t["all"].format(symbols=symbols.total(), numbers=pieces.total()))
    return lines


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
    for line in hanamikoji_plan(args.lang, args.item_points):
        print(line)
    return 0


def _cmd_labels(args: argparse.Namespace) -> int:
    fmt = args.format or ("pdf" if Path(args.out).suffix.lower() == ".pdf" else "svg")
    only = getattr(args, "only", None)
    if only and args.game != "momiji":
        return _fail("--only chooses a Momiji sheet: leaf or objective")
    n = write_labels(args.out, args.game, fmt, args.lang, (only,) if only else None)
    print(f"wrote {n} labels to {args.out} ({fmt})")
    if args.game == "momiji" and only != "objective":
        # The seed gives no count per value: the volunteer decides how many sheets.
        print("one label per leaf type and value: print as many sheets as your cards need")
    return 0


def add_parser(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Register `stickers` and its sub-commands; each sets `func(args) -> exit status`."""
    parser = subparsers.add_parser(
        "stickers",
        help="the tactile sticker code: decode, describe, adaptation plan, QR labels",
        description="The tactile sticker code (numbers and colour symbols), French and English.",
    )
    commands = parser.add_subparsers(dest="stickers_command", metavar="COMMAND", required=True)

    def lang_option(p: argparse.ArgumentParser, default: Lang | None = "en") -> None:
        p.add_argument("--lang", choices=LANGS, default=default, help="language of the output"
                       + (f" (default: {default})" if default else ""))

    p = commands.add_parser("decode", help="value of a number sticker description")
    p.add_argument("text", nargs="+", metavar="TEXT", help="e.g. carré pointé, deux points")
    lang_option(p, None)
    p.set_defaults(func=_guarded(_cmd_decode))

    p = commands.add_parser("describe", help="number stickers for a number from 0 to 99")
    p.add_argument("n", type=int, metavar="N")
    lang_option(p)
    p.set_defaults(func=_guarded(_cmd_describe))

    p = commands.add_parser(
        "colour", aliases=["color"], help="colour of a symbol, or symbol of a colour"
    )
    p.add_argument("text", nargs="+", metavar="TEXT", help="e.g. goutte d'eau, heart, rouge")
    lang_option(p)
    p.set_defaults(func=_guarded(_cmd_colour))

    p = commands.add_parser("plan", help="checklist of stickers to adapt a copy of a game")
    p.add_argument("game", choices=GAMES)
    lang_option(p)
    p.add_argument(
        "--item-points", action="store_true",
        help="also put a number sticker for the points on each item card",
    )  # fmt: skip
    p.set_defaults(func=_guarded(_cmd_plan))

    p = commands.add_parser("labels", help="printable sheet of QR labels, one per card")
    p.add_argument("game", choices=LABEL_GAMES)
    p.add_argument("--out", required=True, metavar="FILE", help="the sheet to write")
    p.add_argument("--only", choices=MOMIJI_SHEETS,
                   help="Momiji: the leaf sheet (default) or the objective tokens' sheet")
    p.add_argument("--format", choices=FORMATS, help="default: from FILE's extension, else svg")
    lang_option(p)
    p.set_defaults(func=_guarded(_cmd_labels))
