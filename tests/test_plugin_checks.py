"""One plugin boundary with checks: a game that cannot be played is skipped everywhere
with one plain line saying why; the default game is the project's (or the player's saved
choice), never the first installed by name; the shared commands are the session's.

Each plugin here is a real distribution on the Python path of a real `companion` process
(an entry point in the `companion.games` group), built from Pebbles in a few lines.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PEBBLES = ROOT / "tests" / "plugins" / "pebbles"

VARIANTS = '''
from importlib import resources
from pathlib import Path

from companion.errors import InvalidCommand
from companion.narrate.message import Message
from pebbles.adapter import Pebbles

HERE = Path(__file__).parent


class Duel(Pebbles):  # a working game whose name comes first alphabetically
    name = "duel"

    def locales(self):
        return resources.files("pebbles").joinpath("locales")


class Broken(Pebbles):  # its own code fails as it loads
    name = "broken"

    def locales(self):
        raise RuntimeError("no folder")


class Lacking(Pebbles):  # no public_text: it would stop the program at the first undo
    name = "lacking"
    public_text = None


class Mute(Pebbles):  # its Ukrainian catalogue was left out of the package
    name = "mute"

    def locales(self):
        return HERE / "mute_locales"


class Clash(Pebbles):  # its catalogue defines a key the core's defines too
    name = "clash"

    def locales(self):
        return HERE / "clash_locales"

    def query(self, q, state, names):  # its own sentence, under the core's key
        return [Message("help", "quit_saved")] + super().query(q, state, names)

    def interpret(self, line, state, pending, lang):  # its own refusal, the core's key
        if line.strip() == "bah":
            raise InvalidCommand("not_understood", "bah is no move")
        return super().interpret(line, state, pending, lang)
'''


def install(tmp_path: Path, entries: dict[str, str]) -> dict[str, str]:
    """A Python path with Pebbles, the variants above, and a distribution declaring
    `entries` (name -> "module:Class") in the `companion.games` group; the environment
    of a `companion` process using it (its own settings and start-up cache)."""
    site = tmp_path / "site"
    site.mkdir()
    (site / "variants.py").write_text(VARIANTS, "utf-8")
    shutil.copytree(PEBBLES / "pebbles" / "locales", site / "clash_locales")
    shutil.copytree(PEBBLES / "pebbles" / "locales", site / "mute_locales")
    (site / "mute_locales" / "uk.toml").unlink()
    for lang in ("en", "fr", "es", "uk"):
        path = site / "clash_locales" / f"{lang}.toml"
        path.write_text('[messages]\nquit_saved = "Pebbles says bye."\n[messages.error]\n'
                        'not_understood = "Pebbles did not get it."\n'
                        + path.read_text("utf-8"), "utf-8")
    dist = site / "extra_games-0.1.dist-info"
    dist.mkdir()
    (dist / "METADATA").write_text("Metadata-Version: 2.1\nName: extra-games\nVersion: 0.1\n")
    lines = "".join(f"{name} = {target}\n" for name, target in entries.items())
    (dist / "entry_points.txt").write_text("[companion.games]\n" + lines)
    return {**os.environ, "PYTHONPATH": os.pathsep.join([str(site), str(PEBBLES), str(ROOT)]),
            "TACTILE_COMPANION_CACHE": str(tmp_path / "cache"),
            "TACTILE_COMPANION_CONFIG": str(tmp_path / "config"), "LANG": "en_GB.UTF-8"}


def companion(env: dict[str, str], tmp_path: Path, *args: str, lines: str = ""
              ) -> subprocess.CompletedProcess[str]:
    script = tmp_path / "lines.txt"
    script.write_text(lines, "utf-8")
    extra = ["--no-speech", "--db", str(tmp_path / "g.db"), "--script", str(script)] \
        if args and args[0] in ("play", "practice") else []
    return subprocess.run([sys.executable, "-m", "companion", *args, *extra],
                          capture_output=True, text=True, env=env, cwd=tmp_path, timeout=120)


def test_a_plugin_whose_module_is_missing_is_skipped_everywhere_with_one_line(tmp_path):
    env = install(tmp_path, {"ghost": "ghost_game.adapter:Ghost"})
    said = "The game ghost is installed but cannot be played, so it is left out: " \
           "its module ghost_game.adapter cannot be found"
    for args in (("--help",), ("play", "--lang", "en"), ("cards", "check", "--lang", "en",
                                                         "--registry", str(tmp_path / "r.json"))):
        done = companion(env, tmp_path, *args)
        assert "Traceback" not in done.stdout + done.stderr
        assert "unexpected error" not in done.stdout
        assert done.stderr.count(said) == 1, done.stderr
    assert "New game of Hanamikoji" in companion(env, tmp_path, "play", "--lang", "en").stdout


@pytest.mark.parametrize(("name", "why"), [
    ("lacking", "its adapter lacks public_text of the Game protocol"),
    ("mute", "its catalogue uk.toml is missing from"),
    ("broken", "variants:Broken fails when loaded (RuntimeError: no folder)"),
])
def test_a_plugin_that_breaks_the_protocol_is_refused_at_load_saying_why(tmp_path, name, why):
    env = install(tmp_path, {name: f"variants:{name.capitalize()}"})
    done = companion(env, tmp_path, "play", name, "--lang", "en", lines="take 2\nundo\n")
    assert done.returncode == 2
    assert "Traceback" not in done.stdout + done.stderr
    assert f"The game {name} is installed but cannot be played" in done.stderr
    assert why in done.stderr
    assert "New game" not in done.stdout


def test_a_games_catalogue_keys_are_its_own_and_never_the_cores(tmp_path):
    """Clash's catalogue defines `[messages] quit_saved`, a key the core's defines too: the
    game is played (not refused), its own message says its sentence, and the core's quit
    says the core's, with the game installed or in play."""
    env = install(tmp_path, {"clash": "variants:Clash"})
    done = companion(env, tmp_path, "play", "clash", "--lang", "en", "--players", "Ana",
                     "Ben", lines="take 2\nhelp\nquit\n")
    assert "Traceback" not in done.stdout + done.stderr and not done.stderr, done.stderr
    assert "Pebbles says bye.\nSay take and a number from 1 to 3" in done.stdout
    assert done.stdout.count("Pebbles says bye.") == 1  # the help, not the quit
    assert "The game is saved. To go on with it: " in done.stdout
    other = companion(env, tmp_path, "play", "--lang", "en", lines="quit\n")
    assert "The game is saved. To go on with it: " in other.stdout
    assert "Pebbles says bye." not in other.stdout


def test_a_games_refusal_is_said_with_its_own_catalogue_first(tmp_path):
    """A refusal the game raises under a key the core's catalogue has too is the game's
    sentence; the same key raised by another game is the core's."""
    env = install(tmp_path, {"clash": "variants:Clash"})
    done = companion(env, tmp_path, "play", "clash", "--lang", "en", "--players", "Ana",
                     "Ben", lines="bah\nquit\n")
    assert "Traceback" not in done.stdout + done.stderr and not done.stderr, done.stderr
    assert "Pebbles did not get it." in done.stdout
    assert "I did not understand, please repeat." not in done.stdout
    other = companion(env, tmp_path, "play", "hanamikoji", "--lang", "en",
                      lines="zzzz\nquit\n")
    assert "Pebbles did not get it." not in other.stdout


def test_the_default_game_is_the_projects_until_the_player_saves_another(tmp_path):
    env = install(tmp_path, {"duel": "variants:Duel"})
    first = companion(env, tmp_path, "play", "--lang", "en", lines="quit\n")
    assert first.stdout.startswith("New game of Hanamikoji")
    assert "companion play --resume" in first.stdout  # --resume means Hanamikoji's game
    chosen = companion(env, tmp_path, "play", "duel", "--remember-game", "--lang", "en",
                       "--players", "Ana", "Ben", lines="quit\n")
    assert chosen.stdout.startswith("Duel is now the game played when none is named.")
    later = companion(env, tmp_path, "play", "--lang", "en", "--players", "Ana", "Ben",
                      lines="quit\n")
    assert later.stdout.startswith("New game of Pebbles")
    assert "companion play --resume" in later.stdout
    assert "companion play hanamikoji --resume" in companion(
        env, tmp_path, "play", "hanamikoji", "--lang", "en", lines="quit\n").stdout


def test_the_shared_commands_are_read_before_the_games_words(tmp_path):
    """Pebbles' `interpret` knows only "take N": undo, questions and quit are the
    session's, whatever the game forgets."""
    env = install(tmp_path, {})
    env["PYTHONPATH"] += os.pathsep + str(tmp_path / "site")
    dist = tmp_path / "site" / "extra_games-0.1.dist-info" / "entry_points.txt"
    dist.write_text("[companion.games]\npebbles = pebbles.adapter:Pebbles\n")
    done = companion(env, tmp_path, "play", "pebbles", "--lang", "fr", "--players", "Ana",
                     "Ben", lines="prends 2\nannuler\nscore\nquitter\n")
    assert "Annulé : Ana prend 2." in done.stdout, done.stdout
    assert "Il reste 15 cailloux." in done.stdout
    assert "La partie est enregistrée." in done.stdout
