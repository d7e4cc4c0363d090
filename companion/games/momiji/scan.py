"""A scanned Momiji leaf or objective token → what the session should do now.

A scan carries no verb, and a Momiji play is several cards laid at once, so scans are
gathered before anything is applied: the leaves a player lays are scanned one by one,
each read back ("Play so far: green 2, brown 0"), then Enter plays them all as one
`play ...` through `Session.execute`, where the rules engine stays the only judge. What a
scanned leaf adds to depends on the moment:

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
it) or, during a turn, activates that objective. Names said or typed at set-up join the same
list (`objectives_so_far`), so a token the reader cannot read is simply said.

Each scan is checked at once for what no later scan could mend (a type out of play, a
closed pile, a mix of types no card can make legal); the pile order is checked when the
play is applied, because green 1 scanned before green 0 is a good play in the making.

The gathered cards live outside the Session, like companion/games/hanamikoji/scan.py's context (a
WeakKeyDictionary): they belong to one session state, so anything that changes the
state (a typed action, an undo) sets them aside.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from companion.cards.payload import CardRef, PayloadError
from companion.cards.registry import CardRegistry, resolve
from companion.errors import CompanionError
from companion.games.momiji import narrate
from companion.games.momiji.actions import Activate, Garden, Objectives, Place, Play, Reveal
from companion.games.momiji.data import GARDEN_START, Leaf, Objective, tokens_for
from companion.games.momiji.rules import Phase
from companion.inputs.scan_echo import EchoGuard, Origin
from companion.narrate.message import Message, Priority
from companion.session import per_session
from companion.shared_commands import Ask, Query
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


@dataclass
class Gathering:
    """Cards (or objective tokens) scanned for one action not applied yet."""

    purpose: str  # play, place, garden, reveal or objectives
    state: Any  # the session state it belongs to: any change sets it aside
    player: int
    wanted: int | None = None  # the count that completes it; None: Enter applies it
    short_ok: bool = False  # a reveal from an uncounted pile: Enter takes fewer
    items: list[Any] = field(default_factory=list)  # Leaf, or Objective for objectives
    origin: Origin | None = None  # the reader and time of the last scan

    @property
    def missing(self) -> int:
        return 0 if self.wanted is None else self.wanted - len(self.items)

    def action(self, items: list[Any] | None = None) -> Any:
        return _ACTIONS[self.purpose](tuple(self.items if items is None else items))


@dataclass
class MomijiScanContext:
    gathering: Gathering | None = None
    keys: dict[str, list[str]] = field(default_factory=dict)  # keypad line per device
    echo: EchoGuard = field(default_factory=EchoGuard)  # a just-applied card read again

    def prune(self, session: Any) -> Gathering | None:
        """Set aside a gathering whose session state has moved on; returns it if so."""
        g = self.gathering
        if g is not None and g.state is not session.state:
            self.gathering = None
            return g
        return None


context_for = per_session(MomijiScanContext)  # the scan state kept beside each session


def refusal(key: str, params: dict[str, Any] | None = None, **data: Any) -> Message:
    return Message("error", key, params or {}, {"code": key.rpartition(".")[2], **data},
                   Priority.REFUSAL)


def _engine_refusal(error: CompanionError) -> Message:
    return Message("error", f"error.{error.key}", dict(error.params), {"code": error.key},
                   Priority.REFUSAL)


def _words(items: list[Any]) -> list[Message]:
    return [narrate.objective(i) if isinstance(i, Objective) else narrate.card(i)
            for i in items]


def _texts(items: list[Any]) -> list[str]:
    return [i.value if isinstance(i, Objective) else i.text() for i in items]


# -- the entry point ------------------------------------------------------------------------
def handle_scan(session: Any, value: str, registry: CardRegistry | None,
                origin: Origin | None = None) -> list[Message]:
    """Messages for one scanned value (a printed label's payload or an enrolled tag id);
    `origin` (reader and time) lets a card read again just after it was applied be set
    aside (companion/inputs/scan_echo.py)."""
    ctx = context_for(session)
    ctx.prune(session)
    try:
        ref = resolve(value, registry)
    except PayloadError as error:
        return [refusal("cards.bad_label", {"reason": str(error)}, value=value)]
    if ref is None:
        return [refusal(P + "unknown_tag", value=value)]
    if ref.game != session.game.name:
        return [refusal("cards.other_game", value=value)]
    item = Objective(ref.name) if ref.kind == "objective" else _leaf_of(ref)
    if ctx.echo.repeats(session, item, origin):
        return [refusal(P + "echo", {"card": _words([item])[0]}, card=_texts([item])[0])]
    if isinstance(item, Objective):
        return _objective(session, ctx, item, origin)
    return _leaf(session, ctx, item, origin)


def _leaf_of(ref: CardRef) -> Leaf:
    assert ref.value is not None  # a leaf label always carries its value
    return Leaf(Colour(ref.name), ref.value)


def _not_now(session: Any) -> list[Message]:
    return [refusal(P + "not_now")] + session.execute(Ask(Query.WHAT))


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


def _leaf(session: Any, ctx: MomijiScanContext, leaf: Leaf, origin: Origin | None
          ) -> list[Message]:
    state = session.state
    g = ctx.gathering
    if g is None:
        purpose = _purpose(state)
        if purpose is None:
            return _not_now(session)
        wanted = GARDEN_START if purpose == "garden" else None
        g = Gathering(purpose, state, state.to_move, wanted)
    elif g.purpose == "objectives":
        return [refusal(P + "objective_expected")] + so_far(session, g)
    why = _check(session, g, [*g.items, leaf])
    if why is not None:
        return [why] + (so_far(session, g) if g.items else [])
    g.items.append(leaf)
    g.origin = origin
    ctx.gathering = g
    if g.wanted is not None and not g.missing:
        return apply_gathering(session)
    return so_far(session, g)


def _objective(session: Any, ctx: MomijiScanContext, objective: Objective,
               origin: Origin | None) -> list[Message]:
    state = session.state
    g = ctx.gathering
    if state.phase is Phase.TURN:
        if g is not None:
            return [refusal(P + "finish_first")] + so_far(session, g)
        return session.execute(Activate(objective))  # the engine judges cost and availability
    if state.phase is not Phase.OBJECTIVES:
        return _not_now(session)
    g = objectives_so_far(session, start=True)
    assert g is not None  # the objectives phase: the list is gathered here
    why = _check(session, g, [*g.items, objective])
    if why is not None:
        return [why] + (so_far(session, g) if g.items else [])
    g.items.append(objective)
    g.origin = origin
    ctx.gathering = g
    return apply_gathering(session) if not g.missing else so_far(session, g)


def objectives_so_far(session: Any, start: bool = False) -> Gathering | None:
    """At set-up, the objectives named so far as one list, however they came: scanned
    tokens are gathered here, in the order scanned (keypad minus takes back the last), and
    a part said or typed (which the session keeps, adapter.pending) joins them. None when
    nothing is named yet (unless `start`), outside the objectives phase, or while leaves
    are gathered."""
    ctx = context_for(session)
    ctx.prune(session)
    state = session.state
    g = ctx.gathering
    if state.phase is not Phase.OBJECTIVES or g is not None and g.purpose != "objectives":
        return None
    named = objectives_named(session)
    if g is None:
        if not named and not start:
            return None
        g = ctx.gathering = Gathering("objectives", state, state.to_move,
                                      tokens_for(state.count))
    g.items = list(named)
    session.abandon_pending()  # the part said or typed is in the list now
    return g


def objectives_named(session: Any) -> tuple[Objective, ...]:
    """The objectives named so far at set-up, scanned or said (nothing changed: what a
    voice context listens after)."""
    g = context_for(session).gathering
    scanned = g.items if g is not None and g.purpose == "objectives" \
        and g.state is session.state else []
    pending = session.pending.objectives if isinstance(session.pending, Objectives) else ()
    return tuple(dict.fromkeys([*scanned, *pending]))


def add_objectives(session: Any, objectives: tuple[Objective, ...]) -> list[Message]:
    """Objectives typed or keyed while scanned ones wait: added to them, each as if scanned
    (one named again is not added twice), the list read back or applied. (Said ones reach
    the session, whose part joins the scans at the next scan or line.)"""
    g = objectives_so_far(session)
    assert g is not None
    out: list[Message] = []
    for objective in objectives:
        if objective not in g.items:
            out = _objective(session, context_for(session), objective, None)
            if out and out[0].event == "error" or context_for(session).gathering is None:
                return out  # refused (the list stays), or the list is complete
    return out or so_far(session, g)


def _check(session: Any, g: Gathering, items: list[Any]) -> Message | None:
    """The engine's refusal of `items` if no later scan could mend it, else None."""
    # The engine counts the cards of a garden or a reveal (and the objectives) before it
    # looks at their types, so a partial list would hide a type out of play: ask first.
    colours = session.state.colours
    last = items[-1]
    if isinstance(last, Leaf) and last.colour not in colours:
        return Message("error", "error.momiji.colour_out", {"colour": narrate.colour(last.colour)},
                       {"code": "momiji.colour_out"}, Priority.REFUSAL)
    if isinstance(last, Objective) and last.leaf is not None and last.leaf not in colours:
        return Message("error", "error.momiji.objective_out",
                       {"objective": narrate.objective(last)}, {"code": "momiji.objective_out"},
                       Priority.REFUSAL)
    try:
        session.check(g.action(items))
    except CompanionError as error:
        if error.key not in _DEFERRED[g.purpose]:
            return _engine_refusal(error)
    return None


# -- what is gathered: read back, confirmed, trimmed, set aside ------------------------------
def so_far(session: Any, g: Gathering | None = None) -> list[Message]:
    """The gathering read back with what to do next (also the answer to "repeat")."""
    g = g or context_for(session).gathering
    if g is None:
        return []
    player = session.names[g.player] if g.player >= 0 else ""
    data = {"purpose": g.purpose, "cards": _texts(g.items), "missing": g.missing}
    if not g.items:
        key = "reveal_start_uncounted" if g.short_ok else "reveal_start"
        return [Message("prompt", P + key, {"player": player, "n": g.missing}, data,
                        Priority.PROMPT)]
    key = f"{g.purpose}_so_far" + ("_uncounted" if g.short_ok else "")
    return [Message("prompt", P + key, {"cards": _words(g.items), "n": g.missing}, data,
                    Priority.PROMPT)]


def apply_gathering(session: Any) -> list[Message]:
    """Apply what is gathered as one action; on a refusal, say to scan again."""
    ctx = context_for(session)
    g = ctx.gathering
    assert g is not None
    ctx.gathering = None
    steps = session.step
    messages = session.execute(g.action())
    if session.step == steps:  # refused: the reason, then how to go on, then the prompt
        again = Message("info", P + "again", {"cards": _words(g.items)},
                        {"cards": _texts(g.items)})
        messages = messages[:1] + [again] + messages[1:]
    else:  # these cards are on the table now: the same reader reading one again is an echo
        ctx.echo.remember(session, g.items, g.origin)
    return messages


def confirm(session: Any) -> list[Message] | None:
    """Enter during a gathering: apply it (or say what is still missing); None if none."""
    ctx = context_for(session)
    ctx.prune(session)
    g = ctx.gathering
    if g is None:
        return None
    if not g.items or (g.missing and not g.short_ok):
        return so_far(session, g)
    return apply_gathering(session)


def remove_last(session: Any) -> list[Message] | None:
    """Undo (keypad minus) during a gathering: drop the last scan only; None if none."""
    ctx = context_for(session)
    ctx.prune(session)
    g = ctx.gathering
    if g is None:
        return None
    if not g.items:  # an empty reveal: undo takes the reveal itself back
        ctx.gathering = None
        return [Message("info", "cancelled")] + session.execute(Ask(Query.WHAT))
    last = g.items.pop()
    out = [Message("info", P + "removed", {"card": _words([last])[0]},
                   {"removed": _texts([last])[0]})]
    if not g.items and g.purpose != "reveal":
        ctx.gathering = None
        return out + [Message("info", P + "nothing_left")] + session.execute(Ask(Query.WHAT))
    return out + so_far(session, g)


def drop(session: Any) -> list[Message] | None:
    """Cancel during a gathering: set every scanned card aside; None if none."""
    ctx = context_for(session)
    ctx.prune(session)
    g = ctx.gathering
    if g is None:
        return None
    ctx.gathering = None
    return [set_aside(g)] + session.execute(Ask(Query.WHAT))


def set_aside(g: Gathering) -> Message:
    """Said when scanned cards are set aside unapplied (cancelled, or another action came)."""
    if not g.items:
        return Message("info", "cancelled")
    return Message("info", P + "dropped", {"cards": _words(g.items)}, {"cards": _texts(g.items)})


def start_reveal(session: Any) -> list[Message]:
    """"reveal" said or keyed alone during a turn: the new garden cards are scanned next.

    The acorn is paid when the cards are applied, so whether a reveal is allowed now is
    asked of the engine first, with stand-in cards of the right count.
    """
    if session.state.virtual:  # practice: the companion turns its deck's cards over
        return session.execute(Reveal(()))
    ctx = context_for(session)
    ctx.prune(session)
    state = session.state
    wanted = GARDEN_START if state.pile is None else min(GARDEN_START, state.pile)
    stand_in = Reveal((Leaf(state.colours[0], 0),) * max(wanted, 1))
    try:
        session.check(stand_in)
    except CompanionError as error:  # already revealed, pile empty, no acorn
        return [_engine_refusal(error)] + session.execute(Ask(Query.WHAT))
    g = Gathering("reveal", state, state.to_move, wanted, short_ok=state.pile is None)
    ctx.gathering = g
    return so_far(session, g)


def is_gathering(session: Any) -> bool:
    ctx = context_for(session)
    ctx.prune(session)
    return ctx.gathering is not None
