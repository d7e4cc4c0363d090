"""A computer opponent for Hanamikoji, and the benchmark players it is measured against.

Hidden-information discipline: a decision function receives an `Observation` (what one
seat may know: its own hand, its own Secret and Discard, the public table, the other
hand's size, the tokens used, the offer) built from the full state by `observe` alone. It
never sees a `State`; `decide` refuses one. The strong level reasons about what it has
not seen by sampling the unseen cards consistently with its observation (determinisation:
the other hand, the other's Secret and Discard, the removed card, the pile's order) and
playing each sample out with a fast policy.

Levels:
- `random`: a uniformly random legal action (benchmark only).
- `easy`: answers offers with the card or pair best for itself, plays the rest at random.
- `normal` (the greedy heuristic player): every legal action is valued one ply ahead by
  `value` (each geisha's points times how far ahead the seat is on her, a card in hand
  counting for a little, the favour marker breaking ties), assuming the other answers an
  offer with what is worst for us. In words: keep high cards, give low ones, contest
  close geishas.
- `strong`: determinised Monte Carlo. The most promising actions by the greedy value are
  tried over fresh samples of the unseen cards, each sample played to the end of the round
  by the fast policy and scored (a won or lost game, else the geishas and points held);
  UCB1 shares the iterations among candidates; the most tried one is played. The budget
  is a number of iterations (not a time), so a seed always gives the same choice.
"""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from companion.games.hanamikoji.actions import (
    Action,
    Competition,
    Discard,
    Gift,
    Reveal,
    Secret,
    TakeGift,
    TakePair,
)
from companion.games.hanamikoji.data import ITEMS, Item, Token, full_deck
from companion.games.hanamikoji.rules import (
    Hand,
    Phase,
    PlayerRound,
    RuleSet,
    State,
    apply,
    legal_actions,
    offer_cards,
)

LEVELS = ("easy", "normal", "strong")
STRONG_ITERATIONS = 1000  # tuned in benchmarks/opponent_bench.py (docs/practice.md)
STRONG_CANDIDATES = 12
_HAND_WEIGHT = 0.4  # a card still in hand may yet reach its geisha
_MARKER = 0.3  # a tie on a geisha goes to whoever holds her marker


@dataclass(frozen=True)
class Observation:
    """What seat `seat` may know of the game now; nothing else reaches a decision."""

    seat: int
    rules: RuleSet
    round: int
    starter: int
    phase: Phase
    to_move: int
    hand: tuple[Item, ...]  # own cards, the card this turn draws included, sorted
    drawn: Item | None  # the card this turn draws (already in `hand`), if any
    unknown_in_hand: int  # own cards the companion was not told (a table hint)
    secret: Item | None
    discard: tuple[Item, ...]
    tokens: tuple[frozenset[Token], frozenset[Token]]  # still available, by seat
    sides: tuple[tuple[int, ...], tuple[int, ...]]  # face-up cards before each geisha
    revealed: tuple[Item | None, Item | None]
    other_hand: int  # the size of the other hand
    pile: int  # cards left to draw, this turn's draw included
    offer: Gift | Competition | None
    favours: tuple[int | None, ...]
    turns: int

    @property
    def complete(self) -> bool:
        """Whether the seat's own hidden cards are all known (a decision needs them)."""
        return self.unknown_in_hand == 0

    @property
    def untold_face_down(self) -> int:
        """The seat's own Secret and Discard cards laid face down and not told (at a table):
        a hint must know them too, or the unseen cards cannot be placed."""
        mine = self.tokens[self.seat]
        secret = (Token.SECRET not in mine and self.revealed[self.seat] is None
                  and self.secret is None)
        discard = 2 - len(self.discard) if Token.DISCARD not in mine else 0
        return int(secret) + discard


def observe(state: State, seat: int) -> Observation:
    """The only way from a full state to what `seat` may know."""
    me, other = state.players[seat], state.players[1 - seat]
    drawn = None
    if state.phase is Phase.ACTION and state.to_move == seat and state.pile:
        drawn = state.pile[0]  # the player draws before acting
    hand = tuple(sorted((*me.hand.known, *([drawn] if drawn is not None else []))))
    unknown = me.hand.unknown + (1 if state.phase is Phase.ACTION and state.to_move == seat
                                 and state.pile and drawn is None else 0)
    return Observation(
        seat=seat, rules=state.rules, round=state.round, starter=state.starter,
        phase=state.phase, to_move=state.to_move, hand=hand, drawn=drawn,
        unknown_in_hand=unknown, secret=me.secret, discard=tuple(me.discard),
        tokens=(state.players[0].tokens, state.players[1].tokens),
        sides=(state.players[0].side, state.players[1].side),
        revealed=(state.players[0].revealed, state.players[1].revealed),
        other_hand=other.hand.size, pile=len(state.pile), offer=state.offer,
        favours=state.favours, turns=state.turns,
    )


def unseen_cards(obs: Observation) -> list[Item]:
    """The cards `obs.seat` has not seen, wherever they lie (sorted)."""
    left = Counter(full_deck())
    left.subtract(obs.hand)
    left.subtract(obs.discard)
    if obs.secret is not None:
        left[obs.secret] -= 1
    for side in obs.sides:
        for item, n in zip(ITEMS, side, strict=True):
            left[item] -= n
    if obs.offer is not None:
        left.subtract(offer_cards(obs.offer))
    return sorted(left.elements())


def determinise(obs: Observation, rng: random.Random) -> State:
    """A full-information state consistent with `obs`: the unseen cards dealt at random
    into the other hand, the other's Secret and Discard, the removed card and the pile."""
    cards = unseen_cards(obs)
    rng.shuffle(cards)
    other = 1 - obs.seat
    has_secret = Token.SECRET not in obs.tokens[other] and obs.revealed[other] is None
    has_discard = Token.DISCARD not in obs.tokens[other]
    rest = obs.pile - (1 if obs.drawn is not None else 0)
    need = obs.other_hand + has_secret + 2 * has_discard + 1 + rest
    if need != len(cards):
        raise ValueError(f"observation inconsistent: {need} hidden places, {len(cards)} cards")
    take = iter(cards)
    hand = tuple(next(take) for _ in range(obs.other_hand))
    secret = next(take) if has_secret else None
    discard = (next(take), next(take)) if has_discard else ()
    removed = next(take)
    pile = ((obs.drawn,) if obs.drawn is not None else ()) + tuple(take)
    mine = list(obs.hand)
    if obs.drawn is not None:
        mine.remove(obs.drawn)
    rounds = [PlayerRound(), PlayerRound()]
    rounds[obs.seat] = PlayerRound(
        hand=Hand(0, tuple(mine)), tokens=obs.tokens[obs.seat], secret=obs.secret,
        discard=obs.discard, revealed=obs.revealed[obs.seat], side=obs.sides[obs.seat])
    rounds[other] = PlayerRound(
        hand=Hand(0, tuple(sorted(hand))), tokens=obs.tokens[other], secret=secret,
        discard=discard, revealed=obs.revealed[other], side=obs.sides[other])
    return State(
        rules=obs.rules, full_information=True, round=obs.round, starter=obs.starter,
        phase=obs.phase, to_move=obs.to_move, players=(rounds[0], rounds[1]), pile=pile,
        removed=removed, offer=obs.offer, favours=obs.favours, turns=obs.turns,
    )


def legal(obs: Observation) -> list[Action]:
    """The seat's legal actions (they depend on its own cards only)."""
    return list(legal_actions(determinise(obs, random.Random(0))))


# -- the static value of a position, from one seat's side ---------------------------------
def value(mine: Sequence[float], theirs: Sequence[int], favours: Sequence[int | None],
          seat: int) -> float:
    """Each geisha's points times how far ahead `seat` is on her (a tie: her marker)."""
    total = 0.0
    for item, a, b, holder in zip(ITEMS, mine, theirs, favours, strict=True):
        lead = a - b
        if abs(lead) < 1e-9:
            lead = 0.0 if holder is None else (_MARKER if holder == seat else -_MARKER)
        total += item.points * math.tanh(lead)
    return total


def _after(obs: Observation, action: Action) -> float:
    """The greedy value of `action`: offers answered with what is worst for us."""
    seat = obs.seat
    mine = [float(n) for n in obs.sides[seat]]
    theirs = list(obs.sides[1 - seat])
    if obs.secret is not None:
        mine[obs.secret - 1] += 1
    hand = Counter(obs.hand)
    if isinstance(action, (TakeGift, TakePair)):
        assert obs.offer is not None
        got = (action.card,) if isinstance(action, TakeGift) else obs.offer.pairs[action.index]
        left = list(offer_cards(obs.offer))
        for c in got:
            left.remove(c)
        return _score(mine, theirs, hand, got, left, obs)
    if isinstance(action, Reveal):
        return 0.0
    if isinstance(action, Secret):
        assert action.card is not None
        hand[action.card] -= 1
        return _score(mine, theirs, hand, (action.card,), (), obs)
    if isinstance(action, Discard):
        assert action.cards is not None
        hand.subtract(action.cards)
        return _score(mine, theirs, hand, (), (), obs)
    hand.subtract(offer_cards(action))  # type: ignore[arg-type]
    options = ([((c,), tuple(x for j, x in enumerate(action.cards) if j != i))
                for i, c in enumerate(action.cards)] if isinstance(action, Gift)
               else [(action.pairs[i], action.pairs[1 - i]) for i in (0, 1)])
    # the other takes `theirs_pick`, we keep the rest
    return min(_score(mine, theirs, hand, kept, taken, obs) for taken, kept in options)


def _score(mine: list[float], theirs: list[int], hand: Counter[Item],
           gained: Sequence[Item], given: Sequence[Item], obs: Observation) -> float:
    a = list(mine)
    b = list(theirs)
    for c in gained:
        a[c - 1] += 1
    for c in given:
        b[c - 1] += 1
    for item, n in hand.items():
        a[item - 1] += _HAND_WEIGHT * n
    return value(a, b, obs.favours, obs.seat)


def greedy_choice(obs: Observation, actions: Sequence[Action]) -> Action:
    """The greedy heuristic player's choice (the `normal` level)."""
    return max(actions, key=lambda a: _after(obs, a))


# -- the fast policy that plays samples out -----------------------------------------------
def _need(state: State, seat: int, card: Item, rng: random.Random) -> float:
    """How much `seat` wants `card` on its side: its points, more on a close geisha."""
    lead = state.players[seat].side[card - 1] - state.players[1 - seat].side[card - 1]
    close = 1.0 if abs(lead) <= 1 else 0.4
    return card.points * close + rng.random() * 0.5


def _fast(state: State, rng: random.Random) -> Action:
    """A quick, sensible move for playouts: answers take what the chooser needs most; an
    action picks a random token, a Secret the most needed card, a Discard the two least
    needed, a Gift the three least needed, a Competition the four least needed paired
    high with low."""
    seat = state.to_move
    if state.phase is Phase.REVEAL:
        return next(legal_actions(state))
    if state.phase is Phase.ANSWER:
        offer = state.offer
        if isinstance(offer, Gift):
            return TakeGift(max(offer.cards, key=lambda c: _need(state, seat, c, rng)))
        assert isinstance(offer, Competition)
        first, second = (sum(_need(state, seat, c, rng) for c in p) for p in offer.pairs)
        return TakePair(0 if first >= second else 1)
    player = state.players[seat]
    hand = sorted((*player.hand.known, state.pile[0]), key=lambda c: _need(state, seat, c, rng))
    token = rng.choice(sorted(player.tokens))
    if token is Token.SECRET:
        return Secret(hand[-1])
    if token is Token.DISCARD:
        return Discard((hand[0], hand[1]))
    if token is Token.GIFT:
        return Gift((hand[0], hand[1], hand[2]))
    return Competition(((hand[0], hand[3]), (hand[1], hand[2])))


def _outcome(state: State, seat: int) -> float:
    """A played-out round's worth to `seat`, 0 to 1: the game's result when it is over,
    else the geishas and points held."""
    if state.over:
        winners = state.winners or ()
        return 0.5 if len(winners) != 1 else float(winners[0] == seat)
    g, p = state.geishas(), state.points()
    lead = 0.35 * (g[seat] - g[1 - seat]) + 0.12 * (p[seat] - p[1 - seat])
    return 0.5 + 0.5 * math.tanh(lead)


PLAYOUT_ROUNDS = 2  # rounds a playout plays (the last one scored by _outcome): the next
# round too, so that markers kept on a tie and the carry-over count in a round's value


def playout(state: State, seat: int, rng: random.Random, rounds: int = PLAYOUT_ROUNDS) -> float:
    """Play a sample out with the fast policy for `rounds` rounds (later rounds dealt at
    random) and score it for `seat`."""
    from companion.games.hanamikoji.simulate import random_deal

    last = state.round + rounds - 1
    while not state.over:
        if state.phase is Phase.DEAL:
            if state.round > last:
                break
            state, _ = apply(state, random_deal(rng))
            continue
        state, _ = apply(state, _fast(state, rng))
    return _outcome(state, seat)


def strong_choice(obs: Observation, actions: Sequence[Action], rng: random.Random,
                  iterations: int = STRONG_ITERATIONS) -> Action:
    """Determinised Monte Carlo over the most promising actions, by successive halving on
    common samples: every candidate still in the running is played out on the same
    determinisations (and the same playout seeds), so that two actions are compared on the
    same hidden cards rather than on different luck; the worse half is dropped after each
    stage, the budget (`iterations` playouts) being shared evenly among the stages."""
    if len(actions) == 1:
        return actions[0]
    ranked = sorted(actions, key=lambda a: _after(obs, a), reverse=True)
    alive = list(range(min(STRONG_CANDIDATES, len(ranked))))
    totals = [0.0] * len(alive)
    stages = max(1, math.ceil(math.log2(len(alive))))
    per_stage = iterations // stages
    while len(alive) > 1:
        for _ in range(max(1, per_stage // len(alive))):
            sample = determinise(obs, rng)
            seed = rng.getrandbits(32)
            for k in alive:
                after, _ = apply(sample, ranked[k])
                totals[k] += playout(after, obs.seat, random.Random(seed), PLAYOUT_ROUNDS)
        alive.sort(key=lambda k: (-totals[k], k))  # ties: the greedy order
        alive = alive[:math.ceil(len(alive) / 2)]
    return ranked[alive[0]]


def decide(obs: Observation, level: str, rng: random.Random,
           iterations: int = STRONG_ITERATIONS) -> Action:
    """The action `level` plays from what `obs.seat` may know (ValueError for a State)."""
    if not isinstance(obs, Observation):
        raise TypeError("an opponent decides from an Observation, never from a full state")
    if not obs.complete:
        raise ValueError("the seat's own cards are not all known")
    actions = legal(obs)
    if not actions:
        raise ValueError("no decision to make now")
    if level == "random":
        return rng.choice(actions)
    if level == "easy":
        if obs.phase is Phase.ANSWER:
            return greedy_choice(obs, actions)
        return rng.choice(actions)
    if level == "normal":
        return greedy_choice(obs, actions)
    if level == "strong":
        return strong_choice(obs, actions, rng, iterations)
    raise ValueError(f"unknown level {level!r}")



@dataclass(frozen=True)
class GameResult:
    winners: tuple[int, ...]
    timings: tuple[tuple[str, float], ...]  # (level, seconds) of each decision


def play_game(levels: tuple[str, str], seed: int, rules: RuleSet = RuleSet.IELLO,
              iterations: int = STRONG_ITERATIONS) -> GameResult:
    """A whole seeded game between two levels (seat 0 starts), for tests and benchmarks.
    Each decision sees only its seat's observation."""
    import time

    from companion.games.hanamikoji.rules import new_game
    from companion.games.hanamikoji.simulate import random_deal

    chance = random.Random(seed)
    rngs = (random.Random(f"{seed}:0"), random.Random(f"{seed}:1"))
    state = new_game(rules, full_information=True)
    timings: list[tuple[str, float]] = []
    while not state.over:
        if state.phase is Phase.DEAL:
            state, _ = apply(state, random_deal(chance))
            continue
        seat = state.to_move
        start = time.perf_counter()
        action = decide(observe(state, seat), levels[seat], rngs[seat], iterations)
        timings.append((levels[seat], time.perf_counter() - start))
        state, _ = apply(state, action)
    return GameResult(state.winners or (), tuple(timings))
