"""One confidence for a hypothesis limited to the grammar's tokens (whisper.py, `constrain`).

When the beam may only write the context's words, its hypotheses always read as grammar
sentences, so the text mapper's fit says nothing about chatter or a misheard card. The
confidence is then a logistic model of six measurements of one utterance, one model per
language, fitted by benchmarks/whisper_calibrate.py on that language's tuning dumps
(espeak-ng voices) and checked on the reporting ones (seeds 22 and 33; docs/voice.md).
Pure: no model, no audio.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from companion.voice.rescore import Scores

FEATURES = ("share", "free lead", "mapper", "beam score", "free agrees", "margin")
# A free transcript this much likelier than every grammar sentence (nats per token) means
# the speech was no command. A logistic model is linear in the lead, and the tuning dumps
# held right readings up to 5.97 only: MBROLA's recorded voices met chatter at 7 to 8.5
# whose other measurements still gave 0.5 ("who is winning right now", the limited beam
# writing "I, I, I": asked as discard). No tuning or reporting reading right with espeak-ng
# voices went past it; one with flite voices did (7.1), one in 192.
FREE_LEAD_REFUSED = 6.0


@dataclass(frozen=True)
class Logistic:
    """A logistic model of the FEATURES (standardized by `mean` and `scale`), its probability
    lowered by `shrink`: on the tuning dumps the largest factor that applied no wrong command
    changing the game without a question."""

    mean: tuple[float, ...]
    scale: tuple[float, ...]
    weights: tuple[float, ...]
    bias: float
    shrink: float

    def __call__(self, measured: Sequence[float]) -> float:
        if measured[FEATURES.index("free lead")] > FREE_LEAD_REFUSED:
            return 0.0  # beyond the leads the models were fitted on: chatter
        z = self.bias + sum(w * (x - m) / s for w, x, m, s in zip(
            self.weights, measured, self.mean, self.scale, strict=True))
        return self.shrink / (1.0 + math.exp(-z))


# One model per language, each fitted by benchmarks/whisper_calibrate.py (L2 0.1) on that
# language's tuning dumps. A language without one keeps the free beam and the text mapper.
MODELS: dict[str, Logistic] = {
    # 530 readings, English words (tiny.en).
    "en": Logistic(mean=(0.687, 1.715, 0.63, -0.676, 0.309, 2.149),
                   scale=(0.236, 1.63, 0.387, 0.366, 0.423, 2.1),
                   weights=(0.485, -0.473, 0.443, 0.202, 0.161, 0.332),
                   bias=1.291, shrink=0.85),
    # 260 readings, Ukrainian words (base), seeds 11, 77, 44 and 55; shrink chosen with
    # --wrong-any 1 --chatter 5 (the free beam accepted no chatter here: nor may this).
    "uk": Logistic(mean=(0.712, 1.099, 0.385, -0.602, 0.074, 2.906),
                   scale=(0.217, 0.886, 0.388, 0.196, 0.233, 3.491),
                   weights=(0.265, -0.334, 0.654, 0.384, 0.183, -0.12),
                   bias=0.931, shrink=0.65),
}
MARGIN_CAP = 10.0  # nats per token: a runner-up further than this is as good as none
# The sentences' log-likelihoods here are means per token (whisper.py scores them so with
# the limited beam); their shares are taken at this temperature (chosen on the tuning
# dumps among 0.25, 0.5 and 1).
SHARE_TEMPERATURE = 1.0


def features(command: str, mapper_confidence: float, beam_score: float, scores: Scores
             ) -> tuple[float, ...]:
    """The six measurements (FEATURES) of one utterance whose rescored command is
    `command`: its share of the grammar sentences' likelihood, how far the likeliest free
    transcript is above the best grammar sentence (nats per token, 0 if below), the text mapper's
    confidence, the best hypothesis's mean token log-probability, how well a free
    transcript reads as the same command (its fit, 0 if none does), and the log-likelihood
    margin between the two best commands."""
    _, share, _ = scores.decide(SHARE_TEMPERATURE, gap_free=math.inf, gap_scale=1.0)
    top = max(scores.logs)
    lead = max(0.0, max(scores.free_logs, default=top) - top)
    agrees = max((r[0] for _, r in scores.free if r is not None and r[1] == command),
                 default=0.0)
    best: dict[str, float] = {}
    for (_, cmd), ll in zip(scores.grammar, scores.logs, strict=True):
        best[cmd] = max(best.get(cmd, -math.inf), ll)
    ranked = sorted(best.values(), reverse=True)
    margin = min(MARGIN_CAP, ranked[0] - ranked[1]) if len(ranked) > 1 else MARGIN_CAP
    return share, lead, mapper_confidence, beam_score, agrees, margin


def fitted(lang: str) -> bool:
    """Whether a language has a calibrated confidence (and so may use the limited beam)."""
    return lang in MODELS


def ceiling(lang: str) -> float:
    """The highest confidence a language's model gives (its shrink)."""
    return MODELS[lang].shrink


def confidence(measured: Sequence[float], lang: str = "en") -> float:
    """The calibrated confidence of a reading from its FEATURES, in its language."""
    return MODELS[lang](measured)
