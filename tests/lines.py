"""A child process's printed lines, read by a thread: a test waits for a line with a
deadline that holds even when the child prints nothing (a blocking readline could not be
interrupted by one)."""

from __future__ import annotations

import queue
import threading
import time
from typing import IO


class Lines:
    def __init__(self, stream: IO[str]) -> None:
        self.seen: list[str] = []
        self._queue: queue.Queue[str | None] = queue.Queue()
        threading.Thread(target=self._pump, args=(stream,), daemon=True).start()

    def _pump(self, stream: IO[str]) -> None:
        for line in stream:
            self._queue.put(line.rstrip("\n"))
        self._queue.put(None)  # the child closed its output

    def _next(self, deadline: float, waiting: str) -> str | None:
        """The next line, kept in `seen`; None once the output has ended. AssertionError,
        saying what was awaited, when `deadline` passes first."""
        try:
            line = self._queue.get(timeout=max(0.0, deadline - time.monotonic()))
        except queue.Empty:
            raise AssertionError(f"{waiting}: {self.seen}") from None
        if line is None:
            self._queue.put(None)  # ended for every later call too
            return None
        self.seen.append(line)
        return line

    def wait_for(self, fragment: str, timeout: float = 30) -> str:
        """The first line from now on holding `fragment`; AssertionError after `timeout`
        seconds, or when the output ends, with every line seen."""
        deadline = time.monotonic() + timeout
        while True:
            line = self._next(deadline, f"never heard {fragment!r} in {timeout} s")
            if line is None:
                raise AssertionError(f"output ended before {fragment!r}: {self.seen}")
            if fragment in line:
                return line

    def rest(self, timeout: float = 30) -> list[str]:
        """Every line until the output ends (the child exits)."""
        deadline = time.monotonic() + timeout
        while self._next(deadline, f"output did not end in {timeout} s") is not None:
            pass
        return self.seen
