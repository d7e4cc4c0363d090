"""A third game plugs in through the entry-point group alone (tests/plugins/pebbles).

The plugin is declared the way an installed package declares it: a distribution's
metadata with an entry point in the `companion.games` group, on the Python path of a real
`companion play` process. Nothing in companion/ knows its name.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PLUGINS = ROOT / "tests" / "plugins" / "pebbles"  # the project folder of the package


def declared(folder: Path, name: str) -> str:
    """A PYTHONPATH on which Pebbles's code is an installed distribution whose entry point
    is `name`."""
    dist = folder / f"{name}_game-0.1.dist-info"
    dist.mkdir()
    (dist / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {name}-game\nVersion: 0.1\n")
    (dist / "entry_points.txt").write_text(
        f"[companion.games]\n{name} = pebbles.adapter:Pebbles\n")
    return os.pathsep.join([str(folder), str(PLUGINS), str(ROOT)])


@pytest.fixture
def plugin_path(tmp_path: Path) -> str:
    """A PYTHONPATH on which Pebbles is an installed distribution with its entry point."""
    return declared(tmp_path, "pebbles")


def _play(plugin_path: str, tmp_path: Path, lines: list[str], *args: str) -> list[dict]:
    script = tmp_path / "moves.txt"
    script.write_text("\n".join(lines) + "\n", "utf-8")
    env = {**os.environ, "PYTHONPATH": plugin_path}
    done = subprocess.run(
        [sys.executable, "-m", "companion", "play", "pebbles", "--no-speech", "--json",
         "--players", "Ana", "Ben", "--script", str(script), "--db", str(tmp_path / "g.db"),
         *args],
        capture_output=True, text=True, env=env, cwd=tmp_path, timeout=60)
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stdout + done.stderr
    return [json.loads(line) for line in done.stdout.splitlines()]


def test_a_plugin_game_is_played_with_typed_words_a_keypad_line_and_a_scan(
        plugin_path: str, tmp_path: Path) -> None:
    lines = ["take 3", "2", "TC1:PB:TAKE:THREE:1", "score", "take 9", "3", "1", "3"]
    out = _play(plugin_path, tmp_path, lines, "--lang", "en", "--rules", "fifteen")
    said = [o["text"] for o in out]
    assert said[0] == ("New game of Pebbles: 15 pebbles, Ana against Ben. "
                       "Whoever takes the last one wins.")
    took = [o["text"] for o in out if o["event"] == "took"]
    assert took == ["Ana takes 3 pebbles; 12 left.", "Ben takes 2 pebbles; 10 left.",
                    "Ana takes 3 pebbles; 7 left.", "Ben takes 3 pebbles; 4 left.",
                    "Ana takes 1 pebble; 3 left.", "Ben takes 3 pebbles; 0 left."]
    assert "7 pebbles left." in said  # the shared question "score", answered by the game
    refusals = [o for o in out if o["event"] == "error"]
    assert [r["text"] for r in refusals] == ["You may take 1 to 3."]
    assert out[-1]["text"] == "Ben takes the last pebble and wins."


def test_a_plugin_game_speaks_its_own_catalogue_in_french(
        plugin_path: str, tmp_path: Path) -> None:
    out = _play(plugin_path, tmp_path, ["prends 2", "annuler"], "--lang", "fr",
                "--rules", "seven")
    said = [o["text"] for o in out]
    assert "Ana prend 2 cailloux ; il en reste 5." in said
    assert any(o["event"] == "undo" for o in out)


def test_the_plugin_is_listed_only_where_its_entry_point_is(tmp_path: Path) -> None:
    # An entry point of its own name: the suite also runs with the Pebbles wheel installed
    # (tests/test_plugin_wheel.py), where "pebbles" is listed everywhere.
    code = "from companion.games.registry import game_names; print(game_names())"
    env = {**os.environ, "PYTHONPATH": declared(tmp_path, "listed")}
    with_it = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                             env=env, check=True).stdout
    without = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                             cwd=ROOT, check=True).stdout
    assert "'listed'" in with_it and "'listed'" not in without
