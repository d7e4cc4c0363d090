"""Facts remembered between runs (companion/startcache.py): used while their key holds,
computed again when it changes, and never a reason to fail."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from companion import startcache

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture
def cache_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv(startcache.ENV, str(tmp_path / "cache"))
    return tmp_path / "cache"


def test_a_fact_is_computed_once_per_key(cache_dir: Path) -> None:
    calls: list[int] = []

    def compute() -> dict[str, int]:
        calls.append(1)
        return {"n": len(calls)}

    assert startcache.remembered("fact", "k1", compute) == {"n": 1}
    assert startcache.remembered("fact", "k1", compute) == {"n": 1}  # from the file
    assert startcache.remembered("fact", "k2", compute) == {"n": 2}  # its key changed
    assert len(calls) == 2 and (cache_dir / "start.json").is_file()


def test_an_unusable_cache_only_means_computing_again(tmp_path: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    monkeypatch.setenv(startcache.ENV, str(blocker))  # the cache folder cannot be made
    assert startcache.remembered("fact", "k", lambda: [1, 2]) == [1, 2]
    monkeypatch.setenv(startcache.ENV, str(tmp_path))
    (tmp_path / "start.json").write_text("{not json")
    assert startcache.remembered("fact", "k", lambda: "again") == "again"


def _games(path: str, cache: Path) -> str:
    code = "from companion.games.registry import game_names; print(game_names())"
    pebbles = ROOT / "tests" / "plugins" / "pebbles"  # its code; `path` may declare it
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([path, str(pebbles), str(ROOT)]),
           startcache.ENV: str(cache)}
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          env=env, check=True, cwd=ROOT).stdout


def test_a_game_installed_after_the_cache_was_written_is_found(tmp_path: Path) -> None:
    site = tmp_path / "site"
    site.mkdir()
    # An entry point of its own name: the suite also runs with the Pebbles wheel installed.
    assert "'later'" not in _games(str(site), tmp_path / "cache")
    dist = site / "later_game-0.1.dist-info"  # installing changes the folder's time
    dist.mkdir()
    (dist / "METADATA").write_text("Metadata-Version: 2.1\nName: later-game\nVersion: 0.1\n")
    (dist / "entry_points.txt").write_text(
        "[companion.games]\nlater = pebbles.adapter:Pebbles\n")
    assert "'later'" in _games(str(site), tmp_path / "cache")
