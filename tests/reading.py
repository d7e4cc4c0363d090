"""Hanamikoji's voice reading of a Whisper transcript, without the model: what a free beam's
words are read as in a context (the phrase graph and `map_hypotheses`, as play reads them)."""

from __future__ import annotations

from companion.games.hanamikoji.voice.context import Context
from companion.games.hanamikoji.voice.grammar import phrase_list
from companion.games.hanamikoji.voice.words import normalize
from companion.voice.mapper import phrases_graph
from companion.voice.whisper import map_hypotheses


def read_as(transcript: str, ctx: Context, lang: str) -> tuple[str | None, float]:
    """The voice reading of one transcript in a context: (command, confidence)."""
    graph = phrases_graph(tuple(phrase_list(ctx, lang)))
    command, confidence, _ = map_hypotheses([(transcript, -0.2)], graph,
                                            lambda words: normalize(words, lang, ctx), False)
    return command, confidence
