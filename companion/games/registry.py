"""The games the companion knows: every entry point of the `companion.games` group.

A game is a plugin, declared by the package that ships it (this project declares its two
in pyproject.toml), so a third game can be installed as its own package and played
without any change here. A game's module is imported only when that game is played.

The group's entries are remembered between runs (companion/startcache.py) while nothing on
the Python path changes: each folder's modification time is part of the key, and
installing or removing a package changes its folder's.
"""

from __future__ import annotations

import hashlib
import os
import shlex
import sys
from functools import cache
from importlib import import_module
from typing import TYPE_CHECKING, Any

from companion import startcache

if TYPE_CHECKING:
    from companion.games.protocol import Game

GROUP = "companion.games"


def _fingerprint() -> str:
    """What the installed entry points depend on: the Python path and each folder's time."""
    parts = []
    for entry in sys.path:
        try:
            parts.append(f"{entry}\0{os.stat(entry or '.').st_mtime_ns}")
        except OSError:
            parts.append(f"{entry}\0-")
    return hashlib.sha1("\n".join(parts).encode()).hexdigest()


def _from_metadata() -> dict[str, str]:
    from importlib.metadata import entry_points

    return {ep.name: ep.value for ep in entry_points(group=GROUP)}


@cache
def _entry_points() -> dict[str, str]:
    """Game name → "module:attribute" of its adapter class."""
    return startcache.remembered("games", _fingerprint(), _from_metadata)


def _load(target: str) -> Any:
    """The object an entry point names ("package.module:Class"), as EntryPoint.load()."""
    module, _, attribute = target.partition(":")
    found: Any = import_module(module.strip())
    for part in filter(None, attribute.strip().split(".")):
        found = getattr(found, part)
    return found


def game_names() -> list[str]:
    """The names of the games installed, sorted."""
    return sorted(_entry_points())


def load_game(name: str) -> Game:
    """A fresh instance of the named game's adapter (KeyError if none is installed)."""
    try:
        adapter = _load(_entry_points()[name])
    except ImportError:  # a cache older than a change it could not see: read again
        refresh(forget_file=True)
        adapter = _load(_entry_points()[name])
    game: Game = adapter()
    return game


def available_games() -> list[str]:
    """Installed games whose code can be imported (a broken plugin is left out)."""
    names = []
    for name, target in _entry_points().items():
        try:
            _load(target)
        except ImportError:
            continue
        names.append(name)
    return sorted(names)


def refresh(forget_file: bool = False) -> None:
    """Forget the entry points read so far (a plugin installed while running, tests)."""
    _entry_points.cache_clear()
    if forget_file:
        startcache.forget("games")


def is_loaded(name: str) -> bool:
    """Whether the named game's adapter module is imported already (asking it is free)."""
    return _entry_points()[name].partition(":")[0].strip() in sys.modules


def default_game() -> str | None:
    """The game `companion play` starts when none is named: the first installed, by name."""
    names = game_names()
    return names[0] if names else None


def resume_command(name: str, db: str | None = None, command: str = "play") -> str:
    """The command that continues a saved game of `name` (kept in the log at `db`), with
    the sub-command that resumes it (`play`, `practice`); the companion named as this
    shell finds it (companion.launcher)."""
    from companion.launcher import command as companion

    words = [companion(), command] + ([] if name == default_game() else [name]) + ["--resume"]
    if db is not None:
        words += ["--db", shlex.quote(db)]
    return " ".join(words)
