"""What a player says while an answer or a card is awaited, replayed with and without the
rules that take their own recordings' word alone (issue 25).

Each synthetic stand-in (enrolled_queries.VOICES: the tuning or the held-out voices) is
enrolled on the game's 22 words (realspeech_bench.SYNTH_ENROL), then heard in one of
Hanamikoji's contexts, as in play (EnrolledEngine beside Whisper, the policy):

- `--context confirm` (a yes or no awaited): its yes and no at four speeds (SYNTH_TEST);
  stray words: its other 20 enrolled words (a card's number said while a yes is awaited),
  six words of the table and five sentences of table talk, at two speeds. Compared: the
  player's own sure answer taken (enrolled.ENROLLED_ANSWERS) or not.
- `--context reveal` (a card to reveal, where every question is valid): its 22 enrolled
  words and the questions of its language it never enrolled (help, the rules, the speech
  settings...) at four speeds; the words of the table and table talk at two. Compared: a
  near question the player enrolled answered (enrolled.QUESTION_DISTANCE) and Whisper's
  reading said in one word beside a filler no longer than a near match's word
  (enrolled.ONE_WORD_NEAR), or neither.

As recorded and at 10 and 6 dB (realspeech_bench's noise). Both sides are replayed from
the same decodes (`combine` is pure). Printed per language and noise: what was said
applied right and wrong, and the stray words applied (as an answer, in the confirm
context).

    .venv/bin/python benchmarks/enrolled_answers.py --voice-set tune --langs fr es uk en
    .venv/bin/python benchmarks/enrolled_answers.py --context reveal --voice-set report
    .venv/bin/python benchmarks/enrolled_answers.py --voice-set decide --langs en

`--keep FILE` saves the decodes; `--replay FILE` prints the table from a file this script
kept, without decoding again (a rule weighed on the same decodes in seconds): the voices,
languages and context are then the kept ones, and --voice-set, --context, --langs unused.

`--voice-set decide`: English voices of neither set, which settled whether English takes
the player's own sure answers (it does: enrolled.ENROLLED_ANSWERS).
"""

from __future__ import annotations

import argparse
import functools
import pickle
import sys
import tempfile
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

import enrolled_layers as el  # noqa: E402
import enrolled_queries as eq  # noqa: E402
import enrolled_replay as er  # noqa: E402
import realspeech_bench as rb  # noqa: E402
import voice_bench as vb  # noqa: E402

from companion.games.hanamikoji.voice.context import Context  # noqa: E402
from companion.games.hanamikoji.voice.hooks import (  # noqa: E402
    HanamikojiRecognizer,
    settled,
)
from companion.games.hanamikoji.voice.words import normalize  # noqa: E402
from companion.voice import enrolled as en  # noqa: E402
from companion.voice.policy import Accept  # noqa: E402
from companion.voice.sphinx import ANSWERS  # noqa: E402

STRAY = {**el.STRAY, "en": ("cat", "thanks", "wait", "well", "oops", "look")}
TABLE_TALK = {"en": ("what time is it", "pass me the chips", "I think it is your turn",
                     "wait a second", "who is winning right now")}
SNRS = ("rec", "10", "6")
CONTEXTS = {"confirm": Context.confirm(), "reveal": Context.reveal()}
# The rules compared in each context, by the constants that switch them off.
RULES_OFF = {"confirm": {"ENROLLED_ANSWERS": frozenset()},
             "reveal": {"QUESTION_DISTANCE": 0.0, "ONE_WORD_NEAR": -1.0}}


def said(lang: str, context: str) -> list[tuple[str, str | None]]:
    """(what is said, the command it is: None for a stray word) in `context`."""
    words = rb.game_words(lang)
    talk = TABLE_TALK.get(lang) or vb.PHRASES[lang]["oog"]
    at = CONTEXTS[context]
    if context == "confirm":
        out = [(w, normalize(w, lang, at)) for w in words]
        out = [(w, a if a in ANSWERS else None) for w, a in out]
    else:
        never = [w for w in eq.questions(lang) if w not in words]
        out = [(w, normalize(w, lang, at)) for w in (*words, *never)]
    return out + [(w, None) for w in (*STRAY[lang], *talk)]


def heard(lang: str, voices: tuple[str, ...], context: str,
          others: Path | None = None) -> list[dict[str, Any]]:
    """One decode per clip: what was said, the command it is (None: a stray word), and
    Whisper's own recognition and the enrolled match beside it; with `others` (a folder),
    other voices' words stand in for each voice's own (stand_ins.py, as in play for a
    player who has not enrolled)."""
    engine = rb.whisper(lang)
    words = rb.game_words(lang)
    at = CONTEXTS[context]
    sayings = said(lang, context)
    out = []
    bank = None
    if others is not None:
        bank = vb.with_stand_ins(engine, rb.GAME, lang, others)
    with tempfile.TemporaryDirectory() as folder:
        for voice in voices:
            enrolled = bank or rb.enrolled_engine(engine, voice, lang, Path(folder),
                                                  rb.synthetic_enrolment(voice, words))
            recognizer = HanamikojiRecognizer(enrolled)
            for n, (word, meant) in enumerate(sayings):
                speeds = rb.SYNTH_TEST if meant else rb.SYNTH_TEST[:2]
                for k, (rate, pitch) in enumerate(speeds):
                    pcm = rb.pcm16(vb.synth(word, voice, rate, pitch))
                    for snr in SNRS:
                        recognizer.recognize(rb.noisy(pcm, snr, 53 * n + 11 * k + len(snr)),
                                             at)
                        out.append({"lang": lang, "voice": voice, "said": word,
                                    "meant": meant, "snr": snr, "context": context,
                                    "heard": enrolled.last_heard,
                                    "match": enrolled.last_match,
                                    "enrolled": enrolled.voice.words,
                                    "own": bank is None})
    engine.close()
    return out


@contextmanager
def rules(on: bool, context: str) -> Iterator[None]:
    """The context's compared rules as shipped (`on`) or switched off."""
    changed = {} if on else RULES_OFF[context]
    saved = {name: getattr(en, name) for name in changed}
    for name, value in changed.items():
        setattr(en, name, value)
    try:
        yield
    finally:
        for name, value in saved.items():
            setattr(en, name, value)


def applied(clip: dict[str, Any], on: bool) -> str | None:
    """What play applies for `clip` (EnrolledEngine._combined, then the policy), with the
    compared rules as shipped or switched off."""
    lang, context = clip["lang"], clip["context"]
    read = functools.partial(normalize, lang=lang, context=CONTEXTS[context])
    if not clip.get("own", True):  # other voices' words: compared with Whisper alone
        out = en.beside(clip["heard"], clip["match"] if on else None, read, lang, None,
                        settled, own=False)
        decision = er.decided(out, read, lang, answering=context == "confirm")
        return decision.command if isinstance(decision, Accept) else None
    with rules(on, context):
        out = en.beside(clip["heard"], clip["match"], read, lang, clip["enrolled"], settled)
    decision = er.decided(out, read, lang, answering=context == "confirm")
    return decision.command if isinstance(decision, Accept) else None


def table(clips: list[dict[str, Any]]) -> str:
    lines = ["| language | noise | said (n) | applied right: without → with | applied wrong | "
             "stray words (n) | applied |", "|---|---|---|---|---|---|---|"]
    count: Counter[tuple[str, ...]] = Counter()
    for clip in clips:
        key = (clip["lang"], clip["snr"])
        for on in (False, True):
            got = applied(clip, on)
            tag = "with" if on else "without"
            if clip["meant"]:
                count[(*key, "said", tag)] += 1
                count[(*key, "right", tag)] += got == clip["meant"]
                count[(*key, "wrong", tag)] += got is not None and got != clip["meant"]
            else:
                count[(*key, "strays", tag)] += 1
                # While an answer is awaited a stray word said can be a question, answered
                # (the player's "score"): what counts is an answer taken from it.
                count[(*key, "stray applied", tag)] += (
                    got in ANSWERS if clip["context"] == "confirm" else got is not None)
    for lang in dict.fromkeys(c["lang"] for c in clips):
        for snr in SNRS:
            def n(what: str, tag: str, lang: str = lang, snr: str = snr) -> int:
                return count[(lang, snr, what, tag)]
            label = "as recorded" if snr == "rec" else f"{snr} dB"
            lines.append(
                f"| {lang} | {label} | {n('said', 'with')} | {n('right', 'without')} → "
                f"{n('right', 'with')} | {n('wrong', 'without')} → {n('wrong', 'with')} | "
                f"{n('strays', 'with')} | {n('stray applied', 'without')} → "
                f"{n('stray applied', 'with')} |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--voice-set", default="tune", choices=sorted(eq.VOICES))
    parser.add_argument("--context", default="confirm", choices=sorted(CONTEXTS))
    parser.add_argument("--langs", nargs="+", default=["fr", "es", "uk", "en"],
                        choices=("en", "es", "fr", "uk"))
    parser.add_argument("--keep", type=Path, help="save the decodes to this file")
    parser.add_argument("--stand-ins", type=Path, metavar="DIR",
                        help="other voices' words beside Whisper instead of each voice's own "
                             "(kept in DIR); without -> with is then Whisper alone -> beside")
    parser.add_argument("--replay", type=Path,
                        help="the decodes of an earlier --keep (its voices, languages and "
                             "context; the options above are then unused)")
    args = parser.parse_args(argv)
    if args.replay:
        with args.replay.open("rb") as f:
            clips = pickle.load(f)
    else:
        clips = [clip for lang in args.langs
                 for clip in heard(lang, eq.VOICES[args.voice_set].get(lang, ()),
                                   args.context, args.stand_ins)]
    if args.keep:
        with args.keep.open("wb") as f:
            pickle.dump(clips, f)
    print(table(clips))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
