"""Momiji events and states as Messages (language-free; see its locales/ folder).

Every key lives under `momiji.` so the game's catalogues cannot clash with the core ones.
Cards, colours and objectives are nested Messages, so each language words them itself.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from companion.games.momiji.actions import (
    Action,
    Activate,
    Collect,
    Colours,
    Garden,
    Landscape,
    Objectives,
    PileSize,
    Place,
    Play,
    Reveal,
)
from companion.games.momiji.data import (
    HAND_LIMIT,
    LANDSCAPES,
    LEAVES,
    OBJECTIVE_COST,
    TYPES_IN_PLAY,
    Leaf,
    Objective,
    tokens_for,
)
from companion.games.momiji.rules import (
    TABLE,
    Activated,
    BonusTaken,
    Collected,
    ColoursChosen,
    Dealt,
    Drew,
    EndTriggered,
    Event,
    Gained,
    GameOver,
    GardenLaid,
    LandscapeUsed,
    ObjectivesRevealed,
    Phase,
    PileCounted,
    PileEmptied,
    Placed,
    Revealed,
    Scores,
    State,
    Traded,
    TurnEnded,
    TurnStarted,
    can_do_main,
    final_scores,
)
from companion.narrate.catalogue import Alternatives
from companion.narrate.message import Message, Priority
from companion.shared_commands import Query
from stickers.colours import Colour

Names = Sequence[str]
P = "momiji."


def m(key: str, **params: Any) -> Message:
    """A nested message (a part of a sentence)."""
    return Message("", P + key, params)


def colour(c: Colour) -> Message:
    return m(f"colour.{c.value}")


def card(c: Leaf) -> Message:
    return m("card", colour=colour(c.colour), value=c.value)


def cards(cs: Sequence[Leaf]) -> list[Message]:
    return [card(c) for c in cs]


def leaves(cs: Sequence[Leaf]) -> list[Message]:
    """Cards grouped by leaf type, as the garden is read ("purple 0 0 1, green 2"): how a
    short form names them (the full form names each card)."""
    values: dict[Colour, list[int]] = {}
    for c in cs:
        values.setdefault(c.colour, []).append(c.value)
    return [m("column", colour=colour(c), values=_values(v), n=len(v)) for c, v in values.items()]


def objective(o: Objective) -> Message:
    return m(f"objective.{o.value}")


def param(value: Any) -> Any:
    """An error parameter in words: cards, colours and objectives become Messages."""
    if isinstance(value, Leaf):
        return card(value)
    if isinstance(value, Colour):
        return colour(value)
    if isinstance(value, Objective):
        return objective(value)
    if isinstance(value, Alternatives):  # said with "or"
        return Alternatives(param(v) for v in value)
    if isinstance(value, tuple):
        return [param(v) for v in value]
    return value


def _values(values: Sequence[int]) -> str:
    return " ".join(str(v) for v in values)


def garden(state: State) -> Message:
    columns = [m("column", colour=colour(c), values=_values(state.column(c)),
                 n=len(state.column(c))) for c in LEAVES if state.column(c)]
    return m("garden", columns=columns) if columns else m("garden_empty")


def _garden_data(state: State) -> dict[str, list[int]]:
    return {c.value: list(state.column(c)) for c in state.colours}


def start(state: State, names: Names) -> list[Message]:
    n = len(names)
    return [Message(
        "game_started", P + "game_start",
        {"players": list(names), "n": n, "types": TYPES_IN_PLAY[n], "tokens": tokens_for(n),
         "first": names[0]},
        {"players": list(names), "game": "momiji"},
    )]


def prompt(state: State, names: Names, pending: Any = None) -> list[Message]:
    """What the companion expects now."""
    if state.phase is Phase.TURN:
        return [_turn_prompt(state, names)]
    return [_setup_prompt(state, pending)]


def _setup_prompt(state: State, pending: Any) -> Message:
    """The prompt of a phase before the turns (or after them: the game is over)."""
    p = Priority.PROMPT
    n = state.count
    if state.phase is Phase.OVER:
        return Message("prompt", "game_is_over", priority=p)
    if state.phase is Phase.COLOURS:
        return Message("prompt", P + "prompt.colours",
                       {"types": TYPES_IN_PLAY[n], "n": len(LEAVES) - TYPES_IN_PLAY[n]},
                       priority=p)
    if state.phase is Phase.OBJECTIVES and isinstance(pending, Objectives):
        # Named in parts (adapter.pending): the list so far, as a scanned one is read back.
        named = pending.objectives
        return Message("prompt", P + "scan.objectives_so_far",
                       {"cards": [objective(o) for o in named], "n": tokens_for(n) - len(named)},
                       {"purpose": "objectives", "cards": [o.value for o in named],
                        "missing": tokens_for(n) - len(named)}, p)
    if state.phase is Phase.OBJECTIVES:
        return Message("prompt", P + "prompt.objectives", {"n": tokens_for(n)}, priority=p)
    if state.phase is Phase.GARDEN:  # the example names two leaf types in play
        first, second = (state.colours + LEAVES)[:2]
        return Message("prompt", P + "prompt.garden",
                       {"first": colour(first), "second": colour(second)}, priority=p)
    return Message("prompt", P + "prompt.pile", priority=p)  # Phase.PILE, the last one


def _turn_prompt(state: State, names: Names) -> Message:
    """What the player whose turn it is may do now, by how far the turn has gone."""
    p = Priority.PROMPT
    player = names[state.to_move]
    turn = state.turn
    data = {"player": player}
    if turn.effect is not None:  # asked last, so it is the last thing heard
        return Message("prompt", P + "prompt.effect", {"player": player, "card": turn.effect},
                       data, p)
    if turn.main == "reveal":
        return Message("prompt", P + "prompt.collect", {"player": player}, data, p)
    if turn.main is None:
        key = "prompt.main" if can_do_main(state) else "prompt.stuck"
        return Message("prompt", P + key, {"player": player}, data, p)
    return Message("prompt", P + "prompt.after_main", {"player": player, **_after_main(state)},
                   data, p)


def _after_main(state: State) -> dict[str, Any]:
    """The hints of the prompt once the main action is done: what is still left to do."""
    me = state.players[state.to_move]
    turn = state.turn
    virtual = state.virtual  # practice: no acorn icons, no landscapes, discards named
    bonus = m("hint_bonus") if turn.several and not turn.bonus and not virtual else m("blank")
    excess = me.hand.size - HAND_LIMIT
    limit = m("hint_limit_name" if virtual else "hint_limit", hand=me.hand.size, n=excess
              ) if excess > 0 else m("blank")
    optional = (m("blank") if turn.optional
                else m("hint_optional_trade" if virtual else "hint_optional"))
    # what may still be said, for the short form ("Ana: landscape, trade or end.")
    free = not turn.optional
    landscape = free and not virtual and me.acorns >= 1 and len(me.landscapes) < LANDSCAPES
    options = [m(f"option.{o}") for o, left in (
        ("bonus", turn.several and not turn.bonus and not virtual), ("landscape", landscape),
        ("trade", free and me.hand.size >= 2), ("end", True)) if left]
    return {"bonus": bonus, "limit": limit, "optional": optional,
            "options": Alternatives(options)}


def events(evs: Sequence[Event], state: State, names: Names) -> list[Message]:
    out: list[Message] = []
    for ev in evs:
        out.extend(_event(ev, state, names))
    return out


def _event(ev: Event, state: State, names: Names) -> list[Message]:
    handler = _EVENTS.get(type(ev))
    return handler(ev, state, names) if handler else []


# One small handler per event kind: each says its event (and what follows from it).
def _colours_chosen(ev: ColoursChosen, state: State, names: Names) -> list[Message]:
    return [Message("setup", P + "colours_chosen",
                    {"colours": [colour(c) for c in ev.colours]},
                    {"colours": [c.value for c in ev.colours]})]


def _objectives_revealed(ev: ObjectivesRevealed, state: State, names: Names) -> list[Message]:
    return [Message("setup", P + "objectives_revealed",
                    {"objectives": [objective(o) for o in ev.objectives]},
                    {"objectives": [o.value for o in ev.objectives]})]


def _dealt(ev: Dealt, state: State, names: Names) -> list[Message]:
    return [Message("setup", P + "dealt", {"cards": ev.cards, "hand": ev.hand, "n": ev.cards})]


def _garden_laid(ev: GardenLaid, state: State, names: Names) -> list[Message]:
    return [Message("setup", P + "garden_laid", {"garden": garden(state)},
                    {"garden": _garden_data(state)})]


def _pile_counted(ev: PileCounted, state: State, names: Names) -> list[Message]:
    if ev.count is None:
        return [Message("setup", P + "pile_unknown", data={"pile": None})]
    return [Message("setup", P + "pile_counted", {"n": ev.count}, {"pile": ev.count})]


def _turn_started(ev: TurnStarted, state: State, names: Names) -> list[Message]:
    me = state.players[ev.player]
    key = "last_turn" if ev.last else "turn_start"
    # not "turn" (the answer to "whose turn", said whole): said short once heard
    return [Message("turn_start", P + key,
                    {"player": names[ev.player], "acorns": me.acorns, "hand": me.hand.size,
                     "n": me.hand.size},
                    {"player": names[ev.player], "last": ev.last})]


def _revealed(ev: Revealed, state: State, names: Names) -> list[Message]:
    who = names[ev.player]
    out = [Message("revealed", P + "revealed",
                   {"player": who, "cards": cards(ev.cards), "leaves": leaves(ev.cards),
                    "acorns": state.players[ev.player].acorns},
                   {"player": who, "cards": [c.text() for c in ev.cards]})]
    if ev.discarded:
        out.append(Message("discarded", P + "overflow", {"cards": cards(ev.discarded),
                                                         "leaves": leaves(ev.discarded)}))
    if ev.pile is not None:
        out.append(Message("pile", P + "pile_left", {"n": ev.pile}, {"pile": ev.pile}))
    out.append(Message("garden", P + "garden_now", {"garden": garden(state)},
                       {"garden": _garden_data(state)}))
    return out


def _collected(ev: Collected, state: State, names: Names) -> list[Message]:
    who = names[ev.player]
    return [Message("collected", P + "collected",
                    {"player": who, "colour": colour(ev.colour), "cards": cards(ev.cards),
                     "leaves": leaves(ev.cards), "hand": ev.hand, "n": len(ev.cards)},
                    {"player": who, "cards": [c.text() for c in ev.cards], "hand": ev.hand})]


def _placed(ev: Placed, state: State, names: Names) -> list[Message]:
    who = names[ev.player]
    key = "placed_extra" if ev.extra else "placed"
    out = [Message("played", P + key, {"player": who, "cards": cards(ev.cards),
                                       "leaves": leaves(ev.cards)},
                   {"player": who, "cards": [c.text() for c in ev.cards]})]
    for i, closed in enumerate(ev.closed):
        took = i < ev.torii  # fewer torii than closed piles when none are left
        out.append(Message("closed", P + ("closed_torii" if took else "closed_no_torii"),
                           {"player": who, "colour": colour(closed),
                            "n": state.torii if took else 0},
                           {"player": who, "colour": closed.value, "torii": took}))
    return out


def _bonus_taken(ev: BonusTaken, state: State, names: Names) -> list[Message]:
    who = names[ev.player]
    return [Message("bonus", P + "bonus",
                    {"player": who, "n": ev.connections, "gain": 2 * ev.connections,
                     "acorns": ev.acorns},
                    {"player": who, "acorns": ev.acorns})]


def _activated(ev: Activated, state: State, names: Names) -> list[Message]:
    who = names[ev.player]
    return [Message("objective", P + "activated",
                    {"player": who, "objective": objective(ev.objective), "n": ev.acorns,
                     "cost": OBJECTIVE_COST},
                    {"player": who, "objective": ev.objective.value, "acorns": ev.acorns})]


def _landscape_used(ev: LandscapeUsed, state: State, names: Names) -> list[Message]:
    who = names[ev.player]  # then the prompt asks for its effect
    return [Message("landscape", P + "landscape",
                    {"player": who, "card": ev.card, "n": ev.acorns},
                    {"player": who, "landscape": ev.card, "acorns": ev.acorns})]


def _traded(ev: Traded, state: State, names: Names) -> list[Message]:
    who = names[ev.player]
    key = "traded_named" if ev.cards else "traded"
    return [Message("traded", P + key,
                    {"player": who, "cards": cards(ev.cards or ()),
                     "leaves": leaves(ev.cards or ()), "n": ev.acorns},
                    {"player": who, "acorns": ev.acorns})]


def _gained(ev: Gained, state: State, names: Names) -> list[Message]:
    who = names[ev.player]
    key = "gained" if ev.change > 0 else "lost"
    return [Message("acorns", P + key,
                    {"player": who, "change": abs(ev.change), "n": ev.acorns},
                    {"player": who, "acorns": ev.acorns})]


def _drew(ev: Drew, state: State, names: Names) -> list[Message]:
    who = names[ev.player]
    return [Message("drew", P + "drew", {"player": who, "n": ev.count, "hand": ev.hand},
                    {"player": who, "hand": ev.hand})]


def _pile_emptied(ev: PileEmptied, state: State, names: Names) -> list[Message]:
    return [Message("pile", P + "pile_emptied", data={"pile": 0})]


def _end_triggered(ev: EndTriggered, state: State, names: Names) -> list[Message]:
    who = names[ev.player]
    return [Message("end_triggered", P + f"end_{ev.reason}", {"player": who},
                    {"player": who, "reason": ev.reason})]


def _turn_ended(ev: TurnEnded, state: State, names: Names) -> list[Message]:
    who = names[ev.player]
    out = []
    if ev.discarded:
        out.append(Message("discarded", P + "limit_discard",
                           {"player": who, "n": ev.discarded, "limit": HAND_LIMIT}))
    out.append(Message("turn_ended", P + "turn_end",
                       {"player": who, "hand": ev.hand, "acorns": ev.acorns, "n": ev.hand},
                       {"player": who, "hand": ev.hand, "acorns": ev.acorns}))
    return out


def _game_over(ev: GameOver, state: State, names: Names) -> list[Message]:
    return final(ev.scores, names)


# Keyed on the exact event class (events are final dataclasses, never subclassed).
_EVENTS: dict[type, Callable[[Any, State, Names], list[Message]]] = {
    ColoursChosen: _colours_chosen,
    ObjectivesRevealed: _objectives_revealed,
    Dealt: _dealt,
    GardenLaid: _garden_laid,
    PileCounted: _pile_counted,
    TurnStarted: _turn_started,
    Revealed: _revealed,
    Collected: _collected,
    Placed: _placed,
    BonusTaken: _bonus_taken,
    Activated: _activated,
    LandscapeUsed: _landscape_used,
    Traded: _traded,
    Gained: _gained,
    Drew: _drew,
    PileEmptied: _pile_emptied,
    EndTriggered: _end_triggered,
    TurnEnded: _turn_ended,
    GameOver: _game_over,
}


def score_lines(scores: Scores, names: Names, key: str) -> list[Message]:
    out = []
    for i, name in enumerate(names):
        objective_points = sum(r.points[i] for r in scores.objectives)
        out.append(Message("score", P + key,
                           {"player": name, "piles": scores.piles[i], "acorns": scores.acorns[i],
                            "objectives": objective_points, "total": scores.totals[i],
                            "hand": scores.hands[i]},
                           {"player": name, "points": scores.totals[i]}))
    return out


def objective_lines(scores: Scores, names: Names) -> list[Message]:
    out = []
    for r in scores.objectives:
        owner = names[r.owner]
        if not r.achievers:
            detail = m("nobody")
        else:
            detail = [m("achiever", player=names[i], points=r.points[i]) for i in r.achievers]
        values = [m("measure", player=names[i], value=v) for i, v in enumerate(r.values)]
        out.append(Message("objective_scored", P + "objective_scored",
                           {"objective": objective(r.objective), "owner": owner,
                            "values": values, "detail": detail},
                           {"objective": r.objective.value, "owner": owner,
                            "achievers": [names[i] for i in r.achievers]}))
    return out


def final(scores: Scores, names: Names) -> list[Message]:
    out = objective_lines(scores, names) + score_lines(scores, names, "final_line")
    data = {"points": {n: scores.totals[i] for i, n in enumerate(names)},
            "winners": [names[w] for w in scores.winners], "reason": scores.reason,
            "hands": {n: scores.hands[i] for i, n in enumerate(names)}}
    winners = [names[w] for w in scores.winners]
    best = scores.totals[scores.winners[0]]
    if len(winners) == 1:
        out.append(Message("game_over", P + f"win_{scores.reason}",
                           {"player": winners[0], "points": best,
                            "hand": scores.hands[scores.winners[0]]}, data))
    else:
        out.append(Message("game_over", P + "win_shared",
                           {"players": winners, "points": best}, data))
    return out


def describe(action: Action, actor: int, names: Names) -> Message:
    """A short description of an accepted step, for undo ("Undone: Ana playing green 3")."""
    # Set-up steps are said with what they set, so a question or an undo is clear.
    if isinstance(action, Colours):
        return m("step.colours", colours=[colour(c) for c in action.colours])
    if isinstance(action, Objectives):
        return m("step.objectives", objectives=[objective(o) for o in action.objectives])
    if isinstance(action, Garden):
        return m("step.garden", cards=cards(action.cards))
    if isinstance(action, PileSize):
        if action.count is None:
            return m("step.pileunknown")
        return m("step.pilesize", n=action.count)
    if actor == TABLE:
        return m("step.setup")
    player = names[actor]
    kind = type(action).__name__.lower()
    if isinstance(action, Reveal) and not action.cards:
        kind = "reveal_dealt"  # practice: the companion took them from its deck
    params: dict[str, Any] = {"player": player}
    if isinstance(action, (Reveal, Play, Place)):
        params["cards"] = cards(action.cards)
    elif isinstance(action, Collect):
        params["colour"] = colour(action.colour)
    elif isinstance(action, Activate):
        params["objective"] = objective(action.objective)
    elif isinstance(action, Landscape):
        params["card"] = action.card
    return m(f"step.{kind}", **params)


def query(q: Query, state: State, names: Names) -> list[Message]:
    if q is Query.SCORE:
        if state.phase is not Phase.TURN and state.scores is None:
            return [Message("score", P + "no_score_yet")]
        if state.scores is not None:
            return score_lines(state.scores, names, "final_line")
        return score_lines(final_scores(state), names, "score_line")
    if q is Query.BOARD:
        return board(state, names)
    if q is Query.ACTIONS:
        return actions(state, names)
    if q is Query.UNSEEN:
        key = "unseen_unknown" if state.pile is None else "unseen"
        return [Message("unseen", P + key, {"n": state.pile or 0, "discard": state.discard})]
    if q is Query.TURN:
        if state.phase is Phase.OVER:
            return [Message("turn", "game_is_over")]
        if state.phase is not Phase.TURN:
            return [Message("turn", P + "setup_turn")]
        return [Message("turn", "whose_turn", {"player": names[state.to_move]})]
    if q is Query.HELP:
        return [Message("help", P + f"help.{state.phase.value}")]
    return []


def _pile_words(values: tuple[int, ...]) -> str:
    return _values(values)


def board(state: State, names: Names) -> list[Message]:
    if state.phase in (Phase.COLOURS, Phase.OBJECTIVES, Phase.GARDEN):
        return [Message("board", P + "no_board_yet")]
    out = [Message("board", P + "board_garden",
                   {"garden": garden(state), "torii": state.torii,
                    "pile": state.pile if state.pile is not None else m("not_counted"),
                    "discard": state.discard})]
    for i, p in enumerate(state.players):
        piles = [m("pile", colour=colour(c), values=_pile_words(p.pile(c)),
                   n=len(p.pile(c))) for c in LEAVES if p.pile(c)]
        owned = [objective(o) for o in p.objectives]
        out.append(Message("board", P + "board_player",
                           {"player": names[i], "piles": piles or m("no_piles"),
                            "acorns": p.acorns, "hand": p.hand.size, "torii": p.torii,
                            "n": p.hand.size,
                            "objectives": owned or m("none"),
                            "landscapes": LANDSCAPES - len(p.landscapes)}))
    if state.available:
        out.append(Message("board", P + "board_available",
                           {"objectives": [objective(o) for o in state.available]}))
    return out


def actions(state: State, names: Names) -> list[Message]:
    if state.phase is not Phase.TURN:
        return prompt(state, names)
    me = state.players[state.to_move]
    unused = [n for n in range(1, LANDSCAPES + 1) if n not in me.landscapes]
    return [Message("actions", P + "actions",
                    {"player": names[state.to_move],
                     "main": m("main_done" if state.turn.main not in (None, "reveal")
                               else "main_open"),
                     "optional": m("optional_done" if state.turn.optional else "optional_open"),
                     "landscapes": unused or m("none"),
                     "objectives": [objective(o) for o in state.available] or m("none"),
                     "acorns": me.acorns, "hand": me.hand.size})]
