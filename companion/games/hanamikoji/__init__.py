"""Hanamikoji for the companion: the rules engine and its adapter for the session."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from companion.commands import Query
from companion.games.hanamikoji import narrate
from companion.games.hanamikoji.actions import Action, parse_action
from companion.games.hanamikoji.interpret import Choose, Command, interpret
from companion.games.hanamikoji.rules import Event, Phase, RuleSet, State, apply, new_game
from companion.narrate.message import Message


class Hanamikoji:
    """What the session needs to know about this game, in one place."""

    name = "hanamikoji"
    players = (2, 2)
    rule_sets = tuple(r.value for r in RuleSet)

    def new_state(self, config: dict[str, Any]) -> State:
        rules = RuleSet(config.get("rules", RuleSet.IELLO.value))
        return new_game(rules, full_information=bool(config.get("full_information", False)))

    def parse(self, text: str) -> Action:
        return parse_action(text)

    def apply(self, state: State, action: Action) -> tuple[State, tuple[Event, ...]]:
        return apply(state, action)

    def interpret(self, line: str, state: State, pending: Any, lang: str) -> Command:
        return interpret(line, state, pending=pending, lang=lang)

    def pending(self, command: Any, state: State) -> Choose | None:
        """A half-entered action (a keypad "3", a first scanned card) to keep, or None."""
        from companion.errors import IllegalAction

        if not isinstance(command, Choose):
            return None
        choice = command
        if state.phase is not Phase.ACTION:
            raise IllegalAction("not_now", "that action cannot be played now")
        if choice.token not in state.players[state.to_move].tokens:
            raise IllegalAction(
                "token_used", f"{choice.token.word} is already used this round", token=choice.token
            )
        return choice

    def is_over(self, state: State) -> bool:
        return state.over

    def actor(self, state: State) -> int:
        return state.to_move

    def start(self, state: State, names: Sequence[str]) -> list[Message]:
        return narrate.start(state, names)

    def prompt(self, state: State, names: Sequence[str], pending: Any) -> list[Message]:
        return narrate.prompt(state, names, pending)

    def narrate(self, events: Sequence[Event], state: State, names: Sequence[str]) -> list[Message]:
        return narrate.events(events, state, names)

    def query(self, q: Query, state: State, names: Sequence[str]) -> list[Message]:
        return narrate.query(q, state, names)

    def describe(self, action: Action, actor: int, names: Sequence[str]) -> Message:
        return narrate.describe(action, actor, names)

    def status(self, state: State, names: Sequence[str]) -> list[Message]:
        """Where a resumed game stands."""
        return narrate.query(Query.SCORE, state, names)
