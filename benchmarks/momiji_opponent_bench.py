"""Momiji's computer players: strength and speed over seeded games, seats rotated.

Targets (issue 29): the strong level wins >= 90% of 2-player games against a uniformly
random legal player and >= 65% against the one-step greedy player (the most points at
once); in 4-player games against three random players it wins at least twice its share
(>= 50%); a decision takes <= 1 s median. A shared win counts as not won. Intervals are
Wilson's 95%. Each seed is played once per seat of the tested level (2 or 4 games), so
`--games` is rounded up to a multiple of the seats. The games do not depend on the
machine's speed (the strong budget is a number of playouts), so shards (--start, --only)
add up exactly.
Run: nice -n 10 .venv/bin/python benchmarks/momiji_opponent_bench.py [--games 200]
"""

from __future__ import annotations

import argparse
import math
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from opponent_bench import wilson  # noqa: E402  (the Wilson interval of both benches)

from companion.games.momiji.opponent import STRONG_PLAYOUTS, play_game  # noqa: E402

# (tested level, the others, players)
MATCHES = (
    ("strong", "random", 2), ("strong", "greedy", 2), ("strong", "random", 4),
    ("normal", "greedy", 2), ("easy", "random", 2), ("strong", "normal", 2),
)


def name(hero: str, villain: str, players: int) -> str:
    return f"{hero}-{villain}-{players}p"


def match(hero: str, villain: str, players: int, games: int, start: int, playouts: int,
          times: dict[bool, list[float]]) -> tuple[int, int, int, int]:
    """Seeds from `start`, each played with `hero` in every seat: wins, shared, stalled,
    games."""
    wins = shared = stalled = played = 0
    for seed in range(start, start + math.ceil(games / players)):
        for seat in range(players):
            levels = [villain] * players
            levels[seat] = hero
            result = play_game(levels, seed, playouts)
            for level, seconds, main in result.timings:
                if level == hero:
                    times[main].append(seconds)
            played += 1
            wins += result.winners == (seat,)
            shared += len(result.winners) > 1 and seat in result.winners
            stalled += result.stalled
    return wins, shared, stalled, played


def quantiles(values: list[float]) -> str:
    if not values:
        return "none"
    values = sorted(values)
    p95 = values[min(len(values) - 1, int(0.95 * len(values)))]
    return (f"{len(values)}, median {statistics.median(values):.3f} s, p95 {p95:.3f} s, "
            f"max {values[-1]:.3f} s")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200, help="games per match")
    parser.add_argument("--playouts", type=int, default=STRONG_PLAYOUTS)
    parser.add_argument("--only", choices=[name(*m) for m in MATCHES], action="append")
    parser.add_argument("--start", type=int, default=0, help="the first seed")
    args = parser.parse_args()
    for hero, villain, players in MATCHES:
        if args.only and name(hero, villain, players) not in args.only:
            continue
        times: dict[bool, list[float]] = {True: [], False: []}
        began = time.perf_counter()
        wins, shared, stalled, n = match(hero, villain, players, args.games, args.start,
                                         args.playouts, times)
        low, high = wilson(wins, n)
        print(f"| {hero} vs {villain} ({players} players) | {wins}/{n} | "
              f"{100 * wins / n:.1f}% | {100 * low:.1f}-{100 * high:.1f}% | "
              f"{shared} shared, {stalled} stalled | {time.perf_counter() - began:.0f} s |",
              flush=True)
        print(f"  {hero} decisions ({args.playouts} playouts): main actions "
              f"{quantiles(times[True])}; all {quantiles(times[True] + times[False])}",
              flush=True)


if __name__ == "__main__":
    main()
