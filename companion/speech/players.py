"""Players: where PCM goes. Every player can be silenced at once from any thread.

- CommandPlayer: a subprocess (aplay, paplay, or the paced sink) fed raw PCM on stdin and
  SIGKILLed to stop. Killing the process closes the PCM, which drops the device buffer, so
  silence comes within a few milliseconds, unlike pyttsx3's espeak driver, which waits for
  a blocking `aplay` to finish.
- FileSinkPlayer: in-process recorder (memory and optionally a folder of WAV files). Used
  for `--speech-out DIR`, tests and the benchmark; with realtime=True it consumes audio at
  the sample rate like a sound card, so interruption truncates the recording.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import subprocess
import sys
import threading
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from .audio import AudioFormat, wav_bytes


class PlayerGone(Exception):
    """The player was stopped or died; the rest of this utterance is dropped."""


class PlayHandle(Protocol):
    first_write_at: float | None

    def write(self, data: bytes) -> None: ...
    def finish(self) -> None: ...
    def wait(self, timeout: float | None = None) -> bool: ...
    def kill(self) -> None: ...
    @property
    def failed(self) -> bool: ...


class Player(Protocol):
    name: str

    def open(self, fmt: AudioFormat, meta: Mapping[str, Any]) -> PlayHandle: ...


# Subprocess players ---------------------------------------------------------------------


class _ProcHandle:
    def __init__(self, argv: list[str]) -> None:
        self.argv = argv
        self.first_write_at: float | None = None
        self._killed = False
        self.proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.DEVNULL,
                                     stderr=subprocess.DEVNULL, bufsize=0)

    def write(self, data: bytes) -> None:
        assert self.proc.stdin is not None
        if self.first_write_at is None:
            self.first_write_at = time.perf_counter()
        view = memoryview(data)
        try:
            while view:
                n = os.write(self.proc.stdin.fileno(), view)
                view = view[n:]
        except (BrokenPipeError, OSError, ValueError) as exc:
            raise PlayerGone(str(exc)) from exc

    def finish(self) -> None:
        try:
            if self.proc.stdin is not None:
                self.proc.stdin.close()
        except OSError:
            pass

    def wait(self, timeout: float | None = None) -> bool:
        try:
            self.proc.wait(timeout=timeout)
            return True
        except subprocess.TimeoutExpired:
            return False

    def kill(self) -> None:
        self._killed = True
        if self.proc.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                self.proc.kill()
        # Reap now: the caller's "silence" really is silence, and no zombie is left behind.
        with contextlib.suppress(subprocess.TimeoutExpired):
            self.proc.wait(timeout=0.1)
        self.finish()

    @property
    def failed(self) -> bool:
        rc = self.proc.poll()
        return not self._killed and rc is not None and rc != 0


class CommandPlayer:
    """Runs `argv` per utterance; `{rate}`, `{channels}` and `{bits}` are filled in."""

    def __init__(self, name: str, argv: Sequence[str]) -> None:
        self.name = name
        self.argv = list(argv)

    def open(self, fmt: AudioFormat, meta: Mapping[str, Any]) -> _ProcHandle:
        values = {"rate": fmt.rate, "channels": fmt.channels, "bits": fmt.sample_width * 8}
        return _ProcHandle([a.format(**values) for a in self.argv])


def aplay_player(device: str | None = None) -> CommandPlayer:
    dev = ["-D", device] if device else []
    # aplay by default starts the PCM only once its whole buffer (~0.5 s) is full: ask for a
    # 200 ms buffer started after 20 ms of audio, so the first chunk is heard at once.
    return CommandPlayer(f"aplay{':' + device if device else ''}",
                         ["aplay", "-q", *dev, "-B", "200000", "-R", "20000", "-t", "raw",
                          "-f", "S16_LE", "-r", "{rate}", "-c", "{channels}", "-"])


def paplay_player() -> CommandPlayer:
    return CommandPlayer("paplay", ["paplay", "--raw", "--format=s16le", "--rate={rate}",
                                    "--channels={channels}"])


def paced_sink_player(out_file: str | os.PathLike[str]) -> CommandPlayer:
    """A real subprocess that consumes audio at the sample rate and appends it to a raw file.

    Stands in for a sound card where there is none (tests, benchmark): how much audio reached
    the file is how much a listener would have heard.
    """
    return CommandPlayer("paced-sink", [sys.executable, "-m", "companion.speech.sinkplay",
                                        str(out_file), "--rate", "{rate}",
                                        "--channels", "{channels}"])


def probe_command(argv: list[str], timeout: float = 1.5) -> bool:
    """Play 20 ms of silence; True if the output opened and played it."""
    if not argv or shutil.which(argv[0]) is None:
        return False
    silence = bytes(2 * 441)
    try:
        r = subprocess.run(argv, input=silence, stdout=subprocess.DEVNULL,
                           stderr=subprocess.DEVNULL, timeout=timeout, check=False)
    except (OSError, subprocess.TimeoutExpired):
        return False
    return r.returncode == 0


def probe_player(player: CommandPlayer, timeout: float = 1.5) -> bool:
    values = {"rate": 22050, "channels": 1, "bits": 16}
    return probe_command([a.format(**values) for a in player.argv], timeout)


# File sink ------------------------------------------------------------------------------


@dataclass
class Recording:
    """One utterance or earcon as the sink received it."""

    index: int
    meta: dict[str, Any]
    fmt: AudioFormat
    pcm: bytes = b""
    interrupted: bool = False
    opened_at: float = 0.0
    first_write_at: float | None = None
    closed_at: float | None = None
    path: Path | None = None

    @property
    def wav(self) -> bytes:
        return wav_bytes(self.pcm, self.fmt)

    @property
    def seconds(self) -> float:
        return len(self.pcm) / self.fmt.bytes_per_second


class _SinkHandle:
    LEAD = 0.05  # like a device buffer: accept this much audio ahead of "now"

    def __init__(self, sink: FileSinkPlayer, rec: Recording) -> None:
        self.sink = sink
        self.rec = rec
        self.first_write_at: float | None = None
        self._buf = bytearray()
        self._killed = threading.Event()
        self._done = threading.Event()
        self._start: float | None = None

    def _played_until(self) -> float:
        assert self._start is not None
        return self._start + len(self._buf) / self.rec.fmt.bytes_per_second

    def write(self, data: bytes) -> None:
        if self._killed.is_set():
            raise PlayerGone("stopped")
        now = time.perf_counter()
        if self.first_write_at is None:
            self.first_write_at = self.rec.first_write_at = now
            self._start = now
        if self.sink.realtime:
            bps = self.rec.fmt.bytes_per_second
            step = max(2, (bps // 50) & ~1)  # 20 ms slices so a stop truncates precisely
            for i in range(0, len(data), step):
                delay = self._played_until() - self.LEAD - time.perf_counter()
                if delay > 0 and self._killed.wait(delay):
                    raise PlayerGone("stopped")
                self._buf += data[i : i + step]
        else:
            self._buf += data

    def finish(self) -> None:
        if self.sink.realtime and self._start is not None:
            delay = self._played_until() - time.perf_counter()
            if delay > 0 and self._killed.wait(delay):
                return
        self._close(interrupted=False)

    def wait(self, timeout: float | None = None) -> bool:
        return self._done.wait(timeout)

    def kill(self) -> None:
        self._killed.set()
        self._close(interrupted=True)

    def _close(self, interrupted: bool) -> None:
        with self.sink._lock:
            if self._done.is_set():
                return
            self.rec.pcm = bytes(self._buf)
            self.rec.interrupted = interrupted
            self.rec.closed_at = time.perf_counter()
            self.sink._store(self.rec)
            self._done.set()

    @property
    def failed(self) -> bool:
        return False


@dataclass
class FileSinkPlayer:
    """Records every utterance; writes `NNNN-kind.wav` + `index.jsonl` when given a folder."""

    out_dir: Path | None = None
    realtime: bool = False
    name: str = "file-sink"
    recordings: list[Recording] = field(default_factory=list)
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False)
    _count: int = 0

    def __post_init__(self) -> None:
        if self.out_dir is not None:
            self.out_dir = Path(self.out_dir)
            self.out_dir.mkdir(parents=True, exist_ok=True)

    def open(self, fmt: AudioFormat, meta: Mapping[str, Any]) -> _SinkHandle:
        with self._lock:
            self._count += 1
            rec = Recording(self._count, dict(meta), fmt, opened_at=time.perf_counter())
        return _SinkHandle(self, rec)

    def _store(self, rec: Recording) -> None:  # called with _lock held
        self.recordings.append(rec)
        if self.out_dir is None:
            return
        kind = "".join(c if c.isalnum() or c in "-_" else "_" for c in str(rec.meta.get("kind")))
        rec.path = self.out_dir / f"{rec.index:04d}-{kind}.wav"
        rec.path.write_bytes(rec.wav)
        entry = {"file": rec.path.name, "seconds": round(rec.seconds, 3),
                 "interrupted": rec.interrupted, **rec.meta}
        with (self.out_dir / "index.jsonl").open("a", encoding="utf-8") as fh:
            fh.write(json.dumps(entry, ensure_ascii=False, default=str) + "\n")
