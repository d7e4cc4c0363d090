"""Replay a voice_bench dump of a free-beam language (French, Spanish) with the code as it
is now: the cases (contexts, truths) drawn again from the run's seeds, each decode's
recorded hypotheses read again (`map_hypotheses`), a refused one rescued from its recorded
scored sentences (`rescue`), screened as an answer (`yesno`) and decided by the policy.
Prints right / wrong / wrong applied per SNR, and every miss with `--verbose`: how a
change to the reading of transcripts would have done on a run, without the model
(docs/voice.md, issue 25). The noise-margin check of a yes and the audio check of an
answer (`yesno.heard_as`: the model's likelihood of the answer's word) need the audio: not
replayed.

    .venv/bin/python benchmarks/voice_bench.py --engine listener --voice-set tune --lang fr \
        --recognizer whisper --seeds 11 77 --per-seed 10 --any-every 0 --dump run.jsonl
    .venv/bin/python benchmarks/voice_replay.py run.jsonl --lang fr --voice-set tune \
        --seeds 11 77 --per-seed 10
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

import voice_bench as vb  # noqa: E402

from companion.games.hanamikoji.voice.grammar import phrase_list  # noqa: E402
from companion.games.hanamikoji.voice.hooks import settled  # noqa: E402
from companion.games.hanamikoji.voice.words import normalize  # noqa: E402
from companion.voice import whisper, yesno  # noqa: E402
from companion.voice.mapper import phrases_graph, words_of  # noqa: E402
from companion.voice.policy import Accept, Confirm, decide  # noqa: E402
from companion.voice.rescore import Scores  # noqa: E402
from companion.voice.sphinx import LOW, Recognition, capped, is_move  # noqa: E402


def cases(seeds: list[int], per_seed: int, lang: str, voices: tuple[str, ...]
          ) -> list[tuple[vb.Case, str, int, str]]:
    """(case, voice, SNR, noise) in the order voice_bench.make_jobs made the run's jobs
    (the same draws; no speech is made: the babble's voices are drawn, not spoken)."""
    out = []
    speak, vb.espeak = vb.espeak, lambda *a, **k: np.zeros(10)
    try:
        for seed in seeds:
            rng = random.Random(seed)
            vb.Babble(rng)
            for _ in range(per_seed):
                case = vb.make_case_in(rng, lang)
                voice = rng.choice(voices)
                rng.randint(130, 190), rng.randint(25, 75)
                out += [(case, voice, snr, noise) for snr in vb.SNRS for noise in vb.NOISES]
    finally:
        vb.espeak = speak
    return out


def replay(row: dict, case: vb.Case, lang: str) -> tuple[str | None, bool]:
    """(command offered or applied, applied unasked) with the code as it is now."""
    ctx = case.context
    evidence = row["evidence"] or {}
    hyps = [(text, score) for text, score in evidence.get("hyps", [])]
    if not hyps:
        return row["command"], row["accepted_unasked"]
    bag = tuple(phrase_list(ctx, lang))

    def read(text: str) -> str | None:
        return normalize(text, lang, ctx)
    graph = phrases_graph(bag)
    reading = whisper.reader(graph, read, False, loops=True, lang=lang)
    command, confidence, words = whisper.map_hypotheses(hyps, graph, read, False, reading)
    if confidence < whisper.REFUSE_BELOW and evidence.get("grammar") and "logs" in evidence:
        found = whisper.rescue(Scores.from_evidence(evidence), [reading(t) for t, _ in hyps])
        if found is not None:
            command, confidence = found, whisper.RESCUED
    if command is not None:
        confidence = capped(command, confidence, settled)
        if is_move(command):
            confidence = min(confidence, LOW)  # sphinx.uncalibrated
    heard = yesno.screened(Recognition(command, confidence, words), hyps[0][0], reading,
                           lambda text: words_of(text, False))
    if heard.command is None or (heard.confidence < whisper.REFUSE_BELOW
                                 and not whisper.asked_low(heard, False)):
        return None, False
    decision = decide(heard, answering=ctx.kind == "confirm")
    if isinstance(decision, (Accept, Confirm)):
        return decision.command, isinstance(decision, Accept)
    return None, False


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("dump", type=Path)
    parser.add_argument("--lang", choices=["fr", "es"], required=True)
    parser.add_argument("--voice-set", choices=["tune", "report"], default="tune")
    parser.add_argument("--voices", default=None,
                        help="comma-separated voices, as the run was given them")
    parser.add_argument("--seeds", type=int, nargs="+", required=True)
    parser.add_argument("--per-seed", type=int, required=True)
    parser.add_argument("--verbose", action="store_true")
    args = parser.parse_args(argv)
    voices = (tuple(args.voices.split(",")) if args.voices
              else vb.LISTENER_VOICES[args.lang][args.voice_set])
    with args.dump.open(encoding="utf-8") as f:
        rows = [r for r in map(json.loads, f) if r["mode"] == "context"]
    drawn = cases(args.seeds, args.per_seed, args.lang, voices)
    if len(drawn) != len(rows):
        parser.error(f"{len(rows)} decodes in the dump, {len(drawn)} cases drawn: "
                     "other seeds, voices or utterances per seed")
    tally: dict[int, list[int]] = {}
    for (case, voice, snr, noise), row in zip(drawn, rows, strict=True):
        if (row["snr"], row["noise"], row["voice"], row["spoken"]) != (
                snr, noise, voice, case.spoken):
            parser.error(f"the dump's decode {row['spoken']!r} is not the case drawn "
                         f"{case.spoken!r}")
        command, applied = replay(row, case, args.lang)
        t = tally.setdefault(snr, [0, 0, 0, 0, 0, 0])
        if case.truth is None:
            t[4] += 1
            t[5] += command is not None
        else:
            t[0] += 1
            t[1] += command == case.truth
            t[2] += command not in (None, case.truth)
            t[3] += applied and command != case.truth
        if args.verbose and command != case.truth:
            print(f"{snr:>2} {noise:6} {voice:10} {case.kind:12} {case.spoken!r} "
                  f"truth={case.truth} now={command} live={row['command']} "
                  f"hyps={[h for h, _ in row['evidence']['hyps']][:3]}")
    for snr, (n, right, wrong, applied, oog, accepted) in sorted(tally.items(), reverse=True):
        print(f"{snr} dB: {n} commands, right {100 * right / n:.1f}%, wrong "
              f"{100 * wrong / n:.1f}% (applied unasked {100 * applied / n:.1f}%); "
              f"out of grammar accepted {accepted} of {oog}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
