"""The text a card's QR label carries, e.g. ``TC1:HK:ITEM:FAN:2`` or ``TC1:MJ:LEAF:GREEN:2``.

Five fields joined by ":": format version (``TC1``: tactile companion, version 1), game
code (``HK`` Hanamikoji, ``MJ`` Momiji), kind, canonical English name, and a number:

* Hanamikoji (``ITEM``, ``GEISHA``, ``TOKEN``) and Momiji objective tokens
  (``OBJECTIVE``): the copy number, 1-based, which tells identical cards apart.
* Momiji leaves (``LEAF``): the card's value, 0 to 3. A leaf has no copy number: seed 004
  does not say how many cards of each value a box holds, so copies cannot be numbered
  or checked, and the rules never need to tell two green 2 cards apart. Identical leaves
  carry identical labels.

Upper case keeps every character in the QR alphanumeric mode (smaller codes, larger
modules) and survives a scanner typing with Caps Lock on; parsing ignores case and
surrounding whitespace (keyboard-wedge scanners append Enter).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from companion.games.hanamikoji.data import COPIES, GEISHAS, Item, Token
from companion.games.momiji.data import LEAVES, MAX_VALUE, Objective

PAYLOAD_VERSION = "TC1"
Kind = Literal["item", "geisha", "token", "leaf", "objective"]
KINDS: tuple[Kind, ...] = ("item", "geisha", "token", "leaf", "objective")
PLAYERS = 2  # each player has one set of the four action tokens

GAME_CODES: dict[str, str] = {"hanamikoji": "HK", "momiji": "MJ"}
_GAMES_BY_CODE = {code: game for game, code in GAME_CODES.items()}

# name -> number of copies, per game and kind: what a physical copy of the game holds.
# Momiji leaves count 1: one label text per colour and value (the value is the 5th field).
_CATALOGUE: dict[str, dict[Kind, dict[str, int]]] = {
    "hanamikoji": {
        "item": {item.word: COPIES[item] for item in Item},
        "geisha": {geisha.name.lower(): 1 for geisha in GEISHAS},
        "token": {token.word: PLAYERS for token in Token},
    },
    "momiji": {
        "leaf": {colour.value: 1 for colour in LEAVES},
        "objective": {objective.value: 1 for objective in Objective},
    },
}
# Kinds whose last field is a face value instead of a copy number, with the values allowed.
_VALUED: dict[tuple[str, str], range] = {("momiji", "leaf"): range(MAX_VALUE + 1)}


class PayloadError(ValueError):
    """A scanned or typed payload that names no card of a known game."""


@dataclass(frozen=True)
class CardRef:
    """One physical card or token: `copy` tells identical cards apart (1-based).

    `value` is a Momiji leaf's face value (0 to 3), None for every other kind; a leaf's
    `copy` is always 1 (see the module note).
    """

    game: str
    kind: Kind
    name: str
    copy: int = 1
    value: int | None = None

    def __post_init__(self) -> None:
        kinds = _CATALOGUE.get(self.game)
        if kinds is None:
            raise PayloadError(f"unknown game {self.game!r}")
        names = kinds.get(self.kind)
        if names is None:
            raise PayloadError(
                f"unknown kind {self.kind!r}: expected one of {', '.join(kinds)}"
            )
        copies = names.get(self.name)
        if copies is None:
            raise PayloadError(
                f"{self.game} has no {self.kind} {self.name!r}: expected one of "
                + ", ".join(names)
            )
        if not 1 <= self.copy <= copies:
            raise PayloadError(
                f"{self.game} has {copies} {self.kind} {self.name!r} "
                f"(copy 1 to {copies}), not copy {self.copy}"
            )
        values = _VALUED.get((self.game, self.kind))
        if values is None and self.value is not None:
            raise PayloadError(f"a {self.game} {self.kind} has no value")
        if values is not None and self.value not in values:
            raise PayloadError(
                f"{self.game} {self.kind} values are {values[0]} to {values[-1]}, "
                f"not {self.value}"
            )


def leaf_ref(colour: str, value: int) -> CardRef:
    """The label of a Momiji leaf: leaf_ref('green', 2) is TC1:MJ:LEAF:GREEN:2."""
    return CardRef("momiji", "leaf", colour, 1, value)


def format_payload(ref: CardRef) -> str:
    """The QR text for a card: format_payload(CardRef('hanamikoji', 'item', 'fan', 2))
    == 'TC1:HK:ITEM:FAN:2'."""
    last = ref.value if ref.value is not None else ref.copy
    return ":".join(
        (PAYLOAD_VERSION, GAME_CODES[ref.game], ref.kind.upper(), ref.name.upper(), str(last))
    )


def parse_payload(text: str) -> CardRef:
    """The card a scanned text names; PayloadError with the reason for anything else."""
    fields = text.strip().split(":")
    version = fields[0].upper()
    if version != PAYLOAD_VERSION:
        if version.startswith("TC") and version[2:].isdigit():
            raise PayloadError(f"unsupported label version {fields[0]!r} (this reads TC1)")
        raise PayloadError(f"not a tactile companion label: {text.strip()!r}")
    if len(fields) != 5:
        raise PayloadError(
            f"a TC1 label has 5 fields (TC1:GAME:KIND:NAME:COPY), {text.strip()!r} has "
            f"{len(fields)}"
        )
    _, code, kind, name, number = (f.strip() for f in fields)
    game = _GAMES_BY_CODE.get(code.upper())
    if game is None:
        raise PayloadError(f"unknown game code {code!r} in {text.strip()!r}")
    valued = (game, kind.lower()) in _VALUED
    what = "value" if valued else "copy number"
    if not (number.isascii() and number.isdigit()):
        raise PayloadError(f"{what} {number!r} is not a number in {text.strip()!r}")
    if valued:
        return CardRef(game, kind.lower(), name.lower(), 1, int(number))  # type: ignore[arg-type]
    return CardRef(game, kind.lower(), name.lower(), int(number))  # type: ignore[arg-type]


def all_cards(
    game: str = "hanamikoji", kinds: tuple[str, ...] | None = None
) -> tuple[CardRef, ...]:
    """Every physical card and token of one copy of `game` (of `kinds`, default all), in
    catalogue order: Hanamikoji items, geishas, tokens; Momiji leaves (one per colour and
    value: copies of a value are not counted by the seed), then objective tokens."""
    if game not in _CATALOGUE:
        raise PayloadError(f"unknown game {game!r}")
    refs = []
    for kind, names in _CATALOGUE[game].items():
        if kinds is not None and kind not in kinds:
            continue
        values = _VALUED.get((game, kind))
        for name, copies in names.items():
            if values is not None:
                refs += [CardRef(game, kind, name, 1, v) for v in values]
            else:
                refs += [CardRef(game, kind, name, copy) for copy in range(1, copies + 1)]
    return tuple(refs)
