"""Microphones that fail, for the tests of what is said when voice cannot start or stops:
SpeechRecognition's own audio-file source standing for the device, so its real code runs."""

from __future__ import annotations

import wave
from pathlib import Path


def silent_wav(path: Path, seconds: float = 0.5) -> Path:
    """A silent 16 kHz mono 16-bit WAV file at `path`."""
    with wave.open(str(path), "wb") as out:
        out.setnchannels(1)
        out.setsampwidth(2)
        out.setframerate(16000)
        out.writeframes(bytes(2 * int(16000 * seconds)))
    return path


class FailingMicrophone:
    """An audio file that fails as a microphone does, from its `fail_from`-th opening (1:
    at once; 2: once the room was measured): it refuses to open (`on="open"`, PortAudio's
    OSError for a busy or missing device) or its stream fails while read (`on="read"`, a
    microphone unplugged)."""

    def __init__(self, path: Path, on: str, fail_from: int = 1) -> None:
        import speech_recognition as sr

        self._file = sr.AudioFile(str(path))
        self._on, self._fail_from, self._opened = on, fail_from, 0

    def __getattr__(self, name: str):  # type: ignore[no-untyped-def]
        return getattr(self._file, name)

    def __enter__(self):  # type: ignore[no-untyped-def]
        self._opened += 1
        failing = self._opened >= self._fail_from
        if failing and self._on == "open":
            raise OSError(-9996, "Invalid input device")
        opened = self._file.__enter__()
        if failing:
            def broken(size: int) -> bytes:
                raise OSError(-9988, "Stream closed")
            opened.stream.read = broken
        return opened

    def __exit__(self, *exc: object) -> None:
        self._file.__exit__(*exc)
