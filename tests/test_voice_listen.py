"""The capture path (SpeechRecognition's ambient calibration, phrase detection, phrase time
limit, timeout) on real audio: a WAV file stands in for the microphone as the audio source."""

from __future__ import annotations

import random
import shutil
import struct
import subprocess
import wave
from pathlib import Path

import pytest

from companion.games.hanamikoji.voice.context import Context
from companion.games.hanamikoji.voice.hooks import HanamikojiRecognizer
from companion.voice.audio import read_wav
from companion.voice.listen import (
    LISTEN_TIMEOUT,
    PHRASE_TIME_LIMIT,
    BackgroundListener,
    PushToTalk,
)
from companion.voice.sphinx import Recognition

sr = pytest.importorskip("speech_recognition")
pytest.importorskip("pocketsphinx")
if shutil.which("espeak-ng") is None:  # pragma: no cover - depends on the machine
    pytest.skip("espeak-ng is needed to synthesize test speech", allow_module_level=True)

RATE = 16000


def write_wav(path: Path, samples: list[int]) -> Path:
    with wave.open(str(path), "wb") as out:
        out.setnchannels(1)
        out.setsampwidth(2)
        out.setframerate(RATE)
        out.writeframes(struct.pack(f"<{len(samples)}h", *samples))
    return path


def room(seconds: float, level: float = 60.0, seed: int = 1) -> list[int]:
    rng = random.Random(seed)
    return [round(rng.gauss(0.0, level)) for _ in range(int(seconds * RATE))]


def spoken(tmp_path: Path, text: str) -> list[int]:
    wav = tmp_path / "said.wav"
    subprocess.run(["espeak-ng", "-v", "en-us", "-w", str(wav), text], check=True)
    pcm = read_wav(wav)
    return list(struct.unpack(f"<{len(pcm) // 2}h", pcm))


class Heard:
    """The real recognizer, remembering how much audio each capture handed it."""

    def __init__(self) -> None:
        self.real = HanamikojiRecognizer()
        self.seconds: list[float] = []

    def recognize(self, pcm: bytes, context: Context | None = None) -> Recognition:
        self.seconds.append(len(pcm) / 2 / RATE)
        return self.real.recognize(pcm, context)


def test_push_to_talk_hears_the_command_after_the_room_noise(tmp_path):
    samples = room(1.0) + spoken(tmp_path, "the secret") + room(1.5, seed=2)
    source = sr.AudioFile(str(write_wav(tmp_path / "in.wav", samples)))
    heard = Heard()
    recognition = PushToTalk(heard, source=source).capture(Context.action())
    assert recognition is not None and recognition.command == "secret"
    assert recognition.margin is not None and recognition.margin > 20
    assert heard.seconds and heard.seconds[0] < 3.0  # the calibration second is not in it


def test_endless_noise_cannot_hold_the_listener_open(tmp_path):
    rng = random.Random(3)
    # Loud, ever-changing noise after a quiet start: it never falls back under the
    # threshold the quiet start set, so only the phrase time limit ends the phrase.
    samples = room(0.6) + [round(rng.gauss(0.0, 6000.0)) for _ in range(14 * RATE)]
    source = sr.AudioFile(str(write_wav(tmp_path / "in.wav", samples)))
    heard = Heard()
    recognition = PushToTalk(heard, source=source).capture(Context.action())
    assert heard.seconds and heard.seconds[0] <= PHRASE_TIME_LIMIT + 0.5
    assert recognition is not None and recognition.command is None  # noise is no command


def test_nobody_speaking_gives_up_after_the_timeout(tmp_path):
    samples = room(LISTEN_TIMEOUT + 3)
    source = sr.AudioFile(str(write_wav(tmp_path / "in.wav", samples)))
    heard = Heard()
    assert PushToTalk(heard, source=source).capture(Context.action()) is None
    assert heard.seconds == []


def test_enrollment_capture_returns_the_recorded_command(tmp_path):
    from companion.voice.listen import Recorder

    said = spoken(tmp_path, "take the first pair")
    samples = room(1.0) + said + room(1.5, seed=4)
    capture = Recorder(source=sr.AudioFile(str(write_wav(tmp_path / "in.wav", samples)))).record
    pcm = capture()
    assert pcm is not None
    seconds = len(pcm) / 2 / RATE
    assert len(said) / RATE <= seconds < len(said) / RATE + 2.0


def test_always_listening_hands_each_utterance_over_in_the_current_context(tmp_path):
    samples = (room(1.0) + spoken(tmp_path, "the secret") + room(1.5, seed=5)
               + spoken(tmp_path, "show me the score") + room(1.5, seed=6))
    source = sr.AudioFile(str(write_wav(tmp_path / "in.wav", samples)))
    got: list[Recognition] = []
    listener = BackgroundListener(Heard(), got.append, Context.action(), source=source)
    listener.start()
    listener.join(60)  # the file ends: the thread finishes by itself
    assert [r.command for r in got][:2] in (["secret", "score"], ["secret", None],
                                             [None, "score"])
    assert len(got) >= 2 and all(r.command in ("secret", "score", None) for r in got)
