"""Frame decoders: bytes in, complete ids out. No threads, no I/O, no clocks.

Each decoder is incremental: ``feed`` may be called with any split of the byte stream
(one byte at a time or many frames at once) and returns the same ids either way.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

__all__ = [
    "DecoderStats",
    "FrameDecoder",
    "LineDecoder",
    "Rdm6300Decoder",
    "UidLineDecoder",
    "PROTOCOLS",
    "make_decoder",
    "parse_uid_line",
    "rdm6300_frame",
]


@dataclass(frozen=True)
class DecoderStats:
    frames_ok: int = 0
    frames_bad_checksum: int = 0
    frames_too_long: int = 0  # lines over max_length, dropped whole
    noise_bytes: int = 0  # bytes skipped while looking for a frame
    lines_ignored: int = 0  # uid-lines: lines that held no UID (banners, logs)


class FrameDecoder:
    """Base class: counters and the ``feed`` contract."""

    protocol = ""

    def __init__(self) -> None:
        self.frames_ok = 0
        self.frames_bad_checksum = 0
        self.frames_too_long = 0
        self.noise_bytes = 0
        self.lines_ignored = 0

    def feed(self, data: bytes) -> list[str]:  # pragma: no cover - abstract
        raise NotImplementedError

    def reset(self) -> None:
        """Forget any partial frame (e.g. after the device was replugged)."""

    @property
    def stats(self) -> DecoderStats:
        return DecoderStats(
            self.frames_ok,
            self.frames_bad_checksum,
            self.frames_too_long,
            self.noise_bytes,
            self.lines_ignored,
        )


# --- lines -----------------------------------------------------------------------------

_TERMINATORS = re.compile(rb"[\r\n\t]")
# Control bytes other than terminators are never part of a barcode we can speak; some
# scanners wrap codes in STX/ETX or send NULs on power-up, so they are skipped as noise.
_CONTROL = re.compile(rb"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")


class _LineSplitter:
    """Splits a byte stream on CR, LF or TAB with a bound on memory."""

    def __init__(self, owner: FrameDecoder, max_length: int) -> None:
        if max_length < 1:
            raise ValueError(f"max_length must be at least 1, not {max_length}")
        self.owner = owner
        self.max_length = max_length
        self.buf = b""
        self.discarding = False  # inside an over-long line: drop up to the next terminator

    def feed(self, data: bytes) -> list[bytes]:
        if not data:
            return []
        noise = _CONTROL.findall(data)
        if noise:
            self.owner.noise_bytes += len(noise)
            data = _CONTROL.sub(b"", data)
        parts = _TERMINATORS.split(self.buf + data)
        self.buf = parts.pop()
        lines: list[bytes] = []
        for part in parts:
            if self.discarding:
                self.discarding = False  # the tail of the over-long line ends here
                self.owner.noise_bytes += len(part)
                continue
            if len(part) > self.max_length:
                self.owner.frames_too_long += 1
                self.owner.noise_bytes += len(part)
                continue
            if part.strip():
                lines.append(part)
        if len(self.buf) > self.max_length:
            if not self.discarding:
                self.owner.frames_too_long += 1
            self.discarding = True
            self.owner.noise_bytes += len(self.buf)
            self.buf = b""
        return lines

    def reset(self) -> None:
        self.buf = b""
        self.discarding = False


class LineDecoder(FrameDecoder):
    """Barcode scanners in USB-COM/CDC mode: one code per line.

    CR, LF, CRLF and TAB all end a code; empty lines are ignored. ``prefix`` and
    ``suffix`` are stripped when present (scanners can be programmed to add them).
    """

    protocol = "line"

    def __init__(
        self,
        prefix: str = "",
        suffix: str = "",
        max_length: int = 256,
        encoding: str = "utf-8",
    ) -> None:
        super().__init__()
        self.prefix = prefix
        self.suffix = suffix
        self.encoding = encoding
        self._lines = _LineSplitter(self, max_length)

    def feed(self, data: bytes) -> list[str]:
        out: list[str] = []
        for raw in self._lines.feed(data):
            text = raw.decode(self.encoding, errors="replace").strip()
            if self.prefix and text.startswith(self.prefix):
                text = text[len(self.prefix) :]
            if self.suffix and text.endswith(self.suffix):
                text = text[: -len(self.suffix)]
            text = text.strip()
            if text:
                self.frames_ok += 1
                out.append(text)
        return out

    def reset(self) -> None:
        self._lines.reset()


# --- RDM6300 / EM4100 ------------------------------------------------------------------

_STX = 0x02
_ETX = 0x03
_HEX_BYTES = frozenset(b"0123456789ABCDEFabcdef")


def rdm6300_frame(card: str, *, crlf: bool = False, checksum: int | None = None) -> bytes:
    """Build the frame an RDM6300 sends for a 10-hex-digit card (for tests and benches)."""
    if len(card) != 10:
        raise ValueError(f"an EM4100 id has 10 hex digits, not {len(card)}: {card!r}")
    data = bytes.fromhex(card)
    if checksum is None:
        checksum = 0
        for b in data:
            checksum ^= b
    body = card.upper().encode("ascii") + f"{checksum:02X}".encode("ascii")
    return bytes([_STX]) + body + (b"\r\n" if crlf else b"") + bytes([_ETX])


class Rdm6300Decoder(FrameDecoder):
    """125 kHz EM4100 readers (RDM6300 and clones).

    Frame: STX, 10 hex ASCII data characters, 2 hex characters of checksum (XOR of the
    5 data bytes), optionally CR LF, then ETX. A candidate frame breaks as soon as a
    byte does not fit; its STX is then counted as noise and the search resumes at the
    next byte, so a real frame right after noise is never swallowed.
    """

    protocol = "rdm6300"

    def __init__(self) -> None:
        super().__init__()
        self._buf = bytearray()

    def reset(self) -> None:
        self._buf.clear()

    def feed(self, data: bytes) -> list[str]:
        buf = self._buf
        buf += data
        out: list[str] = []
        pos = 0
        n = len(buf)
        while pos < n:
            start = buf.find(_STX, pos)
            if start < 0:
                self.noise_bytes += n - pos
                pos = n
                break
            self.noise_bytes += start - pos
            pos = start
            end = self._frame_end(buf, start, n)
            if end == 0:  # incomplete so far: keep from STX and wait for more bytes
                break
            if end < 0:  # not a frame: skip this STX only
                self.noise_bytes += 1
                pos = start + 1
                continue
            body = bytes(buf[start + 1 : start + 13])
            raw = bytes.fromhex(body.decode("ascii"))
            check = raw[0] ^ raw[1] ^ raw[2] ^ raw[3] ^ raw[4]
            if check == raw[5]:
                self.frames_ok += 1
                out.append(body[:10].decode("ascii").upper())
            else:
                self.frames_bad_checksum += 1
            pos = end
        del buf[:pos]
        return out

    @staticmethod
    def _frame_end(buf: bytearray, start: int, n: int) -> int:
        """Index just past a well-formed frame at ``start``; 0 if incomplete; -1 if broken."""
        last = min(n, start + 13)
        for i in range(start + 1, last):
            if buf[i] not in _HEX_BYTES:
                return -1
        if n < start + 14:
            return 0
        tail = buf[start + 13]
        if tail == _ETX:
            return start + 14
        if tail != 0x0D:
            return -1
        if n < start + 15:
            return 0
        if buf[start + 14] != 0x0A:
            return -1
        if n < start + 16:
            return 0
        return start + 16 if buf[start + 15] == _ETX else -1


# --- UID lines from MFRC522 / PN532 sketches --------------------------------------------

# Optional label before the bytes: "UID:", "Card UID:", "UID Value:", "Tag UID =" ...
_UID_LABEL = re.compile(r"^(?:(?:card|tag|picc)\s+)?uid(?:\s+value)?\s*[:=]?\s*", re.IGNORECASE)
_UID_SEPARATORS = re.compile(r"[\s:,\-]+")
_HEX_TOKEN = re.compile(r"(?:0[xX])?([0-9A-Fa-f]{1,2})")
_HEX_RUN = re.compile(r"(?:0[xX])?([0-9A-Fa-f]+)")
UID_LENGTHS = (4, 7, 10)  # ISO 14443A single, double and triple size UIDs


def parse_uid_line(line: str) -> str | None:
    """The UID in one printed line, as uppercase hex without separators, else None."""
    text = _UID_LABEL.sub("", line.strip(), count=1).strip()
    if not text:
        return None
    tokens = [t for t in _UID_SEPARATORS.split(text) if t]
    if len(tokens) == 1:
        m = _HEX_RUN.fullmatch(tokens[0])
        if not m or len(m.group(1)) not in tuple(2 * k for k in UID_LENGTHS):
            return None
        return m.group(1).upper()
    if len(tokens) not in UID_LENGTHS:
        return None
    hex_bytes: list[str] = []
    for token in tokens:
        m = _HEX_TOKEN.fullmatch(token)
        if not m:
            return None
        hex_bytes.append(m.group(1).zfill(2))  # sketches printing "4" for 0x04
    return "".join(hex_bytes).upper()


class UidLineDecoder(FrameDecoder):
    """Microcontroller readers printing one UID per line; other lines are ignored."""

    protocol = "uid-lines"

    def __init__(self, max_length: int = 256, encoding: str = "utf-8") -> None:
        super().__init__()
        self.encoding = encoding
        self._lines = _LineSplitter(self, max_length)

    def feed(self, data: bytes) -> list[str]:
        out: list[str] = []
        for raw in self._lines.feed(data):
            uid = parse_uid_line(raw.decode(self.encoding, errors="replace"))
            if uid is None:
                self.lines_ignored += 1
                self.noise_bytes += len(raw)
            else:
                self.frames_ok += 1
                out.append(uid)
        return out

    def reset(self) -> None:
        self._lines.reset()


PROTOCOLS: dict[str, Callable[..., FrameDecoder]] = {
    "line": LineDecoder,
    "rdm6300": Rdm6300Decoder,
    "uid-lines": UidLineDecoder,
}


def make_decoder(protocol: str, **options: Any) -> FrameDecoder:
    """A fresh decoder for ``protocol``; options go to its constructor."""
    try:
        factory = PROTOCOLS[protocol]
    except KeyError:
        known = ", ".join(sorted(PROTOCOLS))
        raise ValueError(f"unknown reader protocol {protocol!r}; known: {known}") from None
    try:
        return factory(**options)
    except TypeError as exc:
        raise ValueError(f"bad option for protocol {protocol!r}: {exc}") from None
