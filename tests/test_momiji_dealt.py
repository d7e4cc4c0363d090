"""A Momiji game the companion deals (practice): the deck kept in order, reveal alone,
no landscapes nor harvest bonus, discards named; and `end discard` at a table."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from companion.errors import IllegalAction
from companion.games.momiji import opponent
from companion.games.momiji.actions import (
    Bonus,
    Collect,
    Deal,
    End,
    Landscape,
    Play,
    Reveal,
    Trade,
    parse_action,
)
from companion.games.momiji.data import HAND_LIMIT, Leaf
from companion.games.momiji.interpret import interpret
from companion.games.momiji.rules import Dealt, Hand, Phase, apply, legal_actions, new_game
from stickers.colours import Colour

G, B, V, R = Colour.GREEN, Colour.BROWN, Colour.VIOLET, Colour.RED


def dealt(players: int = 2, seed: int = 0):
    state = new_game(players)
    steps = [s for s in opponent.deal(players, random.Random(seed)) if s is not None]
    for step in steps:
        state, events = apply(state, step)
    return state, steps[-1], events


def test_the_deal_text_parses_back_and_sets_every_hand_and_the_pile():
    state, deal, events = dealt()
    assert parse_action(deal.text()) == deal
    assert isinstance(events[0], Dealt)
    assert state.phase is Phase.TURN and state.virtual
    assert all(p.hand.unknown == 0 and p.hand.size == 6 for p in state.players)
    assert state.deck == deal.deck[4:] and state.pile == len(state.deck)


def test_a_deal_belongs_to_the_set_up_only():
    state, deal, _ = dealt()
    with pytest.raises(IllegalAction):
        apply(state, deal)


def test_reveal_alone_turns_over_the_pile_top():
    state, _, _ = dealt()
    top = state.deck[:4]
    after, events = apply(state, Reveal(()))
    assert sorted(events[0].cards, key=lambda c: c.key) == sorted(top, key=lambda c: c.key)
    assert after.deck == state.deck[4:] and after.pile == state.pile - 4
    assert Reveal(()) in legal_actions(state)
    wrong = Reveal(tuple(c for c in state.deck[4:8]))
    if sorted(wrong.cards, key=lambda c: c.key) != sorted(top, key=lambda c: c.key):
        with pytest.raises(IllegalAction) as error:
            apply(state, wrong)
        assert error.value.key == "momiji.reveal_dealt"


def test_no_landscape_no_bonus_no_unnamed_trade_in_a_dealt_game():
    state, _, _ = dealt()
    for action, key in ((Landscape(1), "momiji.practice_no_landscape"),
                        (Trade(), "momiji.practice_name_cards")):
        with pytest.raises(IllegalAction) as error:
            apply(state, action)
        assert error.value.key == key
    legal = legal_actions(state)
    assert not any(isinstance(a, Landscape) or a == Trade() for a in legal)
    played = replace(state, turn=replace(state.turn, main="play", several=True))
    with pytest.raises(IllegalAction) as error:
        apply(played, Bonus(1))
    assert error.value.key == "momiji.practice_no_bonus"


def test_the_cards_above_the_limit_are_named():
    state, _, _ = dealt()
    me = state.players[0]
    g, b = state.colours[:2]
    extra = (Leaf(g, 0), Leaf(g, 1), Leaf(b, 0))
    big = replace(me, hand=Hand(0, tuple(sorted((*me.hand.known, *extra), key=lambda c: c.key))))
    state = replace(state, players=(big, *state.players[1:]),
                    turn=replace(state.turn, main="collect"))
    with pytest.raises(IllegalAction) as error:
        apply(state, End())
    assert error.value.key == "momiji.name_discards" and error.value.params["n"] == 1
    with pytest.raises(IllegalAction):
        apply(state, End(discard=extra[:2]))
    after, _ = apply(state, End(discard=(Leaf(g, 1),)))
    assert after.players[0].hand.size == HAND_LIMIT and after.discards == (Leaf(g, 1),)
    assert after.players[0].hand.known.count(Leaf(g, 1)) == me.hand.known.count(Leaf(g, 1))
    ends = [a for a in legal_actions(state) if isinstance(a, End)]
    assert ends and all(len(a.discard) == 1 for a in ends)


def test_end_discard_at_a_table_keeps_the_rest_of_the_hand_known():
    state = new_game(2)
    state = replace(state, phase=Phase.TURN, to_move=0, colours=(G, B, V, R))
    me = replace(state.players[0], hand=Hand(4, (Leaf(G, 0),) * 5))
    state = replace(state, players=(me, state.players[1]), turn=replace(state.turn,
                                                                           main="collect"))
    after, _ = apply(state, End(discard=(Leaf(G, 0),)))
    assert after.players[0].hand == Hand(4, (Leaf(G, 0),) * 4)
    unnamed, _ = apply(state, End())
    assert unnamed.players[0].hand == Hand(8, ())


@pytest.mark.parametrize("line, lang", [
    ("end discard green 0 red 1", "en"), ("fin défausse vert 0 rouge 1", "fr"),
    ("fin vert 0 rouge 1", "fr"), ("9 5 1060", "en"), ("terminar descarta verde 0 rojo 1", "es"),
])
def test_end_with_discards_is_understood(line, lang):
    state = replace(new_game(2), phase=Phase.TURN, to_move=0)
    command = interpret(line, state, lang=lang)
    assert isinstance(command, End) and command.discard in (
        (Leaf(G, 0), Leaf(R, 1)), (Leaf(G, 0),), (Leaf(G, 0), Leaf(R, 0)))
    assert parse_action(command.text()) == command


@pytest.mark.parametrize("line", ["91", "9 green"])
def test_end_followed_by_a_slip_is_still_refused(line):
    state = replace(new_game(2), phase=Phase.TURN, to_move=0)
    with pytest.raises(Exception) as error:
        interpret(line, state)
    assert error.value.key == "momiji.end_alone"


def test_reveal_at_a_table_still_needs_its_cards():
    state = replace(new_game(2), phase=Phase.TURN, to_move=0, pile=10)
    with pytest.raises(IllegalAction) as error:
        apply(state, Reveal(()))
    assert error.value.key == "momiji.reveal_count"
    assert Collect(G).text() == "collect green" and Play((Leaf(G, 0),)).text() == "play green 0"
    assert Deal(((Leaf(G, 0),),), (Leaf(B, 1),)).text() == "deal green 0 / brown 1"
