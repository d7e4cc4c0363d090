"""Turning a typed, scanned or recognised line into comparable tokens."""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

# Keypad symbols and the pair separator stay tokens of their own.
KEYPAD_KEYS = "/*+-.?"
_SPLIT = re.compile(r"[/*+\-?.]|[^\W_]+", re.UNICODE)
# A hyphen between two letters joins words ("green-brown-purple leaves", as the board
# shows an objective); alone, or beside a digit or a space, it is the keypad's minus (undo).
_JOINING_HYPHEN = re.compile(r"(?<=[^\W\d_])-(?=[^\W\d_])", re.UNICODE)
# Punctuation a sentence may hold without changing its meaning: apostrophes join elided
# words ("l'éventail", "п'ять"); commas and colons separate listed cards
# ("Gift: fan, flute, tea"). Anything else is refused.
_HARMLESS = "'’ʼ,:"
# Compatibility forms kept as they are, so refused: "²" is AZERTY's key beside "1", a
# slip of the finger rather than a digit, and "½" no card at all.
_KEPT_FORMS = ("<super>", "<sub>", "<fraction>")


@dataclass(frozen=True)
class Token:
    word: str  # lowercase, accents removed
    accented: bool  # the raw token carried an accent (French "thé" is not English "the")


def normal(line: str) -> str:
    """Full-width and other compatibility characters as their plain forms (NFKC: "ｇｉｆｔ",
    "３"), except superscripts, subscripts and fractions; accents composed (NFC)."""
    plain = "".join(
        c if unicodedata.decomposition(c).startswith(_KEPT_FORMS)
        else unicodedata.normalize("NFKC", c)
        for c in line
    )
    return unicodedata.normalize("NFC", plain)


# A question mark, full stop or exclamation mark that ends a sentence ("score?", "what is
# the score?", "take the tea.", "help!"): punctuation, not the keyboard's help (?) or the
# keypad's board (.), which made the line two commands ("say a question or undo on its own
# line"). After a digit a dot stays the keypad's ("3125.", a slip beside Enter) and "!" is
# refused ("3!": Shift held on "1"); a line of keys alone stays keys ("?", "..", "+.").
_ENDS = "?.! \t"
# Spanish opens a question or an exclamation too ("¿cuál es la puntuación?", "¡ayuda!"):
# before a word, punctuation; elsewhere a stray character.
_OPENING = re.compile(r"[¿¡](?=\s*[^\W\d_])", re.UNICODE)


def sentence(line: str) -> str:
    """`line` without the marks around a sentence: Spanish's opening ones before a word,
    and the question mark, full stop or exclamation mark ending it after a word (or a
    question mark after a number: "what is 3?")."""
    line = _OPENING.sub("", line)
    body = line.rstrip(_ENDS)
    tail = line[len(body):]
    if not body or not tail.strip():
        return line
    last = body[-1]
    if last.isalpha():
        return body
    return body if last.isdigit() and not set(tail) & set(".!") else line


def stray(line: str) -> str | None:
    """The first character of a (normal) line that is no letter, digit, space, keypad key
    or harmless punctuation: a line holding one is refused, never read around it."""
    for c in line:
        if c.isalnum() or c.isspace() or c in KEYPAD_KEYS or c in _HARMLESS:
            continue
        if unicodedata.category(c).startswith("M"):
            continue  # a combining accent typed on its own
        return c
    return None


def fold(text: str) -> str:
    """Lowercase without accents; œ and æ spelled out; apostrophes become spaces."""
    text = text.lower().replace("œ", "oe").replace("æ", "ae")
    decomposed = unicodedata.normalize("NFD", text)
    return "".join(c for c in decomposed if not unicodedata.combining(c))


def tokens(line: str) -> list[Token]:
    out = []
    # Composed first: accents typed as separate combining marks must not split a word.
    for raw in _SPLIT.findall(_JOINING_HYPHEN.sub(" ", normal(line).lower())):
        word = fold(raw)
        out.append(Token(word, word != raw.replace("œ", "oe").replace("æ", "ae")))
    return out
