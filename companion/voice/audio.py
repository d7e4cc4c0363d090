"""WAV files → 16 kHz mono 16-bit PCM, the only format the recognizers take. Standard library
only: average the channels, rescale the sample width, and resample with a windowed-sinc
polyphase filter (pure Python: about 0.3 s per second of 22.05 kHz audio, fine for commands
read from files; live capture is opened at 16 kHz and needs no resampling)."""

from __future__ import annotations

import math
import operator
import struct
from pathlib import Path

from companion.voice.reasons import Explained, explained

TARGET_RATE = 16000


class AudioError(Explained, ValueError):
    """The file cannot be used as speech input: `message` says why in the catalogue
    ([messages.voice_why], reasons.py), str() in English."""


def _to_ints(frames: bytes, width: int) -> list[int]:
    if width == 2:
        return list(struct.unpack(f"<{len(frames) // 2}h", frames))
    if width == 1:  # 8-bit WAV is unsigned
        return [(b - 128) << 8 for b in frames]
    if width in (3, 4):
        step = width
        return [int.from_bytes(frames[i:i + step], "little", signed=True) >> (8 * (step - 2))
                for i in range(0, len(frames) - step + 1, step)]
    raise explained(AudioError, "sample_width", width=width)


# Windowed-sinc (Blackman) resampler. The en-us model reads 130-6800 Hz, so anything that
# aliases below 6800 Hz must be gone: the cutoff sits at 0.925 of the lower Nyquist and the
# Blackman window (-74 dB side lobes) over 24 zero crossings each side ends the transition
# band before 8.3 kHz when going 22.05 -> 16 kHz. The old moving average was one sample wide
# at that ratio, i.e. no filter at all: 8-11 kHz frication folded into 5-8 kHz.
_ZERO_CROSSINGS = 24
_CUTOFF = 0.925


def _kernel(x: float, cutoff: float, half: float) -> float:
    """Low-pass impulse response at `x` input samples from the centre (cutoff in cycles per
    input sample, times 2), Blackman-windowed over +-half."""
    if abs(x) >= half:
        return 0.0
    arg = math.pi * cutoff * x
    sinc = 1.0 if arg == 0 else math.sin(arg) / arg
    phase = math.pi * (x / half + 1.0)  # 0..2*pi across the window
    window = 0.42 - 0.5 * math.cos(phase) + 0.08 * math.cos(2 * phase)
    return cutoff * sinc * window


def resample(samples: list[float], rate: int, target: int = TARGET_RATE) -> list[float]:
    """Band-limited rational resampling (polyphase: one weight table per output phase)."""
    if rate == target or not samples:
        return list(samples)
    g = math.gcd(rate, target)
    up, down = target // g, rate // g  # output j sits at input position j * down / up
    cutoff = _CUTOFF * min(1.0, target / rate)
    half = _ZERO_CROSSINGS / cutoff  # window half-width in input samples
    reach = math.ceil(half)
    table = []
    for phase in range(up):
        frac = phase * down % up / up
        table.append([_kernel(frac - k, cutoff, half) for k in range(-reach + 1, reach + 1)])
    padded = [0.0] * reach + list(samples) + [0.0] * (reach + 1)
    n = len(samples) * up // down
    out = []
    for j in range(n):
        base = j * down // up  # input index at or just before the output instant
        weights = table[j % up]
        window = padded[base + 1:base + 1 + 2 * reach]  # inputs base-reach+1 .. base+reach
        out.append(sum(map(operator.mul, window, weights)))
    return out


_PCM, _FLOAT, _EXTENSIBLE = 1, 3, 0xFFFE


def _chunks(data: bytes) -> dict[bytes, bytes]:
    """The chunks of a RIFF/WAVE file by id (the first of each), or {} if it is not one."""
    if len(data) < 12 or data[:4] != b"RIFF" or data[8:12] != b"WAVE":
        return {}
    out: dict[bytes, bytes] = {}
    pos = 12
    while pos + 8 <= len(data):
        cid, size = data[pos:pos + 4], int.from_bytes(data[pos + 4:pos + 8], "little")
        out.setdefault(cid, data[pos + 8:pos + 8 + size])
        pos += 8 + size + (size & 1)  # chunks are padded to an even length
    return out


def _parse_wav(path: str | Path) -> tuple[int, int, int, int, bytes]:
    """(format, channels, bytes per sample, rate, frames) of a WAV file. Read here rather
    than with the `wave` module, which refuses float samples and the extensible header
    that sox and most recorders write for 24- and 32-bit audio."""
    try:
        data = Path(path).read_bytes()
    except FileNotFoundError:
        raise explained(AudioError, "no_audio_file", path=str(path)) from None
    except OSError as exc:  # a folder, a file not ours to read
        raise explained(AudioError, "unreadable_audio", path=str(path),
                        detail=exc.strerror or str(exc)) from None
    chunks = _chunks(data)
    fmt = chunks.get(b"fmt ", b"")
    if len(fmt) < 16 or b"data" not in chunks:
        raise explained(AudioError, "not_wav", path=str(path))
    tag, channels, rate = struct.unpack("<HHI", fmt[:8])
    bits = struct.unpack("<H", fmt[14:16])[0]
    if tag == _EXTENSIBLE and len(fmt) >= 26:
        tag = struct.unpack("<H", fmt[24:26])[0]  # the sub-format GUID starts with the tag
    if tag not in (_PCM, _FLOAT) or channels < 1 or bits % 8:
        raise explained(AudioError, "wav_format", path=str(path), tag=tag, bits=bits)
    return tag, channels, bits // 8, rate, chunks[b"data"]


def _floats_to_ints(frames: bytes, width: int) -> list[int]:
    if width not in (4, 8):
        raise explained(AudioError, "float_width", width=width)
    code = "f" if width == 4 else "d"
    values = struct.unpack(f"<{len(frames) // width}{code}", frames[:len(frames) // width * width])
    return [round(max(-1.0, min(1.0, v)) * 32767) for v in values]


def read_wav(path: str | Path) -> bytes:
    """16 kHz mono 16-bit PCM from a WAV file, converting any other PCM or float WAV
    (8, 16, 24 or 32-bit integers, 32 or 64-bit floats, any rate, any channel count).

    Raises AudioError with a plain sentence for missing, unreadable, non-WAV or empty files.
    """
    tag, channels, width, rate, frames = _parse_wav(path)
    frames = frames[:len(frames) // (width * channels) * width * channels]  # whole frames
    if not frames:
        raise explained(AudioError, "no_audio", path=str(path))
    if tag == _PCM and channels == 1 and width == 2 and rate == TARGET_RATE:
        return frames
    ints = _floats_to_ints(frames, width) if tag == _FLOAT else _to_ints(frames, width)
    mono = [sum(ints[i:i + channels]) / channels for i in range(0, len(ints), channels)]
    out = resample(mono, rate)
    return struct.pack(f"<{len(out)}h", *(max(-32768, min(32767, round(s))) for s in out))
