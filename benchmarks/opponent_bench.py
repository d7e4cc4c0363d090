"""The practice opponent's strength and speed: seeded games, seats alternated.

Targets (issue 15): strong wins >= 95% against a uniformly random legal player and >= 70%
against the greedy heuristic player (the `normal` level); strong beats normal, which beats
easy, by a clear margin; a strong decision takes at most 1 s median and 2 s p95.
A tie (possible under the iello rules) counts as not won. The interval is Wilson's 95%.
Run: .venv/bin/python benchmarks/opponent_bench.py [--games N] [--iterations K]
"""

from __future__ import annotations

import argparse
import math
import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from companion.games.hanamikoji.opponent import STRONG_ITERATIONS, play_game  # noqa: E402

MATCHES = (("strong", "random"), ("strong", "normal"), ("normal", "easy"), ("strong", "easy"))


def wilson(wins: int, n: int, z: float = 1.96) -> tuple[float, float]:
    if n == 0:
        return (0.0, 1.0)
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return (centre - half, centre + half)


def match(hero: str, villain: str, games: int, iterations: int,
          times: list[float], start: int = 0) -> tuple[int, int, int]:
    """`games` seeds from `start`, each played twice (hero first, then second): wins, ties,
    games."""
    wins = ties = played = 0
    for seed in range(start, start + games):
        for seat in (0, 1):
            levels = (hero, villain) if seat == 0 else (villain, hero)
            result = play_game(levels, seed, iterations=iterations)  # type: ignore[arg-type]
            times += [t for level, t in result.timings if level == "strong"]
            played += 1
            wins += result.winners == (seat,)
            ties += len(result.winners) != 1
    return wins, ties, played


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=50, help="seeds per match (x2 seats)")
    parser.add_argument("--iterations", type=int, default=STRONG_ITERATIONS)
    parser.add_argument("--only", choices=[f"{a}-{b}" for a, b in MATCHES])
    parser.add_argument("--start", type=int, default=0,
                        help="the first seed (shards of one match run in parallel)")
    args = parser.parse_args()
    times: list[float] = []
    for hero, villain in MATCHES:
        if args.only and args.only != f"{hero}-{villain}":
            continue
        wins, ties, n = match(hero, villain, args.games, args.iterations, times, args.start)
        low, high = wilson(wins, n)
        print(f"{hero} vs {villain}: {wins}/{n} won ({100 * wins / n:.1f}%, "
              f"95% CI {100 * low:.1f}-{100 * high:.1f}%), {ties} ties", flush=True)
    if times:
        times.sort()
        p95 = times[min(len(times) - 1, int(0.95 * len(times)))]
        print(f"strong decisions ({args.iterations} iterations): {len(times)}, median "
              f"{statistics.median(times):.3f} s, p95 {p95:.3f} s, max {times[-1]:.3f} s")


if __name__ == "__main__":
    main()
