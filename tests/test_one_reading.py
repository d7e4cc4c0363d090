"""One reading, or a question (issue 28, part 2): a number that names two different
offered cards is asked about; a competition is answered by a position; a line that is a
whole offer under one reading is that offer; positions are said in help and on demand."""

from __future__ import annotations

import pytest

from companion.games.hanamikoji import Hanamikoji
from companion.games.hanamikoji.actions import Gift, TakeGift, TakePair
from companion.games.hanamikoji.data import Item
from companion.narrate.catalogue import LANGUAGES, Catalogue
from companion.session import Session


def session(*lines: str, lang: str = "en") -> Session:
    s = Session(Hanamikoji(), {"players": ["Ana", "Ben"], "lang": lang})
    for line in lines:
        s.handle(line)
    return s


def said(messages, lang: str = "en") -> list[str]:
    catalogue = Catalogue(lang)
    return [catalogue.render(m) for m in messages]


def test_take_a_number_that_names_two_offered_cards_is_a_question():
    s = session("gift flute scroll tea")  # position 3 is the scroll, the third card the tea
    before = s.state
    out = s.handle("take 3")
    assert out[0].key == "error.position_or_order"
    assert s.state == before  # nothing taken
    text = said(out)[0]
    assert "scroll" in text and "tea set" in text
    assert s.handle("take tea")[0].event == "took"  # the answer by name
    assert s.log[-1][0] == TakeGift(Item.TEA)


def test_take_a_number_whose_position_is_not_offered_takes_the_card_in_that_place():
    s = session("gift flute scroll flower")  # position 2, the fan, is not offered
    s.handle("take 2")
    assert s.log[-1][0] == TakeGift(Item.SCROLL)  # the second card offered


@pytest.mark.parametrize("line", ["3", "take third", "take scroll"])
def test_a_keyed_position_an_ordinal_or_a_name_decides_alone(line):
    s = session("gift flute scroll tea")
    s.handle(line)
    expected = Item.TEA if line == "take third" else Item.SCROLL
    assert s.log[-1][0] == TakeGift(expected), line


@pytest.mark.parametrize("line", ["take 3", "take three", "3", "take 6"])
def test_a_competition_is_answered_by_a_position(line):
    s = session("competition flute fan / scroll tea")
    out = s.handle(line)
    assert out[0].event == "took", said(out)
    assert s.log[-1][0] == TakePair(1)


def test_a_position_in_both_pairs_is_asked_and_one_in_neither_refused():
    s = session("competition flute scroll / scroll tea")
    assert s.handle("take 3")[0].key == "error.which_pair"
    assert s.handle("take 7")[0].key == "error.not_a_pair"
    assert s.step == 1


def test_a_whole_offer_under_one_reading_is_taken_whole_and_read_back():
    s = session()
    out = s.handle("gift flower pink umbrella")
    assert s.log[-1][0] == Gift((Item.UMBRELLA, Item.FLOWER, Item.FLOWER))
    assert "2 flowers (pink, 5)" in said(out)[0]  # read back
    # a line that cannot be whole is still begun
    s = session()
    s.handle("gift flower umbrella")
    assert s.step == 0 and s.pending is not None


@pytest.mark.parametrize("lang", LANGUAGES)
def test_help_and_position_say_which_card_is_where(lang):
    s = session(lang=lang)
    help_text = " ".join(said(s.handle("help"), lang))
    catalogue = Catalogue(lang)
    for item in Item:
        assert f"{int(item)} {catalogue.value(item)}" in help_text
    words = {"en": "what is 3", "fr": "position 3", "es": "posición 3", "uk": "позиція 3"}
    out = s.handle(words[lang])
    assert out[0].key == "position_is"
    assert catalogue.value(Item.SCROLL) in said(out, lang)[0]
    assert s.step == 0
    assert s.handle("position 9")[0].key == "error.bad_position"
