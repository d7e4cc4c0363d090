"""The one play loop (companion/table.py): `practice` is `play` with seats the computer
fills, so what a table has (web pages, earbuds, voice, settings, resume) works there too."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

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


@settings(max_examples=60, deadline=None)
@given(players=st.integers(2, 4), data=st.data())
def test_no_private_line_of_a_computer_seat_is_ever_said_and_a_persons_reaches_only_them(
        players, data):
    """Whatever the seats (people and computers) and channels, a computer's private lines
    are dropped; a person's stay private to them, or become the table's only when they are
    the only person there and have no channel of their own."""
    game = load_game("hanamikoji")
    names = ["P0", "P1", "P2", "P3"][:players]
    computers = data.draw(st.sets(st.integers(0, players - 1), max_size=players - 1))
    channels = data.draw(st.sets(st.integers(0, players - 1)))
    session = Session(game, {"players": names[:2], "lang": "en"})
    computer = Computer(session, game.practice(), tuple(computers), 0.0, False)
    # up to four seats (Momiji's), about a two-seat session: the seats are all shown() reads
    computer.people = tuple(s for s in range(players) if s not in computers)
    messages = data.draw(st.lists(st.builds(
        lambda seat, key: Message("hand", key, private_to=seat),
        st.one_of(st.none(), st.integers(0, players - 1)), st.sampled_from(["a", "b"]))))
    shown = computer.shown(messages, lambda seat: seat in channels)
    assert all(m.private_to not in computers for m in shown)
    dropped = [m for m in messages if m.private_to in computers]
    assert len(shown) == len(messages) - len(dropped)
    lone = len(computer.people) == 1 and computer.people[0] not in channels
    for before, after in zip([m for m in messages if m not in dropped], shown, strict=True):
        if before.private_to is None:
            assert after.private_to is None
        elif lone:
            assert after.private_to is None  # the shared speaker is theirs alone
        else:
            assert after.private_to == before.private_to
        assert computer.heard_privately(before.private_to or 0, lambda s: s in channels) == (
            (before.private_to or 0) not in computers
            and (len(computer.people) == 1 or (before.private_to or 0) in channels))
