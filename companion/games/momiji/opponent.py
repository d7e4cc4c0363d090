"""Computer players for Momiji, and the benchmark players they are measured against.

Hidden-information discipline (as Hanamikoji's opponent): a decision receives an
`Observation`, what one seat may know (its own hand, the public table, every other
hand's size, the pile's size, the discarded cards seen), built from the full state by
`observe` alone; `decide` refuses a State. What it has not seen it samples
(`determinise`: the unseen cards dealt at random into the other hands, the pile and the
unnamed discards), so two states that differ only in hidden cards give the same choice
with the same seed.

A turn is one main action (collect, reveal then collect, play, activate), an optional
trade, and the end with the cards above the limit named. Levels:
- `random` (benchmark only): a uniformly random legal action at every step.
- `greedy` (benchmark only): the legal action that gives the most points at once (the
  score as if the game ended now), ties at random; at the end of a turn, random discards.
- `easy`: `greedy`'s main action, but `normal`'s trades and discards.
- `normal`: every main action valued one turn ahead by `evaluate` (points now, plus what
  the hand may still add to the piles, discounted by the turns left; objectives as they
  stand; minus the best other player's points and what the garden leaves the next one);
  a reveal valued over a few sampled reveals; trades and discards keep the useful cards.
- `strong`: determinised Monte Carlo over the best `normal` candidates: each candidate is
  played on the same samples of the hidden cards, then every player plays to the end with
  the greedy policy (on a fast copy of the state, playout.py), scored by the margin over
  the best other player and a bonus for a win; successive halving keeps the better half
  after each stage. The budget is a number of playouts, so a
  seed always gives the same choice.
"""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, replace

from companion.games.momiji.actions import (
    Action,
    Activate,
    Collect,
    Colours,
    Deal,
    End,
    Objectives,
    Play,
    Reveal,
    Trade,
)
from companion.games.momiji.data import (
    GARDEN_START,
    HAND_LIMIT,
    HAND_SIZE,
    MAX_VALUE,
    OBJECTIVE_COST,
    OTHER_POINTS,
    OWNER_POINTS,
    TYPES_IN_PLAY,
    Leaf,
    Objective,
    sort_leaves,
    tokens_for,
)
from companion.games.momiji.playout import Playout
from companion.games.momiji.rules import (
    Hand,
    Phase,
    Player,
    State,
    Turn,
    apply,
    final_scores,
    legal_actions,
    measure,
    new_game,
    play_shapes,
)
from companion.games.momiji.simulate import deck
from stickers.colours import Colour

LEVELS = ("easy", "normal", "strong")
STRONG_PLAYOUTS = 100  # tuned in benchmarks/momiji_opponent_bench.py (docs/momiji.md)
STRONG_CANDIDATES = 6
REVEAL_SAMPLES = 6  # sampled reveals `normal` values a reveal over
WIN_BONUS = 20.0  # a playout's worth: the margin in points, and this much for a win


@dataclass(frozen=True)
class Seat:
    """What everyone sees of a player."""

    acorns: int
    hand: int  # the number of cards in hand
    piles: tuple[tuple[int, ...], ...]
    torii: int
    objectives: tuple[Objective, ...]


@dataclass(frozen=True)
class Observation:
    """What seat `seat` may know of the game now; nothing else reaches a decision."""

    seat: int
    phase: Phase
    to_move: int
    colours: tuple[Colour, ...]
    available: tuple[Objective, ...]
    garden: tuple[tuple[int, ...], ...]
    pile: int
    torii: int
    discard: int  # cards in the discard
    discards: tuple[Leaf, ...]  # those of them seen (reveal overflow, named discards)
    turn: Turn
    turns_left: int | None
    ending: str | None
    seats: tuple[Seat, ...]
    hand: tuple[Leaf, ...]  # own cards, sorted


def observe(state: State, seat: int) -> Observation:
    """The only way from a full state to what `seat` may know."""
    if state.deck is None or state.pile is None:
        raise ValueError("a computer player needs a game the companion dealt")
    mine = state.players[seat].hand
    if mine.unknown:
        raise ValueError("the seat's own cards are not all known")
    return Observation(
        seat=seat, phase=state.phase, to_move=state.to_move, colours=state.colours,
        available=state.available, garden=state.garden, pile=state.pile, torii=state.torii,
        discard=state.discard, discards=sort_leaves(state.discards), turn=state.turn,
        turns_left=state.turns_left, ending=state.ending,
        seats=tuple(Seat(p.acorns, p.hand.size, p.piles, p.torii, p.objectives)
                    for p in state.players),
        hand=mine.known,
    )


def unseen_cards(obs: Observation) -> list[Leaf]:
    """The cards of the deck `obs.seat` has not seen, wherever they are (sorted)."""
    left = Counter(deck(obs.colours))
    left.subtract(obs.hand)
    left.subtract(obs.discards)
    for seat in obs.seats:
        for colour, pile in zip_colours(seat.piles):
            left.subtract(Leaf(colour, v) for v in pile)
    for colour, column in zip_colours(obs.garden):
        left.subtract(Leaf(colour, v) for v in column)
    if any(n < 0 for n in left.values()):
        raise ValueError("observation inconsistent with the practice deck")
    return sort_leaves(list(left.elements()))  # type: ignore[return-value]


def zip_colours(per_leaf: tuple[tuple[int, ...], ...]) -> list[tuple[Colour, tuple[int, ...]]]:
    from companion.games.momiji.data import LEAVES

    return [(c, values) for c, values in zip(LEAVES, per_leaf, strict=True) if values]


def determinise(obs: Observation, rng: random.Random) -> State:
    """A full state consistent with `obs`: the unseen cards dealt at random into the other
    hands, the pile (in a random order) and the discards nobody named."""
    cards = list(unseen_cards(obs))
    rng.shuffle(cards)
    hidden = sum(s.hand for i, s in enumerate(obs.seats) if i != obs.seat)
    unnamed = obs.discard - len(obs.discards)
    if hidden + obs.pile + unnamed != len(cards):
        raise ValueError(f"observation inconsistent: {hidden + obs.pile + unnamed} hidden "
                         f"places, {len(cards)} cards")
    take = iter(cards)
    players = []
    for i, s in enumerate(obs.seats):
        hand = obs.hand if i == obs.seat else sort_leaves([next(take) for _ in range(s.hand)])
        players.append(Player(acorns=s.acorns, hand=Hand(0, hand), piles=s.piles,
                              torii=s.torii, objectives=s.objectives))
    pile = tuple(next(take) for _ in range(obs.pile))
    return State(
        players=tuple(players), phase=obs.phase, to_move=obs.to_move, colours=obs.colours,
        available=obs.available, garden=obs.garden, pile=obs.pile, torii=obs.torii,
        discard=obs.discard, turn=obs.turn, turns_left=obs.turns_left, ending=obs.ending,
        deck=pile, discards=obs.discards,
    )


def legal(obs: Observation) -> list[Action]:
    """The seat's legal actions (they depend on its own cards and the table only)."""
    return legal_actions(determinise(obs, random.Random(0)))


# -- the value of a position -----------------------------------------------------------------
def _turns_ahead(state: State) -> float:
    """About how many more turns each player will have: the end comes when the pile or the
    torii run out (a reveal takes 4 cards; a closed pile a torii)."""
    if state.turns_left is not None:
        return state.turns_left / state.count
    by_pile = (state.pile or 0) / (2.0 * state.count) + 1
    by_torii = 2.0 * state.torii / state.count + 1
    return min(by_pile, by_torii)


def _chain(top: int | None, values: Counter[int]) -> tuple[int, int]:
    """Cards a pile could still take from `values` (in order) and the top it would end on:
    a pile starts at 0, each card equals the top or is one higher, and a 3 closes it."""
    if top == MAX_VALUE:
        return 0, top
    n = 0
    v = 0 if top is None else top
    if top is None and not values[0]:
        return 0, -1
    while v <= MAX_VALUE:
        have = values[v]
        if v == MAX_VALUE:
            have = min(have, 1)
        if have == 0 and (v != top):
            break
        n += have
        top = v
        if v == MAX_VALUE and have:
            break
        v += 1
    return n, -1 if top is None else top


def hand_gain(state: State, player: Player) -> int:
    """Points the player's known cards could still add to their piles, played in order."""
    by_colour: dict[Colour, Counter[int]] = {c: Counter() for c in state.colours}
    for card in player.hand.known:
        by_colour[card.colour][card.value] += 1
    gain = 0
    for colour in state.colours:
        pile = player.pile(colour)
        n, top = _chain(pile[-1] if pile else None, by_colour[colour])
        if n:
            gain += (len(pile) + n) * top - (len(pile) * pile[-1] if pile else 0)
    return gain


def _hand_value(state: State, player: Player, turns: float) -> float:
    """Points the hand may still add to the piles, discounted by the turns left."""
    # roughly 2.5 cards reach the piles a turn; beyond that the hand's hopes are worth less
    reach = min(1.0, 0.15 + 0.3 * turns)
    return hand_gain(state, player) * reach


def _objective_points(state: State, seat: int) -> float:
    total = 0.0
    for objective, owner in state.activated():
        values = [measure(objective, state, i) for i in range(state.count)]
        mine = values[seat]
        best = min(values) if objective is Objective.PLACED else max(values)
        if mine == best and (objective is Objective.PLACED or best > 0):
            points = OWNER_POINTS if owner == seat else OTHER_POINTS
            shared = values.count(best)
            total += points * (1.0 if shared == 1 else 0.8)
    return total


def evaluate(state: State, seat: int) -> float:
    """The seat's expected final points (its hand seen by itself only) minus the best other
    player's points as the table sees them."""
    if state.over and state.scores is not None:
        totals = state.scores.totals
        others = max(t for i, t in enumerate(totals) if i != seat)
        won = 50.0 if seat in state.scores.winners else 0.0
        return totals[seat] - others + won
    turns = _turns_ahead(state)
    me = state.players[seat]
    mine = me.pile_points() + me.acorns + _objective_points(state, seat)
    mine += _hand_value(state, me, turns) + 0.05 * me.hand.size
    best = -math.inf
    for i, p in enumerate(state.players):
        if i == seat:
            continue
        theirs = p.pile_points() + p.acorns + _objective_points(state, i)
        theirs += min(p.hand.size, 8) * 0.6 * min(1.0, 0.15 + 0.3 * turns)
        best = max(best, theirs)
    return mine - best


# -- the players ----------------------------------------------------------------------------
def _points(state: State, seat: int) -> int:
    return final_scores(state).totals[seat]


def _mains(state: State) -> list[Action]:
    """The main actions open now (a reveal as Reveal(())), and the collects after one."""
    me = state.players[state.to_move]
    if state.turn.main == "reveal":
        return [Collect(c) for c in state.colours if state.column(c)]
    out: list[Action] = [Collect(c) for c in state.colours if state.column(c)]
    out += [Play(cards) for cards in play_shapes(state, me)]
    if me.acorns >= OBJECTIVE_COST:
        out += [Activate(o) for o in state.available]
    if me.acorns >= 1 and state.pile:
        out.append(Reveal(()))
    return sorted(set(out), key=lambda a: a.text())


def _worst_cards(state: State, seat: int, k: int) -> tuple[Leaf, ...]:
    """The `k` cards whose loss costs the hand's value least, one at a time."""
    player = state.players[seat]
    hand = list(player.hand.known)
    turns = _turns_ahead(state)
    out: list[Leaf] = []
    for _ in range(k):
        best_card, best_value = hand[0], -math.inf
        for card in sorted(set(hand), key=lambda c: c.key):
            rest = list(hand)
            rest.remove(card)
            left = replace(player, hand=Hand(0, tuple(rest)))
            value = _hand_value(state, left, turns)
            if value > best_value + 1e-9:
                best_card, best_value = card, value
        hand.remove(best_card)
        out.append(best_card)
    return sort_leaves(out)


def _finish(state: State, rng: random.Random, careful: bool) -> Action:
    """After the main action: a trade when it pays, then the end (discards named)."""
    seat = state.to_move
    me = state.players[seat]
    excess = me.hand.size - HAND_LIMIT
    if not careful:
        actions = [a for a in legal_actions(state) if isinstance(a, End)]
        return rng.choice(actions)
    if state.turn.optional is None and me.hand.size >= 2:
        worst = _worst_cards(state, seat, 2)
        kept = replace(me, hand=me.hand.remove(worst, 2))
        cost = _hand_value(state, me, _turns_ahead(state)) - _hand_value(
            state, kept, _turns_ahead(state))
        if excess >= 2 or cost < (0.6 if excess == 1 else 0.3):
            return Trade(worst)
    return End(discard=_worst_cards(state, seat, excess) if excess > 0 else ())


def _after(state: State, action: Action, rng: random.Random) -> State:
    """The state after `action`, a reveal followed by the best collect for the mover."""
    after, _ = apply(state, action)
    if isinstance(action, Reveal):
        seat = state.to_move
        options = [apply(after, a)[0] for a in _mains(after)]
        if not options:
            return after
        return max(options, key=lambda s: evaluate(s, seat))
    return after


def _value_of(state: State, action: Action, seat: int, rng: random.Random,
              samples: Sequence[State] | None = None) -> float:
    """`normal`'s value of a main action: the position after it (a reveal over samples of
    the pile), less what the garden then offers the next player."""
    if isinstance(action, Reveal):
        pool = samples or [state]
        return sum(_leave(_after(s, action, rng), seat) for s in pool) / len(pool)
    return _leave(_after(state, action, rng), seat)


def _leave(state: State, seat: int) -> float:
    """Value after our main action: the next player may take the best column."""
    value = evaluate(state, seat)
    columns = [len(c) for c in state.garden if c]
    if columns and state.count == 2:
        value -= 0.5 * max(columns)
    return value


def _greedy_main(state: State, rng: random.Random) -> Action:
    seat = state.to_move
    actions = [a for a in _mains(state) if not isinstance(a, Reveal)] or _mains(state)
    scored = []
    for action in actions:
        after, _ = apply(state, action)
        scored.append((_points(after, seat), action))
    best = max(p for p, _ in scored)
    return rng.choice([a for p, a in scored if p == best])


def _normal_main(obs: Observation | None, state: State, rng: random.Random) -> Action:
    seat = state.to_move
    actions = _mains(state)
    samples: list[State] | None = None
    if obs is not None and any(isinstance(a, Reveal) for a in actions):
        samples = [determinise(obs, rng) for _ in range(REVEAL_SAMPLES)]
    return max(actions, key=lambda a: _value_of(state, a, seat, rng, samples))


def _stuck(state: State) -> Action:
    """No main action open: trade two cards for the acorn a reveal needs, if it may."""
    me = state.players[state.to_move]
    if state.turn.optional is None and me.hand.size >= 2 and state.pile:
        return Trade(_worst_cards(state, state.to_move, 2))
    return End()


def strong_choice(obs: Observation, state: State, rng: random.Random,
                  playouts: int = STRONG_PLAYOUTS) -> Action:
    """Determinised Monte Carlo on the best `normal` candidates, by successive halving on
    common samples (the same hidden cards and playout seeds for every candidate)."""
    seat = obs.seat
    actions = _mains(state)
    if len(actions) == 1:
        return actions[0]
    samples = [determinise(obs, rng) for _ in range(REVEAL_SAMPLES)]
    ranked = sorted(actions, key=lambda a: -_value_of(state, a, seat, rng, samples))
    alive = list(range(min(STRONG_CANDIDATES, len(ranked))))
    totals = [0.0] * len(alive)
    stages = max(1, math.ceil(math.log2(len(alive))))
    per_stage = playouts // stages
    while len(alive) > 1:
        for _ in range(max(1, per_stage // len(alive))):
            sample = determinise(obs, rng)
            seed = rng.getrandbits(32)
            for k in alive:
                totals[k] += playout(sample, ranked[k], seat, random.Random(seed))
        alive.sort(key=lambda k: (-totals[k], k))  # ties: the `normal` order
        alive = alive[:math.ceil(len(alive) / 2)]
    return ranked[alive[0]]


def playout(state: State, action: Action, seat: int, rng: random.Random) -> float:
    """`action` on a sample, then every player to the end with the greedy policy (on the
    fast copy, playout.py); the seat's margin over the best other player, and a bonus
    for a win."""
    state, _ = apply(state, action)
    if state.over:
        return evaluate(state, seat)
    game = Playout(state)
    if state.turn.main == "reveal":  # then the biggest column
        columns = [t for t in game.types if game.garden[t]]
        if columns:
            most = max(len(game.garden[t]) for t in columns)
            game.collect(seat, rng.choice([t for t in columns if len(game.garden[t]) == most]))
    game.run(rng, main_done=state.turn.main is not None)
    totals = game.totals()
    others = max(t for i, t in enumerate(totals) if i != seat)
    won = game.winners(totals) == [seat]
    return totals[seat] - others + (WIN_BONUS if won else 0.0)


def decide(obs: Observation, level: str, rng: random.Random,
           playouts: int = STRONG_PLAYOUTS) -> Action:
    """The action `level` plays from what `obs.seat` may know (TypeError for a State)."""
    if not isinstance(obs, Observation):
        raise TypeError("a computer player decides from an Observation, never from a state")
    if obs.phase is not Phase.TURN or obs.to_move != obs.seat:
        raise ValueError("no decision to make now")
    # The seat's own legal moves and their effects need only its hand and the table; a
    # sample fills the rest (never looked at by the values, which use public facts).
    state = determinise(obs, random.Random(0))
    if level == "random":
        return rng.choice(legal_actions(state))
    main_open = state.turn.main in (None, "reveal")
    if main_open and not _mains(state):
        return _stuck(state)
    if not main_open:
        return _finish(state, rng, careful=level != "greedy")
    if level in ("greedy", "easy"):
        return _greedy_main(state, rng)
    if level == "normal":
        return _normal_main(obs, state, rng)
    if level == "strong":
        return strong_choice(obs, state, rng, playouts)
    raise ValueError(f"unknown level {level!r}")


# -- whole games, for tests and benchmarks ---------------------------------------------------
def deal(players: int, rng: random.Random) -> tuple[Colours | None, Objectives, Deal]:
    """The chance steps of a practice game's set-up: the leaf types (at 2 and 3 players),
    the objective tokens, the deal."""
    from companion.games.momiji.data import LEAVES

    wanted = TYPES_IN_PLAY[players]
    colours = tuple(sorted(rng.sample(LEAVES, wanted), key=LEAVES.index))
    allowed = [o for o in Objective if o.leaf is None or o.leaf in colours]
    objectives = tuple(rng.sample(allowed, tokens_for(players)))
    cards = deck(colours)
    rng.shuffle(cards)
    hands = tuple(tuple(cards[i * HAND_SIZE:(i + 1) * HAND_SIZE]) for i in range(players))
    rest = tuple(cards[players * HAND_SIZE:])
    assert len(rest) > GARDEN_START
    choice = Colours(colours) if wanted < len(LEAVES) else None
    return choice, Objectives(objectives), Deal(hands, rest)


@dataclass(frozen=True)
class GameResult:
    winners: tuple[int, ...]
    totals: tuple[int, ...]
    # (level, seconds, whether a main action was chosen) of each decision
    timings: tuple[tuple[str, float, bool], ...]
    stalled: bool = False  # nobody could go on: scored as it stood


def play_game(levels: Sequence[str], seed: int, playouts: int = STRONG_PLAYOUTS) -> GameResult:
    """A whole seeded game between `levels` (seat 0 starts); each decision sees only its
    seat's observation."""
    import time

    chance = random.Random(f"{seed}:deal")
    rngs = [random.Random(f"{seed}:{i}") for i in range(len(levels))]
    state = new_game(len(levels))
    for step in deal(len(levels), chance):
        if step is not None:
            state, _ = apply(state, step)
    timings: list[tuple[str, float, bool]] = []
    idle = 0  # turns in a row that only ended: no acorn, no card, an empty garden
    while not state.over and idle < 2 * state.count:
        seat = state.to_move
        start = time.perf_counter()
        action = decide(observe(state, seat), levels[seat], rngs[seat], playouts)
        timings.append((levels[seat], time.perf_counter() - start,
                        state.turn.main in (None, "reveal")))
        idle = idle + 1 if action == End() and state.turn.main is None else 0
        state, _ = apply(state, action)
    # A game nobody can go on with (the seed has no rule for it) is scored as it stands.
    scores = state.scores or final_scores(state)
    return GameResult(scores.winners, scores.totals, tuple(timings), state.scores is None)


__all__ = ["LEVELS", "Observation", "decide", "determinise", "observe", "play_game"]
