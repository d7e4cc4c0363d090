"""Seeded random Momiji games: full information inside, table commands outside.

A simulated game shuffles a real deck, deals, and picks random legal actions
(rules.legal_actions) on a state whose hands are fully known, adding the chance steps the
rules leave to the table: the objective tokens, the garden, the pile count, reveals and
draws. What it writes out is what players at a table would say; the companion, which
never sees a dealt card, accepts the same lines (tests/test_momiji_legal.py replays them).
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from dataclasses import replace

from companion.errors import ConfirmFirst
from companion.games.momiji.actions import (
    Action,
    Collect,
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
)
from companion.games.momiji.data import (
    GARDEN_START,
    HAND_LIMIT,
    HAND_SIZE,
    MIN_PLAYERS,
    Leaf,
    Objective,
    sort_leaves,
    tokens_for,
)
from companion.games.momiji.rules import (
    Hand,
    Phase,
    State,
    apply,
    legal_actions,
    new_game,
    reveal_size,
)
from stickers.colours import Colour

# Cards of each value 0-3 per leaf type. The seed does not say: an assumption that gives
# a pile of 20-32 cards, as a box would.
COPIES = (3, 3, 2, 2)
MAX_STEPS = 20_000  # a random game that long is a rules bug (a turn that cannot end)
EFFECTS = (Gain, Draw, Place)  # a landscape's ability, told once after it is used


class Stuck(RuntimeError):
    """The rules offer the player nothing to do (not even `end`): a rules bug."""


def deck(colours: Sequence[Colour]) -> list[Leaf]:
    return [Leaf(c, v) for c in colours for v, n in enumerate(COPIES) for _ in range(n)]


def random_action(state: State, rng: random.Random) -> Action | None:
    """A random legal action (a kind of action first, then one of that kind), or None when
    the state waits for a chance step the rules do not enumerate (set-up draws, reveals)."""
    return _pick(legal_actions(state), rng)


def _pick(actions: Sequence[Action], rng: random.Random) -> Action | None:
    # Choosing the verb first keeps the many plays from crowding out collect and end.
    verbs = sorted({a.text().split()[0] for a in actions})
    if not verbs:
        return None
    verb = rng.choice(verbs)
    return rng.choice([a for a in actions if a.text().split()[0] == verb])


class _Table:
    """The physical side of a game: the shuffled pile and every hand's real cards."""

    def __init__(self, state: State, rng: random.Random) -> None:
        self.rng = rng
        self.pile = deck(state.colours)
        rng.shuffle(self.pile)
        self.hands = [[self.pile.pop() for _ in range(HAND_SIZE)] for _ in state.players]
        self.effect_told = False  # since the last landscape: the rules would take more

    def take(self, n: int) -> list[Leaf]:
        taken, self.pile = self.pile[:n], self.pile[n:]
        return taken

    def known(self, state: State) -> State:
        """The state with every hand's cards known (the rules only track their number)."""
        players = tuple(
            replace(p, hand=Hand(0, sort_leaves(self.hands[i])))
            for i, p in enumerate(state.players)
        )
        assert all(p.hand.size == len(h) for p, h in zip(state.players, self.hands, strict=True))
        return replace(state, players=players)

    def choose(self, state: State) -> Action:
        if not self.pile and state.pile is None:
            return Empty()  # an uncounted pile ran out: the table says so at once
        actions = [a for a in legal_actions(state) if self._possible(a)]
        if reveal_size(state) and self.pile:
            actions.append(Reveal(tuple(self.pile[: reveal_size(state)])))
        action = _pick(actions, self.rng)
        if action is None:
            raise Stuck(f"no legal action: {state}")
        return action

    def _possible(self, action: Action) -> bool:
        """Whether the real pile allows it: an empty pile is told above, draws need cards."""
        if isinstance(action, EFFECTS) and self.effect_told:
            return False
        if isinstance(action, Draw):
            return action.count <= len(self.pile)
        return not isinstance(action, Empty)

    def follow(self, state: State, action: Action) -> None:
        """Move the real cards as `action` does (`state` is the one it applied to)."""
        hand = self.hands[state.to_move]
        if isinstance(action, (Landscape, *EFFECTS)):
            self.effect_told = not isinstance(action, Landscape)
        if isinstance(action, Collect):
            hand.extend(Leaf(action.colour, v) for v in state.column(action.colour))
        elif isinstance(action, (Play, Place)) or (isinstance(action, Trade) and action.cards):
            for card in action.cards or ():
                hand.remove(card)
        elif isinstance(action, Trade):
            self._discard(hand, 2)
        elif isinstance(action, Reveal):
            self.take(len(action.cards))
        elif isinstance(action, Draw):
            hand.extend(self.take(action.count))
        elif isinstance(action, End):
            self._discard(hand, len(hand) - HAND_LIMIT)

    def _discard(self, hand: list[Leaf], n: int) -> None:
        for card in self.rng.sample(hand, max(0, n)):
            hand.remove(card)


def random_steps(seed: int, players: int = 3) -> Iterator[tuple[State, Action]]:
    """Each (state before, action) of a seeded game, hands known in each state."""
    rng = random.Random(seed)
    state = new_game(players)
    count = 0

    def step(action: Action) -> tuple[State, Action]:
        nonlocal state, count
        before, count = state, count + 1
        state, _ = apply(state, action)
        return before, action

    if state.phase is Phase.COLOURS:
        yield step(rng.choice(legal_actions(state)))
    allowed = [o for o in Objective if o.leaf is None or o.leaf in state.colours]
    yield step(Objectives(tuple(rng.sample(allowed, tokens_for(players)))))
    table = _Table(state, rng)
    yield step(Garden(tuple(table.take(GARDEN_START))))
    yield step(PileSize(len(table.pile) if rng.random() < 0.7 else None))
    idle = 0  # turns in a row that only ended: no one can act, the game cannot go on
    while not state.over:
        if count > MAX_STEPS:
            raise RuntimeError(f"seed {seed}: no end after {MAX_STEPS} steps")
        state = table.known(state)
        action = table.choose(state)
        idle = idle + 1 if isinstance(action, End) and state.turn.main is None else 0
        if idle > 2 * players:
            raise Stuck(f"seed {seed}: every player can only end the turn")
        table.follow(state, action)
        yield step(action)


def random_game(seed: int, players: int = 3) -> list[tuple[State, Action]]:
    return list(random_steps(seed, players))


def table_script(seed: int, players: int = 3) -> list[str]:
    """The canonical lines players would say for a seeded game (no deal: nobody says it).

    The companion at the table has not seen the hands: where it cannot know that no main
    action is left, the players' `end` is its confirmed form, `end anyway`."""
    table = new_game(players)
    lines = []
    for _, action in random_game(seed, players):
        try:
            table, _ = apply(table, action)
        except ConfirmFirst as question:
            action = question.command
            table, _ = apply(table, action)
        lines.append(action.text())
    return lines


class Simulation:
    """The game's Simulator hook (companion.games.protocol); one rule set, so no `rules`."""

    def table_script(
        self, seed: int, players: int | None = None, rules: str | None = None
    ) -> list[str]:
        return table_script(seed, players or MIN_PLAYERS)

    def random_action(self, state: State, rng: random.Random) -> Action | None:
        return random_action(state, rng)


