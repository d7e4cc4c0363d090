"""WAV conversion to 16 kHz: the resampler keeps tones and removes what would alias."""

from __future__ import annotations

import math
import struct
import wave
from pathlib import Path

import pytest

from companion.voice.audio import TARGET_RATE, read_wav, resample


def _tone(freq: float, rate: int, seconds: float = 0.5, amp: float = 10000.0) -> list[float]:
    return [amp * math.sin(2 * math.pi * freq * n / rate) for n in range(int(rate * seconds))]


def _power_at(samples: list[float], freq: float, rate: int = TARGET_RATE) -> float:
    """Amplitude of the `freq` component (a single-bin DFT over the steady middle part)."""
    mid = samples[len(samples) // 5: -len(samples) // 5]
    re = sum(s * math.cos(2 * math.pi * freq * n / rate) for n, s in enumerate(mid))
    im = sum(s * math.sin(2 * math.pi * freq * n / rate) for n, s in enumerate(mid))
    return 2 * math.hypot(re, im) / len(mid)


def _rms(samples: list[float]) -> float:
    mid = samples[len(samples) // 5: -len(samples) // 5]
    return math.sqrt(sum(s * s for s in mid) / len(mid))


@pytest.mark.parametrize("rate", [22050, 44100, 48000, 8000])
def test_tone_in_band_is_kept(rate: int) -> None:
    out = resample(_tone(1000.0, rate), rate)
    assert abs(len(out) - TARGET_RATE // 2) <= 1
    assert _power_at(out, 1000.0) == pytest.approx(10000.0, rel=0.01)
    assert _power_at(out, 1100.0) < 100  # the tone is where it was, not smeared or shifted


@pytest.mark.parametrize(("rate", "freq"), [(22050, 9000.0), (22050, 10500.0), (44100, 9500.0)])
def test_tone_above_8khz_does_not_alias(rate: int, freq: float) -> None:
    # Without a low-pass filter, 9 kHz at 22.05 kHz lands at 7 kHz inside the model's band.
    out = resample(_tone(freq, rate), rate)
    assert _rms(out) < 10000 * 10 ** (-60 / 20)  # at least 60 dB down


def test_same_rate_is_a_copy() -> None:
    tone = _tone(440.0, TARGET_RATE, 0.01)
    assert resample(tone, TARGET_RATE) == tone


def test_read_wav_22050(tmp_path: Path) -> None:
    path = tmp_path / "espeak-like.wav"
    with wave.open(str(path), "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(22050)
        w.writeframes(struct.pack("<22050h", *(round(s) for s in _tone(500.0, 22050, 1.0))))
    pcm = read_wav(path)
    samples = list(struct.unpack(f"<{len(pcm) // 2}h", pcm))
    assert abs(len(samples) - 16000) <= 1
    assert _power_at([float(s) for s in samples], 500.0) == pytest.approx(10000.0, rel=0.01)


def _tone_in_noise(snr_db: float, seed: int = 1) -> bytes:
    """1 s of a 300 Hz tone between 0.5 s of noise each side, noise at `snr_db` below it."""
    import random

    rng = random.Random(seed)
    amp = 8000.0
    noise = amp / math.sqrt(2) / (10 ** (snr_db / 20))
    out = []
    for n in range(32000):
        tone = amp * math.sin(2 * math.pi * 300 * n / 16000) if 8000 <= n < 24000 else 0.0
        out.append(max(-32768, min(32767, round(tone + rng.gauss(0.0, noise)))))
    return struct.pack(f"<{len(out)}h", *out)


def test_loudness_margin_follows_the_noise() -> None:
    from companion.voice.sphinx import prepare

    margins = [prepare(_tone_in_noise(snr))[1] for snr in (40, 20, 10, 3)]
    assert margins == sorted(margins, reverse=True)
    assert margins[0] > 30 and margins[-1] < 10
    trimmed, _ = prepare(_tone_in_noise(30))
    assert 16000 * 2 <= len(trimmed) <= 19500 * 2  # the tone plus about 0.1 s each side
