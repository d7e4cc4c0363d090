"""Hanamikoji's fixed game data: the seven geishas, their items and the action tokens."""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum
from typing import Protocol

from stickers.colours import Colour


class Item(IntEnum):
    """An item card, numbered by its geisha's position in table order (1 to 7)."""

    FLUTE = 1
    FAN = 2
    SCROLL = 3
    UMBRELLA = 4
    SHAMISEN = 5
    TEA = 6
    FLOWER = 7

    @property
    def word(self) -> str:
        """The canonical (English, lowercase) name used in every text form."""
        return self.name.lower()

    @property
    def geisha(self) -> Geisha:
        return GEISHAS[self - 1]

    @property
    def points(self) -> int:
        return GEISHAS[self - 1].points

    @property
    def countable(self) -> bool:
        """Equal neighbouring cards in a list are said once, with their number."""
        return True

    def worded(self, words: Words, copies: int = 1) -> str:
        """How a catalogue says this card (`copies` of it): item, colour and points, never
        the colour alone ("a flute (violet, 2)", "2 flutes (violet, 2)")."""
        colour = words.word("colours", self.geisha.colour.value)
        if copies == 1:
            return words.word("words", "card").format(
                item=words.word("items", self.word), colour=colour, points=self.points)
        return words.word("words", "cards").format(
            n=copies, items=words.plural("items_plural", self.word, copies) or self.word,
            colour=colour, points=self.points)


class Words(Protocol):
    """What a value needs from a catalogue to word itself (narrate.catalogue.Catalogue)."""

    def word(self, section: str, key: str) -> str: ...
    def plural(self, section: str, key: str, n: int) -> str | None: ...


@dataclass(frozen=True)
class Geisha:
    position: int
    name: str
    colour: Colour
    points: int
    item_en: str
    item_fr: str

    @property
    def item(self) -> Item:
        return Item(self.position)

    def worded(self, words: Words, copies: int = 1) -> str:
        """Her name as the catalogue spells it (Cyrillic in Ukrainian)."""
        return words.word("geishas", self.name.lower())


GEISHAS: tuple[Geisha, ...] = (
    Geisha(1, "Ayane", Colour.VIOLET, 2, "flute", "flûte"),
    Geisha(2, "Iroha", Colour.RED, 2, "fan", "éventail"),
    Geisha(3, "Tomoyo", Colour.YELLOW, 2, "scroll", "papier"),
    Geisha(4, "Yoko", Colour.BLUE, 3, "umbrella", "ombrelle"),
    Geisha(5, "Chiharu", Colour.ORANGE, 3, "shamisen", "luth"),
    Geisha(6, "Anju", Colour.GREEN, 4, "tea set", "service à thé"),
    Geisha(7, "Ruri", Colour.PINK, 5, "flower", "fleur"),
)

ITEMS: tuple[Item, ...] = tuple(Item)
COPIES: dict[Item, int] = {item: item.points for item in Item}  # 21 cards in all
DECK_SIZE = sum(COPIES.values())
HAND_SIZE = 6
PILE_SIZE = DECK_SIZE - 1 - 2 * HAND_SIZE  # one card removed unseen: 8 left to draw
WIN_GEISHAS = 4
WIN_POINTS = 11


class Token(IntEnum):
    """The action tokens, numbered as their number stickers are."""

    SECRET = 1
    DISCARD = 2
    GIFT = 3
    COMPETITION = 4

    @property
    def word(self) -> str:
        return self.name.lower()

    @property
    def cards(self) -> int:
        """How many cards the action takes from the hand."""
        return int(self)

    def worded(self, words: Words, copies: int = 1) -> str:
        return words.word("tokens", self.word)


def full_deck() -> list[Item]:
    """All 21 item cards, in item order."""
    return [item for item in Item for _ in range(COPIES[item])]
