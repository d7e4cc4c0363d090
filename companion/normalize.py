"""Turning a typed, scanned or recognised line into comparable tokens."""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

# Keypad symbols and the pair separator stay tokens of their own.
_SPLIT = re.compile(r"[/*+\-?.]|[^\W_]+", re.UNICODE)


@dataclass(frozen=True)
class Token:
    word: str  # lowercase, accents removed
    accented: bool  # the raw token carried an accent (French "thé" is not English "the")


def fold(text: str) -> str:
    """Lowercase without accents; œ and æ spelled out; apostrophes become spaces."""
    text = text.lower().replace("œ", "oe").replace("æ", "ae")
    decomposed = unicodedata.normalize("NFD", text)
    return "".join(c for c in decomposed if not unicodedata.combining(c))


def tokens(line: str) -> list[Token]:
    out = []
    # NFC first: accents typed as separate combining marks must not split a word.
    for raw in _SPLIT.findall(unicodedata.normalize("NFC", line).lower()):
        word = fold(raw)
        out.append(Token(word, word != raw.replace("œ", "oe").replace("æ", "ae")))
    return out
