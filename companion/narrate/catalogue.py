"""Message catalogues: one TOML file per language in companion/locales/ for the core, and
one per language in each game's own `locales/` folder (the game's `locales()` hook).

Adding a language is translating a file: sentences are `str.format` templates with named
placeholders, one message per key. Cards are always said with item, colour and points so
that nothing depends on colour alone.

Grammar is chosen by selectors, each a small table keyed by a category:

- Number. A message whose value is a table of CLDR plural categories (zero, one, two, few,
  many, other) takes the entry for its `n` parameter, by Babel's CLDR plural rules for the
  language (French says "0 carte", Ukrainian has one/few/many). When a sentence says
  several numbers, each is a placeholder with a form: `{pa:point}` says the number `pa`
  with the entry `point` of the catalogue's `[forms]` section, itself a plural table
  (`point = { one = "{n} point", other = "{n} points" }`).
- Sound. A `[forms]` entry keyed `vowel`/`other` is chosen by the first letter of the
  worded value (letters listed in the catalogue's `[forms] vowels`): English
  `{card:a}` says "an umbrella", French `{player:de}` says "d'Élise" and "de Ben".
- Case. Any other form names a grammatical case: `{received:acc}` words the value with the
  `acc` entry of each word table it uses (`[items] flower = { nom = "квітка", acc =
  "квітку" }`); a word with a single form is the same in every case.

Each game's catalogue is its own namespace: a game's messages (Message.game, set for what
its words-out methods return) find its keys first, then the core's; the core's messages
find the core's, so a game's `[messages] quit_saved` is its own sentence and never the
core's.
"""

from __future__ import annotations

import copy
import string
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum
from functools import cache
from importlib import resources
from typing import Any

import babel
from babel import Locale
from babel.plural import PluralRule

from companion import startcache
from companion.games.registry import available_games, load_game
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


PLURALS = frozenset({"zero", "one", "two", "few", "many", "other"})
SOUNDS = frozenset({"vowel", "other"})


@cache
def _plural_rule(lang: str) -> PluralRule:
    """Babel's CLDR plural rule for `lang`; its rule texts are remembered between runs
    (loading them reads Babel's whole locale, a tenth of start-up)."""
    rules = startcache.remembered(f"plural.{lang}", babel.__version__,
                                  lambda: dict(Locale.parse(lang).plural_form.rules))
    return PluralRule(rules)


def plural_form(lang: str, n: int) -> str:
    """The CLDR plural category of `n` in `lang` (Babel's rules)."""
    return str(_plural_rule(lang)(abs(n)))


def choose(table: dict[str, Any], lang: str, n: int) -> Any:
    """The entry of a plural table for `n`; `other` stands for the categories left out."""
    return table.get(plural_form(lang, n), table.get("other"))


class _InCase:
    """A catalogue that words values in one grammatical case (what `worded` is given)."""

    def __init__(self, catalogue: Catalogue, case: str) -> None:
        self.catalogue, self.case = catalogue, case

    def word(self, section: str, key: str) -> str:
        return self.catalogue.word(section, key, self.case)

    def plural(self, section: str, key: str, n: int) -> str | None:
        return self.catalogue.plural(section, key, n, self.case)


class _Formatter(string.Formatter):
    """`str.format` whose format spec is a selector (`{n:card}`, `{player:de}`, `{x:acc}`)."""

    def __init__(self, catalogue: Catalogue) -> None:
        self.catalogue = catalogue

    def format_field(self, value: Any, format_spec: str) -> str:
        return self.catalogue.field(value, format_spec)


def _merge(into: dict[str, Any], extra: dict[str, Any]) -> None:
    for key, value in extra.items():
        if isinstance(value, dict) and isinstance(into.get(key), dict):
            _merge(into[key], value)
        else:
            into[key] = value


@cache
def _core(lang: str) -> dict[str, Any]:
    """The core's `{lang}.toml` merged with its `*.{lang}.toml` (cards, learn, rules, ...)."""
    folder = resources.files("companion").joinpath("locales")
    data = tomllib.loads(folder.joinpath(f"{lang}.toml").read_text("utf-8"))
    for entry in sorted(folder.iterdir(), key=lambda e: e.name):
        if entry.name.endswith(f".{lang}.toml"):
            _merge(data, tomllib.loads(entry.read_text("utf-8")))
    return data


@cache
def _own(lang: str, game: str) -> dict[str, Any]:
    """A game's `{lang}.toml`, kept apart from the core's and other games' (its namespace);
    a game that cannot be loaded raises GameUnavailable."""
    return tomllib.loads(load_game(game).locales().joinpath(f"{lang}.toml").read_text("utf-8"))


def merged(lang: str, games: Sequence[str] | None = None) -> dict[str, Any]:
    """Every entry of the core's and the games' catalogues in `lang` in one table, the
    core's winning where a game has the same key (for checks over every key; default:
    every installed game that loads)."""
    out: dict[str, Any] = {}
    for name in reversed(available_games() if games is None else games):
        _merge(out, copy.deepcopy(_own(lang, name)))
    _merge(out, copy.deepcopy(_core(lang)))
    return out


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

    def __init__(self, lang: str, verbosity: str = "normal",
                 games: Sequence[str] | None = None) -> None:
        """`games`: whose words to load besides the core's (default: every installed game;
        a game in play names only itself, so no other game is imported)."""
        self.lang = lang if available(lang) else "en"
        self.games = tuple(available_games() if games is None else games)
        # brief and detailed sentences live in [messages.brief] and [messages.detailed];
        # a message without such a variant is said as normal.
        self.verbosity = verbosity if verbosity in self.VERBOSITIES else "normal"
        core = (_core(self.lang), _core("en"))
        own = {name: (_own(self.lang, name), _own("en", name)) for name in self.games}
        # Each game's keys are its own (its namespace): a game's message finds its own key
        # first, then the core's; the core's find the core's first, and only then a key no
        # core catalogue has (a game's card words, said in any message).
        self._layers: dict[str | None, tuple[dict[str, Any], ...]] = {
            None: core + tuple(data for name in self.games for data in own[name]),
            **{name: own[name] + core for name in self.games}}
        self._game: str | None = None  # whose message is being rendered (Message.game)
        self._short = False  # rendering a message heard before: its short form

    def section(self, name: str) -> dict[str, Any]:
        """A section as the core's messages see it, in this catalogue's language."""
        return merged(self.lang, self.games).get(name, {})

    def _lookup(self, section: str, key: str) -> Any:
        for data in self._layers.get(self._game, self._layers[None]):
            value: Any = data.get(section, {})
            for part in key.split("."):
                value = value.get(part) if isinstance(value, dict) else None
            if value is not None:
                return value
        return None

    def _cased(self, value: Any, case: str) -> Any:
        """A word table of cases gives the case asked for, else its nominative."""
        if isinstance(value, dict) and not set(value) & PLURALS:
            return value.get(case, value.get("nom"))
        return value

    def word(self, section: str, key: str, case: str = "nom") -> str:
        value = None
        if self._short:  # heard before: a card by its item alone ([words_short], ...)
            value = self._cased(self._lookup(f"{section}_short", key), case)
        if value is None:
            value = self._cased(self._lookup(section, key), case)
        return str(value) if value is not None else key

    def plural(self, section: str, key: str, n: int, case: str = "nom") -> str | None:
        """The plural of `key` for `n` (languages whose plural depends on the number keep a
        table of CLDR forms), or None."""
        value = self._cased(self._lookup(section, key), case)
        if isinstance(value, dict):
            value = self._cased(choose(value, self.lang, n), case)
        return str(value) if value else None

    def value(self, v: Any, case: str = "nom") -> str:
        """A parameter as words: a game's values word themselves (`worded`, e.g. a card with
        its colour and points), lists are joined, nested messages rendered."""
        if isinstance(v, Message):
            return self.render(v)
        words = self if case == "nom" else _InCase(self, case)
        if isinstance(v, CardCount):
            return str(v.item.worded(words, v.n))
        worded = getattr(v, "worded", None)
        if callable(worded):
            return str(worded(words))
        if isinstance(v, Enum):
            return self.word("words", str(v.value), case)
        if isinstance(v, Sentences):
            return " ".join(self.value(x, case) for x in v)
        if isinstance(v, Alternatives):
            return self.join([self.value(x, case) for x in v], "or_sep")
        if isinstance(v, (list, tuple)) and not isinstance(v, str):
            return self.join([self.value(x, case) for x in _grouped(v)])
        return str(v)

    def field(self, v: Any, spec: str) -> str:
        """A placeholder's value with its selector (see the module docstring)."""
        if not spec:
            return self.value(v)
        form = self._lookup("forms", spec)
        if isinstance(form, dict) and set(form) <= PLURALS and isinstance(v, int):
            return str(choose(form, self.lang, v)).format(n=v)
        if isinstance(form, dict) and set(form) <= SOUNDS:
            text = self.value(v)
            vowels = str(self._lookup("forms", "vowels") or "aeiou")
            sound = "vowel" if text[:1].lower() in vowels else "other"
            return str(form.get(sound, form.get("other"))).format(word=text)
        return self.value(v, spec)

    def join(self, parts: Sequence[str], last: str = "and_sep") -> str:
        if not parts:
            return self.word("words", "nothing")
        if len(parts) == 1:
            return parts[0]
        return ", ".join(parts[:-1]) + self.word("words", last) + parts[-1]

    def render(self, message: Message) -> str:
        if message.game is not None and message.game != self._game:
            # A game's message, or one nested in it, looks in the game's catalogue first.
            view = copy.copy(self)
            view._game = message.game
            return view.render(message)
        if (message.short and not self._short and self.verbosity != "detailed"
                and self._lookup("messages", f"short.{message.key}") is not None):
            # Heard before in this game: the short form, its parts and cards short too.
            view = copy.copy(self)
            view._short = True
            return view.render(message)
        template = None
        if self.verbosity != "normal":
            template = self._lookup("messages", f"{self.verbosity}.{message.key}")
        if self._short:  # heard before: the short form, or the brief one if shorter still
            short = self._lookup("messages", f"short.{message.key}")
            if short is not None and (template is None or len(str(short)) <= len(str(template))):
                template = short
        if template is None:
            template = self._lookup("messages", message.key)
        if template is None:
            return message.key
        if isinstance(template, dict):
            template = choose(template, self.lang, int(message.params.get("n", 0))) or ""
        params = message.params
        if "{companion}" in str(template):  # the command that runs the companion here
            from companion.launcher import command

            params = {"companion": command(), **params}
        try:
            text = _Formatter(self).vformat(str(template), (), params)
        except (KeyError, IndexError, ValueError, AttributeError):
            text = str(template)
        # A whole announcement (not a part of one) starts as a sentence does, even when it
        # opens with a part ("the garden: … Yes or no?").
        return text[:1].upper() + text[1:] if message.event else text
