"""Serial card readers: one daemon thread per reader, opened by pyserial URL.

The thread decodes with a frame decoder (``frames``), suppresses repeats (``debounce``)
and delivers ``ReaderEvent``s to a callback or a ``queue.Queue``. When the port vanishes
it emits one "disconnected" event, retries with backoff and emits "connected" again.
"""

from __future__ import annotations

import contextlib
import queue
import time
from collections.abc import Callable, Iterable
from typing import Any

import serial

from .debounce import DEFAULT_GAP, RepeatSuppressor
from .events import ReaderEvent, failure_reason
from .frames import DecoderStats, FrameDecoder, make_decoder
from .worker import DeviceThread

try:  # termios exists only on POSIX; pyserial lets its errors escape from in_waiting
    import termios

    _PORT_ERRORS: tuple[type[BaseException], ...] = (
        serial.SerialException,
        OSError,
        termios.error,
    )
except ImportError:  # pragma: no cover - Windows
    _PORT_ERRORS = (serial.SerialException, OSError)

__all__ = ["SerialReader", "ReaderGroup", "open_port", "PORT_ERRORS"]

PORT_ERRORS = _PORT_ERRORS
EventSink = Callable[[ReaderEvent], None]
UrlSource = str | Callable[[], str]


def open_port(url: str, baudrate: int = 9600, timeout: float = 0.05, **options: Any):
    """Open ``url`` (device path, loop://, socket://, hwgrep://...) for exclusive reading."""
    port = serial.serial_for_url(
        url, baudrate=baudrate, timeout=timeout, do_not_open=True, **options
    )
    # A second program reading the same reader would steal scans; some backends cannot lock.
    with contextlib.suppress(ValueError, AttributeError):
        port.exclusive = True
    port.open()
    return port


class SerialReader(DeviceThread):
    """Reads one serial card reader in a daemon thread.

    ``url`` is a pyserial URL or a callable returning one; the callable is asked again
    at every reconnection attempt, so a resolver (or a udev-style symlink such as
    /dev/serial/by-id/...) can follow a device that comes back under a new name.
    """

    thread_prefix = "reader"

    def __init__(
        self,
        url: UrlSource,
        protocol: str = "rdm6300",
        *,
        name: str | None = None,
        baudrate: int = 9600,
        decoder: FrameDecoder | None = None,
        decoder_options: dict[str, Any] | None = None,
        on_event: EventSink | None = None,
        events: queue.Queue[ReaderEvent] | None = None,
        repeat_gap: float = DEFAULT_GAP,
        read_timeout: float = 0.05,
        retry_initial: float = 0.1,
        retry_max: float = 2.0,
        clock: Callable[[], float] = time.monotonic,
        serial_options: dict[str, Any] | None = None,
    ) -> None:
        super().__init__(name or (url if isinstance(url, str) else protocol),
                         url if isinstance(url, str) else "?", on_event, events, clock)
        self._url_source = url
        self.protocol = protocol
        self.baudrate = baudrate
        self.decoder = decoder or make_decoder(protocol, **(decoder_options or {}))
        self.suppressor = RepeatSuppressor(repeat_gap, clock)
        self.read_timeout = read_timeout
        self.retry_initial = retry_initial
        self.retry_max = retry_max
        self.serial_options = dict(serial_options or {})
        self.port: Any = None  # the open pyserial object while connected (tests write to loop://)

    def _closed(self) -> None:
        self._close_port()

    @property
    def stats(self) -> DecoderStats:
        return self.decoder.stats

    # -- the thread --------------------------------------------------------------------

    def _resolve(self) -> str:
        url = self._url_source() if callable(self._url_source) else self._url_source
        self.url = url
        return url

    def _close_port(self) -> None:
        port, self.port = self.port, None
        if port is not None:
            # Closing a vanished device can fail; it is gone either way.
            with contextlib.suppress(Exception):
                port.close()

    def _run(self) -> None:
        delay = self.retry_initial
        outage_reported = False  # one error/disconnected event per outage, not per retry
        while not self._stop.is_set():
            try:
                url = self._resolve()
                self.port = open_port(url, self.baudrate, self.read_timeout, **self.serial_options)
            except (*PORT_ERRORS, ValueError) as exc:
                if not outage_reported:
                    self._emit("error", detail=f"cannot open {self.url}: {exc}",
                               reason=failure_reason(exc))
                    outage_reported = True
                self._stop.wait(delay)
                delay = min(delay * 2, self.retry_max)
                continue
            delay = self.retry_initial
            outage_reported = False
            # A frame cut by the unplug is garbage; a tag held during it is a new scan.
            self.decoder.reset()
            self.suppressor.reset()
            self.connected.set()
            self._emit("connected", detail=f"{self.protocol} at {self.baudrate} baud")
            try:
                self._read_until_failure()
            except PORT_ERRORS as exc:
                self.connected.clear()
                self._close_port()
                if not self._stop.is_set():
                    self._emit("disconnected", detail=str(exc) or type(exc).__name__)
                    outage_reported = True
                    self._stop.wait(delay)
                continue
        self.connected.clear()
        self._close_port()

    def _read_until_failure(self) -> None:
        port = self.port
        while not self._stop.is_set():
            waiting = port.in_waiting
            data = port.read(waiting or 1)  # blocks at most read_timeout
            if not data:
                continue
            for value in self.decoder.feed(data):
                if self.suppressor.accept(value):
                    self._emit("scan", value)


class ReaderGroup:
    """Several readers (or any objects with start/close) feeding one queue."""

    def __init__(self, events: queue.Queue[ReaderEvent] | None = None) -> None:
        self.events: queue.Queue[ReaderEvent] = events if events is not None else queue.Queue()
        self.readers: list[Any] = []
        self._started = False

    def add(self, url: UrlSource, protocol: str = "rdm6300", **options: Any) -> SerialReader:
        reader = SerialReader(url, protocol, events=self.events, **options)
        self.readers.append(reader)
        if self._started:
            reader.start()
        return reader

    def add_reader(self, reader: Any) -> Any:
        """Add an already built reader (e.g. a keypad) that writes to ``self.events``."""
        self.readers.append(reader)
        if self._started:
            reader.start()
        return reader

    def start(self) -> ReaderGroup:
        self._started = True
        for reader in self.readers:
            if not reader.running:
                reader.start()
        return self

    def close(self, timeout: float = 2.0) -> None:
        for reader in self.readers:  # signal all first so they stop in parallel
            reader.request_stop()
        for reader in self.readers:
            reader.close(timeout)
        self._started = False

    def get(self, timeout: float | None = None) -> ReaderEvent | None:
        try:
            return self.events.get(timeout=timeout)
        except queue.Empty:
            return None

    def __iter__(self) -> Iterable[ReaderEvent]:
        while True:
            yield self.events.get()

    def __enter__(self) -> ReaderGroup:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.close()
