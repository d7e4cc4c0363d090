"""Every language says every message, with the same placeholders."""

from __future__ import annotations

import re
import string
from pathlib import Path

import pytest

from companion.narrate.catalogue import PLURALS, Catalogue, available, merged, plural_form
from companion.narrate.message import Message

ROOT = Path(__file__).resolve().parent.parent
LANGS = [lang for lang in ("en", "fr", "es", "uk") if available(lang)]


CASES = {"nom", "gen", "dat", "acc", "ins", "loc", "voc"}


def flatten(data: dict, prefix: str = "") -> dict[str, object]:
    """Keys to their messages; a plural table or a word's table of cases is one value."""
    out: dict[str, object] = {}
    for key, value in data.items():
        name = f"{prefix}{key}"
        if isinstance(value, dict) and not set(value) <= PLURALS | CASES:
            out.update(flatten(value, name + "."))
        else:
            out[name] = value
    return out


def texts(value: object) -> list[str]:
    return [str(t) for t in value.values()] if isinstance(value, dict) else [str(value)]


def fields(value: object) -> set[str]:
    return {f for t in texts(value) for _, f, _, _ in string.Formatter().parse(t) if f}


def specs(value: object) -> set[str]:
    return {s for t in texts(value) for _, f, s, _ in string.Formatter().parse(t) if f and s}


LOCALES = ROOT / "companion" / "locales"
# Each catalogue file against its English twin: the core ({lang}.toml) in every language,
# a game's or feature's file ({name}.{lang}.toml) wherever it has been translated (other
# languages fall back to English for it).
# Each game's own catalogues (companion/games/<game>/locales/{lang}.toml) likewise.
FOLDERS = [LOCALES] + sorted((ROOT / "companion" / "games").glob("*/locales"))
PAIRS = [
    (path, folder / (path.name[: -len(f"{lang}.toml")] + "en.toml"))
    for folder in FOLDERS
    for lang in LANGS if lang != "en"
    for path in sorted(folder.glob(f"*{lang}.toml"))
    if path.name == f"{lang}.toml" or path.name.endswith(f".{lang}.toml")
]


def read(path: Path) -> dict:
    """A catalogue file without its [forms]: each language has the grammar it needs."""
    import tomllib

    data = tomllib.loads(path.read_text("utf-8"))
    data.pop("forms", None)
    return data


@pytest.mark.parametrize(("path", "english_path"), PAIRS,
                         ids=[str(p.relative_to(ROOT)) for p, _ in PAIRS])
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
    for key, value in flatten(merged(lang)).items():
        if isinstance(value, dict) and set(value) <= PLURALS:
            assert needed <= set(value) | ({"other"} if "other" in value else set()), key


def test_every_error_the_code_raises_has_a_sentence():
    source = "\n".join(p.read_text("utf-8") for p in (ROOT / "companion").rglob("*.py"))
    keys = set(re.findall(r'(?:IllegalAction|InvalidCommand|AmbiguousCommand)\(\s*"(\w+)"',
                          source))
    assert len(keys) > 25
    for lang in LANGS:
        errors = merged(lang)["messages"]["error"]
        assert keys <= set(errors), (lang, keys - set(errors))


def test_every_message_key_the_narrator_uses_exists():
    source = "\n".join(p.read_text("utf-8") for p in
                       (ROOT / "companion" / "games" / "hanamikoji").glob("*.py"))
    source += (ROOT / "companion" / "session.py").read_text("utf-8")
    keys = set(re.findall(r'Message\(\s*"\w*",\s*"(\w+)"', source))
    english = merged("en")["messages"]
    assert keys and keys <= set(english), keys - set(english)


def test_cards_are_said_with_item_colour_and_points():
    from companion.games.hanamikoji.data import Item

    assert Catalogue("en").value(Item.FAN) == "fan (red, 2)"
    assert Catalogue("fr").value([Item.FLOWER, Item.FLOWER]) == "2 fleurs (rose, 5)"
    text = Catalogue("en").render(Message("x", "took", {
        "chooser": "Ben", "received": (Item.TEA,), "offerer": "Ana",
        "kept": (Item.FLUTE, Item.FLUTE)}))
    assert text == "Ben takes tea set (green, 4). Ana keeps 2 flutes (purple, 2)."


# --- Grammar: plurals, articles, elision, cases (issue 11, section 6) ---

# Parameters that are numbers in the core, Momiji and card catalogues; the others are
# names, cards or lists, given here as a name that starts with a vowel.
NUMERIC = {"acorns", "copies", "cost", "discard", "done", "expected", "ga", "gb", "gain",
           "got", "hand", "high", "i", "landscapes", "limit", "low", "n", "na", "nb", "pa",
           "pb", "points", "round", "seen", "size", "steps", "torii", "total", "types",
           "copy", "pair", "top", "value", "geishas", "tokens", "players"}
COUNTS = (0, 1, 2, 5, 11, 21)
# The counted nouns, singular and plural (a number must be said with the right one).
EN_NOUNS = ("card", "geisha", "point", "acorn", "player", "name", "cop(y|ie)", "step",
            "connection", "objective(?! token)", "token", "leaf type", "landscape")
FR_NOUNS = ("carte", "geisha", "point", "gland", "joueur", "nom", "exemplaire", "étape",
            "connexion", "objectif", "jeton", "type", "paysage")


def said(n: int, nouns: tuple[str, ...], plural: bool) -> str:
    return rf"\b{n} ({'|'.join(nouns)}){'s' if plural else ''}\b"


def messages(lang: str) -> dict[str, object]:
    return {k: v for k, v in flatten(merged(lang)["messages"]).items()
            if any(f in NUMERIC for f in fields(v))}


def rendered(lang: str, n: int) -> dict[str, str]:
    catalogue = Catalogue(lang)
    out = {}
    for key, value in messages(lang).items():
        params = {"n": n} | {f: n if f in NUMERIC else "Élise" for f in fields(value)}
        out[key] = catalogue.render(Message("", key, params))
    return out


@pytest.mark.parametrize("n", COUNTS)
def test_english_says_one_thing_in_the_singular(n):
    assert len(rendered("en", n)) > 60
    for key, text in rendered("en", n).items():
        assert "{" not in text, (key, text)
        assert not re.search(said(n, EN_NOUNS, plural=n == 1), text), (key, text)


@pytest.mark.parametrize("n", COUNTS)
def test_french_says_zero_and_one_in_the_singular(n):
    for key, text in rendered("fr", n).items():
        assert "{" not in text, (key, text)
        assert not re.search(said(n, FR_NOUNS, plural=n in (0, 1)), text), (key, text)


def ukrainian_forms() -> dict[str, dict[str, str]]:
    """Each counted noun's forms by CLDR category, from the Ukrainian [forms] tables."""
    return {key: {cat: t.replace("{n} ", "") for cat, t in table.items()}
            for key, table in merged("uk")["forms"].items()
            if isinstance(table, dict) and set(table) <= PLURALS}


@pytest.mark.parametrize("n", COUNTS)
def test_ukrainian_nouns_after_a_number_agree_with_it(n):
    forms = ukrainian_forms()
    assert {"one", "few", "many"} <= set(forms["card"])
    category = plural_form("uk", n)
    for key, text in rendered("uk", n).items():
        assert "{" not in text, (key, text)
        for word in re.findall(rf"\b{n} (\w+)", text):
            tables = [table for table in forms.values() if word in table.values()]
            assert not tables or any(word == t[category] for t in tables), (key, text)


@pytest.mark.parametrize("lang", LANGS)
def test_every_selector_is_a_form_or_a_case_of_the_language(lang):
    data = merged(lang)
    cases = {c for v in flatten(data).values() if isinstance(v, dict) for c in v} & CASES
    for key, value in flatten(data["messages"]).items():
        for spec in specs(value):
            assert spec in data.get("forms", {}) or spec in cases, (lang, key, spec)


def test_plural_rules_are_cldr_from_babel():
    assert [plural_form("fr", n) for n in (0, 1, 2)] == ["one", "one", "other"]
    assert [plural_form("uk", n) for n in (1, 2, 5, 11, 21, 22)] == [
        "one", "few", "many", "many", "one", "few"]
    assert Catalogue("fr").render(Message("", "round_scored", {
        "round": 1, "a": "Élise", "ga": 0, "pa": 1, "b": "Ben", "gb": 2, "pb": 5})) == (
        "Fin de la manche 1. Élise : 0 geisha, 1 point. Ben : 2 geishas, 5 points.")
    assert Catalogue("uk").render(Message("", "score", {
        "round": 1, "a": "А", "ga": 1, "pa": 2, "b": "Б", "gb": 5, "pb": 21})) == (
        "Раунд 1. А: 1 гейша, 2 очки. Б: 5 гейш, 21 очко.")


def test_articles_elision_and_cases():
    from companion.games.hanamikoji.data import GEISHAS, Item

    enrol = Message("", "cards.enroll_item", {"card": Item.UMBRELLA, "copy": 1, "copies": 3})
    assert Catalogue("en").render(enrol).startswith("Scan an umbrella (blue, 3) card")
    fr = Catalogue("fr")
    assert fr.render(Message("", "step_discard", {"player": "Élise"})) == "le Dépôt d'Élise"
    assert fr.render(Message("", "step_discard", {"player": "Ben"})) == "le Dépôt de Ben"
    took = Message("x", "took", {"chooser": "Оля", "received": (Item.FLOWER,),
                                 "offerer": "Ігор", "kept": (Item.FLUTE, Item.FLUTE)})
    assert Catalogue("uk").render(took) == (
        "Оля бере квітку (рожевий, 5). Ігор залишає собі 2 флейти (фіолетовий, 2).")
    assert [Catalogue("uk").value(g) for g in GEISHAS] == [
        "Аяне", "Іроха", "Томойо", "Йоко", "Чіхару", "Анджу", "Рурі"]
    assert Catalogue("en").value(GEISHAS[0]) == "Ayane"
