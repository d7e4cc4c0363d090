"""French (or any language) recognition through Vosk, with a model the user installs.

Vosk is optional and no model ships with the companion: `VoskRecognizer` says plainly when
either is missing, and the app continues without voice. Recognition is restricted to the
context's phrases with Vosk's grammar mode (`KaldiRecognizer(model, rate, phrase_list)`),
"[unk]" standing for everything else so out-of-grammar speech can be refused.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from pathlib import Path

from companion.games.hanamikoji.data import Item, Token
from companion.games.hanamikoji.voice.context import Context
from companion.games.hanamikoji.voice.lexicon import Lexicon, lexicon
from companion.games.hanamikoji.voice.words import normalize, vosk_result
from companion.voice.sphinx import Recognition, VoiceUnavailable

UNKNOWN = "[unk]"
MIN_WORD_CONF = 0.6  # below this (lowest word) the command is only offered for confirmation


def _cards(lex: Lexicon, items: Iterable[Item]) -> list[str]:
    wanted = set(items)
    return sorted(w for w, i in lex.cards.items() if i in wanted)


def phrase_list(ctx: Context, lang: str = "fr") -> list[str]:
    """The words and phrases Vosk may output in a context (its grammar is a bag of phrases;
    sequences are checked afterwards by `normalize`)."""
    lex = lexicon(lang)
    phrases: set[str] = set(lex.queries)
    if ctx.kind in ("action", "any"):
        allowed = ctx.allowed if ctx.kind == "action" else frozenset(Token)
        phrases |= {w for w, t in lex.tokens.items() if t in allowed}
        if allowed & {Token.GIFT, Token.COMPETITION} or ctx.kind == "any":
            phrases |= set(_cards(lex, Item))
    if ctx.kind == "answer_gift":
        phrases |= set(_cards(lex, ctx.offered)) | set(lex.take)
    if ctx.kind in ("answer_competition", "any"):
        phrases |= set(lex.ordinals) | set(lex.pair) | set(lex.take)
        phrases |= set(_cards(lex, {i for p in ctx.pairs for i in p}))
    if ctx.kind in ("reveal", "any"):
        phrases |= set(_cards(lex, Item)) | set(lex.reveal)
    if ctx.kind in ("confirm", "any"):
        phrases |= set(lex.yes) | set(lex.no)
    # A few fillers players really say; elisions ("l'éventail") come out as separate words.
    phrases |= set(lex.fillers) & {"je", "la", "le", "l", "et", "the", "i", "and"}
    # The lexicon keeps accented spellings, which is what Vosk's vocabulary holds.
    return sorted(phrases) + [UNKNOWN]


class VoskRecognizer:
    """Grammar-restricted recognition with a Vosk model directory configured by the user."""

    def __init__(self, model_path: str | Path | None, lang: str = "fr") -> None:
        if not model_path:
            raise VoiceUnavailable(
                f"no Vosk model configured for language {lang!r}; continuing without voice "
                "(see docs/voice.md to get one)")
        path = Path(model_path).expanduser()
        if not path.is_dir():
            raise VoiceUnavailable(
                f"no Vosk model found at {path}; continuing without voice "
                "(see docs/voice.md to get one)")
        try:
            import vosk
        except ImportError:
            raise VoiceUnavailable(
                "the vosk package is not installed (pip install vosk); continuing without "
                "voice") from None
        vosk.SetLogLevel(-1)
        self._vosk = vosk
        self._model = vosk.Model(str(path))
        self.lang = lang

    def recognize(self, pcm: bytes, context: Context | None = None,
                  rate: int = 16000) -> Recognition:
        ctx = context or Context.any()
        rec = self._vosk.KaldiRecognizer(self._model, rate,
                                         json.dumps(phrase_list(ctx, self.lang),
                                                    ensure_ascii=False))
        rec.SetWords(True)
        rec.AcceptWaveform(pcm)
        text, conf = vosk_result(rec.FinalResult())
        if UNKNOWN in text.split():
            return Recognition(None, 0.0, text)
        command = normalize(text, self.lang, ctx) if text else None
        confidence = 1.0 if conf is None else conf
        if command is None:
            return Recognition(None, 0.0, text)
        return Recognition(command, 0.9 if confidence >= MIN_WORD_CONF else 0.5, text)
