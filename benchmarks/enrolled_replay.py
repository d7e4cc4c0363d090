"""Tune the enrolled recognizer by replaying instead of decoding again (issue 25).

`dump`: the free spoken digit dataset's speakers of one set, enrolled as realspeech_bench
enrols them (takes 0-1), each test clip and SNR decoded once, as in play, beside Whisper
in the reveal context; kept per clip: Whisper's own recognition (before the enrolled
match), the distance to every enrolled recording, the frames heard, the loudness margin,
the model's teacher-forced log-probabilities of each enrolled word, and what play made of
it. `replay`: the figures of `enrolled.combine` (or a variant) from that file alone, in
seconds.

    .venv/bin/python benchmarks/enrolled_replay.py dump --set tune --out /tmp/tune.pkl
    .venv/bin/python benchmarks/enrolled_replay.py replay /tmp/tune.pkl

`dump --room speech-commands`: the babble copies made of a recording of the table instead
of the player's own other words: for each player, five seconds of three other real voices
talking at once (speech-commands-sample clips of three speakers of its tuning half, never
the digit words, never the player and never the bench's espeak-ng babble), standing for the
room as it sounds at play recorded at enrolment; every babble copy is a stretch of it.
`--room speech-commands-pool`: instead, each babble copy three of those clips at once
(noisy_copy's own way, with other people's words in place of the player's).
"""

from __future__ import annotations

import argparse
import functools
import pickle
import sys
import tempfile
import time
import zlib
from dataclasses import replace
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

import realspeech_bench as rb  # noqa: E402

from companion.games.hanamikoji.voice.context import Context  # noqa: E402
from companion.games.hanamikoji.voice.hooks import (  # noqa: E402
    HanamikojiRecognizer,
    rival_checked,
    settled,
)
from companion.games.hanamikoji.voice.words import normalize  # noqa: E402
from companion.voice import enrolled as en  # noqa: E402
from companion.voice.audio import read_wav  # noqa: E402
from companion.voice.enrolled_engine import NOISY_COPIES  # noqa: E402
from companion.voice.policy import Accept, Confirm, Decision, decide  # noqa: E402
from companion.voice.sphinx import Recognition, capped, loudness_margin  # noqa: E402

ROOM_SECONDS = 5.0
ROOM_TALKERS = 3


def room_clips(data: Path) -> dict[str, list[bytes]]:
    """The room's voices: speech-commands clips of its tuning half, no digit word, each cut
    to its speech and brought to the same loudness, by speaker."""
    from companion.voice.enrolled_engine import _span

    by_speaker: dict[str, list[bytes]] = {}
    for clip in rb.speech_commands(data):
        if rb.in_set(clip, "tune") and clip.said not in rb.DIGITS:
            pcm = read_wav(clip.path)
            start, end = _span(pcm)
            x = np.frombuffer(pcm, dtype=np.int16)[start:end].astype(np.float64)
            x *= 3000 / max(1.0, float(np.sqrt(np.mean(x ** 2))))
            by_speaker.setdefault(clip.speaker, []).append(
                np.clip(np.round(x), -32768, 32767).astype("<i2").tobytes())
    return by_speaker


def room_of(data: Path, player: str, talkers: int = ROOM_TALKERS) -> bytes:
    """Five seconds of `talkers` other people talking at once (module docstring): each
    one speech-commands speaker of the tuning half, their words 0.1 s apart one after
    another; chosen by the player's name."""
    by_speaker = room_clips(data)
    names = sorted(s for s, cs in by_speaker.items() if len(cs) >= 4)
    rng = np.random.default_rng(zlib.crc32(player.encode()))
    n = int(ROOM_SECONDS * 16000)
    room = np.zeros(n)
    for speaker in rng.choice(names, talkers, replace=False):
        parts = []
        for i in rng.permutation(len(by_speaker[str(speaker)])):
            parts += [np.frombuffer(by_speaker[str(speaker)][int(i)], dtype=np.int16),
                      np.zeros(1600)]
        talk = np.concatenate(parts).astype(np.float64)
        talk = np.tile(talk, n // len(talk) + 2)
        start = int(rng.integers(len(talk) - n))
        room += talk[start:start + n]
    room *= 3000 / max(1e-9, float(np.sqrt(np.mean(room ** 2))))
    return np.clip(np.round(room), -32768, 32767).astype("<i2").tobytes()


def dump(which: str, snrs: tuple[str, ...], every: int, out: Path,
         copies: tuple[tuple[str, float], ...] | None = None,
         room: str | None = None, talkers: int = ROOM_TALKERS) -> None:
    from companion.voice import enrolled_engine as ee
    from companion.voice.enrolled_engine import EnrolledEngine, speech_frames
    from companion.voice.word_profiles import WordProfile

    if copies is not None:  # other noisy copies than play's (each take's in this order)
        ee.templates = functools.partial(ee.templates, copies=copies)  # type: ignore[assignment]
    own_copy = ee.noisy_copy
    table: list[bytes] = []  # the room of the player being enrolled (--room)

    def room_copy(pcm: bytes, kind: str, snr: float, others: Any, seed: int) -> bytes:
        return own_copy(pcm, kind, snr, table if kind == "babble" else others, seed)
    if room is not None:
        ee.noisy_copy = room_copy  # type: ignore[assignment]

    data = rb.find_data()
    assert data is not None, "no real recordings here"
    rb.EVERY = every
    engine = rb.whisper()
    tests = rb.digit_tests(data, which, None)
    rows: list[dict[str, Any]] = []
    started = time.perf_counter()
    with tempfile.TemporaryDirectory() as folder:
        for speaker in sorted({c.speaker for c in tests}):
            profile = WordProfile.named(speaker, "hanamikoji", "en", Path(folder))
            if room == "speech-commands":
                table[:] = [room_of(data, speaker, talkers)]
            elif room == "speech-commands-pool":
                table[:] = [c for cs in room_clips(data).values() for c in cs]
            for digit in range(10):
                for take in rb.ENROL_TAKES:
                    profile.save(read_wav(rb.digit_clip(data, digit, speaker, take).path),
                                 rb.DIGITS[digit])
            enrolled = EnrolledEngine(engine, profile)
            enrolled.ready()
            voice = enrolled.voice
            assert voice is not None
            seen: dict[str, Any] = {}
            inner = enrolled._combined

            def recording(heard, pcm, *rest, inner=inner, seen=seen,  # type: ignore[no-untyped-def]
                          voice=voice, enrolled=enrolled):
                seen["heard"] = heard
                result = inner(heard, pcm, *rest)
                frames = speech_frames(enrolled.frames(pcm), pcm)
                # every frame counted alike too: `enrolled.sure` asks both
                seen["distances"], seen["plain"] = voice.recordings(frames)
                seen["frames"] = len(frames)
                seen["logs"] = word_logs(engine, pcm, sorted(voice.words))
                return result
            enrolled._combined = recording  # type: ignore[method-assign]
            recognizer = HanamikojiRecognizer(enrolled)
            ctx = Context.reveal()
            for n, clip in enumerate(c for c in tests if c.speaker == speaker):
                pcm = read_wav(clip.path)
                for snr in snrs:
                    audio = rb.noisy(pcm, snr, 104729 * n + len(snr))
                    seen.clear()
                    final = recognizer.recognize(audio, ctx)
                    samples = np.frombuffer(audio, dtype=np.int16).tolist()
                    rows.append(dict(
                        speaker=speaker, said=clip.said, take=clip.take, snr=snr,
                        noise=rb.noise_kind(104729 * n + len(snr)) if snr != "rec" else "",
                        heard=seen["heard"], distances=seen["distances"], plain=seen["plain"],
                        frames=seen["frames"], logs=seen["logs"],
                        loudness=loudness_margin(samples), final=final))
            rows.append(dict(speaker=speaker, owners=list(voice._owner),
                             lengths=voice._lengths.copy(),
                             copies=copies if copies is not None else ee.NOISY_COPIES,
                             room=room, talkers=talkers))
            print(speaker, len(rows), f"{time.perf_counter() - started:.0f} s", flush=True)
    with out.open("wb") as f:
        pickle.dump(rows, f)


def word_logs(engine: Any, pcm: bytes, words: list[str]) -> dict[str, tuple[float, int]]:
    """Each word's summed log-probability written alone (" Word.") given the last decode's
    encoder frames, and its token count."""
    last = engine._last_encoded
    assert last is not None and last[0] is pcm
    texts = [f" {w[:1].upper()}{w[1:]}." for w in words]
    sums = engine._score(last[1], texts, engine._generation, len(pcm) / 2 / 16000, False)
    counts = [len(engine._tokenizer.encode(t, add_special_tokens=False).ids) for t in texts]
    return {w: (s, c) for w, s, c in zip(words, sums, counts, strict=True)}


def load(path: Path) -> list[dict[str, Any]]:
    with path.open("rb") as f:
        rows = pickle.load(f)
    voices = {r["speaker"]: r for r in rows if "owners" in r}
    clips = [r for r in rows if "owners" not in r]
    for speaker in voices:  # dumps without the noise kind: dump's order gives the seed
        mine = [r for r in clips if r["speaker"] == speaker]
        snrs = list(dict.fromkeys(r["snr"] for r in mine))
        for i, r in enumerate(mine):
            if "noise" not in r:
                seed = 104729 * (i // len(snrs)) + len(r["snr"])
                r["noise"] = rb.noise_kind(seed) if r["snr"] != "rec" else ""
    for r in clips:
        v = voices[r["speaker"]]
        r["best"] = en.nearest(v["owners"], r["distances"], v["lengths"],
                               len(v.get("copies", NOISY_COPIES)))
        if "plain" in r:  # older dumps: the weighted distances alone
            r["plain_best"] = en.nearest(v["owners"], r["plain"], v["lengths"],
                                         len(v.get("copies", NOISY_COPIES)))
    return clips


def match_of(r: dict[str, Any]) -> en.Match:
    found = r["best"]
    ranked = sorted(found, key=lambda w: found[w][0])
    d, n = found[ranked[0]]
    alike = r.get("plain_best")
    if alike is None:
        return en.Match(ranked[0], d, found[ranked[1]][0] - d, r["frames"], n)
    plain = alike[ranked[0]][0]
    rival = min(v for w, (v, _) in alike.items() if w != ranked[0])
    return en.Match(ranked[0], d, found[ranked[1]][0] - d, r["frames"], n, plain,
                    rival - plain)


def decided(out: Recognition, read: Any, lang: str = "en", answering: bool = False
            ) -> Decision:
    """The policy's decision on what the enrolled engine returns (`enrolled.beside`): the
    English grammar's rival words checked first, as the game's hook does, then `decide`."""
    if lang == "en":
        out = rival_checked(out, read)
    return decide(out, answering=answering)


def played(r: dict[str, Any], combine: Any) -> tuple[str | None, str | None]:
    """(heard, applied) of one clip through `combine` (a variant of `enrolled.combine`
    taking the kept clip for the match) and what play does after it."""
    read = functools.partial(normalize, lang="en", context=Context.reveal())
    out = combine(r["heard"], r, read)
    if out.command is not None:
        out = replace(out, confidence=capped(out.command, out.confidence, settled))
    decision = decided(out, read)
    applied = decision.command if isinstance(decision, Accept) else None
    heard = decision.command if isinstance(decision, (Accept, Confirm)) else None
    return heard, applied


def figures(clips: list[dict[str, Any]], combine: Any, label: str) -> str:
    cells = []
    for snr in ("rec", "20", "10", "6"):
        group = [r for r in clips if r["snr"] == snr]
        if not group:
            continue
        right = asked_wrong = wrong = applied_right = 0
        for r in group:
            truth = normalize(r["said"], "en", Context.reveal())
            heard, applied = played(r, combine)
            right += heard == truth
            wrong += applied is not None and applied != truth
            applied_right += applied is not None and applied == truth
            asked_wrong += heard is not None and applied is None and heard != truth
        cells.append(f"{snr}: {100 * right / len(group):5.1f} right, {applied_right:3d} "
                     f"applied, {wrong} wrong applied, {asked_wrong:2d} asked wrong "
                     f"(n {len(group)})")
    return f"{label:28s} " + " | ".join(cells)


def by_noise(clips: list[dict[str, Any]], combine: Any) -> str:
    """Per SNR and noise kind: the nearest word right (before any rejection), right
    (applied or asked about) and wrong applied, as counts."""
    lines = []
    for snr in ("rec", "20", "10", "6"):
        for kind in ("", "white", "pink", "babble"):
            group = [r for r in clips if r["snr"] == snr and r["noise"] == kind]
            if not group:
                continue
            nearest = right = wrong = 0
            for r in group:
                truth = normalize(r["said"], "en", Context.reveal())
                heard, applied = played(r, combine)
                nearest += match_of(r).words == r["said"]
                right += heard == truth
                wrong += applied is not None and applied != truth
            lines.append(f"  {snr:>3} {kind or 'clean':6s} n {len(group):3d}: nearest right "
                         f"{nearest:3d}, right {right:3d}, wrong applied {wrong}")
    return "\n".join(lines)


def current(heard: Any, r: dict[str, Any], read: Any) -> Any:
    return en.combine(heard, match_of(r), read)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = parser.add_subparsers(dest="what", required=True)
    d = sub.add_parser("dump")
    d.add_argument("--set", dest="which", default="tune", choices=("tune", "report", "all"))
    d.add_argument("--snrs", nargs="+", default=["rec", "10", "6"], choices=rb.SNRS)
    d.add_argument("--every", type=int, default=1)
    d.add_argument("--out", type=Path, required=True)
    d.add_argument("--copies", nargs="+", default=None,
                   help="noisy copies as kind:dB (white:10 pink:3 babble:0 ...)")
    d.add_argument("--room", choices=("speech-commands", "speech-commands-pool"),
                   default=None,
                   help="babble copies made of other real voices (speech-commands-sample, "
                        "tuning half, no digit words) instead of the player's own other "
                        "words: a stretch of five seconds of --talkers voices at once, or "
                        "(-pool) three clips at once")
    d.add_argument("--talkers", type=int, default=ROOM_TALKERS,
                   help="voices at once in --room speech-commands (3)")
    r = sub.add_parser("replay")
    r.add_argument("path", type=Path)
    args = parser.parse_args()
    if args.what == "dump":
        copies = None if args.copies is None else tuple(
            (k, float(db)) for k, db in (c.split(":") for c in args.copies))
        dump(args.which, tuple(args.snrs), args.every, args.out, copies, args.room,
             args.talkers)
        return
    clips = load(args.path)
    print(figures(clips, current, "now (enrolled.combine)"))
    print(by_noise(clips, current))


if __name__ == "__main__":
    main()
