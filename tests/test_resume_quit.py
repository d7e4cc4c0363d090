"""Resume, quit and new game: what a table hears when play stops and starts again."""

from __future__ import annotations

import json
import os
import shlex
import signal
import subprocess
import sys
import time
from dataclasses import replace
from pathlib import Path

import pytest

from companion.games.hanamikoji import Hanamikoji
from companion.games.hanamikoji.interpret import parse_command as hanamikoji_command
from companion.games.hanamikoji.simulate import table_script
from companion.games.momiji import Momiji
from companion.games.momiji.interpret import parse_command as momiji_command
from companion.narrate.catalogue import Catalogue
from companion.narrate.message import Priority
from companion.session import Session
from companion.shared_commands import NewGame, Quit
from companion.store import GameStore

ROOT = Path(__file__).resolve().parent.parent
GOLDEN = ROOT / "tests" / "golden"
CONFIG = {"players": ["Ana", "Ben"], "rules": "iello", "lang": "en"}
ENV = {**os.environ, "PYTHONPATH": str(ROOT)}
BASE = ["play", "--no-speech", "--json", "--lang", "en", "--players", "Ana", "Ben"]


def _texts(messages: list) -> list[str]:
    catalogue = Catalogue("en")
    return [catalogue.render(m) for m in messages if m.private_to is None]


@pytest.mark.parametrize("game", [Hanamikoji(), Momiji()], ids=["hanamikoji", "momiji"])
def test_quit_and_new_game_are_shared_commands_in_every_language(game):
    state = game.new_state({"players": ["Ana", "Ben"], "rules": game.rule_sets[0]})
    parse = hanamikoji_command if game.name == "hanamikoji" else momiji_command
    for line in ("quit", "Quitter", "salir", "вийти", "exit", "/*+"):
        assert game.interpret(line, state, None, "en") == Quit(), line
    for line in ("new game", "nouvelle partie", "Nueva partida", "нова гра", ".."):
        assert game.interpret(line, state, None, "en") == NewGame(), line
    for command in (Quit(), NewGame()):
        assert parse(command.text()) == command


def _run(args: list[str], stdin: str, env: dict[str, str] = ENV) -> list[dict]:
    proc = subprocess.run([sys.executable, "-m", "companion", *args], input=stdin,
                          capture_output=True, text=True, env=env, cwd=ROOT, timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert "Traceback" not in proc.stderr
    return [json.loads(line) for line in proc.stdout.splitlines()]


def _without_companion(env: dict[str, str]) -> dict[str, str]:
    """`env` with a PATH on which no `companion` is found (a shell after scripts/play.sh)."""
    dirs = env.get("PATH", "").split(os.pathsep)
    return {**env, "PATH": os.pathsep.join(d for d in dirs
                                          if d and not (Path(d) / "companion").exists())}


def test_quit_says_the_game_is_saved_and_how_to_resume_it(tmp_path):
    db = tmp_path / "my games.db"
    records = _run([*BASE, "--db", str(db)], "gift flute fan tea\nquitter\nscore\n",
                   _without_companion(ENV))
    assert records[-1]["event"] == "quit"  # nothing after quit is read
    # This PATH has no `companion` (as a shell after scripts/play.sh may not): the command
    # said is the one that runs this companion, and it works as said.
    here = Path(sys.executable).with_name("companion")
    assert records[-1]["text"] == (
        f"The game is saved. To go on with it: {here} play --resume --db '{db}'.")
    assert GameStore(db).last_unfinished().steps == ("gift flute fan tea",)
    said = records[-1]["text"].partition("To go on with it: ")[2].rstrip(".")
    again = subprocess.run([*shlex.split(said), "--no-speech", "--json"], input="score\n",
                           capture_output=True, text=True, env=ENV, cwd=ROOT, timeout=60)
    assert json.loads(again.stdout.splitlines()[0])["event"] == "resumed", again.stderr


def test_the_resume_command_is_companion_when_the_path_finds_it(tmp_path):
    """The set-up puts `companion` on the player's PATH (~/.local/bin): then it is named
    plainly."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    (bin_dir / "companion").symlink_to(Path(sys.executable).with_name("companion"))
    env = {**ENV, "PATH": f"{bin_dir}{os.pathsep}{ENV.get('PATH', '')}"}
    proc = subprocess.run([sys.executable, "-m", "companion", *BASE, "--db",
                           str(tmp_path / "g.db")], input="quit\n", capture_output=True,
                          text=True, env=env, cwd=ROOT, timeout=60)
    last = json.loads(proc.stdout.splitlines()[-1])
    assert last["text"].startswith("The game is saved. To go on with it: companion play ")


def test_end_of_input_says_it_too_and_names_a_game_other_than_hanamikoji(tmp_path):
    db = str(tmp_path / "g.db")
    records = _run(["play", "momiji", "--no-speech", "--json", "--lang", "en", "--players",
                    "Ana", "Ben", "--db", db], "")  # Ctrl-D at once
    assert records[-1]["event"] == "quit"
    assert f"companion play momiji --resume --db {db}." in records[-1]["text"]


def test_ctrl_c_says_the_game_is_saved(tmp_path):
    db = str(tmp_path / "g.db")
    # A shell without job control starts background commands with SIGINT ignored, and
    # Python then installs no handler: give the companion the default, as a terminal does.
    proc = subprocess.Popen([sys.executable, "-m", "companion", *BASE, "--db", db],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
                            env=ENV, cwd=ROOT,
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    assert proc.stdin is not None and proc.stdout is not None
    proc.stdin.write("gift flute fan tea\n")
    proc.stdin.flush()
    prompts, deadline = 0, time.monotonic() + 30
    while prompts < 2 and time.monotonic() < deadline:  # the first prompt, then Ben's
        prompts += json.loads(proc.stdout.readline())["event"] == "prompt"
    proc.send_signal(signal.SIGINT)
    rest = [json.loads(line) for line in proc.stdout.read().splitlines()]
    assert proc.wait(timeout=30) == 0
    assert [r["event"] for r in rest] == ["quit"]
    assert "companion play --resume" in rest[0]["text"]


def test_resume_says_again_a_step_that_was_written_but_never_announced(tmp_path):
    """The companion writes a step, then announces it: a kill between the two leaves a
    step nobody heard. Here the step is written exactly as the session writes it."""
    db = tmp_path / "g.db"
    lines = table_script(4)
    records = _run([*BASE, "--db", str(db)], "\n".join(lines[:3]) + "\n")
    heard = [r["text"] for r in records]
    store = GameStore(db)
    saved = store.last_unfinished()
    store.append(saved.id, lines[3])  # written, then killed before the announcement
    store.close()
    whole = Session(Hanamikoji(), dict(CONFIG))
    for line in lines[:3]:
        whole.handle(line)
    never_heard = _texts(whole.handle(lines[3]))[:-1]  # its narration, without the prompt
    assert not set(never_heard) & set(heard)
    resumed = _run([*BASE, "--db", str(db), "--resume"], "")
    texts = [r["text"] for r in resumed]
    assert resumed[0]["event"] == "resumed"
    start = texts.index("The last step, said again:")
    assert texts[start + 1:start + 1 + len(never_heard)] == never_heard
    assert {r["event"] for r in resumed[start + 1:start + 1 + len(never_heard)]} == {"repeat"}
    prompt = [r for r in resumed if r["event"] == "prompt"]
    # a resumed game is said in full again, once (the live table had heard it short)
    assert prompt[-1]["text"] == _texts([replace(m, short=False)
                                         for m in whole.handle("what")])[-1]


def test_back_and_forward_survive_a_resume(tmp_path):
    db = tmp_path / "g.db"
    live = Session(Hanamikoji(), dict(CONFIG), GameStore(db))
    live.start()
    for line in table_script(4)[:9]:
        live.handle(line)
    saved = GameStore(db).last_unfinished()
    again = Session(Hanamikoji(), saved.config, GameStore(db), saved.id, saved.steps)
    again.resume()
    # After a resume, the first back is the last step heard live (what `repeat` says
    # there), and each further back steps one more into the past, as live. (An earlier
    # announcement is said with how far back it is, one more after a resume, and without
    # its prompt, which is not waiting any more.)
    def content(messages: list) -> list[str]:
        return _texts([m for m in messages if m.key != "earlier"
                       and m.priority is not Priority.PROMPT])

    assert content(again.handle("back")) == content(live.handle("repeat"))
    for _ in range(4):
        assert content(again.handle("back")) == content(live.handle("back"))
    assert content(again.handle("forward")) == content(live.handle("forward"))


def test_new_game_after_game_over_keeps_players_and_settings(tmp_path):
    store = GameStore(tmp_path / "g.db")
    config = {**CONFIG, "rules": "classic"}
    session = Session(Hanamikoji(), dict(config), store)
    session.start()
    lines = table_script(4)
    for line in lines[:5]:
        session.handle(line)
    before, first_id = session.state, session.game_id
    refused = session.handle("new game")  # not before game over
    assert refused[0].key == "error.new_game_later" and session.state == before
    for line in lines[5:]:
        session.handle(line)
    assert session.state.over
    messages = session.handle("..")  # the keypad's dot twice
    assert messages[0].key == "game_start"
    assert session.state == Session(Hanamikoji(), dict(config)).state and not session.log
    assert session.game_id != first_id
    assert store.load(first_id).finished
    fresh = store.last_unfinished()
    assert fresh.id == session.game_id and fresh.config == config and fresh.steps == ()
    session.handle(lines[0])
    assert store.load(session.game_id).steps == (lines[0],)


def test_momiji_new_game_after_game_over(tmp_path):
    store = GameStore(tmp_path / "g.db")
    session = Session(Momiji(), {"players": ["Ana", "Ben", "Cy"], "lang": "en"}, store)
    session.start()
    for line in (GOLDEN / "momiji_en.txt").read_text("utf-8").splitlines():
        if line.strip() and not line.startswith("#"):
            session.handle(line)
    assert session.state.over
    session.handle("nouvelle partie")
    assert not session.state.over and not session.log
    assert store.load(session.game_id).config["players"] == ["Ana", "Ben", "Cy"]


def test_every_sentence_naming_a_command_says_the_one_that_works():
    """A sentence that tells the player to run the companion names it through
    {companion} (the launcher: `companion` when the shell finds it, else its full path),
    never a bare `companion ...` a shell after scripts/play.sh may not know (issue 28)."""
    import re
    from importlib import resources

    bare = re.compile(r"(?<![{\w/-])companion (play|practice|rules|cards|learn|voice-enroll|"
                      r"listen|stickers|readers)\b")
    roots = [resources.files("companion") / "locales",
             *(resources.files("companion") / "games" / g / "locales"
               for g in ("hanamikoji", "momiji"))]
    found = []
    for root in roots:
        for path in Path(str(root)).rglob("*.toml"):
            for number, line in enumerate(path.read_text("utf-8").splitlines(), start=1):
                if not line.lstrip().startswith("#") and bare.search(line):
                    found.append(f"{path.name}:{number}")
    assert not found, found
