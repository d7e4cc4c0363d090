"""Hanamikoji's rules: State + Action -> new State and Events, or IllegalAction.

Pure: no I/O, no randomness (chance is the Deal action). A table game keeps hands as
counts of unknown cards; a full-information game (tests, simulations, an opponent) starts
each round with a Deal and then knows every card. Both run through the same checks.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field, replace
from enum import Enum
from itertools import combinations

from companion.errors import IllegalAction
from companion.games.hanamikoji.actions import (
    Action,
    Competition,
    Deal,
    Discard,
    Gift,
    Pair,
    Reveal,
    Secret,
    TakeGift,
    TakePair,
)
from companion.games.hanamikoji.data import (
    COPIES,
    HAND_SIZE,
    ITEMS,
    PILE_SIZE,
    WIN_GEISHAS,
    WIN_POINTS,
    Item,
    Token,
    full_deck,
)

CHANCE = -1  # the pseudo-player who deals in full-information games
MAX_ROUNDS = 3


class RuleSet(Enum):
    """How a game ends when nobody reaches 4 geishas or 11 points."""

    IELLO = "iello"  # seeds 000, 003: after round 3, most points; equal: no winner
    CLASSIC = "classic"  # seeds 001, 002: rounds go on until someone wins
    ES_OPTIONAL = "es-optional"  # seed 002's option: after round 3, geishas, points, both


class Phase(Enum):
    DEAL = "deal"
    ACTION = "action"
    ANSWER = "answer"
    REVEAL = "reveal"
    OVER = "over"


@dataclass(frozen=True)
class Hand:
    """Cards in a hand: how many nobody has told us, and the ones we know."""

    unknown: int = 0
    known: tuple[Item, ...] = ()

    @property
    def size(self) -> int:
        return self.unknown + len(self.known)

    def add(self, card: Item | None) -> Hand:
        if card is None:
            return replace(self, unknown=self.unknown + 1)
        return replace(self, known=tuple(sorted((*self.known, card))))

    def remove(self, cards: Iterable[Item | None]) -> Hand:
        """The hand without `cards` (None: an unnamed card); raises if it cannot hold them."""
        known = list(self.known)
        unknown = self.unknown
        for card in cards:
            if card is not None and card in known:
                known.remove(card)
            elif unknown > 0:
                unknown -= 1
            elif card is None:
                raise IllegalAction("hand_empty", "there are not enough cards in that hand")
            else:
                raise IllegalAction(
                    "not_in_hand", f"the {card.word} is not in that hand", card=card
                )
        return Hand(unknown, tuple(known))


@dataclass(frozen=True)
class PlayerRound:
    """One player's part of the current round."""

    hand: Hand = field(default_factory=Hand)
    tokens: frozenset[Token] = frozenset(Token)  # still available
    secret: Item | None = None  # known only if the player told it
    discard: tuple[Item, ...] = ()  # known only if the player told them
    revealed: Item | None = None
    side: tuple[int, ...] = (0,) * len(ITEMS)  # face-up cards before each geisha

    def with_side(self, cards: Iterable[Item]) -> PlayerRound:
        side = list(self.side)
        for card in cards:
            side[card - 1] += 1
        return replace(self, side=tuple(side))


# Events: what happened, for narration and the log of a game. Players are indexes 0 and 1.
@dataclass(frozen=True)
class RoundStarted:
    round: int
    starter: int


@dataclass(frozen=True)
class Dealt:
    round: int


@dataclass(frozen=True)
class Played:
    """A Secret or a Discard: nothing about the cards is public."""

    player: int
    action: Secret | Discard


@dataclass(frozen=True)
class Offered:
    player: int
    action: Gift | Competition


@dataclass(frozen=True)
class Took:
    chooser: int
    received: tuple[Item, ...]
    offerer: int
    kept: tuple[Item, ...]


@dataclass(frozen=True)
class Revealed:
    player: int
    card: Item


@dataclass(frozen=True)
class RoundScored:
    round: int
    sides: tuple[tuple[int, ...], tuple[int, ...]]
    before: tuple[int | None, ...]  # favour markers before this scoring
    favours: tuple[int | None, ...]  # after: player index, or None for the centre
    geishas: tuple[int, int]
    points: tuple[int, int]


@dataclass(frozen=True)
class GameOver:
    winners: tuple[int, ...]  # one, none (no winner) or both (shared win)
    reason: str  # geishas, points, points_over_geishas, after_rounds_points, ...


@dataclass(frozen=True)
class PrivateDropped:
    """What `player` told of a hidden card cannot be: the table has now seen every copy of
    `card` (or revealed another Secret, `revealed`). Said to that player alone; the record
    is dropped (or corrected to the revealed card), the public move stands."""

    player: int
    place: str  # "secret" or "discard"
    card: Item
    revealed: Item | None = None


Event = (RoundStarted | Dealt | Played | Offered | Took | Revealed | RoundScored | GameOver
         | PrivateDropped)


@dataclass(frozen=True)
class State:
    rules: RuleSet
    full_information: bool
    round: int
    starter: int
    phase: Phase
    to_move: int
    players: tuple[PlayerRound, PlayerRound]
    pile: tuple[Item | None, ...] = ()
    removed: Item | None = None
    offer: Gift | Competition | None = None
    favours: tuple[int | None, ...] = (None,) * len(ITEMS)
    turns: int = 0  # completed actions this round, 0 to 8
    winners: tuple[int, ...] | None = None

    @property
    def over(self) -> bool:
        return self.phase is Phase.OVER

    @property
    def actor(self) -> int:
        """Whose action is being played (during an answer: the one who offered)."""
        return 1 - self.to_move if self.phase is Phase.ANSWER else self.to_move

    def geishas(self) -> tuple[int, int]:
        return (self.favours.count(0), self.favours.count(1))

    def points(self) -> tuple[int, int]:
        totals = [0, 0]
        for item, holder in zip(ITEMS, self.favours, strict=True):
            if holder is not None:
                totals[holder] += item.points
        return (totals[0], totals[1])

    def seen(self) -> Counter[Item]:
        """Every card whose identity is known this round, wherever it lies."""
        seen: Counter[Item] = Counter()
        for p in self.players:
            for item, n in zip(ITEMS, p.side, strict=True):
                seen[item] += n
            seen.update(p.hand.known)
            seen.update(p.discard)
            if p.secret is not None and p.revealed is None:
                seen[p.secret] += 1
        seen.update(c for c in self.pile if c is not None)
        if self.removed is not None:
            seen[self.removed] += 1
        if self.offer is not None:
            seen.update(offer_cards(self.offer))
        return seen

    def unseen(self) -> dict[Item, int]:
        seen = self.seen()
        return {item: COPIES[item] - seen[item] for item in ITEMS}

    def view(self, seat: int | None = None) -> State:
        """What `seat` knows: the table's view plus its own told Secret and Discard (None:
        the table's alone). Every rule that decides what the table hears checks against
        the table's view; a seat's own told cards are checked against its own view."""
        public = self.public()
        if seat is None:
            return public
        own = self.players[seat]
        players = list(public.players)
        players[seat] = replace(players[seat], secret=own.secret, discard=own.discard)
        return replace(public, players=tuple(players))  # type: ignore[arg-type]

    def public(self) -> State:
        """What the whole table knows: this state without any card told privately (a
        Secret, a Discard) or dealt unseen (hands, pile, the removed card). Everything said
        to the table is worked out from this view, so a told card never changes it."""
        players = tuple(
            replace(p, hand=Hand(unknown=p.hand.size), secret=None, discard=())
            for p in self.players
        )
        return replace(
            self, players=players, pile=(None,) * len(self.pile), removed=None,  # type: ignore[arg-type]
        )


def offer_cards(offer: Gift | Competition) -> tuple[Item, ...]:
    if isinstance(offer, Gift):
        return offer.cards
    return offer.pairs[0] + offer.pairs[1]


def new_game(
    rules: RuleSet = RuleSet.IELLO, *, full_information: bool = False, starter: int = 0
) -> State:
    """A game at the start of round 1; `starter` is the first named player."""
    empty = State(
        rules=rules, full_information=full_information, round=0, starter=1 - starter,
        phase=Phase.DEAL, to_move=CHANCE, players=(PlayerRound(), PlayerRound()),
    )
    return _start_round(empty)


def _start_round(state: State) -> State:
    starter = 1 - state.starter
    common = dict(round=state.round + 1, starter=starter, offer=None, turns=0, removed=None)
    if state.full_information:
        return replace(
            state, **common, phase=Phase.DEAL, to_move=CHANCE, pile=(),
            players=(PlayerRound(), PlayerRound()),
        )
    hidden = PlayerRound(hand=Hand(unknown=HAND_SIZE))
    return replace(
        state, **common, phase=Phase.ACTION, to_move=starter, pile=(None,) * PILE_SIZE,
        players=(hidden, hidden),
    )


def _set_player(state: State, index: int, player: PlayerRound) -> tuple[PlayerRound, ...]:
    players = list(state.players)
    players[index] = player
    return tuple(players)


def _check_copies(state: State, cards: Iterable[Item]) -> None:
    """Refuse cards that would show more copies of an item than the game has, counting
    what the table has seen only (a card told privately never changes a public refusal)."""
    seen = state.public().seen()
    adding = Counter(cards)
    for item, n in adding.items():
        if seen[item] + n > COPIES[item]:
            raise IllegalAction(
                "too_many_copies",
                f"the game has {COPIES[item]} {item.word} cards and "
                f"{seen[item]} are already seen this round",
                card=item, copies=COPIES[item], seen=seen[item],
            )


def apply(state: State, action: Action) -> tuple[State, tuple[Event, ...]]:
    """The state after `action`, with what happened; raises IllegalAction otherwise."""
    if state.phase is Phase.OVER:
        raise IllegalAction("game_over", "the game is over")
    if isinstance(action, Deal):
        return _apply_deal(state, action)
    if state.phase is Phase.DEAL:
        raise IllegalAction("deal_first", "the round's cards must be dealt first")
    if isinstance(action, (TakeGift, TakePair)):
        return _apply_answer(state, action)
    if state.phase is Phase.ANSWER:
        raise IllegalAction(
            "offer_waiting", "an offer is waiting for an answer", offer=state.offer
        )
    if isinstance(action, Reveal):
        return _apply_reveal(state, action)
    if state.phase is Phase.REVEAL:
        raise IllegalAction("reveal_now", "every action is played: reveal the Secrets")
    return _apply_token(state, action)


def _apply_deal(state: State, deal: Deal) -> tuple[State, tuple[Event, ...]]:
    if state.phase is not Phase.DEAL:
        raise IllegalAction("no_deal_now", "cards are dealt only at the start of a round")
    sizes = (len(deal.hands[0]), len(deal.hands[1]), len(deal.pile))
    if sizes != (HAND_SIZE, HAND_SIZE, PILE_SIZE) or Counter(
        (deal.removed, *deal.hands[0], *deal.hands[1], *deal.pile)
    ) != Counter(full_deck()):
        raise IllegalAction("bad_deal", "a deal must use the 21 item cards exactly once")
    players = tuple(PlayerRound(hand=Hand(0, hand)) for hand in deal.hands)
    new = replace(
        state, phase=Phase.ACTION, to_move=state.starter, removed=deal.removed,
        pile=deal.pile, players=players,  # type: ignore[arg-type]
    )
    return new, (Dealt(state.round),)


def _draw(state: State) -> State:
    """The turn's first step: the player takes the top card of the pile."""
    if not state.pile:
        raise IllegalAction("pile_empty", "the draw pile is empty")
    card, pile = state.pile[0], state.pile[1:]
    me = state.players[state.to_move]
    players = _set_player(state, state.to_move, replace(me, hand=me.hand.add(card)))
    return replace(state, pile=pile, players=players)  # type: ignore[arg-type]


def _token_of(action: Action) -> Token:
    return {
        Secret: Token.SECRET, Discard: Token.DISCARD,
        Gift: Token.GIFT, Competition: Token.COMPETITION,
    }[type(action)]


def _apply_token(state: State, action: Action) -> tuple[State, tuple[Event, ...]]:
    token = _token_of(action)
    player = state.to_move
    if token not in state.players[player].tokens:
        raise IllegalAction("token_used", f"{token.word} is already used this round", token=token)
    state = _draw(state)
    me = state.players[player]
    tokens = me.tokens - {token}
    if isinstance(action, Secret):
        hand = _take_from_hand(state, player, [action.card], private=True)
        me = replace(me, hand=hand, tokens=tokens, secret=action.card)
        return _reconciled(_end_turn(state, player, me), [Played(player, action)])
    if isinstance(action, Discard):
        cards = action.cards or (None, None)
        hand = _take_from_hand(state, player, cards, private=True)
        me = replace(me, hand=hand, tokens=tokens, discard=action.cards or ())
        return _reconciled(_end_turn(state, player, me), [Played(player, action)])
    assert isinstance(action, (Gift, Competition))
    hand = _take_from_hand(state, player, offer_cards(action))
    me = replace(me, hand=hand, tokens=tokens)
    players = _set_player(state, player, me)
    new = replace(
        state, players=players, offer=action, phase=Phase.ANSWER, to_move=1 - player,  # type: ignore[arg-type]
    )
    return _reconciled(new, [Offered(player, action)])


def _reconciled(state: State, events: list[Event]) -> tuple[State, tuple[Event, ...]]:
    """After a move, each seat's told cards checked against what the table has seen: a
    told Secret or Discard holding a card of which every copy is now seen elsewhere is
    dropped, and only that seat is told (PrivateDropped). Seats are checked one at a
    time, on their own view: one seat's told cards never decide anything for another."""
    players = list(state.players)
    for seat, p in enumerate(state.players):
        seen = state.view(seat).seen()
        over = {item for item in ITEMS if seen[item] > COPIES[item]}
        if p.secret is not None and p.secret in over:
            events.append(PrivateDropped(seat, "secret", p.secret))
            p = replace(p, secret=None)
        wrong = [c for c in p.discard if c in over]
        if wrong:
            events.append(PrivateDropped(seat, "discard", wrong[0]))
            p = replace(p, discard=())
        players[seat] = p
    return replace(state, players=tuple(players)), tuple(events)  # type: ignore[arg-type]


def _take_from_hand(state: State, player: int, cards: Iterable[Item | None],
                    private: bool = False) -> Hand:
    """The hand without `cards`; cards named from unknown ones must exist in the game (for
    a `private` Secret or Discard, the naming that cannot be is dropped after, not refused:
    the token is played all the same)."""
    hand = state.players[player].hand
    if private and not state.full_information:
        return hand.remove(cards)
    known = Counter(hand.known)
    named = []
    for card in cards:
        if card is not None and known[card] > 0:
            known[card] -= 1
        elif card is not None:
            named.append(card)
    new_hand = hand.remove(cards)
    _check_copies(state, named)
    return new_hand


def _end_turn(state: State, player: int, me: PlayerRound) -> State:
    players = _set_player(state, player, me)
    turns = state.turns + 1
    if turns == 2 * len(Token):
        return replace(
            state, players=players, turns=turns, offer=None,  # type: ignore[arg-type]
            phase=Phase.REVEAL, to_move=state.starter,
        )
    return replace(
        state, players=players, turns=turns, offer=None,  # type: ignore[arg-type]
        phase=Phase.ACTION, to_move=1 - player,
    )


def _apply_answer(state: State, answer: TakeGift | TakePair) -> tuple[State, tuple[Event, ...]]:
    offer = state.offer
    if state.phase is not Phase.ANSWER or offer is None:
        raise IllegalAction("no_offer", "there is no offer to answer")
    if isinstance(offer, Gift):
        if not isinstance(answer, TakeGift):
            raise IllegalAction("take_one_card", "a gift is answered by taking one card")
        if answer.card not in offer.cards:
            raise IllegalAction(
                "not_in_offer", f"the {answer.card.word} is not in the gift",
                card=answer.card, offer=offer,
            )
        received: tuple[Item, ...] = (answer.card,)
        rest = list(offer.cards)
        rest.remove(answer.card)
        kept = tuple(rest)
    else:
        if not isinstance(answer, TakePair):
            raise IllegalAction("take_a_pair", "a competition is answered by taking a pair")
        received = offer.pairs[answer.index]
        kept = offer.pairs[1 - answer.index]
    chooser, offerer = state.to_move, 1 - state.to_move
    players = list(state.players)
    players[chooser] = players[chooser].with_side(received)
    players[offerer] = players[offerer].with_side(kept)
    mid = replace(state, players=tuple(players))  # type: ignore[arg-type]
    new = _end_turn(mid, offerer, players[offerer])
    return new, (Took(chooser, received, offerer, kept),)


def _apply_reveal(state: State, reveal: Reveal) -> tuple[State, tuple[Event, ...]]:
    if state.phase is not Phase.REVEAL:
        raise IllegalAction("reveal_later", "Secrets are revealed once every action is played")
    player = state.to_move
    me = state.players[player]
    events: list[Event] = [Revealed(player, reveal.card)]
    if me.secret is not None and me.secret != reveal.card and state.full_information:
        raise IllegalAction(  # the companion dealt it: the Secret is known, not told
            "secret_differs", f"the Secret was recorded as the {me.secret.word}",
            card=me.secret,
        )
    if me.secret is not None and me.secret != reveal.card:
        # What was told is wrong, what is shown stands: said to that player alone.
        events.append(PrivateDropped(player, "secret", me.secret, revealed=reveal.card))
    _check_copies(state, [reveal.card])
    me = replace(me, revealed=reveal.card, secret=None).with_side([reveal.card])
    shown = replace(state, players=_set_player(state, player, me))  # type: ignore[arg-type]
    state, said = _reconciled(shown, events)
    if player == state.starter:
        return replace(state, to_move=1 - player), said
    return _score(state, list(said))


def _score(state: State, events: list[Event]) -> tuple[State, tuple[Event, ...]]:
    a, b = (p.side for p in state.players)
    favours = tuple(
        0 if x > y else 1 if y > x else held
        for x, y, held in zip(a, b, state.favours, strict=True)
    )
    scored = replace(state, favours=favours)
    geishas, points = scored.geishas(), scored.points()
    events.append(RoundScored(state.round, (a, b), state.favours, favours, geishas, points))
    ending = game_result(state.rules, state.round, geishas, points)
    if ending is None:
        return _start_round(scored), (*events, RoundStarted(state.round + 1, 1 - state.starter))
    winners, reason = ending
    events.append(GameOver(winners, reason))
    return replace(scored, phase=Phase.OVER, to_move=CHANCE, winners=winners), tuple(events)


def game_result(
    rules: RuleSet, round_number: int, geishas: tuple[int, int], points: tuple[int, int]
) -> tuple[tuple[int, ...], str] | None:
    """Winners and the reason, or None when another round is played."""
    reached = [g >= WIN_GEISHAS or p >= WIN_POINTS for g, p in zip(geishas, points, strict=True)]
    if reached[0] and reached[1]:
        # One has 4 geishas, the other 11 points: 21 points in all, so points decide.
        return ((0,) if points[0] > points[1] else (1,)), "points_over_geishas"
    for player in (0, 1):
        if reached[player]:
            return (player,), ("points" if points[player] >= WIN_POINTS else "geishas")
    if rules is RuleSet.CLASSIC or round_number < MAX_ROUNDS:
        return None
    if rules is RuleSet.IELLO:
        if points[0] == points[1]:
            return (), "after_rounds_tie"
        return ((0,) if points[0] > points[1] else (1,)), "after_rounds_points"
    if geishas[0] != geishas[1]:
        return ((0,) if geishas[0] > geishas[1] else (1,)), "after_rounds_geishas"
    if points[0] != points[1]:
        return ((0,) if points[0] > points[1] else (1,)), "after_rounds_points"
    return (0, 1), "after_rounds_shared"


def replay(state: State, actions: Iterable[Action]) -> State:
    for action in actions:
        state, _ = apply(state, action)
    return state


def legal_actions(state: State) -> Iterator[Action]:
    """Every legal action of a full-information state, each once (none for chance)."""
    if state.phase in (Phase.OVER, Phase.DEAL):
        return
    if state.phase is Phase.ANSWER:
        offer = state.offer
        if isinstance(offer, Gift):
            yield from (TakeGift(c) for c in sorted(set(offer.cards)))
        else:
            yield from (TakePair(0), TakePair(1))
        return
    me = state.players[state.to_move]
    if state.phase is Phase.REVEAL:
        if me.secret is not None:
            yield Reveal(me.secret)
        return
    hand = list(me.hand.known)
    if state.pile and state.pile[0] is not None:
        hand.append(state.pile[0])  # the card this turn draws
    hand.sort()
    if Token.SECRET in me.tokens:
        yield from (Secret(c) for c in sorted(set(hand)))
    if Token.DISCARD in me.tokens:
        yield from (Discard(c) for c in sorted(set(combinations(hand, 2))))  # type: ignore[arg-type]
    if Token.GIFT in me.tokens:
        yield from (Gift(c) for c in sorted(set(combinations(hand, 3))))  # type: ignore[arg-type]
    if Token.COMPETITION in me.tokens:
        seen: set[Competition] = set()
        for four in sorted(set(combinations(hand, 4))):
            for split in _splits(four):
                move = Competition(split)
                if move not in seen:
                    seen.add(move)
                    yield move


def _splits(four: tuple[Item, ...]) -> Iterator[tuple[Pair, Pair]]:
    """The ways to lay four cards as two ordered pairs (first pair, second pair)."""
    for i, j in combinations(range(4), 2):
        first = (four[i], four[j])
        second = tuple(four[k] for k in range(4) if k not in (i, j))
        yield first, second  # type: ignore[misc]
