"""Small PCM/WAV helpers shared by the synthesizer, the earcons, the sinks and the tests."""

from __future__ import annotations

import io
import math
import struct
import wave
from dataclasses import dataclass

# espeak-ng --stdout writes a streaming header whose sizes are 0x7fffffff-ish placeholders,
# so we never trust the RIFF/data sizes: we only need the format and where samples begin.


@dataclass(frozen=True)
class AudioFormat:
    rate: int = 22050
    channels: int = 1
    sample_width: int = 2  # bytes; espeak-ng and our earcons are signed 16-bit little endian

    @property
    def bytes_per_second(self) -> int:
        return self.rate * self.channels * self.sample_width


class WavHeaderError(ValueError):
    """The stream does not start with a RIFF/WAVE header we understand."""


def parse_wav_header(buf: bytes) -> tuple[AudioFormat, int] | None:
    """Return (format, offset of the first sample) or None if more bytes are needed."""
    if len(buf) < 12:
        return None
    if buf[0:4] != b"RIFF" or buf[8:12] != b"WAVE":
        raise WavHeaderError(f"not a WAV stream (starts with {buf[:12]!r})")
    pos = 12
    fmt: AudioFormat | None = None
    while True:
        if len(buf) < pos + 8:
            return None
        chunk_id = buf[pos : pos + 4]
        size = struct.unpack_from("<I", buf, pos + 4)[0]
        body = pos + 8
        if chunk_id == b"data":
            if fmt is None:
                raise WavHeaderError("WAV data chunk before fmt chunk")
            return fmt, body
        if len(buf) < body + size:
            return None
        if chunk_id == b"fmt ":
            tag, channels, rate = struct.unpack_from("<HHI", buf, body)
            bits = struct.unpack_from("<H", buf, body + 14)[0]
            if tag != 1 or bits != 16:
                raise WavHeaderError(f"unsupported WAV encoding (tag {tag}, {bits} bits)")
            fmt = AudioFormat(rate=rate, channels=channels, sample_width=bits // 8)
        pos = body + size + (size & 1)


def wav_bytes(pcm: bytes, fmt: AudioFormat) -> bytes:
    """Wrap raw PCM in a correct WAV container."""
    out = io.BytesIO()
    with wave.open(out, "wb") as w:
        w.setnchannels(fmt.channels)
        w.setsampwidth(fmt.sample_width)
        w.setframerate(fmt.rate)
        w.writeframes(pcm)
    return out.getvalue()


def read_wav(data: bytes) -> tuple[bytes, AudioFormat]:
    """Return (pcm, format) of a complete WAV file held in memory."""
    with wave.open(io.BytesIO(data), "rb") as w:
        fmt = AudioFormat(w.getframerate(), w.getnchannels(), w.getsampwidth())
        return w.readframes(w.getnframes()), fmt


def samples(pcm: bytes) -> memoryview:
    """Signed 16-bit samples of a PCM buffer (an odd trailing byte is ignored)."""
    return memoryview(pcm[: len(pcm) - (len(pcm) & 1)]).cast("h")


def rms(pcm: bytes) -> float:
    """Root mean square of 16-bit samples, 0 for an empty buffer."""
    s = samples(pcm)
    if not len(s):
        return 0.0
    return math.sqrt(sum(v * v for v in s) / len(s))


def duration(pcm: bytes, fmt: AudioFormat) -> float:
    return len(pcm) / fmt.bytes_per_second
