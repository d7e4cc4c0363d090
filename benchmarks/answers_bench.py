"""Yes and no, and words near them, said while a yes or no is awaited (issue 25, part 3).

Voices a listener takes for a person's (voice_bench.LISTENER_VOICES: MBROLA, Pico, RHVoice;
their tuning and reporting sets) say each word once per voice and seed, mixed with the
voice benchmark's noises (white, pink, babble) at 40, 20, 10 and 6 dB, and heard in
Hanamikoji's confirm context by Whisper as in play (the policy's `answering`). Prints per
SNR the real answers applied right and the other words applied as an answer. The audio
check's settings (companion/voice/yesno.py) can be changed for a run (`--own-floor`,
`--own-lead`; `--no-audio-check`: the figures before it).

    .venv/bin/python benchmarks/answers_bench.py --lang fr --voice-set tune --seeds 11 77 \\
        --words oui non nous où
"""

from __future__ import annotations

import argparse
import math
import os
import random
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

import voice_bench as vb  # noqa: E402

from companion.games.hanamikoji.voice.context import Context  # noqa: E402
from companion.games.hanamikoji.voice.hooks import HanamikojiRecognizer  # noqa: E402
from companion.shared_words import ANSWER_ALSO, ANSWER_WORD  # noqa: E402
from companion.voice import yesno  # noqa: E402
from companion.voice.policy import Accept, decide  # noqa: E402
from companion.voice.sphinx import ANSWERS  # noqa: E402

# Each language's yes and no, and the other ways of saying them ("d'accord", "vale").
TRUTHS = {lang: {word: answer for answer in ("yes", "no")
                 for word in (ANSWER_WORD[answer][lang], *ANSWER_ALSO[answer][lang])}
          for lang in ("fr", "es", "uk")}


def run(lang: str, voices: tuple[str, ...], seeds: list[int], words: list[str],
        verbose: bool) -> dict[int, list[int]]:
    """Per SNR: [answers, applied right, other words, applied as an answer]."""
    from companion.voice.whisper import WhisperRecognizer

    recognizer = HanamikojiRecognizer(WhisperRecognizer(None, lang))
    ctx = Context.confirm()
    tally: dict[int, list[int]] = {snr: [0, 0, 0, 0] for snr in vb.SNRS}
    for seed in seeds:
        rng, nrng = random.Random(seed), np.random.default_rng(seed)
        babble = vb.Babble(rng)
        for voice in voices:
            for word in words:
                truth = TRUTHS[lang].get(word)
                speech = vb.synth(word, voice, rng.randint(130, 190), rng.randint(25, 75))
                for snr in vb.SNRS:
                    for noise in vb.NOISES:
                        heard = recognizer.recognize(vb.mix(speech, noise, snr, nrng, babble),
                                                     ctx)
                        decision = decide(heard, answering=True)
                        applied = decision.command if isinstance(decision, Accept) else None
                        t = tally[snr]
                        if truth is not None:
                            t[0] += 1
                            t[1] += applied == truth
                        else:
                            t[2] += 1
                            t[3] += applied in ANSWERS
                        if verbose and applied != truth:
                            print(f"  {seed} {voice} {word!r} {snr} {noise}: {applied} "
                                  f"{recognizer.engine.evidence.get('answer')}", flush=True)
    return tally


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--lang", choices=sorted(TRUTHS), required=True)
    parser.add_argument("--voice-set", choices=["tune", "report"], default="tune")
    parser.add_argument("--seeds", type=int, nargs="+", default=[11, 77])
    parser.add_argument("--words", nargs="+", default=None,
                        help="words said (default: the language's yes and no and their other ways, "
                             "shared_words.ANSWER_ALSO)")
    parser.add_argument("--own-floor", type=float, default=None)
    parser.add_argument("--own-lead", type=float, nargs=2, default=None,
                        metavar=("YES", "NO"))
    parser.add_argument("--no-audio-check", action="store_true",
                        help="the transcripts' rule alone (the figures before the check)")
    parser.add_argument("--verbose", action="store_true")
    args = parser.parse_args(argv)
    if args.no_audio_check:
        args.own_floor, args.own_lead = -math.inf, (-math.inf, -math.inf)
    if args.own_floor is not None:
        yesno.OWN_FLOOR = args.own_floor
    if args.own_lead is not None:
        yesno.OWN_LEAD = {"yes": args.own_lead[0], "no": args.own_lead[1]}
    voices = vb.LISTENER_VOICES[args.lang][args.voice_set]
    words = args.words or list(TRUTHS[args.lang])
    started, load = time.perf_counter(), os.getloadavg()[0]
    tally = run(args.lang, voices, args.seeds, words, args.verbose)
    print(f"Answers in {args.lang}, {args.voice_set} voices ({', '.join(voices)}), seeds "
          f"{args.seeds}, words {', '.join(words)}; audio check floor {yesno.OWN_FLOOR}, "
          f"lead {yesno.OWN_LEAD}; run {time.perf_counter() - started:.0f} s, load average "
          f"at the start {load:.1f} on {os.cpu_count()} cores.\n")
    print("| SNR | answers applied right (n) | other words applied as an answer (n) |")
    print("|---|---|---|")
    for snr, (n, right, other, taken) in tally.items():
        print(f"| {snr} dB | {right} ({n}) | {taken} ({other}) |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
