"""Rescoring the commands valid now with the recognizer's own likelihood.

The beam's few hypotheses often split between commands, or never contain the word that was
said (a rare card name the model does not write unprompted). So the candidates are the
grammar sentences the hypotheses map to (mapper.py) and their neighbours: the same sentence
with one word replaced by another grammar word, nearest in sound first, kept when the
grammar and the game's reader accept them. The model
scores each candidate and each free hypothesis by teacher forcing (its tokens'
log-probability given the audio). The confidence is the winning command's share among the
candidates, lowered when a free transcript is far likelier than every candidate (speech the
grammar does not hold: chatter is refused). Pure: the scorer is given.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

from companion.voice.mapper import Graph, accepts, distance, vocabulary

CANDIDATES = 16  # grammar sentences scored per utterance (each costs a decoder pass)
# Chosen by benchmarks/whisper_tune.py on the tuning dump (espeak voices, seed 11), the most
# right with at most 1% wrong applied unasked; reported on other seeds and voices (docs).
TEMPERATURE = 4.0  # log-likelihoods are divided by this before the shares are taken
GAP_FREE = 6.0  # nats a free transcript may be likelier than the best grammar sentence...
GAP_SCALE = 3.0  # ... beyond which the confidence falls by e for each GAP_SCALE nats

Reading = tuple[float, str, str]  # (fit 0..1, command, grammar words)
Scorer = Callable[[Sequence[str]], list[float]]  # texts → summed token log-probabilities


def sentence(words: Sequence[str]) -> str:
    """A grammar sentence as the model writes one: leading space, capital, full stop."""
    text = " ".join(words)
    return " " + text[:1].upper() + text[1:] + "."


def candidates(mapped: Sequence[tuple[str, ...]], graph: Graph,
               read: Callable[[str], str | None], cap: int = CANDIDATES
               ) -> dict[tuple[str, ...], str]:
    """Grammar sentences → their commands: the mapped ones, then one-word neighbours of
    them, nearest first, up to `cap` in all."""
    out: dict[tuple[str, ...], str] = {}
    for words in mapped:
        command = read(" ".join(words))
        if command is not None:
            out.setdefault(words, command)
    swaps = sorted((distance(word, other), n, i, other)
                   for n, words in enumerate(mapped) for i, word in enumerate(words)
                   for other in vocabulary(graph) if other != word)
    for _, n, i, other in swaps:
        if len(out) >= cap:
            break
        words = mapped[n][:i] + (other,) + mapped[n][i + 1:]
        if words in out or not accepts(graph, words):
            continue
        command = read(" ".join(words))
        if command is not None:
            out[words] = command
    return out


def shares(free: Sequence[tuple[str, Reading | None]], grammar: dict[tuple[str, ...], str],
           score: Scorer, temperature: float = TEMPERATURE, evidence: dict | None = None
           ) -> tuple[str | None, float, str]:
    """(command, confidence, the grammar words it was read from).

    The confidence is the command's share of the grammar sentences' likelihood (what
    separates flute from blue), lowered when the best free transcript is far likelier than
    any grammar sentence (`GAP_FREE` nats and more: speech the grammar does not hold).
    """
    if not grammar:
        return None, 0.0, free[0][0].strip() if free else ""
    texts = [sentence(words) for words in grammar]
    free_texts = list(dict.fromkeys(text for text, _ in free))
    logs = score(texts + free_texts)
    if evidence is not None:
        evidence.update(free=[(t, r) for t, r in free], grammar=[
            (" ".join(w), c) for w, c in grammar.items()], logs=dict(zip(
                texts + free_texts, logs, strict=True)))
    return decide_shares(list(grammar.items()), logs[:len(texts)], logs[len(texts):],
                         temperature)


def decide_shares(grammar: Sequence[tuple[tuple[str, ...], str]], logs: Sequence[float],
                  free_logs: Sequence[float], temperature: float = TEMPERATURE,
                  gap_free: float | None = None, gap_scale: float | None = None
                  ) -> tuple[str | None, float, str]:
    """The arithmetic of `shares` on scored sentences (the benchmark tunes it offline)."""
    gap_free = GAP_FREE if gap_free is None else gap_free
    gap_scale = GAP_SCALE if gap_scale is None else gap_scale
    top = max(logs)
    votes: dict[str, float] = {}
    said: dict[str, tuple[float, str]] = {}
    for (words, command), ll in zip(grammar, logs, strict=True):
        mass = math.exp((ll - top) / temperature)
        votes[command] = votes.get(command, 0.0) + mass
        if ll > said.get(command, (-math.inf, ""))[0]:
            said[command] = (ll, " ".join(words))
    command = max(votes, key=lambda c: votes[c])
    share = votes[command] / sum(votes.values())
    gap = max(free_logs, default=top) - top
    return command, share * math.exp(-max(0.0, gap - gap_free) / gap_scale), said[command][1]
