"""One confidence for a hypothesis limited to the grammar's tokens (whisper.py, `constrain`).

When the beam may only write the context's words, its hypotheses always read as grammar
sentences, so the text mapper's fit says nothing about chatter or a misheard card. The
confidence is then a logistic model of six measurements of one utterance, fitted by
benchmarks/whisper_calibrate.py on the tuning dumps (espeak-ng voices, seeds 11 and 77) and
checked on the reporting ones (seeds 22 and 33; docs/voice.md). Pure: no model, no audio.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from companion.voice.rescore import Scores

FEATURES = ("share", "free lead", "mapper", "beam score", "free agrees", "margin")
# Fitted by benchmarks/whisper_calibrate.py (L2 0.1) on 530 readings of the tuning dumps.
MEAN = (0.687, 1.715, 0.63, -0.676, 0.309, 2.149)
SCALE = (0.236, 1.63, 0.387, 0.366, 0.423, 2.1)
WEIGHTS = (0.485, -0.473, 0.443, 0.202, 0.161, 0.332)
BIAS = 1.291
# The fitted probability is lowered by this factor: on the tuning dumps it is the largest
# that applied no wrong command that changes the game without a question.
SHRINK = 0.85
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


def confidence(measured: Sequence[float]) -> float:
    """The calibrated confidence of a reading from its FEATURES."""
    z = BIAS + sum(w * (x - m) / s for w, x, m, s in zip(WEIGHTS, measured, MEAN, SCALE,
                                                         strict=True))
    return SHRINK / (1.0 + math.exp(-z))
