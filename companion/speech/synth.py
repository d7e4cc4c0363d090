"""espeak-ng as a streaming synthesizer: text in, WAV bytes out as they are produced.

We run the `espeak-ng` program (not pyttsx3) because pyttsx3's espeak driver plays through a
blocking `aplay` that its stop() cannot interrupt. Reading `--stdout` incrementally lets the
player start on the first 4 KiB (about 90 ms of audio) instead of waiting for the sentence.
"""

from __future__ import annotations

import contextlib
import functools
import os
import shutil
import subprocess
from collections.abc import Iterator

from .audio import AudioFormat, parse_wav_header
from .settings import SpeechSettings

# Checked against `espeak-ng --voices` (1.51): these names exist and select the language's
# main variety. Overridable per language in the settings (`[speech.voices]`).
DEFAULT_VOICES: dict[str, str] = {"fr": "fr-fr", "en": "en-gb", "es": "es", "uk": "uk"}

CHUNK = 4096


def espeak_binary() -> str | None:
    return shutil.which("espeak-ng")


@functools.lru_cache(maxsize=4)
def installed_voices(binary: str) -> frozenset[str]:
    """Voice names and language codes espeak-ng accepts for -v (empty if it cannot say)."""
    try:
        out = subprocess.run([binary, "--voices"], capture_output=True, text=True, timeout=5,
                             check=False).stdout
    except (OSError, subprocess.TimeoutExpired):
        return frozenset()
    names: set[str] = set()
    for line in out.splitlines()[1:]:
        cols = line.split()
        if len(cols) >= 5:
            names.add(cols[1])  # language code, e.g. fr-fr
            names.add(cols[4])  # file, e.g. roa/fr
            names.add(cols[4].rsplit("/", 1)[-1])  # file base name, e.g. fr
    return frozenset(names)


def amplitude(volume: int) -> int:
    """Map the 0..100 volume setting to espeak-ng's -a (0..200, 100 = its default)."""
    return max(0, min(200, round(volume * 2)))


def resolve_voice(
    lang: str, settings: SpeechSettings, binary: str | None
) -> tuple[str, str | None]:
    """(voice, warning or None). An override that espeak-ng does not know falls back."""
    default = DEFAULT_VOICES.get(lang, lang)
    override = settings.voice_override(lang)
    if override is None:
        return default, None
    known = installed_voices(binary) if binary else frozenset()
    if not known or override in known:
        return override, None
    return default, f"espeak-ng has no voice {override!r} for {lang}; using {default}."


class SynthStream:
    """One running synthesis. `kill()` may be called from any thread."""

    def __init__(self, binary: str, text: str, voice: str, settings: SpeechSettings) -> None:
        self.voice = voice
        self.argv = [binary, "--stdout", "-v", voice, "-s", str(settings.rate),
                     "-p", str(settings.pitch), "-a", str(amplitude(settings.volume))]
        # Text through stdin, not argv: no quoting, length or leading-dash surprises.
        self.proc = subprocess.Popen(self.argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.DEVNULL, start_new_session=True)
        assert self.proc.stdin is not None
        try:
            self.proc.stdin.write(text.encode("utf-8"))
            self.proc.stdin.close()
        except BrokenPipeError:
            pass
        self.format: AudioFormat | None = None
        self._first = b""

    def read_header(self) -> AudioFormat | None:
        """Block until the WAV header is read; None if espeak-ng produced nothing."""
        assert self.proc.stdout is not None
        fd = self.proc.stdout.fileno()
        buf = b""
        while True:
            parsed = parse_wav_header(buf)
            if parsed is not None:
                self.format, offset = parsed
                self._first = buf[offset:]
                return self.format
            try:
                more = os.read(fd, CHUNK)
            except OSError:
                return None
            if not more:
                return None
            buf += more

    def chunks(self) -> Iterator[bytes]:
        assert self.proc.stdout is not None
        if self._first:
            yield self._first
            self._first = b""
        fd = self.proc.stdout.fileno()
        while True:
            try:
                data = os.read(fd, CHUNK)
            except OSError:
                return
            if not data:
                return
            yield data

    def kill(self) -> None:
        if self.proc.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                self.proc.kill()

    def close(self) -> None:
        self.kill()
        if self.proc.stdout is not None:
            self.proc.stdout.close()
        with contextlib.suppress(subprocess.TimeoutExpired):  # SIGKILL: practically never
            self.proc.wait(timeout=1)
