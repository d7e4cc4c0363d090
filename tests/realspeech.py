"""Real human recordings (../shared/realspeech: Google Speech Commands, the free spoken
digit dataset), read in place and never copied into the repository; tests that use them
skip, saying why, where they are absent."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

_ROOT = Path(__file__).resolve().parents[1]
# The project's root sits next to shared/ (/work/main) or one folder deeper (a worktree);
# COMPANION_REALSPEECH names it anywhere else.
_PLACES = [Path(p) for p in filter(None, [os.environ.get("COMPANION_REALSPEECH")])] + [
    _ROOT.parent / "shared" / "realspeech", _ROOT.parent.parent / "shared" / "realspeech"]
REALSPEECH = next((p for p in _PLACES if (p / "manifest.csv").is_file()), None)
needs_realspeech = pytest.mark.skipif(
    REALSPEECH is None, reason="the real recordings (../shared/realspeech) are not here")


def clip(relative: str) -> bytes:
    """16 kHz mono 16-bit PCM of one recording (8 kHz ones upsampled)."""
    from companion.voice.audio import read_wav

    assert REALSPEECH is not None
    return read_wav(REALSPEECH / relative)


def commands(word: str, take: int) -> str:
    """The path of the `take`-th Speech Commands clip of `word` (in name order)."""
    assert REALSPEECH is not None
    folder = REALSPEECH / "speech-commands-sample" / "speech_commands_v0.01" / word
    return str(sorted(folder.glob("*.wav"))[take].relative_to(REALSPEECH))


def digit(number: int, speaker: str, take: int) -> str:
    """The path of one free spoken digit dataset recording."""
    return f"free-spoken-digit-dataset/recordings/{number}_{speaker}_{take}.wav"
