"""WAV files → 16 kHz mono 16-bit PCM, the only format the recognizers take. Standard library
only: the conversions are simple enough (average the channels, rescale the sample width,
resample by linear interpolation after a short low-pass) for command-length audio."""

from __future__ import annotations

import struct
import wave
from pathlib import Path

TARGET_RATE = 16000


class AudioError(ValueError):
    """The file cannot be used as speech input; the message is a plain sentence."""


def _to_ints(frames: bytes, width: int) -> list[int]:
    if width == 2:
        return list(struct.unpack(f"<{len(frames) // 2}h", frames))
    if width == 1:  # 8-bit WAV is unsigned
        return [(b - 128) << 8 for b in frames]
    if width in (3, 4):
        step = width
        return [int.from_bytes(frames[i:i + step], "little", signed=True) >> (8 * (step - 2))
                for i in range(0, len(frames) - step + 1, step)]
    raise AudioError(f"unsupported sample width of {width} bytes")


def _lowpass(samples: list[float], ratio: float) -> list[float]:
    """A moving average about one output period long, against aliasing when downsampling."""
    width = max(1, round(1 / ratio))
    if width == 1:
        return samples
    out, acc = [], 0.0
    for i, s in enumerate(samples):
        acc += s
        if i >= width:
            acc -= samples[i - width]
        out.append(acc / min(i + 1, width))
    return out


def _resample(samples: list[float], rate: int) -> list[float]:
    if rate == TARGET_RATE or not samples:
        return samples
    ratio = TARGET_RATE / rate
    if ratio < 1:
        samples = _lowpass(samples, ratio)
    n = int(len(samples) * ratio)
    out = []
    last = len(samples) - 1
    for j in range(n):
        x = j / ratio
        i = min(int(x), last)
        frac = x - i
        nxt = samples[min(i + 1, last)]
        out.append(samples[i] + (nxt - samples[i]) * frac)
    return out


def read_wav(path: str | Path) -> bytes:
    """16 kHz mono 16-bit PCM from a WAV file, converting any other PCM WAV.

    Raises AudioError with a plain sentence for missing, non-WAV or empty files.
    """
    try:
        with wave.open(str(path), "rb") as w:
            channels, width, rate = w.getnchannels(), w.getsampwidth(), w.getframerate()
            frames = w.readframes(w.getnframes())
    except FileNotFoundError:
        raise AudioError(f"no such audio file: {path}") from None
    except (wave.Error, EOFError) as exc:
        raise AudioError(f"{path} is not a PCM WAV file ({exc})") from None
    if not frames:
        raise AudioError(f"{path} holds no audio")
    if channels == 1 and width == 2 and rate == TARGET_RATE:
        return frames
    ints = _to_ints(frames, width)
    mono = [sum(ints[i:i + channels]) / channels for i in range(0, len(ints), channels)]
    out = _resample(mono, rate)
    return struct.pack(f"<{len(out)}h", *(max(-32768, min(32767, round(s))) for s in out))
