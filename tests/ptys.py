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
