"""Core figures: a typed line to its printed announcement, and start-up to the first prompt.

Targets (issue 2): line to announcement median under 5 ms; start-up under 0.5 s.
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
from companion.narrate.catalogue import Catalogue  # noqa: E402
from companion.output import Output  # noqa: E402
from companion.session import Session  # noqa: E402
from companion.simulate import table_script  # noqa: E402
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


def startup(runs: int, extra: list[str]) -> list[float]:
    """Seconds from launching `companion play` to its first printed prompt."""
    timings = []
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    with tempfile.TemporaryDirectory() as tmp:
        for i in range(runs):
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
            timings.append(time.perf_counter() - start)
            proc.stdin.close()
            proc.wait()
    return timings


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--runs", type=int, default=10)
    args = parser.parse_args()
    lines = line_latency(args.games)
    print(f"line to announcement ({len(lines)} lines, {args.games} games, SQLite log on):")
    print(f"  median {statistics.median(lines) * 1000:.2f} ms,"
          f" p95 {pct(lines, 0.95) * 1000:.2f} ms,"
          f" max {max(lines) * 1000:.2f} ms (target: median < 5 ms)")
    for label, extra in (("--no-speech", ["--no-speech"]), ("with speech", [])):
        times = startup(args.runs, extra)
        print(f"start-up to first prompt, {label} ({args.runs} runs): median "
              f"{statistics.median(times) * 1000:.0f} ms, max {max(times) * 1000:.0f} ms"
              " (target: < 500 ms)")


if __name__ == "__main__":
    main()
