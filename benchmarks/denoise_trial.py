"""Experiment: does single-channel noise suppression before pocketsphinx lift recognition in noise?

Each bench mixture (voice_bench.make_jobs: espeak voices, white/pink/babble at 40/20/10/6 dB,
0.4 s of noise-only audio each side) is recognized in its game context as it is (`raw`) and
after each denoiser below, applied to the whole utterance's 16 kHz PCM BEFORE `recognize`.
Every variant has its own SphinxRecognizer in each worker, so pocketsphinx's `remove_noise`
state (which carries across utterances) only ever sees audio of its own variant, in the same
order for every variant.

Denoisers (numpy only; STFT 512-point periodic Hann, hop 128, weighted overlap-add):

- `specsub`: Berouti power spectral subtraction. Noise PSD = mean power spectrum of the
  quietest 15% of frames (by frame energy). Over-subtraction alpha = 4 - 0.15 * segSNR(dB),
  clipped to [1, 5]; spectral floor beta = 0.02 of the noise power (about -17 dB).
- `wiener`: Wiener gain xi/(1+xi) with Ephraim-Malah decision-directed a priori SNR
  (a = 0.98, xi >= -25 dB), same noise PSD, gain floor -20 dB.
- `wiener_mild`: the same with a gain floor of -10 dB and xi >= -15 dB (less suppression,
  less distortion of the speech the acoustic model was trained on).

A variant `NAME@rawtrim` (e.g. `wiener_mild@rawtrim`) cuts the denoised audio to the speech
span found in the RAW audio instead of letting `prepare` find it in the denoised audio
(denoising lowers the floor, so `speech_span` keeps 0.1-0.3 s more around the speech): it
separates the effect of the cleaner spectrum from that of a different trim. It calls the
recognizer's `_agree` directly with the same conditioning as `recognize`.

Counted (in-grammar utterances: right / refused / wrong, wrong = a different command, asked
or applied; out-of-grammar: accepted = turned into a command):

- `pre`: `Recognition.command` as returned, before the policy;
- `post(raw m)`: after `policy.decide`, with the loudness margin measured on the RAW audio
  (the 17 dB gate stays calibrated);
- `post(own m)`: after `policy.decide` with the margin `prepare` measured on the audio given
  to it (for a denoiser: the denoised audio), for information.

The recognizer's own below-margin refusal (sphinx.MIN_MARGIN) is switched off in
the worker processes only, so `pre` is the three-way agreement; decodes are sequential
(`parallel=False`). Writes nothing in the repository; `--dump FILE` keeps every outcome as
JSON lines, `--from-dump FILE` prints the tables again from one (or a concatenation).

    .venv/bin/python benchmarks/denoise_trial.py --check   # the denoisers' output SNR, ~3 s
    .venv/bin/python benchmarks/denoise_trial.py --seeds 11 22 --per-seed 20 \
        --variants raw,specsub,wiener,wiener_mild --dump /tmp/dn/main_11_22.jsonl  # 7-14 min
    .venv/bin/python benchmarks/denoise_trial.py --seeds 11 22 --per-seed 20 \
        --variants raw,specsub@rawtrim,wiener@rawtrim,wiener_mild@rawtrim
    .venv/bin/python benchmarks/denoise_trial.py --seeds 33 44 --per-seed 20 \
        --variants raw,specsub,wiener_mild --dump /tmp/dn/rep_33_44.jsonl
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import multiprocessing
import statistics
import subprocess
import sys
import time
from collections import defaultdict
from collections.abc import Callable
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

import voice_bench as vb  # noqa: E402

import companion.voice.policy as policy  # noqa: E402
import companion.voice.sphinx as sphinx  # noqa: E402
from companion.games.hanamikoji.voice.grammar import build_grammar  # noqa: E402
from companion.games.hanamikoji.voice.hooks import HanamikojiRecognizer, settled  # noqa: E402
from companion.games.hanamikoji.voice.words import normalize  # noqa: E402
from companion.voice.policy import CONFIRM_THRESHOLD, Refuse, decide  # noqa: E402
from companion.voice.sphinx import Recognition, SphinxRecognizer, prepare, speech_span  # noqa: E402

# The margin gate, applied here (after recognition) with the margin chosen by the trial.
GATE = sphinx.MIN_MARGIN
ANSWERED_ANYWAY = policy.QUERY_COMMANDS  # questions and settings pass the gate

NFFT = 512
HOP = 128
NOISE_QUANTILE = 0.15  # the quietest 15% of frames make the noise estimate
_WINDOW = np.hanning(NFFT + 1)[:NFFT]  # periodic Hann


# ---------------------------------------------------------------- STFT
def stft(x: np.ndarray) -> tuple[np.ndarray, int]:
    """Frames x bins of the Hann-windowed spectrum; the signal is zero-padded by NFFT each side
    (returned: the original length)."""
    n = len(x)
    padded = np.concatenate([np.zeros(NFFT), x, np.zeros(NFFT + HOP)])
    count = (len(padded) - NFFT) // HOP + 1
    idx = np.arange(NFFT)[None, :] + HOP * np.arange(count)[:, None]
    return np.fft.rfft(padded[idx] * _WINDOW, axis=1), n


def istft(spec: np.ndarray, n: int) -> np.ndarray:
    """Weighted overlap-add (synthesis window = analysis window, normalised by sum w^2)."""
    frames = np.fft.irfft(spec, NFFT, axis=1) * _WINDOW
    length = HOP * (len(frames) - 1) + NFFT
    out = np.zeros(length)
    norm = np.zeros(length)
    for i, frame in enumerate(frames):
        out[i * HOP:i * HOP + NFFT] += frame
        norm[i * HOP:i * HOP + NFFT] += _WINDOW ** 2
    out /= np.maximum(norm, 1e-8)
    return out[NFFT:NFFT + n]


def noise_psd(power: np.ndarray, quantile: float = NOISE_QUANTILE) -> np.ndarray:
    """Per-bin noise power: mean power spectrum of the lowest-energy `quantile` of frames
    (the padding frames, all-zero, are left out)."""
    energy = power.sum(axis=1)
    live = np.flatnonzero(energy > 0)
    count = max(5, int(quantile * len(live)))
    quiet = live[np.argsort(energy[live])[:count]]
    return power[quiet].mean(axis=0) + 1e-10


# ---------------------------------------------------------------- denoisers
def specsub(x: np.ndarray, alpha0: float = 4.0, alpha_max: float = 5.0,
            beta: float = 0.02) -> np.ndarray:
    """Berouti et al. (1979) power spectral subtraction with over-subtraction and a floor."""
    spec, n = stft(x)
    power = np.abs(spec) ** 2
    noise = noise_psd(power)
    seg_snr = 10 * np.log10(np.maximum(power.sum(axis=1), 1e-10) / noise.sum())
    alpha = np.clip(alpha0 - 0.15 * seg_snr, 1.0, alpha_max)[:, None]
    clean = np.maximum(power - alpha * noise, beta * noise)
    gain = np.sqrt(clean / np.maximum(power, 1e-10))
    return istft(spec * np.minimum(gain, 1.0), n)


def wiener(x: np.ndarray, a: float = 0.98, xi_min_db: float = -25.0,
           gain_min_db: float = -20.0) -> np.ndarray:
    """Wiener gain with the decision-directed a priori SNR (Ephraim & Malah 1984)."""
    spec, n = stft(x)
    power = np.abs(spec) ** 2
    noise = noise_psd(power)
    gamma = power / noise  # a posteriori SNR
    xi_min = 10 ** (xi_min_db / 10)
    gain_min = 10 ** (gain_min_db / 20)
    gains = np.empty_like(gamma)
    prev = np.zeros(gamma.shape[1])  # |S_hat|^2 / noise of the previous frame
    for t in range(len(gamma)):
        xi = np.maximum(a * prev + (1 - a) * np.maximum(gamma[t] - 1, 0.0), xi_min)
        g = np.maximum(xi / (1 + xi), gain_min)
        gains[t] = g
        prev = g * g * gamma[t]
    return istft(spec * gains, n)


def wiener_mild(x: np.ndarray) -> np.ndarray:
    """The Wiener gain, gentler: gain floor -10 dB, a priori SNR floor -15 dB."""
    return wiener(x, xi_min_db=-15.0, gain_min_db=-10.0)


DENOISERS: dict[str, Callable[[np.ndarray], np.ndarray]] = {
    "specsub": specsub, "wiener": wiener, "wiener_mild": wiener_mild}


def to_pcm(x: np.ndarray) -> bytes:
    return np.clip(np.round(x), -32768, 32767).astype("<i2").tobytes()


def from_pcm(pcm: bytes) -> np.ndarray:
    return np.frombuffer(pcm, dtype="<i2").astype(np.float64)


# ---------------------------------------------------------------- running
@dataclasses.dataclass
class Row:
    variant: str
    snr: int
    noise: str
    truth: str | None
    command: str | None  # before the policy
    confidence: float
    post_raw: str | None  # after the policy, margin of the raw audio
    post_own: str | None  # after the policy, margin of the audio recognized
    margin_raw: float
    margin_own: float
    decode_ms: float
    denoise_ms: float
    words: str


_RECS: dict[str, HanamikojiRecognizer] = {}
_VARIANTS: tuple[str, ...] = ()


def _init(variants: tuple[str, ...]) -> None:
    global _VARIANTS
    _VARIANTS = variants
    # A recognizer that refuses below the margin itself (without the second opinions) would
    # hide what the decoders agree on: in this worker only, its own gate is switched off, so
    # `recognize` gives the three-way agreement as before; the gate is applied in `_after`.
    sphinx.MIN_MARGIN = float("-inf")


def _recognizer() -> HanamikojiRecognizer:
    # Sequential decodes (no decoder worker processes: these workers are daemonic, and the
    # competitor's remove_noise state then sees the same utterances in every variant).
    return HanamikojiRecognizer(SphinxRecognizer(parallel=False))


def _after(rec, margin: float) -> str | None:  # type: ignore[no-untyped-def]
    """The command the player meets after the policy, with `margin` as the loudness margin."""
    d = decide(dataclasses.replace(rec, margin=margin), CONFIRM_THRESHOLD)
    if isinstance(d, Refuse) or rec.command is None:
        return None
    if margin < GATE and rec.command not in ANSWERED_ANYWAY:
        return None
    return rec.command


def _recognize_cut(recognizer: HanamikojiRecognizer, pcm: bytes, span: tuple[int, int],
                   ctx) -> Recognition:  # type: ignore[no-untyped-def]
    """`recognize`, but the audio is cut to `span` (the RAW audio's speech span) instead of
    the span `prepare` finds in `pcm` itself; the margin is still measured on `pcm`."""
    _, margin = prepare(pcm)
    audio, _ = prepare(pcm[2 * span[0]:2 * span[1]], trim=False)
    rec = recognizer.engine._agree(audio, (ctx.name, lambda: build_grammar(ctx)),
                                   ("wide", lambda: build_grammar(ctx, wide=True)),
                                   lambda words: normalize(words, "en", ctx), None, settled)
    return dataclasses.replace(rec, margin=margin)


def _work(job: vb.Job) -> list[Row]:
    ctx = job.case.context
    _, margin_raw = prepare(job.pcm)
    raw_span = speech_span(np.frombuffer(job.pcm, "<i2").astype(int).tolist())
    rows = []
    for variant in _VARIANTS:
        if variant not in _RECS:
            _RECS[variant] = _recognizer()
        name, _, how = variant.partition("@")
        t0 = time.perf_counter()
        pcm = job.pcm if name == "raw" else to_pcm(DENOISERS[name](from_pcm(job.pcm)))
        t1 = time.perf_counter()
        if how == "rawtrim":
            rec = _recognize_cut(_RECS[variant], pcm, raw_span, ctx)
        else:
            rec = _RECS[variant].recognize(pcm, ctx)
        t2 = time.perf_counter()
        rows.append(Row(variant, job.snr, job.noise, job.case.truth, rec.command,
                        rec.confidence, _after(rec, margin_raw), _after(rec, rec.margin),
                        margin_raw, float(rec.margin), 1000 * (t2 - t1),
                        1000 * (t1 - t0) if name != "raw" else 0.0, rec.words))
    return rows


# ---------------------------------------------------------------- reporting
def _counts(rows: list[Row], field: str) -> tuple[int, int, int, int, int, int]:
    ing = [r for r in rows if r.truth is not None]
    oog = [r for r in rows if r.truth is None]
    right = sum(getattr(r, field) == r.truth for r in ing)
    refused = sum(getattr(r, field) is None for r in ing)
    return (len(ing), right, refused, len(ing) - right - refused,
            sum(getattr(r, field) is not None for r in oog), len(oog))


def _cell(rows: list[Row], field: str) -> str:
    n, right, refused, wrong, oog_acc, n_oog = _counts(rows, field)
    return f"{right} / {refused} / {wrong} | {oog_acc}/{n_oog}"


def report(rows: list[Row], by_noise: bool = False) -> str:
    variants = list(dict.fromkeys(r.variant for r in rows))
    groups: dict[tuple, list[Row]] = defaultdict(list)
    for r in rows:
        groups[(r.snr, r.noise if by_noise else "all", r.variant)].append(r)
    head = ("| SNR | noise | variant | n | pre: R / ref / W | OOG acc | post(raw m): R / ref / W "
            "| OOG acc | post(own m): R / ref / W | OOG acc | margin raw / own (median dB) "
            "| decode ms (median) | denoise ms (median) |")
    lines = [head, "|" + "---|" * (head.count("|") - 1)]
    snrs = sorted({k[0] for k in groups}, reverse=True)
    noises = [n for n in vb.NOISES if any(k[1] == n for k in groups)] if by_noise else ["all"]
    for snr in snrs:
        for noise in noises:
            for v in variants:
                g = groups.get((snr, noise, v))
                if not g:
                    continue
                n = sum(r.truth is not None for r in g)
                lines.append(
                    f"| {snr} | {noise} | {v} | {n} | {_cell(g, 'command')} | "
                    f"{_cell(g, 'post_raw')} | {_cell(g, 'post_own')} | "
                    f"{statistics.median(r.margin_raw for r in g):.1f} / "
                    f"{statistics.median(r.margin_own for r in g):.1f} | "
                    f"{statistics.median(r.decode_ms for r in g):.0f} | "
                    f"{statistics.median(r.denoise_ms for r in g):.1f} |")
    return "\n".join(lines)


def totals(rows: list[Row]) -> str:
    lines = []
    for v in dict.fromkeys(r.variant for r in rows):
        g = [r for r in rows if r.variant == v]
        parts = []
        for field in ("command", "post_raw", "post_own"):
            n, right, refused, wrong, oog_acc, n_oog = _counts(g, field)
            parts.append(f"{field}: R {right}/{n} W {wrong} OOG {oog_acc}/{n_oog}")
        lines.append(f"{v}: " + "; ".join(parts)
                     + f"; decode median {statistics.median(r.decode_ms for r in g):.0f} ms"
                     + f", denoise median {statistics.median(r.denoise_ms for r in g):.1f} ms")
    return "\n".join(lines)


def transitions(rows: list[Row], field: str = "command") -> str:
    """Per denoiser and SNR, how each in-grammar utterance moved against raw."""
    by_key: dict[int, dict[str, Row]] = defaultdict(dict)
    seen: dict[str, int] = defaultdict(int)
    for r in rows:  # rows keep the jobs' order: the k-th row of a variant is job k's
        by_key[seen[r.variant]][r.variant] = r
        seen[r.variant] += 1

    def kind(r: Row) -> str:
        c = getattr(r, field)
        return "R" if c == r.truth else ("ref" if c is None else "W")

    out = []
    for v in dict.fromkeys(r.variant for r in rows):
        if v == "raw":
            continue
        moves: dict[int, dict[tuple[str, str], int]] = defaultdict(lambda: defaultdict(int))
        for pair in by_key.values():
            raw, den = pair.get("raw"), pair.get(v)
            if raw is None or den is None or raw.truth is None:
                continue
            moves[raw.snr][(kind(raw), kind(den))] += 1
        for snr in sorted(moves, reverse=True):
            m = moves[snr]
            out.append(f"{v} {snr} dB ({field}), raw>{v}: " + ", ".join(
                f"{a}>{b} {m[(a, b)]}" for a, b in sorted(m) if a != b))
    return "\n".join(out)


# ---------------------------------------------------------------- denoiser check
def _out_snr(y: np.ndarray, clean: np.ndarray, power: float) -> float:
    return float(10 * np.log10(power / np.mean((y - clean) ** 2)))


def check(seed: int = 5, count: int = 6) -> str:
    """Output SNR (against the clean padded speech) of each denoiser on a few mixtures."""
    import random

    rng = random.Random(seed)
    nrng = np.random.default_rng(seed)
    babble = vb.Babble(rng)
    res: dict[tuple[str, int, str], list[float]] = defaultdict(list)
    for _ in range(count):
        case = vb.make_case(rng)
        speech = vb.synth(case.spoken, rng.choice(vb.VOICES), rng.randint(130, 190),
                          rng.randint(25, 75))
        pad = np.zeros(int(0.4 * vb.RATE))
        clean = np.concatenate([pad, speech, pad])
        for snr in vb.SNRS:
            for noise in vb.NOISES:
                x = from_pcm(vb.mix(speech, noise, snr, nrng, babble))
                loud = np.abs(clean) > 0.05 * np.abs(clean).max()

                power = np.mean(clean[loud] ** 2)
                res[("raw", snr, noise)].append(_out_snr(x, clean, power))
                for name, fn in DENOISERS.items():
                    res[(name, snr, noise)].append(
                        _out_snr(from_pcm(to_pcm(fn(x))), clean, power))
    names = ["raw", *DENOISERS]
    lines = ["| SNR | noise | " + " | ".join(names) + " |", "|---|---|" + "---|" * len(names)]
    for snr in vb.SNRS:
        for noise in vb.NOISES:
            lines.append(f"| {snr} | {noise} | " + " | ".join(
                f"{statistics.mean(res[(n, snr, noise)]):.1f}" for n in names) + " |")
    return ("Output SNR dB (active clean-speech power / error power, mean of "
            f"{count} utterances):\n\n" + "\n".join(lines))


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--seeds", type=int, nargs="+", default=[11, 22])
    p.add_argument("--per-seed", type=int, default=20)
    p.add_argument("--snrs", type=int, nargs="+", default=list(vb.SNRS))
    p.add_argument("--variants", default="raw,specsub,wiener,wiener_mild")
    p.add_argument("--jobs", type=int, default=2)
    p.add_argument("--dump", type=Path)
    p.add_argument("--from-dump", type=Path)
    p.add_argument("--check", action="store_true", help="only the denoisers' output SNR")
    args = p.parse_args(argv)
    if args.check:
        print(check())
        return 0
    if args.from_dump:
        rows = [Row(**json.loads(line)) for line in args.from_dump.open(encoding="utf-8")]
        header = f"from {args.from_dump}"
    else:
        variants = tuple(args.variants.split(","))
        t0 = time.perf_counter()
        jobs = vb.make_jobs(args.seeds, args.per_seed, tuple(args.snrs), 0, 0)
        with multiprocessing.get_context("fork").Pool(args.jobs, _init, (variants,)) as pool:
            results = pool.map(_work, jobs, chunksize=4)
        rows = [r for result in results for r in result]
        header = (f"seeds {args.seeds} x {args.per_seed} utterances, {len(jobs)} mixtures, "
                  f"variants {variants}, context mode, {args.jobs} processes, "
                  f"{time.perf_counter() - t0:.0f} s; gate {GATE} dB; working tree: "
                  + (subprocess.run(["git", "-C", str(ROOT), "status", "--short",
                                     "companion/voice"], capture_output=True, text=True
                                    ).stdout.replace("\n", " ").strip() or "clean"))
        if args.dump:
            with args.dump.open("w", encoding="utf-8") as out:
                for r in rows:
                    out.write(json.dumps(dataclasses.asdict(r)) + "\n")
    print(header)
    print("\nCells: in-grammar right / refused / wrong (counts); OOG acc = out-of-grammar "
          "sentences turned into a command.\n")
    print(report(rows))
    print()
    print(totals(rows))
    print()
    print(transitions(rows, "command"))
    print(transitions(rows, "post_raw"))
    print("\nPer noise type:\n")
    print(report(rows, by_noise=True))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
