"""Numbers as a player says them, in the four languages, both ways: the words a
recognizer may write for a number ("sixty-three", "soixante-trois", "шістдесят три")
and a transcript's number words read back as digits. num2words spells them (CLDR-like
rules for each language), so no table of number words is kept here."""

from __future__ import annotations

import functools
import re

from companion.normalize import fold

MOST = 99  # keys and section numbers said aloud stay below a hundred


@functools.cache
def _spelled(lang: str) -> dict[int, tuple[str, ...]]:
    """Each number 0..MOST as `lang` writes it, and the forms players also say (Spanish
    "uno" and "una", Ukrainian "одна", "дві")."""
    from num2words import num2words

    out = {n: (num2words(n, lang=lang),) for n in range(MOST + 1)}
    extra = {"fr": {1: ("une",)}, "es": {1: ("una",)},
             "uk": {1: ("одна", "одну"), 2: ("дві",)}}.get(lang, {})
    return {n: (*forms, *extra.get(n, ())) for n, forms in out.items()}


def said(n: int, lang: str) -> tuple[str, ...]:
    """The words for `n` in `lang` (hyphens as spaces: a transcript splits there)."""
    return tuple(w.replace("-", " ") for w in _spelled(lang)[n])


@functools.cache
def _reading(lang: str) -> list[tuple[list[str], int]]:
    """Folded word sequences → number, longest first ("vingt et un" before "vingt")."""
    pairs = [(fold(w).replace("-", " ").replace("'", "").split(), n)
             for n, words in _spelled(lang).items() for w in words]
    return sorted(pairs, key=lambda p: -len(p[0]))


def as_digits(text: str, lang: str) -> str:
    """`text` with its number words written as digits ("section three" → "section 3");
    the other words are left as they were (hyphens and punctuation aside)."""
    raw = [w for w in re.split(r"[\s\-]+", text) if w.strip(".,;:!?")]
    raw = [w.strip(".,;:!?") for w in raw]
    words = [fold(w).replace("'", "") for w in raw]
    out: list[str] = []
    i = 0
    table = _reading(lang)
    while i < len(words):
        for seq, n in table:
            if words[i:i + len(seq)] == seq:
                out.append(str(n))
                i += len(seq)
                break
        else:
            out.append(raw[i])
            i += 1
    return " ".join(out)
