"""The text a card's QR label carries: ``TC1:<game code>:<KIND>:<NAME>:<number>``.

Five fields joined by ":": format version (``TC1``: tactile companion, version 1), the
game's code (each game's CardHooks.code), kind, canonical English name, and a number:

* for most kinds, the copy number, 1-based, which tells identical cards apart;
* for the kinds a game declares `valued`, the card's face value instead. Such a card has
  no copy number (always 1): identical cards carry identical labels, for games whose
  rules never need to tell two of them apart.

What pieces a game has comes from the game (companion/games/<game>/cards.py, through its
adapter's `cards()` hook); this module knows no game.

Upper case keeps every character in the QR alphanumeric mode (smaller codes, larger
modules) and survives a scanner typing with Caps Lock on; parsing ignores case and
surrounding whitespace (keyboard-wedge scanners append Enter).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from companion.games.registry import game_names, is_loaded, load_game

if TYPE_CHECKING:
    from companion.games.protocol import CardHooks

PAYLOAD_VERSION = "TC1"
Kind = str  # a kind of piece, as its game names it in CardHooks.pieces

_HOOKS: dict[str, CardHooks] = {}  # by game name, as each is first needed


class PayloadError(ValueError):
    """A scanned or typed payload that names no card of a known game."""


def hooks(game: str) -> CardHooks:
    """The named game's card tables; PayloadError if no installed game of that name has
    printed cards. Only this game's card module is imported."""
    found = _HOOKS.get(game)
    if found is None:
        try:
            found = load_game(game).cards()
        except (KeyError, ImportError):
            found = None
        if found is None:
            raise PayloadError(f"unknown game {game!r}")
        _HOOKS[game] = found
    return found


def card_games() -> list[str]:
    """The installed games that have printed cards, sorted by name."""
    names = []
    for name in game_names():
        try:
            hooks(name)
        except PayloadError:
            continue
        names.append(name)
    return names


def default_game() -> str:
    """The game a command about cards means when none is named: that of `companion play`
    when it has printed cards, else the first such game installed."""
    from companion.games import registry

    games = card_games()
    if not games:
        raise PayloadError("no installed game has printed cards")
    chosen = registry.default_game()
    return chosen if chosen in games else games[0]


def _game_of_code(code: str) -> str | None:
    """The game whose payload code this is. Games whose tables or adapter are loaded
    already are asked first, so a scan during play imports no other game."""
    for name, known in _HOOKS.items():
        if known.code == code:
            return name
    names = sorted(game_names(), key=lambda name: not is_loaded(name))  # stable
    for name in names:
        if name in _HOOKS:
            continue
        try:
            if hooks(name).code == code:
                return name
        except PayloadError:
            continue
    return None


@dataclass(frozen=True)
class CardRef:
    """One physical card or token: `copy` tells identical cards apart (1-based).

    `value` is the face value of a valued kind (see the module note), None for every
    other kind; a valued card's `copy` is always 1.
    """

    game: str
    kind: Kind
    name: str
    copy: int = 1
    value: int | None = None

    def __post_init__(self) -> None:
        tables = hooks(self.game)
        names = tables.pieces.get(self.kind)
        if names is None:
            raise PayloadError(
                f"unknown kind {self.kind!r}: expected one of {', '.join(tables.pieces)}"
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
        values = tables.valued.get(self.kind)
        if values is None and self.value is not None:
            raise PayloadError(f"a {self.game} {self.kind} has no value")
        if values is not None and self.value not in values:
            raise PayloadError(
                f"{self.game} {self.kind} values are {values[0]} to {values[-1]}, "
                f"not {self.value}"
            )


def format_payload(ref: CardRef) -> str:
    """The QR text for a card: kind, name and copy (or value) in upper case after the
    version and the game's code."""
    last = ref.value if ref.value is not None else ref.copy
    return ":".join(
        (PAYLOAD_VERSION, hooks(ref.game).code, ref.kind.upper(), ref.name.upper(), str(last))
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
    game = _game_of_code(code.upper())
    if game is None:
        raise PayloadError(f"unknown game code {code!r} in {text.strip()!r}")
    valued = kind.lower() in hooks(game).valued
    what = "value" if valued else "copy number"
    if not (number.isascii() and number.isdigit()):
        raise PayloadError(f"{what} {number!r} is not a number in {text.strip()!r}")
    if valued:
        return CardRef(game, kind.lower(), name.lower(), 1, int(number))
    return CardRef(game, kind.lower(), name.lower(), int(number))


def all_cards(game: str | None = None, kinds: tuple[str, ...] | None = None
              ) -> tuple[CardRef, ...]:
    """Every physical card and token of one copy of `game` (default: `default_game()`),
    of `kinds` (default all), in the game's table order. A valued kind gives one card per
    name and value: how many copies of a value a box holds is not counted."""
    game = default_game() if game is None else game
    tables = hooks(game)
    refs = []
    for kind, names in tables.pieces.items():
        if kinds is not None and kind not in kinds:
            continue
        values = tables.valued.get(kind)
        for name, copies in names.items():
            if values is not None:
                refs += [CardRef(game, kind, name, 1, v) for v in values]
            else:
                refs += [CardRef(game, kind, name, copy) for copy in range(1, copies + 1)]
    return tuple(refs)
