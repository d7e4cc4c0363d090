"""How long the companion talks: the seconds of speech of one scripted 2-round game of
Hanamikoji, written by `companion play --speech-out` (espeak-ng at its default rate) and
summed. The figure docs/playing.md gives before and after the short prompts (issue 28).

Usage: .venv/bin/python benchmarks/speech_length_bench.py [--verbosity normal] [--seed 3]
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import wave
from pathlib import Path

from companion.games.hanamikoji.rules import RuleSet
from companion.games.hanamikoji.simulate import random_game, table_line

ROOT = Path(__file__).resolve().parent.parent


def two_rounds(seed: int) -> list[str]:
    """The lines the table types in the game's first two rounds (deals are not typed)."""
    lines = []
    for state, action in random_game(seed, RuleSet.IELLO):
        if state.round > 2:
            break
        line = table_line(action)
        if line is not None:
            lines.append(line)
    return lines


def seconds(folder: Path) -> list[float]:
    """The length of each shared announcement written (private sub-folders left out)."""
    out = []
    for path in sorted(folder.glob("*.wav")):
        with wave.open(str(path)) as w:
            out.append(w.getnframes() / w.getframerate())
    return out


def measure(seed: int, verbosity: str, lang: str) -> list[float]:
    with tempfile.TemporaryDirectory() as tmp:
        script = Path(tmp) / "game.txt"
        script.write_text("\n".join(two_rounds(seed)) + "\n", "utf-8")
        out = Path(tmp) / "speech"
        env = {**os.environ, "PYTHONPATH": str(ROOT), "TACTILE_COMPANION_CONFIG": tmp}
        subprocess.run([sys.executable, "-m", "companion", "play", "--lang", lang,
                        "--players", "Ana", "Ben", "--script", str(script), "--verbosity",
                        verbosity, "--speech-out", str(out), "--db", str(Path(tmp) / "g.db")],
                       check=True, env=env, cwd=ROOT, stdout=subprocess.DEVNULL, timeout=900)
        return seconds(out)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=3)
    parser.add_argument("--lang", default="en")
    parser.add_argument("--verbosity", action="append",
                        choices=["brief", "normal", "detailed"])
    args = parser.parse_args()
    print(f"2-round game, seed {args.seed}, {len(two_rounds(args.seed))} lines typed, "
          f"language {args.lang}")
    for verbosity in args.verbosity or ["normal", "brief"]:
        said = measure(args.seed, verbosity, args.lang)
        print(f"{verbosity:8} {sum(said):7.1f} s of speech in {len(said)} announcements, "
              f"median {statistics.median(said):.1f} s, longest {max(said):.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
