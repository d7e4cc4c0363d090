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
from collections.abc import Callable
from functools import cache
from importlib import import_module
from importlib.util import find_spec
from typing import TYPE_CHECKING, Any

from companion import startcache
from companion.errors import CompanionError

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


class GameUnavailable(ImportError):
    """An installed game that cannot be played: its module is missing or does not import,
    its adapter lacks part of the `Game` protocol, or a catalogue is missing. It is skipped
    everywhere, and said once in one plain line (`on_skip`)."""

    def __init__(self, name: str, reason: str) -> None:
        super().__init__(f"the game {name} is skipped: {reason}")
        self.game, self.reason = name, reason


# Called once per skipped game with (name, reason): the CLI says it in one line.
on_skip: Callable[[str, str], None] | None = None
_skipped: dict[str, str] = {}


def skip_game(name: str, reason: str) -> GameUnavailable:
    """Skip `name` from now on, saying why once; the exception to raise where it was
    needed."""
    if name not in _skipped:
        _skipped[name] = reason
        if on_skip is not None:
            on_skip(name, reason)
    return GameUnavailable(name, reason)


def skipped() -> dict[str, str]:
    """The installed games skipped so far, with why."""
    return dict(_skipped)


def _load(target: str) -> Any:
    """The object an entry point names ("package.module:Class"), as EntryPoint.load()."""
    module, _, attribute = target.partition(":")
    found: Any = import_module(module.strip())
    for part in filter(None, attribute.strip().split(".")):
        found = getattr(found, part)
    return found


def _missing_module(target: str) -> str | None:
    """Why an entry point's module cannot be found, or None. Only its top-level package is
    looked for (which imports nothing): a game's modules are imported when it is played,
    and a module missing inside a package that exists is found then."""
    module = target.partition(":")[0].strip()
    try:
        if find_spec(module.partition(".")[0]) is not None:
            return None
    except (ImportError, ValueError) as error:
        return f"its module {module} cannot be found ({error})"
    return f"its module {module} cannot be found"


def game_names() -> list[str]:
    """The names of the games installed, sorted; a game whose module cannot be found is
    left out (and said once)."""
    names = []
    for name, target in _entry_points().items():
        if name in _skipped:
            continue
        problem = _missing_module(target)
        if problem is not None:
            skip_game(name, problem)
            continue
        names.append(name)
    return sorted(names)


def load_game(name: str) -> Game:
    """A fresh instance of the named game's adapter, checked against the `Game` protocol
    and for its four catalogues (KeyError if none is installed; GameUnavailable, said
    once, if it cannot be played)."""
    if name in _skipped:
        raise GameUnavailable(name, _skipped[name])
    target = _entry_points()[name]
    try:
        try:
            adapter = _load(target)
        except ImportError:  # a cache older than a change it could not see: read again
            refresh(forget_file=True)
            target = _entry_points()[name]
            adapter = _load(target)
    except (ImportError, AttributeError) as error:
        raise skip_game(name, f"{target} cannot be loaded ({type(error).__name__}: {error})"
                    ) from error
    try:
        game: Game = adapter()
        problem = _protocol_gap(game) or _catalogue_gap(game)
    except Exception as error:  # a plugin's own bug: skipped like any other problem
        problem = f"{target} fails when loaded ({type(error).__name__}: {error})"
    if problem is not None:
        raise skip_game(name, problem)
    _speaks_as(game, name)
    return game


# The Game methods whose Messages the game words itself (docs/plugins.md, "words out").
WORDS_OUT = ("start", "prompt", "narrate", "query", "describe", "status", "explain")
# The Game methods that read and apply what players say: a refusal they raise is the game's.
WORDS_IN = ("interpret", "parse", "apply", "pending", "fold")


def _speaks_as(game: Any, name: str) -> None:
    """Mark what the game's words-out methods return, and the refusals its words-in
    methods raise (CompanionError.game), as `name`'s own (Message.game), so that its keys
    are looked up in its catalogue first and the core's never see them."""
    from companion.narrate.message import owned

    def marked(method: Callable[..., Any]) -> Callable[..., Any]:
        return lambda *args, **kwargs: owned(method(*args, **kwargs), name)

    def refused_as(method: Callable[..., Any]) -> Callable[..., Any]:
        def reading(*args: Any, **kwargs: Any) -> Any:
            try:
                return method(*args, **kwargs)
            except CompanionError as error:
                if error.game is None:  # the game's own refusal: its sentence first
                    error.game = name
                raise
        return reading

    for method in WORDS_OUT:
        found = getattr(game, method, None)
        if callable(found):
            setattr(game, method, marked(found))
    for method in WORDS_IN:
        found = getattr(game, method, None)
        if callable(found):
            setattr(game, method, refused_as(found))


@cache
def _protocol_members() -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The `Game` protocol's attributes and methods, by name."""
    from companion.games.protocol import Game

    methods = tuple(n for n, v in vars(Game).items() if callable(v) and not n.startswith("_"))
    return tuple(Game.__annotations__), methods


def _protocol_gap(game: Any) -> str | None:
    """What the adapter lacks of the `Game` protocol, in words, or None."""
    attributes, methods = _protocol_members()
    missing = [a for a in attributes if not hasattr(game, a)]
    missing += [m for m in methods if not callable(getattr(game, m, None))]
    if not missing:
        return None
    return f"its adapter lacks {', '.join(missing)} of the Game protocol"


def _catalogue_gap(game: Any) -> str | None:
    """Which of the four catalogues the game's `locales()` folder lacks, or None."""
    from companion.narrate.catalogue import LANGUAGES

    folder = game.locales()
    missing = [f"{lang}.toml" for lang in LANGUAGES
               if folder is None or not folder.joinpath(f"{lang}.toml").is_file()]
    if not missing:
        return None
    return f"its catalogue {', '.join(missing)} is missing from {folder}"


def available_games() -> list[str]:
    """Installed games that load and pass the checks (the others are skipped, said once)."""
    names = []
    for name in game_names():
        try:
            load_game(name)
        except GameUnavailable:
            continue
        names.append(name)
    return names


def refresh(forget_file: bool = False) -> None:
    """Forget the entry points read so far (a plugin installed while running, tests)."""
    _entry_points.cache_clear()
    if forget_file:
        startcache.forget("games")


def is_loaded(name: str) -> bool:
    """Whether the named game's adapter module is imported already (asking it is free)."""
    return _entry_points()[name].partition(":")[0].strip() in sys.modules


SETTINGS_TABLE = "games"  # [games] default = "momiji" in the settings file


def default_game() -> str | None:
    """The game `companion play` starts when none is named: the player's saved choice,
    else the project's (companion/defaults.toml), else the first installed by name."""
    names = game_names()
    for name in (saved_choice(), shipped_choice()):
        if name in names:
            return name
    return names[0] if names else None


def shipped_choice() -> str | None:
    """The default game of the settings the project ships (companion/defaults.toml)."""
    from importlib import resources

    from companion.settings_file import tomllib

    text = resources.files("companion").joinpath("defaults.toml").read_text("utf-8")
    chosen = tomllib.loads(text).get(SETTINGS_TABLE, {}).get("default")
    return chosen if isinstance(chosen, str) else None


def saved_choice() -> str | None:
    """The default game the player saved in the settings file, or None."""
    from companion.settings_file import read_table

    chosen = read_table(SETTINGS_TABLE).get("default")
    return chosen if isinstance(chosen, str) else None


def save_choice(name: str) -> None:
    """Save `name` as the default game, keeping the settings file's other tables (OSError
    if the settings folder cannot be written)."""
    import tomli_w

    from companion.settings_file import config_path, tomllib

    path = config_path()
    try:
        with path.open("rb") as fh:
            doc = tomllib.load(fh)
    except (OSError, ValueError):
        doc = {}
    doc[SETTINGS_TABLE] = {**doc.get(SETTINGS_TABLE, {}), "default": name}
    path.parent.mkdir(parents=True, exist_ok=True)
    temporary = path.with_name(path.name + ".tmp")
    temporary.write_bytes(tomli_w.dumps(doc).encode("utf-8"))
    os.replace(temporary, path)


def resume_command(name: str, db: str | None = None, command: str = "play") -> str:
    """The command that continues a saved game of `name` (kept in the log at `db`), with
    the sub-command that resumes it (`play`, `practice`); the companion named as this
    shell finds it (companion.launcher)."""
    from companion.launcher import command as companion

    words = [companion(), command] + ([] if name == default_game() else [name]) + ["--resume"]
    if db is not None:
        words += ["--db", shlex.quote(db)]
    return " ".join(words)
