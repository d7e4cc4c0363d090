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
from companion.narrate.catalogue import Catalogue
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


def _momiji_after(*lines: str) -> Session:
    session = Session(Momiji(), {"players": ["Ana", "Ben", "Cy"], "lang": "en"})
    session.start()
    for line in ("without red", "cool acorns torii zero placed",
                 "green 0 brown 0 violet 0 yellow 1", *lines):
        assert session.handle(line)[0].event != "error", line
    return session


def _refused(session: Session, line: str) -> str:
    before, log = session.state, session.log
    messages = session.handle(line)
    assert messages[0].event == "error", (line, messages[0])
    assert session.state == before and session.log == log
    return Catalogue("en").render(messages[0])


def test_momiji_told_numbers_are_bounded_by_what_the_game_allows():
    # The counted pile: 1 to 99 (two keypad digits, what voice hears).
    setup = _momiji_after()
    for line in ("pile 100", "pile 43907", "pile " + "9" * 900):
        assert _refused(setup, line) == ("A counted pile holds 1 to 99 cards: say its number, "
                                         "or unknown.")
    assert setup.handle("pile 99")[0].event != "error"
    # The harvest bonus: one connection per pair of neighbouring piles (3 piles: 2).
    played = _momiji_after("8", "play green 0 brown 0 yellow 0")
    for line in ("bonus 3", "bonus 43907", "bonus 0"):
        assert _refused(played, line) == ("The harvest bonus is 1 to 2 connections: one per "
                                          "pair of neighbouring piles.")
    assert played.handle("bonus 2")[0].event == "bonus"
    # A landscape's told acorns and cards: 1 to 6 at once.
    landscape = _momiji_after("8", "landscape 1")
    assert _refused(landscape, "gain 7") == "A landscape gives 1 to 6 acorns at once."
    assert _refused(landscape, "gain 43907") == "A landscape gives 1 to 6 acorns at once."
    assert _refused(landscape, "draw 7") == "A landscape draws 1 to 6 cards at once."
    assert landscape.handle("gain 6")[0].event != "error"


def test_practice_card_numbers_beyond_the_hand_say_the_range_and_never_stop_it(tmp_path):
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    lines = ["secret card 9", "secret card 999", "secret card " + "9" * 980,
             "secret card " + "9" * 4301, "secret card 1"]
    done = subprocess.run(
        [sys.executable, "-m", "companion", "practice", "--seed", "1", "--lang", "en",
         "--no-speech", "--db", str(tmp_path / "g.sqlite3")],
        input="\n".join(lines) + "\n", capture_output=True, text=True, env=env, cwd=ROOT,
        timeout=120)
    assert done.returncode == 0 and "unexpected error" not in done.stdout, done.stdout
    assert done.stdout.count("Card positions are 1 to 7.") == 3
    assert "That line is longer than 1000 characters" in done.stdout
    assert " plays Secret: one card face down." in done.stdout
