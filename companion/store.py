"""The game log: every accepted step goes to SQLite before it is announced.

A game is its configuration plus the texts of its accepted steps, in order; its state is
the replay of those steps. Undo marks the last step undone (kept, for the record), resume
replays what is left. Each step is committed on its own with synchronous=FULL, so killing
the process (or the power) at any moment loses no announced step.
"""

from __future__ import annotations

import json
import sqlite3
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    id INTEGER PRIMARY KEY,
    game TEXT NOT NULL,
    config TEXT NOT NULL,
    created TEXT NOT NULL,
    finished TEXT
);
CREATE TABLE IF NOT EXISTS steps (
    game_id INTEGER NOT NULL REFERENCES games(id),
    seq INTEGER NOT NULL,
    action TEXT NOT NULL,
    at TEXT NOT NULL,
    undone TEXT,
    PRIMARY KEY (game_id, seq)
);
"""


def _now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="milliseconds")


def default_path() -> Path:
    from platformdirs import user_data_dir

    return Path(user_data_dir("tactile-companion", appauthor=False)) / "games.sqlite3"


@dataclass(frozen=True)
class SavedGame:
    id: int
    game: str
    config: dict[str, Any]
    steps: tuple[str, ...]
    finished: bool


class GameStore:
    def __init__(self, path: Path | str) -> None:
        if str(path) != ":memory:":
            Path(path).parent.mkdir(parents=True, exist_ok=True)
        self.path = path
        self._db = sqlite3.connect(str(path), isolation_level=None)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=FULL")
        self._db.executescript(SCHEMA)

    def close(self) -> None:
        self._db.close()

    def new_game(self, game: str, config: dict[str, Any]) -> int:
        cur = self._db.execute(
            "INSERT INTO games (game, config, created) VALUES (?, ?, ?)",
            (game, json.dumps(config, ensure_ascii=False), _now()),
        )
        return int(cur.lastrowid or 0)

    def append(self, game_id: int, action: str) -> None:
        with self._db:
            self._db.execute("BEGIN IMMEDIATE")
            (seq,) = self._db.execute(
                "SELECT COALESCE(MAX(seq), 0) + 1 FROM steps WHERE game_id = ?", (game_id,)
            ).fetchone()
            self._db.execute(
                "INSERT INTO steps (game_id, seq, action, at) VALUES (?, ?, ?, ?)",
                (game_id, seq, action, _now()),
            )

    def undo(self, game_id: int) -> str | None:
        """Mark the last live step undone; returns its text, or None if there is none."""
        with self._db:
            self._db.execute("BEGIN IMMEDIATE")
            row = self._db.execute(
                "SELECT seq, action FROM steps WHERE game_id = ? AND undone IS NULL "
                "ORDER BY seq DESC LIMIT 1", (game_id,),
            ).fetchone()
            if row is None:
                return None
            self._db.execute(
                "UPDATE steps SET undone = ? WHERE game_id = ? AND seq = ?",
                (_now(), game_id, row[0]),
            )
            self._db.execute("UPDATE games SET finished = NULL WHERE id = ?", (game_id,))
        return str(row[1])

    def finish(self, game_id: int) -> None:
        self._db.execute("UPDATE games SET finished = ? WHERE id = ?", (_now(), game_id))

    def load(self, game_id: int) -> SavedGame:
        row = self._db.execute(
            "SELECT id, game, config, finished FROM games WHERE id = ?", (game_id,)
        ).fetchone()
        if row is None:
            raise KeyError(game_id)
        steps = tuple(
            r[0] for r in self._db.execute(
                "SELECT action FROM steps WHERE game_id = ? AND undone IS NULL ORDER BY seq",
                (game_id,),
            )
        )
        return SavedGame(row[0], row[1], json.loads(row[2]), steps, row[3] is not None)

    def last_unfinished(self, game: str | None = None) -> SavedGame | None:
        query = "SELECT id FROM games WHERE finished IS NULL"
        args: tuple[Any, ...] = ()
        if game is not None:
            query += " AND game = ?"
            args = (game,)
        row = self._db.execute(query + " ORDER BY id DESC LIMIT 1", args).fetchone()
        return None if row is None else self.load(row[0])
