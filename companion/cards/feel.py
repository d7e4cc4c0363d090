"""What a piece feels like under the fingers: its colour symbol and its number sticker.

A game's CardHooks may give `feel(ref) -> Feel | None` for the pieces that carry stickers
(see companion/games/protocol.py); the sticker quiz and the guided game say it in the
player's language, and read a player's description of what they feel ("a heart and two
dots") back into a Feel, in French, English, Spanish and Ukrainian.
The symbol names are those of `stickers.colours` (all four languages); the number code is
that of `stickers.numbers` (dots 1, dotted circle 5, dotted square 10), which its own
parser reads in English and French only, so the four-language reading of the small
values these games use (0 to 5) is here.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from companion.normalize import fold
from stickers import Colour, NumberStickers
from stickers.colours import COLOUR_NAMES, NAME_LANGS, SYMBOLS


@dataclass(frozen=True)
class Feel:
    """A colour symbol (or none) and a number sticker's value (None: no number sticker;
    a 0 carries none either, so it is None too)."""

    colour: Colour | None = None
    number: int | None = None

    def __post_init__(self) -> None:
        if self.number == 0:
            object.__setattr__(self, "number", None)

    @property
    def empty(self) -> bool:
        return self.colour is None and self.number is None

    def worded(self, words: Any) -> str:
        """"heart (red) and two dots" in the catalogue's language."""
        lang = getattr(words, "lang", "en")
        parts = []
        if self.colour is not None:
            parts.append(symbol_said(self.colour, lang))
        if self.number is not None:
            parts.append(number_said(self.number, words))
        if not parts:
            return words.word("messages", "quiz.feel_nothing")
        return words.join(parts)


def symbol_said(colour: Colour, lang: str) -> str:
    """The symbol with its colour: "heart (red)", "серце (червоний)"."""
    i = NAME_LANGS.index(lang) if lang in NAME_LANGS else 0
    return f"{SYMBOLS[colour][i]} ({COLOUR_NAMES[colour][i]})"


def number_said(value: int, words: Any) -> str:
    """The stickers of a number, in the catalogue's words: "a dotted circle, one dot"."""
    stickers = NumberStickers.from_value(value)
    parts = []
    if stickers.tens_dots:
        parts.append(words.plural("messages", "quiz.square", stickers.tens_dots)
                     .format(n=_count(stickers.tens_dots, words)))
    if stickers.circle:
        parts.append(words.word("messages", "quiz.circle"))
    if stickers.dots:
        parts.append(words.plural("messages", "quiz.dots", stickers.dots)
                     .format(n=_count(stickers.dots, words)))
    return ", ".join(parts)


def _count(n: int, words: Any) -> str:
    """A small count as the language's word ("three dots"), as a finger counts them."""
    key = f"quiz.count.{n}"
    word = words.word("messages", key)
    return str(n) if word == key else word


# --- reading a description, in the four languages ------------------------------------------

_COUNTS = {
    **{w: n for n, w in enumerate(("one", "two", "three", "four", "five", "six", "seven",
                                   "eight", "nine"), start=1)},
    **{w: n for n, w in enumerate(("un", "deux", "trois", "quatre", "cinq", "six", "sept",
                                   "huit", "neuf"), start=1)},
    **{w: n for n, w in enumerate(("uno", "dos", "tres", "cuatro", "cinco", "seis", "siete",
                                   "ocho", "nueve"), start=1)},
    **{fold(w): n for n, w in enumerate(("одна", "дві", "три", "чотири", "п'ять", "шість",
                                         "сім", "вісім", "дев'ять"), start=1)},
    "a": 1, "an": 1, "une": 1, "una": 1, "один": 1, "одну": 1, "два": 2, "пять": 5,
}
_DOT = re.compile(r"^(dots?|points?|puntos?|крапк[аиу]|крапок|крапочк[аиу]|крапочок)$")
_CIRCLE = re.compile(r"^(circles?|ronds?|cercles?|circulos?|кол[оа])$")
_SQUARE = re.compile(r"^(squares?|carres?|cuadrados?|квадрат[иа]?)$")
_NOTHING = {"nothing", "none", "rien", "aucun", "nada", "ninguno", "ничого", "нічого",
            "blank", "vide", "vacio", "пусто"}


def _symbol_phrases() -> list[tuple[str, Colour]]:
    """Every symbol and colour name, folded, longest first (so "four squares" is read as
    the brown symbol before "squares" can be read as a number)."""
    phrases = [(fold(name), colour) for colour, names in SYMBOLS.items() for name in names]
    phrases += [(fold(name), colour) for colour, names in COLOUR_NAMES.items()
                for name in names]
    phrases += [("grapes", Colour.VIOLET), ("raisin", Colour.VIOLET), ("uvas", Colour.VIOLET),
                ("виноград", Colour.VIOLET), ("goutte", Colour.BLUE), ("purple", Colour.VIOLET),
                ("morado", Colour.VIOLET), ("4 carreaux", Colour.BROWN)]
    return sorted(phrases, key=lambda p: -len(p[0]))


_PHRASES = _symbol_phrases()


def read_feel(text: str) -> Feel | None:
    """A description of what a player feels ("a heart and two dots", "rond pointé, un
    point", "серце, дві крапки"), or None when it names no symbol and no number."""
    plain = " " + " ".join(re.findall(r"[^\W_]+", fold(text).replace("'", ""))) + " "
    colour = None
    for phrase, found in _PHRASES:
        if f" {phrase} " in plain:
            colour = found
            plain = plain.replace(f" {phrase} ", " ", 1)
            break
    words = plain.split()
    value, count, seen, digits = 0, None, False, None
    for word in words:
        if word.isdigit():
            count = digits = int(word)
        elif word in _COUNTS:
            count = _COUNTS[word]
        elif _DOT.match(word):
            value += count or 1
            count, seen = None, True
        elif _CIRCLE.match(word):
            value += 5
            count, seen = None, True
        elif _SQUARE.match(word):
            value += 10 * (count or 1)
            count, seen = None, True
    if not seen and digits is not None:  # "3" alone: a count of dots
        value, seen = digits, True
    if colour is None and not seen:
        return Feel() if set(words) & _NOTHING else None
    return Feel(colour, value if seen else None)
