"""French (or any language) recognition through Vosk, with a model the user installs.

Vosk is optional and no model ships with the companion: `VoskRecognizer` says plainly when
either is missing, and the app continues without voice. Recognition is restricted to the
phrases a game gives for the moment with Vosk's grammar mode (`KaldiRecognizer(model, rate,
phrases)`), "[unk]" standing for everything else so out-of-grammar speech can be refused.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Collection, Mapping, Sequence
from pathlib import Path
from typing import Any

from companion.voice.decoders import VoiceUnavailable
from companion.voice.reasons import explained
from companion.voice.sphinx import HIGH, LOW, Recognition, capped, uncalibrated

UNKNOWN = "[unk]"
MIN_WORD_CONF = 0.6  # below this (lowest word) the command is only offered for confirmation


def vosk_result(result: str | Mapping[str, Any]) -> tuple[str, float | None]:
    """The text and a confidence from any shape Vosk returns.

    Accepts the JSON string of `Result()`/`FinalResult()`/`PartialResult()` or the parsed
    dict: {"text": ...}, {"partial": ...}, {"result": [{"word", "conf"}...]} and
    {"alternatives": [{"text", "confidence"}...]}. The confidence is the lowest word
    confidence (one doubtful word makes the whole command doubtful), None when Vosk gave none.
    """
    data: Any = json.loads(result) if isinstance(result, str) else result
    if not isinstance(data, Mapping):
        raise ValueError(f"not a Vosk result: {result!r}")
    if "alternatives" in data and data["alternatives"]:
        best = data["alternatives"][0]
        return str(best.get("text", "")), _float_or_none(best.get("confidence"))
    words = data.get("result")
    if isinstance(words, Sequence) and words:
        text = " ".join(str(w.get("word", "")) for w in words)
        confs = [float(w["conf"]) for w in words if "conf" in w]
        return data.get("text") or text, (min(confs) if confs else None)
    return str(data.get("text", data.get("partial", ""))), None


def _float_or_none(value: Any) -> float | None:
    try:
        return float(value)
    except (TypeError, ValueError):
        return None


class VoskRecognizer:
    """Grammar-restricted recognition with a Vosk model directory configured by the user."""

    def __init__(self, model_path: str | Path | None, lang: str = "fr") -> None:
        if not model_path:
            raise explained(VoiceUnavailable, "no_vosk_model", lang=repr(lang))
        path = Path(model_path).expanduser()
        if not path.is_dir():
            raise explained(VoiceUnavailable, "vosk_model_missing", path=str(path))
        try:
            import vosk
        except ImportError:
            raise explained(VoiceUnavailable, "vosk_missing") from None
        vosk.SetLogLevel(-1)
        self._vosk = vosk
        self._model = vosk.Model(str(path))
        self.lang = lang

    def recognize_phrases(self, pcm: bytes, phrases: Sequence[str],
                          read: Callable[[str], str | None], rate: int = 16000,
                          prompt: Sequence[str] | None = None,
                          settled: Callable[[str], float | None] | None = None,
                          read_only: Collection[str] = (),
                          asking: Collection[str] = ()) -> Recognition:
        """Recognize one utterance restricted to `phrases` (with UNKNOWN among them, so that
        other speech can come out as a refusal); `read` turns the words heard into a
        canonical command valid now, or None; `settled` caps the confidence of commands
        always asked about, as the other engines do. `prompt` is Whisper's: Vosk's grammar
        is the phrases themselves, less `read_only` (phrases only a reading of another
        engine's free transcript needs); `asking` is Whisper's too (Vosk writes no free
        transcript to look at)."""
        grammar = [p for p in phrases if p not in read_only]
        rec = self._vosk.KaldiRecognizer(self._model, rate,
                                         json.dumps(grammar, ensure_ascii=False))
        rec.SetWords(True)
        rec.AcceptWaveform(pcm)
        text, conf = vosk_result(rec.FinalResult())
        if UNKNOWN in text.split():
            return Recognition(None, 0.0, text)
        command = read(text) if text else None
        if command is None:
            return Recognition(None, 0.0, text)
        # One doubtful word makes the whole command a question; sure words are applied only
        # where `uncalibrated` allows: Vosk's confidence has never been measured here.
        sure = conf is None or conf >= MIN_WORD_CONF
        return uncalibrated(Recognition(command, capped(command, HIGH if sure else LOW, settled),
                                        text), pcm)
