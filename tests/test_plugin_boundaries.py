"""A game is a plugin: nothing outside companion/games/<game>/ imports it or names it.

The scan reads every Python module of the core (companion/, hardware/, stickers/) and
each game's folder, and reports any import of a game's package, or any mention of a game
by name in code (strings and identifiers; comments and docstrings may speak of games).
"""

from __future__ import annotations

import ast
import io
import tokenize
from pathlib import Path

import pytest

from companion.games.registry import game_names

ROOT = Path(__file__).resolve().parents[1]
GAMES_DIR = ROOT / "companion" / "games"
GAMES = game_names()


def _modules() -> list[Path]:
    paths: list[Path] = []
    for package in ("companion", "hardware", "stickers"):
        paths += sorted((ROOT / package).rglob("*.py"))
    return paths


def _owner(path: Path) -> str | None:
    """The game whose folder holds `path`, or None for the core."""
    try:
        parts = path.relative_to(GAMES_DIR).parts
    except ValueError:
        return None
    return parts[0] if len(parts) > 1 and parts[0] in GAMES else None


def _docstrings(tree: ast.AST) -> set[int]:
    """Line numbers of docstrings (prose may name a game)."""
    lines: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            body = getattr(node, "body", [])
            if body and isinstance(body[0], ast.Expr) and isinstance(
                    getattr(body[0], "value", None), ast.Constant) and isinstance(
                    body[0].value.value, str):
                lines.update(range(body[0].lineno, (body[0].end_lineno or body[0].lineno) + 1))
    return lines


def offences(path: Path, games: list[str]) -> list[str]:
    """Each place in `path` that imports or names a game other than its owner."""
    source = path.read_text("utf-8")
    owner = _owner(path)
    shown = path.relative_to(ROOT) if path.is_relative_to(ROOT) else path
    others = [g for g in games if g != owner]
    found: list[str] = []
    tree = ast.parse(source)
    for node in ast.walk(tree):
        names: list[str] = []
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module:
            names = [node.module] + [f"{node.module}.{a.name}" for a in node.names]
        for name in names:
            if any(f"games.{g}" in name for g in others):
                found.append(f"{shown}:{node.lineno} imports {name}")
    skip = _docstrings(tree)
    for tok in tokenize.generate_tokens(io.StringIO(source).readline):
        if tok.type not in (tokenize.NAME, tokenize.STRING) or tok.start[0] in skip:
            continue
        text = tok.string.lower()
        for g in others:
            if g in text:
                found.append(f"{shown}:{tok.start[0]} names {g}: {tok.string}")
    return found


def test_the_scan_finds_an_import_and_a_name(tmp_path: Path) -> None:
    fake = tmp_path / "mod.py"
    fake.write_text('"""Speaks of momiji."""\nimport companion.games.momiji.rules\n'
                    'X = "momiji"  # momiji\n', "utf-8")
    found = offences(fake, ["momiji"])
    assert any(":2 imports companion.games.momiji.rules" in f for f in found), found
    assert any(':3 names momiji: "momiji"' in f for f in found), found
    assert not any(":1 " in f for f in found), found  # the docstring may speak of it


@pytest.mark.parametrize("package", ["companion", "hardware", "stickers"])
def test_no_module_outside_a_game_imports_or_names_it(package: str) -> None:
    assert len(GAMES) >= 2, "the games are declared as entry points (pip install -e .)"
    found = [o for p in _modules() if p.is_relative_to(ROOT / package)
             for o in offences(p, GAMES)]
    assert not found, "\n".join(found)


def test_every_installed_game_offers_what_the_protocol_names() -> None:
    from companion.games.protocol import Game
    from companion.games.registry import load_game

    members = [m for m in vars(Game) if not m.startswith("_")]
    members += list(Game.__annotations__)
    for name in GAMES:
        game = load_game(name)
        missing = [m for m in members if not hasattr(game, m)]
        assert not missing, f"{name} lacks {missing}"
        assert game.name == name and game.rule_sets and game.players[0] <= game.players[1]
        assert game.legal_actions(game.new_state({"players": ["A", "B", "C"][
            :game.players[0]]})) is not None


def test_play_without_a_reader_or_keypad_does_not_import_the_hardware_package() -> None:
    import subprocess
    import sys

    code = (
        "import sys, argparse\n"
        "from companion.inputs.devices import attach_devices\n"
        "from companion.inputs.hub import InputHub\n"
        "args = argparse.Namespace(reader=None, reader_protocol=None, keypad=None)\n"
        "print(attach_devices(InputHub(), args, print), 'hardware' in sys.modules)\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=True, cwd=ROOT)
    assert done.stdout.split() == ["None", "False"]
