"""Real voices in the voice benchmarks (issue 25): ../shared/realspeech, read in place.

Parts (`--part`, several allowed; default all):
  answers   Google Speech Commands (300 clips, 41 speakers), heard while a yes or no is
            awaited (Hanamikoji's confirm context, decided as in play with the policy's
            `answering`): the real yes and no, and 28 other words, out of the grammar.
  digits    The free spoken digit dataset (6 speakers, takes 2-9 of each digit) in the
            reveal context, where one to seven name a card by its number; zero, eight and
            nine are valid nowhere there (right: refused). Whisper alone.
  enrolled  The same clips, each speaker enrolled on takes 0 and 1 of the ten digits
            (enrolled.py, enrolled_engine.py): the enrolled recognizer alone (ten words:
            a match counted applied when it is `sure`, as play applies it when Whisper
            heard nothing valid, asked about when it is only accepted) and beside Whisper
            in the reveal context, as in play (EnrolledEngine).
  synthetic French, Spanish and Ukrainian voices a listener takes for a person's (MBROLA,
            Pico, RHVoice: voice_bench.LISTENER_VOICES) as stand-ins for speakers: each
            enrolled on the game's context words (hooks.enrolment_words) said at two
            speeds and pitches, tested at four others (never the same audio): the enrolled
            recognizer alone.
Noise: the clip as recorded ("rec": its own background) and the voice benchmark's noise
(voice_bench.mix: white, pink or babble in turn, clip by clip) at 20, 10 and 6 dB.

Tuning and reporting sets (`--set`): Speech Commands speakers whose id begins with 0-7
tune, 8-f report; of the digit speakers george and jackson tune, the other four report;
the synthetic voices: voice_bench.LISTENER_VOICES' tuning and reporting sets. The figures
in docs/voice.md are the reporting sets'.

    .venv/bin/python benchmarks/realspeech_bench.py --set report [--write-docs]
"""

from __future__ import annotations

import argparse
import csv
import os
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

import voice_bench as vb  # noqa: E402

from companion.games.hanamikoji.voice.context import Context  # noqa: E402
from companion.games.hanamikoji.voice.hooks import (  # noqa: E402
    HanamikojiRecognizer,
)
from companion.games.hanamikoji.voice.words import normalize  # noqa: E402
from companion.shared_words import ANSWER_WORD  # noqa: E402
from companion.voice.audio import read_wav  # noqa: E402
from companion.voice.policy import Accept, Confirm, decide  # noqa: E402
from companion.voice.sphinx import ANSWERS  # noqa: E402

PLACES = [Path(p) for p in filter(None, [os.environ.get("COMPANION_REALSPEECH")])] + [
    ROOT.parent / "shared" / "realspeech", ROOT.parent.parent / "shared" / "realspeech"]
SNRS: tuple[str, ...] = ("rec", "20", "10", "6")
DIGITS = ("zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine")
TUNE_DIGIT_SPEAKERS = ("george", "jackson")
ENROL_TAKES = (0, 1)  # --takes 3: (0, 1, 2), tested on 3-9
TEST_TAKES = tuple(range(2, 10))
# Synthetic stand-ins for speakers: enrolled at two (rate, pitch), tested at four others.
SYNTH_ENROL = ((150, 50), (175, 40))
SYNTH_TEST = ((130, 60), (160, 35), (190, 55), (140, 45))
DOC_BEGIN = "<!-- realspeech-bench:begin -->"
DOC_END = "<!-- realspeech-bench:end -->"


def find_data() -> Path | None:
    return next((p for p in PLACES if (p / "manifest.csv").is_file()), None)


@dataclass(frozen=True)
class Clip:
    path: Path
    said: str
    speaker: str
    take: int = 0


def speech_commands(data: Path) -> list[Clip]:
    with (data / "manifest.csv").open(encoding="utf-8") as f:
        rows = [r for r in csv.DictReader(f) if r["path"].startswith("speech-commands")]
    return [Clip(data / r["path"], r["transcript"], r["speaker"]) for r in rows]


def in_set(clip: Clip, which: str) -> bool:
    """The tuning or reporting half (module docstring)."""
    if which == "all":
        return True
    if clip.speaker.startswith("sc-"):
        tune = clip.speaker[3] in "01234567"
    else:
        tune = clip.speaker in TUNE_DIGIT_SPEAKERS
    return tune == (which == "tune")


def digit_clip(data: Path, digit: int, speaker: str, take: int) -> Clip:
    path = data / "free-spoken-digit-dataset" / "recordings" / f"{digit}_{speaker}_{take}.wav"
    return Clip(path, DIGITS[digit], speaker, take)


def digit_speakers(data: Path) -> list[str]:
    names = {p.stem.split("_")[1] for p in
             (data / "free-spoken-digit-dataset" / "recordings").glob("*.wav")}
    return sorted(names)


_BABBLE: vb.Babble | None = None


def noise_kind(seed: int) -> str:
    """The noise `noisy` mixes for `seed`."""
    return vb.NOISES[seed % len(vb.NOISES)]


NOISE_DRAW = 0  # --noise-draw


def noisy(pcm: bytes, snr: str, seed: int) -> bytes:
    """The clip as recorded ("rec"), or padded and mixed as voice_bench does (with
    --noise-draw K, another draw of the same kind of noise for each clip)."""
    global _BABBLE
    if snr == "rec":
        return pcm
    if _BABBLE is None:
        _BABBLE = vb.Babble(random.Random(4242))
    kind = noise_kind(seed)
    seed += 3 * 1_000_003 * NOISE_DRAW  # a multiple of 3: noise_kind unchanged
    speech = np.frombuffer(pcm, dtype=np.int16).astype(np.float64)
    return vb.mix(speech, kind, float(snr), np.random.default_rng(seed), _BABBLE)


@dataclass
class Outcome:
    part: str
    snr: str
    said: str
    truth: str | None  # the command meant; None: refusing is right
    heard: str | None  # the command recognized (applied or asked about)
    applied: str | None  # applied without a question
    ms: float
    match_ms: float = 0.0


def outcome(part: str, snr: str, said: str, truth: str | None, recognition, ms: float,
            answering: bool, match_ms: float = 0.0) -> Outcome:
    decision = decide(recognition, answering=answering)
    applied = decision.command if isinstance(decision, Accept) else None
    heard = decision.command if isinstance(decision, (Accept, Confirm)) else None
    return Outcome(part, snr, said, truth, heard, applied, ms, match_ms)


def _pct(n: int, total: int) -> str:
    return f"{100 * n / total:5.1f}%" if total else "   - "


def table(outcomes: list[Outcome], title: str) -> str:
    lines = [f"**{title}**", "",
             "| SNR | n | right | applied right | asked | refused | wrong applied | "
             "out of grammar applied (n) | median ms |", "|---|---|---|---|---|---|---|---|---|"]
    for snr in SNRS:
        group = [o for o in outcomes if o.snr == snr]
        if not group:
            continue
        said = [o for o in group if o.truth is not None]
        oog = [o for o in group if o.truth is None]
        right = sum(o.heard == o.truth for o in said) + sum(o.heard is None for o in oog)
        applied_right = sum(o.applied == o.truth for o in said)
        asked = sum(o.heard is not None and o.applied is None for o in group)
        refused = sum(o.heard is None for o in group)
        wrong = sum(o.applied is not None and o.applied != o.truth for o in said)
        oog_applied = sum(o.applied is not None for o in oog)
        label = "as recorded" if snr == "rec" else f"{snr} dB"
        lines.append(
            f"| {label} | {len(group)} | {_pct(right, len(group))} | "
            f"{_pct(applied_right, len(said))} | {_pct(asked, len(group))} | "
            f"{_pct(refused, len(group))} | {_pct(wrong, len(said))} | "
            f"{_pct(oog_applied, len(oog))} ({len(oog)}) | "
            f"{statistics.median(o.ms for o in group):.0f} |")
    return "\n".join(lines)


def answers_table(outcomes: list[Outcome]) -> str:
    """Yes/no right, and what the stray words became."""
    lines = ["| SNR | yes/no right (n) | yes/no applied | stray word applied as yes or no "
             "(n) | stray word answered as a question | median ms |",
             "|---|---|---|---|---|---|"]
    for snr in SNRS:
        group = [o for o in outcomes if o.snr == snr]
        if not group:
            continue
        real = [o for o in group if o.truth in ANSWERS]
        oog = [o for o in group if o.truth is None]
        label = "as recorded" if snr == "rec" else f"{snr} dB"
        queried = sum(o.applied is not None and o.applied not in ANSWERS for o in oog)
        lines.append(
            f"| {label} | {_pct(sum(o.heard == o.truth for o in real), len(real))} "
            f"({len(real)}) | {_pct(sum(o.applied == o.truth for o in real), len(real))} | "
            f"{_pct(sum(o.applied in ANSWERS for o in oog), len(oog))} ({len(oog)}) | "
            f"{_pct(queried, len(oog))} | "
            f"{statistics.median(o.ms for o in group):.0f} |")
    strays = [f"{o.said} → {o.applied} ({o.snr})" for o in outcomes
              if o.truth is None and o.applied in ANSWERS]
    if strays:
        lines += ["", "Stray words applied as an answer: " + ", ".join(strays) + "."]
    return "\n".join(lines)


# ---------------------------------------------------------------- parts
def whisper(lang: str = "en"):  # type: ignore[no-untyped-def]
    from companion.voice.whisper import WhisperRecognizer

    engine = WhisperRecognizer(None, lang)
    engine.ready()
    return engine


def own_answer(said: str, lang: str) -> str | None:
    """The answer a Speech Commands word is in `lang`, where the language writes that answer
    so: English "yes" and "no", and Spanish "no" (the same word, said alike: a Spanish
    player's "no" is answered no, and so was the English one, 15 times of 16, when it was
    counted a stray). Any other word is a stray word."""
    return next((answer for answer, words in ANSWER_WORD.items() if words[lang] == said), None)


def run_answers(data: Path, which: str, snrs: tuple[str, ...], limit: int | None,
                verbose: bool, lang: str = "en") -> list[Outcome]:
    """The Speech Commands clips in the confirm context; in another language than English
    (`lang`) every clip is a stray word but the language's own answer word (`own_answer`:
    a Ukrainian answers "так" or "ні", a Spanish player "no")."""
    recognizer = HanamikojiRecognizer(whisper(lang))
    ctx = Context.confirm()
    clips = [c for c in speech_commands(data) if in_set(c, which)][::EVERY][:limit]
    out = []
    for n, clip in enumerate(clips):
        pcm = read_wav(clip.path)
        truth = own_answer(clip.said, lang)
        for snr in snrs:
            audio = noisy(pcm, snr, 7919 * n + len(snr))
            started = time.perf_counter()
            heard = recognizer.recognize(audio, ctx)
            ms = 1000 * (time.perf_counter() - started)
            out.append(outcome("answers", snr, clip.said, truth, heard, ms, answering=True))
            if verbose:
                print(clip.said, snr, heard, out[-1].applied, f"{ms:.0f}", flush=True)
    return out


def _reveal_truth(word: str) -> str | None:
    return normalize(word, "en", Context.reveal())


EVERY = 1  # --every


def digit_tests(data: Path, which: str, limit: int | None) -> list[Clip]:
    # --every n: a digit in n of each take, a different one from take to take (every
    # digit and speaker keeps its share; a plain stride of 2 kept the even digits only)
    clips = [digit_clip(data, d, s, t) for s in digit_speakers(data) for t in TEST_TAKES
             for d in range(10) if (d + t) % EVERY == 0]
    return [c for c in clips if in_set(c, which)][:limit]


def run_digits(data: Path, which: str, snrs: tuple[str, ...], limit: int | None,
               verbose: bool, stand_ins: Path | None = None) -> list[Outcome]:
    """The digit speakers' test takes in the reveal context: Whisper alone, or with other
    voices' words beside it as in play for a player who has not enrolled (`stand_ins`: the
    folder of the English bank, made there the first time)."""
    engine = whisper()
    if stand_ins is not None:
        engine = vb.with_stand_ins(engine, GAME, "en", stand_ins)
    recognizer = HanamikojiRecognizer(engine)
    ctx = Context.reveal()
    out = []
    for n, clip in enumerate(digit_tests(data, which, limit)):
        pcm = read_wav(clip.path)
        for snr in snrs:
            audio = noisy(pcm, snr, 104729 * n + len(snr))
            started = time.perf_counter()
            heard = recognizer.recognize(audio, ctx)
            ms = 1000 * (time.perf_counter() - started)
            out.append(outcome("digits", snr, clip.said, _reveal_truth(clip.said), heard, ms,
                               answering=False))
            if verbose:
                print(clip.speaker, clip.said, snr, heard.command, out[-1].applied, flush=True)
    return out


def matched_alone(part: str, enrolled, audio: bytes, snr: str, said: str) -> Outcome:  # type: ignore[no-untyped-def]
    """The enrolled recognizer alone on `audio` (an EnrolledEngine, loaded): its word when
    accepted, applied when sure; the time with the encoder passes and of the match."""
    from companion.voice.enrolled import sure
    from companion.voice.enrolled_engine import speech_frames

    started = time.perf_counter()
    frames = speech_frames(enrolled.frames(audio), audio)
    encoded = time.perf_counter()
    match = enrolled.voice.match(frames)
    done = time.perf_counter()
    assert match is not None
    return Outcome(part, snr, said, said, match.words if match.accepted else None,
                   match.words if sure(match) else None,
                   1000 * (done - started), 1000 * (done - encoded))


def run_enrolled(data: Path, which: str, snrs: tuple[str, ...], limit: int | None,
                 verbose: bool, with_whisper: bool = True
                 ) -> tuple[list[Outcome], list[Outcome]]:
    """(the enrolled recognizer alone over ten digits, beside Whisper in the reveal
    context)."""
    from companion.voice.enrolled_engine import EnrolledEngine
    from companion.voice.word_profiles import WordProfile

    engine = whisper()
    alone: list[Outcome] = []
    beside: list[Outcome] = []
    tests = digit_tests(data, which, limit)
    with tempfile.TemporaryDirectory() as folder:
        for speaker in sorted({c.speaker for c in tests}):
            profile = WordProfile.named(speaker, "hanamikoji", "en", Path(folder))
            for digit in range(10):
                for take in ENROL_TAKES:
                    profile.save(read_wav(digit_clip(data, digit, speaker, take).path),
                                 DIGITS[digit])
            enrolled = EnrolledEngine(engine, profile)
            enrolled.ready()
            assert enrolled.voice is not None
            recognizer = HanamikojiRecognizer(enrolled)
            ctx = Context.reveal()
            for n, clip in enumerate(c for c in tests if c.speaker == speaker):
                pcm = read_wav(clip.path)
                for snr in snrs:
                    audio = noisy(pcm, snr, 104729 * n + len(snr))
                    if with_whisper:  # first: the match below then reuses its encoder pass
                        started = time.perf_counter()
                        heard = recognizer.recognize(audio, ctx)
                        ms = 1000 * (time.perf_counter() - started)
                        beside.append(outcome("beside", snr, clip.said,
                                              _reveal_truth(clip.said), heard, ms,
                                              answering=False))
                    alone.append(matched_alone("enrolled", enrolled, audio, snr, clip.said))
                    if verbose:
                        print(speaker, clip.said, snr, alone[-1], beside[-1] if beside else "",
                              flush=True)
    return alone, beside


def pcm16(speech: np.ndarray) -> bytes:
    """Samples as 16-bit PCM, rounded and clipped."""
    return np.clip(np.round(speech), -32768, 32767).astype("<i2").tobytes()


Test = tuple[str, str, bytes]  # (word said, SNR, sound heard)


GAME = "hanamikoji"  # --game


def game_words(lang: str, game: str | None = None) -> list[str]:
    """The words a player of `game` (default: GAME) enrols in `lang`."""
    from companion.voice.cli import game_voice

    return list(game_voice(game or GAME).enrolment_words(lang))


def synthetic_enrolment(voice: str, words: list[str],
                        speeds: tuple[tuple[int, int], ...] = SYNTH_ENROL
                        ) -> dict[str, list[bytes]]:
    """`voice`'s enrolment recordings: each word at each of `speeds` (rate, pitch; by
    default SYNTH_ENROL's, never the tests')."""
    return {word: [pcm16(vb.synth(word, voice, rate, pitch)) for rate, pitch in speeds]
            for word in words}


def enrolled_engine(engine, voice: str, lang: str, folder: Path,  # type: ignore[no-untyped-def]
                    recordings: dict[str, list[bytes]]):
    """A loaded EnrolledEngine beside `engine`, `voice` enrolled on `recordings` for GAME
    (its profile kept in `folder`)."""
    from companion.voice.enrolled_engine import EnrolledEngine
    from companion.voice.word_profiles import WordProfile

    profile = WordProfile.named(voice.replace(":", "-"), GAME, lang, folder)
    for word, takes in recordings.items():
        for pcm in takes:
            profile.save(pcm, word)
    enrolled = EnrolledEngine(engine, profile)
    enrolled.ready()
    assert enrolled.voice is not None
    return enrolled


def synthetic_speakers(lang: str, which: str, snrs: tuple[str, ...]
                       ) -> Iterator[tuple[str, dict[str, list[bytes]], list[Test]]]:
    """The synthetic stand-ins of a set, one voice at a time: its name, its enrolment
    recordings (each word at SYNTH_ENROL) and its tests (each word at SYNTH_TEST, mixed at
    each SNR as `noisy`). --every n: every n-th voice, and the words, in turn; --game: the
    game whose words are enrolled (its voice hooks' enrolment_words)."""
    words = game_words(lang)
    sets = vb.LISTENER_VOICES[lang]
    # (Spanish speaks with Pico alone, held out by seed in voice_bench: once here)
    voices = (tuple(dict.fromkeys(sets["tune"] + sets["report"])) if which == "all"
              else sets[which])
    voices, words = voices[::EVERY], words[::EVERY]
    for voice in voices:
        recordings = synthetic_enrolment(voice, words)
        tests = []
        for n, word in enumerate(words):
            for k, (rate, pitch) in enumerate(SYNTH_TEST):
                pcm = pcm16(vb.synth(word, voice, rate, pitch))
                tests += [(word, snr, noisy(pcm, snr, 31 * n + 7 * k + len(snr)))
                          for snr in snrs]
        yield voice, recordings, tests


# Where each enrolled word alone is a command, tried in this order: cards and their numbers
# in the reveal context, the two actions in the action context, yes and no in the confirm
# context (the questions are valid in the first).
SAID_IN = (Context.reveal(), Context.action(), Context.confirm())


def said_in(word: str, lang: str) -> tuple[Context, str]:
    """The first context where `word` alone is a command, and that command."""
    for context in SAID_IN:
        command = normalize(word, lang, context)
        if command is not None:
            return context, command
    raise ValueError(f"{word!r} ({lang}) is a command in none of {SAID_IN}")


def run_synthetic(langs: tuple[str, ...], which: str, snrs: tuple[str, ...],
                  verbose: bool, with_whisper: bool = False
                  ) -> dict[str, tuple[list[Outcome], list[Outcome]]]:
    """Per language, (the enrolled recognizer alone, and when `with_whisper` beside
    Whisper as in play: each word where it alone is a command, `said_in`)."""
    out: dict[str, tuple[list[Outcome], list[Outcome]]] = {}
    for lang in langs:
        engine = whisper(lang)
        results: list[Outcome] = []
        beside: list[Outcome] = []
        with tempfile.TemporaryDirectory() as folder:
            for voice, recordings, tests in synthetic_speakers(lang, which, snrs):
                enrolled = enrolled_engine(engine, voice, lang, Path(folder), recordings)
                recognizer = HanamikojiRecognizer(enrolled)
                for word, snr, audio in tests:
                    if with_whisper:  # first: the match below then reuses its encoder pass
                        context, command = said_in(word, lang)
                        started = time.perf_counter()
                        heard = recognizer.recognize(audio, context)
                        ms = 1000 * (time.perf_counter() - started)
                        beside.append(outcome("beside", snr, word, command, heard, ms,
                                              answering=context.kind == "confirm"))
                    results.append(matched_alone("synthetic", enrolled, audio, snr, word))
                    if verbose:
                        print(lang, voice, word, snr, results[-1], beside[-1] if beside else "",
                              flush=True)
        out[lang] = (results, beside)
        engine.close()
    return out


def write_docs(text: str) -> None:
    path = ROOT / "docs" / "voice.md"
    doc = path.read_text(encoding="utf-8")
    start, end = doc.index(DOC_BEGIN) + len(DOC_BEGIN), doc.index(DOC_END)
    path.write_text(doc[:start] + "\n" + text + "\n" + doc[end:], encoding="utf-8")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--part", nargs="+", default=["answers", "digits", "enrolled",
                                                      "synthetic"],
                        choices=("answers", "digits", "enrolled", "synthetic"))
    parser.add_argument("--set", dest="which", default="report",
                        choices=("tune", "report", "all"))
    parser.add_argument("--snrs", nargs="+", default=list(SNRS), choices=SNRS)
    parser.add_argument("--limit", type=int, default=None, help="clips per part (a quick run)")
    parser.add_argument("--every", type=int, default=1,
                        help="keep one test clip in this many (a shorter run, same spread)")
    parser.add_argument("--langs", nargs="+", default=["fr", "es", "uk"])
    parser.add_argument("--answers-lang", default="en", choices=("en", "fr", "es", "uk"),
                        help="answers: the recognizer's language (other than English, every "
                             "clip is a stray word but the language's own answer word)")
    parser.add_argument("--no-whisper", action="store_true",
                        help="enrolled: the enrolled recognizer alone")
    parser.add_argument("--takes", type=int, default=2, choices=(2, 3),
                        help="enrolled: takes of each digit enrolled (3: tested on takes 3-9)")
    parser.add_argument("--beside", action="store_true",
                        help="synthetic: also heard beside Whisper, as in play")
    parser.add_argument("--game", default="hanamikoji", choices=("hanamikoji", "momiji"),
                        help="synthetic: the game whose words are enrolled")
    parser.add_argument("--noise-draw", type=int, default=0,
                        help="another draw of each clip's noise (same kind and SNR): how "
                             "much the figures move with the noise alone")
    parser.add_argument("--stand-ins", type=Path, default=None, metavar="DIR",
                        help="digits: other voices' words beside Whisper, as in play for a "
                             "player who has not enrolled (the bank kept in DIR)")
    parser.add_argument("--verbose", action="store_true")
    parser.add_argument("--write-docs", action="store_true")
    args = parser.parse_args(argv)
    global EVERY, ENROL_TAKES, TEST_TAKES, NOISE_DRAW, GAME
    EVERY = args.every
    NOISE_DRAW = args.noise_draw
    GAME = args.game
    ENROL_TAKES = tuple(range(args.takes))
    TEST_TAKES = tuple(range(args.takes, 10))
    data = find_data()
    if data is None:
        print("realspeech_bench: skipped: the real recordings are not here (looked in "
              + ", ".join(str(p) for p in PLACES) + "; set COMPANION_REALSPEECH)")
        return 0
    snrs = tuple(args.snrs)
    started = time.perf_counter()
    blocks = []
    load = os.getloadavg()[0]
    if "answers" in args.part:
        res = run_answers(data, args.which, snrs, args.limit, args.verbose, args.answers_lang)
        model = "tiny.en" if args.answers_lang == "en" else (
            f"base in {args.answers_lang}: every clip a stray word but the language's own "
            "answer word")
        blocks.append("Speech Commands while a yes or no is awaited (Hanamikoji's confirm "
                      f"context, Whisper {model}, as shipped):\n\n" + answers_table(res))
    if "digits" in args.part:
        res = run_digits(data, args.which, snrs, args.limit, args.verbose, args.stand_ins)
        blocks.append(table(res, "Digits naming a card by its number (reveal context: one "
                                 "to seven valid, zero, eight and nine out of grammar), "
                                 "Whisper " + ("beside other voices' words (espeak-ng's "
                                               "English, stand_ins.py)" if args.stand_ins
                                               else "alone")))
    if "enrolled" in args.part:
        alone, beside = run_enrolled(data, args.which, snrs, args.limit, args.verbose,
                                     not args.no_whisper)
        text = table(alone, f"The enrolled recognizer alone, ten digits (enrolled on takes "
                            f"0-{ENROL_TAKES[-1]}, tested on takes {TEST_TAKES[0]}-9)")
        text += (f"\n\nMedian time of the match alone (the encoder's frames given, as in "
                 f"play): {statistics.median(o.match_ms for o in alone):.0f} ms" + (
                     "." if beside else f"; with the encoder pass: "
                     f"{statistics.median(o.ms for o in alone):.0f} ms."))
        if beside:
            text += "\n\n" + table(beside, "Enrolled beside Whisper, reveal context (one to "
                                           "seven valid; zero, eight, nine enrolled but out "
                                           "of grammar)")
        blocks.append(text)
    if "synthetic" in args.part:
        if args.beside and GAME != "hanamikoji":
            parser.error("--beside: Hanamikoji's contexts only")
        for lang, (res, beside) in run_synthetic(tuple(args.langs), args.which, snrs,
                                                 args.verbose, args.beside).items():
            words = len(game_words(lang)[::args.every])
            blocks.append(table(res, f"Synthetic {lang} voices (MBROLA, Pico, RHVoice), the "
                                     f"enrolled recognizer alone, {words} {GAME} words") + (
                f"\n\nMedian match time: {statistics.median(o.match_ms for o in res):.0f} ms."))
            if beside:
                blocks.append(table(beside, f"The same {lang} clips beside Whisper, as in "
                                            "play (each word where it alone is a command: "
                                            "cards and numbers revealed, the actions, yes "
                                            "and no answered, the questions)"))
    seconds = time.perf_counter() - started
    head = (f"Set: {args.which}" + (f", one test clip in {args.every}" if args.every > 1 else "")
            + f"; run {seconds:.0f} s; load average at the start "
            f"{load:.1f} on {os.cpu_count()} cores (other work shared the machine).")
    text = head + "\n\n" + "\n\n".join(blocks)
    print(text)
    if args.write_docs:
        write_docs(text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
