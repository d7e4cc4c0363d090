"""Momiji's computer players: legal moves only, from what their seat may know only."""

from __future__ import annotations

import random
import typing

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.games.momiji import opponent
from companion.games.momiji.actions import End
from companion.games.momiji.opponent import (
    Observation,
    Seat,
    decide,
    determinise,
    observe,
    play_game,
)
from companion.games.momiji.playout import Playout
from companion.games.momiji.rules import Phase, State, apply, final_scores, legal_actions, new_game

LEVELS = ("random", "greedy", "easy", "normal", "strong")


def positions(seed: int, players: int, levels: tuple[str, ...] = ("random",)) -> list[State]:
    """Every state of a seeded practice game where a player is to decide."""
    chance = random.Random(seed)
    state = new_game(players)
    for step in opponent.deal(players, chance):
        if step is not None:
            state, _ = apply(state, step)
    out = []
    idle = 0
    while not state.over and idle < 2 * players:
        out.append(state)
        seat = state.to_move
        action = decide(observe(state, seat), levels[seat % len(levels)], chance, playouts=12)
        idle = idle + 1 if action == End() and state.turn.main is None else 0
        state, _ = apply(state, action)
    return out


@pytest.mark.parametrize("players", [2, 3, 4])
def test_every_level_plays_only_legal_actions_to_the_end(players):
    for seed in range(2):
        chance = random.Random(seed)
        state = new_game(players)
        for step in opponent.deal(players, chance):
            if step is not None:
                state, _ = apply(state, step)
        idle = 0
        while not state.over and idle < 2 * players:
            seat = state.to_move
            level = LEVELS[(seat + seed) % len(LEVELS)]
            action = decide(observe(state, seat), level, chance, playouts=12)
            legal = legal_actions(state)
            assert action in set(legal), (level, action)
            idle = idle + 1 if action == End() and state.turn.main is None else 0
            state, _ = apply(state, action)
        assert state.over or idle  # a game ends, or nobody can go on (no acorn, no card)


def test_a_decision_refuses_the_full_state():
    state = positions(3, 2)[5]
    with pytest.raises(TypeError):
        decide(state, "strong", random.Random(0))  # type: ignore[arg-type]


def test_the_observation_type_holds_no_other_hand():
    """By type: an observation holds the seat's own cards, and of every seat only what the
    table sees (a hand is a number); no State, Player or Hand reaches it."""
    hints = {**typing.get_type_hints(Observation), **typing.get_type_hints(Seat)}
    assert hints["hand"] in (tuple[opponent.Leaf, ...], int)
    assert typing.get_type_hints(Seat)["hand"] is int
    for hint in hints.values():
        assert all(name not in repr(hint) for name in ("State", "Player", "Hand"))
    assert not any("deck" in field for field in hints)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10_000), at=st.integers(0, 200), players=st.integers(2, 4),
       redeal=st.integers(0, 10_000), level=st.sampled_from(LEVELS))
def test_a_decision_is_the_same_whatever_the_hidden_cards(seed, at, players, redeal, level):
    """Two states that differ only in what the seat cannot see (the other hands, the pile's
    order, the unnamed discards) give the same observation, and each level the same
    decision with the same seed."""
    states = positions(seed, players)
    state = states[at % len(states)]
    seat = state.to_move
    seen = observe(state, seat)
    other = determinise(seen, random.Random(redeal))  # the hidden cards dealt anew
    assert observe(other, seat) == seen
    mine = [p.hand for i, p in enumerate(state.players) if i == seat]
    assert [p.hand for i, p in enumerate(other.players) if i == seat] == mine
    first = decide(observe(state, seat), level, random.Random(seed), playouts=16)
    again = decide(observe(other, seat), level, random.Random(seed), playouts=16)
    assert first == again


def test_the_fast_playout_scores_as_the_rules_do():
    """playout.py's totals are final_scores' for the same positions (objectives included)."""
    for seed in range(6):
        for state in positions(seed, 2 + seed % 3)[::7]:
            assert Playout(state).totals() == list(final_scores(state).totals)


def test_strong_beats_random_in_a_short_match():
    """A small sample only (the benchmark measures the rates): strong wins most games."""
    wins = sum(play_game(["strong", "random"] if s % 2 == 0 else ["random", "strong"], s,
                         playouts=30).winners == (s % 2,) for s in range(6))
    assert wins >= 5


def test_no_decision_outside_its_turn():
    state = positions(1, 2)[4]
    other = 1 - state.to_move
    with pytest.raises(ValueError):
        decide(observe(state, other), "normal", random.Random(0))
    assert state.phase is Phase.TURN
