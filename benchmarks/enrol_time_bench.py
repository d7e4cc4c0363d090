"""What `companion voice-enroll --words` asks of the player's time (issue 25: ≤ 3 minutes).

Each sentence the companion says during an enrolment is rendered from the catalogue in the
player's language and synthesized by espeak-ng at the companion's rate (speech settings'
default), and its length measured; to that are added, per take, the player's reaction
after a prompt, the word itself (as long as espeak-ng says it at that rate, its speech
only; the real
digits of ../shared/realspeech, measured by the recorder's own speech span, are printed
beside it as a check) and the recorder's wait for the end of speech (the pause threshold
an enrolment gives the recorder), and per word a key pressed. Printed per language, for
two and three takes a word.

    .venv/bin/python benchmarks/enrol_time_bench.py [--game momiji]
"""

from __future__ import annotations

import io
import statistics
import subprocess
import sys
import wave
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from companion.games.hanamikoji.voice.hooks import enrolment_words  # noqa: E402
from companion.narrate.catalogue import Catalogue  # noqa: E402
from companion.speech.settings import SpeechSettings  # noqa: E402
from companion.speech.synth import DEFAULT_VOICES  # noqa: E402
from companion.voice.enroll_words import PAUSE, enrolment_sentences  # noqa: E402

REACTION = 0.5  # seconds from the end of a prompt to the start of the word (assumed)
KEY = 1.0  # seconds to press Enter after the confirmation (assumed)


def spoken_seconds(text: str, lang: str, trim: bool = False) -> float:
    """How long espeak-ng says `text` (`trim`: its speech only, as the recorder's speech
    span finds it, without the synthesizer's silences around it)."""
    wav = subprocess.run(["espeak-ng", "--stdout", "-v", DEFAULT_VOICES[lang], "-s",
                          str(SpeechSettings().rate), text], capture_output=True,
                         check=True).stdout
    with wave.open(io.BytesIO(wav)) as w:  # streamed: the header's length is unset
        rate, width = w.getframerate(), w.getsampwidth()
    if trim:
        from companion.voice.sphinx import speech_span

        start, end = speech_span(memoryview(wav[44:]).cast("h").tolist(), rate)
        return (end - start) / rate
    return (len(wav) - 44) / (rate * width)


def real_digit_seconds() -> float | None:
    """The median spoken digit of the free spoken digit dataset, by sphinx.speech_span."""
    import realspeech_bench as rb

    from companion.voice.audio import read_wav
    from companion.voice.sphinx import SAMPLE_RATE, speech_span

    data = rb.find_data()
    if data is None:
        return None
    lengths = []
    for path in sorted((data / "free-spoken-digit-dataset" / "recordings").glob("*_0.wav")):
        samples = read_wav(path)
        start, end = speech_span(memoryview(samples).cast("h").tolist())
        lengths.append((end - start) / SAMPLE_RATE)
    return statistics.median(lengths)


def main(argv: list[str] | None = None) -> int:
    import argparse

    import realspeech_bench as rb

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", default="hanamikoji", choices=("hanamikoji", "momiji"))
    game = parser.parse_args(argv).game
    pause = PAUSE
    real = real_digit_seconds()
    said = statistics.median(spoken_seconds(w, "en", trim=True)
                             for w in enrolment_words("en")[7:14])
    print(f"Per take: reaction {REACTION} s (assumed) + the word as espeak-ng says it + end "
          f"of speech {pause} s (the recorder's pause threshold in an enrolment); per word: a "
          f"key, {KEY} s "
          "(assumed); the prompts synthesized by espeak-ng at the companion's rate. Check: "
          f"espeak-ng says one to seven in {said:.2f} s (median), real speakers in "
          + (f"{real:.2f} s" if real is not None else "(the real recordings are absent)")
          + ".\n")
    print("| language | words | takes | prompts spoken | player speaking and waiting | keys "
          "| total |")
    print("|---|---|---|---|---|---|---|")
    for lang in ("fr", "en", "es", "uk"):
        words = rb.game_words(lang, game)
        catalogue = Catalogue(lang, games=(game,))
        for takes in (2, 3):
            spoken = sum(spoken_seconds(catalogue.render(m), lang)
                         for m in enrolment_sentences("Ana", game.capitalize(), words, takes))
            player = takes * sum(REACTION + spoken_seconds(w, lang, trim=True) + pause
                                 for w in words)
            keys = len(words) * KEY
            total = spoken + player + keys
            print(f"| {lang} | {len(words)} | {takes} | {spoken:.0f} s | {player:.0f} s | "
                  f"{keys:.0f} s | **{total / 60:.1f} min** |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
