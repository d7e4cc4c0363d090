"""Recognized words → canonical command text. Pure: no audio, no I/O.

The canonical forms are the contract with the rest of the app: `secret`, `discard`,
`gift A B C`, `competition A B / C D`, `take A`, `take 1`, `take 2`, `reveal A`, the queries
(`score`, `board`, `actions`, `repeat`, `help`, `undo`) and `yes` / `no`; cards always by
item name. Anything that does not parse, or is not valid in the given context, gives None:
the caller asks again rather than guessing.
"""

from __future__ import annotations

import functools
import re
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from companion.games.hanamikoji.actions import Competition, Gift
from companion.games.hanamikoji.data import Item, Token
from companion.games.hanamikoji.interpret import Choose
from companion.games.hanamikoji.voice.context import Context
from companion.games.hanamikoji.voice.lexicon import fold, lexicon
from companion.voice.shared_words import (
    CANCEL,
    ending_phrases,
    ending_read,
    help_offered,
    practice_word,
)
from companion.voice.vosk_backend import vosk_result

_SKIP = re.compile(r"^(<.*>|\[.*\]|\+\+.*\+\+|\(.*\))$")  # decoder fillers: <sil>, [noise]...


@dataclass(frozen=True)
class _Unit:
    kind: str  # card, num, token, query, yes, no, take, reveal, pair, ord, tokword, ask, end,
    # filler, offered
    value: Any = None


def _words(text: str) -> list[str]:
    out = []
    for raw in text.split():
        if _SKIP.match(raw):
            continue
        # Keep "/" as its own word so "red blue / green pink" still splits into words.
        cleaned = re.sub(r"[^\w/]+", " ", fold(raw)).replace("/", " ")
        out += cleaned.split()
    return out


@functools.lru_cache(maxsize=8)
def _phrase_table(lang: str) -> Mapping[str, _Unit]:
    """Folded phrase → meaning; earlier tables win (a card word beats a filler)."""
    lex = lexicon(lang)
    tables: list[tuple[str, Mapping[str, Any] | frozenset[str]]] = [
        ("card", lex.cards), ("token", lex.tokens), ("query", lex.queries),
        ("yes", lex.yes), ("no", lex.no), ("take", lex.take), ("reveal", lex.reveal),
        ("pair", lex.pair), ("ord", lex.ordinals), ("num", lex.numbers),
        ("tokword", lex.token_words), ("ask", lex.asking),
        ("end", ending_phrases(lex.lang)), ("filler", lex.fillers),
        ("offered", frozenset(help_offered(lex.lang))),
    ]
    out: dict[str, _Unit] = {}
    for kind, table in tables:
        items = ((w, None) for w in table) if isinstance(table, frozenset) else table.items()
        for phrase, value in items:
            folded = " ".join(_words(phrase))
            # A token word keeps its word: "action" alone asks which actions are left.
            out.setdefault(folded, _Unit(kind, folded if kind == "tokword" else value))
    return out


@functools.lru_cache(maxsize=8)
def _longest(lang: str) -> int:
    """The most words of a phrase ("give me a hint": a fixed three left it unread)."""
    return max(len(phrase.split()) for phrase in _phrase_table(lang))


def _units(words: list[str], lang: str) -> list[_Unit] | None:
    table = _phrase_table(lang)
    units: list[_Unit] = []
    i = 0
    while i < len(words):
        for size in range(min(_longest(lang), len(words) - i), 0, -1):
            hit = table.get(" ".join(words[i:i + size]))
            if hit is not None:
                units.append(hit)
                i += size
                break
        else:
            return None  # an unknown word: out of grammar, refuse
    return [u for u in units if u.kind != "filler"]


def _card(unit: _Unit) -> Item | None:
    if unit.kind == "card":
        return unit.value  # type: ignore[no-any-return]
    if unit.kind == "num" and 1 <= unit.value <= len(Item):
        return Item(unit.value)
    return None


def _cards(units: list[_Unit]) -> list[Item] | None:
    cards = [_card(u) for u in units]
    return None if any(c is None for c in cards) else cards  # type: ignore[return-value]


def _action(units: list[_Unit], ctx: Context) -> str | None:
    named_token = bool(units) and units[0].kind == "tokword"
    if named_token:
        units = units[1:]
    if not units:
        return None
    head = units[0]
    if head.kind == "token":
        token: Token = head.value
    elif head.kind == "num" and 1 <= head.value <= len(Token):
        token = Token(head.value)  # the number sticker on the action token
    else:
        return None
    if token not in ctx.allowed:
        return None
    cards = _cards(units[1:])
    if cards is None:
        return None
    if token in (Token.SECRET, Token.DISCARD):
        if head.kind == "num" and not named_token:
            return None  # a bare "one" is too easily heard in any short sentence
        # The cards of a Secret or a Discard stay hidden: never part of the spoken command.
        return token.word if not cards else None
    # One card short (not heard): the offer is begun, and the companion asks for that card.
    begun = ctx.short and len(cards) == token.cards - 1
    if len(cards) != token.cards and not begun:
        return None
    return _offer(token, cards, ctx)


def _offer(token: Token, cards: list[Item], ctx: Context) -> str | None:
    """A gift or competition of `cards` (a begun one when fewer than it takes), or None
    when the hand the context knows cannot give them."""
    if ctx.hand is not None and Counter(cards) - Counter(ctx.hand):
        return None  # a card the player does not hold: a mishearing, not a move
    # The action values sort each card group, so one move always has one canonical text.
    if len(cards) < token.cards:  # begun: a competition's first pair sorted, its third kept
        return Choose(token, (*sorted(cards[:2]), *cards[2:])).text()
    if token is Token.GIFT:
        return Gift((cards[0], cards[1], cards[2])).text()
    return Competition(((cards[0], cards[1]), (cards[2], cards[3]))).text()


def _complete(units: list[_Unit], ctx: Context) -> str | None:
    """In a begun offer: the cards it lacks ("the tea"), the whole offer again, or no."""
    if [u.kind for u in units] == ["no"]:
        return CANCEL
    if units[0].kind in ("token", "tokword"):
        return _action(units, ctx)
    cards = _cards(units[1:] if units[0].kind == "take" else units)
    if cards is None or len(ctx.offered) + len(cards) != ctx.token.cards:
        return None
    return _offer(ctx.token, [*ctx.offered, *cards], ctx)


def _pair_number(units: list[_Unit]) -> int | None:
    """"first pair", "pair one", "the second one", "first", "one" → 1 or 2."""
    if len(units) > 1 and units[0] == _Unit("num", 1) and units[1].kind == "ord":
        # "une première paire", "una segunda pareja": the article, not a number (Whisper
        # writes "la" so in noise, and a number before an ordinal means nothing else).
        units = units[1:]
    kinds = [u.kind for u in units]
    numbers = [u.value for u in units if u.kind in ("ord", "num")]
    if len(numbers) != 1 or numbers[0] not in (1, 2):
        return None
    if kinds in (["ord"], ["ord", "pair"], ["pair", "num"], ["pair", "ord"], ["num"],
                 ["num", "pair"]):
        return int(numbers[0])
    return None


def _answer_competition(units: list[_Unit], ctx: Context) -> str | None:
    number = _pair_number(units)
    if number is not None:
        return f"take {number}"
    if units and units[-1].kind == "pair":
        units = units[:-1]
    named = [u.value for u in units if u.kind == "card"]
    if not named or len(named) != len(units) or len(named) > 2:
        return None
    matches = [n for n, pair in enumerate(ctx.pairs, start=1)
               if _contains(pair, named)]
    # A card in both pairs says nothing about which pair: ask again.
    return f"take {matches[0]}" if len(matches) == 1 else None


def _contains(pair: tuple[Item, Item], named: list[Item]) -> bool:
    rest = list(pair)
    for item in named:
        if item not in rest:
            return False
        rest.remove(item)
    return True


def _reveal(card: Item | None, ctx: Context) -> str | None:
    """A reveal of `card`, if it can be the revealing player's Secret (the one they told)."""
    if card is None or ctx.secret not in (None, card):
        return None
    return f"reveal {card.word}"


# A token word said alone asks which actions are left (folded, in every language).
ACTION_ALONE = frozenset({"action", "accion", "дія"})


def interpret(units: list[_Unit], ctx: Context) -> str | None:
    """Canonical text for a sequence of meaning units in a context, or None."""
    if not units:
        return None
    kinds = [u.kind for u in units]
    if "offered" in kinds:  # "aide-le": help offered at the table, never the help
        return None
    # "quel est le score", "tu peux répéter": a question, nothing else (the typed
    # interpreters' rule too: companion.phrases._asked)
    if "ask" in kinds:
        asked = [u for u in units if u.kind != "ask"]
        return str(asked[0].value) if [u.kind for u in asked] == ["query"] else None
    if kinds == ["query"]:
        return str(units[0].value)
    if kinds == ["end"]:  # new game at game over alone; quit in play too
        return str(units[0].value) if ending_read(units[0].value, ctx.kind) else None
    if kinds == ["tokword"] and units[0].value in ACTION_ALONE:
        return "actions"  # "Action.", "Acción de": how Whisper writes "actions", "acciones"
    if ctx.kind == "complete":
        return _complete(units, ctx)
    if set(kinds) in ({"yes"}, {"no"}):  # "oui oui", "так, підтверджую": one answer
        return kinds[0] if ctx.kind in ("confirm", "any") else None
    head, rest = units[0], units[1:]
    if ctx.kind in ("action", "any") and head.kind in ("token", "num", "tokword") and not (
            head.kind == "token" and head.value is Token.SECRET and len(rest) == 1):
        found = _action(units, ctx)
        if found is not None or ctx.kind == "action":
            return found
    if head.kind == "token" and head.value is Token.SECRET and len(rest) == 1:
        head = _Unit("reveal")  # "my secret is the flute": a Secret never carries a card
    if head.kind == "reveal" and len(rest) == 2 and rest[0] == _Unit("token", Token.SECRET):
        rest = rest[1:]  # "reveal my secret: the flute", "відкриваю таємницю: квітку"
    if ctx.kind in ("reveal", "any") and head.kind == "reveal" and len(rest) == 1:
        return _reveal(_card(rest[0]), ctx)
    if ctx.kind == "reveal" and len(units) == 1:
        return _reveal(_card(units[0]), ctx)
    body = rest if head.kind == "take" else units
    if ctx.kind == "answer_gift":
        if len(body) != 1:
            return None
        card = _card(body[0])
        return f"take {card.word}" if card is not None and card in ctx.offered else None
    if ctx.kind == "answer_competition":
        return _answer_competition(body, ctx)
    if ctx.kind == "any" and head.kind == "take" and body:
        number = _pair_number(body)
        if number is not None:
            return f"take {number}"
        if len(body) == 1 and body[0].kind == "card":
            return f"take {body[0].value.word}"
    return None


def normalize(words: str | Mapping[str, Any], lang: str = "en",
              context: Context | None = None) -> str | None:
    """Canonical command text for recognized words, or None when it is not a valid command.

    `words` is plain text or any Vosk result shape (JSON string or dict); `context` limits
    what is valid (default: any command).
    """
    if isinstance(words, Mapping) or words.lstrip().startswith("{"):
        words = vosk_result(words)[0]
    if context is not None and context.practice and practice_word(words):
        return practice_word(words)
    units = _units(_words(words), lexicon(lang).lang)
    if units is None:
        return None
    return interpret(units, context or Context.any())
