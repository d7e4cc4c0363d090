"""Words recorded by other voices than the player's: how far the enrolled match carries.

The enrolled recognizer (companion/voice/enrolled.py) compares what is heard with the
player's own recordings. This measures it with recordings of *other* voices standing in
for the player's: what a player who has not enrolled gets from a bank of words said by
others (companion/voice/stand_ins.py, in play in French):

- `--part real`: the free spoken digit dataset's six speakers. Each speaker is tested
  (takes 2-9) against the other five speakers' takes 0 and 1 ("others"), and against the
  ten digits synthesized by `--voices` at realspeech_bench's enrolment speeds ("voices").
  The matcher alone: its nearest word, that word accepted by the rejection, a wrong word
  sure enough to be applied.
- `--part synthetic`: a language's game words said by the voice benchmark's listener
  voices of `--set` (MBROLA, Pico, RHVoice, four speeds each, in noise as realspeech_bench
  mixes it), against a bank of the same words said by `--voices` (by default espeak-ng's
  voices of that language, made as play makes them: stand_ins.prepare). Each word where it
  alone is a command (realspeech_bench.said_in): Whisper alone, the same beside the bank
  as in play (enrolled.filled: it agrees or fills in), and the matcher alone. `--keep FILE`
  saves the decodes beside the bank; `--replay FILE --with NAME=VALUE` prints them again
  through the rule with a constant of enrolled.py changed (seconds, not a new run).

Tuning and reporting stay apart as in realspeech_bench: `--set tune|report`.

    .venv/bin/python benchmarks/stand_in_words.py --lang fr --set tune --keep fr.pkl \
        --bank-folder /tmp/standins
    .venv/bin/python benchmarks/stand_in_words.py --replay fr.pkl --with FILL_MARGIN=0.03
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import realspeech_bench as rb  # noqa: E402
import voice_bench as vb  # noqa: E402

from companion.games.hanamikoji.voice.hooks import HanamikojiRecognizer  # noqa: E402
from companion.voice import stand_ins  # noqa: E402
from companion.voice.audio import read_wav  # noqa: E402
from companion.voice.enrolled_engine import NOISY_COPIES, EnrolledEngine  # noqa: E402

SNRS = ("rec", "10", "6")


def synthesized(voices: tuple[str, ...], words: list[str]) -> dict[str, list[bytes]]:
    """Each word said by each voice at realspeech_bench's enrolment speeds."""
    bank: dict[str, list[bytes]] = {w: [] for w in words}
    for voice in voices:
        for word, takes in rb.synthetic_enrolment(voice, words).items():
            bank[word] += takes
    return bank


def tally(outcomes: list[rb.Outcome]) -> str:
    """The matcher alone: nearest right (its word accepted or not is in `heard`)."""
    lines = ["| SNR | n | accepted right | sure right | sure wrong |", "|---|---|---|---|---|"]
    for snr in SNRS:
        group = [o for o in outcomes if o.snr == snr]
        if not group:
            continue
        label = "as recorded" if snr == "rec" else f"{snr} dB"
        n = len(group)
        lines.append(f"| {label} | {n} | {rb._pct(sum(o.heard == o.said for o in group), n)} | "
                     f"{rb._pct(sum(o.applied == o.said for o in group), n)} | "
                     f"{rb._pct(sum(o.applied not in (None, o.said) for o in group), n)} |")
    return "\n".join(lines)


def run_real(data: Path, voices: tuple[str, ...], snrs: tuple[str, ...], every: int
             ) -> dict[str, list[rb.Outcome]]:
    engine = rb.whisper("en")
    speakers = rb.digit_speakers(data)
    out: dict[str, list[rb.Outcome]] = {"others": [], "voices": []}
    with tempfile.TemporaryDirectory() as folder:
        if voices:
            by_voice = rb.enrolled_engine(engine, "bank", "en", Path(folder) / "voices",
                                          synthesized(voices, list(rb.DIGITS)))
        for target in speakers:
            others = {d: [read_wav(rb.digit_clip(data, k, s, t).path)
                          for s in speakers if s != target for t in rb.ENROL_TAKES]
                      for k, d in enumerate(rb.DIGITS)}
            # (not closed: closing an EnrolledEngine closes the Whisper engine it shares)
            by_others = rb.enrolled_engine(engine, "bank", "en", Path(folder) / target, others)
            n = 0
            for take in rb.TEST_TAKES:
                for digit in range(10):
                    if (digit + take) % every:
                        continue
                    clip = rb.digit_clip(data, digit, target, take)
                    pcm = read_wav(clip.path)
                    for snr in snrs:
                        audio = rb.noisy(pcm, snr, 104729 * n + len(snr))
                        out["others"].append(rb.matched_alone("others", by_others, audio, snr,
                                                              clip.said))
                        if voices:
                            out["voices"].append(rb.matched_alone("voices", by_voice, audio,
                                                                  snr, clip.said))
                    n += 1
    engine.close()
    return out


KEPT: list[dict] = []  # --keep: each clip's decode beside the bank, to replay its rule


def replayed(clips: list[dict]) -> list[rb.Outcome]:
    """The kept decodes through play's rule for other voices' words as it stands now
    (enrolled.beside, own=False; its constants may be changed for a trial), then the
    policy."""
    import functools

    from companion.games.hanamikoji.voice.hooks import settled
    from companion.games.hanamikoji.voice.words import normalize
    from companion.voice.enrolled import beside

    out = []
    for clip in clips:
        read = functools.partial(normalize, lang=clip["lang"], context=clip["context"])
        heard = beside(clip["heard"], clip["match"], read, clip["lang"], None, settled,
                       own=False)
        out.append(rb.outcome("beside", clip["snr"], clip["said"], clip["command"], heard,
                              clip["ms"], answering=clip["context"].kind == "confirm"))
    return out


def bank_engine(engine, lang: str, folder: Path, voices: tuple[str, ...],  # type: ignore[no-untyped-def]
                copies: tuple[tuple[str, float], ...]) -> EnrolledEngine:
    """The stand-in words beside `engine` as play makes them (stand_ins.prepare, other
    voices' rule), from `voices` (espeak-ng's, or any voice_bench speaks)."""
    words = rb.game_words(lang)
    bank = stand_ins.profile(rb.GAME, lang, folder)
    if all(v in stand_ins.VOICES[lang] for v in voices):
        def prepare(stopped):  # type: ignore[no-untyped-def]
            return stand_ins.prepare(bank, words, voices, stopped=stopped)
    else:  # other engines than espeak-ng, to compare (the same speeds)
        for word, takes in synthesized(voices, words).items():
            for pcm in takes:
                bank.save(pcm, word)
        prepare = None
    made = EnrolledEngine(engine, bank, own=False, prepare=prepare, copies=copies)
    made.ready()
    assert made.voice is not None
    return made


def run_synthetic(lang: str, which: str, voices: tuple[str, ...], snrs: tuple[str, ...],
                  every: int, said_by: tuple[str, ...] = (),
                  copies: tuple[tuple[str, float], ...] = NOISY_COPIES,
                  kept: Path | None = None) -> dict[str, list[rb.Outcome]]:
    """Whisper alone, beside the bank, and the bank's match alone; the bank made in a
    temporary folder, or read from `kept` (made there the first time)."""
    engine = rb.whisper(lang)
    words = rb.game_words(lang)
    out: dict[str, list[rb.Outcome]] = {"whisper": [], "beside": [], "alone": []}
    alone_recognizer = HanamikojiRecognizer(engine)
    with tempfile.TemporaryDirectory() as folder:
        started = time.perf_counter()
        bank = bank_engine(engine, lang, kept or Path(folder), voices, copies)
        print(f"{lang}: the bank made in {time.perf_counter() - started:.0f} s",
              file=sys.stderr, flush=True)
        beside_recognizer = HanamikojiRecognizer(bank)
        for voice in said_by or vb.LISTENER_VOICES[lang][which]:
            for n, word in enumerate(words):
                if n % every:
                    continue
                context, command = rb.said_in(word, lang)
                for k, (rate, pitch) in enumerate(rb.SYNTH_TEST):
                    pcm = rb.pcm16(vb.synth(word, voice, rate, pitch))
                    for snr in snrs:
                        audio = rb.noisy(pcm, snr, 31 * n + 7 * k + len(snr))
                        answering = context.kind == "confirm"
                        for key, recognizer in (("whisper", alone_recognizer),
                                                ("beside", beside_recognizer)):
                            started = time.perf_counter()
                            heard = recognizer.recognize(audio, context)
                            ms = 1000 * (time.perf_counter() - started)
                            out[key].append(rb.outcome(key, snr, word, command, heard, ms,
                                                       answering=answering))
                        KEPT.append({"lang": lang, "snr": snr, "said": word,
                                     "command": command, "context": context,
                                     "heard": bank.last_heard, "match": bank.last_match,
                                     "ms": ms})
                        out["alone"].append(rb.matched_alone("alone", bank, audio, snr, word))
            print(f"{lang} {voice}: done", file=sys.stderr, flush=True)
    engine.close()
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--part", default="synthetic", choices=("real", "synthetic"))
    parser.add_argument("--lang", default="fr", choices=("en", "fr", "es", "uk"))
    parser.add_argument("--set", dest="which", default="report", choices=("tune", "report"))
    parser.add_argument("--voices", default="",
                        help="comma-separated bank voices (default: espeak-ng's of --lang)")
    parser.add_argument("--said-by", default="",
                        help="synthetic: comma-separated voices saying the tests instead of "
                             "--set's (one voice of a set, to see it alone)")
    parser.add_argument("--snrs", nargs="+", default=list(SNRS), choices=SNRS)
    parser.add_argument("--copies", default="10dB", choices=("all", "10dB", "none"),
                        help="synthetic: the bank's noisy copies of each recording: those at "
                             "10 dB, as play makes them (stand_ins.COPIES), all of a player's "
                             "(enrolled_engine.NOISY_COPIES), or none")
    parser.add_argument("--bank-folder", type=Path, help="synthetic: keep the bank here (a "
                        "second run reads it) instead of a temporary folder")
    parser.add_argument("--keep", type=Path, help="synthetic: save the decodes beside the "
                        "bank to this file")
    parser.add_argument("--replay", type=Path, help="print the table of a --keep file through "
                        "the rule as it stands (with --with's changes)")
    parser.add_argument("--with", dest="trial", action="append", default=[],
                        metavar="NAME=VALUE", help="--replay: a constant of enrolled.py")
    parser.add_argument("--every", type=int, default=1,
                        help="keep one test word (or digit) in this many")
    args = parser.parse_args(argv)
    if args.replay:
        import pickle

        from companion.voice import enrolled

        vb.set_constants(enrolled, args.trial, parser)
        with args.replay.open("rb") as f:
            clips = pickle.load(f)
        print(rb.table(replayed(clips), f"{args.replay.name} replayed"
                       + (f" with {', '.join(args.trial)}" if args.trial else "")))
        return 0
    data = rb.find_data()
    voices = tuple(v for v in args.voices.split(",") if v) or stand_ins.VOICES[
        "en" if args.part == "real" else args.lang]
    snrs = tuple(args.snrs)
    started = time.perf_counter()
    load = os.getloadavg()[0]
    if args.part == "real":
        if data is None:
            print("stand_in_words: skipped: the real recordings are not here (looked in "
                  + ", ".join(str(p) for p in rb.PLACES) + "; set COMPANION_REALSPEECH)")
            return 0
        res = run_real(data, voices, snrs, args.every)
        text = ("**Each digit speaker against the other five speakers' takes 0-1**\n\n"
                + tally(res["others"]) + "\n\n**Each digit speaker against the digits said by "
                + ", ".join(voices) + "**\n\n" + tally(res["voices"]))
    else:
        said_by = tuple(v for v in args.said_by.split(",") if v)
        copies = {"all": NOISY_COPIES, "none": (), "10dB": stand_ins.COPIES}[args.copies]
        res = run_synthetic(args.lang, args.which, voices, snrs, args.every, said_by, copies,
                            args.bank_folder)
        if args.keep:
            import pickle

            with args.keep.open("wb") as f:
                pickle.dump(KEPT, f)
        text = (rb.table(res["whisper"], f"{args.lang}, {args.which} voices, each word where "
                                         "it alone is a command: Whisper alone")
                + "\n\n" + rb.table(res["beside"], "The same beside the words said by "
                                    + ", ".join(voices) + f" ({args.copies} noisy copies), as "
                                    "in play for a player who has not enrolled")
                + "\n\n**The bank's match alone**\n\n" + tally(res["alone"]))
    which = "the six speakers" if args.part == "real" else f"{args.which} voices"
    print(f"Part {args.part}; {which}; one in {args.every}; run "
          f"{time.perf_counter() - started:.0f} s; load average at the start {load:.1f} on "
          f"{os.cpu_count()} cores.\n\n{text}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
