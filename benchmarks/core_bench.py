"""Core figures: a typed line to its printed announcement, and start-up to the first prompt.

Targets: line to announcement median under 5 ms (issue 2); start-up to the first prompt
under 150 ms (issue 12; it was 0.5 s in issue 2).
Run: .venv/bin/python benchmarks/core_bench.py [--games N]
"""

from __future__ import annotations

import argparse
import io
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from companion.games.hanamikoji import Hanamikoji  # noqa: E402
from companion.games.hanamikoji.simulate import table_script  # noqa: E402
from companion.narrate.catalogue import Catalogue  # noqa: E402
from companion.output import Output  # noqa: E402
from companion.session import Session  # noqa: E402
from companion.store import GameStore  # noqa: E402


def pct(values: list[float], q: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))]


def line_latency(games: int) -> list[float]:
    """Seconds from a line handed to the session to its announcement printed, with the
    SQLite log written (synchronous=FULL) as in a real game."""
    timings = []
    with tempfile.TemporaryDirectory() as tmp:
        store = GameStore(Path(tmp) / "bench.sqlite3")
        for seed in range(games):
            config = {"players": ["Ana", "Ben"], "rules": "classic", "lang": "en"}
            session = Session(Hanamikoji(), config, store)
            out = Output(Catalogue("en"), stream=io.StringIO())
            out.emit(session.start())
            for line in table_script(seed):
                start = time.perf_counter()
                out.emit(session.handle(line))
                timings.append(time.perf_counter() - start)
        store.close()
    return timings


def words_per_turn(lang: str, verbosity: str, seeds: range) -> float:
    """Printed (and spoken) words per action turn over whole seeded games, scoring included."""
    words = turns = 0
    for seed in seeds:
        stream = io.StringIO()
        out = Output(Catalogue(lang, verbosity), stream=stream)
        session = Session(Hanamikoji(), {"players": ["Ana", "Ben"], "rules": "iello",
                                         "lang": lang})
        for line in table_script(seed, lang=lang):
            out.emit(session.handle(line))
        words += len(stream.getvalue().split())
        turns += sum(1 for a, _ in session.log if a.text().split()[0] in (
            "secret", "discard", "gift", "competition"))
    return words / turns


class _Recorder:
    """Wraps a Speaker to keep the utterances an announcement produced."""

    def __init__(self, speaker: object) -> None:
        self.speaker = speaker
        self.said: list = []

    def say(self, *args: object, **kw: object) -> object:
        u = self.speaker.say(*args, **kw)  # type: ignore[attr-defined]
        self.said.append(u)
        return u

    def __getattr__(self, name: str) -> object:
        return getattr(self.speaker, name)


def line_to_audio(lines_count: int) -> list[float]:
    """Seconds from a typed line to the first audio sample of its announcement, through the
    session, the catalogue and espeak-ng into a real-time sink (a sound card's pace)."""
    from companion.speech import FileSinkPlayer, SpeechSettings
    from companion.speech.speaker import Speaker
    from companion.speech.synth import espeak_binary

    timings = []
    speaker = _Recorder(Speaker(FileSinkPlayer(realtime=True), lang="en",
                                settings=SpeechSettings(earcons=False), espeak=espeak_binary()))
    out = Output(Catalogue("en"), speaker=speaker, stream=io.StringIO())
    seed = 0
    while len(timings) < lines_count:
        session = Session(Hanamikoji(), {"players": ["Ana", "Ben"], "rules": "iello",
                                         "lang": "en"})
        for line in table_script(seed):
            speaker.stop()  # a new input silences the previous announcement, as in play
            speaker.said.clear()
            start = time.perf_counter()
            out.emit(session.handle(line))
            first = speaker.said[0]
            while first.first_audio_at is None and not first.wait(0.001):
                pass
            if first.first_audio_at is not None:
                timings.append(first.first_audio_at - start)
            if len(timings) >= lines_count:
                break
        seed += 1
    speaker.close()
    return timings


def startup(runs: int, extra: list[str]) -> list[float]:
    """Seconds from launching `companion play` to its first printed prompt."""
    timings = []
    # As on a player's machine: Python keeps its compiled modules (a sandbox may say not
    # to), and one run first writes them, as the first game after installing does.
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env["PYTHONPATH"] = str(ROOT)
    with tempfile.TemporaryDirectory() as tmp:
        for i in range(-1, runs):
            start = time.perf_counter()
            proc = subprocess.Popen(
                [sys.executable, "-m", "companion", "play", "--lang", "en",
                 "--db", f"{tmp}/s{i}.db", *extra],
                stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, env=env, cwd=ROOT,
            )
            assert proc.stdout is not None and proc.stdin is not None
            for line in proc.stdout:
                if "choose an action" in line:
                    break
            if i >= 0:
                timings.append(time.perf_counter() - start)
            proc.stdin.close()
            proc.wait()
    return timings


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--runs", type=int, default=10)
    parser.add_argument("--audio-lines", type=int, default=60)
    args = parser.parse_args()
    lines = line_latency(args.games)
    print(f"line to announcement ({len(lines)} lines, {args.games} games, SQLite log on):")
    print(f"  median {statistics.median(lines) * 1000:.2f} ms,"
          f" p95 {pct(lines, 0.95) * 1000:.2f} ms,"
          f" max {max(lines) * 1000:.2f} ms (target: median < 5 ms)")
    audio = line_to_audio(args.audio_lines)
    print(f"line to first audio sample (espeak-ng, real-time sink, {len(audio)} lines):")
    print(f"  median {statistics.median(audio) * 1000:.1f} ms, p95 {pct(audio, 0.95) * 1000:.1f} ms"
          " (target: median <= 100 ms, p95 <= 200 ms)")
    print("words per action turn (whole games, scoring included):")
    for lang in ("en", "fr", "es", "uk"):
        figures = ", ".join(f"{v} {words_per_turn(lang, v, range(10)):.1f}"
                            for v in ("brief", "normal", "detailed"))
        print(f"  {lang}: {figures}")
    for label, extra in (("--no-speech", ["--no-speech"]), ("with speech", [])):
        times = startup(args.runs, extra)
        print(f"start-up to first prompt, {label} ({args.runs} runs): median "
              f"{statistics.median(times) * 1000:.0f} ms, max {max(times) * 1000:.0f} ms"
              " (target: < 150 ms, issue 12)")


if __name__ == "__main__":
    main()
