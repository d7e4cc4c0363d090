"""How well `companion rules --voice` and `companion stickers quiz --voice` hear espeak-ng.

For each language: every move word of the rulebook, "section" and each number 1 to 5,
three questions by topic, and for the quiz the keys 1 to 7, each symbol described, skip;
each synthesized by espeak-ng and recognized with the Whisper engine as ReadingVoice
builds it, then judged by the tools' policy (reading_voice.Listening): applied right,
asked about (a quiz number), refused, or applied wrong. Prints one line per language and
tool, and the median decode time (on a shared machine: say so with the figures).

    nice -n 10 .venv/bin/python benchmarks/reading_voice_bench.py [--langs en fr es uk]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

from espeak import speak  # noqa: E402

from companion.inputs.reading_voice import Listening, PhraseRecognizer  # noqa: E402
from companion.rulebook import spoken as rules_spoken  # noqa: E402
from companion.rulebook.book import load  # noqa: E402
from companion.sticker_quiz import pieces  # noqa: E402
from companion.sticker_quiz_spoken import WORDS, phrases, readback  # noqa: E402
from companion.voice.numbers import said  # noqa: E402
from companion.voice.whisper import WhisperRecognizer  # noqa: E402
from stickers.colours import NAME_LANGS, SYMBOLS  # noqa: E402


def rules_cases(lang: str) -> list[tuple[str, str]]:
    book = load("hanamikoji", lang)
    read = rules_spoken.phrases(book, lang).read
    cases = [(w, move) for move, ws in rules_spoken.MOVES[lang].items() for w in ws]
    section = rules_spoken.LEADING[lang][-1]
    cases += [(f"{section} {said(n, lang)[0]}", f"section {n}") for n in range(1, 6)]
    for s in book.sections[3:6]:
        question = f"{rules_spoken.ASKING[lang][0]} {s.keywords[0]}"
        cases.append((question, str(read(question))))
    return cases


def quiz_cases(lang: str) -> list[tuple[str, str]]:
    found = pieces("hanamikoji")
    read = phrases(found, lang).read
    i = NAME_LANGS.index(lang)
    cases = [(said(n, lang)[0], f"key {n}") for n in range(1, 8)]
    colours = {p.feel.colour for p in found if p.feel.colour is not None}
    cases += [(SYMBOLS[c][i], str(read(SYMBOLS[c][i]))) for c in sorted(colours,
                                                                     key=lambda c: c.value)]
    cases.append((WORDS[lang][0], "skip"))
    return cases


def same(tool: str, lang: str, heard: str, meant: str) -> bool:
    """Whether two commands do the same: a question answered by the same section, a
    description read as the same stickers (spelling aside)."""
    if heard == meant:
        return True
    if tool == "rules":
        from companion.rulebook.navigator import Navigator, parse

        book = load("hanamikoji", lang)

        def said(command: str) -> list[object]:
            return [m.data.get("section") for m in Navigator(book).execute(parse(command))]

        return said(heard) == said(meant)
    from companion.cards.feel import read_feel

    return heard.startswith("what ") and meant.startswith("what ") and read_feel(
        heard[5:]) == read_feel(meant[5:])


def run(lang: str, folder: Path) -> None:
    engine = WhisperRecognizer(None, lang, rescore=False)
    recognizer = PhraseRecognizer(engine)
    try:
        for tool, cases, listened, back in (
                ("rules", rules_cases(lang), rules_spoken.phrases(load("hanamikoji", lang),
                                                                  lang), str),
                ("quiz", quiz_cases(lang), phrases(pieces("hanamikoji"), lang), readback)):
            counts = {"right": 0, "asked": 0, "refused": 0, "wrong": 0, "asked wrong": 0}
            times = []
            for text, meant in cases:
                pcm = speak(folder, text, lang)
                started = time.perf_counter()
                heard = recognizer.recognize(pcm, listened)
                times.append(time.perf_counter() - started)
                done = Listening(lang).heard(heard, listened, back)
                if done.command is not None:
                    ok = same(tool, lang, done.command, meant)
                    counts["right" if ok else "wrong"] += 1
                    if not ok:
                        print(f"  wrong: {text!r} ({meant}) applied as {done.command}")
                elif done.said and done.said[0].event == "confirm":
                    counts["asked" if heard.command == meant else "asked wrong"] += 1
                    if heard.command != meant:
                        print(f"  asked wrong: {text!r} ({meant}) as {heard.command}")
                else:
                    counts["refused"] += 1
            print(f"{lang} {tool}: {len(cases)} phrases, " + ", ".join(
                f"{k} {v}" for k, v in counts.items()) +
                f"; median decode {statistics.median(times):.2f} s", flush=True)
    finally:
        engine.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--langs", nargs="+", default=["en", "fr", "es", "uk"])
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        for lang in args.langs:
            run(lang, Path(folder))


if __name__ == "__main__":
    main()
