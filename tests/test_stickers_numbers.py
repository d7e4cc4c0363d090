"""The number code: dot 1, dotted circle 5, dotted square 10, dotted square with n dots n×10."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from stickers import NumberStickers, Piece, StickerParseError, decode, describe, guess_lang


@pytest.mark.parametrize(
    ("text", "value"),
    [
        # the seed's own example, and the brief's
        ("un carré pointé + un rond pointé + deux points", 17),
        ("carré pointé, rond pointé, deux points", 17),
        ("CARRE POINTE ROND POINTE DEUX POINTS", 17),  # no accents, no commas (speech)
        ("square with two dots and three dots", 23),
        ("dotted circle and one dot", 6),
        ("two dotted squares", 20),
        ("deux carrés pointés", 20),
        ("carré pointé à deux points", 20),
        ("carre pointe a 2 points et 1 rond pointe", 25),
        ("Carré pointé à trois points, rond pointé, un point", 36),
        ("a dotted square with two dots", 20),
        ("square of two dots in the middle, three dots", 23),
        ("carré pointé avec deux points au milieu et un rond pointé", 25),
        ("square with two dots in it and a dot", 21),
        ("square with two dots a dot", 21),
        ("carré pointé avec quatre points", 40),
        ("carré pointé à un point", 10),  # one dot on the square is the plain square
        ("a plain dotted square", 10),
        ("dotted square, a dot", 11),  # English "a" after a comma starts a new group
        ("dotted square a dotted circle", 15),
        ("circle with a dot", 5),
        ("a single dot", 1),
        ("un seul point", 1),
        ("point, point, point", 3),
        ("dot dot", 2),
        ("3 dots", 3),
        ("trois points", 3),
        ("four dots", 4),
        ("le rond pointé et les deux points", 7),
        ("dotted circle & 2 dots", 7),
        ("zero", 0),
        ("no number sticker", 0),
        ("aucun sticker chiffre", 0),
    ],
)
def test_decode_accepts_natural_descriptions(text: str, value: int) -> None:
    assert decode(text) == value


@pytest.mark.parametrize(
    ("text", "fragments"),
    [
        ("dotted square banana", ["understood 'dotted square' (10)", "not 'banana'"]),
        ("banana", ["not a number sticker: 'banana'"]),
        ("", ["empty"]),
        ("   , + ", ["empty"]),
        ("dots", ["how many"]),
        ("two bananas", ["'two bananas'", "followed by dots"]),
        ("rond plein", ["'rond plein'", "orange", "colour"]),
        ("dotted square, filled circle", ["understood 'dotted square' (10)", "orange"]),
        ("carré plein", ["white"]),
        ("circle with two dots", ["single dot"]),
        ("17", ["a number alone", "dotted square, dotted circle, two dots"]),
        ("carré pointé à plusieurs points", ["how many"]),
        ("square with", ["not 'with'"]),
        # reversed order must not silently read as 2 + 10
        ("two dots in a square", ["understood 'two dots' (2)", "not 'in a'"]),
        ("deux points dans un carré", ["understood 'deux points' (2)", "not 'dans un'"]),
    ],
)
def test_decode_errors_say_what_was_and_was_not_understood(
    text: str, fragments: list[str]
) -> None:
    with pytest.raises(StickerParseError) as info:
        decode(text)
    for fragment in fragments:
        assert fragment in str(info.value)
    assert isinstance(info.value, ValueError)


@pytest.mark.parametrize(
    ("n", "en", "fr"),
    [
        (0, "no number sticker", "aucun sticker chiffre"),
        (1, "one dot", "un point"),
        (4, "four dots", "quatre points"),
        (5, "dotted circle", "rond pointé"),
        (6, "dotted circle, one dot", "rond pointé, un point"),
        (10, "dotted square", "carré pointé"),
        (17, "dotted square, dotted circle, two dots", "carré pointé, rond pointé, deux points"),
        (20, "dotted square with two dots", "carré pointé à deux points"),
        (23, "dotted square with two dots, three dots", "carré pointé à deux points, trois points"),
        (
            99,
            "dotted square with nine dots, dotted circle, four dots",
            "carré pointé à neuf points, rond pointé, quatre points",
        ),
    ],
)
def test_describe_is_canonical(n: int, en: str, fr: str) -> None:
    assert describe(n, "en") == en
    assert describe(n, "fr") == fr


@pytest.mark.parametrize("n", [-1, 100])
def test_describe_range(n: int) -> None:
    with pytest.raises(ValueError):
        describe(n)


def test_describe_rejects_unknown_language() -> None:
    with pytest.raises(ValueError, match="language"):
        describe(3, "de")  # type: ignore[arg-type]


@given(st.integers(min_value=0, max_value=99), st.sampled_from(["en", "fr"]))
def test_decode_describe_round_trip(n: int, lang: str) -> None:
    assert decode(describe(n, lang)) == n  # type: ignore[arg-type]


@given(st.integers(min_value=0, max_value=99))
def test_canonical_form(n: int) -> None:
    s = NumberStickers.from_value(n)
    assert s.value == n
    assert s.tens_dots == n // 10
    assert s.circle == (n % 10 >= 5)
    assert 0 <= s.dots <= 4
    assert NumberStickers.parse(s.describe("fr")) == s
    assert sum(piece.value * count for piece, count in s.pieces().items()) == n


@given(
    st.integers(min_value=0, max_value=9),
    st.booleans(),
    st.integers(min_value=0, max_value=20),
    st.sampled_from(["en", "fr"]),
)
def test_non_canonical_forms_still_read_back(tens: int, circle: bool, dots: int, lang: str) -> None:
    s = NumberStickers(tens, circle, dots)
    assert decode(s.describe(lang)) == s.value  # type: ignore[arg-type]
    assert NumberStickers.parse(s.describe(lang)) == NumberStickers.from_value(s.value)  # type: ignore[arg-type]


def test_number_stickers_is_frozen_and_checked() -> None:
    s = NumberStickers(1, True, 2)
    assert s.value == 17
    with pytest.raises(AttributeError):
        s.dots = 3  # type: ignore[misc]
    with pytest.raises(ValueError):
        NumberStickers(0, False, -1)


def test_pieces_count_each_dot() -> None:
    pieces = NumberStickers.from_value(28).pieces()
    assert pieces == {Piece(20): 1, Piece(5): 1, Piece(1): 3}
    assert Piece(20).describe("fr") == "carré pointé à deux points"
    with pytest.raises(ValueError):
        Piece(7)


@pytest.mark.parametrize(
    ("text", "lang"),
    [("carré pointé, deux points", "fr"), ("dotted square, two dots", "en"), ("3", "en")],
)
def test_guess_lang(text: str, lang: str) -> None:
    assert guess_lang(text) == lang
