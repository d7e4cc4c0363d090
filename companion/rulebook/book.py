"""A game's rulebook: sections in one language, and a small scored keyword index.

A game ships its rules as `rules/{lang}.toml` in its locales folder:

    title = "Hanamikoji"
    [[section]]
    id = "gift"                          # the same ids, in the same order, in every language
    title = "The Gift"
    keywords = ["gift", "three cards"]   # what a reader may ask, as they would say it
    text = "..."                         # one paragraph, said as one announcement

and `rules/moments.toml`, language-free, mapping the keys of its prompts to the section
that explains them (`[moments] answer_gift = "gift"`).

A question by word ("what is a competition") is answered with the section whose words
match best: keywords weigh most, then the title, then the text, each word weighted by how
few sections hold it (a word every section holds, "the", "a", counts nothing), so no list
of stop words per language is needed. Words are compared folded (case and accents) and
cut to their first four letters, which makes "gifts" find "gift", "гейші" find "гейша"
and "offrir" find "offre".
"""

from __future__ import annotations

import math
import re
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from importlib.resources.abc import Traversable

from companion.normalize import fold

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

_WORD = re.compile(r"[^\W_]+", re.UNICODE)
STEM = 4  # letters kept at least of each word when comparing; long words keep more
# The words that make a question a question, in the four languages (folded): they say
# nothing about its topic, but a section holding one by chance would rank first.
_ASKING = frozenset(fold(w) for w in (
    "what", "which", "who", "how", "why", "when", "where", "does", "do", "is", "are", "can",
    "the", "que", "quoi", "qui", "comment", "pourquoi", "quand", "est", "qu", "une", "des",
    "les", "peut", "cual", "quien", "como", "cuando", "donde", "por", "una", "los", "las",
    "puede", "що", "хто", "як", "коли", "чому", "де", "таке", "яка", "який", "яке", "чи",
))
_WEIGHTS = {"keywords": 3.0, "title": 2.0, "text": 1.0}


class RulebookMissing(LookupError):
    """The game ships no rulebook in that language."""


def stems(text: str) -> list[str]:
    """The words of `text`, folded, a plural s dropped, cut to their stems ("Geishas" ->
    "geis"). Words of one or two letters ("a", "de", "як") and question words say nothing
    about a topic."""
    out = []
    for w in _WORD.findall(fold(text)):
        if len(w) > 3 and w.endswith("s"):
            w = w[:-1]
        if len(w) > 2 and w not in _ASKING:
            out.append(w[: max(STEM, len(w) - 3)])
    return out


@dataclass(frozen=True)
class Section:
    id: str
    number: int  # 1-based, as said and keyed
    title: str
    text: str
    keywords: tuple[str, ...] = ()


@dataclass(frozen=True)
class RuleBook:
    game: str
    lang: str
    title: str
    sections: tuple[Section, ...]
    moments: tuple[tuple[str, str], ...]  # (prompt key, section id), in the file's order

    def section(self, key: str | int) -> Section | None:
        """A section by number, id or title (folded), or None."""
        if isinstance(key, int):
            return self.sections[key - 1] if 1 <= key <= len(self.sections) else None
        wanted = fold(key).strip()
        for s in self.sections:
            if wanted in (s.id, fold(s.title)):
                return s
        return None

    def search(self, question: str) -> Section | None:
        """The section that best answers a question by word, or None if no word of it
        is in the rulebook."""
        words = set(stems(question))
        scores = _index(self)
        best, best_score = None, 0.0
        for s, weights in zip(self.sections, scores, strict=True):
            score = sum(weights.get(w, 0.0) for w in words)
            if score > best_score + 1e-9:
                best, best_score = s, score
        return best

    def for_moment(self, keys: Sequence[str]) -> Section | None:
        """The section explaining the first prompt key that the game maps (a key maps
        when it equals a moment's key or starts with it followed by a dot or '_')."""
        for key in keys:
            for moment, section in self.moments:
                if key == moment or key.startswith((moment + ".", moment + "_")):
                    return self.section(section)
        return None


@cache
def _index(book: RuleBook) -> list[dict[str, float]]:
    """Per section, each stem's weight times its rarity across the sections."""
    raw: list[dict[str, float]] = []
    for s in book.sections:
        weights: dict[str, float] = {}
        for field, weight in _WEIGHTS.items():
            value = s.keywords if field == "keywords" else getattr(s, field)
            text = " ".join(value) if isinstance(value, tuple) else value
            for w in stems(text):
                weights[w] = max(weights.get(w, 0.0), weight)
        raw.append(weights)
    n = len(raw)
    df: dict[str, int] = {}
    for weights in raw:
        for w in weights:
            df[w] = df.get(w, 0) + 1
    return [{w: v * math.log(n / df[w]) for w, v in weights.items() if df[w] < n}
            for weights in raw]


def parse_book(game: str, lang: str, text: str, moments: Mapping[str, str]) -> RuleBook:
    data = tomllib.loads(text)
    sections = tuple(
        Section(str(s["id"]), i, str(s["title"]), " ".join(str(s["text"]).split()),
                tuple(str(k) for k in s.get("keywords", ())))
        for i, s in enumerate(data.get("section", []), start=1)
    )
    return RuleBook(game, lang, str(data.get("title", game.capitalize())), sections,
                    tuple((str(k), str(v)) for k, v in moments.items()))


def read_book(game: str, folder: Traversable | None, lang: str) -> RuleBook:
    """The rulebook in `folder` (a game's locales folder) in `lang`."""
    rules = folder.joinpath("rules") if folder is not None else None
    if rules is None or not rules.joinpath(f"{lang}.toml").is_file():
        raise RulebookMissing(f"{game} has no rulebook in {lang}")
    moments: dict[str, str] = {}
    if rules.joinpath("moments.toml").is_file():
        moments = dict(tomllib.loads(rules.joinpath("moments.toml").read_text("utf-8"))
                       .get("moments", {}))
    return parse_book(game, lang, rules.joinpath(f"{lang}.toml").read_text("utf-8"), moments)


@cache
def load(game: str, lang: str) -> RuleBook:
    """An installed game's rulebook in `lang` (RulebookMissing if it has none)."""
    from companion.games.registry import load_game

    return read_book(game, load_game(game).locales(), lang)
