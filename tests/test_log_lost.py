"""The game log never claims what it has not kept: a log deleted, replaced or overwritten
during a game is found at the next write, said once, and the whole game is written again
from memory; a log found damaged is said so with what could be read of it; the last step
and the mark that the game is over are one write. Real SQLite files, real kills."""

from __future__ import annotations

import hashlib
import json
import os
import sqlite3
import subprocess
import sys
from pathlib import Path

from companion.games.hanamikoji import Hanamikoji
from companion.games.hanamikoji.simulate import table_script
from companion.narrate.catalogue import Catalogue
from companion.session import Session
from companion.store import GameStore

ROOT = Path(__file__).resolve().parent.parent
CONFIG = {"players": ["Ana", "Ben"], "rules": "iello", "lang": "en"}
LINES = table_script(4)  # a whole game, to its end
BASE = ["play", "--no-speech", "--json", "--lang", "en", "--players", "Ana", "Ben"]
EN = Catalogue("en")


def _storage(messages: list) -> list[str]:
    return [EN.render(m) for m in messages if m.event == "storage"]


def _session(db: Path) -> Session:
    session = Session(Hanamikoji(), dict(CONFIG), GameStore(db))
    session.start()
    return session


def _files(db: Path) -> list[Path]:
    return [p for p in (db, Path(f"{db}-wal"), Path(f"{db}-shm")) if p.exists()]


def test_a_log_deleted_during_the_game_is_said_once_and_written_again_whole(tmp_path):
    db = tmp_path / "g.db"
    session = _session(db)
    for line in LINES[:6]:
        session.handle(line)
    for path in _files(db):
        path.unlink()  # the file manager, a cleaning tool, a slip
    said = _storage(session.handle(LINES[6]))
    assert said == [f"The game log {db} was deleted, replaced or damaged during the game. "
                    "I wrote the whole game again from memory, 7 steps, to "
                    f"{db}."]
    assert _storage(session.handle(LINES[7])) == []  # said once
    assert GameStore(db).last_unfinished().steps == tuple(LINES[:8])
    assert session.quit()[0].key == "quit_saved"


def test_a_log_and_its_wal_overwritten_with_junk_are_left_and_the_game_written_beside(
        tmp_path):
    db = tmp_path / "g.db"
    session = _session(db)
    for line in LINES[:5]:
        session.handle(line)
    for path in _files(db):
        if not path.name.endswith("-shm"):
            path.write_bytes(os.urandom(max(4096, path.stat().st_size)))  # same inode
    messages = session.handle(LINES[5])
    said = _storage(messages)
    assert len(said) == 1 and said[0].startswith(f"The game log {db} was deleted, replaced or "
                                                 "damaged during the game.")
    where = Path(next(m for m in messages if m.event == "storage").data["where"])
    assert where != db and where.parent == db.parent and "recovered" in where.name
    assert GameStore(where).last_unfinished().steps == tuple(LINES[:6])
    session.handle(LINES[6])
    assert GameStore(where).last_unfinished().steps == tuple(LINES[:7])
    quit_line = EN.render(session.quit()[0])
    assert quit_line.startswith("The game is saved.") and str(where) in quit_line


def _run(args: list[str], stdin: str, env: dict[str, str] | None = None) -> list[dict]:
    proc = subprocess.run([sys.executable, "-m", "companion", *args], input=stdin,
                          capture_output=True, text=True, cwd=ROOT, timeout=120,
                          env=env or {**os.environ, "PYTHONPATH": str(ROOT)})
    assert proc.returncode == 0, proc.stderr
    assert "Traceback" not in proc.stderr and "unexpected error" not in proc.stdout
    return [json.loads(line) for line in proc.stdout.splitlines()]


def test_resume_on_a_junk_log_says_it_is_damaged_and_leaves_it(tmp_path):
    db = tmp_path / "g.db"
    db.write_bytes(b"not a game log at all\n" * 300)
    before = hashlib.sha256(db.read_bytes()).hexdigest()
    records = _run([*BASE, "--db", str(db), "--resume"], LINES[0] + "\n")
    damaged = [r for r in records if r["event"] == "storage"]
    assert [r["code"] for r in damaged] == ["damaged"]
    assert damaged[0]["text"].startswith(
        f"The game log {db} is damaged, and no unfinished game could be read from it.")
    assert hashlib.sha256(db.read_bytes()).hexdigest() == before  # left as it is
    where = Path(damaged[0]["where"])
    assert GameStore(where).last_unfinished().steps == (LINES[0],)
    assert str(where) in records[-1]["text"]  # quit names where the game is


def test_resume_on_a_damaged_log_says_what_could_be_read_and_goes_on_from_there(tmp_path):
    db = tmp_path / "g.db"
    store = GameStore(db)
    for _ in range(30):  # finished games before: the file spans many pages
        game_id = store.new_game("hanamikoji", CONFIG)
        for line in LINES:
            store.append(game_id, line)
        store.finish(game_id)
    game_id = store.new_game("hanamikoji", CONFIG)
    for line in LINES[:20]:
        store.append(game_id, line)
    store.close()  # checkpointed: the whole log is in the one file
    data, page = db.read_bytes(), 4096
    for n in range(len(data) // page - 1, 1, -1):  # a page of steps, from the last one
        junk = data[:n * page + 8] + os.urandom(page - 8) + data[(n + 1) * page:]
        db.write_bytes(junk)
        if _games_readable_but_damaged(db):
            break
    else:
        raise AssertionError("no page of steps to damage")
    records = _run([*BASE, "--db", str(db), "--resume"], "")
    damaged = [r for r in records if r["event"] == "storage"]
    assert [r["code"] for r in damaged] == ["damaged"]
    text = damaged[0]["text"]
    assert text.startswith(f"The game log {db} is damaged. I could read the last unfinished "
                           "game from it, ")
    read = int(text.split("from it, ")[1].split(" step")[0])
    assert 0 <= read <= 20
    where = Path(damaged[0]["where"])
    assert GameStore(where).last_unfinished().steps == tuple(LINES[:read])


def _games_readable_but_damaged(db: Path) -> bool:
    check = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    try:
        check.execute("SELECT * FROM games").fetchall()
        return check.execute("PRAGMA quick_check").fetchone()[0] != "ok"
    except sqlite3.DatabaseError:
        return False
    finally:
        check.close()


_KILL_AT_THE_MARK = '''
import os, signal, sqlite3
_connect = sqlite3.connect
def _killing(*args, **kwargs):
    db = _connect(*args, **kwargs)
    def trace(sql):
        if sql.lstrip().upper().startswith("UPDATE GAMES SET FINISHED"):
            os.kill(os.getpid(), signal.SIGKILL)  # the power goes at the worst moment
    db.set_trace_callback(trace)
    return db
sqlite3.connect = _killing
'''


def test_a_kill_as_the_game_ends_never_leaves_a_finished_game_unmarked(tmp_path):
    """The companion is killed the moment it marks the game over: the step that ended it
    and the mark are one transaction, so the log holds both or neither."""
    hook = tmp_path / "hook"
    hook.mkdir()
    (hook / "sitecustomize.py").write_text(_KILL_AT_THE_MARK)
    db = tmp_path / "g.db"
    env = {**os.environ, "PYTHONPATH": f"{hook}{os.pathsep}{ROOT}"}
    proc = subprocess.run([sys.executable, "-m", "companion", *BASE, "--db", str(db)],
                          input="\n".join(LINES) + "\n", capture_output=True, text=True,
                          cwd=ROOT, timeout=120, env=env)
    assert proc.returncode == -9  # killed at the mark
    saved = GameStore(db).last_unfinished()
    assert saved is not None and saved.steps == tuple(LINES[:-1])  # the last step: not kept
    game = Hanamikoji()
    state = game.new_state(CONFIG)
    for text in saved.steps:
        state, _ = game.apply(state, game.parse(text))
    assert not game.is_over(state)


def test_a_game_over_found_unmarked_is_repaired_when_resumed(tmp_path):
    """A log written before the fix: the last step kept, the mark lost to a kill."""
    db = tmp_path / "g.db"
    store = GameStore(db)
    game_id = store.new_game("hanamikoji", CONFIG)
    for line in LINES:
        store.append(game_id, line)  # ... and no finish(): killed in between
    store.close()
    records = _run([*BASE, "--db", str(db), "--resume"], "")
    assert [r["code"] for r in records if r["event"] == "storage"] == ["repaired"]
    assert any(r["event"] == "repeat" and "wins" in r["text"] for r in records)  # its end
    assert GameStore(db).last_unfinished() is None
    again = _run([*BASE, "--db", str(db), "--resume"], "")
    assert again[0]["text"] == "There is no unfinished game to resume: a new game starts."
    sqlite3.connect(db).close()
