"""The default language is the one docs/playing.md names, for a system language the
companion does not speak (a real subprocess, so the real locale lookup runs)."""

from __future__ import annotations

import io
import json
import os
import pty
import re
import subprocess
import sys
import time
import wave
from pathlib import Path

import pytest
from espeak import ESPEAK

from companion.narrate.message import Message

ROOT = Path(__file__).resolve().parent.parent
NAMES = {"French": "fr", "English": "en", "Spanish": "es", "Ukrainian": "uk"}


def system_language(**env: str) -> str:
    clean = {k: v for k, v in os.environ.items()
             if k not in ("LC_ALL", "LC_MESSAGES", "LANG", "LANGUAGE", "LC_CTYPE")}
    code = "from companion.cli import system_language; print(system_language())"
    return subprocess.run([sys.executable, "-c", code], env=clean | env, cwd=ROOT,
                          capture_output=True, text=True, check=True).stdout.strip()


def test_the_documented_default_is_the_codes():
    text = (ROOT / "docs" / "playing.md").read_text("utf-8")
    said = re.findall(r"default language is the system's .*? else (\w+)", text, re.S)
    assert len(said) == 1, "said once"
    assert system_language(LANG="de_DE.UTF-8") == NAMES[said[0]]
    assert system_language(LANG="uk_UA.UTF-8") == "uk"


def test_a_locale_that_names_no_language_means_english():
    """Servers, containers and fresh installs run with the C locale: the README is English."""
    for value in ("C", "C.UTF-8", "POSIX", "C.utf8"):
        assert system_language(LANG=value) == "en", value
    assert system_language(LC_ALL="C.UTF-8", LANG="fr_FR.UTF-8") == "en"  # LC_ALL wins
    assert system_language(LANG="fr_FR.UTF-8") == "fr"


class Terminal(io.StringIO):
    """A typed answer on a terminal: the question is asked only where a person can answer."""

    def isatty(self) -> bool:
        return True


def no_language_saved(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A fresh configuration folder and an English locale with nothing else set."""
    monkeypatch.setenv("TACTILE_COMPANION_CONFIG", str(tmp_path))
    monkeypatch.setenv("LANG", "C.UTF-8")
    for var in ("LC_ALL", "LC_MESSAGES", "LANGUAGE"):
        monkeypatch.delenv(var, raising=False)


def test_the_language_chosen_once_is_remembered(tmp_path, monkeypatch):
    from companion import language

    no_language_saved(tmp_path, monkeypatch)
    out = io.StringIO()
    assert language.default_language() == "en"
    assert language.ask_once(Terminal("3\n"), out, speak=False) == "es"  # a keypad digit
    assert "1 English, 2 français, 3 español, 4 українська" in out.getvalue()
    assert language.saved_language() == language.default_language() == "es"
    assert language.ask_once(Terminal("1\n"), io.StringIO(), speak=False) is None  # once
    assert language.default_language() == "es"
    (tmp_path / "config.toml").write_text('[speech]\nrate = 200\n[companion]\nlanguage = "uk"\n')
    assert language.default_language() == "uk"


def test_every_command_speaks_the_language_asked_else_the_one_chosen(tmp_path, monkeypatch):
    """One rule for play, practice, listen, both enrolments and the last-resort line."""
    from companion import language

    no_language_saved(tmp_path, monkeypatch)
    language.save_language("fr")
    assert language.player_language(None) == "fr"
    assert language.player_language("es") == "es"
    assert language.player_language("uk-UA") == "uk"


def test_an_answer_not_understood_is_asked_again_three_times_at_most(tmp_path, monkeypatch):
    """Nothing kept after three answers not understood, nor when the input ends: the next
    play.sh asks again."""
    from companion import language

    no_language_saved(tmp_path, monkeypatch)
    question = "Which language? 1 English, 2 français, 3 español, 4 українська."
    for answers, asked in (("9\nklingon\n7\n2\n", 3), ("9\n", 2), ("", 1)):
        out = io.StringIO()
        assert language.ask_once(Terminal(answers), out, speak=False) is None, answers
        assert out.getvalue().count(question) == asked
        assert language.saved_language() is None
    out = io.StringIO()
    assert language.ask_once(Terminal("9\nfrançais\n"), out, speak=False) == "fr"
    assert out.getvalue().count(question) == 2  # the second answer understood
    assert language.saved_language() == "fr"


def test_the_language_question_reads_digits_names_and_enter():
    from companion.language import read_choice

    assert read_choice("2", "en") == "fr"
    assert read_choice("Español", "en") == "es"
    assert read_choice("uk", "en") == "uk"
    assert read_choice("", "fr") == "fr"
    assert read_choice("9", "en") is None
    assert system_language(LANG="uk_UA.UTF-8") == "uk"


def test_default_player_names_have_no_digits():
    """"Player 1 2, Hana 0" is read "player one two": default names are names."""
    from companion.cli import main  # noqa: F401  (the catalogues of every installed game)
    from companion.narrate.catalogue import LANGUAGES, Catalogue

    for lang in LANGUAGES:
        catalogue = Catalogue(lang)
        names = [catalogue.word("words", f"player_{n}") for n in range(1, 5)]
        names.append(catalogue.word("words", "practice_opponent"))
        assert not any(c.isdigit() for name in names for c in name), (lang, names)
        assert len({n.casefold() for n in names}) == 5, (lang, names)


def _ask_on_a_terminal(tmp_path: Path, env: dict[str, str], out: Path,
                       answer: bytes | None) -> tuple[str, list[dict]]:
    """`python -m companion.language --speech-out OUT` (as scripts/play.sh runs it) on a
    pseudo-terminal; `answer` is keyed once the question has been spoken. What it printed,
    and what it said (the speech folder's index)."""
    master, slave = pty.openpty()
    proc = subprocess.Popen(
        [sys.executable, "-m", "companion.language", "--speech-out", str(out)],
        stdin=slave, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, env=env, cwd=ROOT)
    index = out / "index.jsonl"
    try:
        if answer is not None:
            deadline = time.monotonic() + 60
            while time.monotonic() < deadline and (  # the whole question, heard
                    not index.exists() or len(index.read_text("utf-8").splitlines()) < 6):
                time.sleep(0.05)
            os.write(master, answer)
        printed, _ = proc.communicate(timeout=60)
    finally:
        os.close(master)
        os.close(slave)
        if proc.poll() is None:
            proc.kill()
    said = [json.loads(line) for line in index.read_text("utf-8").splitlines()] \
        if index.exists() else []
    return printed.decode("utf-8"), said


@pytest.mark.skipif(ESPEAK is None or not hasattr(os, "openpty"),
                    reason="needs espeak-ng and pseudo-terminals")
def test_the_language_question_is_spoken_answered_by_a_keypad_digit_and_remembered(tmp_path):
    """The first play.sh on a C-locale machine: the question is heard (espeak-ng, in
    English), key 3 then Enter answers; the choice is heard in Spanish and kept, so the
    next run asks nothing and the game speaks Spanish."""
    from companion.narrate.catalogue import Catalogue

    env = {**os.environ, "PYTHONPATH": str(ROOT), "LANG": "C.UTF-8",
           "TACTILE_COMPANION_CONFIG": str(tmp_path / "config")}
    for var in ("LC_ALL", "LC_MESSAGES", "LANGUAGE"):
        env.pop(var, None)
    printed, said = _ask_on_a_terminal(tmp_path, env, tmp_path / "first", b"3\r")
    question = "Which language? 1 English, 2 français, 3 español, 4 українська."
    chosen = Catalogue("es", games=()).render(Message("setup", "language_chosen"))
    assert question in printed and chosen in printed, printed
    # each language named in its own voice (an English voice spells "українська" out)
    assert [(s["text"], s["lang"]) for s in said] == [
        ("Which language?", "en"), ("1, English", "en"), ("2, français", "fr"),
        ("3, español", "es"), ("4, українська", "uk"),
        ("Type or key its digit, then Enter; Enter alone keeps English.", "en"),
        (chosen, "es")], said
    assert len({s["voice"] for s in said}) == 4, said
    for entry in said:  # real speech, whole, not cut by the answer
        assert not entry["interrupted"] and entry["seconds"] > 0.5, entry
        with wave.open(str(tmp_path / "first" / entry["file"])) as wav:
            assert wav.getnframes() / wav.getframerate() > 0.5
    assert said[-1]["seconds"] > 2.0  # the choice said back: a whole sentence
    assert "Traceback" not in printed

    again, said_again = _ask_on_a_terminal(tmp_path, env, tmp_path / "again", None)
    assert again == "" and said_again == []  # asked once only
    script = tmp_path / "quit.txt"
    script.write_text("quit\n", "utf-8")
    game = subprocess.run(
        [sys.executable, "-m", "companion", "play", "--no-speech", "--script", str(script),
         "--db", str(tmp_path / "g.db")],
        capture_output=True, text=True, env=env, cwd=ROOT, timeout=120)
    assert game.stdout.startswith("Nueva partida de Hanamikoji"), game.stdout
