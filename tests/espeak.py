"""Speech made with espeak-ng at test time, read back as the recognizers take it."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

ESPEAK = shutil.which("espeak-ng")


def speak(folder: Path, text: str, voice: str) -> bytes:
    """16 kHz mono 16-bit PCM of `voice` (an espeak-ng voice, "fr", "uk+f2") saying `text`."""
    from companion.voice.audio import read_wav

    path = folder / f"{abs(hash((text, voice)))}.wav"
    subprocess.run([str(ESPEAK), "-v", voice, "-s", "150", "-w", str(path), text], check=True)
    return read_wav(path)
