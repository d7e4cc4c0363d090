"""The colour code: one raised symbol per colour, read and written in French and English."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from stickers import (
    Colour,
    StickerParseError,
    colour_name,
    describe_colour,
    parse_colour,
    parse_symbol,
    symbol_name,
)

# The seed's "Stickers code couleur" list, verbatim (white is not in it: carré plein).
SEED = {
    "Coeur": Colour.RED,
    "Lune": Colour.YELLOW,
    "Goutte d’eau": Colour.BLUE,  # typographic apostrophe, as in the seed
    "Rond plein": Colour.ORANGE,
    "Trèfle": Colour.GREEN,
    "4 carreaux": Colour.BROWN,
    "Grappe de raisin": Colour.VIOLET,
    "Fleur": Colour.PINK,
    "Croix épaisse": Colour.BLACK,
}


@pytest.mark.parametrize(("text", "colour"), SEED.items())
def test_seed_symbols(text: str, colour: Colour) -> None:
    assert parse_symbol(text) == colour


@pytest.mark.parametrize(
    ("text", "colour"),
    [
        ("goutte", Colour.BLUE),
        ("goutte d'eau", Colour.BLUE),
        ("GOUTTE D EAU", Colour.BLUE),
        ("drop", Colour.BLUE),
        ("quatre carreaux", Colour.BROWN),
        ("four squares", Colour.BROWN),
        ("raisin", Colour.VIOLET),
        ("grapes", Colour.VIOLET),
        ("the grapes", Colour.VIOLET),
        ("cœur", Colour.RED),
        ("coeur", Colour.RED),
        ("le symbole cœur", Colour.RED),
        ("filled circle", Colour.ORANGE),
        ("carre plein", Colour.WHITE),
        ("filled square", Colour.WHITE),
        ("clover", Colour.GREEN),
        ("moon", Colour.YELLOW),
        ("thick cross", Colour.BLACK),
    ],
)
def test_symbol_variants(text: str, colour: Colour) -> None:
    assert parse_symbol(text) == colour
    assert parse_colour(text) == colour


@pytest.mark.parametrize(
    ("text", "colour"),
    [
        ("rouge", Colour.RED),
        ("Red", Colour.RED),
        ("violet", Colour.VIOLET),
        ("purple", Colour.VIOLET),
        ("bleue", Colour.BLUE),
        ("marron", Colour.BROWN),
        ("rose", Colour.PINK),
        ("cœur rouge", Colour.RED),  # symbol and colour agreeing
        ("heart = red", Colour.RED),
    ],
)
def test_colour_names(text: str, colour: Colour) -> None:
    assert parse_colour(text) == colour


def test_parse_symbol_refuses_bare_colour_names() -> None:
    with pytest.raises(StickerParseError, match="'heart' / 'cœur'"):
        parse_symbol("red")


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ("banana", "not a colour or colour symbol: 'banana'"),
        ("red banana", "understood 'red' (red) but not 'banana'"),
        ("heart blue", "contradictory"),
        ("", "empty"),
        ("rond", "rond plein"),  # a bare circle could be the number code's dotted circle
        ("rond pointé", "numbers"),
    ],
)
def test_parse_errors(text: str, fragment: str) -> None:
    with pytest.raises(StickerParseError) as info:
        parse_colour(text)
    assert fragment in str(info.value)


def test_tables_are_complete_and_distinct() -> None:
    for lang in ("en", "fr"):
        symbols = {symbol_name(c, lang) for c in Colour}  # type: ignore[arg-type]
        names = {colour_name(c, lang) for c in Colour}  # type: ignore[arg-type]
        assert len(symbols) == len(Colour) == len(names)


@given(st.sampled_from(list(Colour)), st.sampled_from(["en", "fr"]))
def test_round_trip_both_directions(colour: Colour, lang: str) -> None:
    assert parse_symbol(symbol_name(colour, lang)) == colour  # type: ignore[arg-type]
    assert parse_colour(colour_name(colour, lang)) == colour  # type: ignore[arg-type]
    assert parse_colour(describe_colour(colour, lang)) == colour  # type: ignore[arg-type]
    assert parse_symbol(symbol_name(colour, lang).upper()) == colour  # type: ignore[arg-type]


def test_describe_colour() -> None:
    assert describe_colour(Colour.RED, "fr") == "cœur (rouge)"
    assert describe_colour(Colour.BROWN) == "four squares (brown)"


def test_stickers_package_never_imports_companion() -> None:
    """stickers/ is game-agnostic: the dependency goes one way (see DESIGN.md)."""
    import ast
    from pathlib import Path

    import stickers

    for path in Path(stickers.__file__).parent.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                names = [node.module or ""]
            else:
                continue
            assert not any(n.split(".")[0] in ("companion", "hardware") for n in names), path
