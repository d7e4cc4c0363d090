"""Which recognition engine listens: Whisper when its model is installed (and no Sphinx
voice profile was asked for), pocketsphinx otherwise, saying once why."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

ENGINES = ("sphinx", "whisper")


def make_engine(engine: str | None = None, whisper_model: str | None = None,
                hmm: str | None = None, words: Mapping[str, Sequence[str]] | None = None,
                lang: str = "en", say: Callable[[Exception], None] | None = None) -> Any:
    """The engine a game's recognizer wraps. `engine` None: Whisper if it can run here,
    unless `hmm` (a voice profile's Sphinx model) is given. A Whisper engine that cannot
    run falls back to pocketsphinx, and `say` is given the reason (the ModelMissing: the
    caller says it once, this is called once per start)."""
    if engine not in (None, *ENGINES):
        raise ValueError(f"unknown voice engine {engine!r}; known: {', '.join(ENGINES)}")
    if engine == "whisper" or (engine is None and hmm is None):
        from companion.voice.whisper import WhisperRecognizer
        from companion.voice.whisper_model import ModelMissing

        try:
            return WhisperRecognizer(whisper_model, lang)
        except ModelMissing as missing:
            if say is not None:
                say(missing)
    from companion.voice.sphinx import SphinxRecognizer

    return SphinxRecognizer(hmm=hmm, words=words)
