"""Windows: pyttsx3 (SAPI5) driven from its own thread; macOS: the system `say` command.

The engine lives in one thread that runs pyttsx3's external loop (`startLoop(False)` +
`iterate()`), and every call to it (say, stop) is made from that thread, as the COM and
Cocoa objects behind it expect. stop() therefore takes one loop tick (20 ms) plus the
platform's own reaction time. Not used on Linux, where pyttsx3's espeak driver plays through
a blocking `aplay` that stop() cannot interrupt. Untested on this project's Linux CI.
"""

from __future__ import annotations

import contextlib
import queue
import subprocess
import threading
from typing import Any

from .players import PlayerGone
from .speaker import Output, Utterance

TICK = 0.02


class _EngineStop:
    def __init__(self, out: PyttsxOutput, done: threading.Event) -> None:
        self.out = out
        self.done = done

    def kill(self) -> None:
        self.out._cmds.put(("stop", None, self.done))
        self.done.wait(0.1)


class PyttsxOutput(Output):
    """An Output whose 'player' is the platform speech engine (no earcons, no channels)."""

    def __init__(self, name: str = "shared") -> None:
        import pyttsx3  # only here: Linux never needs it

        self._cmds: queue.Queue[tuple[str, Utterance | None, threading.Event]] = queue.Queue()
        self._ready = threading.Event()
        self._error: BaseException | None = None
        self._engine_thread = threading.Thread(target=self._engine_loop, args=(pyttsx3,),
                                               name="speech-pyttsx3", daemon=True)
        self._engine_thread.start()
        self._ready.wait(5)
        if self._error is not None or not self._ready.is_set():
            raise RuntimeError(f"pyttsx3 did not start: {self._error}")
        super().__init__(name, player=None, espeak=None)  # type: ignore[arg-type]

    def _engine_loop(self, pyttsx3: Any) -> None:
        try:
            engine = pyttsx3.init()
            current: list[threading.Event] = []
            engine.connect("finished-utterance", lambda name, completed: current and
                           current.pop().set())
            voices = engine.getProperty("voices") or []
            engine.startLoop(False)
        except BaseException as exc:  # any driver failure means: no speech, not a crash
            self._error = exc
            self._ready.set()
            return
        self._ready.set()
        while True:
            try:
                cmd, u, done = self._cmds.get(timeout=TICK)
            except queue.Empty:
                cmd = ""
            if cmd == "close":
                break
            if cmd == "stop":
                engine.stop()
                done.set()
                current.clear()
            elif cmd == "say" and u is not None:
                engine.setProperty("rate", u.settings.rate)
                engine.setProperty("volume", u.settings.volume / 100)
                for v in voices:  # best effort: first installed voice for the language
                    langs = " ".join(str(x) for x in (getattr(v, "languages", None) or []))
                    if u.lang and (u.lang in langs.lower() or u.lang in str(v.id).lower()):
                        engine.setProperty("voice", v.id)
                        break
                current[:] = [done]
                engine.say(u.text, str(u.id))
            engine.iterate()
        engine.endLoop()

    def _play(self, u: Utterance) -> str:
        if u.earcon is not None:
            return "dropped"  # earcons need a PCM player, which this backend does not have
        done = threading.Event()
        try:
            u._attach(_EngineStop(self, done))
        except PlayerGone:
            return "stopped"
        self._cmds.put(("say", u, done))
        done.wait()
        return "stopped" if u.cancelled else "done"

    def close(self) -> None:
        super().close()
        self._cmds.put(("close", None, threading.Event()))
        self._engine_thread.join(timeout=1.0)


# macOS voices shipped with the system for our languages; overridable in the settings.
MAC_VOICES = {"fr": "Thomas", "en": "Samantha", "es": "Monica", "uk": "Lesya"}


class _Proc:
    def __init__(self, proc: subprocess.Popen[bytes]) -> None:
        self.proc = proc

    def kill(self) -> None:
        if self.proc.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                self.proc.kill()
        with contextlib.suppress(subprocess.TimeoutExpired):
            self.proc.wait(timeout=0.1)


class MacSayOutput(Output):
    """macOS: the built-in `say` command per utterance; SIGKILL silences it at once.

    Preferred to pyttsx3's nsss driver, whose external loop does not pump the Cocoa events
    that report the end of an utterance. Untested here (no macOS machine).
    """

    def __init__(self, name: str = "shared") -> None:
        super().__init__(name, player=None, espeak=None)  # type: ignore[arg-type]

    def _play(self, u: Utterance) -> str:
        if u.earcon is not None:
            return "dropped"
        voice = u.settings.voice_override(u.lang) or MAC_VOICES.get(u.lang)
        argv = ["say", "-r", str(u.settings.rate), *(["-v", voice] if voice else []), "--",
                u.text]
        proc = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            u._attach(_Proc(proc))
        except PlayerGone:
            return "stopped"
        rc = proc.wait()
        if u.cancelled:
            return "stopped"
        return "done" if rc == 0 else "failed"
