"""What every game adapter shares: the session's questions answered by the game's own
narration module (`narration`), and the state's `over` and `to_move`."""

from __future__ import annotations

from collections.abc import Sequence
from importlib import resources
from importlib.resources.abc import Traversable
from types import ModuleType
from typing import Any

from companion.narrate.message import Message
from companion.shared_commands import Query


class NarratedGame:
    """Everything it says is worked out from the state's public view (`state.public()`):
    a card a player told privately reaches only their own private Messages (made from the
    events), never a count, a board or an answer the table hears."""

    narration: ModuleType  # the game's narrate module: start, prompt, events, query, describe

    def locales(self) -> Traversable:
        """The game's catalogues: `locales/{lang}.toml` beside its adapter."""
        return resources.files(type(self).__module__.rpartition(".")[0]).joinpath("locales")

    def private_cards(self, state: Any, seat: int) -> dict[str, tuple[Any, ...]]:
        """What the companion was told of a seat's hidden cards, by place ({} if none)."""
        return {}

    def practice(self) -> Any:
        """No game against the computer unless the game offers one (Momiji cannot: a box's
        leaves are not known, so no virtual deck can be dealt honestly)."""
        return None

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

    def public_text(self, action: Any) -> str:
        """The action's text as the table may read it (a told Secret's card left out)."""
        return str(action.text())
