"""Hanamikoji's physical pieces: QR label tables and captions, enrolment prompts, and the
sticker plan a volunteer follows to adapt one copy (see companion/cards/ for the rest)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from companion.cards.feel import Feel
from companion.cards.payload import CardRef
from companion.games.hanamikoji.data import COPIES, GEISHAS, Item, Token
from companion.games.protocol import Sheet
from companion.narrate.message import Message, Priority
from stickers import Colour, Lang, NumberStickers, Piece, describe, describe_colour

PLAYERS = 2  # each player has one set of the four action tokens
P = "cards."  # catalogue prefix of the card sentences (companion/locales/cards.*.toml)

_TOKEN_NAMES: dict[Lang, dict[Token, str]] = {
    "en": {Token.SECRET: "Secret", Token.DISCARD: "Discard", Token.GIFT: "Gift",
           Token.COMPETITION: "Competition"},
    "fr": {Token.SECRET: "Secret", Token.DISCARD: "Dépôt", Token.GIFT: "Offre",
           Token.COMPETITION: "Échange"},
}  # fmt: skip
_WORDS: dict[Lang, dict[str, str]] = {
    "en": {"item": "item", "token": "token", "player": "player", "points": "points"},
    "fr": {"item": "objet", "token": "jeton", "player": "joueur", "points": "points"},
}  # fmt: skip


def token_name(token: Token, lang: Lang = "en") -> str:
    return _TOKEN_NAMES[lang][token]


def item_name(item: Item, lang: Lang = "en") -> str:
    """'tea set' / 'service à thé' (the payload uses the short word 'tea')."""
    geisha = GEISHAS[item - 1]
    return geisha.item_en if lang == "en" else geisha.item_fr


# --- labels ------------------------------------------------------------------------------


def caption(ref: CardRef, lang: Lang = "en") -> tuple[str, str, str]:
    """Three short lines naming the card, its colour symbol or its number sticker."""
    words = _WORDS[lang]
    if ref.kind == "item":
        item = Item[ref.name.upper()]
        geisha = item.geisha
        return (
            f"{item_name(item, lang).capitalize()} {ref.copy}/{COPIES[item]}",
            f"{words['item']} · {geisha.name}",
            describe_colour(geisha.colour, lang),
        )
    if ref.kind == "geisha":
        geisha = next(g for g in GEISHAS if g.name.lower() == ref.name)
        return (
            geisha.name,
            f"geisha · {geisha.points} {words['points']}",
            describe_colour(geisha.colour, lang),
        )
    token = Token[ref.name.upper()]
    return (
        token_name(token, lang),
        f"{words['token']} {int(token)} · {words['player']} {ref.copy}",
        describe(int(token), lang),
    )


# --- words for the registry, enrolment and scans -----------------------------------------


def said(ref: CardRef) -> Message:
    """A card or token said in words: "fan (red, 2), copy 2", "Gift (3) token, set 1"."""
    if ref.kind == "item":
        return Message("", P + "ref_item", {"card": Item[ref.name.upper()], "copy": ref.copy})
    if ref.kind == "token":
        return Message("", P + "ref_token", {"token": Token[ref.name.upper()], "copy": ref.copy})
    geisha = next(g for g in GEISHAS if g.name.lower() == ref.name)
    return Message("", P + "ref_geisha", {"geisha": geisha})


def ask(ref: CardRef) -> Message:
    """ "Scan a flute card (1 of 2)" and its kin."""
    if ref.kind == "item":
        item = Item[ref.name.upper()]
        params = {"card": item, "copy": ref.copy, "copies": COPIES[item]}
        return Message("prompt", P + "enroll_item", params, {"card": ref.name, "copy": ref.copy},
                       Priority.PROMPT)
    if ref.kind == "token":
        params = {"token": Token[ref.name.upper()], "copy": ref.copy, "copies": PLAYERS}
        return Message("prompt", P + "enroll_token", params, {"token": ref.name, "copy": ref.copy},
                       Priority.PROMPT)
    geisha = next(g for g in GEISHAS if g.name.lower() == ref.name)
    return Message("prompt", P + "enroll_geisha", {"geisha": geisha},
                   {"geisha": geisha.name}, Priority.PROMPT)


def said_copies(refs: Sequence[CardRef]) -> Message:
    """ "fan (red, 2), copies 1 and 2" rather than the fan named twice."""
    first = refs[0]
    if first.kind == "geisha":
        return said(first)
    copies = tuple(r.copy for r in refs)
    if first.kind == "token":
        return Message("", P + "missing_tokens", {
            "token": Token[first.name.upper()], "copies": copies, "n": len(refs)})
    return Message("", P + "missing_group", {
        "card": Item[first.name.upper()], "copies": copies, "n": len(refs)})


# --- the adaptation plan -----------------------------------------------------------------

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


def sticker_plan(lang: Lang = "en", item_points: bool = False) -> list[str]:
    """The checklist a volunteer follows to adapt one copy, as plain lines.

    Item cards carry only their colour symbol by default: their points are those of their
    geisha, so a number sticker would add 21 stickers and crowd the card without telling
    a player anything new. `item_points` adds it for tables that want it anyway.
    """
    t = _PLAN[lang]
    symbols: Counter[Colour] = Counter()  # what the volunteer buys or cuts, counted
    pieces: Counter[Piece] = Counter()  # while the lines that need them are written
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
        *_geisha_lines(t, lang, symbols, pieces),
        "",
        t["items+" if item_points else "items"].format(n=n_items),
        *_item_lines(t, lang, item_points, symbols, pieces),
        "",
        t["tokens"].format(n=n_tokens, each=len(Token)),
        *_token_lines(t, lang, pieces),
        "",
        t["totals"],
    ]  # fmt: skip
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


def _geisha_lines(t: dict[str, str], lang: Lang, symbols: Counter[Colour],
                  pieces: Counter[Piece]) -> list[str]:
    """One line per geisha card: her colour symbol and her points (counted in)."""
    lines = []
    for g in GEISHAS:
        symbols[g.colour] += 1
        pieces += NumberStickers.from_value(g.points).pieces()
        lines.append(
            t["geisha"].format(
                pos=g.position, name=g.name, symbol=describe_colour(g.colour, lang),
                points=g.points, number=describe(g.points, lang),
            )
        )  # fmt: skip
    return lines


def _item_lines(t: dict[str, str], lang: Lang, item_points: bool, symbols: Counter[Colour],
                pieces: Counter[Piece]) -> list[str]:
    """One line per item: its copies' colour symbol, and their points if asked."""
    lines = []
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
    return lines


def _token_lines(t: dict[str, str], lang: Lang, pieces: Counter[Piece]) -> list[str]:
    """One line per action token: its number sticker, on each player's copy."""
    lines = []
    for token in Token:
        for _ in range(PLAYERS):
            pieces += NumberStickers.from_value(int(token)).pieces()
        lines.append(
            t["token"].format(
                value=int(token), name=token_name(token, lang), copies=PLAYERS,
                number=describe(int(token), lang),
            )
        )  # fmt: skip
    return lines


# --- what each piece feels like, and its key (the sticker quiz, the guided game) -----------


def feel(ref: CardRef) -> Feel:
    """An item: its colour symbol; a geisha: her symbol and her points; a token: its
    number (1 Secret ... 4 Competition)."""
    if ref.kind == "item":
        return Feel(Item[ref.name.upper()].geisha.colour)
    if ref.kind == "token":
        return Feel(None, int(Token[ref.name.upper()]))
    geisha = next(g for g in GEISHAS if g.name.lower() == ref.name)
    return Feel(geisha.colour, geisha.points)


def named(ref: CardRef) -> Message:
    """The piece without its copy: "fan (red, 2) card", "Gift (3) token", "geisha Ruri"."""
    if ref.kind == "item":
        return Message("", "quiz.piece_card", {"card": Item[ref.name.upper()]})
    if ref.kind == "token":
        return Message("", "quiz.piece_token", {"token": Token[ref.name.upper()]})
    return said(ref)


def key(ref: CardRef) -> str:
    """What a player keys for the piece in play: a card or geisha by its position 1-7 in
    table order, a token by its number."""
    if ref.kind == "item":
        return str(Item[ref.name.upper()].geisha.position)
    if ref.kind == "token":
        return str(int(Token[ref.name.upper()]))
    return str(next(g for g in GEISHAS if g.name.lower() == ref.name).position)


class HanamikojiCards:
    """Hanamikoji's CardHooks (see companion/games/protocol.py)."""

    code = "HK"
    pieces = {
        "item": {item.word: COPIES[item] for item in Item},
        "geisha": {geisha.name.lower(): 1 for geisha in GEISHAS},
        "token": {token.word: PLAYERS for token in Token},
    }
    valued: dict[str, range] = {}
    sheets = {"all": Sheet(("item", "geisha", "token"))}  # all 36 fit on one page
    # What play needs most is asked first: a stop halfway leaves the least useful missing.
    enrolment = ("item", "token", "geisha")

    caption = staticmethod(caption)
    said = staticmethod(said)
    ask = staticmethod(ask)
    said_copies = staticmethod(said_copies)
    sticker_plan = staticmethod(sticker_plan)
    feel = staticmethod(feel)
    key = staticmethod(key)
    named = staticmethod(named)
