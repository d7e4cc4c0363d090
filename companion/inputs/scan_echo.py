"""A card read again just after it completed an action is an echo, not a new move.

A player who lays the last card of a gift on the reader, lifts it and puts it back (or
leaves it at the edge of the field) makes the reader report it again, seconds later and
well past the reader's own repeat suppression. Read in context, that second scan would be
the opponent's choice. So the scan that applies an action is kept, with its reader and
time, with that step (its trace in the session, see companion.games.protocol.Fold); until
another step is made or that one undone, a card of that action read again by the same reader
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


@dataclass(frozen=True)
class Echo:
    """The cards of the step a scan just applied, and that scan's reader and time: kept
    as (part of) the step's trace in the session, so an undo takes it away with the step."""

    cards: frozenset[Hashable]
    origin: Origin


def laid(cards: Collection[Hashable], origin: Origin | None) -> Echo | None:
    """The echo of a step the scan from `origin` has just applied (None when typed)."""
    return None if origin is None else Echo(frozenset(cards), origin)


def repeats(echo: Echo | None, card: Hashable, origin: Origin | None,
            window: float = WINDOW) -> Echo | None:
    """When this scan is the last step's card read again, to be set aside: the echo held
    from this read on (a card still being fumbled with keeps the guard up); else None.
    `echo` is the last step's: a step made since, or an undo, has replaced it."""
    if echo is None or origin is None:
        return None
    if (card not in echo.cards or origin.reader != echo.origin.reader
            or not 0 <= origin.at - echo.origin.at < window):
        return None
    return Echo(echo.cards, origin)
