"""Momiji's legal_actions: sound (each offered action is accepted), each once with a text
that parses back, complete within its documented bound, and empty once the game is over;
the seeded simulator built on it, and its table lines replayed with hands unseen."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.errors import IllegalAction
from companion.games.momiji.actions import (
    Action,
    Activate,
    Bonus,
    Collect,
    Colours,
    Draw,
    Empty,
    End,
    Gain,
    Garden,
    Landscape,
    Objectives,
    PileSize,
    Place,
    Play,
    Reveal,
    Trade,
    parse_action,
)
from companion.games.momiji.data import LEAVES, Leaf, Objective, tokens_for
from companion.games.momiji.rules import (
    TOLD_MAX,
    WILD_MAX,
    Phase,
    State,
    apply,
    legal_actions,
    new_game,
    replay,
    reveal_size,
)
from companion.games.momiji.simulate import Stuck, random_steps, table_script

PROPS = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
SEEDS = st.integers(0, 10**6)
PLAYERS = st.integers(2, 4)


def accepts(state: State, action: Action) -> bool:
    try:
        apply(state, action)
    except IllegalAction:
        return False
    return True


# -- reachable states ----------------------------------------------------------------------
def hidden_walk(seed: int, players: int, steps: int = 120) -> Iterator[State]:
    """States as the companion sees them (hands unseen): a seeded set-up, then random
    offered actions and random reveals, until the end, `steps`, or nothing is offered."""
    rng = random.Random(seed)
    state = new_game(players)
    if state.phase is Phase.COLOURS:
        yield state
        state, _ = apply(state, rng.choice(legal_actions(state)))
    allowed = [o for o in Objective if o.leaf is None or o.leaf in state.colours]
    leaves = [Leaf(c, v) for c in state.colours for v in range(4)]
    setup = (
        Objectives(tuple(rng.sample(allowed, tokens_for(players)))),
        Garden(tuple(rng.choices(leaves, k=4))),
        PileSize(rng.choice([None, rng.randint(1, 30)])),
    )
    for action in setup:
        yield state
        state, _ = apply(state, action)
    for _ in range(steps):
        yield state
        options = legal_actions(state)
        if reveal_size(state):
            options.append(Reveal(tuple(rng.choices(leaves, k=reveal_size(state)))))
        if not options:
            return
        state, _ = apply(state, rng.choice(options))


def known_walk(seed: int, players: int) -> Iterator[State]:
    """States of a simulated game with every hand known (full information)."""
    try:
        for state, _ in random_steps(seed, players):
            yield state
    except Stuck:
        return


def reachable(seed: int, players: int) -> Iterator[State]:
    yield from hidden_walk(seed, players)
    yield from known_walk(seed, players)


# -- the documented bound, stated again independently ---------------------------------------
def shaped(cards: tuple[Leaf, ...]) -> bool:
    colours = [c.colour for c in cards]
    one_type = len(set(colours)) == 1 and len(cards) <= 2
    return bool(cards) and (one_type or len(set(colours)) == len(cards))


def unseen(state: State, cards: tuple[Leaf, ...], known: Counter[Leaf] | None = None) -> int:
    """How many of `cards` are not among the mover's known cards (`known`: their count,
    worked out once per state by the caller that asks many times)."""
    if known is None:
        known = Counter(state.players[state.to_move].hand.known)
    return sum(max(0, n - known[card]) for card, n in Counter(cards).items())


def within_bound(state: State, action: Action, known: Counter[Leaf] | None = None) -> bool:
    if isinstance(action, (Objectives, Garden, PileSize, Reveal)):
        return False  # chance steps
    if isinstance(action, Empty):
        return state.pile is None
    if isinstance(action, Bonus):
        return action.connections < len(state.colours)
    if isinstance(action, Gain):
        return abs(action.acorns) <= TOLD_MAX
    if isinstance(action, Draw):
        return action.count <= TOLD_MAX
    if isinstance(action, (Play, Place)):
        return shaped(action.cards) and unseen(state, action.cards, known) <= WILD_MAX
    if isinstance(action, Trade):
        return action.cards is None or unseen(state, action.cards, known) == 0
    return True


def candidates(state: State, rng: random.Random) -> Iterator[Action]:
    """Many actions, accepted or not: every finite kind, and random cards and numbers."""
    yield from (Collect(c) for c in LEAVES)
    yield from (Activate(o) for o in Objective)
    yield from (Landscape(n) for n in (1, 2, 3))
    yield from (End(), Empty(), Trade())
    yield from (Bonus(n) for n in range(0, 7))
    yield from (Gain(n) for n in range(-5, 6) if n)
    yield from (Draw(n) for n in range(0, 6))
    yield Colours(tuple(rng.sample(LEAVES, rng.randint(3, 6))))
    me = state.players[state.to_move] if state.to_move >= 0 else None
    known = list(me.hand.known) if me else []
    fitting = [Leaf(c, v) for c in state.colours or LEAVES for v in range(4)]
    for _ in range(60):
        pool = known + fitting if known and rng.random() < 0.5 else fitting
        cards = tuple(rng.choices(pool, k=rng.randint(1, 4)))
        yield rng.choice([Play, Place])(cards)
        if len(pool) >= 2:
            yield Trade(tuple(rng.sample(pool, 2)))


# -- properties ------------------------------------------------------------------------------
@PROPS
@given(seed=SEEDS, players=PLAYERS)
def test_offered_actions_are_accepted_once_parse_back_and_complete_within_the_bound(
        seed: int, players: int) -> None:
    """Both directions on the same reachable states (walked and offered once for both):
    every offered action is accepted, once, with a text that parses back; every accepted
    candidate within the documented bound is offered."""
    rng = random.Random(seed)
    for state in reachable(seed, players):
        offered = legal_actions(state)
        texts = [a.text() for a in offered]
        assert texts == sorted(set(texts))  # each once, in canonical text order
        for action in offered:
            assert parse_action(action.text()) == action
            assert accepts(state, action), (action.text(), state)
        offered_set, told = set(offered), Counter(state.players[state.to_move].hand.known)
        for action in candidates(state, rng):
            if within_bound(state, action, told) and action not in offered_set:
                assert not accepts(state, action), (action.text(), state)


def test_unseen_cards_stand_for_fitting_leaves_up_to_the_cap() -> None:
    state = replay(new_game(2), [
        parse_action("colours green brown violet yellow"),
        parse_action("objectives cool acorns torii zero"),
        parse_action("garden green 0 brown 2 brown 3 yellow 1"),
        parse_action("pile unknown"),
    ])
    offered = {a.text() for a in legal_actions(state)}
    # Six unseen cards: any leaf that fits an empty pile (a 0), at most two of them.
    assert {"play green 0", "play green 0 green 1", "play brown 0 yellow 0"} <= offered
    assert "play green 1" not in offered  # accepted by no pile
    three = parse_action("play green 0 brown 0 violet 0")
    assert accepts(state, three) and three not in legal_actions(state)
    assert "trade" in offered and not any(t.startswith("trade ") for t in offered)
    assert "empty" in offered  # an uncounted pile


def test_set_up_offers_the_colour_choices_and_nothing_for_chance_steps() -> None:
    state = new_game(3)
    assert [len(a.colours) for a in legal_actions(state)] == [5] * 6
    state, _ = apply(state, legal_actions(state)[0])
    assert state.phase is Phase.OBJECTIVES and legal_actions(state) == []


# -- the game end and the simulator -----------------------------------------------------------
def finished(seeds: range, players: int) -> Iterator[list[tuple[State, Action]]]:
    for seed in seeds:
        try:
            yield list(random_steps(seed, players))
        except Stuck:
            continue


@pytest.mark.parametrize("players", [2, 3, 4])
def test_nothing_is_offered_over_the_game_end(players: int) -> None:
    games = list(finished(range(12), players))
    assert games
    for steps in games:
        before, last = steps[-1]
        over, _ = apply(before, last)
        assert over.over and legal_actions(over) == []
        assert isinstance(last, End)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_table_lines_are_accepted_with_hands_unseen(players: int) -> None:
    """What the simulated table says, the companion (which saw no deal) accepts."""
    for seed in range(8):
        try:
            lines = table_script(seed, players)
        except Stuck:
            continue
        state = replay(new_game(players), map(parse_action, lines))
        assert state.over and legal_actions(state) == []


@pytest.mark.parametrize("players", [2, 3, 4])
def test_thirty_seeded_games_end(players: int) -> None:
    for seed in range(30):
        steps = list(random_steps(seed, players))
        assert steps[-1][1] == End()
