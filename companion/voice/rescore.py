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
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from companion.voice.mapper import Graph, accepts, distance, vocabulary

CANDIDATES = 16  # grammar sentences scored per utterance (each costs a decoder pass)
# Chosen by benchmarks/whisper_tune.py on the tuning dump (espeak voices, seed 11), the most
# right with at most 1% wrong applied unasked; reported on other seeds and voices (docs).
TEMPERATURE = 4.0  # log-likelihoods are divided by this before the shares are taken
GAP_FREE = 6.0  # nats a free transcript may be likelier than the best grammar sentence...
GAP_SCALE = 3.0  # ... beyond which the confidence falls by e for each GAP_SCALE nats

Reading = tuple[float, str, str]  # (fit 0..1, command, grammar words)
Scorer = Callable[[Sequence[str]], list[float]]  # texts → summed token log-probabilities


def sentence(words: Sequence[str], spelling: Mapping[str, str] | None = None) -> str:
    """A grammar sentence as the model writes one: leading space, capital, full stop; each
    word as `spelling` spells it (the grammar's words are folded: "eventail" is written
    "éventail", and "l" is "l'", with no space after it)."""
    spelled = [spelling.get(w, w) for w in words] if spelling else list(words)
    text = "".join(w + ("" if w.endswith(("'", "’", "ʼ")) else " ") for w in spelled).strip()
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


@dataclass(frozen=True)
class Scores:
    """The scored material of one utterance: the grammar sentences (words → command) with
    their log-likelihoods, and the free transcripts (with their readings) with theirs."""

    grammar: tuple[tuple[tuple[str, ...], str], ...]
    logs: tuple[float, ...]
    free: tuple[tuple[str, Reading | None], ...]
    free_logs: tuple[float, ...]

    def decide(self, temperature: float = TEMPERATURE, gap_free: float | None = None,
               gap_scale: float | None = None) -> tuple[str | None, float, str]:
        """(command, confidence, the grammar words it was read from): decide_shares."""
        if not self.grammar:
            return None, 0.0, self.free[0][0].strip() if self.free else ""
        return decide_shares(self.grammar, self.logs, self.free_logs, temperature,
                             gap_free, gap_scale)

    def evidence(self) -> dict:
        """As the benchmark dumps it (from_evidence reads it back)."""
        texts = [sentence(words) for words, _ in self.grammar]
        # Nothing was scored when no sentence read as a command (the free ones neither).
        free_texts = list(dict.fromkeys(text for text, _ in self.free)) if self.logs else []
        return {"free": list(self.free),
                "grammar": [(" ".join(w), c) for w, c in self.grammar],
                "logs": dict(zip(texts + free_texts, self.logs + self.free_logs,
                                 strict=True))}

    @classmethod
    def from_evidence(cls, ev: dict) -> Scores:
        grammar = tuple((tuple(w.split()), c) for w, c in ev.get("grammar", ()))
        logs = ev.get("logs", {})
        free = tuple((t, r) for t, r in ev.get("free", ()))
        return cls(grammar, tuple(logs[sentence(w)] for w, _ in grammar), free,
                   tuple(logs[t] for t in dict.fromkeys(t for t, _ in free) if t in logs))


def score(free: Sequence[tuple[str, Reading | None]], grammar: dict[tuple[str, ...], str],
          scorer: Scorer, spelling: Mapping[str, str] | None = None) -> Scores:
    """The grammar sentences (as `spelling` spells their words) and the free transcripts,
    scored by the model in one call."""
    texts = [sentence(words, spelling) for words in grammar]
    free_texts = list(dict.fromkeys(text for text, _ in free))
    logs = scorer(texts + free_texts) if grammar else []
    return Scores(tuple(grammar.items()), tuple(logs[:len(texts)]), tuple(free),
                  tuple(logs[len(texts):]))


def decide_shares(grammar: Sequence[tuple[tuple[str, ...], str]], logs: Sequence[float],
                  free_logs: Sequence[float], temperature: float = TEMPERATURE,
                  gap_free: float | None = None, gap_scale: float | None = None
                  ) -> tuple[str | None, float, str]:
    """The command the scored sentences point to: its share of their likelihood (what
    separates flute from blue), lowered when the best free transcript is far likelier than
    any grammar sentence (`GAP_FREE` nats and more: speech the grammar does not hold)."""
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
