"""Microphone capture through SpeechRecognition, feeding a recognizer.

Two ways to listen: push-to-talk (`PushToTalk.capture()` when the player presses the key) and
always-listening (`BackgroundListener`, a thread calling back with each Recognition). A
microphone that will not open or stops, or a missing SpeechRecognition or PyAudio, is
`MicrophoneUnavailable` with its reason in the catalogue, said in one plain sentence, never
a traceback: the companion keeps working with the keypad and the reader.
"""

from __future__ import annotations

import contextlib
import os
import sys
import threading
from collections.abc import Callable, Iterator
from typing import Any, Protocol

from companion.voice.decoders import Cancelled
from companion.voice.reasons import Explained, english, reason
from companion.voice.sphinx import Recognition, in_context

RATE = 16000
PHRASE_TIME_LIMIT = 6.0  # seconds: the longest command is about 4 s; noise cannot hold it open
LISTEN_TIMEOUT = 8.0  # push-to-talk: give up if nobody speaks
AMBIENT_SECONDS = 0.5


class MicrophoneUnavailable(Explained, RuntimeError):
    """No usable microphone. `key` names why in the catalogue's `[messages.voice_why]`
    (microphone_not_opened, needs_speech_recognition, needs_pyaudio, microphone_stopped),
    which `message` says in the player's language; `detail` is the device's own words (an
    OSError's), kept for logs. str() is the whole English sentence with the detail."""

    def __init__(self, key: str, detail: str = "") -> None:
        self.key, self.detail = key, detail
        self.message = reason(key)
        text = english(self.message) + (f" ({detail})" if detail else "")
        super().__init__(text[:1].upper() + text[1:] + "; continuing without voice.")


class Recognizer(Protocol):
    """A game's recognizer (its voice hooks' `make_recognizer`): `context` is the game's own
    listening context (None: whatever the game listens for by default)."""

    def recognize(self, pcm: bytes, context: Any = None) -> Recognition: ...


@contextlib.contextmanager
def quiet_native_output() -> Iterator[None]:
    """Hide what C libraries print on the process's stderr meanwhile.

    PortAudio probes ALSA and JACK each time it starts and they print lines such as "ALSA
    lib pcm.c: Unknown PCM sysdefault" or "jack server is not running" straight to file
    descriptor 2, where a screen reader would read them out. Our own messages go to stdout.
    """
    stream = sys.__stderr__
    try:
        if stream is not None:
            stream.flush()
        fd = stream.fileno() if stream is not None else 2
        saved = os.dup(fd)
    except (AttributeError, OSError, ValueError):  # no real stderr (e.g. a GUI launcher)
        yield
        return
    try:
        with open(os.devnull, "w") as null:
            os.dup2(null.fileno(), fd)
        yield
    finally:
        os.dup2(saved, fd)
        os.close(saved)


def _enter(source: Any) -> Any:
    """Open an audio source (a microphone stream, or a file in tests) quietly; an OSError is
    the device refusing to open, said as one sentence."""
    try:
        with quiet_native_output():
            opened = source.__enter__()
    except OSError as exc:
        raise MicrophoneUnavailable("microphone_not_opened", str(exc)) from None
    if getattr(opened, "stream", True) is None:
        # SpeechRecognition's Microphone swallows PyAudio's refusal (no input device, a
        # wrong index), terminates PyAudio and returns itself without a stream.
        raise MicrophoneUnavailable("microphone_not_opened")
    return opened


def speech_recognition_module() -> Any:
    """The SpeechRecognition package, or MicrophoneUnavailable saying it is missing."""
    try:
        import speech_recognition as sr
    except ImportError:
        raise MicrophoneUnavailable("needs_speech_recognition") from None
    return sr


def open_microphone(device_index: int | None = None) -> tuple[Any, Any]:
    """(speech_recognition module, Microphone) or MicrophoneUnavailable with the reason."""
    sr = speech_recognition_module()
    try:
        with quiet_native_output():
            mic = sr.Microphone(device_index=device_index, sample_rate=RATE)
    except (AttributeError, ImportError):
        # SpeechRecognition raises AttributeError when PyAudio is missing.
        raise MicrophoneUnavailable("needs_pyaudio") from None
    except OSError as exc:
        raise MicrophoneUnavailable("microphone_not_opened", str(exc)) from None
    return sr, mic


def _pcm(audio: Any) -> bytes:
    return bytes(audio.get_raw_data(convert_rate=RATE, convert_width=2))


def _audio_source(device_index: int | None, source: Any) -> tuple[Any, Any]:
    """(speech_recognition module, source): the microphone, or `source` when given (any
    SpeechRecognition audio source, e.g. a file in tests)."""
    if source is None:
        return open_microphone(device_index)
    return speech_recognition_module(), source


def _calibrate(listener: Any, opened: Any) -> None:
    """Measure the room's noise; a stream that fails meanwhile (PortAudio's OSError) is a
    microphone that stopped, said as such rather than escaping as an OSError."""
    try:
        listener.adjust_for_ambient_noise(opened, duration=AMBIENT_SECONDS)
    except OSError as exc:
        raise MicrophoneUnavailable("microphone_stopped", str(exc)) from None


class Recorder:
    """One utterance per `record()` from the microphone, as 16 kHz 16-bit PCM.

    The microphone is opened once at the start, to calibrate to the room and so that a
    missing or refused microphone is said when voice is turned on, not at the first key.
    """

    def __init__(self, device_index: int | None = None,
                 phrase_time_limit: float = PHRASE_TIME_LIMIT, source: Any = None,
                 pause: float | None = None) -> None:
        """`pause`: the silence (s) that ends an utterance (SpeechRecognition's 0.8 by
        default; a single word needs less)."""
        self._sr, self._mic = _audio_source(device_index, source)
        self._listener = self._sr.Recognizer()
        if pause is not None:
            self._listener.pause_threshold = pause
            self._listener.non_speaking_duration = min(pause,
                                                       self._listener.non_speaking_duration)
        self.phrase_time_limit = phrase_time_limit
        opened = _enter(self._mic)
        try:
            _calibrate(self._listener, opened)
        finally:
            self._mic.__exit__(None, None, None)

    def record(self) -> bytes | None:
        """Listen for one utterance; None when nobody spoke before the timeout."""
        opened = _enter(self._mic)
        try:
            audio = self._listener.listen(opened, timeout=LISTEN_TIMEOUT,
                                          phrase_time_limit=self.phrase_time_limit)
        except self._sr.WaitTimeoutError:
            return None
        except OSError as exc:
            raise MicrophoneUnavailable("microphone_stopped", str(exc)) from None
        finally:
            self._mic.__exit__(None, None, None)
        return _pcm(audio)


class PushToTalk:
    """Capture and recognize one command when asked (after the push-to-talk key)."""

    def __init__(self, recognizer: Recognizer | None, device_index: int | None = None,
                 phrase_time_limit: float = PHRASE_TIME_LIMIT, source: Any = None) -> None:
        """`recognizer` may be given later (`recognizer = …`): the microphone is opened
        first, so a missing one is said before any decoder is built."""
        self._recorder = Recorder(device_index, phrase_time_limit, source)
        self.recognizer = recognizer

    def capture(self, context: Any = None) -> Recognition | None:
        """Recognize one utterance; None when nobody spoke before the timeout."""
        pcm = self._recorder.record()
        if pcm is None:
            return None
        assert self.recognizer is not None, "give the recognizer before capturing"
        try:
            return in_context(self.recognizer.recognize(pcm, context), context)
        except Cancelled:  # another input came meanwhile: nothing to say
            return None


class BackgroundListener:
    """Always listening: every utterance is recognized in the current context and handed to
    `callback`. Change `context` as the game moves on; `stop()` ends it.

    The microphone is opened in `start()` (quietly, so a refusal is said at once) and read
    by one thread until `stop()`.
    """

    def __init__(self, recognizer: Recognizer | None, callback: Callable[[Recognition], None],
                 context: Any = None, device_index: int | None = None,
                 phrase_time_limit: float = PHRASE_TIME_LIMIT, source: Any = None,
                 on_lost: Callable[[MicrophoneUnavailable], None] | None = None) -> None:
        self._sr, self._mic = _audio_source(device_index, source)
        self.recognizer = recognizer  # may be given later, before start()
        self._callback = callback
        self._on_lost = on_lost  # told once if the microphone stops working
        self.context = context  # the game's listening context, changed as the game moves on
        self.phrase_time_limit = phrase_time_limit
        self._running = threading.Event()
        self._thread: threading.Thread | None = None
        self._opened: tuple[Any, Any] | None = None  # (listener, open stream) once opened

    def open(self) -> None:
        """Open the microphone and calibrate to the room (MicrophoneUnavailable if it
        cannot be opened); `start()` does it when not done yet."""
        if self._opened is not None:
            return
        listener = self._sr.Recognizer()
        opened = _enter(self._mic)
        try:
            _calibrate(listener, opened)
        except BaseException:
            self._mic.__exit__(None, None, None)
            raise
        self._opened = (listener, opened)

    def start(self) -> None:
        self.open()
        assert self._opened is not None and self.recognizer is not None
        self._running.set()
        self._thread = threading.Thread(target=self._loop, args=self._opened,
                                        name="voice-listener", daemon=True)
        self._thread.start()

    def _loop(self, listener: Any, opened: Any) -> None:
        try:
            while self._running.is_set():
                try:
                    audio = listener.listen(opened, timeout=1.0,
                                            phrase_time_limit=self.phrase_time_limit)
                except self._sr.WaitTimeoutError:
                    continue
                except OSError as exc:  # unplugged: say so once; keys still work
                    if self._on_lost is not None:
                        self._on_lost(MicrophoneUnavailable("microphone_stopped", str(exc)))
                    break
                if not audio.frame_data:
                    break  # end of a file source
                if self._running.is_set():
                    context = self.context
                    with contextlib.suppress(Cancelled):  # another input came meanwhile
                        self._callback(in_context(
                            self.recognizer.recognize(_pcm(audio), context), context))
        finally:
            self._running.clear()
            self._mic.__exit__(None, None, None)

    def join(self, timeout: float | None = None) -> None:
        """Wait for the listening thread to end by itself (a file source ends)."""
        if self._thread is not None:
            self._thread.join(timeout)

    def stop(self) -> None:
        self._running.clear()
