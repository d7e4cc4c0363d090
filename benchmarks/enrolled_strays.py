"""A player's own stray words, heard by the enrolled recognizer alone (issue 25, part 3).

In play a player enrols the game's 22 words, among them one to seven, never zero, eight or
nine: those, said by the same player, are stray words in their own voice, the hardest kind
(what is heard shares the voice, the room and the microphone with every template). Each
free spoken digit dataset speaker of a set is enrolled on one to seven (takes 0 and 1) and
every digit of takes 2-9 is heard, as recorded and at 10 and 6 dB (realspeech_bench's
noise); every match goes to a CSV (enrolled_layers.match_row's columns), and the figures
are printed: one to seven right, and zero, eight, nine given an opinion (asked about) or
applied; with --beside, also as in play (beside Whisper, the reveal context: zero, eight,
nine are then right when refused), and each command applied wrongly, with Whisper's own
reading and the match beside it (which of the two applied it). With --refuse N, the strays
are words to refuse, held out: each speaker is enrolled three times, with N takes of two
of the three strays beside one to seven, and the third stray heard (what words to refuse
do for a stray word never enrolled).

    .venv/bin/python benchmarks/enrolled_strays.py --set tune --dump /tmp/strays.csv
    .venv/bin/python benchmarks/enrolled_strays.py --set tune --beside --refuse 1
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

import realspeech_bench as rb  # noqa: E402
from enrolled_layers import match_row, write_rows  # noqa: E402

from companion.voice import enrolled as en  # noqa: E402
from companion.voice.audio import read_wav  # noqa: E402
from companion.voice.enrolled_engine import EnrolledEngine, speech_frames  # noqa: E402
from companion.voice.sphinx import Recognition  # noqa: E402
from companion.voice.word_profiles import WordProfile  # noqa: E402

ENROLLED = range(1, 8)  # the digits that name a card: the game's words
STRAYS = (0, 8, 9)
SNRS = ("rec", "10", "6")


def rotations(refuse: int) -> list[tuple[tuple[int, ...], tuple[int, ...]]]:
    """(the stray digits enrolled as words to refuse, the stray digits heard): with
    `refuse` takes of them, each stray is heard where the two others are enrolled (held
    out: what words to refuse do for a stray word the player never enrolled); without,
    none enrolled and all three heard."""
    if not refuse:
        return [((), STRAYS)]
    return [(tuple(d for d in STRAYS if d != out), (out,)) for out in STRAYS]


def _why(outcome: rb.Outcome, speaker: str, take: int, whisper: Recognition | None,
         match: en.Match | None) -> str:
    """One line: a command applied wrongly, with Whisper's own reading and the match."""
    label = "as recorded" if outcome.snr == "rec" else f"{outcome.snr} dB"
    read = (f"{whisper.command!r} at {whisper.confidence:.2f}, free {whisper.transcript!r}"
            if whisper is not None else "-")
    near = (f"{match.words} at {match.distance:.3f}, lead {match.margin:.3f}"
            f"{', sure' if en.sure(match) else ''}" if match is not None else "-")
    return (f"- {speaker} take {take}, {label}: {outcome.said!r} applied as "
            f"{outcome.applied!r}; Whisper {read}; enrolled {near}")


def run(which: str, beside: list | None = None, refuse: int = 0,
        wrong: list[str] | None = None) -> list[dict]:
    """The enrolled recognizer alone's matches; with `beside`, also each clip heard as in
    play, beside Whisper in the reveal context (realspeech_bench Outcomes), and a line in
    `wrong` for each command applied wrongly; with `refuse`, each speaker is enrolled
    three times (`rotations`) and one to seven heard each time."""
    wrong = [] if wrong is None else wrong
    from companion.games.hanamikoji.voice.context import Context
    from companion.games.hanamikoji.voice.hooks import HanamikojiRecognizer

    data = rb.find_data()
    if data is None:
        raise SystemExit("no real speech here (../shared/realspeech): nothing measured")
    engine = rb.whisper()
    rows: list[dict] = []
    speakers = [s for s in rb.digit_speakers(data)
                if (s in rb.TUNE_DIGIT_SPEAKERS) == (which == "tune")]
    with tempfile.TemporaryDirectory() as folder:
        for speaker, (refused, strays) in ((s, r) for s in speakers
                                             for r in rotations(refuse)):
            profile = WordProfile.named(f"{speaker}{''.join(map(str, refused))}",
                                        "hanamikoji", "en", Path(folder))
            for digit in (*ENROLLED, *refused):
                takes = rb.ENROL_TAKES if digit in ENROLLED else rb.ENROL_TAKES[:refuse]
                for take in takes:
                    profile.save(read_wav(rb.digit_clip(data, digit, speaker, take).path),
                                 rb.DIGITS[digit])
            enrolled = EnrolledEngine(engine, profile)
            enrolled.ready()
            assert enrolled.voice is not None and enrolled.frames is not None
            recognizer = HanamikojiRecognizer(enrolled)
            for digit in (*ENROLLED, *strays):
                for take in rb.TEST_TAKES:
                    pcm = read_wav(rb.digit_clip(data, digit, speaker, take).path)
                    for snr in SNRS:
                        audio = rb.noisy(pcm, snr, 104729 * (10 * take + digit) + len(snr))
                        word = rb.DIGITS[digit] if digit in ENROLLED else None  # None: stray
                        if beside is not None:  # first: the match reuses its encoder pass
                            beside.append(rb.outcome(
                                "beside", snr, rb.DIGITS[digit],
                                word and rb._reveal_truth(word),
                                recognizer.recognize(audio, Context.reveal()), 0.0,
                                answering=False))
                            applied = beside[-1].applied
                            if applied is not None and applied != beside[-1].truth:
                                wrong.append(_why(beside[-1], speaker, take,
                                                  enrolled.last_heard, enrolled.last_match))
                        match = enrolled.voice.match(speech_frames(enrolled.frames(audio),
                                                                   audio))
                        assert match is not None
                        rows.append(match_row("en", speaker, word, snr, match))
    engine.close()
    return rows


def summary(rows: list[dict]) -> str:
    cards = {rb.DIGITS[d] for d in ENROLLED}  # a stray matched to a word to refuse: refused
    lines = []
    for snr in SNRS:
        words = [r for r in rows if r["snr"] == snr and r["said"]]
        strays = [r for r in rows if r["snr"] == snr and not r["said"]]
        right = sum(r["accepted"] and r["heard"] == r["said"] for r in words)
        lines.append(
            f"{snr}: one to seven right {100 * right / len(words):.1f}% of {len(words)}; "
            f"zero, eight, nine asked about "
            f"{sum(r['accepted'] and r['heard'] in cards for r in strays)}, applied "
            f"{sum(r['sure'] and r['heard'] in cards for r in strays)} of {len(strays)}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--set", dest="which", default="tune", choices=("tune", "report"))
    parser.add_argument("--dump", type=Path, default=None)
    parser.add_argument("--beside", action="store_true",
                        help="also as in play, beside Whisper in the reveal context")
    parser.add_argument("--refuse", type=int, default=0, choices=(0, 1, 2),
                        help="takes of the stray digits enrolled as words to refuse, each "
                             "heard where the two others are (0: none enrolled)")
    parser.add_argument("--noise-draw", type=int, default=0,
                        help="another draw of each clip's noise (realspeech_bench)")
    args = parser.parse_args(argv)
    rb.NOISE_DRAW = args.noise_draw
    beside: list | None = [] if args.beside else None
    wrong: list[str] = []
    rows = run(args.which, beside, args.refuse, wrong)
    if args.dump is not None:
        write_rows(args.dump, rows)
    print(summary(rows))
    if beside:
        print(rb.table(beside, f"Beside Whisper, as in play ({args.which} speakers; one to "
                               "seven enrolled, zero, eight, nine stray"
                               + (f"; the two other strays enrolled, {args.refuse} take(s), "
                                  "as words to refuse)" if args.refuse else ")")))
        print("\nApplied without a question, and wrong (a stray word, or another card):")
        print("\n".join(wrong) or "- none")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
