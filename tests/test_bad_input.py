"""Bad input, bounded: bytes that are not text, over-long lines and huge numbers are each
refused with a plain reason, change nothing, and never stop the game."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from companion.errors import LINE_CHARS
from companion.games.hanamikoji import Hanamikoji
from companion.games.momiji.adapter import Momiji
from companion.session import Session

ROOT = Path(__file__).resolve().parents[1]


def _play(stdin: bytes, tmp_path: Path, *extra: str) -> subprocess.CompletedProcess[bytes]:
    """`companion play` reading a real standard input under a UTF-8 locale (where Python
    decodes it strictly: one bad byte used to end the keyboard thread, and the game)."""
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("LC_", "PYTHONIOENCODING", "PYTHONUTF8"))}
    env.update(LC_ALL="C.UTF-8", LANG="C.UTF-8", PYTHONPATH=str(ROOT))
    return subprocess.run(
        [sys.executable, "-m", "companion", "play", "--no-speech", "--lang", "en",
         "--players", "Ana", "Ben", "--db", str(tmp_path / "g.sqlite3"), *extra],
        input=stdin, capture_output=True, env=env, cwd=ROOT, timeout=120)


def test_a_byte_that_is_not_utf8_is_refused_and_play_goes_on(tmp_path):
    done = _play(b"secr\xffet\nsecret\nquit\n", tmp_path)
    out = done.stdout.decode()
    assert done.returncode == 0, done.stderr.decode()
    assert "Traceback" not in out + done.stderr.decode()
    assert ("That line held characters that could not be read (not UTF-8 text): none of it "
            "was read. Type it again.") in out
    assert "Ana plays Secret" in out  # the next line is read as usual
    assert "The game is saved" in out


def test_an_over_long_typed_line_is_refused_unread_and_play_goes_on(tmp_path):
    done = _play(b"gift " * 200_000 + b"\nsecret\nquit\n", tmp_path)
    out = done.stdout.decode()
    assert done.returncode == 0, done.stderr.decode()
    assert (f"That line is longer than {LINE_CHARS} characters: none of it was read. "
            "Type a shorter command.") in out
    assert "Ana plays Secret" in out


@pytest.mark.parametrize("game", [Hanamikoji, Momiji])
@pytest.mark.parametrize("line", ["secret " + "x" * LINE_CHARS, "1" * 4301, "score\ufffd",
                                  "score\udcff"])
def test_each_game_refuses_the_line_before_reading_it(game, line):
    session = Session(game(), {"players": ["Ana", "Ben"], "lang": "en"})
    session.start()
    before = session.state
    messages = session.handle(line)
    assert messages[0].key in ("error.line_too_long", "error.unreadable_line")
    assert session.state == before
