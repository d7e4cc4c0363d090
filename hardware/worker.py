"""The life every device reader shares: a daemon thread, a stop flag, a connected flag, and
events handed to a callback or put on a queue. Readers subclass it and write `_run`."""

from __future__ import annotations

import queue
import threading
import time
from collections.abc import Callable
from typing import TypeVar

from .events import EventKind, ReaderEvent

_T = TypeVar("_T", bound="DeviceThread")


class DeviceThread:
    thread_prefix = "device"

    def __init__(
        self,
        name: str,
        url: str,
        on_event: Callable[[ReaderEvent], None] | None = None,
        events: queue.Queue[ReaderEvent] | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.name = name
        self.url = url
        self.clock = clock
        self.events: queue.Queue[ReaderEvent] = events if events is not None else queue.Queue()
        self._on_event = on_event
        self.connected = threading.Event()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    # -- lifecycle ---------------------------------------------------------------------
    def start(self: _T) -> _T:
        if self._thread is not None:
            raise RuntimeError(f"{self.thread_prefix} {self.name} is already started")
        self._thread = threading.Thread(
            target=self._run, name=f"{self.thread_prefix}-{self.name}", daemon=True)
        self._thread.start()
        return self

    def request_stop(self) -> None:
        """Ask the thread to stop without waiting (lets a group stop readers in parallel)."""
        self._stop.set()

    def close(self, timeout: float = 2.0) -> None:
        self._stop.set()
        if self._thread is not None and self._thread is not threading.current_thread():
            self._thread.join(timeout)
        self._closed()

    def _closed(self) -> None:
        """Release the device after the thread has stopped (a port, a grabbed keypad)."""

    def __enter__(self: _T) -> _T:
        if self._thread is None:
            self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @property
    def running(self) -> bool:
        return self._thread is not None and self._thread.is_alive()

    def wait_connected(self, timeout: float | None = None) -> bool:
        return self.connected.wait(timeout)

    # -- the thread --------------------------------------------------------------------
    def _run(self) -> None:
        raise NotImplementedError

    def _emit(self, kind: EventKind, value: str = "", detail: str = "", reason: str = "") -> None:
        event = ReaderEvent(self.name, self.url, kind, value, self.clock(), detail, reason)
        if self._on_event is None:
            self.events.put(event)
            return
        try:
            self._on_event(event)
        except Exception as exc:  # a faulty callback must not kill the reader
            self.events.put(ReaderEvent(self.name, self.url, "error", "", self.clock(),
                                        f"event callback failed: {exc!r}"))
