"""The computer at the table: the dealer and the seats the game's opponent plays.

A game against the computer is the same table as any other (companion/table.py): the
same session, inputs and outputs. What changes is who sits where. The seats listed in the
game's config (`config["practice"]`, written by `companion practice`) are automatic: the
game's practice hook (companion.games.protocol.PracticeHooks) deals its chance steps and
decides for those seats after each input; the other seats are people.

Privacy follows who is present: a computer seat's private lines are said to nobody; a
person's private lines go to their private channel, and when they are the only person at
the table, the shared speaker and screen are theirs too.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import ThreadPoolExecutor
from concurrent.futures import TimeoutError as Waiting
from dataclasses import replace
from functools import partial
from typing import Any

from companion.narrate.message import Message

THINKING_AFTER = 0.5  # seconds before "thinking" is said


def computer_seats(config: dict[str, Any]) -> tuple[int, ...]:
    """The seats the computer plays in a game of this config (none at a table): those
    listed under `practice.computer`, else every seat but the first."""
    settings = config.get("practice")
    if not settings:
        return ()
    seats = settings.get("computer")
    if seats is None:
        seats = range(1, len(config["players"]))
    return tuple(int(s) for s in seats)


class Computer:
    """The dealer and the automatic seats of one session, and what a lone player at a
    table of computers hears (their hand, the card they draw, cards named by place)."""

    def __init__(self, session: Any, hooks: Any, seats: Sequence[int], pause: float,
                 interactive: bool) -> None:
        self.session, self.hooks, self.seats = session, hooks, frozenset(seats)
        self.people = tuple(s for s in range(len(session.names)) if s not in self.seats)
        self.pause, self.interactive = pause, interactive
        self._told: int | None = None  # the step whose drawn card was said
        # prompts first met by a computer seat (not said): in full when a person meets them
        self._unheard: set[str] = set()

    # -- who hears what -------------------------------------------------------------------
    def heard_privately(self, seat: int, has_channel: Callable[[int], bool]) -> bool:
        """Whether what is private to `seat` reaches that player alone: their own channel,
        or the shared speaker when they are the only person at the table."""
        if seat in self.seats:
            return False
        return len(self.people) == 1 or has_channel(seat)

    def shown(self, messages: Iterable[Message], has_channel: Callable[[int], bool]
              ) -> list[Message]:
        """The messages as this table says them: the table's instructions the companion
        carries out itself said as done, a lone player's private lines said aloud when
        they have no channel of their own, a computer seat's private lines dropped."""
        out = []
        for m in map(self.hooks.reword, messages):
            if m.private_to is None or m.private_to in self.people and has_channel(m.private_to):
                out.append(m)
            elif m.private_to in self.people and len(self.people) == 1:
                out.append(replace(m, private_to=None))
            elif m.private_to in self.people:
                out.append(m)  # the output says it on their channel, or nowhere
        return out

    # -- the loop's steps ---------------------------------------------------------------
    def opening(self, messages: list[Message], resumed: bool) -> list[Message]:
        """The start or resumption of a game: the prompt to deal is for a table's dealer
        (the companion deals at once), and a resumed game says each person's hand again."""
        if resumed:
            return messages + [m for seat in self.people
                               for m in self.hooks.hand(self.session.state, seat)]
        return self._with_draw(self._prompt_for_people(messages))

    def before(self, text: str) -> str | list[Message]:
        """A typed line as the table reads it ("card 3" named by place in the sorted
        hand), or the answer to a practice word (`hand`)."""
        state, seat = self.session.state, self._person()
        if self.hooks.word(text) == "hand":
            return self.hooks.hand(state, seat)
        return str(self.hooks.resolve(text, state, seat))

    def after(self, messages: list[Message], before: Sequence[Any]) -> list[Message]:
        """An input's messages completed: an undo that took back a computer's step goes on
        to the person's last move; the help says what practice adds."""
        log = self.session.log
        if len(log) < len(before) and before[-1][1] not in self.people:
            messages = self._undo_to_person(messages)
        if any(m.event == "help" for m in messages):
            messages = messages + self.hooks.help()
        messages = self._with_draw(self._prompt_for_people(messages))
        unseen = getattr(self.hooks, "unseen", None)
        if unseen is not None and any(m.event == "unseen" for m in messages):
            # the person knows their own cards: they are not "unseen" to them
            mine = unseen(self.session.state, self._person())
            messages = [n for m in messages for n in (mine if m.event == "unseen" else [m])]
        return messages

    def advance(self, say: Callable[[list[Message]], None]) -> None:
        """Deal and play the computer's turns until a person is to act or the game ends."""
        session, game = self.session, self.session.game
        while not game.is_over(session.state) and game.actor(session.state) not in self.people:
            state = session.state
            action = self.hooks.chance(state, session.config)
            dealt = action is not None
            if action is None:
                seat = game.actor(state)
                decide = partial(self.hooks.decide, state, seat, session.config, session.step)
                action = self._thinking(decide, seat, say)
                time.sleep(self.pause)
            say(self._with_draw(self._prompt_for_people(session.execute(action))))
            if dealt:  # a person who draws at once hears the hand with the card drawn
                for seat in self.people:
                    if not self.hooks.drawn(session.state, seat):
                        say(self.hooks.hand(session.state, seat))
        if self._told != session.step:  # the card drawn, once per turn (again after an undo)
            self._told = session.step
            for seat in self.people:  # "You draw the umbrella. Your hand: ..."
                say(self._drawn(seat))

    # -- helpers --------------------------------------------------------------------------
    def _with_draw(self, messages: list[Message]) -> list[Message]:
        """The card a person draws now and their hand with it, said before the prompt (so
        that the prompt stays the last thing heard), once per turn."""
        if self._told == self.session.step:
            return messages
        drawn = [m for seat in self.people for m in self._drawn(seat)]
        if not drawn:
            return messages
        self._told = self.session.step
        at = next((i for i, m in enumerate(messages) if m.event == "prompt"), len(messages))
        return messages[:at] + drawn + messages[at:]

    def _drawn(self, seat: int) -> list[Message]:
        """What a person is told at the start of their turn: the card drawn, then the hand
        with it (a game without a draw tells the hand itself: it is not said twice)."""
        drawn = self.hooks.drawn(self.session.state, seat)
        if not drawn:
            return []
        hand = self.hooks.hand(self.session.state, seat)
        told = {m.key for m in drawn}
        return drawn + [m for m in hand if m.key not in told]

    def _person(self) -> int:
        """The person a practice word is about: the one to act, else the first person."""
        actor = self.session.game.actor(self.session.state)
        return actor if actor in self.people else self.people[0]

    def _prompt_for_people(self, messages: list[Message]) -> list[Message]:
        """The prompt is said to a person only: the dealer's and a computer seat's are
        dropped (the companion acts at once, "Hana: your turn" then "Hana: Secret" is
        noise), and a prompt the table first met that way is said in full the first time
        a person meets it."""
        if self.session.game.actor(self.session.state) not in self.people:
            dropped = {m.key for m in messages if m.event == "prompt" and not m.short}
            self._unheard |= dropped
            return [m for m in messages if m.event != "prompt"]
        out = []
        for m in messages:
            if m.event == "prompt" and m.key in self._unheard:
                self._unheard.discard(m.key)
                m = replace(m, short=False)
            out.append(m)
        return out

    def _undo_to_person(self, first: list[Message]) -> list[Message]:
        """The computer's (and the dealer's) steps undone, then the person's last move."""
        from companion.shared_commands import Undo

        said = [m for m in first if m.event != "prompt"]
        while self.session.log and self.session.log[-1][1] not in self.people:
            said += [m for m in self.session.execute(Undo()) if m.event != "prompt"]
        if not self.session.log:  # nothing of the person's to take back: the dealer deals again
            return said
        return said + self.session.execute(Undo())

    def _thinking(self, decide: Callable[[], Any], seat: int,
                  say: Callable[[list[Message]], None]) -> Any:
        """The decision; "thinking" is said if it takes longer than half a second (live
        play only: a script's transcript does not depend on the machine's speed)."""
        if not self.interactive:
            return decide()
        with ThreadPoolExecutor(1) as pool:
            future = pool.submit(decide)
            try:
                return future.result(THINKING_AFTER)
            except Waiting:
                say([Message("info", "thinking", {"player": self.session.names[seat]})])
                return future.result()
