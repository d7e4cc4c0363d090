"""A fast, mutable copy of a full Momiji state, played to the end by the greedy policy.

The strong computer player (opponent.py) scores each candidate by many playouts; the
rules engine (frozen values, events, every check) is about twenty times slower than
this. Only playouts use it: every action a computer player takes goes through the rules.
It follows rules.py turn by turn: a main action (collect, reveal then collect, a play, an
objective), a trade of two cards for an acorn, the hand limit at the end of the turn, the
end when the pile or the torii run out, then one more turn each, and the final scoring.
"""

from __future__ import annotations

import random

from companion.games.momiji.data import (
    COLUMN_LIMIT,
    GARDEN_START,
    HAND_LIMIT,
    LANDSCAPES,
    LEAVES,
    MAX_VALUE,
    OBJECTIVE_COST,
    OTHER_POINTS,
    OWNER_POINTS,
    Objective,
)
from companion.games.momiji.rules import State

_COOL = tuple(LEAVES.index(c) for c in LEAVES[:3])
_WARM = tuple(LEAVES.index(c) for c in LEAVES[3:])
_OBJECTIVE_GUESS = -OBJECTIVE_COST + 0.5 * OWNER_POINTS  # an objective's worth at once
MAX_TURNS = 400  # a playout nobody can finish (no acorn, no card) is scored as it stands


class Playout:
    """One game in plain lists: per player the acorns, hand counts [type][value], piles as
    (length, top, zeros), torii; the garden's columns, the pile, the objectives."""

    def __init__(self, state: State) -> None:
        assert state.deck is not None, "a playout needs every card known"
        self.n = state.count
        self.types = [LEAVES.index(c) for c in state.colours]
        self.acorns = [p.acorns for p in state.players]
        self.hands = []
        for p in state.players:
            counts = [[0] * (MAX_VALUE + 1) for _ in LEAVES]
            for card in p.hand.known:
                counts[LEAVES.index(card.colour)][card.value] += 1
            self.hands.append(counts)
        self.size = [p.hand.size for p in state.players]
        self.piles = [[(len(pile), pile[-1] if pile else -1, pile.count(0)) for pile in p.piles]
                      for p in state.players]
        self.torii_of = [p.torii for p in state.players]
        self.unused = [LANDSCAPES - len(p.landscapes) for p in state.players]
        self.garden = [list(c) for c in state.garden]
        self.deck = [(LEAVES.index(c.colour), c.value) for c in state.deck]
        self.torii = state.torii
        self.available = list(state.available)
        self.activated = state.activated()
        self.turns_left = state.turns_left
        self.to_move = state.to_move

    # -- a turn -----------------------------------------------------------------------------
    def run(self, rng: random.Random, main_done: bool = False) -> None:
        """Play to the end: the current turn (its main action done when `main_done`), then
        every turn after it."""
        for _ in range(MAX_TURNS):
            if not main_done:
                self._main(rng)
            main_done = False
            self._finish(rng)
            if self.turns_left is not None:
                self.turns_left -= 1
                if self.turns_left <= 0:
                    return
            self.to_move = (self.to_move + 1) % self.n

    def _main(self, rng: random.Random) -> None:
        me = self.to_move
        best: list[tuple[str, object]] = []
        top = -1e9
        for t in self.types:
            if self.garden[t]:
                value = 0.01 * len(self.garden[t])
                top, best = _keep(top, best, value, ("collect", t))
        for value, cards in self._plays(me):
            top, best = _keep(top, best, value, ("play", cards))
        if self.acorns[me] >= OBJECTIVE_COST:
            for objective in self.available:
                top, best = _keep(top, best, _OBJECTIVE_GUESS, ("objective", objective))
        if best:
            kind, what = rng.choice(best)
            if kind == "collect":
                self.collect(me, what)  # type: ignore[arg-type]
            elif kind == "play":
                self._play(me, what)  # type: ignore[arg-type]
            else:
                self.acorns[me] -= OBJECTIVE_COST
                self.available.remove(what)  # type: ignore[arg-type]
                self.activated.append((what, me))  # type: ignore[arg-type]
            return
        if self.acorns[me] >= 1 and self.deck:
            self.acorns[me] -= 1
            self._reveal()
            columns = [t for t in self.types if self.garden[t]]
            if columns:
                most = max(len(self.garden[t]) for t in columns)
                self.collect(me, rng.choice([t for t in columns
                                              if len(self.garden[t]) == most]))
        elif self.size[me] >= 2 and self.deck:
            self._trade(me, rng)

    def _plays(self, me: int) -> list[tuple[int, tuple[tuple[int, int], ...]]]:
        """Each single card and pair of one type that fits, and one play of several types
        (the best single card of each), with the points each adds."""
        hand = self.hands[me]
        out: list[tuple[int, tuple[tuple[int, int], ...]]] = []
        several = []
        for t in self.types:
            length, top, _ = self.piles[me][t]
            points = length * top if length else 0
            fits = (0,) if not length else () if top == MAX_VALUE else (top, top + 1)
            single = None
            for v in fits:
                if not hand[t][v]:
                    continue
                gain = (length + 1) * v - points
                out.append((gain, ((t, v),)))
                if single is None or gain > single[0]:
                    single = (gain, (t, v))
                if v == MAX_VALUE:
                    continue
                for w in (v, v + 1):
                    if w <= MAX_VALUE and hand[t][w] > (w == v):
                        out.append(((length + 2) * w - points, ((t, v), (t, w))))
            if single is not None:
                several.append(single)
        if len(several) >= 2:
            out.append((sum(g for g, _ in several), tuple(c for _, c in several)))
        return out

    def collect(self, me: int, t: int) -> None:
        for v in self.garden[t]:
            self.hands[me][t][v] += 1
        self.size[me] += len(self.garden[t])
        self.garden[t] = []

    def _reveal(self) -> None:
        taken, self.deck = self.deck[:GARDEN_START], self.deck[GARDEN_START:]
        for t, v in taken:
            if len(self.garden[t]) < COLUMN_LIMIT:
                self.garden[t].append(v)
        if not self.deck:
            self._trigger()

    def _play(self, me: int, cards: tuple[tuple[int, int], ...]) -> None:
        for t, v in cards:
            self.hands[me][t][v] -= 1
            self.size[me] -= 1
            length, _, zeros = self.piles[me][t]
            self.piles[me][t] = (length + 1, v, zeros + (v == 0))
            if v == MAX_VALUE and self.torii:
                self.torii -= 1
                self.torii_of[me] += 1
                if not self.torii:
                    self._trigger()

    def _trigger(self) -> None:
        if self.turns_left is None:
            self.turns_left = self.n + 1

    def _cards(self, me: int) -> list[tuple[int, int]]:
        return [(t, v) for t in self.types for v in range(MAX_VALUE + 1)
                for _ in range(self.hands[me][t][v])]

    def _drop(self, me: int, k: int, rng: random.Random) -> None:
        for t, v in rng.sample(self._cards(me), k):
            self.hands[me][t][v] -= 1
        self.size[me] -= k

    def _trade(self, me: int, rng: random.Random) -> None:
        self._drop(me, 2, rng)
        self.acorns[me] += 1

    def _finish(self, rng: random.Random) -> None:
        me = self.to_move
        excess = self.size[me] - HAND_LIMIT
        if excess >= 2:
            self._trade(me, rng)
            excess -= 2
        if excess > 0:
            self._drop(me, excess, rng)

    # -- scoring ----------------------------------------------------------------------------
    def _measure(self, objective: Objective, i: int) -> int:
        piles = self.piles[i]
        if objective.leaf is not None:
            return piles[LEAVES.index(objective.leaf)][0]
        if objective is Objective.COOL:
            return sum(piles[t][0] for t in _COOL)
        if objective is Objective.WARM:
            return sum(piles[t][0] for t in _WARM)
        if objective is Objective.ACORNS:
            return self.acorns[i]
        if objective is Objective.TORII:
            return self.torii_of[i]
        if objective is Objective.ZERO:
            return sum(p[2] for p in piles)
        if objective is Objective.PLACED:
            return sum(p[0] for p in piles)
        if objective is Objective.HAND:
            return self.size[i]
        if objective is Objective.PILES:
            return sum(1 for p in piles if p[0]) + self.unused[i]
        if objective is Objective.SUM:
            return sum(p[1] for p in piles if p[0])
        return max(p[0] for p in piles)  # TALLEST

    def totals(self) -> list[int]:
        totals = [self.acorns[i] + sum(length * top for length, top, _ in self.piles[i]
                                       if length) for i in range(self.n)]
        for objective, owner in self.activated:
            values = [self._measure(objective, i) for i in range(self.n)]
            fewest = objective is Objective.PLACED
            best = min(values) if fewest else max(values)
            if not fewest and best <= 0:
                continue
            for i, v in enumerate(values):
                if v == best:
                    totals[i] += OWNER_POINTS if i == owner else OTHER_POINTS
        return totals

    def winners(self, totals: list[int]) -> list[int]:
        best = max(totals)
        leaders = [i for i, t in enumerate(totals) if t == best]
        most = max(self.size[i] for i in leaders)
        return [i for i in leaders if self.size[i] == most]


def _keep(top: float, best: list, value: float, option: object) -> tuple[float, list]:
    """The running best options (ties kept) after one more."""
    if value > top + 1e-9:
        return value, [option]
    if abs(value - top) <= 1e-9:
        best.append(option)
    return top, best
