"""Why speech or an earbud cannot start is said first, with what to do, in play and in
practice alike; the game's prompt stays the last thing heard (issue 28)."""

from __future__ import annotations

import pytest

from companion.cli import main
from companion.narrate.catalogue import LANGUAGES, Catalogue
from companion.setup_notices import speech_problems
from companion.speech import NO_AUDIO, NO_ESPEAK
from companion.speech.backend import _private_missing


@pytest.mark.parametrize("command", ["play", "practice"])
def test_without_espeak_ng_both_commands_say_why_and_what_to_do(tmp_path, capsys,
                                                                  monkeypatch, command):
    monkeypatch.setenv("PATH", str(tmp_path))  # a machine without espeak-ng
    script = tmp_path / "lines.txt"
    script.write_text("score\n", "utf-8")
    args = ["--players", "Ana", "Ben"] if command == "play" else ["--seed", "3"]
    assert main([command, "--lang", "en", *args, "--script", str(script),
                 "--db", str(tmp_path / "g.sqlite3")]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert "espeak-ng is not installed" in lines[0] and "scripts/setup.sh" in lines[0]
    assert lines[1].startswith("New game of Hanamikoji")  # said before the game, once
    assert sum("espeak-ng" in line for line in lines) == 1


def test_each_problem_is_its_own_sentence_in_every_language():
    names = ("Ana", "Ben")
    for lang in LANGUAGES:
        catalogue = Catalogue(lang)
        said = {catalogue.render(m) for notice in (NO_AUDIO, NO_ESPEAK)
                for m in speech_problems(notice, names)}
        assert len(said) == 2, said
        earbud = catalogue.render(speech_problems(_private_missing("player:1", "plughw:7"),
                                                  names)[0])
        assert "plughw:7" in earbud and "Ben" in earbud and "--earbud" in earbud
        # an earbud that cannot play is not "no voice at all"
        assert earbud not in said
    assert speech_problems(None, names) == []


@pytest.mark.parametrize("command", [["rules", "hanamikoji"], ["stickers", "quiz"]])
def test_the_spoken_tools_say_too_why_speech_cannot_start(tmp_path, capsys, monkeypatch,
                                                          command):
    """The rulebook and the sticker quiz, spoken like play, say first why they only print."""
    monkeypatch.setenv("PATH", str(tmp_path))  # a machine without espeak-ng
    script = tmp_path / "lines.txt"
    script.write_text("quit\n", "utf-8")
    assert main([*command, "--lang", "en", "--script", str(script)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert "espeak-ng is not installed" in lines[0] and "scripts/setup.sh" in lines[0]
    assert sum("espeak-ng" in line for line in lines) == 1
