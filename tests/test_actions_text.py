"""Canonical text forms: every action and command parses back to an equal value."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.errors import InvalidCommand
from companion.games.hanamikoji.actions import (
    Competition,
    Deal,
    Discard,
    Gift,
    Reveal,
    Secret,
    TakeGift,
    TakePair,
    parse_action,
)
from companion.games.hanamikoji.data import Item, Token, full_deck
from companion.games.hanamikoji.interpret import Choose, parse_command
from companion.shared_commands import Adjust, Ask, Cancel, Query, Reply, Setting, Undo

items = st.sampled_from(list(Item))
pairs = st.tuples(items, items)
actions = st.one_of(
    st.builds(Secret, st.none() | items),
    st.builds(Discard, st.none() | pairs),
    st.builds(Gift, st.tuples(items, items, items)),
    st.builds(Competition, st.tuples(pairs, pairs)),
    st.builds(TakeGift, items),
    st.builds(TakePair, st.sampled_from([0, 1])),
    st.builds(Reveal, items),
    st.permutations(full_deck()).map(
        lambda p: Deal(p[0], (tuple(p[1:7]), tuple(p[7:13])), tuple(p[13:]))
    ),
)
chooses = st.builds(
    lambda token, cards, n: Choose(token, tuple(cards[: min(n, token.cards - 1)])),
    st.sampled_from([Token.GIFT, Token.COMPETITION]),
    st.lists(items, max_size=3),
    st.integers(0, 3),
)
metas = st.one_of(
    st.builds(Ask, st.sampled_from(list(Query))),
    st.builds(Adjust, st.sampled_from(list(Setting))),
    st.sampled_from([Undo(), Cancel(), Reply(True), Reply(False)]),
)


@given(actions)
@settings(max_examples=300)
def test_action_text_round_trip(action) -> None:
    text = action.text()
    assert parse_action(text) == action
    assert parse_command(text) == action
    assert text == text.strip() and text == text.lower()


@given(st.one_of(actions, chooses, metas))
@settings(max_examples=300)
def test_command_text_round_trip(command) -> None:
    assert parse_command(command.text()) == command


@given(st.permutations([Item.TEA, Item.FAN, Item.FLOWER]))
def test_gift_order_does_not_matter(cards) -> None:
    gift = Gift(tuple(cards))
    assert gift == Gift((Item.FAN, Item.TEA, Item.FLOWER))
    assert gift.text() == "gift fan tea flower"  # table order: fan 2, tea 6, flower 7


def test_competition_pairs_sorted_inside_but_keep_their_order() -> None:
    a = Competition(((Item.FLOWER, Item.FAN), (Item.TEA, Item.FLUTE)))
    assert a.pairs == ((Item.FAN, Item.FLOWER), (Item.FLUTE, Item.TEA))
    assert a.text() == "competition fan flower / flute tea"
    # pair 1 and pair 2 are what the answer names, so swapping them is another action
    b = Competition(((Item.FLUTE, Item.TEA), (Item.FAN, Item.FLOWER)))
    assert a != b and a.text() != b.text()


def test_competition_parses_with_or_without_the_slash() -> None:
    expected = Competition(((Item.FAN, Item.FLOWER), (Item.FLUTE, Item.TEA)))
    assert parse_action("competition fan flower / flute tea") == expected
    assert parse_action("competition fan flower flute tea") == expected
    assert parse_action("competition flower fan/tea flute") == expected


def test_discard_is_sorted_and_hidden_forms() -> None:
    assert Discard((Item.TEA, Item.FAN)).cards == (Item.FAN, Item.TEA)
    assert Discard().text() == "discard" and Secret().text() == "secret"
    assert parse_action("secret") == Secret(None)
    assert parse_action("discard") == Discard(None)


def test_take_forms() -> None:
    assert TakePair(0).text() == "take 1" and TakePair(1).text() == "take 2"
    assert parse_action("take 2") == TakePair(1)
    assert parse_action("take fan") == TakeGift(Item.FAN)


@pytest.mark.parametrize(
    ("text", "key"),
    [
        ("gift fan tea", "card_count"),
        ("gift fan tea flower flute", "card_count"),
        ("secret fan tea", "card_count"),
        ("discard fan", "card_count"),
        ("competition fan tea flower", "card_count"),
        ("competition fan / tea flower flute", "card_count"),
        ("reveal", "card_count"),
        ("take", "card_count"),
        ("gift fan tea banana", "unknown_card"),
        ("take 3", "unknown_card"),
        ("dance", "unknown_action"),
        ("", "unknown_action"),
        ("deal flute / flute", "unknown_action"),
    ],
)
def test_parse_action_refusals(text: str, key: str) -> None:
    with pytest.raises(InvalidCommand) as info:
        parse_action(text)
    assert info.value.key == key


def test_deal_text_checks_sizes() -> None:
    deck = [c.word for c in full_deck()]
    good = f"deal {deck[0]} / {' '.join(deck[1:7])} / {' '.join(deck[7:13])} / " + " ".join(
        deck[13:]
    )
    assert parse_action(good).text() == good
    short = f"deal {deck[0]} / {' '.join(deck[1:6])} / {' '.join(deck[6:13])} / " + " ".join(
        deck[13:]
    )
    with pytest.raises(InvalidCommand) as info:
        parse_action(short)
    assert info.value.key == "card_count"


@pytest.mark.parametrize("index", [-1, 2, 5])
def test_take_pair_index_is_one_of_two(index: int) -> None:
    with pytest.raises(InvalidCommand):
        TakePair(index)


def test_choose_text_and_missing() -> None:
    choice = Choose(Token.COMPETITION, (Item.FAN, Item.TEA))
    assert choice.text() == "competition fan tea" and choice.missing == 2
    assert parse_command("gift") == Choose(Token.GIFT)
    assert parse_command("gift fan fan") == Choose(Token.GIFT, (Item.FAN, Item.FAN))
    assert parse_command("gift fan fan tea") == Gift((Item.FAN, Item.FAN, Item.TEA))
