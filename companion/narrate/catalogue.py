"""Message catalogues: one TOML file per language in companion/locales/.

Adding a language is translating a file: sentences are `str.format` templates with named
placeholders; a table of plural forms (one, few, many, other) is chosen by the `n`
parameter with the language's plural rule. Cards are always said with item, colour and
points so that nothing depends on colour alone.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum
from functools import cache
from importlib import resources
from typing import Any

from companion.narrate.message import Message

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

LANGUAGES = ("fr", "en", "es", "uk")


class Alternatives(tuple):  # type: ignore[type-arg]
    """A list said with "or" rather than "and" (the actions a player may choose)."""


class Sentences(tuple):  # type: ignore[type-arg]
    """Parts said one after the other as sentences (the board, geisha by geisha)."""


@dataclass(frozen=True)
class CardCount:
    """Several copies of one card, said once with their number ("2 flowers (pink, 5)")."""

    item: Any
    n: int


def plural_form(lang: str, n: int) -> str:
    """CLDR plural category for whole numbers in the project's languages."""
    if lang == "fr":
        return "one" if n in (0, 1) else "other"
    if lang == "uk":
        if n % 10 == 1 and n % 100 != 11:
            return "one"
        if 2 <= n % 10 <= 4 and not 12 <= n % 100 <= 14:
            return "few"
        return "many"
    return "one" if n == 1 else "other"


def _merge(into: dict[str, Any], extra: dict[str, Any]) -> None:
    for key, value in extra.items():
        if isinstance(value, dict) and isinstance(into.get(key), dict):
            _merge(into[key], value)
        else:
            into[key] = value


@cache
def _load(lang: str) -> dict[str, Any]:
    """The language's core file `{lang}.toml` merged with each game's `{game}.{lang}.toml`."""
    folder = resources.files("companion").joinpath("locales")
    data = tomllib.loads(folder.joinpath(f"{lang}.toml").read_text("utf-8"))
    for entry in sorted(folder.iterdir(), key=lambda e: e.name):
        if entry.name.endswith(f".{lang}.toml"):
            _merge(data, tomllib.loads(entry.read_text("utf-8")))
    return data


def available(lang: str) -> bool:
    return resources.files("companion").joinpath(f"locales/{lang}.toml").is_file()


def _grouped(values: Sequence[Any]) -> list[Any]:
    """Equal neighbouring cards (values that say they are countable) become one CardCount,
    so lists say "2 fans"."""
    out: list[Any] = []
    for v in values:
        if not getattr(v, "countable", False):
            out.append(v)
        elif out and isinstance(out[-1], CardCount) and out[-1].item == v:
            out[-1] = CardCount(v, out[-1].n + 1)
        else:
            out.append(CardCount(v, 1))
    return out


class Catalogue:
    VERBOSITIES = ("brief", "normal", "detailed")

    def __init__(self, lang: str, verbosity: str = "normal") -> None:
        self.lang = lang if available(lang) else "en"
        # brief and detailed sentences live in [messages.brief] and [messages.detailed];
        # a message without such a variant is said as normal.
        self.verbosity = verbosity if verbosity in self.VERBOSITIES else "normal"
        self._data = _load(self.lang)
        self._fallback = _load("en")

    def section(self, name: str) -> dict[str, Any]:
        return self._data.get(name, {})

    def _lookup(self, section: str, key: str) -> Any:
        for data in (self._data, self._fallback):
            value: Any = data.get(section, {})
            for part in key.split("."):
                value = value.get(part) if isinstance(value, dict) else None
            if value is not None:
                return value
        return None

    def word(self, section: str, key: str) -> str:
        value = self._lookup(section, key)
        return str(value) if value is not None else key

    def plural(self, section: str, key: str, n: int) -> str | None:
        """The plural of `key` for `n` (languages whose plural depends on the number keep a
        table of CLDR forms), or None."""
        value = self._lookup(section, key)
        if isinstance(value, dict):
            value = value.get(plural_form(self.lang, n)) or value.get("other")
        return str(value) if value else None

    def value(self, v: Any) -> str:
        """A parameter as words: a game's values word themselves (`worded`, e.g. a card with
        its colour and points), lists are joined, nested messages rendered."""
        if isinstance(v, Message):
            return self.render(v)
        if isinstance(v, CardCount):
            return str(v.item.worded(self, v.n))
        worded = getattr(v, "worded", None)
        if callable(worded):
            return str(worded(self))
        if isinstance(v, Enum):
            return self.word("words", str(v.value))
        if isinstance(v, Sentences):
            return " ".join(self.value(x) for x in v)
        if isinstance(v, Alternatives):
            return self.join([self.value(x) for x in v], "or_sep")
        if isinstance(v, (list, tuple)) and not isinstance(v, str):
            return self.join([self.value(x) for x in _grouped(v)])
        return str(v)

    def join(self, parts: Sequence[str], last: str = "and_sep") -> str:
        if not parts:
            return self.word("words", "nothing")
        if len(parts) == 1:
            return parts[0]
        return ", ".join(parts[:-1]) + self.word("words", last) + parts[-1]

    def render(self, message: Message) -> str:
        template = None
        if self.verbosity != "normal":
            template = self._lookup("messages", f"{self.verbosity}.{message.key}")
        if template is None:
            template = self._lookup("messages", message.key)
        if template is None:
            return message.key
        if isinstance(template, dict):
            n = int(message.params.get("n", 0))
            template = template.get(plural_form(self.lang, n)) or template.get("other", "")
        params = {k: self.value(v) for k, v in message.params.items()}
        try:
            text = str(template).format(**params)
        except (KeyError, IndexError, ValueError):
            text = str(template)
        # A whole announcement (not a part of one) starts as a sentence does, even when it
        # opens with a part ("the garden: … Yes or no?").
        return text[:1].upper() + text[1:] if message.event else text
