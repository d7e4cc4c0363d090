"""The last resort of `companion`: a command stopped by an error nobody foresaw says so in
one plain line, with the error's type and text, in the player's language (--lang, else the
one chosen on this machine), aloud where the command speaks, and never with a traceback.

The failure is real: a `sitecustomize` on PYTHONPATH makes the table raise in a real
`companion play` process, as a bug would."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import wave
from pathlib import Path

import pytest
from espeak import ESPEAK

from companion import cli

ROOT = Path(__file__).resolve().parent.parent
FAILING = """
import os
import companion.table

def run_table(*args, **kwargs):
    raise RuntimeError("le disque est parti")

companion.table.run_table = run_table
if os.environ.get("BREAK_CATALOGUE"):  # the catalogue itself fails too
    import companion.narrate.catalogue

    def render(self, message):
        raise KeyError(message.key)

    companion.narrate.catalogue.Catalogue.render = render
"""
FRENCH = ("Le compagnon s'est arrêté sur une erreur inattendue (RuntimeError: le disque est "
          "parti). Chaque coup accepté est enregistré : relancez-le avec --resume.")
ENGLISH = ("The companion stopped on an unexpected error (RuntimeError: le disque est parti). "
           "Every accepted step is saved: run it again with --resume.")


def failing_play(tmp_path: Path, *args: str, **env: str) -> subprocess.CompletedProcess[str]:
    """`companion play` whose table fails, with French chosen once on this machine and an
    English system locale (so French can only come from the saved choice)."""
    hooks = tmp_path / "hooks"
    hooks.mkdir(exist_ok=True)
    (hooks / "sitecustomize.py").write_text(FAILING, "utf-8")
    config = tmp_path / "config"
    config.mkdir(exist_ok=True)
    (config / "config.toml").write_text('[companion]\nlanguage = "fr"\n', "utf-8")
    clean = {k: v for k, v in os.environ.items()
             if k not in ("TACTILE_COMPANION_DEBUG", "LC_ALL", "LC_MESSAGES", "LANGUAGE")}
    env = {**clean, "PYTHONPATH": f"{hooks}{os.pathsep}{ROOT}", "LANG": "C.UTF-8",
           "TACTILE_COMPANION_CONFIG": str(config), **env}
    return subprocess.run([sys.executable, "-m", "companion", "play", "hanamikoji",
                           "--db", str(tmp_path / "g.db"), *args],
                          input="", capture_output=True, text=True, env=env, cwd=tmp_path,
                          timeout=120)


def said(done: subprocess.CompletedProcess[str]) -> str:
    assert done.returncode == 1, done.stderr
    assert "Traceback" not in done.stdout + done.stderr, done.stderr
    lines = done.stdout.splitlines()
    assert len(lines) == 1, done.stdout  # one plain line
    return lines[0]


def test_the_stop_is_said_in_the_language_chosen_on_this_machine(tmp_path):
    assert said(failing_play(tmp_path, "--no-speech")) == FRENCH


def test_the_stop_is_said_in_the_language_given_on_the_command_line(tmp_path):
    assert said(failing_play(tmp_path, "--no-speech", "--lang", "en")) == ENGLISH


def test_a_broken_catalogue_still_leaves_the_english_line(tmp_path):
    assert said(failing_play(tmp_path, "--no-speech", BREAK_CATALOGUE="1")) == ENGLISH


@pytest.mark.skipif(ESPEAK is None, reason="espeak-ng is not installed")
def test_where_the_command_speaks_the_stop_is_heard_too(tmp_path):
    out = tmp_path / "speech"
    assert said(failing_play(tmp_path, "--speech-out", str(out))) == FRENCH
    spoken = sorted(out.rglob("*.wav"))
    assert len(spoken) == 1, spoken  # the stop alone: nothing else was said
    with wave.open(str(spoken[0])) as wav:
        assert wav.getnframes() / wav.getframerate() > 3  # a whole sentence, not a click
    # Aloud, the error's type alone: its text is the program's words, which may hold a card
    # of a player's hand, and the speaker is the whole table's.
    aloud = json.loads((out / "index.jsonl").read_text("utf-8"))["text"]
    assert aloud == FRENCH.replace("RuntimeError: le disque est parti", "RuntimeError")


def test_a_command_without_resume_does_not_promise_it(tmp_path, monkeypatch, capsys):
    """`companion listen` keeps no game: run it again, and report the line if it recurs."""
    def run(args):
        raise OSError("plus de place")

    monkeypatch.delenv("TACTILE_COMPANION_DEBUG", raising=False)
    monkeypatch.setattr("companion.voice.cli.run", run)
    assert cli.main(["listen", "--file", str(tmp_path / "a.wav"), "--lang", "fr"]) == 1
    out = capsys.readouterr()
    assert out.out == ("Le compagnon s'est arrêté sur une erreur inattendue (OSError: plus de "
                       "place). Relancez-le ; s'il s'arrête encore, signalez cette ligne.\n")
    assert "--resume" not in out.out and "Traceback" not in out.err
