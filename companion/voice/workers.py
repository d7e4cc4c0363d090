"""A pocketsphinx decoder in its own process, so the agreeing decodes run side by side.

pocketsphinx holds the GIL while it decodes (measured: three decodes in threads took as long
as in a row), so the competitor and the other front end only run beside the main decode in
other processes. Each `DecoderProcess` owns one decoder and answers requests in order; a
request carries the grammar's text, which the worker compiles once and caches.

The worker is `python -m companion.voice.workers`, spoken to in pickles over its standard
input and output. Not multiprocessing: its "spawn" start re-runs the parent's main script in
the child, which a script without a `__main__` guard cannot survive, and "fork" is unsafe in a
program whose audio library runs threads. Anything that goes wrong with a worker (it cannot
start, it dies, it stops answering) makes it `dead`; the recognizer then decodes in its own
process, as it did before workers existed.
"""

from __future__ import annotations

import contextlib
import itertools
import os
import pickle
import queue
import subprocess
import sys
import threading
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import IO, Any, NoReturn

from companion.voice.decoders import Decoder, import_pocketsphinx

# The slowest decode measured on the benchmark (6 dB babble, wide grammar) took 25 s; past
# this a worker is taken for hung and dropped.
ANSWER_SECONDS = 60.0
START_SECONDS = 30.0


class WorkerGone(RuntimeError):
    """The worker process cannot decode (failed to start, died, or stopped answering)."""


def serve(requests: IO[bytes], answers: IO[bytes]) -> None:
    """The worker's loop: read (options, words), build the decoder, then answer
    (id, kind, payload) requests with (id, kind, payload) until the input closes."""
    def send(message: tuple[int, str, object]) -> None:
        pickle.dump(message, answers, protocol=pickle.HIGHEST_PROTOCOL)
        answers.flush()

    try:
        options, extra = pickle.load(requests)
        decoder = Decoder(import_pocketsphinx(), options, extra)
    except Exception as exc:  # noqa: BLE001 - reported to the parent, which falls back
        send((0, "error", f"{type(exc).__name__}: {exc}"))
        return
    send((0, "ready", ""))
    while True:
        try:
            ident, kind, payload = pickle.load(requests)
        except (EOFError, OSError, pickle.UnpicklingError):
            return  # the parent has gone
        try:
            if kind == "decode":
                audio, name, text = payload
                send((ident, "words", decoder.decode(audio, (name, lambda t=text: t))))
            elif kind == "add_words":
                decoder.add_words(payload, payload)
                send((ident, "done", ""))
            else:
                return
        except Exception as exc:  # noqa: BLE001 - one bad request must not kill the worker
            send((ident, "error", f"{type(exc).__name__}: {exc}"))


class DecoderProcess:
    """One decoder in a child process. `submit()` starts a decode and returns at once;
    `words()` waits for that decode's words. Answers nobody waits for any more (a decode the
    main one made useless) are dropped when the next answer is awaited."""

    def __init__(self, options: Mapping[str, Any],
                 extra: Mapping[str, Sequence[str]] | None = None) -> None:
        self._ids = itertools.count(1)
        self._answers: queue.Queue[tuple[int, str, object] | None] = queue.Queue()
        self._ready = False
        self._lock = threading.Lock()
        self.dead: str | None = None  # why the worker cannot be used, once it cannot
        env = dict(os.environ)
        # The child must import this package even when it runs from a source folder.
        root = str(Path(__file__).resolve().parents[2])
        env["PYTHONPATH"] = os.pathsep.join(p for p in (root, env.get("PYTHONPATH")) if p)
        try:
            self._process: subprocess.Popen[bytes] | None = subprocess.Popen(
                [sys.executable, "-m", "companion.voice.workers"], env=env,
                stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        except OSError as exc:  # no processes here (a sandbox, a frozen app)
            self._process = None
            self.dead = f"cannot start a decoder process: {exc}"
            return
        threading.Thread(target=self._read, name="companion-decoder-answers",
                         daemon=True).start()
        with contextlib.suppress(WorkerGone):  # `dead` says why
            self._write((dict(options), {w: tuple(p) for w, p in (extra or {}).items()}))

    def submit(self, audio: bytes, name: str, text: str) -> int:
        """Start decoding `audio` against the grammar `text` (cached under `name`)."""
        return self._send("decode", (audio, name, text))

    def words(self, ident: int) -> str:
        """The words of decode `ident` ("" when no complete path); WorkerGone if it failed."""
        return self._await(ident)

    def add_words(self, pronunciations: Mapping[str, Sequence[str]]) -> None:
        self._await(self._send("add_words", {w: tuple(p) for w, p in pronunciations.items()}))

    def close(self) -> None:
        if self.dead is None:
            self.dead = "closed"
        process = self._process
        if process is None:
            return
        with contextlib.suppress(OSError):
            assert process.stdin is not None
            process.stdin.close()  # the worker's loop ends at the end of its input
        try:
            process.wait(2.0)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()

    def _read(self) -> None:
        """Answers, as they come, onto the queue (None when the worker's output ends)."""
        assert self._process is not None and self._process.stdout is not None
        stream = self._process.stdout
        try:
            while True:
                self._answers.put(pickle.load(stream))
        except (EOFError, OSError, pickle.UnpicklingError, ValueError):
            self._answers.put(None)

    def _write(self, message: object) -> None:
        process = self._process
        try:
            assert process is not None and process.stdin is not None
            with self._lock:
                pickle.dump(message, process.stdin, protocol=pickle.HIGHEST_PROTOCOL)
                process.stdin.flush()
        except (OSError, ValueError) as exc:
            self._fail(f"the decoder process has gone ({exc})")

    def _send(self, kind: str, payload: object) -> int:
        # Not waiting for "ready": the request waits in the pipe while the worker starts, so
        # the first command's main decode is not held up by the worker's start.
        if self.dead is not None:
            raise WorkerGone(self.dead)
        ident = next(self._ids)
        self._write((ident, kind, payload))
        return ident

    def _await(self, ident: int) -> str:
        if self.dead is not None:
            raise WorkerGone(self.dead)
        seconds = ANSWER_SECONDS + (0 if self._ready else START_SECONDS)
        while True:
            try:
                answer = self._answers.get(timeout=seconds)
            except queue.Empty:
                self._fail(f"the decoder process did not answer within {seconds:.0f} s")
            if answer is None:
                self._fail("the decoder process has gone")
            got, kind, payload = answer
            if kind == "error" and got in (0, ident):
                self._fail(str(payload))  # 0: it could not start
            self._ready = True
            if got == ident:
                return str(payload)
            # "ready", or an answer nobody waits for any more: dropped.

    def _fail(self, why: str) -> NoReturn:
        self.dead = why
        if self._process is not None and self._process.poll() is None:
            self._process.kill()
        raise WorkerGone(why)


def main() -> None:
    """`python -m companion.voice.workers`: requests on stdin, answers on stdout. Anything a
    library prints goes to stderr instead, so it cannot corrupt the answers."""
    answers = os.fdopen(os.dup(sys.stdout.fileno()), "wb")
    os.dup2(sys.stderr.fileno(), sys.stdout.fileno())
    serve(sys.stdin.buffer, answers)


if __name__ == "__main__":
    main()
