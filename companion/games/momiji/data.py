"""Momiji's fixed game data, as far as the seed (004) gives it.

The seed names six leaf types only through its objectives (green, brown and violet;
yellow, orange and red); each is told by its colour sticker. It does not give the number
of cards per value, which cards carry acorn icons, nor the landscape abilities: players
tell the companion those outcomes (see docs/momiji.md).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from stickers.colours import Colour

# Leaf types in the order the seed's objectives list them; a keypad digit is 1 + index.
LEAVES: tuple[Colour, ...] = (
    Colour.GREEN, Colour.BROWN, Colour.VIOLET, Colour.YELLOW, Colour.ORANGE, Colour.RED,
)
COOL: frozenset[Colour] = frozenset({Colour.GREEN, Colour.BROWN, Colour.VIOLET})
WARM: frozenset[Colour] = frozenset({Colour.YELLOW, Colour.ORANGE, Colour.RED})

TYPES_IN_PLAY = {2: 4, 3: 5, 4: 6}  # leaf types used, by player count
MIN_PLAYERS, MAX_PLAYERS = 2, 4
HAND_SIZE = 6  # dealt to each player
HAND_LIMIT = 8  # at the end of a turn
GARDEN_START = 4  # cards revealed at set-up, and by each paid reveal
COLUMN_LIMIT = 6  # a revealed card of a full column is discarded at once
MAX_VALUE = 3  # a 3 closes a pile
LANDSCAPES = 3  # landscape cards per player
# Numbers players tell, bounded (a slip of the keys must not give 87,814 acorns):
PILE_MOST = 99  # a counted draw pile: two keypad digits, as voice hears it (the seed
#                 gives no deck size; every Momiji deck holds fewer)
TOLD_MOST = 6  # acorns gained or lost, cards drawn, by one landscape's printed ability
#                (the seed prints none; voice hears one to six)
FIRST_ACORNS, OTHER_ACORNS = 4, 5
OBJECTIVE_COST = 3
OWNER_POINTS, OTHER_POINTS = 10, 3  # see docs/momiji.md: the seed's "moins 10" read as 10


def leaf_digit(colour: Colour) -> int:
    return LEAVES.index(colour) + 1


def tokens_for(players: int) -> int:
    """Objective tokens revealed and torii tokens laid out: players + 2 each."""
    return players + 2


@dataclass(frozen=True)
class Leaf:
    """A leaf card: its type (colour sticker) and value 0 to 3 (number sticker)."""

    colour: Colour
    value: int

    def __post_init__(self) -> None:
        if self.colour not in LEAVES:
            raise ValueError(f"{self.colour.value} is not a Momiji leaf type")
        if not 0 <= self.value <= MAX_VALUE:
            raise ValueError(f"leaf values are 0 to {MAX_VALUE}, not {self.value}")

    @property
    def key(self) -> tuple[int, int]:
        return (LEAVES.index(self.colour), self.value)

    def text(self) -> str:
        return f"{self.colour.value} {self.value}"


def sort_leaves(cards: tuple[Leaf, ...] | list[Leaf]) -> tuple[Leaf, ...]:
    return tuple(sorted(cards, key=lambda c: c.key))


class Objective(Enum):
    """Objective tokens, in the seed's order; the keypad number is 1 + position."""

    GREEN = "green"  # the six leaf objectives: most cards of that type
    BROWN = "brown"
    VIOLET = "violet"
    YELLOW = "yellow"
    ORANGE = "orange"
    RED = "red"
    COOL = "cool"  # most cards among green, brown and violet
    WARM = "warm"  # most cards among yellow, orange and red
    ACORNS = "acorns"  # most acorns (not those on landscapes)
    TORII = "torii"  # most torii tokens on one's piles
    ZERO = "zero"  # most 0 cards in one's piles, visible or not
    PLACED = "placed"  # FEWEST cards placed in one's area
    HAND = "hand"  # most cards in hand at the end
    PILES = "piles"  # most leaf piles plus unused landscape cards
    SUM = "sum"  # highest sum of the top cards of one's piles
    TALLEST = "tallest"  # most cards in one pile

    @property
    def number(self) -> int:
        return list(Objective).index(self) + 1

    @property
    def leaf(self) -> Colour | None:
        """The leaf type of a leaf objective (removed when that type is out of play)."""
        return Colour(self.value) if self.value in {c.value for c in LEAVES} else None

    @classmethod
    def from_number(cls, n: int) -> Objective:
        return list(cls)[n - 1]
