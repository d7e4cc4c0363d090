"""Repeat suppression: a tag held on a reader is one scan, not fifteen a second."""

from __future__ import annotations

import time
from collections.abc import Callable

DEFAULT_GAP = 0.3  # seconds; an RDM6300 repeats a held tag about every 65 ms


class RepeatSuppressor:
    """Reports an id once while it stays in the field.

    The same id is reported again only after it has been absent for at least ``gap``
    seconds. A reader's field holds one tag at a time, so reading a different id means
    the previous one has left: A, B, A is three scans even in quick succession. Use one
    instance per reader. ``gap=0`` turns suppression off.
    """

    def __init__(self, gap: float = DEFAULT_GAP, clock: Callable[[], float] = time.monotonic):
        if gap < 0:
            raise ValueError(f"gap must be zero or more seconds, not {gap}")
        self.gap = gap
        self.clock = clock
        self.suppressed = 0
        self._last: str | None = None
        self._last_seen = 0.0

    def accept(self, value: str, now: float | None = None) -> bool:
        """True if ``value`` should be reported as a new scan."""
        if now is None:
            now = self.clock()
        repeat = self.gap > 0 and value == self._last and now - self._last_seen < self.gap
        # Every sighting extends the hold, so a tag resting on the reader stays one scan.
        self._last = value
        self._last_seen = now
        if repeat:
            self.suppressed += 1
        return not repeat

    def reset(self) -> None:
        """Forget the held tag (after a replug the player may rescan the same card)."""
        self._last = None
        self._last_seen = 0.0
