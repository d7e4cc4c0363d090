"""The colour symbols of the tactile collection: a raised symbol stands for a colour."""

from __future__ import annotations

from enum import Enum


class Colour(Enum):
    """The ten colours the adapted edition marks with a symbol sticker."""

    RED = "red"
    YELLOW = "yellow"
    BLUE = "blue"
    ORANGE = "orange"
    GREEN = "green"
    BROWN = "brown"
    VIOLET = "violet"
    PINK = "pink"
    BLACK = "black"
    WHITE = "white"


# Symbol names per colour, (English, French), as the seed's "Adaptation" section gives them.
SYMBOLS: dict[Colour, tuple[str, str]] = {
    Colour.RED: ("heart", "cœur"),
    Colour.YELLOW: ("moon", "lune"),
    Colour.BLUE: ("drop", "goutte d'eau"),
    Colour.ORANGE: ("filled circle", "rond plein"),
    Colour.GREEN: ("clover", "trèfle"),
    Colour.BROWN: ("four squares", "quatre carreaux"),
    Colour.VIOLET: ("grapes", "grappe de raisin"),
    Colour.PINK: ("flower", "fleur"),
    Colour.BLACK: ("thick cross", "croix épaisse"),
    Colour.WHITE: ("filled square", "carré plein"),
}

# Colour names, (English, French).
COLOUR_NAMES: dict[Colour, tuple[str, str]] = {
    Colour.RED: ("red", "rouge"),
    Colour.YELLOW: ("yellow", "jaune"),
    Colour.BLUE: ("blue", "bleu"),
    Colour.ORANGE: ("orange", "orange"),
    Colour.GREEN: ("green", "vert"),
    Colour.BROWN: ("brown", "marron"),
    Colour.VIOLET: ("violet", "violet"),
    Colour.PINK: ("pink", "rose"),
    Colour.BLACK: ("black", "noir"),
    Colour.WHITE: ("white", "blanc"),
}
