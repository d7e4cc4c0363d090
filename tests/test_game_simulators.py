"""Every registered game's legal_actions and Simulator hook, through the Game protocol only:
a seeded table script replays to the game's end, random actions are legal ones."""

from __future__ import annotations

import random

import pytest

from companion.games.registry import game_names, load_game


def simulated() -> list[str]:
    return [name for name in game_names() if load_game(name).simulator() is not None]


def test_both_shipped_games_have_a_simulator() -> None:
    assert len(simulated()) >= 2


@pytest.mark.parametrize("name", simulated())
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_table_script_replays_to_the_end(name: str, seed: int) -> None:
    game = load_game(name)
    sim = game.simulator()
    assert sim is not None
    players = game.players[0]
    state = game.new_state({"players": [f"P{i}" for i in range(players)]})
    for line in sim.table_script(seed, players, game.rule_sets[0]):
        state, _ = game.apply(state, game.parse(line))
    assert game.is_over(state) and game.legal_actions(state) == []


@pytest.mark.parametrize("name", simulated())
def test_random_actions_are_offered_ones(name: str) -> None:
    game = load_game(name)
    sim = game.simulator()
    assert sim is not None
    rng = random.Random(7)
    state = game.new_state({"players": ["A", "B"], "full_information": True})
    steps = 0
    while steps < 40 and (action := sim.random_action(state, rng)) is not None:
        offered = game.legal_actions(state)
        assert isinstance(offered, list)
        assert action in offered or not offered  # a chance step (a deal) is not offered
        state, _ = game.apply(state, action)
        steps += 1
