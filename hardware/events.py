"""The one message type the hardware layer hands to the application."""

from __future__ import annotations

import errno
from dataclasses import dataclass
from typing import Literal

EventKind = Literal["scan", "key", "connected", "disconnected", "error"]

#: "scan": a decoded card id or a scanned/typed line; "key": one keystroke from a keypad;
#: "connected"/"disconnected": the device appeared or vanished; "error": it could not be
#: opened or used, with a readable reason in ``detail``.
EVENT_KINDS: tuple[str, ...] = ("scan", "key", "connected", "disconnected", "error")


#: Why a device cannot be opened, as codes the application says in the player's language.
FAILURES: tuple[str, ...] = ("not_found", "permission", "busy", "other")
_ERRNO_FAILURES = {
    errno.ENOENT: "not_found", errno.ENODEV: "not_found", errno.ENXIO: "not_found",
    errno.ECONNREFUSED: "not_found", errno.EHOSTUNREACH: "not_found",
    errno.EACCES: "permission", errno.EPERM: "permission",
    errno.EBUSY: "busy", errno.EAGAIN: "busy",
}


def failure_reason(exc: BaseException) -> str:
    """The FAILURES code of an exception raised while opening a device (pyserial's
    SerialException and OSError carry the system's errno)."""
    code = getattr(exc, "errno", None)
    if code is None and isinstance(exc.__cause__ or exc.__context__, OSError):
        code = getattr(exc.__cause__ or exc.__context__, "errno", None)
    return _ERRNO_FAILURES.get(code, "other") if isinstance(code, int) else "other"


@dataclass(frozen=True)
class ReaderEvent:
    """Raw input from one device; carries no game meaning."""

    reader: str
    url: str
    kind: EventKind
    value: str = ""
    timestamp: float = 0.0  # time.monotonic() when the event was produced
    detail: str = ""  # human-readable reason for "error" and "disconnected"
    reason: str = ""  # why an "error": one of FAILURES, for the application to word

    def __post_init__(self) -> None:
        if self.kind not in EVENT_KINDS:
            raise ValueError(f"unknown event kind {self.kind!r}; known: {', '.join(EVENT_KINDS)}")

    def text(self) -> str:
        """One plain line, suitable for a screen reader or a braille display."""
        parts = [self.reader, self.kind]
        if self.value:
            parts.append(self.value)
        line = " ".join(parts)
        if self.detail:
            line += f": {self.detail}"
        return line
