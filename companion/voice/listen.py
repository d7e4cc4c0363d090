"""Microphone capture through SpeechRecognition, feeding a recognizer.

Two ways to listen: push-to-talk (`PushToTalk.capture()` when the player presses the key) and
always-listening (`BackgroundListener`, a thread calling back with each Recognition). A
missing microphone or PyAudio is reported as one plain sentence (`MicrophoneUnavailable`),
never a traceback: the companion keeps working with the keypad and the reader.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any, Protocol

from companion.voice.context import Context
from companion.voice.sphinx import Recognition

RATE = 16000
PHRASE_TIME_LIMIT = 6.0  # seconds: the longest command is about 4 s; noise cannot hold it open
LISTEN_TIMEOUT = 8.0  # push-to-talk: give up if nobody speaks
AMBIENT_SECONDS = 0.5


class MicrophoneUnavailable(RuntimeError):
    """No usable microphone; the message is a sentence for the player."""


class Recognizer(Protocol):
    def recognize(self, pcm: bytes, context: Context | None = None) -> Recognition: ...


def speech_recognition_module() -> Any:
    """The SpeechRecognition package, or MicrophoneUnavailable saying it is missing."""
    try:
        import speech_recognition as sr
    except ImportError:
        raise MicrophoneUnavailable(
            "Voice input needs the SpeechRecognition package; continuing without voice.") from None
    return sr


def open_microphone(device_index: int | None = None) -> tuple[Any, Any]:
    """(speech_recognition module, Microphone) or MicrophoneUnavailable with the reason."""
    sr = speech_recognition_module()
    try:
        mic = sr.Microphone(device_index=device_index, sample_rate=RATE)
    except (AttributeError, ImportError):
        # SpeechRecognition raises AttributeError when PyAudio is missing.
        raise MicrophoneUnavailable(
            "Voice input needs PyAudio (pip install pyaudio); continuing without voice.") from None
    except OSError as exc:
        raise MicrophoneUnavailable(
            f"No microphone could be opened ({exc}); continuing without voice.") from None
    return sr, mic


def _pcm(audio: Any) -> bytes:
    return bytes(audio.get_raw_data(convert_rate=RATE, convert_width=2))


class PushToTalk:
    """Capture one command when asked (e.g. while a keypad key is held or after it is pressed).
    """

    def __init__(self, recognizer: Recognizer, device_index: int | None = None,
                 phrase_time_limit: float = PHRASE_TIME_LIMIT, source: Any = None) -> None:
        # `source`: any SpeechRecognition audio source instead of the microphone (a file).
        self._sr, self._mic = open_microphone(device_index) if source is None else (
            speech_recognition_module(), source)
        self._listener = self._sr.Recognizer()
        self._recognizer = recognizer
        self.phrase_time_limit = phrase_time_limit
        self._calibrated = False

    def capture(self, context: Context | None = None) -> Recognition | None:
        """Listen for one utterance; None when nobody spoke before the timeout."""
        try:
            with self._mic as source:
                if not self._calibrated:
                    self._listener.adjust_for_ambient_noise(source, duration=AMBIENT_SECONDS)
                    self._calibrated = True
                audio = self._listener.listen(source, timeout=LISTEN_TIMEOUT,
                                              phrase_time_limit=self.phrase_time_limit)
        except self._sr.WaitTimeoutError:
            return None
        except OSError as exc:
            raise MicrophoneUnavailable(
                f"The microphone stopped working ({exc}); continuing without voice.") from None
        return self._recognizer.recognize(_pcm(audio), context)


class BackgroundListener:
    """Always listening: every utterance is recognized in the current context and handed to
    `callback`. Change `context` as the game moves on; `stop()` ends it."""

    def __init__(self, recognizer: Recognizer, callback: Callable[[Recognition], None],
                 context: Context | None = None, device_index: int | None = None,
                 phrase_time_limit: float = PHRASE_TIME_LIMIT) -> None:
        self._sr, self._mic = open_microphone(device_index)
        self._recognizer = recognizer
        self._callback = callback
        self.context = context or Context.any()
        self.phrase_time_limit = phrase_time_limit
        self._stopper: Callable[..., None] | None = None
        self._lock = threading.Lock()

    def _heard(self, _listener: Any, audio: Any) -> None:
        with self._lock:  # one recognition at a time; the decoder is shared
            recognition = self._recognizer.recognize(_pcm(audio), self.context)
        self._callback(recognition)

    def start(self) -> None:
        listener = self._sr.Recognizer()
        with self._mic as source:
            listener.adjust_for_ambient_noise(source, duration=AMBIENT_SECONDS)
        self._stopper = listener.listen_in_background(
            self._mic, self._heard, phrase_time_limit=self.phrase_time_limit)

    def stop(self) -> None:
        if self._stopper is not None:
            self._stopper(wait_for_stop=False)
            self._stopper = None
