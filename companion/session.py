"""A game at the table: whose turn, what is expected, questions, undo, history.

The session turns one input line into Messages. It owns no device: lines come from any
input, Messages go to any output. Every accepted step is written to the store before the
Messages announcing it are returned, so nothing announced can be lost.
"""

from __future__ import annotations

import weakref
from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import Any, TypeVar

from companion.commands import Adjust, Ask, Cancel, Query, Reply, Undo
from companion.errors import CompanionError
from companion.narrate.message import Message, Priority
from companion.store import GameStore

T = TypeVar("T")


def per_session(factory: Callable[[], T]) -> Callable[[Any], T]:
    """A `context_for(session)` for an edge layer (scans, keys) that keeps its own state
    beside a session without the session knowing it: created on first use, gone with it."""
    contexts: weakref.WeakKeyDictionary[Any, T] = weakref.WeakKeyDictionary()

    def context_for(session: Any) -> T:
        ctx = contexts.get(session)
        if ctx is None:
            ctx = contexts[session] = factory()
        return ctx

    return context_for


class Session:
    def __init__(
        self,
        game: Any,
        config: dict[str, Any],
        store: GameStore | None = None,
        game_id: int | None = None,
        steps: Sequence[str] = (),
    ) -> None:
        self.game = game
        self.config = config
        self.names: list[str] = list(config["players"])
        self.lang: str = config.get("lang", "en")
        self.store = store
        self.initial = game.new_state(config)
        self.state = self.initial
        self.log: list[Any] = []  # accepted actions, in order
        self.pending: Any = None  # half-entered action (keypad)
        self.confirming: Any = None  # a command awaiting yes or no
        self.history: list[list[Message]] = []
        self.cursor: int | None = None  # position while stepping back through history
        for text in steps:
            self._accept(game.parse(text))
        if store is not None and game_id is None:
            game_id = store.new_game(game.name, config)
        self.game_id = game_id

    # -- lines in, messages out -------------------------------------------------------
    def start(self) -> list[Message]:
        return self._announce(self.game.start(self.state, self.names) + self._prompt())

    def resume(self) -> list[Message]:
        intro = [Message("resumed", "resumed", {"steps": len(self.log), "n": len(self.log)})]
        return self._announce(intro + self.game.status(self.state, self.names) + self._prompt())

    def handle(self, line: str) -> list[Message]:
        try:
            command = self.game.interpret(line, self.state, self.pending, self.lang)
            if self.confirming is not None and not isinstance(command, (Reply, Ask)):
                self.confirming = None  # a new command replaces an unanswered question
            return self.execute(command)
        except CompanionError as error:
            return self._refuse(error)

    def execute(self, command: Any) -> list[Message]:
        """Carry out an interpreted command (text, keypad, scans and voice all end here)."""
        try:
            return self._execute(command)
        except CompanionError as error:
            return self._refuse(error)

    def propose(self, command: Any) -> list[Message]:
        """Ask for a yes before applying `command` (used when voice is unsure)."""
        self.confirming = command
        try:
            what: Any = self.game.describe(command, self.game.actor(self.state), self.names)
        except (AssertionError, AttributeError, TypeError):
            what = command.text()  # a query or a half-entered offer: its text is clear
        return self._announce([Message("confirm", "confirm", {"command": what},
                                       {"command": self.game.public_text(command)},
                                       Priority.PROMPT)])

    def _execute(self, command: Any) -> list[Message]:
        if isinstance(command, Ask):
            return self._ask(command.query)
        if isinstance(command, Undo):
            return self._undo()
        if isinstance(command, Cancel):
            if self.pending is None and self.confirming is None:
                return self._announce([Message("info", "nothing_to_cancel")] + self._prompt())
            self.pending = self.confirming = None
            return self._announce([Message("info", "cancelled")] + self._prompt())
        if isinstance(command, Reply):
            if self.confirming is None:
                return self._announce([Message("info", "no_question")] + self._prompt())
            proposed, self.confirming = self.confirming, None
            if command.yes:
                return self._execute(proposed)
            return self._announce([Message("info", "not_applied")] + self._prompt())
        if isinstance(command, Adjust):
            return [Message("setting", f"setting_{command.setting.value}",
                            data={"setting": command.setting.value})]
        pending = self.game.pending(command, self.state)
        if pending is not None:
            self.pending = pending
            return self._announce(self._prompt())
        return self._act(command)

    def _act(self, action: Any) -> list[Message]:
        actor = self.game.actor(self.state)
        state, events = self.game.apply(self.state, action)
        if self.store is not None and self.game_id is not None:
            self.store.append(self.game_id, action.text())  # before anything is announced
            if self.game.is_over(state):
                self.store.finish(self.game_id)
        self.state = state
        self.log.append((action, actor))
        self.pending = None
        messages = self.game.narrate(events, state, self.names)
        return self._announce(messages + self._prompt())

    def _accept(self, action: Any) -> None:
        actor = self.game.actor(self.state)
        self.state, _ = self.game.apply(self.state, action)
        self.log.append((action, actor))

    def _undo(self) -> list[Message]:
        if self.pending is not None:
            self.pending = None
            return self._announce([Message("info", "cancelled")] + self._prompt())
        if not self.log:
            return self._announce([Message("info", "nothing_to_undo")] + self._prompt())
        if self.store is not None and self.game_id is not None:
            self.store.undo(self.game_id)
        action, actor = self.log.pop()
        state = self.initial
        for earlier, _ in self.log:
            state, _ = self.game.apply(state, earlier)
        self.state = state
        what = self.game.describe(action, actor, self.names)
        return self._announce(
            [Message("undo", "undone", {"what": what}, {"command": self.game.public_text(action)})]
            + self._prompt()
        )

    def _ask(self, query: Query) -> list[Message]:
        if query is Query.REPEAT:
            return self._replay(len(self.history) - 1 if self.cursor is None else self.cursor)
        if query in (Query.BACK, Query.FORWARD):
            here = len(self.history) - 1 if self.cursor is None else self.cursor
            step = -1 if query is Query.BACK else 1
            self.cursor = max(0, min(len(self.history) - 1, here + step))
            return self._replay(self.cursor)
        if query is Query.WHAT:
            return self._announce(self._prompt())
        return self._announce(self.game.query(query, self.state, self.names))

    # -- helpers ----------------------------------------------------------------------
    def _prompt(self) -> list[Message]:
        return self.game.prompt(self.state, self.names, self.pending)

    def refuse(self, error: CompanionError) -> list[Message]:
        """Say why an input (typed, scanned or heard) changes nothing, then what is expected."""
        return self._refuse(error)

    def _refuse(self, error: CompanionError) -> list[Message]:
        params = dict(error.params)
        data = {"code": error.key, "reason": str(error)}
        refusal = Message("error", f"error.{error.key}", params, data, Priority.REFUSAL)
        return self._announce([refusal] + self._prompt())

    def _announce(self, messages: list[Message]) -> list[Message]:
        public = [m for m in messages if m.private_to is None]
        if public:
            self.history.append(public)
            self.cursor = None
        return messages

    def _replay(self, index: int) -> list[Message]:
        if not self.history or index < 0:
            return [Message("repeat", "nothing_to_repeat")]
        return [replace(m, event="repeat") for m in self.history[index]]
