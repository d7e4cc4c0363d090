"""The tactile sticker code, pure and game-agnostic (it never imports the companion).

Numbers: dots (1), dotted circle (5), dotted square (10), dotted square with n dots (n×10),
summed. Colours: one raised symbol per colour. Both directions, French and English.
"""

from stickers._text import LANGS, Lang, StickerParseError
from stickers.colours import (
    COLOUR_NAMES,
    SYMBOLS,
    Colour,
    colour_name,
    describe_colour,
    parse_colour,
    parse_symbol,
    symbol_name,
)
from stickers.numbers import NumberStickers, Piece, decode, describe, guess_lang

__all__ = [
    "COLOUR_NAMES",
    "LANGS",
    "SYMBOLS",
    "Colour",
    "Lang",
    "NumberStickers",
    "Piece",
    "StickerParseError",
    "colour_name",
    "decode",
    "describe",
    "describe_colour",
    "guess_lang",
    "parse_colour",
    "parse_symbol",
    "symbol_name",
]
