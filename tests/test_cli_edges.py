"""The edges of the command line: player names, and output closed early by a reader."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from companion.cli import main
from companion.store import GameStore

ROOT = Path(__file__).resolve().parents[1]

REFUSALS = {
    ("empty", "en"): "Player 2 after --players has an empty name; give each player a name.",
    ("empty", "fr"): "Le joueur 2 après --players a un nom vide ; donnez un nom à chaque joueur.",
    ("empty", "es"): "El jugador 2 tras --players tiene un nombre vacío; da un nombre a cada "
                     "jugador.",
    ("empty", "uk"): "Гравець 2 після --players має порожнє ім'я; дайте ім'я кожному гравцеві.",
    ("same", "en"): "Two players are called ana; give each player a different name after "
                    "--players.",
    ("same", "fr"): "Deux joueurs s'appellent ana ; donnez un nom différent à chaque joueur "
                    "après --players.",
    ("same", "es"): "Dos jugadores se llaman ana; da un nombre distinto a cada jugador tras "
                    "--players.",
    ("same", "uk"): "Двоє гравців мають ім'я ana; дайте кожному гравцеві інше ім'я після "
                    "--players.",
    # a name is said at every turn and shown on every web page: bounded (issue 26)
    ("long", "en"): "Player 2 after --players has a name of 41 characters; use at most 40.",
    ("long", "fr"): "Le joueur 2 après --players a un nom de 41 caractères ; 40 au plus.",
    ("long", "es"): "El jugador 2 tras --players tiene un nombre de 41 caracteres; usa como "
                    "máximo 40.",
    ("long", "uk"): "Ім'я гравця 2 після --players надто довге (символів: 41); щонайбільше "
                    "40.",
}


@pytest.mark.parametrize(("case", "lang"), sorted(REFUSALS))
def test_empty_or_repeated_player_names_are_refused_before_a_game_is_written(
        tmp_path, capsys, case, lang):
    names = {"empty": ["Ana", "   "], "same": ["Ana", " ana "], "long": ["Ana", "B" * 41]}[case]
    db = tmp_path / "g.sqlite3"
    script = tmp_path / "moves.txt"
    script.write_text("score\n", "utf-8")
    code = main(["play", "--players", *names, "--no-speech", "--lang", lang,
                 "--db", str(db), "--script", str(script)])
    assert code == 2
    assert capsys.readouterr().out.strip() == REFUSALS[case, lang]
    store = GameStore(db)
    try:
        assert store.last_unfinished("hanamikoji") is None  # nothing was started
    finally:
        store.close()


def test_names_are_kept_without_surrounding_spaces(tmp_path, capsys):
    script = tmp_path / "moves.txt"
    script.write_text("", "utf-8")
    assert main(["play", "--players", " Ana ", "Ben", "--no-speech", "--lang", "en",
                 "--db", str(tmp_path / "g.sqlite3"), "--script", str(script)]) == 0
    assert ": Ana against Ben." in capsys.readouterr().out


def test_output_closed_early_ends_quietly(tmp_path):
    """`companion play --script F | head -1`: the pipe's reader leaves after one line."""
    script = tmp_path / "moves.txt"
    script.write_text("score\n" * 3000, "utf-8")  # far more than a pipe's buffer holds
    proc = subprocess.Popen(
        [sys.executable, "-m", "companion", "play", "--no-speech", "--lang", "en",
         "--db", str(tmp_path / "g.sqlite3"), "--script", str(script)],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert proc.stdout is not None and proc.stderr is not None
    first = proc.stdout.readline()
    proc.stdout.close()
    errors = proc.stderr.read().decode()
    code = proc.wait(timeout=60)
    assert first.startswith(b"New game of Hanamikoji")
    assert errors == ""
    assert code == 1  # like a program stopped by SIGPIPE: not a success, not a traceback
