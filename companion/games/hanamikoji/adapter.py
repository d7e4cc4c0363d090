"""Hanamikoji's adapter: what the session needs to know about this game, in one place."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from companion.commands import Query
from companion.games.base import NarratedGame
from companion.games.hanamikoji import narrate
from companion.games.hanamikoji.actions import Action, parse_action
from companion.games.hanamikoji.interpret import Choose, Command, interpret
from companion.games.hanamikoji.rules import Event, Phase, RuleSet, State, apply, new_game
from companion.games.protocol import VoiceHooks
from companion.narrate.message import Message


class Hanamikoji(NarratedGame):
    """What the session needs to know about this game, in one place."""

    name = "hanamikoji"
    narration = narrate
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

    def status(self, state: State, names: Sequence[str]) -> list[Message]:
        """Where a resumed game stands."""
        return narrate.query(Query.SCORE, state, names)

    def voice(self) -> VoiceHooks:
        """What to listen for and how heard words become commands (imported when asked)."""
        from companion.games.hanamikoji.voice.hooks import VOICE

        return VOICE
