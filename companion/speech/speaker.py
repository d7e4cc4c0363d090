"""The speaker: priority queues per output, interruption, and the private-channel guarantee.

One worker thread per output (the shared speaker, and each player's private earpiece), so a
long private message never delays the table and vice versa. Every output owns exactly one
player, fixed when the speaker is built; an utterance is routed by exact channel name, and a
channel without an output is dropped. There is no code path from a private channel to the
shared player, which is what makes "a secret never reaches the table" a guarantee.
"""

from __future__ import annotations

import enum
import itertools
import logging
import threading
import time
from collections.abc import Iterator, Mapping
from typing import Any, Protocol

from .audio import AudioFormat, read_wav
from .earcons import earcon_wav
from .players import Player, PlayerGone
from .settings import DEFAULTS, SpeechSettings
from .synth import SynthStream, resolve_voice

log = logging.getLogger(__name__)


class Priority(enum.IntEnum):
    NARRATION = 0
    PROMPT = 1
    REFUSAL = 2


# Earcons take the priority of what they usually precede, so "refused" is not overtaken by
# the refusal sentence queued right after it, and "round_over" waits for the board narration.
EARCON_PRIORITY: dict[str, Priority] = {
    "accepted": Priority.PROMPT,
    "refused": Priority.REFUSAL,
    "your_turn": Priority.PROMPT,
    "offer_waiting": Priority.PROMPT,
    "round_over": Priority.NARRATION,
    "reader_connected": Priority.PROMPT,
    "reader_disconnected": Priority.PROMPT,
}

_ids = itertools.count(1)


class _Killable(Protocol):
    def kill(self) -> None: ...


class Utterance:
    """A queued sentence or earcon; its `state` ends as done, replaced, interrupted, stopped,
    dropped or failed."""

    def __init__(self, text: str, priority: Priority, kind: str | None, channel: str | None,
                 *, lang: str = "", voice: str = "", settings: SpeechSettings = DEFAULTS,
                 earcon: str | None = None) -> None:
        self.id = next(_ids)
        self.text = text
        self.priority = Priority(priority)
        self.kind = kind
        self.channel = channel
        self.lang = lang
        self.voice = voice
        self.settings = settings
        self.earcon = earcon
        self.state = "queued"
        self.queued_at = time.perf_counter()
        self.first_audio_at: float | None = None
        self.finished_at: float | None = None
        self._lock = threading.Lock()
        self._cancelled = False
        self._live: list[_Killable] = []
        self._done = threading.Event()

    def __repr__(self) -> str:
        return (f"<Utterance {self.id} {self.state} {self.priority.name} kind={self.kind} "
                f"channel={self.channel} {self.text[:30]!r}>")

    @property
    def cancelled(self) -> bool:
        return self._cancelled

    def wait(self, timeout: float | None = None) -> bool:
        return self._done.wait(timeout)

    def meta(self) -> dict[str, Any]:
        return {"id": self.id, "text": self.text, "kind": self.kind, "channel": self.channel,
                "priority": self.priority.name, "lang": self.lang, "voice": self.voice,
                "earcon": self.earcon}

    def _attach(self, obj: _Killable) -> None:
        """Register a process/handle so a cancel from another thread can kill it."""
        with self._lock:
            if not self._cancelled:
                self._live.append(obj)
                return
        obj.kill()
        raise PlayerGone("cancelled")

    def _cancel(self, state: str) -> None:
        with self._lock:
            if self._cancelled or self._done.is_set():
                return
            self._cancelled = True
            self.state = state
            live = list(self._live)
        for obj in live:  # kill in the caller's thread: silence does not wait for the worker
            obj.kill()

    def _finish(self, state: str) -> None:
        with self._lock:
            if not self._cancelled:
                self.state = state
            self.finished_at = time.perf_counter()
        self._done.set()


def _dropped(text: str, priority: Priority, kind: str | None, channel: str | None,
             earcon: str | None = None) -> Utterance:
    u = Utterance(text, priority, kind, channel, earcon=earcon)
    u._finish("dropped")
    return u


class Output:
    """One audio output with its own queue and worker thread."""

    def __init__(self, name: str, player: Player, espeak: str | None) -> None:
        self.name = name
        self.player = player
        self.espeak = espeak
        self._cond = threading.Condition()
        self._pending: list[Utterance] = []
        self._current: Utterance | None = None
        self._closed = False
        self._thread = threading.Thread(target=self._run, name=f"speech-{name}", daemon=True)
        self._thread.start()

    # Called from the application's threads ------------------------------------------------

    def submit(self, u: Utterance) -> None:
        with self._cond:
            if self._closed:
                u._finish("dropped")
                return
            if u.kind is not None:
                # Not stacked: a newer unspoken message of the same kind replaces the older.
                for old in [p for p in self._pending
                            if p.kind == u.kind and p.priority == u.priority]:
                    self._pending.remove(old)
                    old._finish("replaced")
            pos = next((i for i, p in enumerate(self._pending) if p.priority < u.priority),
                       len(self._pending))
            self._pending.insert(pos, u)
            cur = self._current
            self._cond.notify_all()
        # Prompts and refusals cut narration short; nothing else interrupts.
        if cur is not None and cur.priority == Priority.NARRATION and u.priority > cur.priority:
            cur._cancel("interrupted")

    def stop(self) -> None:
        with self._cond:
            dropped, self._pending = self._pending, []
            cur = self._current
        if cur is not None:
            cur._cancel("stopped")
        for u in dropped:
            u._finish("stopped")

    def wait(self, timeout: float | None) -> bool:
        with self._cond:
            return self._cond.wait_for(lambda: not self._pending and self._current is None,
                                       timeout)

    def close(self) -> None:
        self.stop()
        with self._cond:
            self._closed = True
            self._cond.notify_all()
        self._thread.join(timeout=1.0)

    # Worker ---------------------------------------------------------------------------------

    def _run(self) -> None:
        while True:
            with self._cond:
                self._cond.wait_for(lambda: self._pending or self._closed)
                if not self._pending:
                    return
                u = self._pending.pop(0)
                self._current = u
                u.state = "playing"
            try:
                state = self._play(u)
            except PlayerGone:  # cancelled by us, or the player died (device unplugged)
                state = "stopped" if u.cancelled else "failed"
                if state == "failed":
                    log.warning("speech output %s lost its player during %r", self.name, u)
            except Exception:  # a broken utterance must never kill the speaker
                log.exception("speech output %s failed on %r", self.name, u)
                state = "failed"
            u._finish(state)
            with self._cond:
                self._current = None
                self._cond.notify_all()

    def _source(self, u: Utterance) -> tuple[AudioFormat | None, Iterator[bytes], Any]:
        if u.earcon is not None:
            pcm, fmt = read_wav(earcon_wav(u.earcon, u.settings.volume))
            return fmt, (pcm[i : i + 4096] for i in range(0, len(pcm), 4096)), None
        if self.espeak is None:
            raise RuntimeError("espeak-ng is not available")
        stream = SynthStream(self.espeak, u.text, u.voice, u.settings)
        try:
            u._attach(stream)
        except PlayerGone:
            stream.close()
            raise
        return stream.read_header(), stream.chunks(), stream

    def _play(self, u: Utterance) -> str:
        fmt, chunks, stream = self._source(u)
        handle = None
        try:
            if fmt is None:
                return "stopped" if u.cancelled else "failed"
            handle = self.player.open(fmt, u.meta())
            u._attach(handle)
            for chunk in chunks:
                if u.cancelled:
                    break
                handle.write(chunk)
                if u.first_audio_at is None:
                    u.first_audio_at = handle.first_write_at
            if u.cancelled:
                return "stopped"
            handle.finish()
            handle.wait()
            if handle.failed:
                # e.g. a private earpiece unplugged: the text is lost, never re-routed.
                log.warning("speech output %s could not play %r", self.name, u)
                return "failed"
            return "done"
        finally:
            if handle is not None and u.cancelled:
                handle.kill()
            if stream is not None:
                stream.close()


class Speaker:
    """Non-blocking speech on a shared output plus optional private outputs."""

    def __init__(self, shared: Player | Output | None,
                 private: Mapping[str, Player] | None = None, *,
                 lang: str = "en", settings: SpeechSettings = DEFAULTS,
                 espeak: str | None = None, backend: str = "") -> None:
        self.lang = lang
        self.settings = settings
        self.espeak = espeak
        self.backend = backend or (getattr(shared, "name", "") or "private only")
        self.warnings: list[str] = []
        # An Output may be passed ready-made (the pyttsx3 backend is its own "player").
        self._shared = (shared if isinstance(shared, Output) or shared is None
                        else Output("shared", shared, espeak))
        # Private outputs are keyed by channel name only; the shared output is not in here.
        self._private: dict[str, Output] = {
            ch: Output(ch, p, espeak) for ch, p in (private or {}).items()}
        self._closed = False

    @property
    def private_channels(self) -> tuple[str, ...]:
        return tuple(self._private)

    def _output_for(self, channel: str | None) -> Output | None:
        if channel is None:
            return self._shared
        return self._private.get(channel)  # never falls back to the shared output

    def update_settings(self, settings: SpeechSettings) -> None:
        """Applies to everything said from now on (queued items keep their settings)."""
        self.settings = settings

    def set_language(self, lang: str) -> None:
        self.lang = lang

    def voice_for(self, lang: str | None = None) -> str:
        voice, warning = resolve_voice(lang or self.lang, self.settings, self.espeak)
        if warning and warning not in self.warnings:
            self.warnings.append(warning)
            log.warning(warning)
        return voice

    def say(self, text: str, priority: Priority = Priority.NARRATION, kind: str | None = "board",
            channel: str | None = None, *, lang: str | None = None) -> Utterance:
        """Queue `text`; returns at once. The Utterance says what became of it."""
        out = self._output_for(channel)
        if self._closed or out is None or not text.strip():
            if channel is not None and out is None:
                log.info("no private output for %s: not spoken", channel)
            return _dropped(text, priority, kind, channel)
        u = Utterance(text, priority, kind, channel, lang=lang or self.lang,
                      voice=self.voice_for(lang), settings=self.settings)
        out.submit(u)
        return u

    def earcon(self, name: str, priority: Priority | None = None,
               channel: str | None = None) -> Utterance:
        if priority is None:
            priority = EARCON_PRIORITY.get(name, Priority.PROMPT)
        earcon_wav(name, self.settings.volume)  # unknown names fail here, in the caller
        out = self._output_for(channel)
        if self._closed or out is None or not self.settings.earcons:
            return _dropped("", priority, f"earcon:{name}", channel, earcon=name)
        u = Utterance("", priority, f"earcon:{name}", channel, settings=self.settings,
                      earcon=name)
        out.submit(u)
        return u

    def _outputs(self) -> list[Output]:
        return ([self._shared] if self._shared else []) + list(self._private.values())

    def stop(self) -> None:
        """Silence every output now and drop everything queued (it predates the new input)."""
        for out in self._outputs():
            out.stop()

    def wait(self, timeout: float | None = None) -> bool:
        """Block until everything queued has been spoken; False on timeout."""
        deadline = None if timeout is None else time.monotonic() + timeout
        for out in self._outputs():
            left = None if deadline is None else max(0.0, deadline - time.monotonic())
            if not out.wait(left):
                return False
        return True

    def close(self) -> None:
        self._closed = True
        for out in self._outputs():
            out.close()

    def __enter__(self) -> Speaker:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class NullSpeaker:
    """Prints nothing, plays nothing, never blocks: for no audio device or speech disabled."""

    backend = "none"
    private_channels: tuple[str, ...] = ()

    def __init__(self, lang: str = "en", settings: SpeechSettings = DEFAULTS) -> None:
        self.lang = lang
        self.settings = settings
        self.warnings: list[str] = []

    def update_settings(self, settings: SpeechSettings) -> None:
        self.settings = settings

    def set_language(self, lang: str) -> None:
        self.lang = lang

    def say(self, text: str, priority: Priority = Priority.NARRATION, kind: str | None = "board",
            channel: str | None = None, *, lang: str | None = None) -> Utterance:
        return _dropped(text, priority, kind, channel)

    def earcon(self, name: str, priority: Priority | None = None,
               channel: str | None = None) -> Utterance:
        return _dropped("", priority or Priority.PROMPT, f"earcon:{name}", channel, earcon=name)

    def stop(self) -> None:
        pass

    def wait(self, timeout: float | None = None) -> bool:
        return True

    def close(self) -> None:
        pass

    def __enter__(self) -> NullSpeaker:
        return self

    def __exit__(self, *exc: object) -> None:
        pass
