"""The session at the table: the log is written before announcing, undo and resume are
replays, questions change nothing, junk never breaks anything."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.games.hanamikoji import Hanamikoji
from companion.games.hanamikoji.rules import Phase
from companion.games.hanamikoji.simulate import table_script
from companion.narrate.catalogue import Catalogue
from companion.output import Output
from companion.session import Session
from companion.store import GameStore

CONFIG = {"players": ["Ana", "Ben"], "rules": "iello", "lang": "en"}
ROOT = Path(__file__).resolve().parent.parent


def new_session(tmp_path: Path) -> tuple[Session, GameStore]:
    store = GameStore(tmp_path / "games.sqlite3")
    return Session(Hanamikoji(), dict(CONFIG), store), store


def test_each_step_is_in_the_file_before_it_is_announced(tmp_path):
    session, _ = new_session(tmp_path)
    session.start()
    messages = session.handle("gift flute fan tea")
    assert [m.event for m in messages][0] == "offer"
    # a second connection, as after a crash, sees the step already
    other = GameStore(tmp_path / "games.sqlite3")
    assert other.load(session.game_id).steps == ("gift flute fan tea",)


def test_refused_and_query_lines_change_nothing(tmp_path):
    session, store = new_session(tmp_path)
    session.start()
    session.handle("gift flute fan tea")
    before = session.state
    for line in ("secret", "take flower", "banana", "score", "board", "help", "actions",
                 "unseen", "repeat", "take 1 2 3", "/", "*"):
        session.handle(line)
        assert session.state == before, line
    assert store.load(session.game_id).steps == ("gift flute fan tea",)


def test_undo_walks_back_into_earlier_rounds(tmp_path):
    session, store = new_session(tmp_path)
    session.start()
    lines = table_script(4)  # a three-round game
    for line in lines[:20]:
        session.handle(line)
    assert session.state.round == 2
    states = []
    replay = Session(Hanamikoji(), dict(CONFIG))
    for line in lines[:20]:
        states.append(replay.state)
        replay.handle(line)
    for expected in reversed(states[-8:]):
        messages = session.handle("undo")
        assert messages[0].event == "undo"
        assert session.state == expected
    assert session.state.round == 1
    assert len(store.load(session.game_id).steps) == 12


def test_undo_at_the_start_says_so(tmp_path):
    session, _ = new_session(tmp_path)
    session.start()
    assert session.handle("undo")[0].key == "nothing_to_undo"


def test_repeat_re_says_without_re_emitting_events():
    session = Session(Hanamikoji(), dict(CONFIG))
    session.start()
    for line in table_script(4)[:14]:  # through the end of round 1
        session.handle(line)
    repeated = session.handle("repeat")
    assert repeated and all(m.event == "repeat" for m in repeated)
    assert any(m.key == "round_scored" for m in repeated)


def test_a_private_secret_is_never_printed(tmp_path):
    import io

    session = Session(Hanamikoji(), dict(CONFIG))
    stream = io.StringIO()
    out = Output(Catalogue("en"), stream=stream)
    out.emit(session.start())
    out.emit(session.handle("secret flower"))
    text = stream.getvalue()
    assert "Ana plays Secret" in text
    assert "flower" not in text.split("Ana plays Secret")[1].lower()
    assert session.state.players[0].secret is not None


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.text(max_size=30), min_size=1, max_size=6), st.integers(0, 13))
def test_junk_never_crashes_and_never_changes_the_state(junk, prefix):
    session = Session(Hanamikoji(), dict(CONFIG))
    session.start()
    for line in table_script(4)[:prefix]:
        session.handle(line)
    for line in junk:
        before, log = session.state, session.log
        messages = session.handle(line)
        assert messages, line
        if messages[0].event == "error" or messages[0].event in (
            "score", "board", "help", "actions", "unseen", "turn", "repeat", "prompt", "info",
            "setting",
        ):
            assert session.state == before and session.log == log, line


def _run(args: list[str], stdin: str, env: dict[str, str]) -> list[dict]:
    proc = subprocess.run([sys.executable, "-m", "companion", *args], input=stdin,
                          capture_output=True, text=True, env=env, cwd=ROOT, timeout=60)
    assert proc.returncode == 0, proc.stderr
    return [json.loads(line) for line in proc.stdout.splitlines()]


def test_killed_game_resumes_to_the_same_end(tmp_path):
    lines = table_script(9)
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    base = ["play", "--no-speech", "--json", "--lang", "en", "--players", "Ana", "Ben"]
    whole = _run([*base, "--db", str(tmp_path / "whole.db")], "\n".join(lines) + "\n", env)

    db = str(tmp_path / "killed.db")
    proc = subprocess.Popen([sys.executable, "-m", "companion", *base, "--db", db],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, env=env,
                            cwd=ROOT)
    assert proc.stdin is not None and proc.stdout is not None
    half = len(lines) // 2
    for line in lines[:half]:
        proc.stdin.write(line + "\n")
    proc.stdin.flush()
    # wait until the last line sent has been announced, then kill without warning
    deadline = time.monotonic() + 30
    announced = -1  # the game's first prompt comes before any line
    while announced < half and time.monotonic() < deadline:
        record = json.loads(proc.stdout.readline())
        if record["event"] == "prompt":
            announced += 1
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    assert announced == half

    resumed = _run([*base, "--db", db, "--resume"], "\n".join(lines[half:]) + "\n", env)
    assert resumed[0]["event"] == "resumed"
    ends = [[r for r in run if r["event"] in ("round_scored", "game_over")]
            for run in (whole, resumed)]
    assert ends[0][-1] == ends[1][-1]
    assert ends[0][-1]["event"] == "game_over"
    assert GameStore(db).last_unfinished() is None


def test_resume_says_where_the_game_stands(tmp_path):
    db = tmp_path / "g.db"
    session = Session(Hanamikoji(), dict(CONFIG), GameStore(db))
    session.start()
    for line in table_script(4)[:5]:
        session.handle(line)
    saved = GameStore(db).last_unfinished("hanamikoji")
    assert saved is not None and len(saved.steps) == 5
    again = Session(Hanamikoji(), saved.config, GameStore(db), saved.id, saved.steps)
    assert again.state == session.state
    messages = again.resume()
    assert messages[0].event == "resumed" and messages[-1].event == "prompt"
    assert again.state.phase in (Phase.ACTION, Phase.ANSWER)


def test_resume_with_nothing_saved_says_so_and_starts(tmp_path, capsys):
    from companion.cli import main

    script = tmp_path / "s.txt"
    script.write_text("", "utf-8")
    main(["play", "--resume", "--no-speech", "--lang", "en", "--db", str(tmp_path / "g.db"),
          "--script", str(script)])
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "There is no unfinished game to resume: a new game starts."
    assert lines[1].startswith("New game of Hanamikoji")


def test_a_missing_script_is_one_plain_line(tmp_path, capsys):
    from companion.cli import main

    code = main(["play", "--no-speech", "--lang", "en", "--db", str(tmp_path / "g.db"),
                 "--script", str(tmp_path / "missing.txt")])
    out = capsys.readouterr().out
    assert code == 2 and out.startswith("Cannot read the script") and "Traceback" not in out


def test_a_refused_command_line_writes_no_game(tmp_path, capsys):
    from companion.cli import main

    db = tmp_path / "g.db"
    assert main(["play", "--lang", "en", "--db", str(db), "--earbud", "plughw:1"]) == 2
    assert main(["play", "--lang", "en", "--db", str(db), "--players", "A", "B", "C"]) == 2
    assert "--earbud takes a player number" in capsys.readouterr().out
    assert GameStore(db).last_unfinished() is None
