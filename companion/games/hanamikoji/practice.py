"""Hanamikoji's practice hook: a game by ear against the computer, and hints.

The companion is the dealer: each round's deal comes from the game's seed and the round
number, and each opponent choice from the seed and the step number, so a seed replays
the same game, an undone step is played again the same way, and a resumed game (whose
config keeps the seed) goes on as it would have. The opponent decides from its seat's
Observation only (opponent.py). Hints suggest what the `strong` level would play (on a
smaller budget), with a one-sentence reason, from the asking seat's Observation only.
"""

from __future__ import annotations

import random
import re
from collections import Counter
from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from companion.games.hanamikoji import hints, opponent
from companion.games.hanamikoji.actions import (
    Action,
)
from companion.games.hanamikoji.data import ITEMS
from companion.games.hanamikoji.rules import Phase, State
from companion.games.hanamikoji.simulate import random_deal
from companion.narrate.catalogue import CardCount
from companion.narrate.message import Message
from companion.shared_words import HAND_WORDS

# "card 3": a card named by its place in the sorted hand, in the four languages. At most
# three digits (no hand holds 1,000 cards): a longer number is left to the interpreter,
# which says the range of card positions.
_PLACE = re.compile(r"\b(?:card|carte|carta|карта|карту)\s+(\d{1,3})\b", re.IGNORECASE)
HINT_ITERATIONS = 400
# `hint` is a shared command (companion.shared_words): the session asks `hint` below.
_WORDS = {"hand": {w for words in HAND_WORDS.values() for w in words}}


class Practice:
    """The `practice()` hook of companion.games.protocol."""

    levels = opponent.LEVELS

    def config(self) -> dict[str, Any]:
        """The companion deals, so every hand is known: the rules check each card played."""
        return {"full_information": True}

    def chance(self, state: State, config: Mapping[str, Any]) -> Action | None:
        """The deal due now (from the seed and the round), or None."""
        if state.phase is not Phase.DEAL:
            return None
        seed = config["practice"]["seed"]
        return random_deal(random.Random(f"{seed}:deal:{state.round}"))

    def decide(self, state: State, seat: int, config: Mapping[str, Any], step: int) -> Action:
        """The opponent's action, from its own observation (seeded by the step number)."""
        settings = config["practice"]
        rng = random.Random(f"{settings['seed']}:move:{step}")
        return opponent.decide(opponent.observe(state, seat), settings["level"], rng)

    def word(self, line: str) -> str | None:
        """"hand" when the line is one of its words (any language), else None."""
        text = line.strip().lower()
        return next((name for name, words in _WORDS.items() if text in words), None)

    def resolve(self, line: str, state: State, seat: int) -> str:
        """The line with each "card N" replaced by the Nth card of the sorted hand (a
        place beyond the hand is left for the interpreter to refuse)."""
        hand = opponent.observe(state, seat).hand
        if (not line.strip() and state.phase is Phase.REVEAL and state.to_move == seat
                and state.players[seat].secret is not None):
            return "reveal"  # Enter alone reveals the Secret the companion knows

        def card(match: re.Match[str]) -> str:
            n = int(match.group(1))
            return hand[n - 1].word if 1 <= n <= len(hand) else match.group(0)
        return _PLACE.sub(card, line)

    def hand(self, state: State, seat: int) -> list[Message]:
        """The seat's hand, sorted by geisha, numbered as "card N" counts, for that seat."""
        obs = opponent.observe(state, seat)
        if not obs.hand:
            return [Message("hand", "practice_hand_empty", private_to=seat)]
        return [Message("hand", "practice_hand", {"cards": obs.hand, "n": len(obs.hand)},
                        private_to=seat)]

    def hint(self, state: State, seat: int) -> list[Message]:
        return hint(state, seat)

    def drawn(self, state: State, seat: int) -> list[Message]:
        """The card the seat draws at its turn, said to that seat: "You draw the fan"."""
        obs = opponent.observe(state, seat)
        if obs.drawn is None or state.phase is not Phase.ACTION or state.to_move != seat:
            return []
        return [Message("hand", "practice_draw", {"card": obs.drawn}, private_to=seat)]

    def help(self) -> list[Message]:
        """What practice adds to the help: cards named by their place ("card 3")."""
        return [Message("help", "practice_help_cards")]

    def unseen(self, state: State, seat: int) -> list[Message]:
        """What `seat` has not seen this round: the table's unseen cards less their own
        hand, Secret and Discard (they know those)."""
        left = Counter(opponent.unseen_cards(opponent.observe(state, seat)))
        counts = [CardCount(item, left[item]) for item in ITEMS if left[item]]
        return [Message("unseen", "practice_unseen", {"cards": counts, "n": sum(left.values())})]

    def reword(self, message: Message) -> Message:
        """A table's instruction the companion carries out itself here (the shuffle and
        deal at a round's start, the draw at each turn), said as done."""
        if message.key in ("round_start", "turn"):
            return replace(message, key=f"practice_{message.key}")
        return message


def hint(state: State, seat: int) -> list[Message]:
    """A suggested action with its reason, for `seat`'s own channel; or what is missing."""
    obs = opponent.observe(state, seat)
    if state.over or state.phase is Phase.DEAL or state.to_move != seat:
        return [Message("hint", "hint_not_your_turn", private_to=seat)]
    if not obs.complete:
        return [Message("hint", "hint_needs_hand", {"n": obs.unknown_in_hand}, private_to=seat)]
    if obs.untold_face_down:
        return [Message("hint", "hint_needs_face_down", {"n": obs.untold_face_down},
                        private_to=seat)]
    # the strong level's choice, its samples seeded by what the seat knows (same hint for
    # the same knowledge, whatever the hidden cards are)
    rng = random.Random(repr(obs))
    action = opponent.strong_choice(obs, opponent.legal(obs), rng, HINT_ITERATIONS)
    return [Message("hint", *hints.reason(action, obs), private_to=seat)]
