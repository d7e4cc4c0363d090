"""Fit the confidence of hypotheses limited to the grammar's tokens (companion/voice/
calibration.py) on benchmark dumps, and report it against the shipped reading.

`voice_bench.py --recognizer whisper --dump FILE` (the limited beam, as shipped) keeps every
decode's evidence.
This fits a logistic model of calibration.FEATURES (is the reading the command said?) on the
tuning dumps, chooses the largest shrink factor that applies no wrong command changing the
game without a question there, prints the coefficients to paste into calibration.py, and
replays the decision (the game's cap on lists, the confirmation policy) on the tuning and
reporting dumps. Needs numpy (benchmark only).

    .venv/bin/python benchmarks/whisper_calibrate.py --tune t11.jsonl t77.jsonl --report r.jsonl

For a language with no model yet, make its tuning dumps with `voice_bench.py --lang X
--borrow-calibration en`, then fit with `--lang X --wrong-any 1 --chatter 5` (no more wrong
commands applied or chatter accepted than its free beam: docs/voice.md).
"""

from __future__ import annotations

import argparse
import dataclasses
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from whisper_tune import load  # noqa: E402  (the dumps are read the same way)

from companion.games.hanamikoji.voice.hooks import settled  # noqa: E402
from companion.voice import calibration  # noqa: E402
from companion.voice.policy import QUERY_COMMANDS, Accept, Refuse, decide  # noqa: E402
from companion.voice.rescore import Scores  # noqa: E402
from companion.voice.sphinx import Recognition, capped  # noqa: E402
from companion.voice.whisper import REFUSE_BELOW, agree  # noqa: E402

SNRS = (40, 20, 10, 6)


def measured(row: dict) -> tuple[str, tuple[float, ...]] | None:
    """(command, features) of a decode the recognizer would score, or None."""
    ev = row["evidence"]
    if not ev.get("hyps") or not ev.get("grammar"):
        return None
    scores = Scores.from_evidence(ev)
    command, share, _ = scores.decide(calibration.SHARE_TEMPERATURE)
    command, _ = agree(tuple(ev["mapper"]), command, share, calibrated=True)  # as live
    if command is None:
        return None
    return command, calibration.features(command, ev["mapper"][1], ev["hyps"][0][1], scores)


def fit(x: np.ndarray, y: np.ndarray, l2: float = 0.1, steps: int = 3000
        ) -> calibration.Logistic:
    """Logistic regression on standardized features, by gradient descent (shrink 1)."""
    mean, scale = x.mean(axis=0), x.std(axis=0) + 1e-9
    z = np.hstack([(x - mean) / scale, np.ones((len(x), 1))])
    w = np.zeros(z.shape[1])
    for _ in range(steps):
        p = 1.0 / (1.0 + np.exp(-z @ w))
        w -= 0.1 * (z.T @ (p - y) / len(y) + l2 * np.r_[w[:-1], 0.0])
    return calibration.Logistic(_rounded(mean), _rounded(scale), _rounded(w[:-1]),
                                round(float(w[-1]), 3), 1.0)


def _rounded(values: np.ndarray) -> tuple[float, ...]:
    """As printed for calibration.py (the replay uses exactly what is pasted)."""
    return tuple(round(float(v), 3) for v in values)


def outcome(row: dict, model: calibration.Logistic) -> tuple[str | None, bool]:
    """(the command the player meets, applied without a question) under the model."""
    found = measured(row)
    if found is None:
        return None, False
    command, x = found
    confidence = capped(command, model(x), settled)
    if confidence < REFUSE_BELOW:
        return None, False
    decision = decide(Recognition(command, confidence, ""))
    return (None if isinstance(decision, Refuse) else command), isinstance(decision, Accept)


def tally(rows: list[dict], model: calibration.Logistic, mode: str
          ) -> list[tuple[float, float, float, float]]:
    """Per SNR: right %, wrong applied % (game-changing), wrong applied % (any), OOG %."""
    out = []
    for snr in SNRS:
        group = [r for r in rows if r["mode"] == mode and r["snr"] == snr]
        said = [(r["truth"], *outcome(r, model)) for r in group if r["truth"]]
        oog = [outcome(r, model)[0] for r in group if not r["truth"]]
        n = max(1, len(said))
        wrong = [(c, a) for t, c, a in said if c not in (None, t)]
        out.append((100 * sum(c == t for t, c, _ in said) / n,
                    100 * sum(a and c not in QUERY_COMMANDS for c, a in wrong) / n,
                    100 * sum(a for _, a in wrong) / n,
                    100 * sum(c is not None for c in oog) / max(1, len(oog))))
    return out


def show(cells: list[tuple[float, float, float, float]]) -> str:
    return " | ".join(f"{a:.0f} / {b:.0f} / {c:.0f} / {d:.0f}" for a, b, c, d in cells)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tune", nargs="+", required=True)
    parser.add_argument("--report", nargs="*", default=[])
    parser.add_argument("--l2", type=float, default=0.1)
    parser.add_argument("--lang", default="en", help="the dumps' language (as printed)")
    parser.add_argument("--wrong-any", type=float, default=100.0, metavar="PCT",
                        help="also at most PCT%% of any wrong command (questions included) "
                             "applied unasked in each tuning cell")
    parser.add_argument("--chatter", type=float, default=100.0, metavar="PCT",
                        help="also at most PCT%% of out-of-grammar speech accepted in each "
                             "tuning cell in context")
    args = parser.parse_args(argv)
    tune = load(args.tune)
    pairs = [(measured(r), r["truth"]) for r in tune]
    x = np.array([m[1] for m, _ in pairs if m is not None])
    y = np.array([float(m[0] == t) for m, t in pairs if m is not None])
    fitted = fit(x, y, args.l2)
    print(f"{len(y)} readings, {int(y.sum())} right; features {calibration.FEATURES}")
    models = [dataclasses.replace(fitted, shrink=s)
              for s in (1.0, 0.95, 0.9, 0.85, 0.8, 0.75, 0.7, 0.65, 0.6, 0.55, 0.5)]

    def safe_enough(model: calibration.Logistic) -> bool:
        cells = {mode: tally(tune, model, mode) for mode in ("context", "any")}
        return all(c[1] == 0 and c[2] <= args.wrong_any for m in cells.values() for c in m) \
            and all(c[3] <= args.chatter for c in cells["context"])
    safe = [m for m in models if safe_enough(m)]
    model = safe[0] if safe else models[-1]
    print(f'    "{args.lang}": {model},')
    print("\nright / wrong applied (game-changing) / wrong applied (all) / out-of-grammar "
          "accepted, %, at " + " | ".join(f"{s} dB" for s in SNRS))
    for name, rows in (("tuning", tune), ("reporting", load(args.report))):
        for mode in ("context", "any"):
            if rows:
                print(f"{name}, {mode}: {show(tally(rows, model, mode))}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
