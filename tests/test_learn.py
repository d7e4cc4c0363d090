"""`companion learn`: a guided practice game through the real command (the one play loop,
the computer in the other seat, the guide's lessons), in four languages: each lesson said
once, `rules` pausing on the rulebook without changing the game, a summary at the end,
and golden transcripts.

The player's lines are the moves the game's own opponent would choose for seat 0 in the
same seeded game (`player_lines`): after a deliberate change of wording or of the
opponent, `UPDATE_GOLDEN=1 pytest tests/test_learn.py` writes the scripts and
transcripts again; review the diff.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path

import pytest
from goldens import GOLDEN, matches_golden
from tables import Quiet

from companion.cli import main
from companion.cli_practice import practice_config
from companion.computer import Computer, computer_seats
from companion.games.registry import load_game
from companion.inputs.hub import InputItem
from companion.learn.guide import load_lessons
from companion.narrate.catalogue import LANGUAGES, Catalogue
from companion.session import Session
from companion.table import Table


def player_lines(game_name: str, seed: int, lang: str, asks: dict[int, str]) -> list[str]:
    """The lines of a whole seeded learn game: the player's moves chosen by the game's
    opponent for seat 0, with `asks[i]` (a question such as `rules`) typed before move i."""
    game = load_game(game_name)
    hooks = game.practice()
    catalogue = Catalogue(lang, games=(game_name,))
    args = argparse.Namespace(rules=None, seed=seed, name=None, level="easy", players=None)
    config = {**practice_config(args, game, hooks, catalogue), "learn": True}
    session = Session(game, config)
    table = Table(session, Quiet(), Computer(session, hooks, computer_seats(config), 0, False))
    table.open(False)
    lines: list[str] = []
    while not game.is_over(session.state):
        if len(lines) in asks:
            lines.append(asks[len(lines)])
        line = hooks.decide(session.state, 0, config, session.step).text()
        lines.append(line)
        assert table.play([InputItem("script", text=line)]) is False
    return lines


def learn(tmp_path: Path, capsys: pytest.CaptureFixture[str], script: Path, lang: str,
          seed: int, *extra: str, game: str = "hanamikoji") -> str:
    code = main(["learn", game, "--lang", lang, "--seed", str(seed), "--no-speech",
                 "--db", str(tmp_path / "g.sqlite3"), "--script", str(script), *extra])
    assert code == 0
    return capsys.readouterr().out


@pytest.mark.parametrize("lang", LANGUAGES)
def test_each_lesson_is_said_once_and_the_game_ends_with_a_summary(tmp_path, capsys, lang):
    lines = player_lines("hanamikoji", 21, lang, {2: "rules"})
    script = tmp_path / "learn.txt"
    script.write_text("\n".join(lines) + "\n", "utf-8")
    records = [json.loads(x) for x in learn(tmp_path, capsys, script, lang, 21, "--json")
               .splitlines()]
    said = [r["lesson"] for r in records if r["event"] == "lesson" and "lesson" in r]
    assert len(said) == len(set(said))  # each explained once
    known = [x.id for x in load_lessons("hanamikoji", lang)]
    assert set(said) <= set(known) and len(said) >= 8  # a whole game meets most steps
    assert records[0]["event"] == "lesson" and records[0]["text"]  # the guide's intro
    over = [i for i, r in enumerate(records) if r["event"] == "game_over"]
    assert len(over) == 1
    summary = records[over[0] + 1]
    assert summary["event"] == "lesson" and summary["lessons"] == said
    assert any(r["event"] == "rules" for r in records)  # rules paused on the rulebook
    assert not any(r["event"] == "error" for r in records)


def test_rules_during_a_guided_game_changes_nothing(tmp_path, capsys):
    plain = player_lines("hanamikoji", 8, "en", {})
    asked = player_lines("hanamikoji", 8, "en", {0: "rules", 3: "rules gift", 5: "rules"})
    assert [x for x in asked if not x.startswith("rules")] == plain
    a, b = tmp_path / "a.txt", tmp_path / "b.txt"
    a.write_text("\n".join(plain) + "\n", "utf-8")
    b.write_text("\n".join(asked) + "\n", "utf-8")
    (tmp_path / "one").mkdir()
    (tmp_path / "two").mkdir()
    first = learn(tmp_path / "one", capsys, a, "en", 8).splitlines()
    second = learn(tmp_path / "two", capsys, b, "en", 8).splitlines()
    # Without each answer of the rulebook, "Back to the game" and the prompt said again,
    # the second game is the first, line for line.
    kept, skip = [], 0
    for line in second:
        if line.startswith(("Rules, now:", "Gift: section")):
            skip = 3
        if skip:
            skip -= 1
            continue
        kept.append(line)
    assert len(second) == len(first) + 3 * 3
    assert kept == first


CASES = [("learn_hanamikoji_en", "en", 5), ("learn_hanamikoji_uk", "uk", 6)]


@pytest.mark.parametrize(("name", "lang", "seed"), CASES, ids=[c[0] for c in CASES])
def test_learn_session_matches_golden(tmp_path, capsys, monkeypatch, name, lang, seed):
    # the summary names `companion rules`: as on a machine set up by scripts/setup.sh, whose
    # PATH finds `companion` (elsewhere the full path is said: tests/test_resume_quit.py)
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    command = bin_dir / "companion"  # any install: this Python's companion, run by name
    command.write_text(f'#!/bin/sh\nexec "{sys.executable}" -m companion "$@"\n', "utf-8")
    command.chmod(0o755)
    monkeypatch.setenv("PATH", f"{bin_dir}{os.pathsep}{os.environ.get('PATH', '')}")
    script = GOLDEN / f"{name}.script"
    if os.environ.get("UPDATE_GOLDEN"):
        lines = player_lines("hanamikoji", seed, lang, {1: "rules", 4: "hand"})
        script.write_text("\n".join(lines) + "\n", "utf-8")
    out = learn(tmp_path, capsys, script, lang, seed)
    matches_golden(name, out)


def test_a_game_without_lessons_or_practice_is_refused_plainly(capsys):
    assert main(["learn", "hanamikoji", "--lang", "en", "--no-speech", "--level", "huge"]) == 2
    assert "huge" in capsys.readouterr().out


@pytest.mark.skipif(load_game("momiji").practice() is None,
                    reason="Momiji has no computer opponent (practice hook) here")
@pytest.mark.parametrize("lang", ["en", "fr"])
def test_a_guided_momiji_game_says_each_lesson_once(tmp_path, capsys, lang):
    lines = player_lines("momiji", 4, lang, {3: "rules"})
    script = tmp_path / "learn.txt"
    script.write_text("\n".join(lines) + "\n", "utf-8")
    records = [json.loads(x) for x in learn(tmp_path, capsys, script, lang, 4, "--json",
                                            game="momiji").splitlines()]
    said = [r["lesson"] for r in records if r["event"] == "lesson" and "lesson" in r]
    assert len(said) == len(set(said)) and len(said) >= 4
    assert set(said) <= {x.id for x in load_lessons("momiji", lang)}
    assert any(r["event"] == "rules" for r in records)
    assert any(r["event"] == "lesson" and "lessons" in r for r in records)  # the summary


def test_a_resumed_guided_game_does_not_say_its_lessons_again(tmp_path, capsys):
    """Lessons said before `--resume` are kept in the game log (a real SQLite file) and
    not said again; the summary at the end counts them."""
    lines = player_lines("hanamikoji", 21, "en", {})
    first, rest = tmp_path / "first.txt", tmp_path / "rest.txt"
    first.write_text("\n".join(lines[:6]) + "\n", "utf-8")
    rest.write_text("\n".join(lines[6:]) + "\n", "utf-8")
    before = [json.loads(x) for x in learn(tmp_path, capsys, first, "en", 21, "--json")
              .splitlines()]
    after = [json.loads(x) for x in learn(tmp_path, capsys, rest, "en", 21, "--json",
                                          "--resume").splitlines()]
    said_before = [r["lesson"] for r in before if r["event"] == "lesson" and "lesson" in r]
    said_after = [r["lesson"] for r in after if r["event"] == "lesson" and "lesson" in r]
    assert said_before and said_after
    assert not set(said_before) & set(said_after)  # none said again
    assert not any(r["event"] == "game_over" for r in before)
    assert any(r["event"] == "game_over" for r in after)  # the same game, resumed
    summary = next(r for r in after if r["event"] == "lesson" and "lessons" in r)
    assert summary["lessons"] == said_before + said_after
