"""Hanamikoji's adapter: what the session needs to know about this game, in one place."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from companion.games.base import NarratedGame
from companion.games.hanamikoji import narrate
from companion.games.hanamikoji.actions import Action, Deal, Discard, Secret, parse_action
from companion.games.hanamikoji.interpret import Choose, Command, begun, interpret
from companion.games.hanamikoji.rules import (
    Event,
    Phase,
    RuleSet,
    State,
    apply,
    legal_actions,
    new_game,
)
from companion.games.protocol import Fold, Moment, Simulator, VoiceHooks, WebHooks
from companion.narrate.message import Message
from companion.shared_commands import Query

if TYPE_CHECKING:
    from companion.games.hanamikoji.cards import HanamikojiCards
    from companion.games.hanamikoji.practice import Practice
    from companion.games.protocol import DeviceHooks


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

    def legal_actions(self, state: State) -> list[Action]:
        return list(legal_actions(state))

    def apply(self, state: State, action: Action) -> tuple[State, tuple[Event, ...]]:
        return apply(state, action)

    def interpret(self, line: str, state: State, pending: Any, lang: str) -> Command:
        return interpret(line, state, pending=begun(pending), lang=lang)

    def prompt(self, state: State, names: Sequence[str], pending: Any) -> list[Message]:
        """What is expected now (a scanned Secret or Discard, or a pair's first card, has
        its own prompts, said by the scan: the table hears the turn's)."""
        return super().prompt(state, names, begun(pending))

    def fold(self, now: Moment, part: Any) -> Fold:
        """A scanned card or token (or keyed positions of a scanned Secret) folded into
        the pending action: the scan module, imported only when a reader gives one."""
        from companion.games.hanamikoji.scan import fold

        return fold(self, now, part)

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

    def practice(self) -> Practice:
        """Play alone against the computer, and hints (imported only when asked)."""
        from companion.games.hanamikoji.practice import Practice

        return Practice()

    def simulator(self) -> Simulator:
        from companion.games.hanamikoji.simulate import Simulation

        return Simulation()

    def devices(self) -> DeviceHooks:
        """What the game's keypad keys and scans mean (imported only when asked)."""
        from companion.games.hanamikoji.keys import DEVICES

        return DEVICES

    def cards(self) -> HanamikojiCards:
        """The pieces as QR labels and registry entries (imported only when asked)."""
        from companion.games.hanamikoji.cards import HanamikojiCards

        return HanamikojiCards()

    def status(self, state: State, names: Sequence[str]) -> list[Message]:
        """Where a resumed game stands."""
        return self.query(Query.SCORE, state, names)

    def private_cards(self, state: State, seat: int) -> dict[str, tuple[Any, ...]]:
        """A player's cards the table has not seen but the companion was told: their hand's
        known cards, their named Secret and Discard."""
        me = state.players[seat]
        told = {"hand": tuple(me.hand.known), "secret": (me.secret,) if me.secret else (),
                "discard": tuple(me.discard)}
        return {place: cards for place, cards in told.items() if cards}

    def public_text(self, action: Action) -> str:
        """A Secret or Discard without its cards: what the table saw played."""
        if isinstance(action, Secret):
            return Secret(None).text()
        if isinstance(action, Discard):
            return Discard(None).text()
        if isinstance(action, Deal):
            return "deal"  # a practice game's deal: nobody may read the hands
        return action.text()


    def voice(self) -> VoiceHooks:
        """What to listen for and how heard words become commands (imported when asked)."""
        from companion.games.hanamikoji.voice.hooks import VOICE

        return VOICE

    def web(self) -> WebHooks:
        """The board as tables and the buttons of the web page (imported when asked)."""
        from companion.games.hanamikoji.web import HanamikojiWeb

        return HanamikojiWeb(self)
