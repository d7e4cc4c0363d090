"""Momiji's adapter: what the session needs to know about this game, in one place."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from companion.errors import CompanionError
from companion.games.base import NarratedGame
from companion.games.momiji import lexicon, narrate
from companion.games.momiji.actions import Action, Deal, Objectives, parse_action
from companion.games.momiji.data import MAX_PLAYERS, MIN_PLAYERS
from companion.games.momiji.interpret import Command, interpret
from companion.games.momiji.rules import (
    Event,
    Phase,
    State,
    apply,
    begins_objectives,
    legal_actions,
    new_game,
)
from companion.games.protocol import Fold, Moment, Simulator, VoiceHooks
from companion.narrate.message import Message
from companion.shared_commands import Query

if TYPE_CHECKING:
    from companion.games.momiji.cards import MomijiCards
    from companion.games.momiji.practice import Practice
    from companion.games.protocol import DeviceHooks

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
    own_words = lexicon.OWN_WORDS  # "zero" is a value here, not cancel (Game protocol)

    def new_state(self, config: dict[str, Any]) -> State:
        # config["rules"] may hold the CLI's Hanamikoji default: Momiji has one rule set.
        return new_game(len(config["players"]))

    def parse(self, text: str) -> Action:
        return parse_action(text)

    def legal_actions(self, state: State) -> list[Action]:
        return list(legal_actions(state))

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

    def pending(self, command: Any, state: State) -> Objectives | None:
        """Objectives named in parts at set-up (a long list is hard to say, or to hear, in
        one breath): a list short of the tokens revealed is kept, each name checked now;
        the part that completes it reveals them. Every other command is whole."""
        try:
            return command if begins_objectives(state, command) else None
        except CompanionError as error:
            raise _worded(error) from None

    def fold(self, now: Moment, part: Any) -> Fold:
        """A scanned card (or a line while scanned cards wait) folded into the pending
        action: the scan module, imported only when a reader or keypad gives one."""
        from companion.games.momiji.scan import fold

        return fold(self, now, part)

    def practice(self) -> Practice:
        """Play alone against 1 to 3 computer players, and hints (imported when asked)."""
        from companion.games.momiji.practice import Practice

        return Practice()

    def public_text(self, action: Action) -> str:
        """A practice game's deal without its cards: nobody may read the hands."""
        return "deal" if isinstance(action, Deal) else action.text()

    def private_cards(self, state: State, seat: int) -> dict[str, tuple[Any, ...]]:
        """The seat's hand in a practice game, where the companion dealt it ({} at a
        table: the cards it knows there were collected in sight of all)."""
        known = state.players[seat].hand.known if state.virtual else ()
        return {"hand": known} if known else {}

    def simulator(self) -> Simulator:
        from companion.games.momiji.simulate import Simulation

        return Simulation()

    def devices(self) -> DeviceHooks:
        """What the game's keypad keys and scans mean (imported only when asked)."""
        from companion.games.momiji.keys import DEVICES

        return DEVICES

    def cards(self) -> MomijiCards:
        """The pieces as QR labels and registry entries (imported only when asked)."""
        from companion.games.momiji.cards import MomijiCards

        return MomijiCards()

    def status(self, state: State, names: Sequence[str]) -> list[Message]:
        """Where a resumed game stands."""
        if state.phase is Phase.TURN:
            return self.query(Query.BOARD, state, names)
        return self.query(Query.SCORE, state, names) if state.over else []

    def voice(self) -> VoiceHooks:
        """What to listen for and how heard words become commands (imported when asked)."""
        from companion.games.momiji.voice import VOICE

        return VOICE


__all__ = ["Momiji"]
