"""Lines mean one thing, or the companion asks (issue 11, section 2).

Of the readings of a line, the one whose number of cards fits what is expected is taken;
if none fits, the reason is said; if several equally usual ones fit, the player is asked.
Stray characters refuse a line; full-width forms are read as plain ones; a long line is
never read back in full.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.errors import (
    ECHO_CHARS,
    AmbiguousCommand,
    CompanionError,
    InvalidCommand,
    excerpt,
    is_long,
)
from companion.games.hanamikoji import Hanamikoji
from companion.games.hanamikoji.actions import Competition, Discard, Gift, Secret, TakeGift
from companion.games.hanamikoji.data import Item, Token
from companion.games.hanamikoji.interpret import Choose, interpret, parse_command
from companion.games.hanamikoji.rules import new_game, replay
from companion.narrate.catalogue import LANGUAGES, Catalogue
from companion.narrate.message import Message
from companion.session import Session
from companion.shared_commands import Adjust, Ask, Query, Setting

F, N, S, U, H, T, W = (
    Item.FLUTE, Item.FAN, Item.SCROLL, Item.UMBRELLA, Item.SHAMISEN, Item.TEA, Item.FLOWER,
)
ACTION = new_game()
GIFT = replay(new_game(), [Gift((N, T, W))])


def refused(line: str, key: str, state=ACTION, **kw) -> CompanionError:
    with pytest.raises(CompanionError) as info:
        interpret(line, state, **kw)
    assert info.value.key == key, str(info.value)
    return info.value


# --- the reading whose card count fits ----------------------------------------------------


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        # 5 cannot count cards (1 to 4): it is the shamisen's position.
        ("gift flower 5 tomoyo", Gift((S, H, W))),
        ("gift 5 tomoyo flower", Gift((S, H, W))),
        # An item next to its own colour, symbol or geisha names one card ...
        ("gift flower fan", Choose(Token.GIFT, (W, N))),
        # ... but a line that is a whole offer under one reading is that offer (issue 28)
        ("gift flower pink fan", Gift((N, W, W))),
        ("secret flower pink", Secret(W)),
        ("secret Ruri pink flower", Secret(W)),
        ("gift the pink flower the red fan tea", Gift((N, T, W))),
        # ... unless only two cards fit.
        ("discard flower pink", Discard((W, W))),
        ("discard rose fleur", Discard((W, W))),
        # The usual readings stay: a number before a card counts it.
        ("gift 2 flowers fan", Gift((N, W, W))),
        ("gift two pink flowers fan", Gift((N, W, W))),
        ("competition 2 fans / 2 teas", Competition(((N, N), (T, T)))),
        ("gift flower flower fan", Gift((N, W, W))),  # the same word twice: two cards
        ("3125", Gift((F, N, H))),
        ("4 12 67", Competition(((F, N), (T, W)))),
    ],
)
def test_the_reading_that_fits_the_count(line: str, expected) -> None:
    got = interpret(line, ACTION, lang="fr" if "rose" in line else "en")
    assert got == expected
    assert parse_command(got.text()) == got


def test_a_reading_completes_a_half_entered_offer() -> None:
    pending = Choose(Token.GIFT, (F,))
    assert interpret("flower pink fan", ACTION, pending=pending) == Gift((F, N, W))


def test_answers_and_reveals_read_one_card_named_twice() -> None:
    assert interpret("take the pink flower", GIFT) == TakeGift(W)


@pytest.mark.parametrize(
    ("line", "key"),
    [
        ("secret 5 fans", "bad_count"),  # neither 5 fans nor shamisen and fan is one card
        ("gift 2 fan 2 tea", "card_count"),
        ("gift 9 fans", "bad_count"),
    ],
)
def test_when_no_reading_fits_the_usual_reason_is_said(line: str, key: str) -> None:
    refused(line, key)


def test_card_count_names_the_usual_reading() -> None:
    error = refused("gift 2 fan 2 tea", "card_count")
    assert error.params["got"] == 4


def test_equally_usual_readings_are_asked_about() -> None:
    # "1 pink flower" for a Discard: two flowers, or the flute and a flower?
    with pytest.raises(AmbiguousCommand) as info:
        interpret("discard 1 pink flower", ACTION)
    assert info.value.key == "several_readings"
    assert set(info.value.options) == {Discard((W, W)), Discard((F, W))}


def test_a_huge_keyed_number_is_refused_not_crashed() -> None:
    with pytest.raises(InvalidCommand):
        interpret("gift " + "1" * 5000 + " fans", ACTION)


# --- stray characters and compatibility forms ----------------------------------------------


@pytest.mark.parametrize(
    "line",
    ['{"a":1}', "@@@2@@@", "gift fan! tea flower", "3125!", "secret (fan)", "\x1b[A", "1_", "#3",
     "gift fan; tea", "2 <fan>"],
)
def test_stray_characters_refuse_the_line(line: str) -> None:
    error = refused(line, "stray_character")
    assert error.params["char"]


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("*", Ask(Query.REPEAT)), ("/", Ask(Query.SCORE)), (".", Ask(Query.BOARD)),
        ("+", Ask(Query.HELP)), ("?", Ask(Query.HELP)), ("**", Adjust(Setting.FASTER)),
        ("--", Adjust(Setting.QUIETER)), ("4 12/67", Competition(((F, N), (T, W)))),
        ("gift fan, tea, flower", Gift((N, T, W))),
        ("offre le thé la fleur l'éventail", Gift((N, T, W))),
        ("offre le thé la fleur l’éventail", Gift((N, T, W))),
    ],
)
def test_keypad_keys_and_sentence_punctuation_still_work(line: str, expected) -> None:
    assert interpret(line, ACTION, lang="fr") == expected


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("ｇｉｆｔ ｆａｎ ｔｅａ ｆｌｏｗｅｒ", Gift((N, T, W))),
        ("３１２５", Gift((F, N, H))),
        ("ＳＥＣＲＥＴ", Secret()),
        ("＊＊", Adjust(Setting.FASTER)),
        ("gift\u00a0fan\u3000tea flower", Gift((N, T, W))),  # no-break and ideographic spaces
    ],
)
def test_full_width_and_compatibility_forms_are_read_as_plain(line: str, expected) -> None:
    assert interpret(line, ACTION) == expected


@pytest.mark.parametrize("line", ["²", "gift ² fans", "½"])
def test_superscripts_and_fractions_are_not_digits(line: str) -> None:
    with pytest.raises(InvalidCommand):
        interpret(line, ACTION)


# --- long lines are not read back ------------------------------------------------------------


def test_excerpt_keeps_a_few_words() -> None:
    assert excerpt("gift fan tea") == "gift fan tea"
    assert excerpt("one two three four five six seven") == "one two three four five six…"
    assert len(excerpt("x" * 3000)) == ECHO_CHARS + 1


@pytest.mark.parametrize("line", ["a" * 3000, "fan " * 700 + "qq", "qq " * 900])
def test_a_long_line_is_said_with_its_first_words_only(line: str) -> None:
    error = refused(line, "long_line")
    assert len(error.params["start"]) <= ECHO_CHARS + 1
    assert len(str(error)) < 2 * ECHO_CHARS


def test_every_refusal_echoing_input_is_cut() -> None:
    error = InvalidCommand("unknown_word", f"I did not understand '{'z' * 500}'", word="z" * 500)
    assert error.params["word"] == "z" * ECHO_CHARS + "…"
    assert len(str(error)) < 2 * ECHO_CHARS


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_pasted_page_is_a_short_spoken_refusal(lang: str) -> None:
    session = Session(Hanamikoji(), {"players": ["Ana", "Ben"], "lang": lang})
    session.start()
    before = session.state
    catalogue = Catalogue(lang)
    for line in ("lorem ipsum dolor " * 200, "é" * 3000, "gift " + "fan " * 800 + "banana"):
        messages = session.handle(line)
        said = " ".join(catalogue.render(m) for m in messages if m.event == "error")
        assert said and len(said) < 300, said
        assert session.state == before


# --- any line: a reason, or a value whose text parses back --------------------------------

STATES = [ACTION, GIFT, replay(new_game(), [Competition(((N, W), (N, T)))])]
WORDS = ["gift", "secret", "discard", "competition", "take", "fan", "red", "pink", "flower",
         "Ruri", "tea", "thé", "2", "5", "12", "two", "/", "*", "score", "undo", "yes"]
CATALOGUES = [Catalogue(lang) for lang in LANGUAGES]


def _said_in_every_language(error: CompanionError) -> bool:
    key = f"error.{error.key}"
    return all(c.render(Message("error", key, error.params)) != key for c in CATALOGUES)


@given(
    line=st.one_of(
        st.text(st.characters(blacklist_categories=("Cs",)), max_size=40),
        st.lists(st.sampled_from(WORDS), max_size=7).map(" ".join),
        st.text(st.sampled_from("gift fan5 ,.'/*-+?@!ｇ３²"), max_size=300),
    ),
    state=st.sampled_from(STATES),
    pending=st.sampled_from([None, Choose(Token.GIFT, (N,))]),
)
@settings(max_examples=500, deadline=None)
def test_any_line_is_refused_with_a_reason_or_parses_back(line: str, state, pending) -> None:
    try:
        command = interpret(line, state, pending=pending)
    except CompanionError as error:
        assert _said_in_every_language(error), error.key
        if is_long(line):
            assert len(str(error)) < 3 * ECHO_CHARS
        return
    assert parse_command(command.text()) == command
