"""The one play loop (companion/table.py): `practice` is `play` with seats the computer
fills, so what a table has (web pages, earbuds, voice, settings, resume) works there too."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.cli import main
from companion.computer import Computer, computer_seats
from companion.games.registry import load_game, resume_command
from companion.narrate.message import Message
from companion.session import Session

GOLDEN = Path(__file__).parent / "golden"


def run(capsys: pytest.CaptureFixture[str], *args: str) -> str:
    assert main([*args]) == 0
    return capsys.readouterr().out


def test_a_practice_game_resumed_by_play_keeps_the_computer_at_its_seat(tmp_path, capsys):
    db = str(tmp_path / "g.sqlite3")
    script = tmp_path / "s.txt"
    script.write_text("secret card 7\n", "utf-8")
    run(capsys, "practice", "--no-speech", "--db", db, "--lang", "en", "--seed", "7",
        "--script", str(script))
    script.write_text("gift card 1 card 2 card 3\n", "utf-8")
    out = run(capsys, "play", "--resume", "--no-speech", "--db", db, "--script", str(script))
    assert "Hana takes " in out  # the computer answered the gift at once
    assert "Your hand: " in out  # the lone player's hand is said again on resuming
    assert "Shuffle" not in out


def test_practice_teaches_the_command_that_resumes_it_with_the_games_name(tmp_path, capsys):
    db = tmp_path / "g.sqlite3"
    script = tmp_path / "s.txt"
    script.write_text("quit\n", "utf-8")
    out = run(capsys, "practice", "--no-speech", "--db", str(db), "--lang", "en",
              "--seed", "7", "--script", str(script))
    from companion.launcher import command

    # the companion as this shell finds it (`companion` once the set-up put it on the PATH)
    assert f"To go on with it: {command()} practice --resume --db {db}." in out
    assert resume_command("momiji", None, "practice") == (
        f"{command()} practice momiji --resume")


def test_a_spoken_setting_is_heard_in_practice_too(tmp_path, capsys):
    script = tmp_path / "s.txt"
    script.write_text("brief\nsecret card 7\n", "utf-8")
    out = run(capsys, "practice", "--no-speech", "--db", str(tmp_path / "g.sqlite3"),
              "--lang", "en", "--seed", "7", "--script", str(script))
    after = out.splitlines()[out.splitlines().index("Brief announcements.") + 1:]
    assert after[0] == "Alex: Secret."  # said briefly from then on, as at a table
    assert "Hana: Secret." in after


def test_only_the_player_hears_privately_and_a_computers_private_lines_are_dropped():
    game = load_game("hanamikoji")
    config = {"players": ["Ana", "Hana"], "lang": "en", "full_information": True,
              "practice": {"level": "normal", "seed": 7}}
    assert computer_seats(config) == (1,)
    assert computer_seats({"players": ["Ana", "Ben"]}) == ()
    computer = Computer(Session(game, config), game.practice(), (1,), 0.0, False)
    nobody = lambda seat: False  # noqa: E731
    assert computer.heard_privately(0, nobody) and not computer.heard_privately(1, nobody)
    mine, hers = Message("hand", "x", private_to=0), Message("hand", "y", private_to=1)
    assert computer.shown([mine, hers], nobody) == [Message("hand", "x")]
    assert computer.shown([mine, hers], lambda seat: seat == 0) == [mine]


def test_practice_serves_a_page_to_the_player_only_and_their_hand_goes_there(tmp_path):
    pytest.importorskip("starlette", reason="the web extra is not installed")
    from tests.webplay import Page, Play

    play = Play(tmp_path, players=("Alex",), command="practice",
                extra=("--seed", "7"))
    try:
        assert len(play.seats) == 1  # Hana, the computer, has no page
        mine, watcher = Page(play.seats[0]), Page(play.watch)
        mine.wait_view()
        watcher.wait_view()
        play.type("hand")
        play.wait_for(lambda: any("Your hand:" in line
                                  for f in mine.of("say") for line in f["lines"]))
        play.type("score")
        play.wait_for(lambda: any(line.startswith("Round 1. Alex") for line in play.lines))
    finally:
        play.quit()
    assert not any("Your hand:" in line for line in play.lines)  # the page is their channel
    heard = [line for f in watcher.of("say") + watcher.of("past") for line in f["lines"]]
    assert heard and not any("Your hand" in line or "You draw" in line for line in heard)
