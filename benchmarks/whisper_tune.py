"""Tune and compare the Whisper back end's two readings offline, on benchmark dumps.

`voice_bench.py --recognizer whisper --dump FILE` keeps, for every utterance, Whisper's
hypotheses, the text mapper's reading and the rescored sentences' log-likelihoods. This
replays the decision (the recognizer's refusal floor, the game's cap on lists, the
confirmation policy) for the text mapper and for rescoring under each setting, so settings
are chosen on one dump (the tuning speakers and seeds) and reported on others; it also
counts which grammar word was taken for which (the confusion inside one context).

    .venv/bin/python benchmarks/whisper_tune.py --tune /tmp/tune.jsonl --report /tmp/r.jsonl
"""

from __future__ import annotations

import argparse
import itertools
import json
import sys
from collections import Counter
from collections.abc import Iterable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from companion.games.hanamikoji.voice.hooks import settled  # noqa: E402
from companion.voice.policy import Accept, Refuse, decide  # noqa: E402
from companion.voice.rescore import GAP_FREE, GAP_SCALE, TEMPERATURE, Scores  # noqa: E402
from companion.voice.sphinx import Recognition  # noqa: E402
from companion.voice.whisper import REFUSE_BELOW, agree  # noqa: E402

SNRS = (40, 20, 10, 6)
Setting = tuple[float, float, float] | None  # (temperature, gap free, gap scale); None: mapper


def load(paths: Iterable[str]) -> list[dict]:
    rows = []
    for path in paths:
        with open(path, encoding="utf-8") as f:
            rows += [json.loads(line) for line in f if line.strip()]
    return [r for r in rows if r["evidence"] is not None]


def reading(row: dict, setting: Setting) -> tuple[str | None, float]:
    ev = row["evidence"]
    if not ev.get("hyps"):
        return None, 0.0
    if setting is None:
        command, confidence, _ = ev["mapper"]
    elif not ev.get("grammar"):
        return None, 0.0
    else:
        command, confidence, _ = Scores.from_evidence(ev).decide(*setting)
        command, confidence = agree(ev["mapper"], command, confidence)  # as the recognizer
    if command is not None:
        cap = settled(command)
        confidence = min(confidence, cap) if cap is not None else confidence
    return (command, confidence) if command and confidence >= REFUSE_BELOW else (None,
                                                                                 confidence)


def outcome(row: dict, setting: Setting) -> tuple[str | None, bool]:
    """(the command the player meets, applied without a question)."""
    command, confidence = reading(row, setting)
    decision = decide(Recognition(command, confidence, ""))
    return (None if isinstance(decision, Refuse) else command), isinstance(decision, Accept)


def tally(rows: list[dict], setting: Setting, mode: str = "context") -> dict[str, list[float]]:
    """Per SNR: right, refused, wrong, wrong applied (% of in-grammar), OOG accepted %."""
    out: dict[str, list[float]] = {}
    for snr in SNRS:
        group = [r for r in rows if r["mode"] == mode and r["snr"] == snr]
        ing = [r for r in group if r["truth"] is not None]
        oog = [r for r in group if r["truth"] is None]
        res = [(r["truth"], *outcome(r, setting)) for r in ing]
        n = max(1, len(ing))
        out[str(snr)] = [100 * sum(c == t for t, c, _ in res) / n,
                         100 * sum(c is None for _, c, _ in res) / n,
                         100 * sum(c not in (None, t) for t, c, _ in res) / n,
                         100 * sum(c not in (None, t) and a for t, c, a in res) / n,
                         100 * sum(outcome(r, setting)[0] is not None for r in oog)
                         / max(1, len(oog))]
    return out


def merit(t: dict[str, list[float]]) -> float:
    """Mean right over the SNRs; a setting that applies a wrong command unasked or accepts
    chatter more than 1% of the time is out."""
    applied = sum(v[3] for v in t.values()) / len(t)
    oog = sum(v[4] for v in t.values()) / len(t)
    return -1.0 if applied > 1.0 or oog > 1.0 else sum(v[0] for v in t.values()) / len(t)


def grid() -> list[Setting]:
    return [None, *itertools.product((0.5, 1.0, 2.0, 4.0), (0.0, 3.0, 6.0, 10.0, 20.0),
                                     (3.0, 6.0, 12.0, 1e9))]


def show(label: str, t: dict[str, list[float]]) -> str:
    cells = " | ".join(f"{v[0]:.0f} / {v[1]:.0f} / {v[2]:.0f} / {v[3]:.0f} / {v[4]:.0f}"
                       for v in t.values())
    return f"| {label} | {cells} |"


def confusions(rows: list[dict]) -> Counter[tuple[str, str]]:
    """(word said, grammar word taken) for every word of an in-context reading (right,
    wrong or refused) whose words line up one for one with what was said, when the two
    words mean different things (a synonym of the same card is no confusion)."""
    from companion.games.hanamikoji.voice.lexicon import ENGLISH
    from companion.voice.mapper import words_of

    def meaning(word: str) -> object:
        return ENGLISH.cards.get(word, word)

    pairs: Counter[tuple[str, str]] = Counter()
    for r in rows:
        if r["mode"] != "context" or r["truth"] is None or not r["words"]:
            continue
        said, taken = words_of(r["spoken"]), r["words"].split()
        said = [w for w in said if w not in ("the", "and", "i", "my")]
        taken = [w for w in taken if w not in ("the", "and", "i", "my")]
        if len(said) == len(taken):
            pairs.update((a, b) for a, b in zip(said, taken, strict=True)
                         if meaning(a) != meaning(b))
    return pairs


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tune", nargs="+", required=True, help="dumps to choose settings on")
    parser.add_argument("--report", nargs="*", default=[], help="dumps to report on")
    args = parser.parse_args(argv)
    tune = load(args.tune)
    scored = sorted(((merit(tally(tune, s)), s) for s in grid()),
                    key=lambda x: -x[0])
    best = scored[0][1]
    print("settings on the tuning dump (mean right %, context mode), best first:")
    for m, s in scored[:8]:
        print(f"  {m:5.1f}  {'text mapper' if s is None else s}")
    print(f"  text mapper: {merit(tally(tune, None)):.1f}; built-in "
          f"{(TEMPERATURE, GAP_FREE, GAP_SCALE)}: "
          f"{merit(tally(tune, (TEMPERATURE, GAP_FREE, GAP_SCALE))):.1f}")
    head = ("| reading | " + " | ".join(f"{s} dB" for s in SNRS) + " |\n|---"
            + "|---" * len(SNRS) + "|")
    for name, rows in (("tuning", tune), ("reporting", load(args.report) if args.report
                                          else [])):
        if not rows:
            continue
        for mode in ("context", "any"):
            print(f"\n{name} ({len(rows)} decodes), {mode}: right / refused / wrong / "
                  "wrong applied / OOG accepted, %\n" + head)
            print(show("text mapper", tally(rows, None, mode)))
            print(show(f"rescored {best}", tally(rows, best, mode)))
    rows = tune + (load(args.report) if args.report else [])
    print("\nconfusions (word said -> grammar word taken), all dumps, context mode:")
    for (a, b), n in confusions(rows).most_common(20):
        print(f"  {a} -> {b}: {n}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
