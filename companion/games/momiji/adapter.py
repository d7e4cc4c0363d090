"""Momiji's adapter: what the session needs to know about this game, in one place."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from companion.commands import Query
from companion.errors import CompanionError
from companion.games.base import NarratedGame
from companion.games.momiji import narrate
from companion.games.momiji.actions import Action, parse_action
from companion.games.momiji.data import MAX_PLAYERS, MIN_PLAYERS
from companion.games.momiji.interpret import Command, interpret
from companion.games.momiji.rules import Event, Phase, State, apply, new_game
from companion.games.protocol import VoiceHooks
from companion.narrate.message import Message

RULE_SETS = ("seed",)  # one reading of seed 004; see docs/momiji.md


def _worded(error: CompanionError) -> CompanionError:
    """The rules name cards and colours as values; the catalogue needs them as Messages."""
    error.params = {k: narrate.param(v) for k, v in error.params.items()}
    return error


class Momiji(NarratedGame):
    """What the session needs to know about this game, in one place."""

    name = "momiji"
    narration = narrate
    players = (MIN_PLAYERS, MAX_PLAYERS)
    rule_sets = RULE_SETS

    def new_state(self, config: dict[str, Any]) -> State:
        # config["rules"] may hold the CLI's Hanamikoji default: Momiji has one rule set.
        return new_game(len(config["players"]))

    def parse(self, text: str) -> Action:
        return parse_action(text)

    def apply(self, state: State, action: Action) -> tuple[State, tuple[Event, ...]]:
        try:
            return apply(state, action)
        except CompanionError as error:
            raise _worded(error) from None

    def interpret(self, line: str, state: State, pending: Any, lang: str) -> Command:
        try:
            return interpret(line, state, pending=pending, lang=lang)
        except CompanionError as error:
            raise _worded(error) from None

    def pending(self, command: Any, state: State) -> None:
        """Momiji commands are whole on one line: nothing is kept half-entered."""
        return None

    def status(self, state: State, names: Sequence[str]) -> list[Message]:
        """Where a resumed game stands."""
        if state.phase is Phase.TURN:
            return narrate.board(state, names)
        return narrate.query(Query.SCORE, state, names) if state.over else []

    def voice(self) -> VoiceHooks:
        """What to listen for and how heard words become commands (imported when asked)."""
        from companion.games.momiji.voice import VOICE

        return VOICE


__all__ = ["Momiji"]
