"""Every input source feeds one queue: typed or scripted lines, keypads, card readers.

Each source runs in its own thread and puts `InputItem`s on the queue; the game loop
takes them one at a time, so a scan and a key pressed together are handled in order.
"""

from __future__ import annotations

import io
import queue
import threading
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any, TextIO

from companion.errors import LINE_CHARS


@dataclass(frozen=True)
class InputItem:
    """`text` is a line as typed; `event` a device event (a scan, a reader unplugged);
    `seat` the seat whose own device gave it (a seat's web page), which may act for that
    seat only (Session.handle_from); None for the table's shared inputs."""

    source: str
    text: str | None = None
    event: Any = None
    seat: int | None = None


_END = InputItem("end")
# The game loop waits for input in slices of this many seconds: a wait without a timeout
# is not interrupted when Ctrl-C lands on an input thread (POSIX may give a process signal
# to any thread), nor at all on Windows: the companion would hang instead of saying the
# game is saved.
WAKE = 0.2


def read_lines(stream: TextIO | Iterable[str]) -> Iterator[str]:
    """A stream's lines, each read in bounded pieces: a line longer than LINE_CHARS comes
    cut to LINE_CHARS + 1 characters (the session refuses it unread) and the rest of it is
    skipped. Bytes that are not text in the stream's encoding become U+FFFD (the session
    refuses that line) instead of ending the input thread, and with it the game."""
    if isinstance(stream, io.TextIOWrapper):
        stream.reconfigure(errors="replace")
    readline = getattr(stream, "readline", None)
    if readline is None:
        yield from stream
        return
    while line := readline(LINE_CHARS + 1):
        rest = line if len(line) > LINE_CHARS else ""
        while rest and not rest.endswith("\n"):
            rest = readline(LINE_CHARS)  # the rest of an over-long line, never kept whole
        yield line


class InputHub:
    def __init__(self) -> None:
        self.queue: queue.Queue[InputItem] = queue.Queue()
        self._closers: list[Any] = []
        self._line_sources = 0
        self._ended = 0

    def add_lines(self, stream: TextIO | Iterable[str], source: str = "keyboard") -> None:
        """Lines from a stream; the hub ends when every line source has ended."""
        self._line_sources += 1

        def pump() -> None:
            try:
                for line in read_lines(stream):
                    self.queue.put(InputItem(source, text=line.rstrip("\r\n")))
            finally:
                self.queue.put(_END)

        threading.Thread(target=pump, name=f"input-{source}", daemon=True).start()

    def add_closer(self, closer: Any) -> None:
        self._closers.append(closer)

    def __iter__(self) -> Iterator[InputItem]:
        while True:
            try:
                item = self.queue.get(timeout=WAKE)
            except queue.Empty:
                continue  # Python runs a pending Ctrl-C's handler here
            if item is _END:
                self._ended += 1
                if self._ended >= self._line_sources:
                    return
                continue
            yield item

    def close(self) -> None:
        for closer in self._closers:
            closer()
