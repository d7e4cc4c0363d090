"""The games the companion knows, imported only when one is played."""

from __future__ import annotations

import shlex
from importlib import import_module
from typing import Any

DEFAULT_GAME = "hanamikoji"  # `companion play` alone
GAMES: dict[str, str] = {
    "hanamikoji": "companion.games.hanamikoji.adapter:Hanamikoji",
    "momiji": "companion.games.momiji.adapter:Momiji",
}


def load_game(name: str) -> Any:
    """An instance of the game's adapter (see companion.games.hanamikoji.Hanamikoji)."""
    module, _, cls = GAMES[name].partition(":")
    return getattr(import_module(module), cls)()


def available_games() -> list[str]:
    """Games whose code is present (a game in progress may not be there yet)."""
    names = []
    for name, target in GAMES.items():
        try:
            import_module(target.partition(":")[0])
        except ImportError:
            continue
        names.append(name)
    return names


def resume_command(name: str, db: str | None = None) -> str:
    """The command that continues a saved game of `name` (kept in the log at `db`)."""
    words = ["companion", "play"] + ([] if name == DEFAULT_GAME else [name]) + ["--resume"]
    if db is not None:
        words += ["--db", shlex.quote(db)]
    return " ".join(words)
