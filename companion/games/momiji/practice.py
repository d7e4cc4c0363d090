"""Momiji's practice hook: a game by ear against 1 to 3 computer players, and hints.

The companion is the dealer, with a virtual deck (simulate.deck: the seed does not say
how many leaves of each value a box holds, so 3, 3, 2 and 2 of the values 0 to 3 per
type are assumed, and said in docs/practice.md). The leaf types, the objective tokens
and the deal come from the game's seed; each computer choice from the seed and the step
number, so a seed replays the same game, an undone move followed by the same move gets
the same replies, and a resumed game goes on as it would have. A computer player decides
from its seat's Observation only (opponent.py). The seed defines neither the landscape
abilities nor the acorn icons of the leaves, so a practice game has no landscapes and no
harvest bonus (rules.State.virtual).
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Mapping
from dataclasses import replace
from typing import Any

from companion.games.momiji import narrate, opponent
from companion.games.momiji.actions import (
    Action,
    Activate,
    Collect,
    End,
    Play,
    Reveal,
    Trade,
)
from companion.games.momiji.data import (
    FIRST_ACORNS,
    HAND_LIMIT,
    HAND_SIZE,
    OTHER_ACORNS,
    Leaf,
    Objective,
)
from companion.games.momiji.rules import TABLE, Phase, State, Turn, apply, measure
from companion.narrate.message import Message
from companion.shared_words import HAND_WORDS

HINT_PLAYOUTS = 60
# "card 3": a card named by its place in the sorted hand, in the four languages.
_PLACE = re.compile(r"\b(?:card|carte|carta|карта|карту)\s+(\d+)\b", re.IGNORECASE)
_HAND_WORDS = {w for words in HAND_WORDS.values() for w in words}
P = "momiji."


class Practice:
    """The `practice()` hook of companion.games.protocol."""

    levels = opponent.LEVELS

    def config(self) -> dict[str, Any]:
        """Nothing to add: the deal (a step of the game) makes every hand known."""
        return {}

    def chance(self, state: State, config: Mapping[str, Any]) -> Action | None:
        """The set-up step due now (leaf types, objective tokens, the deal), or None."""
        if state.to_move != TABLE or state.phase not in (
                Phase.COLOURS, Phase.OBJECTIVES, Phase.GARDEN):
            return None
        seed = config["practice"]["seed"]
        colours, objectives, deal = opponent.deal(state.count, random.Random(f"{seed}:deal"))
        return {Phase.COLOURS: colours, Phase.OBJECTIVES: objectives,
                Phase.GARDEN: deal}[state.phase]

    def decide(self, state: State, seat: int, config: Mapping[str, Any], step: int) -> Action:
        """A computer player's action, from its own observation (seeded by the step)."""
        settings = config["practice"]
        rng = random.Random(f"{settings['seed']}:move:{step}")
        return opponent.decide(opponent.observe(state, seat), settings["level"], rng)

    def word(self, line: str) -> str | None:
        """"hand" when the line is one of its words (any language), else None."""
        return "hand" if line.strip().lower() in _HAND_WORDS else None

    def resolve(self, line: str, state: State, seat: int) -> str:
        """The line with each "card N" replaced by the Nth card of the sorted hand."""
        hand = _hand(state, seat)

        def card(match: re.Match[str]) -> str:
            n = int(match.group(1))
            return hand[n - 1].text() if 1 <= n <= len(hand) else match.group(0)
        return _PLACE.sub(card, line)

    def hand(self, state: State, seat: int) -> list[Message]:
        """The seat's hand, sorted by type then value, for that seat only."""
        if not state.virtual:
            return []
        cards = _hand(state, seat)
        if not cards:
            return [Message("hand", P + "practice_hand_empty", private_to=seat)]
        return [Message("hand", P + "practice_hand",
                        {"cards": narrate.cards(cards), "n": len(cards)}, private_to=seat)]

    def hint(self, state: State, seat: int) -> list[Message]:
        return hint(state, seat)

    def drawn(self, state: State, seat: int) -> list[Message]:
        """At the start of each of the seat's turns, its hand (Momiji has no draw)."""
        if state.phase is not Phase.TURN or state.to_move != seat or state.turn != Turn():
            return []
        return [] if _just_dealt(state) else self.hand(state, seat)

    def help(self) -> list[Message]:
        return [Message("help", P + "practice_help")]

    def reword(self, message: Message) -> Message:
        """The set-up a table does by hand, said as done by the companion."""
        if message.key == P + "game_start":
            return replace(message, key=P + "practice_start")
        return message


def _just_dealt(state: State) -> bool:
    """Nothing done since the deal (whose hand was said with it): every main action
    changes a hand, a pile, the acorns or the discard."""
    return state.discard == 0 and all(
        p.hand.size == HAND_SIZE and not p.placed and not p.objectives
        and p.acorns == (FIRST_ACORNS if i == 0 else OTHER_ACORNS)
        for i, p in enumerate(state.players))


def _hand(state: State, seat: int) -> tuple[Leaf, ...]:
    return state.players[seat].hand.known if state.virtual else ()


def hint(state: State, seat: int) -> list[Message]:
    """The strong level's choice (a smaller budget) for `seat`, on its own channel only."""
    if not state.virtual:
        return [Message("hint", P + "hint_table", private_to=seat)]
    if state.phase is not Phase.TURN or state.to_move != seat:
        return [Message("hint", P + "hint_not_your_turn", private_to=seat)]
    seen = opponent.observe(state, seat)
    # seeded by what the seat knows: the same hint whatever the hidden cards are
    action = opponent.decide(seen, "strong", random.Random(repr(seen)), HINT_PLAYOUTS)
    key, params = _said(action, state)
    return [Message("hint", P + key, params, private_to=seat)]


def _said(action: Action, state: State) -> tuple[str, dict[str, Any]]:
    """The hint's key and words: the move, and why, from the seat's own hand and the
    public table only (never the pile's order nor another hand: the same knowledge gives
    the same words)."""
    said = _HINTS.get(type(action))
    assert said is not None, action  # the opponent decides only these moves
    return said(action, state)


# One reason per kind of move, worked out for the move (issue 28, part 5).
def _hint_collect(action: Collect, state: State) -> tuple[str, dict[str, Any]]:
    """What the column adds to what the hand can score, or that it pays later."""
    seat = state.to_move
    me = state.players[seat]
    column = state.column(action.colour)
    after, _ = apply(state, action)
    before, then = opponent.hand_gain(state, me), opponent.hand_gain(state, after.players[seat])
    params = {"colour": narrate.colour(action.colour), "n": len(column)}
    if then > before:
        return "hint_collect", {**params, "gain": then, "before": before}
    return "hint_collect_later", params


def _hint_reveal(action: Reveal, state: State) -> tuple[str, dict[str, Any]]:
    """The largest column there is now (none: the garden is empty), and the acorns left."""
    me = state.players[state.to_move]
    largest = max((len(state.column(c)) for c in state.colours), default=0)
    return ("hint_reveal" if largest else "hint_reveal_empty",
            {"n": largest, "acorns": me.acorns - 1})


def _hint_play(action: Play, state: State) -> tuple[str, dict[str, Any]]:
    """The points the play scores now, else what it opens for the hand, else that it is ready."""
    seat = state.to_move
    me = state.players[seat]
    after, _ = apply(state, action)
    now = after.players[seat]
    params = {"cards": narrate.cards(action.cards), "n": now.pile_points() - me.pile_points()}
    if params["n"]:
        return "hint_play", params
    gain = opponent.hand_gain(after, now)  # a 0 scores nothing yet: what it opens
    return ("hint_play_opens", {**params, "gain": gain}) if gain else (
        "hint_play_ready", params)


def _hint_activate(action: Activate, state: State) -> tuple[str, dict[str, Any]]:
    """How the seat stands on the objective against the best of the others."""
    seat = state.to_move
    values = [measure(action.objective, state, i) for i in range(state.count)]
    mine = values[seat]
    others = [v for i, v in enumerate(values) if i != seat]
    fewest = action.objective is Objective.PLACED  # the one won by the fewest
    best = min(others) if fewest else max(others)
    ahead = mine < best if fewest else mine > best
    key = "hint_objective_tied" if mine == best else (
        "hint_objective" if ahead else "hint_objective_behind")
    return key, {"objective": narrate.objective(action.objective), "mine": mine,
                 "theirs": best}


def _hint_trade(action: Trade, state: State) -> tuple[str, dict[str, Any]]:
    """The acorns it brings, and what the hand could score that it gives up."""
    seat = state.to_move
    me = state.players[seat]
    after, _ = apply(state, action)
    lost = opponent.hand_gain(state, me) - opponent.hand_gain(state, after.players[seat])
    params = {"cards": narrate.cards(action.cards or ()), "acorns": me.acorns + 1}
    if lost > 0:
        return "hint_trade_costs", {**params, "n": lost}
    return "hint_trade", params


def _hint_end(action: End, state: State) -> tuple[str, dict[str, Any]]:
    """The cards over the hand limit to discard, or what the hand kept can still score."""
    me = state.players[state.to_move]
    if action.discard:
        return "hint_end_discard", {"cards": narrate.cards(action.discard),
                                    "limit": HAND_LIMIT}
    return "hint_end", {"hand": me.hand.size, "limit": HAND_LIMIT,
                        "gain": opponent.hand_gain(state, me)}


# Keyed on the exact action class (actions are final dataclasses, never subclassed).
_HINTS: dict[type, Callable[[Any, State], tuple[str, dict[str, Any]]]] = {
    Collect: _hint_collect, Reveal: _hint_reveal, Play: _hint_play, Activate: _hint_activate,
    Trade: _hint_trade, End: _hint_end,
}
