"""Seeded random games: full information inside, table commands outside.

A simulated game deals real cards and picks random legal actions; what it writes out is
what players at a table would type (Secrets and Discards unnamed, no deal). Used for
golden transcripts, property tests and benchmarks, and a first step towards an opponent.
"""

from __future__ import annotations

import random

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
from companion.games.hanamikoji.data import Item, full_deck
from companion.games.hanamikoji.rules import Phase, RuleSet, State, apply, legal_actions, new_game

_FR_ITEMS = {
    Item.FLUTE: "flûte", Item.FAN: "éventail", Item.SCROLL: "papier", Item.UMBRELLA: "ombrelle",
    Item.SHAMISEN: "luth", Item.TEA: "thé", Item.FLOWER: "fleur",
}


def random_deal(rng: random.Random) -> Deal:
    cards = full_deck()
    rng.shuffle(cards)
    return Deal(cards[0], (tuple(cards[1:7]), tuple(cards[7:13])), tuple(cards[13:]))


def random_game(seed: int, rules: RuleSet = RuleSet.IELLO) -> list[tuple[State, Action]]:
    """Every (state before, action) of a seeded full-information game, deals included."""
    rng = random.Random(seed)
    state = new_game(rules, full_information=True)
    steps: list[tuple[State, Action]] = []
    while not state.over:
        if state.phase is Phase.DEAL:
            action: Action = random_deal(rng)
        else:
            action = rng.choice(list(legal_actions(state)))
        steps.append((state, action))
        state, _ = apply(state, action)
    return steps


def table_line(action: Action, lang: str = "en") -> str | None:
    """What a player types for `action` at a table (None for the deal, which nobody types)."""
    if isinstance(action, Deal):
        return None
    if lang != "fr":
        if isinstance(action, Secret):
            return "secret"
        if isinstance(action, Discard):
            return "discard"
        return action.text()
    name = _FR_ITEMS.__getitem__
    if isinstance(action, Secret):
        return "secret"
    if isinstance(action, Discard):
        return "dépôt"
    if isinstance(action, Gift):
        return "offre " + " ".join(map(name, action.cards))
    if isinstance(action, Competition):
        first, second = action.pairs
        return f"échange {' '.join(map(name, first))} / {' '.join(map(name, second))}"
    if isinstance(action, TakeGift):
        return f"prendre {name(action.card)}"
    if isinstance(action, TakePair):
        return f"prendre {action.index + 1}"
    assert isinstance(action, Reveal)
    return f"révéler {name(action.card)}"


def table_script(seed: int, rules: RuleSet = RuleSet.IELLO, lang: str = "en") -> list[str]:
    lines = (table_line(action, lang) for _, action in random_game(seed, rules))
    return [line for line in lines if line is not None]


class Simulation:
    """The game's Simulator hook (companion.games.protocol)."""

    def table_script(
        self, seed: int, players: int | None = None, rules: str | None = None
    ) -> list[str]:
        return table_script(seed, RuleSet(rules or RuleSet.IELLO.value))

    def random_action(self, state: State, rng: random.Random) -> Action | None:
        if state.over:
            return None
        if state.phase is Phase.DEAL:
            return random_deal(rng)
        return rng.choice(list(legal_actions(state)))
