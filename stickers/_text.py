"""Text normalisation shared by the sticker parsers (typed or recognised speech)."""

from __future__ import annotations

import re
import unicodedata
from typing import Literal, NamedTuple

Lang = Literal["en", "fr"]
LANGS: tuple[Lang, ...] = ("en", "fr")

# Ligatures that NFKD leaves alone but people type both ways ("cœur" / "coeur").
_LIGATURES = str.maketrans({"œ": "oe", "Œ": "oe", "æ": "ae", "Æ": "ae"})
# Apostrophes and hyphens split words ("d'eau", "two-dot"); everything else that is not a
# letter or digit is punctuation. "+", "&", "," and ";" are kept as a list separator token.
_WORD = re.compile(r"[^\W_]+|[+&,;]")
_FOLDED = re.compile(r"[a-z0-9]+|[+&,;]")
SEPARATOR = ","


class Token(NamedTuple):
    word: str  # folded: lower case, no accents; every separator is ","
    start: int  # span in the original text, to quote it back as typed
    end: int


class StickerParseError(ValueError):
    """A description that is not (entirely) a sticker; the message says what was understood."""


def fold(text: str) -> str:
    """Lower-case, strip accents and ligatures: 'Carré Pointé' -> 'carre pointe'."""
    text = text.translate(_LIGATURES)
    decomposed = unicodedata.normalize("NFKD", text)
    return "".join(c for c in decomposed if not unicodedata.combining(c)).lower()


def tokens(text: str) -> list[Token]:
    """Folded words and separators, each with its span in `text`."""
    out: list[Token] = []
    for match in _WORD.finditer(text):
        for word in _FOLDED.findall(fold(match.group())):
            out.append(Token(SEPARATOR if word in "+&,;" else word, match.start(), match.end()))
    return out


def quote(text: str, toks: list[Token]) -> str:
    """The words of `text` that a run of tokens covers, quoted as typed."""
    if not toks:
        return "''"
    return repr(text[toks[0].start : toks[-1].end])


def check_lang(lang: str) -> Lang:
    if lang not in LANGS:
        raise ValueError(f"unknown language {lang!r}: expected one of {', '.join(LANGS)}")
    return lang  # type: ignore[return-value]
