"""Whisper's decode time in French or Spanish: ten clean commands (an espeak-ng, MBROLA or
Pico voice) in their contexts, each decoded twice, one at a time; prints the median wall and
CPU time per decode and the machine's load (docs/voice.md, issue 25).

    .venv/bin/python benchmarks/voice_latency.py fr mb-fr2
    .venv/bin/python benchmarks/voice_latency.py es pico:es-ES   # SVOX Pico (pico2wave)
    .venv/bin/python benchmarks/voice_latency.py fr mb-fr2 --enrolled

--enrolled: the voice is first enrolled on the game's words, said at two other
speeds and pitches, and each command is decoded as in play with the enrolled words beside
Whisper and by Whisper alone, in turn (the same load for both): the enrolled words' cost.

--stand-ins DIR: the same with other voices' words beside Whisper instead (a player who has
not enrolled, companion/voice/stand_ins.py; made in DIR first, or read from it).
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from companion.games.hanamikoji.data import Item  # noqa: E402
from companion.games.hanamikoji.voice.context import Context  # noqa: E402
from companion.games.hanamikoji.voice.hooks import HanamikojiRecognizer  # noqa: E402
from companion.voice.audio import read_wav  # noqa: E402
from companion.voice.whisper import WhisperRecognizer  # noqa: E402

GIFT = (Item.FLUTE, Item.FAN, Item.TEA)
TEXTS = {
    "fr": ("le secret", "le dépôt", "offre flûte, éventail et thé", "je prends l'éventail",
           "la deuxième paire", "révèle le thé", "oui", "plateau", "le score", "actions"),
    "es": ("el secreto", "la renuncia", "regalo flauta, abanico y té", "tomo el abanico",
           "la segunda pareja", "revelo el té", "sí", "tablero", "puntuación", "acciones"),
}
CONTEXTS = (Context.action(), Context.action(), Context.action(), Context.answer_gift(GIFT),
            Context.answer_competition(GIFT[:2], (Item.FLOWER, Item.SCROLL)),
            Context.reveal(), Context.confirm(), Context.action(), Context.action(),
            Context.action())


def _synthesis(voice: str, text: str, path: Path) -> list[str]:
    """The command that says `text` into `path`: SVOX Pico for `pico:<lang>` (the Spanish
    bench's voice: MBROLA's Spanish drops sounds and is rescued more often, so slower),
    else espeak-ng's voice of that name."""
    if voice.startswith("pico:"):
        return ["pico2wave", "-l", voice.removeprefix("pico:"), "-w", str(path), text]
    return ["espeak-ng", "-v", voice, "-s", "150", "-w", str(path), text]


ENROL_SPEEDS = ((130, 60), (175, 40))  # rate, pitch: not the tested 150, 50


def _enrolled(engine: WhisperRecognizer, lang: str, voice: str, folder: Path) -> Any:
    """`engine` with `voice` enrolled on the game's words in `lang` (said as
    realspeech_bench's stand-ins are, at ENROL_SPEEDS), loaded."""
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    import realspeech_bench as rb

    recordings = rb.synthetic_enrolment(voice, rb.game_words(lang), ENROL_SPEEDS)
    return rb.enrolled_engine(engine, voice, lang, folder, recordings)


def _timed(recognizer: HanamikojiRecognizer, pcm: bytes, ctx: Context,
           wall: list[float], cpu: list[float]) -> None:
    started, used = time.perf_counter(), time.process_time()
    recognizer.recognize(pcm, ctx)
    wall.append(1000 * (time.perf_counter() - started))
    cpu.append(1000 * (time.process_time() - used))


def _with_stand_ins(engine: WhisperRecognizer, lang: str, folder: Path) -> Any:
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    import voice_bench as vb

    return vb.with_stand_ins(engine, "hanamikoji", lang, folder)


def main(lang: str, voice: str, enrolled: bool = False, others: Path | None = None) -> None:
    engine = WhisperRecognizer(lang=lang)
    recognizer = HanamikojiRecognizer(engine)
    engine.ready()
    folder = Path(tempfile.mkdtemp(prefix="voice-latency-"))
    speech = []
    for n, text in enumerate(TEXTS[lang]):
        path = folder / f"{n}.wav"
        subprocess.run(_synthesis(voice, text, path), check=True)
        speech.append(read_wav(path))
    beside = (HanamikojiRecognizer(_enrolled(engine, lang, voice, folder)) if enrolled
              else HanamikojiRecognizer(_with_stand_ins(engine, lang, others)) if others
              else None)
    recognizer.recognize(speech[0], CONTEXTS[0])  # the first decode warms the model
    if beside is not None:
        beside.recognize(speech[0], CONTEXTS[0])
    wall: list[float] = []
    cpu: list[float] = []
    both: list[float] = []
    both_cpu: list[float] = []
    for _ in range(2):
        for pcm, ctx in zip(speech, CONTEXTS, strict=True):
            _timed(recognizer, pcm, ctx, wall, cpu)
            if beside is not None:
                _timed(beside, pcm, ctx, both, both_cpu)
    print(f"{lang} {voice}: wall median {statistics.median(wall):.0f} ms, CPU median "
          f"{statistics.median(cpu):.0f} ms, load {os.getloadavg()[0]:.1f}")
    if beside is not None:
        print(f"{lang} {voice} {'enrolled' if enrolled else 'stand-in words'} beside "
              f"Whisper: wall median "
              f"{statistics.median(both):.0f} ms, CPU median {statistics.median(both_cpu):.0f}"
              f" ms (each decode right after Whisper alone's)")


if __name__ == "__main__":
    import argparse

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("lang", choices=sorted(TEXTS))
    parser.add_argument("voice", help="an espeak-ng, MBROLA (mb-fr2) or Pico (pico:es-ES) voice")
    parser.add_argument("--enrolled", action="store_true",
                        help="the voice enrolled first, its words beside Whisper")
    parser.add_argument("--stand-ins", type=Path, metavar="DIR",
                        help="other voices' words beside Whisper, made in or read from DIR")
    args = parser.parse_args()
    main(args.lang, args.voice, args.enrolled, args.stand_ins)
