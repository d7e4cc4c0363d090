"""What game adapters share: `GameBase`, the defaults a small game need not write, and
`NarratedGame`, the session's questions answered by the game's own narration module
(`narration`) and the state's `over` and `to_move`."""

from __future__ import annotations

from collections.abc import Sequence
from importlib import resources
from importlib.resources.abc import Traversable
from types import ModuleType
from typing import Any

from companion.games.protocol import Choice, Fold, Moment, Section, WebHooks
from companion.narrate.message import Message
from companion.shared_commands import Query

# The questions whose answers make the board a web page shows (any narrated game).
BOARD_QUERIES = (Query.TURN, Query.SCORE, Query.BOARD, Query.ACTIONS)


class GameBase:
    """The parts of the `Game` protocol a small game need not write: no half-entered
    actions, nothing hidden, its catalogues in `locales/` beside its adapter, and none of
    the optional hooks. A game subclasses it and writes what it owns (docs/plugins.md)."""

    def pending(self, command: Any, state: Any) -> Any:
        """No action is ever half-entered (a game with multi-part entry overrides this)."""
        return None

    def fold(self, now: Moment, part: Any) -> Fold:
        """Every part is a command as typed (a game whose devices give other parts, such
        as scanned cards, folds them into its pending action here)."""
        return Fold(command=part)

    def private_cards(self, state: Any, seat: int) -> dict[str, tuple[Any, ...]]:
        """What the companion was told of a seat's hidden cards, by place ({} if none)."""
        return {}

    def public_text(self, action: Any) -> str:
        """The action's text as the table may read it (a game with secrets overrides it)."""
        return str(action.text())

    def locales(self) -> Traversable:
        """The game's catalogues: `locales/{lang}.toml` beside its adapter."""
        return resources.files(type(self).__module__.rpartition(".")[0]).joinpath("locales")

    def devices(self) -> Any:
        """No keypad nor card reader (`DeviceHooks()` reads keyed lines as typed words)."""
        return None

    def voice(self) -> Any:
        return None

    def cards(self) -> Any:
        return None

    def simulator(self) -> Any:
        return None

    def web(self) -> Any:
        """No board of its own: the pages show the command field and what is said."""
        return None

    def practice(self) -> Any:
        """No game against the computer unless the game offers one."""
        return None


class NarratedGame(GameBase):
    """Everything it says is worked out from the state's public view (`state.public()`):
    a card a player told privately reaches only their own private Messages (made from the
    events), never a count, a board or an answer the table hears."""

    narration: ModuleType  # the game's narrate module: start, prompt, events, query, describe

    def is_over(self, state: Any) -> bool:
        return bool(state.over)

    def actor(self, state: Any) -> int:
        return int(state.to_move)

    def start(self, state: Any, names: Sequence[str]) -> list[Message]:
        return self.narration.start(state.public(), names)

    def prompt(self, state: Any, names: Sequence[str], pending: Any) -> list[Message]:
        return self.narration.prompt(state.public(), names, pending)

    def narrate(self, events: Sequence[Any], state: Any, names: Sequence[str]) -> list[Message]:
        return self.narration.events(events, state.public(), names)

    def query(self, q: Query, state: Any, names: Sequence[str]) -> list[Message]:
        return self.narration.query(q, state.public(), names)

    def describe(self, action: Any, actor: int, names: Sequence[str]) -> Message:
        return self.narration.describe(action, actor, names)

    def explain(self, subject: str, state: Any, names: Sequence[str]) -> list[Message]:
        """What one thing named by a word or number is ("position 3"), if the game's
        narration says (its `explain`); else nothing."""
        explain = getattr(self.narration, "explain", None)
        return explain(subject, state.public(), names) if explain is not None else []

    def web(self) -> WebHooks:
        """The board as the game's own answers to the table's questions; a game with more
        structure (tables of cards) overrides this."""
        return AnsweredBoard(self)


def private_section(game: Any, state: Any, names: Sequence[str], seat: int) -> list[Section]:
    """A seat's own section: each place of its told hidden cards ({} gives none)."""
    told = game.private_cards(state, seat)
    if not told:
        return []
    items = tuple(Message("", "web.place", {"place": Message("", f"web.places.{place}"),
                                            "cards": cards}) for place, cards in told.items())
    return [Section(Message("", "web.mine", {"player": names[seat]}), items, private=True)]


class AnsweredBoard:
    """WebHooks from a narrated game's answers: one list, then the seat's own cards."""

    def __init__(self, game: NarratedGame) -> None:
        self.game = game

    def board(self, state: Any, names: Sequence[str], seat: int | None) -> list[Section]:
        answers = tuple(m for q in BOARD_QUERIES for m in self.game.query(q, state, names))
        public = [Section(Message("", "web.now"), answers)]
        return public + ([] if seat is None else private_section(self.game, state, names, seat))

    def choices(self, state: Any, names: Sequence[str], pending: Any) -> list[Choice]:
        return []
