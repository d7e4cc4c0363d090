"""How long the companion talks: the seconds of speech of one scripted game, written by
`companion play --speech-out` (espeak-ng at its default rate) and summed. Hanamikoji: the
first 2 rounds of a seeded game; Momiji: a whole seeded game (3 players by default). The
figures docs/playing.md and docs/momiji.md give before and after the short prompts
(issue 28).

Usage: .venv/bin/python benchmarks/speech_length_bench.py [--game momiji] [--lang fr]
       [--verbosity normal] [--seed 3] [--players 3] [--code DIR]

`--code DIR` runs the companion from another copy of the code (e.g. the commit before a
change, unpacked with `git archive COMMIT | tar -x -C DIR`) on the same script, for a
before/after comparison; the script is always made by this copy.
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

ROOT = Path(__file__).resolve().parent.parent
NAMES = ("Ana", "Ben", "Cy", "Dan")  # names a synthesizer cannot take for numbers


def hanamikoji_script(seed: int, lang: str) -> list[str]:
    """The lines the table types in the game's first two rounds (deals are not typed)."""
    from companion.games.hanamikoji.rules import RuleSet
    from companion.games.hanamikoji.simulate import random_game, table_line

    lines = []
    for state, action in random_game(seed, RuleSet.IELLO):
        if state.round > 2:
            break
        line = table_line(action, lang)
        if line is not None:
            lines.append(line)
    return lines


def momiji_script(seed: int, players: int) -> list[str]:
    """Every line of a whole seeded game, set-up included (the canonical commands, which
    every language reads)."""
    from companion.games.momiji.simulate import table_script

    return table_script(seed, players)


def seconds(folder: Path) -> list[float]:
    """The length of each shared announcement written (private sub-folders left out)."""
    out = []
    for path in sorted(folder.glob("*.wav")):
        with wave.open(str(path)) as w:
            out.append(w.getnframes() / w.getframerate())
    return out


def measure(game: str, script: list[str], players: int, verbosity: str, lang: str,
            code: Path) -> tuple[list[float], int]:
    """The seconds of each announcement, and how many lines were refused (a script the
    code did not read as meant would measure another game)."""
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "game.txt"
        path.write_text("\n".join(script) + "\n", "utf-8")
        out = Path(tmp) / "speech"
        env = {**os.environ, "PYTHONPATH": str(code), "TACTILE_COMPANION_CONFIG": tmp}
        run = subprocess.run(
            [sys.executable, "-m", "companion", "play", game, "--lang", lang, "--players",
             *NAMES[:players], "--script", str(path), "--verbosity", verbosity, "--json",
             "--speech-out", str(out), "--db", str(Path(tmp) / "g.db")],
            check=True, env=env, cwd=code, capture_output=True, text=True, timeout=900)
        refused = run.stdout.count('"event": "error"')
        return seconds(out), refused


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", choices=["hanamikoji", "momiji"], default="hanamikoji")
    parser.add_argument("--seed", type=int, default=3)
    parser.add_argument("--players", type=int, default=3, help="Momiji: 2 to 4")
    parser.add_argument("--lang", action="append", choices=["fr", "en", "es", "uk"])
    parser.add_argument("--verbosity", action="append",
                        choices=["brief", "normal", "detailed"])
    parser.add_argument("--code", type=Path, default=ROOT,
                        help="the copy of the companion to run (default: this one)")
    args = parser.parse_args()
    players = args.players if args.game == "momiji" else 2
    for lang in args.lang or ["en"]:
        script = (momiji_script(args.seed, players) if args.game == "momiji"
                  else hanamikoji_script(args.seed, lang))
        what = "whole game" if args.game == "momiji" else "2-round game"
        print(f"{args.game}, {what}, seed {args.seed}, {players} players, {len(script)} "
              f"lines typed, language {lang}, code {args.code}")
        for verbosity in args.verbosity or ["normal", "brief"]:
            said, refused = measure(args.game, script, players, verbosity, lang, args.code)
            print(f"  {verbosity:8} {sum(said):7.1f} s of speech in {len(said)} "
                  f"announcements, median {statistics.median(said):.1f} s, longest "
                  f"{max(said):.1f} s, {refused} lines refused", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
