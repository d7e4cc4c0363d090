"""Every language says every message, with the same placeholders."""

from __future__ import annotations

import re
import string
from pathlib import Path

import pytest

from companion.narrate.catalogue import Catalogue, _load, available, plural_form
from companion.narrate.message import Message

ROOT = Path(__file__).resolve().parent.parent
LANGS = [lang for lang in ("en", "fr", "es", "uk") if available(lang)]


def flatten(data: dict, prefix: str = "") -> dict[str, object]:
    out: dict[str, object] = {}
    for key, value in data.items():
        name = f"{prefix}{key}"
        if isinstance(value, dict) and not set(value) <= {"one", "few", "many", "other"}:
            out.update(flatten(value, name + "."))
        else:
            out[name] = value
    return out


def fields(value: object) -> set[str]:
    texts = value.values() if isinstance(value, dict) else [value]
    return {f for t in texts for _, f, _, _ in string.Formatter().parse(str(t)) if f}


LOCALES = ROOT / "companion" / "locales"
# Each catalogue file against its English twin: the core ({lang}.toml) in every language,
# a game's or feature's file ({name}.{lang}.toml) wherever it has been translated (other
# languages fall back to English for it).
PAIRS = [
    (path, LOCALES / (path.name[: -len(f"{lang}.toml")] + "en.toml"))
    for lang in LANGS if lang != "en"
    for path in sorted(LOCALES.glob(f"*{lang}.toml"))
    if path.name == f"{lang}.toml" or path.name.endswith(f".{lang}.toml")
]


def read(path: Path) -> dict:
    import tomllib

    return tomllib.loads(path.read_text("utf-8"))


@pytest.mark.parametrize(("path", "english_path"), PAIRS, ids=[p.name for p, _ in PAIRS])
def test_same_keys_and_placeholders_as_english(path, english_path):
    english, other = flatten(read(english_path)), flatten(read(path))
    assert set(other) == set(english), set(english) ^ set(other)
    for key, value in english.items():
        assert fields(other[key]) == fields(value), key


def test_every_language_has_the_core_catalogue():
    for lang in ("en", "fr", "es", "uk"):
        assert (LOCALES / f"{lang}.toml").is_file()


@pytest.mark.parametrize("lang", LANGS)
def test_plural_tables_have_the_forms_the_language_needs(lang):
    needed = {plural_form(lang, n) for n in range(0, 200)}
    for key, value in flatten(_load(lang)).items():
        if isinstance(value, dict):
            assert needed <= set(value) | ({"other"} if "other" in value else set()), key


def test_every_error_the_code_raises_has_a_sentence():
    source = "\n".join(p.read_text("utf-8") for p in (ROOT / "companion").rglob("*.py"))
    keys = set(re.findall(r'(?:IllegalAction|InvalidCommand|AmbiguousCommand)\(\s*"(\w+)"',
                          source))
    assert len(keys) > 25
    for lang in LANGS:
        errors = _load(lang)["messages"]["error"]
        assert keys <= set(errors), (lang, keys - set(errors))


def test_every_message_key_the_narrator_uses_exists():
    source = "\n".join(p.read_text("utf-8") for p in
                       (ROOT / "companion" / "games" / "hanamikoji").glob("*.py"))
    source += (ROOT / "companion" / "session.py").read_text("utf-8")
    keys = set(re.findall(r'Message\(\s*"\w*",\s*"(\w+)"', source))
    english = _load("en")["messages"]
    assert keys and keys <= set(english), keys - set(english)


def test_cards_are_said_with_item_colour_and_points():
    from companion.games.hanamikoji.data import Item

    assert Catalogue("en").value(Item.FAN) == "fan (red, 2)"
    assert Catalogue("fr").value([Item.FLOWER, Item.FLOWER]) == "2 fleurs (rose, 5)"
    text = Catalogue("en").render(Message("x", "took", {
        "chooser": "Ben", "received": (Item.TEA,), "offerer": "Ana",
        "kept": (Item.FLUTE, Item.FLUTE)}))
    assert text == "Ben takes tea set (green, 4). Ana keeps 2 flutes (purple, 2)."
