"""Pebbles as a real package: its wheel built (offline) from tests/plugins/pebbles, installed
with pip into a fresh virtual environment beside the project, a game played there, and a
part of this project's own suite run with it installed.

The fresh environment has no pip nor packages of its own: a .pth file gives it the
project's environment (its libraries and the project's own entry points), so that nothing
is fetched and it takes seconds; Pebbles is installed into it by pip, from the wheel only.
"""

from __future__ import annotations

import os
import subprocess
import sys
import sysconfig
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PEBBLES = ROOT / "tests" / "plugins" / "pebbles"
# Files that list, load or default games, play, practise and resume, and check plugins:
# what an installed third game could disturb (the "duel" broke 29 of them).
# (tests/test_resume_quit.py expects the `companion` script an installed project has: this
# environment reaches the project through a .pth file, so it says `python -m companion`.)
SUITE = ["tests/test_cli_help.py", "tests/test_golden.py", "tests/test_practice.py",
         "tests/test_catalogue.py", "tests/test_cards_hooks.py", "tests/test_learn.py",
         "tests/test_plugin_boundaries.py", "tests/test_table.py", "tests/test_plugin_game.py",
         "tests/test_startcache.py"]


def run(*args: str | Path, **options: object) -> subprocess.CompletedProcess[str]:
    done = subprocess.run([str(a) for a in args], capture_output=True, text=True,
                          timeout=600, **options)  # type: ignore[call-overload]
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    return done


@pytest.fixture(scope="module")
def venv(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, str]]:
    pytest.importorskip("flit_core", reason="flit_core (the test extra) builds the wheel")
    tmp = tmp_path_factory.mktemp("wheel")
    run(sys.executable, "-m", "pip", "wheel", "--no-build-isolation", "--no-deps",
        "--no-index", "--wheel-dir", tmp / "dist", PEBBLES)
    wheel = next((tmp / "dist").glob("pebbles_game-*.whl"))
    names = zipfile.ZipFile(wheel).namelist()
    assert {f"pebbles/locales/{lang}.toml" for lang in ("en", "fr", "es", "uk")} <= set(names)
    env_dir = tmp / "venv"
    run(sys.executable, "-m", "venv", "--without-pip", env_dir)
    python = env_dir / ("Scripts/python.exe" if os.name == "nt" else "bin/python")
    purelib = Path(run(python, "-c", "import sysconfig; print(sysconfig.get_path('purelib'))"
                       ).stdout.strip())
    (purelib / "project.pth").write_text(sysconfig.get_path("purelib") + "\n", "utf-8")
    run(sys.executable, "-m", "pip", "--python", python, "install", "--no-index", "--no-deps",
        "--quiet", wheel)
    env = {**os.environ, "PYTHONPATH": str(ROOT),  # this worktree's code, not an install's
           "TACTILE_COMPANION_CACHE": str(tmp / "cache"),
           "TACTILE_COMPANION_CONFIG": str(tmp / "config")}
    return python, env


def test_the_installed_wheel_plays_a_game(venv, tmp_path):
    python, env = venv
    where = run(python, "-c", "import pebbles; print(pebbles.__file__)", env=env, cwd=tmp_path)
    assert str(PEBBLES) not in where.stdout  # the installed copy, not the source folder
    script = tmp_path / "moves.txt"
    script.write_text("take 3\n3\n3\n3\n3\n", "utf-8")
    done = run(python, "-m", "companion", "play", "pebbles", "--no-speech", "--lang", "es",
               "--players", "Ana", "Ben", "--script", script, "--db", tmp_path / "g.db",
               env=env, cwd=tmp_path)
    assert "Traceback" not in done.stdout + done.stderr and not done.stderr
    lines = done.stdout.splitlines()
    assert lines[0].startswith("Nueva partida de Piedras: 15 piedras, Ana contra Ben.")
    assert lines[-1] == "Ana toma la última piedra y gana."


def test_the_projects_suite_passes_with_it_installed(venv):
    python, env = venv
    listed = run(python, "-c", "from companion.games.registry import game_names, default_game;"
                 "print(game_names(), default_game())", env=env, cwd=ROOT)
    assert listed.stdout.strip() == "['hanamikoji', 'momiji', 'pebbles'] hanamikoji"
    run(python, "-m", "pytest", "-q", "-x", "-p", "no:cacheprovider", *SUITE, "--deselect",
        "tests/test_practice.py::test_a_hint_is_the_same_whatever_the_other_players_hidden_cards",
        env=env, cwd=ROOT)  # that property is about hints, not installed games: run once
