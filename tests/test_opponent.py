"""The computer opponent: legal moves only, from what its seat may know only."""

from __future__ import annotations

import random

import pytest

from companion.games.hanamikoji import opponent
from companion.games.hanamikoji.opponent import Observation, decide, determinise, observe, play_game
from companion.games.hanamikoji.rules import Phase, RuleSet, apply, legal_actions, new_game
from companion.games.hanamikoji.simulate import random_deal, random_game


@pytest.mark.parametrize("rules", list(RuleSet))
@pytest.mark.parametrize("levels", [("easy", "normal"), ("normal", "random"), ("strong", "easy")])
def test_every_level_plays_only_legal_actions_to_the_end(rules, levels):
    for seed in range(4 if "strong" not in levels else 2):
        # play_game applies each choice through the rules, which raise on an illegal one;
        # here each choice is also checked against the full state's legal actions. The
        # strong level's 20 playouts run every stage of its search (legality is under test,
        # not strength: 5.5 s of CPU at 60).
        chance, rngs = random.Random(seed), (random.Random(seed), random.Random(seed + 1))
        state = new_game(rules, full_information=True)
        while not state.over:
            if state.phase is Phase.DEAL:
                state, _ = apply(state, random_deal(chance))
                continue
            seat = state.to_move
            action = decide(observe(state, seat), levels[seat], rngs[seat], iterations=20)
            assert action in set(legal_actions(state))
            state, _ = apply(state, action)


def test_a_decision_refuses_the_full_state():
    state = random_game(3)[5][0]
    with pytest.raises(TypeError):
        decide(state, "strong", random.Random(0))  # type: ignore[arg-type]


def test_the_observation_holds_no_hidden_card():
    """Whatever the other hand, the other's Secret and Discard, the removed card and the
    pile hold, a seat's observation is the same: nothing hidden can reach a decision."""
    for seed in range(20):
        for state, _ in random_game(seed):
            if state.phase is Phase.DEAL or state.over:
                continue
            seat = state.to_move
            seen = observe(state, seat)
            for k in range(3):
                other = determinise(seen, random.Random(k))  # hidden cards dealt anew
                assert observe(other, seat) == seen


def test_the_strong_choice_does_not_depend_on_the_hidden_cards():
    for seed in (1, 2):
        steps = [s for s, _ in random_game(seed) if s.phase is Phase.ACTION]
        state = steps[3]
        seat = state.to_move
        choices = {decide(observe(determinise(observe(state, seat), random.Random(k)), seat),
                          "strong", random.Random(7), iterations=80) for k in range(4)}
        assert len(choices) == 1


def test_observation_fields_are_what_a_seat_may_know():
    hidden = {"removed", "players", "full_information"}  # the pile is only a count there
    assert not hidden & set(Observation.__dataclass_fields__)


def test_games_between_levels_are_reproducible_from_the_seed():
    a = play_game(("strong", "normal"), 5, iterations=40)
    b = play_game(("strong", "normal"), 5, iterations=40)
    assert a.winners == b.winners and len(a.timings) == len(b.timings)
    assert opponent.LEVELS == ("easy", "normal", "strong")
