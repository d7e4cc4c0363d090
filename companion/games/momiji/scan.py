"""A scanned Momiji leaf or objective token, folded into the half-entered action.

A scan carries no verb, and a Momiji play is several cards laid at once, so scans are
gathered before anything is applied: the leaves a player lays are scanned one by one,
each read back ("Play so far: green 2, brown 0"), then Enter plays them all as one
`play ...`, which the session applies, where the rules engine stays the only judge. What
a scanned leaf adds to depends on the moment:

=====================================  ==========================================
now                                    a scanned leaf
=====================================  ==========================================
set-up, the 4 garden cards             added; the 4th lays the garden
a turn, no main action yet             added to a play; Enter plays
"reveal" said or keyed (7) alone       added to the revealed cards; the last one
                                       reveals (Enter: a pile that ran out)
a landscape used and the main done     added to a `place`; Enter places
=====================================  ==========================================

An objective token adds to the set-up list of revealed objectives (the last one applies
it) or, during a turn, activates that objective. That list is the session's pending
`Objectives` however its names came (scanned, said or typed), so a token the reader
cannot read is simply said.

Each scan is checked at once for what no later scan could mend (a type out of play, a
closed pile, a mix of types no card can make legal); the pile order is checked when the
play is applied, because green 1 scanned before green 0 is a good play in the making.

The gathered cards are the session's pending action (a frozen `Gathering`, folded by
`fold` from `Scanned` parts and the few lines keys.py passes while they wait): anything
that applies a step, an undo or a cancel drops them with it. The step a scan applies
keeps the scan's reader and time as its trace (companion/inputs/scan_echo.py).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from companion.cards.payload import CardRef, PayloadError
from companion.cards.registry import CardRegistry, resolve
from companion.errors import CompanionError
from companion.games.momiji import narrate
from companion.games.momiji.actions import (
    Activate,
    End,
    Garden,
    Objectives,
    Place,
    Play,
    Reveal,
)
from companion.games.momiji.data import GARDEN_START, Leaf, Objective, tokens_for
from companion.games.momiji.rules import Phase
from companion.games.protocol import Fold, Moment
from companion.inputs.scan_echo import Echo, Origin, laid, repeats
from companion.narrate.message import Message, Priority
from companion.shared_commands import Ask, Cancel, Query, Undo
from stickers.colours import Colour

P = "momiji.scan."

# Refusals a later scan can still mend: checked only when the gathering is applied.
_DEFERRED = {
    "play": {"momiji.pile_starts_at_0", "momiji.pile_order"},
    "place": {"momiji.pile_starts_at_0", "momiji.pile_order"},
    "garden": {"momiji.garden_count"},
    "reveal": {"momiji.reveal_count"},
    "objectives": {"momiji.objective_count"},
}
_ACTIONS: dict[str, Any] = {
    "play": Play, "place": Place, "garden": Garden, "reveal": Reveal, "objectives": Objectives,
}


@dataclass(frozen=True)
class Scanned:
    """A scanned leaf or objective token, with the reader and time it came from."""

    item: Leaf | Objective
    origin: Origin | None = None


@dataclass(frozen=True)
class Confirm:
    """Enter alone while scanned cards wait: apply them (or say what is missing)."""


@dataclass(frozen=True)
class Gathering:
    """Cards (or objective tokens) scanned for one action not applied yet."""

    purpose: str  # play, place, garden, reveal or objectives
    player: int
    wanted: int | None = None  # the count that completes it; None: Enter applies it
    short_ok: bool = False  # a reveal from an uncounted pile: Enter takes fewer
    items: tuple[Any, ...] = ()  # Leaf, or Objective for objectives
    origin: Origin | None = None  # the reader and time of the last scan

    @property
    def missing(self) -> int:
        return 0 if self.wanted is None else self.wanted - len(self.items)

    def action(self, items: tuple[Any, ...] | None = None) -> Any:
        return _ACTIONS[self.purpose](self.items if items is None else items)


def waiting(pending: Any, state: Any) -> Gathering | None:
    """What waits to be applied, as a Gathering: scanned cards, or at set-up the
    objectives named so far (the pending `Objectives`, scanned, said or typed)."""
    if isinstance(pending, Gathering):
        return pending
    if isinstance(pending, Objectives) and state.phase is Phase.OBJECTIVES:
        return Gathering("objectives", state.to_move, tokens_for(state.count),
                         items=pending.objectives)
    return None


def _kept(g: Gathering) -> Any:
    """The pending action for `g` (objectives are the game's own `Objectives`)."""
    if g.purpose == "objectives":
        return Objectives(g.items) if g.items else None
    return g


def refusal(key: str, params: dict[str, Any] | None = None, **data: Any) -> Message:
    return Message("error", key, params or {}, {"code": key.rpartition(".")[2], **data},
                   Priority.REFUSAL)


def _engine_refusal(error: CompanionError) -> Message:
    return Message("error", f"error.{error.key}", dict(error.params), {"code": error.key},
                   Priority.REFUSAL)


def _words(items: tuple[Any, ...]) -> list[Message]:
    return [narrate.objective(i) if isinstance(i, Objective) else narrate.card(i)
            for i in items]


def _texts(items: tuple[Any, ...]) -> list[str]:
    return [i.value if isinstance(i, Objective) else i.text() for i in items]


# -- the edge: a scanned value becomes a part ---------------------------------------------
def handle_scan(session: Any, value: str, registry: CardRegistry | None,
                origin: Origin | None = None) -> list[Message]:
    """Messages for one scanned value (a printed label's payload or an enrolled tag id);
    `origin` (reader and time) lets a card read again just after it was applied be set
    aside (companion/inputs/scan_echo.py)."""
    try:
        ref = resolve(value, registry)
    except PayloadError as error:
        return [refusal("cards.bad_label", {"reason": str(error)}, value=value)]
    if ref is None:
        return [refusal(P + "unknown_tag", value=value)]
    if ref.game != session.game.name:
        return [refusal("cards.other_game", value=value)]
    item = Objective(ref.name) if ref.kind == "objective" else _leaf_of(ref)
    return session.enter(Scanned(item, origin))


def _leaf_of(ref: CardRef) -> Leaf:
    assert ref.value is not None  # a leaf label always carries its value
    return Leaf(Colour(ref.name), ref.value)


# -- the fold: a part and the pending action -------------------------------------------------
def fold(game: Any, now: Moment, part: Any) -> Fold:
    """A scanned card, or a line while scanned cards wait (Enter, undo, cancel, repeat,
    end, objectives named, "reveal" alone), folded into the pending action."""
    g = waiting(now.pending, now.state)
    if isinstance(part, Scanned):
        return _scanned(game, now, g, part)
    if isinstance(part, Reveal) and not part.cards and g is None:
        return _start_reveal(game, now)
    if g is None:
        return Fold(command=part)
    if isinstance(part, Confirm):
        if not g.items or (g.missing and not g.short_ok):
            return Fold(said=so_far(now, g))
        return _apply(g, g.origin)
    if isinstance(part, Objectives):
        return _add_objectives(game, now, g, part.objectives)
    if isinstance(part, Undo):
        return _remove_last(now, g)
    if isinstance(part, Cancel):
        return Fold(said=(set_aside(g),), pending=None, prompt=True)
    if isinstance(part, Ask) and part.query is Query.REPEAT:
        return Fold(said=so_far(now, g))
    if isinstance(part, End):
        return Fold(said=(refusal(P + "finish_first"), *so_far(now, g)))
    return Fold(command=part)


def _scanned(game: Any, now: Moment, g: Gathering | None, part: Scanned) -> Fold:
    last = now.steps[-1][2] if now.steps else None
    held = repeats(last if isinstance(last, Echo) else None, part.item, part.origin)
    if held is not None:  # the last step's card read again by the reader that laid it
        return Fold(said=(refusal(P + "echo", {"card": _words((part.item,))[0]},
                                  card=_texts((part.item,))[0]),), trace=held)
    if isinstance(part.item, Objective):
        return _objective(game, now, g, part.item, part.origin)
    return _leaf(game, now, g, part.item, part.origin)


def _not_now() -> Fold:
    return Fold(said=(refusal(P + "not_now"),), prompt=True)


def _purpose(state: Any) -> str | None:
    """What a first scanned leaf starts now, or None when a leaf means nothing now."""
    if state.phase is Phase.GARDEN:
        return "garden"
    if state.phase is not Phase.TURN:
        return None
    turn = state.turn
    if turn.main is not None and turn.main != "reveal" and turn.optional == "landscape":
        return "place"  # a landscape's effect: the main action is done, so not a play
    return "play"  # the engine says why not when a play is not possible now


def _leaf(game: Any, now: Moment, g: Gathering | None, leaf: Leaf, origin: Origin | None
          ) -> Fold:
    state = now.state
    if g is None:
        purpose = _purpose(state)
        if purpose is None:
            return _not_now()
        g = Gathering(purpose, state.to_move, GARDEN_START if purpose == "garden" else None)
    elif g.purpose == "objectives":
        return Fold(said=(refusal(P + "objective_expected"), *so_far(now, g)))
    return _added(game, now, g, leaf, origin)


def _objective(game: Any, now: Moment, g: Gathering | None, objective: Objective,
               origin: Origin | None) -> Fold:
    state = now.state
    if state.phase is Phase.TURN:
        if g is not None:
            return Fold(said=(refusal(P + "finish_first"), *so_far(now, g)))
        return Fold(command=Activate(objective))  # the engine judges cost and availability
    if state.phase is not Phase.OBJECTIVES:
        return _not_now()
    g = g or Gathering("objectives", state.to_move, tokens_for(state.count))
    return _added(game, now, g, objective, origin)


def _added(game: Any, now: Moment, g: Gathering, item: Any, origin: Origin | None) -> Fold:
    """`item` added to what waits (checked first), read back; applied when it completes."""
    why = _check(game, now.state, g, (*g.items, item))
    if why is not None:
        return Fold(said=(why, *(so_far(now, g) if g.items else ())))
    g = replace(g, items=(*g.items, item), origin=origin)
    if g.wanted is not None and not g.missing:
        return _apply(g, origin)
    return Fold(said=so_far(now, g), pending=_kept(g))


def _add_objectives(game: Any, now: Moment, g: Gathering,
                    objectives: tuple[Objective, ...]) -> Fold:
    """Objectives typed or keyed while named ones wait: added to them, each as if
    scanned (one named again is not added twice), the list read back or applied."""
    out = Fold(said=so_far(now, g))
    for objective in objectives:
        if objective in g.items:
            continue
        out = _objective(game, now, g, objective, None)
        if out.command is not None:
            return out  # the list is complete
        if out.said and out.said[0].event == "error":
            return replace(out, pending=_kept(g))  # refused: the list so far stays
        g = replace(g, items=(*g.items, objective))
    return out


def _check(game: Any, state: Any, g: Gathering, items: tuple[Any, ...]) -> Message | None:
    """The engine's refusal of `items` if no later scan could mend it, else None."""
    # The engine counts the cards of a garden or a reveal (and the objectives) before it
    # looks at their types, so a partial list would hide a type out of play: ask first.
    colours = state.colours
    last = items[-1]
    if isinstance(last, Leaf) and last.colour not in colours:
        return Message("error", "error.momiji.colour_out", {"colour": narrate.colour(last.colour)},
                       {"code": "momiji.colour_out"}, Priority.REFUSAL)
    if isinstance(last, Objective) and last.leaf is not None and last.leaf not in colours:
        return Message("error", "error.momiji.objective_out",
                       {"objective": narrate.objective(last)}, {"code": "momiji.objective_out"},
                       Priority.REFUSAL)
    try:
        game.apply(state, g.action(items))
    except CompanionError as error:
        if error.key not in _DEFERRED[g.purpose]:
            return _engine_refusal(error)
    return None


# -- what is gathered: read back, applied, trimmed, set aside --------------------------------
def so_far(now: Moment, g: Gathering) -> tuple[Message, ...]:
    """The gathering read back with what to do next (also the answer to "repeat")."""
    player = now.names[g.player] if g.player >= 0 else ""
    data = {"purpose": g.purpose, "cards": _texts(g.items), "missing": g.missing}
    if not g.items:
        key = "reveal_start_uncounted" if g.short_ok else "reveal_start"
        return (Message("prompt", P + key, {"player": player, "n": g.missing}, data,
                        Priority.PROMPT),)
    key = f"{g.purpose}_so_far" + ("_uncounted" if g.short_ok else "")
    return (Message("prompt", P + key, {"cards": _words(g.items), "n": g.missing}, data,
                    Priority.PROMPT),)


def _apply(g: Gathering, origin: Origin | None) -> Fold:
    """Apply what is gathered as one action; on a refusal, say to scan again. Applied,
    its cards read again by the same reader are an echo (the step's trace)."""
    again = Message("info", P + "again", {"cards": _words(g.items)}, {"cards": _texts(g.items)})
    return Fold(pending=None, command=g.action(), trace=laid(g.items, origin), again=(again,))


def _remove_last(now: Moment, g: Gathering) -> Fold:
    """Undo (keypad minus) during a gathering: drop the last scan only."""
    if not g.items:  # an empty reveal: undo takes the reveal itself back
        return Fold(said=(Message("info", "cancelled"),), pending=None, prompt=True)
    last = g.items[-1]
    g = replace(g, items=g.items[:-1])
    out = (Message("info", P + "removed", {"card": _words((last,))[0]},
                   {"removed": _texts((last,))[0]}),)
    if not g.items and g.purpose != "reveal":
        return Fold(said=(*out, Message("info", P + "nothing_left")), pending=None, prompt=True)
    return Fold(said=(*out, *so_far(now, g)), pending=_kept(g))


def set_aside(g: Gathering) -> Message:
    """Said when scanned cards are set aside unapplied (cancelled, or another action came)."""
    if not g.items:
        return Message("info", "cancelled")
    return Message("info", P + "dropped", {"cards": _words(g.items)}, {"cards": _texts(g.items)})


def _start_reveal(game: Any, now: Moment) -> Fold:
    """"reveal" said or keyed alone during a turn: the new garden cards are scanned next.

    The acorn is paid when the cards are applied, so whether a reveal is allowed now is
    asked of the engine first, with stand-in cards of the right count.
    """
    state = now.state
    if state.virtual:  # practice: the companion turns its deck's cards over
        return Fold(command=Reveal(()))
    wanted = GARDEN_START if state.pile is None else min(GARDEN_START, state.pile)
    stand_in = Reveal((Leaf(state.colours[0], 0),) * max(wanted, 1))
    try:
        game.apply(state, stand_in)
    except CompanionError as error:  # already revealed, pile empty, no acorn
        return Fold(said=(_engine_refusal(error),), prompt=True)
    g = Gathering("reveal", state.to_move, wanted, short_ok=state.pile is None)
    return Fold(said=so_far(now, g), pending=g)
