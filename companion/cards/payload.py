"""The text a card's QR label carries, e.g. ``TC1:HK:ITEM:FAN:2``.

Five fields joined by ":": format version (``TC1``: tactile companion, version 1), game
code (``HK`` Hanamikoji), kind (``ITEM``, ``GEISHA``, ``TOKEN``), canonical English name,
copy number (1-based). Upper case keeps every character in the QR alphanumeric mode
(smaller codes, larger modules) and survives a scanner typing with Caps Lock on; parsing
ignores case and surrounding whitespace (keyboard-wedge scanners append Enter).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from companion.games.hanamikoji.data import COPIES, GEISHAS, Item, Token

PAYLOAD_VERSION = "TC1"
Kind = Literal["item", "geisha", "token"]
KINDS: tuple[Kind, ...] = ("item", "geisha", "token")
PLAYERS = 2  # each player has one set of the four action tokens

GAME_CODES: dict[str, str] = {"hanamikoji": "HK"}
_GAMES_BY_CODE = {code: game for game, code in GAME_CODES.items()}

# name -> number of copies, per game and kind: what a physical copy of the game holds.
_CATALOGUE: dict[str, dict[Kind, dict[str, int]]] = {
    "hanamikoji": {
        "item": {item.word: COPIES[item] for item in Item},
        "geisha": {geisha.name.lower(): 1 for geisha in GEISHAS},
        "token": {token.word: PLAYERS for token in Token},
    }
}


class PayloadError(ValueError):
    """A scanned or typed payload that names no card of a known game."""


@dataclass(frozen=True)
class CardRef:
    """One physical card or token: `copy` tells identical cards apart (1-based)."""

    game: str
    kind: Kind
    name: str
    copy: int

    def __post_init__(self) -> None:
        kinds = _CATALOGUE.get(self.game)
        if kinds is None:
            raise PayloadError(f"unknown game {self.game!r}")
        names = kinds.get(self.kind)
        if names is None:
            raise PayloadError(f"unknown kind {self.kind!r}: expected one of {', '.join(KINDS)}")
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


def format_payload(ref: CardRef) -> str:
    """The QR text for a card: format_payload(CardRef('hanamikoji', 'item', 'fan', 2))
    == 'TC1:HK:ITEM:FAN:2'."""
    return ":".join(
        (PAYLOAD_VERSION, GAME_CODES[ref.game], ref.kind.upper(), ref.name.upper(), str(ref.copy))
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
    _, code, kind, name, copy = (f.strip() for f in fields)
    game = _GAMES_BY_CODE.get(code.upper())
    if game is None:
        raise PayloadError(f"unknown game code {code!r} in {text.strip()!r}")
    if not (copy.isascii() and copy.isdigit()):
        raise PayloadError(f"copy number {copy!r} is not a number in {text.strip()!r}")
    return CardRef(game, kind.lower(), name.lower(), int(copy))  # type: ignore[arg-type]


def all_cards(game: str = "hanamikoji") -> tuple[CardRef, ...]:
    """Every physical card and token of one copy of `game`: items, geishas, then tokens."""
    if game not in _CATALOGUE:
        raise PayloadError(f"unknown game {game!r}")
    return tuple(
        CardRef(game, kind, name, copy)
        for kind, names in _CATALOGUE[game].items()
        for name, copies in names.items()
        for copy in range(1, copies + 1)
    )
