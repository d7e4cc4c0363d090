"""Which of Whisper base's encoder layers the enrolled words compare, per language (issue 25).

The synthetic stand-ins of one set (realspeech_bench.py's `--part synthetic`: the same
voices, words, speeds, pitches, noise and seeds), each clip encoded once by every layer
asked for (a copy of the model whose encoder stops at that layer, ct2_file.first_layers,
beside the decode's own last layer), then every mix of layers and weights given is scored
from those frames alone: the enrolled recognizer alone, right (the nearest word accepted
and the one said), sure and wrong. The current mix (`Frames`: the last layer and layer 3,
3/7 and 4/7) gives realspeech_bench's own figures.

    .venv/bin/python benchmarks/enrolled_layers.py --set tune --layers 2 3 4
    .venv/bin/python benchmarks/enrolled_layers.py --set tune --mix 6:3,3:4 6:3,4:4

A mix is `layer:weight,…` (6: base's last; weights are scaled to sum to one).
"""

from __future__ import annotations

import argparse
import csv
import hashlib
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

import realspeech_bench as rb  # noqa: E402
import voice_bench as vb  # noqa: E402

from companion.voice import ct2_file  # noqa: E402
from companion.voice import enrolled as en  # noqa: E402
from companion.voice.enrolled_engine import (  # noqa: E402
    MIDDLE_SECONDS,
    enrolled_voice,
    speech_frames,
    templates,
)
from companion.voice.whisper_model import encoder_copy  # noqa: E402

Mix = tuple[tuple[int, float], ...]
CURRENT: Mix = ((6, 3 / 7), (3, 4 / 7))
# Words said at a table that are none of the game's (a stray word is what a long sentence
# is not: about as long as an enrolled word); with voice_bench's table talk, the right
# outcome is no opinion.
STRAY = {"fr": ("chat", "merci", "attends", "bon", "zut", "voilà"),
         "es": ("gato", "gracias", "espera", "bueno", "vaya", "mira"),
         "uk": ("кіт", "дякую", "чекай", "добре", "ой", "дивись")}
SNRS = ("rec", "10", "6")


class Layers:
    """Every asked layer's unit frames of each sound, made once (float16, keyed by the
    sound's digest), cut to the length all layers reach."""

    def __init__(self, engine, layers: Sequence[int], folder: Path) -> None:  # type: ignore[no-untyped-def]
        import ctranslate2

        self.engine = engine
        self.depth = ct2_file.encoder_layers(ct2_file.read(engine.path / "model.bin"))
        self.copies = {
            k: ctranslate2.models.Whisper(
                str(encoder_copy(engine.path, folder / f"layers-{k}", k)), device="cpu",
                compute_type="int8", intra_threads=2)
            for k in layers if k < self.depth}
        self.kept: dict[bytes, dict[int, np.ndarray]] = {}

    def of(self, pcm: bytes) -> dict[int, np.ndarray]:
        import ctranslate2

        key = hashlib.blake2b(pcm, digest_size=16).digest()
        found = self.kept.get(key)
        if found is None:
            made = {self.depth: np.asarray(self.engine.encode(pcm))}
            features = ctranslate2.StorageView.from_array(
                self.engine.features(pcm, MIDDLE_SECONDS)[None])
            for k, model in self.copies.items():
                made[k] = np.asarray(model.encode(features, to_cpu=True))[0]
            n = min(len(a) for a in made.values())
            found = {k: en.unit_rows(a[:n]).astype(np.float16) for k, a in made.items()}
            self.kept[key] = found
        return found

    def encode(self, mix: Mix):  # type: ignore[no-untyped-def]
        total = sum(w for _, w in mix)

        def frames(pcm: bytes) -> np.ndarray:
            found = self.of(pcm)
            return np.concatenate([np.sqrt(w / total) * found[k].astype(np.float32)
                                   for k, w in mix], axis=1)
        return frames


def clips(lang: str, which: str) -> list[tuple[str, dict[str, list[bytes]], list[tuple]]]:
    """Per voice: realspeech_bench's synthetic stand-in (its enrolment recordings and its
    tests: word, SNR, sound), and its stray words and table talk (word None)."""
    out = []
    for voice, recordings, tests in rb.synthetic_speakers(lang, which, SNRS):
        for n, said in enumerate(STRAY[lang] + vb.PHRASES[lang]["oog"]):
            for k, (rate, pitch) in enumerate(rb.SYNTH_TEST[:2]):
                pcm = rb.pcm16(vb.synth(said, voice, rate, pitch))
                tests += [(None, snr, rb.noisy(pcm, snr, 37 * n + 5 * k + len(snr)))
                          for snr in SNRS]
        out.append((voice, recordings, tests))
    return out


def match_row(lang: str, voice: str, said: str | None, snr: str, match: en.Match) -> dict:
    """One match as a CSV row (said: empty for a stray word)."""
    return {"lang": lang, "voice": voice, "said": said or "", "snr": snr,
            "heard": match.words, "distance": round(match.distance, 4),
            "margin": round(match.margin, 4), "frames": match.heard,
            "recorded": match.recorded, "accepted": match.accepted, "sure": en.sure(match)}


def write_rows(path: Path, rows: list[dict]) -> None:
    with path.open("w", newline="", encoding="utf-8") as out:
        writer = csv.DictWriter(out, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)


def score(layers: Layers, voices, mix: Mix, scale: float = 1.0,  # type: ignore[no-untyped-def]
          rows: list[dict] | None = None, lang: str = "") -> dict[str, list[int]]:
    """SNR → [n, right, sure right, wrong accepted, sure wrong, nearest right (accepted or
    not), stray n, stray accepted (asked about), stray sure (applied)]; `scale`
    multiplies the distance thresholds (a mix's distances are not the current one's)."""
    encode = layers.encode(mix)
    out: dict[str, list[int]] = {snr: [0] * 9 for snr in SNRS}
    saved = en.MAX_DISTANCE, en.SURE_DISTANCE, en.SURE_MARGIN
    en.MAX_DISTANCE, en.SURE_DISTANCE, en.SURE_MARGIN = (v * scale for v in saved)
    try:
        for name, recordings, tests in voices:
            voice = enrolled_voice(templates(recordings, encode), recordings)
            for word, snr, pcm in tests:
                match = voice.match(speech_frames(encode(pcm), pcm))
                if rows is not None and match is not None:
                    rows.append(match_row(lang, name, word, snr, match))
                cell = out[snr]
                if word is None:  # a stray word or table talk
                    cell[6] += 1
                    cell[7] += match is not None and match.accepted
                    cell[8] += match is not None and en.sure(match)
                    continue
                cell[0] += 1
                cell[5] += match is not None and match.words == word
                if match is None or not match.accepted:
                    continue
                right = match.words == word
                cell[1 if right else 3] += 1
                if en.sure(match):
                    cell[2 if right else 4] += 1
    finally:
        en.MAX_DISTANCE, en.SURE_DISTANCE, en.SURE_MARGIN = saved
    return out


def parse_mix(text: str) -> Mix:
    return tuple((int(k), float(w)) for k, w in (part.split(":") for part in text.split(",")))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--set", dest="which", default="tune", choices=("tune", "report"))
    parser.add_argument("--langs", nargs="+", default=["fr", "es", "uk"])
    parser.add_argument("--layers", nargs="+", type=int, default=[3])
    parser.add_argument("--mix", nargs="+", type=parse_mix, default=[CURRENT])
    parser.add_argument("--scales", nargs="+", type=float, default=[1.0])
    parser.add_argument("--dump", type=Path, default=None,
                        help="a CSV of every match of the first mix at the first scale")
    args = parser.parse_args(argv)
    rows: list[dict] = []
    total: dict[tuple[Mix, float], dict[str, list[int]]] = {}
    with tempfile.TemporaryDirectory() as folder:
        for lang in args.langs:
            started = time.perf_counter()
            engine = rb.whisper(lang)
            layers = Layers(engine, args.layers, Path(folder) / lang)
            voices = clips(lang, args.which)
            for mix in args.mix:
                for scale in args.scales:
                    first = mix == args.mix[0] and scale == args.scales[0]
                    got = score(layers, voices, mix, scale,
                                rows if first and args.dump is not None else None, lang)
                    print(f"{lang} {_name(mix)} x{scale:g}: {_line(got)}", flush=True)
                    whole = total.setdefault((mix, scale), {s: [0] * 9 for s in SNRS})
                    for snr, cell in got.items():
                        whole[snr] = [a + b for a, b in zip(whole[snr], cell, strict=True)]
            print(f"{lang}: {time.perf_counter() - started:.0f} s", flush=True)
            engine.close()
    if args.dump is not None and rows:
        write_rows(args.dump, rows)
    for (mix, scale), got in total.items():
        print(f"all {_name(mix)} x{scale:g}: {_line(got)}")
    return 0


def _name(mix: Mix) -> str:
    return ",".join(f"{k}:{w:.3g}" for k, w in mix)


def _line(got: dict[str, list[int]]) -> str:
    """Right % (sure right %, wrong accepted, sure wrong; nearest right %; stray words
    accepted / applied of n) per SNR."""
    return "  ".join(f"{snr} {100 * c[1] / c[0]:.1f} ({100 * c[2] / c[0]:.1f}, {c[3]}, {c[4]};"
                     f" {100 * c[5] / c[0]:.1f}; {c[7]}/{c[8]} of {c[6]})"
                     for snr, c in got.items())


if __name__ == "__main__":
    raise SystemExit(main())
