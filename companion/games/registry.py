"""The games the companion knows: every entry point of the `companion.games` group.

A game is a plugin, declared by the package that ships it (this project declares its two
in pyproject.toml), so a third game can be installed as its own package and played
without any change here. A game's module is imported only when that game is played.
"""

from __future__ import annotations

import shlex
from functools import cache
from importlib.metadata import EntryPoint, entry_points

from companion.games.protocol import Game

GROUP = "companion.games"


@cache
def _entry_points() -> dict[str, EntryPoint]:
    return {ep.name: ep for ep in entry_points(group=GROUP)}


def game_names() -> list[str]:
    """The names of the games installed, sorted."""
    return sorted(_entry_points())


def load_game(name: str) -> Game:
    """A fresh instance of the named game's adapter (KeyError if none is installed)."""
    game: Game = _entry_points()[name].load()()
    return game


def available_games() -> list[str]:
    """Installed games whose code can be imported (a broken plugin is left out)."""
    names = []
    for name, ep in _entry_points().items():
        try:
            ep.load()
        except ImportError:
            continue
        names.append(name)
    return sorted(names)


def refresh() -> None:
    """Forget the entry points read so far (a plugin installed while running, tests)."""
    _entry_points.cache_clear()


def default_game() -> str | None:
    """The game `companion play` starts when none is named: the first installed, by name."""
    names = game_names()
    return names[0] if names else None


def resume_command(name: str, db: str | None = None) -> str:
    """The command that continues a saved game of `name` (kept in the log at `db`)."""
    words = ["companion", "play"] + ([] if name == default_game() else [name]) + ["--resume"]
    if db is not None:
        words += ["--db", shlex.quote(db)]
    return " ".join(words)

def is_loaded(name: str) -> bool:
    """Whether the named game's adapter module is imported already (asking it is free)."""
    import sys

    return _entry_points()[name].module in sys.modules
