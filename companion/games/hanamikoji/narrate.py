"""Hanamikoji events and states as Messages (language-free; see companion/locales)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from companion.games.hanamikoji.actions import (
    Action,
    Competition,
    Deal,
    Discard,
    Gift,
    Reveal,
    Secret,
    TakeGift,
    TakePair,
)
from companion.games.hanamikoji.data import GEISHAS, ITEMS, Token
from companion.games.hanamikoji.interpret import Choose
from companion.games.hanamikoji.rules import (
    Dealt,
    Event,
    GameOver,
    Offered,
    Phase,
    Played,
    PrivateDropped,
    Revealed,
    RoundScored,
    RoundStarted,
    State,
    Took,
)
from companion.narrate.catalogue import Alternatives, CardCount, Sentences
from companion.narrate.message import Message, Priority
from companion.shared_commands import Query

Names = Sequence[str]


def _tokens_left(state: State, player: int) -> list[Token]:
    return sorted(state.players[player].tokens)


def start(state: State, names: Names) -> list[Message]:
    return [
        Message("game_started", "game_start",
                {"a": names[0], "b": names[1], "rules": Message("", f"rules_{state.rules.value}")},
                {"players": list(names), "rules": state.rules.value}),
        *round_start(state, names),
    ]


def round_start(state: State, names: Names) -> list[Message]:
    return [Message("round_started", "round_start",
                    {"round": state.round, "player": names[state.starter]},
                    {"round": state.round, "starter": names[state.starter]})]


def prompt(state: State, names: Names, pending: Any = None) -> list[Message]:
    """What the companion expects now, as a prompt."""
    p = Priority.PROMPT
    if state.phase is Phase.OVER:
        return [Message("prompt", "game_is_over", priority=p)]
    if state.phase is Phase.DEAL:
        return [Message("prompt", "deal_prompt", priority=p)]
    player = names[state.to_move]
    if state.phase is Phase.REVEAL:
        return [Message("prompt", "reveal_prompt", {"player": player}, priority=p)]
    if state.phase is Phase.ANSWER:
        if isinstance(state.offer, Gift):
            return [Message("prompt", "answer_gift", {"player": player}, priority=p)]
        return [Message("prompt", "answer_competition", {"player": player}, priority=p)]
    if pending is not None and pending.cards:
        hidden = pending.token in (Token.SECRET, Token.DISCARD)  # face down: theirs alone
        return [Message("prompt", f"more_for_{pending.token.word}",
                        {"player": player, "cards": pending.cards, "n": pending.missing},
                        priority=p, private_to=state.to_move if hidden else None)]
    if pending is not None:
        return [Message("prompt", f"cards_for_{pending.token.word}", {"player": player},
                        priority=p)]
    left = _tokens_left(state, state.to_move)
    params = {"player": player, "tokens": Alternatives(left), "n": len(left)}
    return [Message("prompt", "turn", params, {"player": player}, priority=p)]


def events(evs: Sequence[Event], state: State, names: Names) -> list[Message]:
    out: list[Message] = []
    for ev in evs:
        out.extend(_event(ev, state, names))
    if state.phase is Phase.REVEAL and not any(isinstance(ev, Revealed) for ev in evs):
        # the round's last action: said once, before the reveal prompts
        out.append(Message("all_played", "all_played"))
    return out


def _event(ev: Event, state: State, names: Names) -> list[Message]:
    if isinstance(ev, Played):
        key = "played_secret" if isinstance(ev.action, Secret) else "played_discard"
        kind = "secret" if isinstance(ev.action, Secret) else "discard"
        msgs = [Message("played", key, {"player": names[ev.player]},
                        {"player": names[ev.player], "action": kind})]
        private = ev.action.card if isinstance(ev.action, Secret) else ev.action.cards
        if private:
            msgs.append(Message("private", f"{key}_private", {"cards": private},
                                private_to=ev.player))
        return msgs
    if isinstance(ev, Offered):
        other = names[1 - ev.player]
        if isinstance(ev.action, Gift):
            return [Message("offer", "offer_gift",
                            {"player": names[ev.player], "cards": ev.action.cards, "other": other},
                            {"player": names[ev.player], "command": ev.action.text()})]
        first, second = ev.action.pairs
        return [Message("offer", "offer_competition",
                        {"player": names[ev.player], "first": first, "second": second,
                         "other": other},
                        {"player": names[ev.player], "command": ev.action.text()})]
    if isinstance(ev, Took):
        return [Message("took", "took",
                        {"chooser": names[ev.chooser], "received": ev.received,
                         "offerer": names[ev.offerer], "kept": ev.kept},
                        {"player": names[ev.chooser],
                         "received": [c.word for c in ev.received],
                         "kept": [c.word for c in ev.kept]})]
    if isinstance(ev, Revealed):
        return [Message("revealed", "revealed", {"player": names[ev.player], "card": ev.card},
                        {"player": names[ev.player], "card": ev.card.word})]
    if isinstance(ev, PrivateDropped):  # to that player alone: never the table
        key = ("private_secret_revealed" if ev.revealed is not None
               else f"private_{ev.place}_dropped")
        return [Message("private", key, {"card": ev.card, "revealed": ev.revealed},
                        private_to=ev.player)]
    if isinstance(ev, RoundScored):
        return scoring(ev, names)
    if isinstance(ev, GameOver):
        return [game_over(ev, state, names)]
    if isinstance(ev, RoundStarted):
        return [Message("round_started", "round_start",
                        {"round": ev.round, "player": names[ev.starter]},
                        {"round": ev.round, "starter": names[ev.starter]})]
    if isinstance(ev, Dealt):
        return [Message("dealt", "dealt", {"round": ev.round})]
    return []


def _holder(holder: int | None, names: Names) -> str | None:
    return None if holder is None else names[holder]


def scoring(ev: RoundScored, names: Names) -> list[Message]:
    out = []
    for item, geisha, before, after in zip(ITEMS, GEISHAS, ev.before, ev.favours, strict=True):
        a, b = ev.sides[0][item - 1], ev.sides[1][item - 1]
        if after is None:
            favour = Message("", "favour_centre")
        elif after != before:
            favour = Message("", "favour_to", {"player": names[after]})
        else:
            favour = Message("", "favour_stays", {"player": names[after]})
        out.append(Message("geisha", "geisha_scored",
                           {"geisha": geisha, "card": item, "a": names[0], "na": a,
                            "b": names[1], "nb": b, "favour": favour}))
    data = {
        "round": ev.round,
        "points": {names[0]: ev.points[0], names[1]: ev.points[1]},
        "geishas": {names[0]: ev.geishas[0], names[1]: ev.geishas[1]},
        "favors": {g.colour.value: _holder(h, names) for g, h in zip(GEISHAS, ev.favours,
                                                                     strict=True)},
    }
    out.append(Message("round_scored", "round_scored",
                       {"round": ev.round, "a": names[0], "ga": ev.geishas[0],
                        "pa": ev.points[0], "b": names[1], "gb": ev.geishas[1],
                        "pb": ev.points[1]}, data))
    return out


def game_over(ev: GameOver, state: State, names: Names) -> Message:
    geishas, points = state.geishas(), state.points()
    data = {"winners": [names[w] for w in ev.winners], "reason": ev.reason,
            "points": {names[0]: points[0], names[1]: points[1]},
            "geishas": {names[0]: geishas[0], names[1]: geishas[1]}}
    if len(ev.winners) == 1:
        w = ev.winners[0]
        return Message("game_over", f"win_{ev.reason}",
                       {"player": names[w], "points": points[w], "geishas": geishas[w]}, data)
    if not ev.winners:
        return Message("game_over", "no_winner", {"points": points[0]}, data)
    return Message("game_over", "shared_win", {"a": names[0], "b": names[1]}, data)


def describe(action: Action | Choose, actor: int, names: Names) -> Message:
    """A short description of an accepted step, for undo ("Undone: Ana's gift"), or of a
    proposed one (a question about a begun offer)."""
    player = names[actor]
    if isinstance(action, Secret):
        return Message("", "step_secret", {"player": player})
    if isinstance(action, Discard):
        return Message("", "step_discard", {"player": player})
    if isinstance(action, Gift):
        return Message("", "step_gift", {"player": player, "cards": action.cards})
    if isinstance(action, Competition):
        return Message("", "step_competition", {"player": player})
    if isinstance(action, TakeGift):
        return Message("", "step_take", {"player": player, "cards": action.card})
    if isinstance(action, TakePair):
        return Message("", "step_take_pair", {"player": player, "pair": action.index + 1})
    if isinstance(action, Reveal):
        return Message("", "step_reveal", {"player": player, "card": action.card})
    if isinstance(action, Choose):  # a begun offer, asked about before it is kept
        return Message("", f"step_begun_{action.token.word}",
                       {"player": player, "cards": action.cards, "n": action.missing})
    assert isinstance(action, Deal)
    return Message("", "step_deal")


def _offer_waiting(state: State, names: Names) -> list[Message]:
    """The offer on the table that awaits the other player's choice, if any."""
    if state.phase is not Phase.ANSWER or state.offer is None:
        return []
    people = {"player": names[state.actor], "other": names[state.to_move]}
    if isinstance(state.offer, Gift):
        return [Message("", "board_offer_gift", {**people, "cards": state.offer.cards})]
    first, second = state.offer.pairs
    return [Message("", "board_offer_competition", {**people, "first": first, "second": second})]


def query(q: Query, state: State, names: Names) -> list[Message]:
    geishas, points = state.geishas(), state.points()
    if q is Query.SCORE:
        return [Message("score", "score",
                        {"round": state.round, "a": names[0], "ga": geishas[0], "pa": points[0],
                         "b": names[1], "gb": geishas[1], "pb": points[1]})]
    if q is Query.BOARD:
        # As short as it can be while complete: geishas with nothing are named together.
        parts: list[Message] = []
        empty = []
        for item, geisha, holder in zip(ITEMS, GEISHAS, state.favours, strict=True):
            a, b = state.players[0].side[item - 1], state.players[1].side[item - 1]
            if a == b == 0 and holder is None:
                empty.append(geisha)
                continue
            marker = (Message("", "marker_centre") if holder is None
                      else Message("", "marker_with", {"player": names[holder]}))
            parts.append(Message("", "board_geisha",
                                 {"geisha": geisha, "card": item, "a": names[0], "na": a,
                                  "b": names[1], "nb": b, "marker": marker}))
        if empty:
            parts.append(Message("", "board_empty", {"geishas": empty, "n": len(empty)}))
        parts.extend(_offer_waiting(state, names))
        return [Message("board", "board", {"geishas": Sentences(parts)})]
    if q is Query.ACTIONS:
        return [Message("actions", "actions_left",
                        {"a": names[0], "ta": _tokens_left(state, 0),
                         "b": names[1], "tb": _tokens_left(state, 1)})]
    if q is Query.UNSEEN:
        unseen = state.unseen()
        counts = [CardCount(item, n) for item, n in unseen.items() if n > 0]
        return [Message("unseen", "unseen", {"cards": counts, "n": sum(unseen.values())})]
    if q is Query.TURN:
        if state.phase is Phase.OVER:
            return [Message("turn", "game_is_over")]
        return [Message("turn", "whose_turn", {"player": names[state.to_move]})]
    if q is Query.HELP:
        return [Message("help", f"help_{state.phase.value}"), positions()]
    return []


def positions() -> Message:
    """Which card each position number names (the geishas' order on the table)."""
    return Message("help", "help_positions", {"positions": tuple(
        Message("", "position_card", {"pos": int(item), "card": item, "geisha": geisha})
        for item, geisha in zip(ITEMS, GEISHAS, strict=True))})


def explain(subject: str, state: State, names: Names) -> list[Message]:
    """"position 3", "what is 3": the card at that position, and its geisha."""
    if not (subject.isdigit() and 1 <= int(subject) <= len(ITEMS)):
        return []
    item, geisha = ITEMS[int(subject) - 1], GEISHAS[int(subject) - 1]
    return [Message("help", "position_is", {"pos": int(item), "card": item, "geisha": geisha})]
