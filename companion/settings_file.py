"""Where the settings file is: one TOML file whose tables each part of the companion owns
(`[speech]`, the chosen language, the default game). Kept apart from companion.speech so
that reading one value at start-up does not load the speech machinery."""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - exercised on 3.10 only
    import tomli as tomllib

APP_NAME = "tactile-companion"
CONFIG_ENV = "TACTILE_COMPANION_CONFIG"
CONFIG_FILE = "config.toml"


def config_path(path: str | os.PathLike[str] | None = None) -> Path:
    """The settings file: argument, else $TACTILE_COMPANION_CONFIG, else the user config dir.

    A value ending in `.toml` names the file itself; anything else names a directory that
    holds `config.toml` (so tests can point the whole app at a temporary folder).
    """
    raw = path if path is not None else os.environ.get(CONFIG_ENV)
    if raw:
        p = Path(raw).expanduser()
        return p if p.suffix == ".toml" else p / CONFIG_FILE
    import platformdirs

    return Path(platformdirs.user_config_dir(APP_NAME)) / CONFIG_FILE


def read_table(name: str) -> dict[str, Any]:
    """One table of the settings file ({} when the file or the table is missing or
    unreadable: the defaults then hold)."""
    try:
        with config_path().open("rb") as fh:
            table = tomllib.load(fh).get(name, {})
    except (OSError, ValueError):
        return {}
    return table if isinstance(table, dict) else {}
