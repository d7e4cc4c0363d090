"""Questions a player never enrolled, heard beside their enrolled words (issue 25).

A player enrols the game's 22 words (hooks.enrolment_words), among them four questions
(score, board, repeat, undo); the others ("help", "the rules", "actions", "unseen",
"hint", the speech settings) no one records. Each synthetic stand-in (voice_bench's
voices) is enrolled on the 22 words at two speeds and pitches (realspeech_bench
SYNTH_ENROL), then says every question of its language's lexicon at four others
(SYNTH_TEST), as recorded and at 10 and 6 dB (realspeech_bench's noise), in the reveal
and the action contexts, heard as in play (EnrolledEngine beside Whisper, the policy).
Printed per language and noise: the question heard (applied, or asked about), and what
was done: the question applied, another command applied, asked about, refused. No real
speaker here says both the enrolled words and the questions, so synthetic voices only.

    .venv/bin/python benchmarks/enrolled_queries.py --langs en fr es uk
    .venv/bin/python benchmarks/enrolled_queries.py --voice-set report --langs en fr uk

The rules for questions were found on the tuning voices (`--voice-set tune`, the default);
the reporting voices never took part in any decision. Spanish has no reporting voice: Pico
es-ES is the only one a listener accepts (MBROLA's Spanish voices drop syllables,
voice_bench.LISTENER_VOICES).
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

import realspeech_bench as rb  # noqa: E402
import voice_bench as vb  # noqa: E402

from companion.games.hanamikoji.voice.context import Context  # noqa: E402
from companion.games.hanamikoji.voice.hooks import HanamikojiRecognizer  # noqa: E402
from companion.games.hanamikoji.voice.lexicon import lexicon  # noqa: E402

# The voices measured (docs/voice.md "Words the player never enrolled"): those the rules
# were found on, and held-out ones no decision looked at (other recorded speakers: CMU
# flite's, MBROLA's, Pico's British voice, RHVoice's other Ukrainian speakers).
VOICES = {"tune": {"en": ("mb-us1", "pico:en-US", "piper:joe"),
                   "fr": ("mb-fr1", "pico:fr-FR"), "es": ("pico:es-ES",),
                   "uk": ("rhvoice:anatol",)},
          "report": {"en": ("flite:slt", "flite:awb", "mb-us2", "pico:en-GB"),
                     "fr": ("mb-fr2", "mb-fr6", "mb-fr7"),
                     "uk": ("rhvoice:marianna", "rhvoice:volodymyr")},
          # Voices of neither set, used once to settle what the two could not: whether
          # English takes the player's own sure answers (enrolled.ENROLLED_ANSWERS).
          "decide": {"en": ("flite:rms", "flite:kal16", "mb-us3", "mb-en1")}}
SNRS = ("rec", "10", "6")
CONTEXTS = (("reveal", Context.reveal()), ("action", Context.action()))


def questions(lang: str) -> dict[str, str]:
    """Each question's first wording in `lang` (the lexicon's), and the command it is."""
    found: dict[str, str] = {}
    for word, meaning in lexicon(lang).queries.items():
        found.setdefault(meaning, word)
    return {word: meaning for meaning, word in found.items()}


def run(lang: str, voices: tuple[str, ...]) -> Counter[tuple[str, str]]:
    """(SNR, outcome) counts over every voice, question, speed and context."""
    engine = rb.whisper(lang)
    counts: Counter[tuple[str, str]] = Counter()
    asked = questions(lang)
    with tempfile.TemporaryDirectory() as folder:
        for voice in voices:
            recordings = rb.synthetic_enrolment(voice, rb.game_words(lang))
            recognizer = HanamikojiRecognizer(
                rb.enrolled_engine(engine, voice, lang, Path(folder), recordings))
            for n, (said, meant) in enumerate(asked.items()):
                for k, (rate, pitch) in enumerate(rb.SYNTH_TEST):
                    pcm = rb.pcm16(vb.synth(said, voice, rate, pitch))
                    for snr in SNRS:
                        audio = rb.noisy(pcm, snr, 31 * n + 7 * k + len(snr))
                        for _, context in CONTEXTS:
                            o = rb.outcome("queries", snr, said, meant,
                                           recognizer.recognize(audio, context), 0.0,
                                           answering=False)
                            counts[(snr, "right")] += o.heard == meant
                            counts[(snr, "right applied" if o.applied == meant
                                    else "wrong applied" if o.applied is not None
                                    else "asked" if o.heard is not None else "refused")] += 1
    engine.close()
    return counts


def table(results: dict[str, Counter[tuple[str, str]]]) -> str:
    """Counts per language and noise: right (applied, or asked about: "undo" always is),
    then what was done with each question."""
    lines = ["| language | noise | n | right | right applied | wrong applied | asked | "
             "refused |", "|---|---|---|---|---|---|---|---|"]
    kinds = ("right applied", "wrong applied", "asked", "refused")
    for lang, counts in results.items():
        for snr in SNRS:
            row = [counts[(snr, kind)] for kind in kinds]
            label = "as recorded" if snr == "rec" else f"{snr} dB"
            lines.append(f"| {lang} | {label} | {sum(row)} | {counts[(snr, 'right')]} | "
                         + " | ".join(str(x) for x in row) + " |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--voice-set", choices=sorted(VOICES), default="tune",
                        help="the voices the rules were found on, or held-out ones")
    parser.add_argument("--langs", nargs="+", default=None, choices=sorted(VOICES["tune"]),
                        help="default: every language the voice set speaks")
    args = parser.parse_args(argv)
    voices = VOICES[args.voice_set]
    langs = args.langs or list(voices)
    missing = [lang for lang in langs if lang not in voices]
    if missing:
        parser.error(f"no {args.voice_set} voice speaks {', '.join(missing)}")
    print(table({lang: run(lang, voices[lang]) for lang in langs}))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
