"""Speech latency benchmark: say() -> first sample handed to the player, stop() -> silence.

Runs without a sound card: the players are the in-process file sink and the paced sink
subprocess (a real process consuming audio at the sample rate, standing in for aplay).
Usage: .venv/bin/python benchmarks/speech_bench.py [--runs N]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

from companion.speech import FileSinkPlayer, Priority, Speaker, SpeechSettings, paced_sink_player
from companion.speech.synth import espeak_binary

SENTENCES = [
    ("fr", "Ana fait une offre : l'éventail, la flûte et le luth. Ben, choisis une carte."),
    ("en", "Ben plays competition: two pairs, fan and flute, tea set and flower."),
    ("es", "Ana guarda un secreto. Ben, es tu turno: roba una carta."),
    ("uk", "Раунд завершено. Ана має три гейші та дев'ять очок."),
]
LONG = "The board: " + ", ".join(["Ayane, flute, two points, nobody"] * 12) + "."


def pct(values: list[float], q: float) -> float:
    s = sorted(values)
    return s[min(len(s) - 1, round(q * (len(s) - 1)))]


def first_audio(player_factory, runs: int) -> list[float]:
    out = []
    espeak = espeak_binary()
    for i in range(runs):
        sp = Speaker(player_factory(i), lang="en", settings=SpeechSettings(), espeak=espeak)
        lang, text = SENTENCES[i % len(SENTENCES)]
        u = sp.say(text, Priority.PROMPT, kind=None, lang=lang)
        while u.first_audio_at is None and not u.wait(0.001):
            pass
        if u.first_audio_at is not None:
            out.append(u.first_audio_at - u.queued_at)
        sp.stop()
        sp.close()
    return out


def stop_to_silence_paced(tmp: Path, runs: int) -> list[float]:
    out = []
    for i in range(runs):
        f = tmp / f"stop{i}.raw"
        sp = Speaker(paced_sink_player(f), lang="en", espeak=espeak_binary())
        sp.say(LONG)
        while not (f.exists() and f.stat().st_size > 22050):  # ~0.5 s into the sentence
            time.sleep(0.005)
        t0 = time.perf_counter()
        sp.stop()  # returns once the player process is killed and reaped
        size = f.stat().st_size
        out.append(time.perf_counter() - t0)
        time.sleep(0.1)
        assert f.stat().st_size == size, "audio kept flowing after stop()"
        sp.close()
    return out


def stop_to_silence_sink(runs: int) -> list[float]:
    out = []
    for _ in range(runs):
        sink = FileSinkPlayer(realtime=True)
        sp = Speaker(sink, lang="en", espeak=espeak_binary())
        u = sp.say(LONG)
        while u.first_audio_at is None or time.perf_counter() - u.first_audio_at < 0.3:
            time.sleep(0.005)
        t0 = time.perf_counter()
        sp.stop()
        sp.wait(1)
        out.append(sink.recordings[0].closed_at - t0)
        sp.close()
    return out


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=40)
    args = ap.parse_args()
    if espeak_binary() is None:
        print("espeak-ng not installed")
        return 1
    rows = []
    with tempfile.TemporaryDirectory() as d:
        tmp = Path(d)
        rows.append(("say -> first sample, in-process sink",
                     first_audio(lambda i: FileSinkPlayer(realtime=True), args.runs)))
        rows.append(("say -> first sample, paced subprocess player",
                     first_audio(lambda i: paced_sink_player(tmp / f"fa{i}.raw"), args.runs)))
        rows.append(("stop -> silence, paced subprocess player",
                     stop_to_silence_paced(tmp, max(5, args.runs // 2))))
        rows.append(("stop -> silence, in-process realtime sink",
                     stop_to_silence_sink(max(5, args.runs // 2))))
    print(f"{'measure':48} {'n':>4} {'median ms':>10} {'p95 ms':>8} {'max ms':>8}")
    for name, vals in rows:
        ms = [v * 1000 for v in vals]
        print(f"{name:48} {len(ms):4d} {statistics.median(ms):10.1f} {pct(ms, 0.95):8.1f} "
              f"{max(ms):8.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
