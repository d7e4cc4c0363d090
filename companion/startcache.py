"""Facts read from installed packages, kept between runs so that start-up stays quick.

Reading the games' entry points imports `importlib.metadata` (about 20 ms) and Babel's
plural rules load a whole CLDR locale (about 13 ms): together a quarter of the start-up
to the first prompt. Each such fact is computed by the library as usual the first time,
then kept in one small JSON file in the user's cache folder under a key that says what it
depends on (the Python path and its folders' times, Babel's version). A missing, stale,
unreadable or unwritable cache only means the library is asked again.
"""

from __future__ import annotations

import contextlib
import json
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

T = TypeVar("T")
ENV = "TACTILE_COMPANION_CACHE"  # a folder for the cache; "off" asks the libraries each time


def _file() -> Path | None:
    where = os.environ.get(ENV)
    if where == "off":
        return None
    if where:
        return Path(where) / "start.json"
    from platformdirs import user_cache_dir

    return Path(user_cache_dir("tactile-companion", appauthor=False)) / "start.json"


def _read(path: Path) -> dict[str, Any]:
    with contextlib.suppress(OSError, ValueError):
        data = json.loads(path.read_text("utf-8"))
        if isinstance(data, dict):
            return data
    return {}


def remembered(name: str, key: str, compute: Callable[[], T]) -> T:
    """`compute()`, or its value from an earlier run made under the same `key` (JSON
    values only)."""
    path = _file()
    if path is None:
        return compute()
    entry = _read(path).get(name)
    if isinstance(entry, dict) and entry.get("key") == key and "value" in entry:
        return entry["value"]  # type: ignore[no-any-return]
    value = compute()
    with contextlib.suppress(OSError):  # a read-only home: asked again next time
        data = _read(path)
        data[name] = {"key": key, "value": value}
        path.parent.mkdir(parents=True, exist_ok=True)
        temporary = path.with_suffix(f".{os.getpid()}.tmp")
        temporary.write_text(json.dumps(data, ensure_ascii=False), "utf-8")
        os.replace(temporary, path)  # a second companion starting meanwhile reads a whole file
    return value


def forget(name: str) -> None:
    """Drop one remembered fact (it will be computed again)."""
    path = _file()
    if path is None:
        return
    data = _read(path)
    if data.pop(name, None) is not None:
        with contextlib.suppress(OSError):
            path.write_text(json.dumps(data, ensure_ascii=False), "utf-8")
