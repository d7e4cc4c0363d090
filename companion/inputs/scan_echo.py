"""A card read again just after it completed an action is an echo, not a new move.

A player who lays the last card of a gift on the reader, lifts it and puts it back (or
leaves it at the edge of the field) makes the reader report it again, seconds later and
well past the reader's own repeat suppression. Read in context, that second scan would be
the opponent's choice. So the scan that applies an action is remembered with its reader
and time; until the game moves on, a card of that action read again by the same reader
within `WINDOW` seconds (each repeat extends it, like a tag held in the field) is not
applied: the table hears why and how to take that card on purpose.

The same reader stands for the same player: a table with one shared reader answers a few
seconds later, or by voice or keys. Shared by both games (companion/games/hanamikoji/scan.py,
companion/games/momiji/scan.py); times are the readers' `time.monotonic()` timestamps.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Collection, Hashable
from dataclasses import dataclass
from typing import Any

WINDOW = 4.0  # seconds: a lift and put back, not an opponent who has looked and chosen
TYPED = "keyboard"  # a scanner that types into the terminal (a keyboard wedge)


@dataclass(frozen=True)
class Origin:
    """Where and when a scan was read: a reader's name ("reader 1", "keypad") and time."""

    reader: str
    at: float


def typed(clock: Callable[[], float] = time.monotonic) -> Origin:
    """The origin of a scan typed into the terminal by a keyboard-wedge scanner."""
    return Origin(TYPED, clock())


@dataclass
class Echo:
    """The cards of the action a scan just applied, valid while that state stands."""

    state: Any
    cards: frozenset[Hashable]
    origin: Origin


@dataclass
class EchoGuard:
    """One per session context: remembers the last scan-applied action."""

    window: float = WINDOW
    last: Echo | None = None

    def remember(self, session: Any, cards: Collection[Hashable], origin: Origin | None) -> None:
        """The scan from `origin` has just applied an action made of `cards`."""
        self.last = None if origin is None else Echo(session.state, frozenset(cards), origin)

    def repeats(self, session: Any, card: Hashable, origin: Origin | None) -> bool:
        """Whether this scan is that action's card read again, to be set aside."""
        echo = self.last
        if echo is None or origin is None or echo.state is not session.state:
            return False
        if (card not in echo.cards or origin.reader != echo.origin.reader
                or not 0 <= origin.at - echo.origin.at < self.window):
            return False
        echo.origin = origin  # a card still being fumbled with keeps the guard up
        return True
