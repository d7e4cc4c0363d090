"""A player's own yes and no, and their stray words, while an answer is awaited (issue 25).

Each synthetic stand-in (enrolled_queries.VOICES: the tuning or the held-out voices) is
enrolled on the game's 22 words (realspeech_bench.SYNTH_ENROL), then heard in Hanamikoji's
confirm context, as in play (EnrolledEngine beside Whisper, the policy answering):
- its yes and no at four speeds (SYNTH_TEST);
- stray words: its other 20 enrolled words (a card's number said while a yes is awaited),
  six words of the table and five sentences of table talk, at two speeds;
as recorded and at 10 and 6 dB (realspeech_bench's noise). Printed per language and
noise: answers applied right and wrong, stray words applied as an answer, with the
player's own sure answer taken (enrolled.ENROLLED_ANSWERS, as shipped) and without it,
both replayed from the same decodes (`combine` is pure).

    .venv/bin/python benchmarks/enrolled_answers.py --voice-set tune --langs fr es uk en
    .venv/bin/python benchmarks/enrolled_answers.py --voice-set report --langs fr uk en
"""

from __future__ import annotations

import argparse
import functools
import sys
import tempfile
from collections import Counter
from dataclasses import replace
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

import enrolled_layers as el  # noqa: E402
import enrolled_queries as eq  # noqa: E402
import realspeech_bench as rb  # noqa: E402
import voice_bench as vb  # noqa: E402

from companion.games.hanamikoji.voice.context import Context  # noqa: E402
from companion.games.hanamikoji.voice.hooks import (  # noqa: E402
    HanamikojiRecognizer,
    rival_checked,
    settled,
)
from companion.games.hanamikoji.voice.words import normalize  # noqa: E402
from companion.voice import enrolled as en  # noqa: E402
from companion.voice.policy import Accept, decide  # noqa: E402
from companion.voice.sphinx import ANSWERS, capped  # noqa: E402

STRAY = {**el.STRAY, "en": ("cat", "thanks", "wait", "well", "oops", "look")}
TABLE_TALK = {"en": ("what time is it", "pass me the chips", "I think it is your turn",
                     "wait a second", "who is winning right now")}
SNRS = ("rec", "10", "6")
CONFIRM = Context.confirm()


def heard(lang: str, voices: tuple[str, ...]) -> list[dict[str, Any]]:
    """One decode per clip: what was said, the answer it is (None: a stray word), and
    Whisper's own recognition and the enrolled match beside it."""
    engine = rb.whisper(lang)
    words = rb.game_words(lang)
    talk = TABLE_TALK.get(lang) or vb.PHRASES[lang]["oog"]
    out = []
    with tempfile.TemporaryDirectory() as folder:
        for voice in voices:
            enrolled = rb.enrolled_engine(engine, voice, lang, Path(folder),
                                          rb.synthetic_enrolment(voice, words))
            recognizer = HanamikojiRecognizer(enrolled)
            said = [(w, normalize(w, lang, CONFIRM)) for w in words]
            said = [(w, a if a in ANSWERS else None) for w, a in said]
            said += [(w, None) for w in (*STRAY[lang], *talk)]
            for n, (word, answer) in enumerate(said):
                speeds = rb.SYNTH_TEST if answer else rb.SYNTH_TEST[:2]
                for k, (rate, pitch) in enumerate(speeds):
                    pcm = rb.pcm16(vb.synth(word, voice, rate, pitch))
                    for snr in SNRS:
                        recognizer.recognize(rb.noisy(pcm, snr, 53 * n + 11 * k + len(snr)),
                                             CONFIRM)
                        out.append({"lang": lang, "voice": voice, "said": word,
                                    "answer": answer, "snr": snr,
                                    "heard": enrolled.last_heard,
                                    "match": enrolled.last_match,
                                    "enrolled": enrolled.voice.words})
    engine.close()
    return out


def applied(clip: dict[str, Any], answers_taken: bool) -> str | None:
    """What play applies for `clip` (EnrolledEngine._combined, then the policy), with the
    player's sure answers taken in ENROLLED_ANSWERS' languages or in none."""
    lang = clip["lang"]
    read = functools.partial(normalize, lang=lang, context=CONFIRM)
    saved = en.ENROLLED_ANSWERS
    en.ENROLLED_ANSWERS = saved if answers_taken else frozenset()
    try:
        out = en.combine(clip["heard"], clip["match"], read, lang, clip["enrolled"])
    finally:
        en.ENROLLED_ANSWERS = saved
    if out.command is not None:
        out = replace(out, confidence=capped(out.command, out.confidence, settled))
    if lang == "en":
        out = rival_checked(out, read)
    decision = decide(out, answering=True)
    return decision.command if isinstance(decision, Accept) else None


def table(clips: list[dict[str, Any]]) -> str:
    lines = ["| language | noise | answers (n) | applied right: without → with the "
             "player's sure answer | applied wrong | stray words (n) | applied as an "
             "answer |", "|---|---|---|---|---|---|---|"]
    count: Counter[tuple[str, ...]] = Counter()
    for clip in clips:
        key = (clip["lang"], clip["snr"])
        for taken in (False, True):
            got = applied(clip, taken)
            tag = "with" if taken else "without"
            if clip["answer"]:
                count[(*key, "answers", tag)] += 1
                count[(*key, "right", tag)] += got == clip["answer"]
                count[(*key, "wrong", tag)] += got is not None and got != clip["answer"]
            else:
                count[(*key, "strays", tag)] += 1
                count[(*key, "stray answer", tag)] += got in ANSWERS
    for lang in dict.fromkeys(c["lang"] for c in clips):
        for snr in SNRS:
            def n(what: str, tag: str, lang: str = lang, snr: str = snr) -> int:
                return count[(lang, snr, what, tag)]
            label = "as recorded" if snr == "rec" else f"{snr} dB"
            lines.append(
                f"| {lang} | {label} | {n('answers', 'with')} | {n('right', 'without')} → "
                f"{n('right', 'with')} | {n('wrong', 'without')} → {n('wrong', 'with')} | "
                f"{n('strays', 'with')} | {n('stray answer', 'without')} → "
                f"{n('stray answer', 'with')} |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--voice-set", default="tune", choices=("tune", "report"))
    parser.add_argument("--langs", nargs="+", default=["fr", "es", "uk", "en"],
                        choices=("en", "es", "fr", "uk"))
    args = parser.parse_args(argv)
    clips = [clip for lang in args.langs
             for clip in heard(lang, eq.VOICES[args.voice_set].get(lang, ()))]
    print(table(clips))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
