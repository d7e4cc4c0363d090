"""Momiji's rules: State + Action -> new State and Events, or IllegalAction.

Pure: no I/O, no randomness. The companion sees what the table sees: the garden, every
played pile, acorns, torii and objectives. Hands are counts of unknown cards plus the cards
known to be in them (collected from the garden, so seen by all). What the seed leaves to
the physical cards (acorn icons, landscape abilities) is told by the players as outcomes.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field, replace
from enum import Enum
from itertools import combinations

from companion.errors import ConfirmFirst, IllegalAction
from companion.games.momiji.actions import (
    Action,
    Activate,
    Bonus,
    Collect,
    Colours,
    Deal,
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
    COLUMN_LIMIT,
    COOL,
    FIRST_ACORNS,
    GARDEN_START,
    HAND_LIMIT,
    HAND_SIZE,
    LANDSCAPES,
    LEAVES,
    MAX_PLAYERS,
    MAX_VALUE,
    MIN_PLAYERS,
    OBJECTIVE_COST,
    OTHER_ACORNS,
    OTHER_POINTS,
    OWNER_POINTS,
    PILE_MOST,
    TOLD_MOST,
    TYPES_IN_PLAY,
    WARM,
    Leaf,
    Objective,
    sort_leaves,
    tokens_for,
)
from stickers.colours import Colour

TABLE = -1  # set-up steps belong to the whole table, not to a player


class Phase(Enum):
    COLOURS = "colours"
    OBJECTIVES = "objectives"
    GARDEN = "garden"
    PILE = "pile"
    TURN = "turn"
    OVER = "over"


@dataclass(frozen=True)
class Hand:
    """Cards in a hand: how many nobody has told us, and the ones we know."""

    unknown: int = 0
    known: tuple[Leaf, ...] = ()

    @property
    def size(self) -> int:
        return self.unknown + len(self.known)

    def add(self, cards: Iterable[Leaf]) -> Hand:
        return replace(self, known=sort_leaves((*self.known, *cards)))

    def remove(self, cards: tuple[Leaf, ...] | None, count: int) -> Hand:
        """Without `cards`, or without `count` unnamed cards; raises if it cannot hold them."""
        if cards is None:
            if count > self.size:
                raise IllegalAction(
                    "momiji.hand_too_small", f"the hand holds only {self.size} cards",
                    n=self.size, size=self.size,
                )
            # Unnamed cards may be known ones: what is left is no longer known.
            return Hand(self.size - count, ())
        known = list(self.known)
        unknown = self.unknown
        for card in cards:
            if card in known:
                known.remove(card)
            elif unknown > 0:
                unknown -= 1
            else:
                raise IllegalAction(
                    "momiji.not_in_hand", f"{card.text()} is not in that hand", card=card
                )
        return Hand(unknown, tuple(known))


@dataclass(frozen=True)
class Player:
    acorns: int
    hand: Hand = field(default_factory=lambda: Hand(HAND_SIZE))
    piles: tuple[tuple[int, ...], ...] = ((),) * len(LEAVES)  # values, bottom to top
    torii: int = 0
    landscapes: frozenset[int] = frozenset()  # landscape cards used (1 to 3)
    objectives: tuple[Objective, ...] = ()  # activated by this player

    def pile(self, colour: Colour) -> tuple[int, ...]:
        return self.piles[LEAVES.index(colour)]

    def with_pile(self, colour: Colour, pile: tuple[int, ...]) -> Player:
        piles = list(self.piles)
        piles[LEAVES.index(colour)] = pile
        return replace(self, piles=tuple(piles))

    @property
    def placed(self) -> int:
        return sum(len(p) for p in self.piles)

    def pile_points(self) -> int:
        return sum(len(p) * p[-1] for p in self.piles if p)


@dataclass(frozen=True)
class Turn:
    """What the player whose turn it is has done so far."""

    main: str | None = None  # collect, play, objective; "reveal" is a collect begun
    several: bool = False  # the leaves played were of several types: harvest bonus
    bonus: bool = False  # the harvest bonus was told
    optional: str | None = None  # landscape or trade: one per turn
    # the landscape just used: its effect is asked for next. Out of repr: practice seeds its
    # hints with the repr of what a seat sees (practice.py), and practice has no landscapes.
    effect: int | None = field(default=None, repr=False)


# Events: what happened, for narration. Players are indexes in table order.
@dataclass(frozen=True)
class ColoursChosen:
    colours: tuple[Colour, ...]


@dataclass(frozen=True)
class ObjectivesRevealed:
    objectives: tuple[Objective, ...]


@dataclass(frozen=True)
class GardenLaid:
    cards: tuple[Leaf, ...]


@dataclass(frozen=True)
class Dealt:
    """A practice game's deal: the companion shuffled `cards` leaves and dealt the hands."""

    cards: int
    hand: int


@dataclass(frozen=True)
class PileCounted:
    count: int | None


@dataclass(frozen=True)
class TurnStarted:
    player: int
    last: bool  # the end is triggered: this is the player's last turn


@dataclass(frozen=True)
class Revealed:
    player: int
    cards: tuple[Leaf, ...]
    discarded: tuple[Leaf, ...]  # went to full columns: discarded at once
    pile: int | None


@dataclass(frozen=True)
class Collected:
    player: int
    colour: Colour
    cards: tuple[Leaf, ...]
    hand: int


@dataclass(frozen=True)
class Placed:
    player: int
    cards: tuple[Leaf, ...]
    closed: tuple[Colour, ...]  # piles a 3 closed
    torii: int  # torii tokens taken (fewer than closed piles when none are left)
    extra: bool  # placed by a landscape, not as the main action


@dataclass(frozen=True)
class BonusTaken:
    player: int
    connections: int
    acorns: int  # the player's acorns after


@dataclass(frozen=True)
class Activated:
    player: int
    objective: Objective
    acorns: int


@dataclass(frozen=True)
class LandscapeUsed:
    player: int
    card: int
    acorns: int


@dataclass(frozen=True)
class Traded:
    player: int
    cards: tuple[Leaf, ...] | None
    acorns: int


@dataclass(frozen=True)
class Gained:
    player: int
    change: int
    acorns: int


@dataclass(frozen=True)
class Drew:
    player: int
    count: int
    hand: int


@dataclass(frozen=True)
class PileEmptied:
    player: int


@dataclass(frozen=True)
class EndTriggered:
    player: int
    reason: str  # pile or torii


@dataclass(frozen=True)
class TurnEnded:
    player: int
    discarded: int  # over the hand limit
    hand: int
    acorns: int


@dataclass(frozen=True)
class ObjectiveResult:
    objective: Objective
    owner: int
    values: tuple[int, ...]  # each player's measure
    achievers: tuple[int, ...]  # best (ties included); none if the best is nothing
    points: tuple[int, ...]


@dataclass(frozen=True)
class Scores:
    piles: tuple[int, ...]
    acorns: tuple[int, ...]
    objectives: tuple[ObjectiveResult, ...]
    totals: tuple[int, ...]
    hands: tuple[int, ...]
    winners: tuple[int, ...]
    reason: str  # points, hand (the tie-break) or shared


@dataclass(frozen=True)
class GameOver:
    scores: Scores


Event = (
    ColoursChosen | ObjectivesRevealed | Dealt | GardenLaid | PileCounted | TurnStarted | Revealed
    | Collected | Placed | BonusTaken | Activated | LandscapeUsed | Traded | Gained | Drew
    | PileEmptied | EndTriggered | TurnEnded | GameOver
)


@dataclass(frozen=True)
class State:
    players: tuple[Player, ...]
    phase: Phase
    to_move: int
    colours: tuple[Colour, ...] = ()
    available: tuple[Objective, ...] = ()  # revealed and not activated
    garden: tuple[tuple[int, ...], ...] = ((),) * len(LEAVES)  # values per column
    pile: int | None = None  # cards left to draw; None: not counted; 0: empty
    torii: int = 0  # in the middle of the table
    discard: int = 0
    turn: Turn = field(default_factory=Turn)
    turns_left: int | None = None  # once the end is triggered, this turn included
    ending: str | None = None
    scores: Scores | None = None
    # A practice game (dealt by the companion, every card known to it): the draw pile in
    # order, top first. None at a table, where the companion never sees the pile.
    deck: tuple[Leaf, ...] | None = None
    discards: tuple[Leaf, ...] = ()  # discarded cards named or seen (anyone may look)

    @property
    def virtual(self) -> bool:
        """Whether the companion dealt this game itself (practice): no landscape cards, no
        acorn icons (the seed defines neither), and every discard named."""
        return self.deck is not None

    @property
    def over(self) -> bool:
        return self.phase is Phase.OVER

    @property
    def count(self) -> int:
        return len(self.players)

    def column(self, colour: Colour) -> tuple[int, ...]:
        return self.garden[LEAVES.index(colour)]

    def activated(self) -> list[tuple[Objective, int]]:
        return [(o, i) for i, p in enumerate(self.players) for o in p.objectives]

    def public(self) -> State:
        """What the whole table knows: all of it. Momiji's companion is told only what
        every player sees (the garden, the piles, a discard anyone may look through, hand
        cards collected from the garden), never a card hidden in a hand."""
        return self


def new_game(players: int) -> State:
    """A game at set-up; the first player (index 0) has 4 acorns, the others 5."""
    if not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise IllegalAction(
            "momiji.player_count", "Momiji is for 2 to 4 players", n=players
        )
    table = tuple(
        Player(acorns=FIRST_ACORNS if i == 0 else OTHER_ACORNS) for i in range(players)
    )
    state = State(players=table, phase=Phase.COLOURS, to_move=TABLE, torii=tokens_for(players))
    if TYPES_IN_PLAY[players] == len(LEAVES):
        return replace(state, phase=Phase.OBJECTIVES, colours=LEAVES)
    return state


def _set(state: State, index: int, player: Player) -> State:
    players = list(state.players)
    players[index] = player
    return replace(state, players=tuple(players))


def _check_in_play(state: State, cards: Iterable[Leaf]) -> None:
    for card in cards:
        if card.colour not in state.colours:
            raise IllegalAction(
                "momiji.colour_out", f"{card.colour.value} leaves are not in this game",
                colour=card.colour,
            )


def apply(state: State, action: Action) -> tuple[State, tuple[Event, ...]]:
    """The state after `action`, with what happened; raises IllegalAction otherwise."""
    if state.phase is Phase.OVER:
        raise IllegalAction("game_over", "the game is over")
    setup = {
        Phase.COLOURS: (Colours, _colours), Phase.OBJECTIVES: (Objectives, _objectives),
        Phase.GARDEN: (Garden, _garden), Phase.PILE: (PileSize, _pile_size),
    }
    if state.phase is Phase.GARDEN and isinstance(action, Deal):
        return _deal(state, action)
    if state.phase in setup:
        kind, step = setup[state.phase]
        if not isinstance(action, kind):
            raise IllegalAction(
                f"momiji.setup_{state.phase.value}", "set-up first", phase=state.phase.value
            )
        return step(state, action)  # type: ignore[operator]
    if isinstance(action, (Colours, Objectives, Garden, PileSize, Deal)):
        raise IllegalAction("momiji.setup_done", "the set-up is done")
    handlers = {
        Reveal: _reveal, Collect: _collect, Play: _play, Bonus: _bonus, Activate: _activate,
        Landscape: _landscape, Trade: _trade, Gain: _gain, Draw: _draw, Place: _place,
        Empty: _empty, End: _end,
    }
    new, events = handlers[type(action)](state, action)  # type: ignore[operator]
    if new.turn.effect is not None and not isinstance(action, Landscape):
        new = replace(new, turn=replace(new.turn, effect=None))  # told, or passed over
    return _maybe_trigger(state, new, list(events))


# -- set-up --------------------------------------------------------------------------------
def _colours(state: State, action: Colours) -> tuple[State, tuple[Event, ...]]:
    wanted = TYPES_IN_PLAY[state.count]
    if len(action.colours) != wanted or len(set(action.colours)) != wanted:
        raise IllegalAction(
            "momiji.colour_count", f"{state.count} players use {wanted} leaf types",
            players=state.count, n=wanted, got=len(set(action.colours)),
        )
    new = replace(state, colours=action.colours, phase=Phase.OBJECTIVES)
    return new, (ColoursChosen(action.colours),)


def check_objectives(state: State, objectives: tuple[Objective, ...], whole: bool = True
                     ) -> None:
    """Raise IllegalAction if `objectives` cannot be the tokens revealed at set-up; with
    `whole` False, if they cannot be the first of them (named in parts: the count is
    checked once the last part comes)."""
    wanted = tokens_for(state.count)
    if len(set(objectives)) != len(objectives):
        raise IllegalAction("momiji.objective_twice", "each objective token exists once")
    if len(objectives) != wanted and (whole or len(objectives) > wanted):
        raise IllegalAction(
            "momiji.objective_count", f"{state.count} players reveal {wanted} objectives",
            players=state.count, n=wanted, got=len(objectives),
        )
    for objective in objectives:
        if objective.leaf is not None and objective.leaf not in state.colours:
            raise IllegalAction(
                "momiji.objective_out", "that leaf type is not in this game",
                objective=objective,
            )


def begins_objectives(state: State, action: object) -> bool:
    """Whether `action` names only the first of the objectives revealed at set-up (named in
    parts: kept until the last part, adapter.pending); IllegalAction if those cannot begin
    them (a type out of play, a name twice)."""
    if not isinstance(action, Objectives) or state.phase is not Phase.OBJECTIVES:
        return False
    if not 0 < len(action.objectives) < tokens_for(state.count):
        return False
    check_objectives(state, action.objectives, whole=False)
    return True


def _objectives(state: State, action: Objectives) -> tuple[State, tuple[Event, ...]]:
    check_objectives(state, action.objectives)
    new = replace(state, available=action.objectives, phase=Phase.GARDEN)
    return new, (ObjectivesRevealed(action.objectives),)


def _garden(state: State, action: Garden) -> tuple[State, tuple[Event, ...]]:
    if len(action.cards) != GARDEN_START:
        raise IllegalAction(
            "momiji.garden_count", "the garden starts with 4 cards",
            n=GARDEN_START, got=len(action.cards),
        )
    _check_in_play(state, action.cards)
    garden, _ = _lay(state.garden, action.cards)
    return replace(state, garden=garden, phase=Phase.PILE), (GardenLaid(action.cards),)


def _deal(state: State, action: Deal) -> tuple[State, tuple[Event, ...]]:
    """The companion deals (practice): known hands, the garden from the deck's top, the
    rest kept in order as the draw pile."""
    if len(action.hands) != state.count or any(len(h) != HAND_SIZE for h in action.hands):
        raise IllegalAction("momiji.deal_hands", "each player is dealt 6 cards")
    if len(action.deck) <= GARDEN_START:
        raise IllegalAction("momiji.deal_deck", "the deck must hold the garden and a pile")
    for hand in action.hands:
        _check_in_play(state, hand)
    _check_in_play(state, action.deck)
    players = tuple(replace(p, hand=Hand(0, h)) for p, h in zip(state.players, action.hands,
                                                                 strict=True))
    first, deck = action.deck[:GARDEN_START], action.deck[GARDEN_START:]
    garden, _ = _lay(state.garden, first)
    new = replace(state, players=players, garden=garden, deck=deck, pile=len(deck),
                  phase=Phase.TURN, to_move=0, turn=Turn())
    total = len(action.deck) + HAND_SIZE * state.count
    return new, (Dealt(total, HAND_SIZE), GardenLaid(first), PileCounted(len(deck)),
                 TurnStarted(0, last=False))


def _pile_size(state: State, action: PileSize) -> tuple[State, tuple[Event, ...]]:
    if action.count is not None and not 1 <= action.count <= PILE_MOST:
        raise IllegalAction("momiji.pile_size", f"a counted pile holds 1 to {PILE_MOST} cards",
                            most=PILE_MOST)
    new = replace(state, pile=action.count, phase=Phase.TURN, to_move=0, turn=Turn())
    return new, (PileCounted(action.count), TurnStarted(0, last=False))


def _lay(
    garden: tuple[tuple[int, ...], ...], cards: Iterable[Leaf]
) -> tuple[tuple[tuple[int, ...], ...], tuple[Leaf, ...]]:
    """Cards sorted into their columns; those of a full column go to the discard."""
    columns = [list(c) for c in garden]
    discarded = []
    for card in cards:
        column = columns[LEAVES.index(card.colour)]
        if len(column) >= COLUMN_LIMIT:
            discarded.append(card)
        else:
            column.append(card.value)
    return tuple(tuple(c) for c in columns), tuple(discarded)


# -- main actions --------------------------------------------------------------------------
def _need_main(state: State, what: str) -> None:
    main = state.turn.main
    if main == "reveal" and what != "collect":
        raise IllegalAction("momiji.collect_now", "cards were revealed: collect a column now")
    if main is not None and main != "reveal":
        raise IllegalAction("momiji.main_done", "the main action of this turn is done")


def _pay(state: State, cost: int, reason: str) -> Player:
    me = state.players[state.to_move]
    if me.acorns < cost:
        raise IllegalAction(
            "momiji.no_acorns", f"{reason} costs {cost} acorns; there are {me.acorns}",
            n=cost, cost=cost, acorns=me.acorns, action=reason,
        )
    return replace(me, acorns=me.acorns - cost)


def _reveal(state: State, action: Reveal) -> tuple[State, tuple[Event, ...]]:
    if state.turn.main is not None:
        raise IllegalAction("momiji.reveal_first", "reveal before collecting, once a turn")
    if state.pile == 0:
        raise IllegalAction("momiji.pile_empty", "the draw pile is empty")
    wanted = GARDEN_START if state.pile is None else min(GARDEN_START, state.pile)
    if state.deck is not None:  # practice: the companion turns the pile's top cards over
        top = sort_leaves(state.deck[:wanted])
        if action.cards and action.cards != top:
            raise IllegalAction("momiji.reveal_dealt",
                                "the companion reveals the pile's cards: say reveal alone")
        action = Reveal(top)
    got = len(action.cards)
    if got == 0 or got > wanted or (state.pile is not None and got != wanted):
        raise IllegalAction(
            "momiji.reveal_count", f"reveal {wanted} cards, not {got}", n=wanted, got=got
        )
    _check_in_play(state, action.cards)
    me = _pay(state, 1, "reveal")
    garden, discarded = _lay(state.garden, action.cards)
    # Fewer than four cards from an uncounted pile: it ran out.
    pile = 0 if state.pile is None and got < GARDEN_START else state.pile
    if pile is not None and state.pile is not None:
        pile = state.pile - got
    deck = None if state.deck is None else state.deck[got:]
    new = replace(
        _set(state, state.to_move, me), garden=garden, pile=pile, deck=deck,
        discard=state.discard + len(discarded), discards=state.discards + discarded,
        turn=replace(state.turn, main="reveal"),
    )
    return new, (Revealed(state.to_move, action.cards, discarded, pile),)


def _collect(state: State, action: Collect) -> tuple[State, tuple[Event, ...]]:
    _need_main(state, "collect")
    if action.colour not in state.colours:
        raise IllegalAction(
            "momiji.colour_out", "that leaf type is not in this game", colour=action.colour
        )
    column = state.column(action.colour)
    if not column:
        raise IllegalAction(
            "momiji.column_empty", "the garden has no card of that type", colour=action.colour
        )
    cards = tuple(Leaf(action.colour, v) for v in column)
    me = state.players[state.to_move]
    me = replace(me, hand=me.hand.add(cards))
    garden = list(state.garden)
    garden[LEAVES.index(action.colour)] = ()
    new = replace(
        _set(state, state.to_move, me), garden=tuple(garden),
        turn=replace(state.turn, main="collect"),
    )
    return new, (Collected(state.to_move, action.colour, cards, me.hand.size),)


def play_kind(cards: tuple[Leaf, ...]) -> bool:
    """True for several types (harvest bonus), False for one or two of one type."""
    colours = {c.colour for c in cards}
    if len(cards) >= 2 and len(colours) == len(cards):
        return True
    if len(colours) == 1 and len(cards) <= 2:
        return False
    raise IllegalAction(
        "momiji.play_mix",
        "play several cards all of different types, or one or two cards of one type",
    )


def _misfit(me: Player, card: Leaf) -> IllegalAction | None:
    """Why `card` cannot go on the player's pile of its type now, or None if it can."""
    pile = me.pile(card.colour)
    if pile and pile[-1] == MAX_VALUE:
        return IllegalAction("momiji.pile_closed", "a pile with a 3 is closed", colour=card.colour)
    if not pile and card.value != 0:
        return IllegalAction("momiji.pile_starts_at_0", "a pile starts with a 0", card=card)
    if pile and card.value not in (pile[-1], pile[-1] + 1):
        return IllegalAction(
            "momiji.pile_order", "a card equals the top of its pile or is one higher",
            card=card, top=pile[-1],
        )
    return None


def _stack(state: State, me: Player, cards: tuple[Leaf, ...]) -> tuple[Player, list[Colour]]:
    """The player's piles with `cards` on them (ascending within a type), or IllegalAction."""
    closed = []
    for card in cards:
        misfit = _misfit(me, card)
        if misfit is not None:
            raise misfit
        pile = me.pile(card.colour)
        me = me.with_pile(card.colour, (*pile, card.value))
        if card.value == MAX_VALUE:
            closed.append(card.colour)
    return me, closed


def _put_down(
    state: State, cards: tuple[Leaf, ...], extra: bool
) -> tuple[State, tuple[Event, ...]]:
    _check_in_play(state, cards)
    me = state.players[state.to_move]
    me = replace(me, hand=me.hand.remove(cards, len(cards)))
    me, closed = _stack(state, me, cards)
    taken = min(len(closed), state.torii)  # the last closings may find no torii left
    me = replace(me, torii=me.torii + taken)
    new = replace(_set(state, state.to_move, me), torii=state.torii - taken)
    return new, (Placed(state.to_move, cards, tuple(closed), taken, extra),)


def _play(state: State, action: Play) -> tuple[State, tuple[Event, ...]]:
    _need_main(state, "play")
    several = play_kind(action.cards)
    new, events = _put_down(state, action.cards, extra=False)
    return replace(new, turn=replace(state.turn, main="play", several=several)), events


def _bonus(state: State, action: Bonus) -> tuple[State, tuple[Event, ...]]:
    if state.turn.main != "play" or not state.turn.several:
        raise IllegalAction(
            "momiji.no_bonus", "the harvest bonus follows a play of several leaf types"
        )
    if state.turn.bonus:
        raise IllegalAction("momiji.bonus_told", "the harvest bonus is already counted")
    if state.virtual:
        raise IllegalAction("momiji.practice_no_bonus",
                            "a practice game's leaves carry no acorn icons: no harvest bonus")
    most = bonus_most(state)
    if not 1 <= action.connections <= most:
        raise IllegalAction("momiji.bad_bonus", f"the harvest bonus is 1 to {most} connections",
                            most=most)
    me = state.players[state.to_move]
    me = replace(me, acorns=me.acorns + 2 * action.connections)
    new = replace(_set(state, state.to_move, me), turn=replace(state.turn, bonus=True))
    return new, (BonusTaken(state.to_move, action.connections, me.acorns),)


def bonus_most(state: State) -> int:
    """The most connections a harvest bonus can count: one per pair of neighbouring piles
    (the top cards of the mover's piles, side by side), so one less than their piles."""
    me = state.players[state.to_move]
    return max(1, sum(1 for c in state.colours if me.pile(c)) - 1)


def _activate(state: State, action: Activate) -> tuple[State, tuple[Event, ...]]:
    _need_main(state, "objective")
    if action.objective not in state.available:
        raise IllegalAction(
            "momiji.objective_unavailable", "that objective is not available",
            objective=action.objective,
        )
    me = _pay(state, OBJECTIVE_COST, "objective")
    me = replace(me, objectives=(*me.objectives, action.objective))
    new = replace(
        _set(state, state.to_move, me),
        available=tuple(o for o in state.available if o != action.objective),
        turn=replace(state.turn, main="objective"),
    )
    return new, (Activated(state.to_move, action.objective, me.acorns),)


# -- optional actions and landscape effects --------------------------------------------------
def _need_optional(state: State) -> None:
    if state.turn.optional is not None:
        raise IllegalAction(
            "momiji.optional_done", "one optional action a turn: landscape or trade"
        )


def _landscape(state: State, action: Landscape) -> tuple[State, tuple[Event, ...]]:
    _need_optional(state)
    if state.virtual:
        raise IllegalAction("momiji.practice_no_landscape",
                            "a practice game has no landscape cards")
    if action.card in state.players[state.to_move].landscapes:
        raise IllegalAction(
            "momiji.landscape_used", "each landscape is used once a game", card=action.card
        )
    me = _pay(state, 1, "landscape")
    me = replace(me, landscapes=me.landscapes | {action.card})
    turn = replace(state.turn, optional="landscape", effect=action.card)
    new = replace(_set(state, state.to_move, me), turn=turn)
    return new, (LandscapeUsed(state.to_move, action.card, me.acorns),)


def _trade(state: State, action: Trade) -> tuple[State, tuple[Event, ...]]:
    _need_optional(state)
    if action.cards is None and state.virtual:
        raise IllegalAction("momiji.practice_name_cards", "name the two cards you discard")
    if action.cards is not None:
        if len(action.cards) != 2:
            raise IllegalAction("momiji.trade_two", "trade two cards for an acorn")
        _check_in_play(state, action.cards)
    me = state.players[state.to_move]
    me = replace(me, hand=me.hand.remove(action.cards, 2), acorns=me.acorns + 1)
    new = replace(
        _set(state, state.to_move, me), discard=state.discard + 2,
        discards=state.discards + (action.cards or ()),
        turn=replace(state.turn, optional="trade"),
    )
    return new, (Traded(state.to_move, action.cards, me.acorns),)


def _need_landscape(state: State) -> None:
    if state.turn.optional != "landscape":
        raise IllegalAction(
            "momiji.after_landscape", "that is told only after using a landscape this turn"
        )


def _gain(state: State, action: Gain) -> tuple[State, tuple[Event, ...]]:
    _need_landscape(state)
    me = state.players[state.to_move]
    if me.acorns + action.acorns < 0:
        raise IllegalAction(
            "momiji.bad_gain", "acorns cannot go below zero", acorns=me.acorns
        )
    if not 1 <= abs(action.acorns) <= TOLD_MOST:
        key = "momiji.gain_range" if action.acorns > 0 else "momiji.lose_range"
        raise IllegalAction(key, f"a landscape moves 1 to {TOLD_MOST} acorns", most=TOLD_MOST)
    me = replace(me, acorns=me.acorns + action.acorns)
    new = _set(state, state.to_move, me)
    return new, (Gained(state.to_move, action.acorns, me.acorns),)


def _draw(state: State, action: Draw) -> tuple[State, tuple[Event, ...]]:
    _need_landscape(state)
    if state.pile == 0:
        raise IllegalAction("momiji.pile_empty", "the draw pile is empty")
    if not 1 <= action.count <= TOLD_MOST:
        raise IllegalAction("momiji.draw_range", f"a landscape draws 1 to {TOLD_MOST} cards",
                            most=TOLD_MOST)
    if state.pile is not None and action.count > state.pile:
        raise IllegalAction(
            "momiji.draw_count", "the pile does not hold that many cards",
            n=action.count, pile=state.pile,
        )
    me = state.players[state.to_move]
    if state.deck is not None:
        me = replace(me, hand=me.hand.add(state.deck[:action.count]))
        state = replace(state, deck=state.deck[action.count:])
    else:
        me = replace(me, hand=replace(me.hand, unknown=me.hand.unknown + action.count))
    pile = None if state.pile is None else state.pile - action.count
    new = replace(_set(state, state.to_move, me), pile=pile)
    return new, (Drew(state.to_move, action.count, me.hand.size),)


def _place(state: State, action: Place) -> tuple[State, tuple[Event, ...]]:
    _need_landscape(state)
    if not action.cards:
        raise IllegalAction("momiji.play_mix", "name the leaves placed")
    return _put_down(state, action.cards, extra=True)


def _empty(state: State, action: Empty) -> tuple[State, tuple[Event, ...]]:
    if state.pile == 0:
        raise IllegalAction("momiji.pile_empty", "the draw pile is already empty")
    if state.pile is not None:  # counted: it empties by the draws and reveals told
        raise IllegalAction(
            "momiji.pile_counted", f"the draw pile still holds {state.pile} cards",
            n=state.pile, pile=state.pile,
        )
    return replace(state, pile=0), (PileEmptied(state.to_move),)


def _maybe_trigger(
    before: State, state: State, events: list[Event]
) -> tuple[State, tuple[Event, ...]]:
    """The end comes once the pile is empty or no torii is left: everyone plays once more."""
    if state.ending is not None or state.phase is not Phase.TURN:
        return state, tuple(events)
    reason = "pile" if state.pile == 0 else "torii" if state.torii == 0 else None
    if reason is None:
        return state, tuple(events)
    state = replace(state, ending=reason, turns_left=state.count + 1)
    return state, (*events, EndTriggered(state.to_move, reason))


def main_possible(state: State) -> bool | None:
    """Whether a main action is possible: True, False, or None when only cards in hand
    that nobody has named could make one possible (then the player is asked)."""
    me = state.players[state.to_move]
    if any(state.garden):
        return True  # a column to collect
    if me.acorns >= 1 and state.pile != 0:
        return True  # reveal, then collect
    if me.acorns >= OBJECTIVE_COST and state.available:
        return True
    if any(_misfit(me, card) is None for card in me.hand.known):
        return True
    closed = [c for c in state.colours if me.pile(c)[-1:] == (MAX_VALUE,)]
    if me.hand.unknown and len(closed) < len(state.colours):
        return None
    return False


def can_do_main(state: State) -> bool:
    """Whether a main action may be possible (the prompt asks for one)."""
    return main_possible(state) is not False


def _end(state: State, action: End) -> tuple[State, tuple[Event, ...]]:
    if state.turn.main == "reveal":
        raise IllegalAction("momiji.collect_now", "cards were revealed: collect a column now")
    if state.turn.main is None:
        possible = main_possible(state)
        if possible:
            raise IllegalAction(
                "momiji.main_first", "first collect, play leaves or activate an objective"
            )
        if possible is None and not action.anyway:
            raise ConfirmFirst(
                "momiji.end_anyway", "no main action this turn: end anyway?",
                command=End(anyway=True),
            )
    player = state.to_move
    me = state.players[player]
    excess = max(0, me.hand.size - HAND_LIMIT)
    if action.discard and len(action.discard) != excess:
        raise IllegalAction(
            "momiji.discard_count", f"discard {excess} cards, not {len(action.discard)}",
            n=excess, got=len(action.discard), hand=me.hand.size,
        )
    if excess and not action.discard and state.virtual:
        raise IllegalAction(
            "momiji.name_discards", f"name the {excess} cards above the limit you discard",
            n=excess, hand=me.hand.size,
        )
    if excess:
        _check_in_play(state, action.discard)
        me = replace(me, hand=me.hand.remove(action.discard or None, excess))
    state = replace(_set(state, player, me), discard=state.discard + excess,
                    discards=state.discards + action.discard)
    events: list[Event] = [TurnEnded(player, excess, me.hand.size, me.acorns)]
    turns_left = None if state.turns_left is None else state.turns_left - 1
    if turns_left == 0:
        scores = final_scores(state)
        over = replace(state, phase=Phase.OVER, to_move=TABLE, turns_left=0, scores=scores)
        return over, (*events, GameOver(scores))
    nxt = (player + 1) % state.count
    new = replace(state, to_move=nxt, turn=Turn(), turns_left=turns_left)
    return new, (*events, TurnStarted(nxt, last=turns_left is not None))


# -- scoring -----------------------------------------------------------------------------
def measure(objective: Objective, state: State, index: int) -> int:
    """A player's count for an objective (see data.Objective)."""
    p = state.players[index]
    sizes = {colour: len(p.pile(colour)) for colour in LEAVES}
    if objective.leaf is not None:
        return sizes[objective.leaf]
    if objective is Objective.COOL:
        return sum(sizes[c] for c in COOL)
    if objective is Objective.WARM:
        return sum(sizes[c] for c in WARM)
    if objective is Objective.ACORNS:
        return p.acorns  # those on landscapes left the player's supply when used
    if objective is Objective.TORII:
        return p.torii
    if objective is Objective.ZERO:
        return sum(pile.count(0) for pile in p.piles)
    if objective is Objective.PLACED:
        return p.placed
    if objective is Objective.HAND:
        return p.hand.size
    if objective is Objective.PILES:
        return sum(1 for pile in p.piles if pile) + LANDSCAPES - len(p.landscapes)
    if objective is Objective.SUM:
        return sum(pile[-1] for pile in p.piles if pile)
    return max(sizes.values())  # TALLEST


def objective_result(objective: Objective, owner: int, state: State) -> ObjectiveResult:
    values = tuple(measure(objective, state, i) for i in range(state.count))
    if objective is Objective.PLACED:
        best = min(values)  # the only objective won by having the fewest
        achievers = tuple(i for i, v in enumerate(values) if v == best)
    else:
        best = max(values)
        # Having none of something is not having the most of it.
        achievers = tuple(i for i, v in enumerate(values) if v == best and best > 0)
    points = tuple(
        (OWNER_POINTS if i == owner else OTHER_POINTS) if i in achievers else 0
        for i in range(state.count)
    )
    return ObjectiveResult(objective, owner, values, achievers, points)


def final_scores(state: State) -> Scores:
    """Points as if the game ended now: piles, acorns, activated objectives; then winners."""
    piles = tuple(p.pile_points() for p in state.players)
    acorns = tuple(p.acorns for p in state.players)
    results = tuple(objective_result(o, owner, state) for o, owner in state.activated())
    totals = tuple(
        piles[i] + acorns[i] + sum(r.points[i] for r in results) for i in range(state.count)
    )
    hands = tuple(p.hand.size for p in state.players)
    best = max(totals)
    leaders = [i for i, t in enumerate(totals) if t == best]
    reason = "points"
    if len(leaders) > 1:
        most = max(hands[i] for i in leaders)
        leaders = [i for i in leaders if hands[i] == most]
        reason = "hand" if len(leaders) == 1 else "shared"
    return Scores(piles, acorns, results, totals, hands, tuple(leaders), reason)


def replay(state: State, actions: Iterable[Action]) -> State:
    for action in actions:
        state, _ = apply(state, action)
    return state


# -- legal actions -------------------------------------------------------------------------
TOLD_MAX = 3  # gains, losses and draws offered after a landscape (its ability is printed)
WILD_MAX = 2  # unknown hand cards one play or place may name


def legal_actions(state: State) -> list[Action]:
    """Every action the rules accept now, each once, sorted by canonical text; with hidden
    hands and told outcomes, those within the bounds below.

    - Set-up: the choices of leaf types. The objective tokens, the garden and the pile
      size are chance (drawn, revealed, counted): none is offered, as for a deal.
    - A turn: collect, activate, landscape, end and the harvest bonus are finite. A reveal
      is chance (its cards come from the pile): none is offered; `reveal_size` says
      whether and how many cards may be revealed. `empty` is offered only for an
      uncounted pile (a counted one empties by itself).
    - Hidden hands: a hand is known cards plus `unknown` ones. A play (and a landscape's
      place, offered in a play's shapes: one card, two of one type, or one each of several
      types) names known cards and, for up to min(unknown, WILD_MAX) cards, any leaf that
      fits the player's piles, since an unseen card may be any of them. Without the cap a
      hand of 6 unseen cards facing six open piles would offer 752 plays; with it, 96.
      A trade names two known cards, or none (`trade`, which covers any two cards).
    - Told numbers the seed leaves to the physical cards: bonus 1 to one less than the
      mover's piles (one connection per pair of neighbouring piles, `bonus_most`); gain
      and draw 1 to TOLD_MAX, lose 1 to TOLD_MAX (never below zero acorns). Up to
      TOLD_MOST are still accepted when typed.

    With full information (no unknown cards) every accepted play, trade and collect is
    offered, so a simulator or an opponent only adds the chance steps.
    """
    if state.phase is Phase.COLOURS:
        wanted = TYPES_IN_PLAY[state.count]
        actions: Iterable[Action] = (Colours(c) for c in combinations(LEAVES, wanted))
    elif state.phase is Phase.TURN:
        actions = _turn_actions(state)
    else:
        actions = ()  # objectives, garden and pile are chance; a game over has no move
    return sorted(set(actions), key=lambda a: a.text())


def reveal_size(state: State) -> int:
    """How many cards a reveal lays now (from an uncounted pile, at most that), or 0."""
    me = state.players[state.to_move]
    if state.phase is not Phase.TURN or state.turn.main is not None or state.pile == 0:
        return 0
    if me.acorns < 1:
        return 0
    return GARDEN_START if state.pile is None else min(GARDEN_START, state.pile)


def _turn_actions(state: State) -> Iterator[Action]:
    me = state.players[state.to_move]
    turn = state.turn
    if turn.main in (None, "reveal"):
        yield from (Collect(c) for c in state.colours if state.column(c))
    if turn.main is None:
        yield from (Play(cards) for cards in play_shapes(state, me))
        if me.acorns >= OBJECTIVE_COST:
            yield from (Activate(o) for o in state.available)
        if state.virtual and reveal_size(state):
            yield Reveal(())  # the companion turns the cards over
    if turn.main == "play" and turn.several and not turn.bonus and not state.virtual:
        yield from (Bonus(n) for n in range(1, bonus_most(state) + 1))
    if turn.optional is None:
        yield from _optional(me, state.virtual)
    if turn.optional == "landscape":
        yield from _effects(state, me)
    if state.pile is None:
        yield Empty()
    if turn.main is not None and turn.main != "reveal":
        yield from _ends(state, me)
    elif turn.main is None:
        possible = main_possible(state)
        if possible is False:
            yield End()
        elif possible is None:  # only unseen cards could fit: ending is asked, then allowed
            yield End(anyway=True)


def _optional(me: Player, virtual: bool) -> Iterator[Action]:
    if me.acorns >= 1 and not virtual:
        yield from (Landscape(n) for n in range(1, LANDSCAPES + 1) if n not in me.landscapes)
    if me.hand.size >= 2:
        if not virtual:
            yield Trade()
        yield from (Trade(pair) for pair in combinations(me.hand.known, 2))


def _ends(state: State, me: Player) -> Iterator[End]:
    """`end`; in a practice game above the hand limit, each choice of the cards discarded."""
    excess = me.hand.size - HAND_LIMIT
    if excess <= 0 or not state.virtual:
        yield End()
        return
    yield from (End(discard=cards) for cards in set(combinations(me.hand.known, excess)))


def _effects(state: State, me: Player) -> Iterator[Action]:
    """A landscape's told effects (see TOLD_MAX), and places in a play's shapes."""
    yield from (Gain(n) for n in range(1, TOLD_MAX + 1))
    yield from (Gain(-n) for n in range(1, min(TOLD_MAX, me.acorns) + 1))
    if state.pile != 0:
        most = TOLD_MAX if state.pile is None else min(TOLD_MAX, state.pile)
        yield from (Draw(n) for n in range(1, most + 1))
    yield from (Place(cards) for cards in play_shapes(state, me))


def _fits(pile: tuple[int, ...]) -> tuple[int, ...]:
    """Values that may go onto a pile next."""
    if not pile:
        return (0,)
    top = pile[-1]
    return () if top == MAX_VALUE else (top, top + 1)


def play_shapes(state: State, me: Player) -> Iterator[tuple[Leaf, ...]]:
    """The cards `me` may play together now, pile by pile (known cards, plus up to WILD_MAX
    unseen ones): the plays the rules offer, and what the opponent weighs."""
    known = Counter(me.hand.known)
    wild = min(me.hand.unknown, WILD_MAX)

    def missing(cards: tuple[Leaf, ...]) -> int:
        return sum((Counter(cards) - known).values())

    options: list[list[Leaf]] = []
    for colour in state.colours:
        pile = me.pile(colour)
        firsts = [Leaf(colour, v) for v in _fits(pile)]
        options.append(firsts)
        for first in firsts:
            if missing((first,)) <= wild:
                yield (first,)
            for v in _fits((*pile, first.value)):
                pair = (first, Leaf(colour, v))
                if missing(pair) <= wild:
                    yield pair
    yield from _several(options, known, wild)


def _several(
    options: list[list[Leaf]], known: Counter[Leaf], wild: int
) -> Iterator[tuple[Leaf, ...]]:
    """One fitting card each of two or more types, unseen cards within `wild`."""

    def walk(i: int, chosen: tuple[Leaf, ...], wild: int) -> Iterator[tuple[Leaf, ...]]:
        if i == len(options):
            if len(chosen) >= 2:
                yield chosen
            return
        yield from walk(i + 1, chosen, wild)
        for leaf in options[i]:
            if known[leaf] > 0:
                yield from walk(i + 1, (*chosen, leaf), wild)
            elif wild > 0:
                yield from walk(i + 1, (*chosen, leaf), wild - 1)

    yield from walk(0, (), wild)
