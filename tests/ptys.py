"""A card reader's serial port for tests: a pseudo-terminal pair, used with real pyserial."""

from __future__ import annotations

import os
import pty


class FakeTty:
    """We hold the master; the reader opens the slave path, like a real device node."""

    def __init__(self) -> None:
        self.master, slave = pty.openpty()
        self.path = os.ttyname(slave)
        os.close(slave)

    def write(self, data: bytes) -> None:
        os.write(self.master, data)

    def unplug(self) -> None:
        """Closing the master is what pulling the USB cable looks like to the reader."""
        if self.master >= 0:
            os.close(self.master)
            self.master = -1

    close = unplug


class TableClock:
    """A reader's clock (monotonic seconds) that a test moves on: players taking turns
    think for seconds, which a test should not sleep through."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds
