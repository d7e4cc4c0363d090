"""A game log that cannot be written is said once, plainly, and play goes on; the steps
that waited are written as soon as the log can take them. Each case is made for real: a
read-only file or folder, a full file system, a second connection holding the lock.

Root ignores file permissions, so as root a read-only file is a read-only bind mount of
it, and a read-only folder or a full disk is a small tmpfs mounted for the test; without
root, chmod makes the read-only cases and the full disk is skipped.
"""

from __future__ import annotations

import contextlib
import json
import os
import sqlite3
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from companion.games.hanamikoji import Hanamikoji
from companion.games.hanamikoji.simulate import table_script
from companion.session import Session
from companion.store import GameStore

ROOT = Path(__file__).resolve().parent.parent
CONFIG = {"players": ["Ana", "Ben"], "rules": "iello", "lang": "en"}
LINES = table_script(4)
BASE = ["play", "--no-speech", "--json", "--lang", "en", "--players", "Ana", "Ben"]
ROOT_USER = os.geteuid() == 0


def _mount(*args: str) -> None:
    proc = subprocess.run(["mount", *args], capture_output=True, text=True)
    if proc.returncode != 0:
        pytest.skip(f"cannot mount here ({proc.stderr.strip()})")


@contextlib.contextmanager
def tmpfs(folder: Path, size: str = "1m") -> Iterator[Path]:
    folder.mkdir()
    if not ROOT_USER:
        pytest.skip("mounting a small file system needs root")
    _mount("-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(folder))
    try:
        yield folder
    finally:
        subprocess.run(["umount", "-l", str(folder)], check=False)


@contextlib.contextmanager
def read_only(path: Path) -> Iterator[None]:
    """`path` (a file, or a tmpfs folder when root) cannot be written inside the block."""
    if not ROOT_USER:
        mode = path.stat().st_mode
        path.chmod(0o555 if path.is_dir() else 0o444)
        try:
            yield
        finally:
            path.chmod(mode)
        return
    if path.is_dir():  # a tmpfs of ours: remounted read-only
        _mount("-o", "remount,ro", str(path))
        try:
            yield
        finally:
            subprocess.run(["mount", "-o", "remount,rw", str(path)], check=True)
        return
    _mount("--bind", str(path), str(path))
    try:
        _mount("-o", "remount,ro,bind", str(path))
        yield
    finally:
        subprocess.run(["umount", str(path)], check=True)


def _storage(messages: list) -> list[str]:
    return [m.key for m in messages if m.event == "storage"]


def _play(db: Path, stdin: str, *extra: str) -> list[dict]:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    proc = subprocess.run([sys.executable, "-m", "companion", *BASE, "--db", str(db), *extra],
                          input=stdin, capture_output=True, text=True, env=env, cwd=ROOT,
                          timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert "unexpected error" not in proc.stdout and "Traceback" not in proc.stderr
    return [json.loads(line) for line in proc.stdout.splitlines()]


def test_a_read_only_log_is_resumed_said_once_and_completed_when_writable(tmp_path):
    db = tmp_path / "g.db"
    _play(db, "\n".join(LINES[:2]) + "\n")
    with read_only(db):
        records = _play(db, "\n".join(LINES[2:5]) + "\n", "--resume")
        assert records[0]["event"] == "resumed"  # the saved game is found
        problems = [r for r in records if r["event"] == "storage"]
        assert [r["code"] for r in problems] == ["read_only"]  # said once, at once
        assert "is read-only" in problems[0]["text"] and str(db) in problems[0]["text"]
        assert sum(r["event"] == "prompt" for r in records) == 4  # play went on
        assert "cannot be written: 3 steps" in records[-1]["text"]  # quit says what is lost
    assert GameStore(db).last_unfinished().steps == tuple(LINES[:2])


def test_a_read_only_folder_still_resumes_the_saved_game(tmp_path):
    with tmpfs(tmp_path / "disk") as folder:
        db = folder / "g.db"
        _play(db, "\n".join(LINES[:3]) + "\n")
        with read_only(folder):
            records = _play(db, LINES[3] + "\n", "--resume")
        assert records[0]["text"] == "Resuming the saved game: 3 steps played."
        problems = [r for r in records if r["event"] == "storage"]
        assert [r["code"] for r in problems] == ["folder_read_only"]
        assert "folder" in problems[0]["text"] and "--db" in problems[0]["text"]


def _session(db: Path, **store_options: float) -> Session:
    session = Session(Hanamikoji(), dict(CONFIG), GameStore(db, **store_options))
    session.start()
    return session


def test_a_full_disk_is_said_once_and_the_missed_steps_are_written_later(tmp_path):
    with tmpfs(tmp_path / "disk", size="256k") as folder:
        session = _session(folder / "g.db")
        filler = folder / "filler"
        with contextlib.suppress(OSError), filler.open("wb") as f:
            while True:  # fill the disk to the last byte
                f.write(b"\0" * 4096)
                f.flush()
        said = []
        for line in LINES[:40]:
            said += _storage(session.handle(line))
            if said:
                break
        assert said == ["storage_full"]
        written = len(GameStore(folder / "g.db").load(session.game_id).steps)
        played = len(session.log)
        for line in LINES[played:played + 2]:  # still full: not said again
            assert _storage(session.handle(line)) == []
        filler.unlink()
        messages = session.handle(LINES[played + 2])
        assert _storage(messages) == ["storage_saved_again"]
        assert messages[[m.event for m in messages].index("storage")].params["n"] == (
            played + 2 - written)
        steps = GameStore(folder / "g.db").load(session.game_id).steps
        assert steps == tuple(LINES[:played + 3])


def test_a_log_locked_by_another_program_is_said_and_caught_up(tmp_path):
    db = tmp_path / "g.db"
    session = _session(db, timeout=0.1)
    session.handle(LINES[0])
    other = sqlite3.connect(db, isolation_level=None, timeout=0.1)
    other.execute("BEGIN EXCLUSIVE")  # a second companion in the middle of a write
    first = session.handle(LINES[1])
    assert _storage(first) == ["storage_locked"] and session.state.phase.name == "ACTION"
    assert _storage(session.handle(LINES[2])) == []
    assert session.quit()[0].key == "quit_unsaved"  # 2 steps would be lost now
    other.execute("ROLLBACK")
    caught_up = session.handle(LINES[3])
    assert _storage(caught_up) == ["storage_saved_again"]
    assert GameStore(db).load(session.game_id).steps == tuple(LINES[:4])
    assert session.quit()[0].key == "quit_saved"
