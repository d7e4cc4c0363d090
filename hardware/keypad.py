"""USB keypads and keyboard-wedge barcode readers on Linux, read through evdev.

evdev is optional. Without it this module still imports; ``evdev_status()`` says in a
plain sentence why devices cannot be read, and ``KeypadReader`` raises
``EvdevUnavailable`` carrying that sentence. The key mapping (``key_to_char``,
``KeyLineBuilder``) is pure and works without evdev.

Key codes are read below any keyboard layout, so a wedge scanner that "types" as a US
keyboard gives the right characters whatever the system layout, and a keypad gives
digits whether NumLock is on or off.
"""

from __future__ import annotations

import contextlib
import errno
import importlib
import queue
import select
import sys
import time
from collections.abc import Callable
from typing import Any

from .events import EventKind, ReaderEvent, failure_reason
from .worker import DeviceThread

__all__ = [
    "EvdevUnavailable",
    "KeyLineBuilder",
    "KeypadReader",
    "evdev_status",
    "find_input_device",
    "key_to_char",
    "require_evdev",
]


class EvdevUnavailable(RuntimeError):
    """evdev cannot be used here; the message is a sentence meant for the user."""


# --- pure mapping ------------------------------------------------------------------------

_KEYPAD = {
    "KEY_KPENTER": "\n",
    "KEY_KPPLUS": "+",
    "KEY_KPMINUS": "-",
    "KEY_KPASTERISK": "*",
    "KEY_KPSLASH": "/",
    "KEY_KPDOT": ".",
    "KEY_KPCOMMA": ",",
    "KEY_KPEQUAL": "=",
    **{f"KEY_KP{d}": str(d) for d in range(10)},
}
# Main-block keys as (unshifted, shifted) on a US layout, which wedge scanners emulate.
_MAIN = {
    "KEY_SPACE": (" ", " "),
    "KEY_MINUS": ("-", "_"),
    "KEY_EQUAL": ("=", "+"),
    "KEY_DOT": (".", ">"),
    "KEY_COMMA": (",", "<"),
    "KEY_SLASH": ("/", "?"),
    "KEY_SEMICOLON": (";", ":"),
    "KEY_APOSTROPHE": ("'", '"'),
    "KEY_LEFTBRACE": ("[", "{"),
    "KEY_RIGHTBRACE": ("]", "}"),
    "KEY_BACKSLASH": ("\\", "|"),
    "KEY_GRAVE": ("`", "~"),
    **{f"KEY_{d}": (str(d), ")!@#$%^&*("[d]) for d in range(10)},
    **{f"KEY_{c}": (c.lower(), c) for c in "ABCDEFGHIJKLMNOPQRSTUVWXYZ"},
}
_CONTROL = {"KEY_ENTER": "\n", "KEY_TAB": "\t", "KEY_BACKSPACE": "\b", "KEY_ESC": "\x1b"}
SHIFT_KEYS = frozenset({"KEY_LEFTSHIFT", "KEY_RIGHTSHIFT"})
#: How special characters appear as the value of "key" events.
KEY_NAMES = {"\n": "ENTER", "\t": "TAB", "\b": "BACKSPACE", "\x1b": "ESCAPE"}


def key_to_char(key: str, shift: bool = False) -> str | None:
    """The character an evdev key name produces ("KEY_KP7" → "7"), or None if none.

    Enter gives "\\n", Tab "\\t", Backspace "\\b" and Escape "\\x1b".
    """
    if key in _KEYPAD:
        return _KEYPAD[key]
    if key in _CONTROL:
        return _CONTROL[key]
    pair = _MAIN.get(key)
    if pair is None:
        return None
    return pair[1] if shift else pair[0]


class KeyLineBuilder:
    """Turns key presses into "key" events and completed lines ("scan" events).

    Enter or Tab ends a line (wedge scanners send one of them after the code); Backspace
    edits it, Escape clears it. Autorepeat is ignored by default so a key held by a
    hesitant finger is one press.
    """

    def __init__(self, max_length: int = 256, autorepeat: bool = False) -> None:
        self.max_length = max_length
        self.autorepeat = autorepeat
        self.shift = False
        self.buffer: list[str] = []

    def press(self, key: str, value: int) -> list[tuple[EventKind, str]]:
        """Feed one EV_KEY event: ``value`` 1 = down, 0 = up, 2 = autorepeat."""
        if key in SHIFT_KEYS:
            self.shift = value != 0
            return []
        if value == 0 or (value == 2 and not self.autorepeat):
            return []
        char = key_to_char(key, self.shift)
        if char is None:
            return []
        out: list[tuple[EventKind, str]] = [("key", KEY_NAMES.get(char, char))]
        if char in "\n\t":
            line = "".join(self.buffer).strip()
            self.buffer.clear()
            if line:
                out.append(("scan", line))
        elif char == "\b":
            if self.buffer:
                self.buffer.pop()
        elif char == "\x1b":
            self.buffer.clear()
        elif len(self.buffer) < self.max_length:
            self.buffer.append(char)
        return out

    def reset(self) -> None:
        self.shift = False
        self.buffer.clear()


# --- evdev access ----------------------------------------------------------------------


def _load_evdev() -> Any:
    if not sys.platform.startswith("linux"):
        raise EvdevUnavailable(
            f"Keypads are read through evdev, which exists only on Linux; this system is "
            f"{sys.platform}, so use the keypad as an ordinary keyboard instead."
        )
    try:
        return importlib.import_module("evdev")
    except ImportError as exc:
        raise EvdevUnavailable(
            "The evdev package is not installed, so keypads and keyboard-wedge readers "
            "cannot be read directly; install it with 'pip install evdev' "
            f"(or the project's 'evdev' extra). Import error: {exc}."
        ) from None


def require_evdev() -> Any:
    """The evdev module, or EvdevUnavailable with a sentence saying why not."""
    return _load_evdev()


def evdev_status() -> str:
    """Empty string when evdev is usable, else a sentence saying why not."""
    try:
        _load_evdev()
    except EvdevUnavailable as exc:
        return str(exc)
    return ""


def _open_error(path: str, exc: OSError) -> str:
    if exc.errno in (errno.EACCES, errno.EPERM):
        return (
            f"Permission denied opening {path}: add this user to the 'input' group or "
            "install the udev rule from docs/hardware.md, then log in again."
        )
    return f"cannot open {path}: {exc.strerror or exc}"


def find_input_device(spec: str) -> Any:
    """Open an input device by path (/dev/input/...) or by name (exact, else substring)."""
    evdev = require_evdev()
    if spec.startswith("/"):
        try:
            return evdev.InputDevice(spec)
        except OSError as exc:
            raise OSError(exc.errno, _open_error(spec, exc)) from None
    candidates = []
    denied: list[str] = []
    for path in evdev.list_devices():
        try:
            candidates.append(evdev.InputDevice(path))
        except OSError:  # usually permissions; reported below if nothing matches
            denied.append(path)
    for matcher in (lambda d: d.name == spec, lambda d: spec.lower() in d.name.lower()):
        found = [d for d in candidates if matcher(d)]
        if found:
            for other in candidates:
                if other is not found[0]:
                    other.close()
            return found[0]
    for d in candidates:
        d.close()
    hint = f" {len(denied)} input devices could not be opened (permissions?)." if denied else ""
    raise OSError(errno.ENODEV, f"no input device named like {spec!r}.{hint}")


class KeypadReader(DeviceThread):
    """Reads a keypad or wedge scanner in a daemon thread, grabbing it by default.

    Grabbing means keystrokes go only to the companion, not to whatever window has the
    focus. Emits "key" events per keystroke (if ``emit_keys``) and "scan" events per
    completed line (if ``emit_lines``), plus connected/disconnected/error, and retries
    with backoff when the device is unplugged.
    """

    thread_prefix = "keypad"

    def __init__(
        self,
        device: str,
        *,
        name: str | None = None,
        grab: bool = True,
        emit_keys: bool = True,
        emit_lines: bool = True,
        on_event: Callable[[ReaderEvent], None] | None = None,
        events: queue.Queue[ReaderEvent] | None = None,
        retry_initial: float = 0.2,
        retry_max: float = 2.0,
        poll: float = 0.1,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self._evdev = require_evdev()
        super().__init__(name or device, device, on_event, events, clock)
        self.device = device
        self.grab = grab
        self.emit_keys = emit_keys
        self.emit_lines = emit_lines
        self.builder = KeyLineBuilder()
        self.retry_initial = retry_initial
        self.retry_max = retry_max
        self.poll = poll

    def _run(self) -> None:
        ecodes = self._evdev.ecodes
        delay = self.retry_initial
        reported = False
        while not self._stop.is_set():
            try:
                dev = find_input_device(self.device)
                self.url = dev.path
                if self.grab:
                    try:
                        dev.grab()
                    except OSError as exc:
                        dev.close()
                        raise OSError(
                            exc.errno,
                            f"cannot grab {dev.path}: another program "
                            f"holds it exclusively ({exc.strerror})",
                        ) from None
            except OSError as exc:
                if not reported:
                    self._emit("error", detail=str(exc.strerror or exc),
                               reason=failure_reason(exc))
                    reported = True
                self._stop.wait(delay)
                delay = min(delay * 2, self.retry_max)
                continue
            delay, reported = self.retry_initial, False
            self.builder.reset()
            self.connected.set()
            self._emit("connected", detail=dev.name)
            try:
                while not self._stop.is_set():
                    ready, _, _ = select.select([dev.fd], [], [], self.poll)
                    if not ready:
                        continue
                    for ev in dev.read():
                        if ev.type != ecodes.EV_KEY:
                            continue
                        names = ecodes.KEY.get(ev.code) or ecodes.BTN.get(ev.code)
                        if isinstance(names, list | tuple):
                            names = next((n for n in names if key_to_char(n) is not None), names[0])
                        if not names:
                            continue
                        for kind, value in self.builder.press(names, ev.value):
                            if (kind == "key" and self.emit_keys) or (
                                kind == "scan" and self.emit_lines
                            ):
                                self._emit(kind, value)
            except OSError as exc:  # ENODEV when unplugged
                self.connected.clear()
                if not self._stop.is_set():
                    self._emit("disconnected", detail=str(exc.strerror or exc))
                    reported = True
            finally:
                with contextlib.suppress(OSError):
                    if self.grab:
                        dev.ungrab()
                with contextlib.suppress(OSError):
                    dev.close()
        self.connected.clear()
