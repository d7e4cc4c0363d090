"""Whisper's decode time in French or Spanish: ten clean commands (an espeak-ng, MBROLA or
Pico voice) in their contexts, each decoded twice, one at a time; prints the median wall and
CPU time per decode and the machine's load (docs/voice.md, issue 25).

    .venv/bin/python benchmarks/voice_latency.py fr mb-fr2
    .venv/bin/python benchmarks/voice_latency.py es pico:es-ES   # SVOX Pico (pico2wave)
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

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


def main(lang: str, voice: str) -> None:
    recognizer = HanamikojiRecognizer(WhisperRecognizer(lang=lang))
    recognizer.engine.ready()
    folder = Path(tempfile.mkdtemp(prefix="voice-latency-"))
    speech = []
    for n, text in enumerate(TEXTS[lang]):
        path = folder / f"{n}.wav"
        subprocess.run(_synthesis(voice, text, path), check=True)
        speech.append(read_wav(path))
    recognizer.recognize(speech[0], CONTEXTS[0])  # the first decode warms the model
    wall, cpu = [], []
    for _ in range(2):
        for pcm, ctx in zip(speech, CONTEXTS, strict=True):
            started, used = time.perf_counter(), time.process_time()
            recognizer.recognize(pcm, ctx)
            wall.append(1000 * (time.perf_counter() - started))
            cpu.append(1000 * (time.process_time() - used))
    print(f"{lang} {voice}: wall median {statistics.median(wall):.0f} ms, CPU median "
          f"{statistics.median(cpu):.0f} ms, load {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
