"""The player's own voice: what is heard compared with their own recordings of the words.

A player enrols by saying each of the game's context words two or three times
(`companion voice-enroll --words`, enroll_words.py); this module keeps nothing on disk
(word_profiles.py does) and knows no game. An utterance and every recording become
frame features (`Features`: the Whisper encoder's frames of the speech, the recognizer's
own pass, or MFCCs), each frame of unit length; what is heard is aligned with each
enrolled word's recordings by dynamic time warping (cosine distance per frame, every
heard frame counted once, so the sum over its frames is comparable between words) and
the nearest word wins.

Rejection: the winner must be near (`MAX_DISTANCE`) and clearly nearer than any other
enrolled word (`MIN_MARGIN`); every enrolled word competes, also the ones not valid now,
so "eight" said where only one to seven name a card is taken as "eight" and refused, not
forced onto "three". What is said that was never enrolled is far from everything.

In play (`combine`) the match is a second opinion beside Whisper: both read the same
command: it is surer (applied); they differ: it is asked about ("… Yes or no?"), never
applied unasked; Whisper heard nothing valid: the enrolled reading is asked about; an
answer (yes, no) cannot be asked about, so it is then refused.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace

import numpy as np

from companion.voice.sphinx import ANSWERS, Recognition

# Chosen on a tuning speaker of the free spoken digit dataset (george; docs/voice.md "The
# player's own voice"): the mean cosine distance per heard frame of the best alignment.
# Clean speech matches below 0.3; in noise the right word's distance grows towards 0.45,
# where the wrong words are too: 0.4 keeps 70% of the right readings at 10 and 6 dB for
# 5% wrong ones, which are asked about, never applied (`combine`).
MAX_DISTANCE = 0.40
MIN_MARGIN = 0.01
# Agreement of both recognizers: at least this sure (the policy applies from 0.8).
AGREED = 0.9
# Disagreement: asked about (the policy asks below 0.8, refuses below 0.4).
ASKED = 0.6
# A template may be crossed at most twice as fast as it was enrolled (two frames a step);
# it may be dwelt on (a slower word) as long as needed.
EDGE_SLACK = 3  # frames of a template that may be skipped at its start or its end
# Speech more than this much longer or shorter than the recording it is nearest to is not
# that word alone ("gift flute fan and tea" is not "gift"): no opinion.
MAX_STRETCH = 2.0


def unit_rows(frames: np.ndarray) -> np.ndarray:
    """Each frame scaled to unit length (a cosine distance is then one product)."""
    frames = np.asarray(frames, dtype=np.float32)
    return frames / (np.linalg.norm(frames, axis=1, keepdims=True) + 1e-9)


def dtw_distance(heard: np.ndarray, template: np.ndarray) -> float:
    """The mean cosine distance per heard frame along the best alignment of `heard` with
    `template` (both unit rows). Every heard frame is matched to one template frame; the
    template advances by 0, 1 or 2 frames a step, may start within its first EDGE_SLACK
    frames and end within its last."""
    cost = 1.0 - heard @ template.T
    count, length = cost.shape
    slack = min(EDGE_SLACK, length)
    row = np.full(length, np.inf, dtype=np.float32)
    row[:slack] = cost[0, :slack]
    for i in range(1, count):
        best = row.copy()
        np.minimum(best[1:], row[:-1], out=best[1:])
        np.minimum(best[2:], row[:-2], out=best[2:])
        row = cost[i] + best
    return float(row[-slack:].min() / count)


@dataclass(frozen=True)
class Match:
    """The nearest enrolled word (or words) of one utterance: `distance` per heard frame,
    `margin` to the nearest other word; `accepted` when both pass the rejection."""

    words: str
    distance: float
    margin: float
    stretch: float = 1.0  # the heard speech's length over the nearest recording's

    @property
    def accepted(self) -> bool:
        return (self.distance <= MAX_DISTANCE and self.margin >= MIN_MARGIN
                and 1 / MAX_STRETCH <= self.stretch <= MAX_STRETCH)


class EnrolledVoice:
    """One player's enrolled words: each word's recordings as unit feature frames, stacked
    so that one alignment pass runs against all of them at once (a loop per recording cost
    about 2 ms each in Python, and a word has a dozen with its noisy copies)."""

    def __init__(self, templates: Mapping[str, Sequence[np.ndarray]]) -> None:
        self.templates = {w: [unit_rows(t) for t in ts if len(t)]
                          for w, ts in templates.items()}
        self.templates = {w: ts for w, ts in self.templates.items() if ts}
        flat = [(w, t) for w, ts in self.templates.items() for t in ts]
        self._owner = [w for w, _ in flat]
        self._lengths = np.array([len(t) for _, t in flat], dtype=np.int64)
        longest = int(self._lengths.max()) if flat else 0
        width = flat[0][1].shape[1] if flat else 0
        self._bank = np.zeros((len(flat), longest, width), dtype=np.float32)
        for k, (_, t) in enumerate(flat):
            self._bank[k, :len(t)] = t

    @property
    def words(self) -> frozenset[str]:
        return frozenset(self.templates)

    def _all(self, heard: np.ndarray) -> np.ndarray:
        """dtw_distance of `heard` with every recording (the same recursion, batched)."""
        rows = unit_rows(heard)
        count = len(rows)
        kept, longest, width = self._bank.shape
        cost = 1.0 - (rows @ self._bank.reshape(-1, width).T).reshape(count, kept, longest)
        slack = np.minimum(EDGE_SLACK, self._lengths)
        row = np.full((kept, longest), np.inf, dtype=np.float32)
        start = np.arange(longest)[None, :] < slack[:, None]
        row[start] = cost[0][start]
        for i in range(1, count):
            best = row.copy()
            np.minimum(best[:, 1:], row[:, :-1], out=best[:, 1:])
            np.minimum(best[:, 2:], row[:, :-2], out=best[:, 2:])
            row = cost[i] + best
        index = np.arange(longest)[None, :]
        end = (index < self._lengths[:, None]) & (index >= (self._lengths - slack)[:, None])
        return np.where(end, row, np.inf).min(axis=1) / count

    def distances(self, heard: np.ndarray) -> dict[str, tuple[float, int]]:
        """Each enrolled word's distance to `heard` (its nearest recording) and that
        recording's length in frames."""
        out: dict[str, tuple[float, int]] = {}
        for word, distance, length in zip(self._owner, self._all(heard), self._lengths,
                                          strict=True):
            if word not in out or distance < out[word][0]:
                out[word] = (float(distance), int(length))
        return out

    def match(self, heard: np.ndarray) -> Match | None:
        """The nearest enrolled word; None when nothing is enrolled or `heard` is empty."""
        if not self.templates or len(heard) == 0:
            return None
        found = self.distances(heard)
        ranked = sorted(found, key=lambda w: found[w][0])
        best, (distance, length) = ranked[0], found[ranked[0]]
        rival = found[ranked[1]][0] if len(ranked) > 1 else np.inf
        return Match(best, distance, float(rival - distance), len(heard) / max(1, length))


def combine(heard: Recognition, match: Match | None,
            read: Callable[[str], str | None]) -> Recognition:
    """Whisper's recognition with the enrolled match beside it (pure). The match's words
    are read by the game as a command now (`read`: None when not valid here).

    - no match, or one rejected: Whisper's recognition unchanged (no opinion);
    - both read the same command: confidence raised to AGREED (the engine then caps it as
      before: a list of cards the game always asks about keeps its lower confidence);
    - Whisper heard nothing valid: the enrolled reading, asked about (ASKED);
    - they differ: Whisper's reading, asked about (ASKED), never applied unasked (in
      noise the enrolled reading is the wrong one about as often as Whisper's);
    - an answer (yes, no) cannot be asked about, and a word enrolled but not valid now
      ("eight" where one to seven name a card) is no command: refused.
    """
    if match is None or not match.accepted:
        return heard
    command = read(match.words)
    if command is not None and command == heard.command:
        return replace(heard, confidence=max(heard.confidence, AGREED))
    refused = Recognition(None, min(heard.confidence, ASKED), heard.words, heard.margin,
                          heard.private_to)
    if command is None or command in ANSWERS or heard.command in ANSWERS:
        return refused
    if heard.command is None:
        return Recognition(command, ASKED, match.words, heard.margin, heard.private_to)
    return replace(heard, confidence=min(heard.confidence, ASKED))
