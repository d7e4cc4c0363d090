"""The game log: every accepted step goes to SQLite before it is announced.

A game is its configuration plus the texts of its accepted steps, in order; its state is
the replay of those steps. Undo marks the last step undone (kept, for the record), resume
replays what is left. Each step is committed on its own with synchronous=FULL, so killing
the process (or the power) at any moment loses no announced step.

A log that cannot be written (read-only file or folder, full disk, locked by another
program) never stops a game: writes raise StorageError, which says what the player can do,
and `GameRecord` keeps the steps not yet written to retry them at the next step. A log
that cannot be opened for writing is opened read-only, so a saved game is still found.
"""

from __future__ import annotations

import errno
import json
import os
import sqlite3
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import Any
from urllib.parse import quote

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
-- the web pages' addresses of a game (one token per seat and for watchers), so that
-- `play --resume --web` serves the same ones; a log without this table (older) gets it
-- when it is next opened for writing, and reads as a game with no addresses kept
CREATE TABLE IF NOT EXISTS addresses (
    game_id INTEGER NOT NULL REFERENCES games(id),
    view TEXT NOT NULL,
    token TEXT NOT NULL,
    PRIMARY KEY (game_id, view)
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


class StorageError(Exception):
    """The game log cannot be written. `cause` is what the player can act on: read_only
    (the file), folder_read_only, full (the disk), locked (another program), failed."""

    def __init__(self, cause: str, path: str, reason: str) -> None:
        super().__init__(reason)
        self.cause = cause
        self.path = path


def storage_error(error: BaseException, path: Path | str) -> StorageError:
    """What a failed open or write of the log at `path` means for the player."""
    name = getattr(error, "sqlite_errorname", "")
    number = getattr(error, "errno", None)
    if name.startswith("SQLITE_FULL") or number == errno.ENOSPC:
        cause = "full"
    elif name.startswith(("SQLITE_BUSY", "SQLITE_LOCKED")):
        cause = "locked"
    elif str(path) != ":memory:" and not os.access(Path(path).parent, os.W_OK):
        cause = "folder_read_only"  # also what a read-only mounted disk looks like
    elif Path(path).exists() and not os.access(path, os.W_OK):
        cause = "read_only"
    elif name.startswith(("SQLITE_READONLY", "SQLITE_CANTOPEN")) or isinstance(
        error, PermissionError
    ):
        cause = "folder_read_only"  # the -wal and -shm files beside it cannot be made
    else:
        cause = "failed"
    return StorageError(cause, str(path), f"{type(error).__name__}: {error}")


class GameStore:
    def __init__(self, path: Path | str, timeout: float = 2.0) -> None:
        """Open the log for writing, else read-only (`problem` says why), else not at all
        (`problem` set, nothing saved is found); every write retries opening it."""
        self.path = path
        self.timeout = timeout  # how long a write waits for another program's lock
        self.problem: StorageError | None = None
        self._db: sqlite3.Connection | None = None
        self.writable = False
        try:
            self._reopen()
        except StorageError as error:
            self.problem = error
            self._db = self._open_read_only()

    def _open_writable(self) -> sqlite3.Connection:
        if str(self.path) != ":memory:":
            Path(self.path).parent.mkdir(parents=True, exist_ok=True)
            if Path(self.path).exists() and not os.access(self.path, os.W_OK):
                raise PermissionError(errno.EACCES, "read-only file", str(self.path))
        db = sqlite3.connect(str(self.path), isolation_level=None, timeout=self.timeout)
        try:
            db.execute("PRAGMA journal_mode=WAL")
            db.execute("PRAGMA synchronous=FULL")
            db.executescript(SCHEMA)
        except sqlite3.Error:
            db.close()
            raise
        return db

    def _open_read_only(self) -> sqlite3.Connection | None:
        """The saved games of a log that cannot be written, if it can be read at all.
        `immutable` reads a WAL log whose folder cannot take its -shm file."""
        if str(self.path) == ":memory:" or not Path(self.path).is_file():
            return None
        uri = "file:" + quote(str(Path(self.path).resolve()))
        for options in ("mode=ro", "mode=ro&immutable=1"):
            db = sqlite3.connect(f"{uri}?{options}", uri=True, isolation_level=None,
                                 timeout=self.timeout)
            try:
                db.execute("SELECT COUNT(*) FROM steps").fetchone()
                return db
            except sqlite3.Error:
                db.close()
        return None

    def _reopen(self) -> None:
        """(Re)open for writing; raises StorageError."""
        try:
            db = self._open_writable()
        except (sqlite3.Error, OSError) as error:
            raise storage_error(error, self.path) from error
        if self._db is not None:
            self._db.close()
        self._db, self.writable, self.problem = db, True, None

    def _writing(self) -> sqlite3.Connection:
        if not self.writable or self._db is None:
            self._reopen()
        assert self._db is not None
        return self._db

    def _failed(self, error: BaseException) -> StorageError:
        """A write failed: the next one reopens the file (it may be writable by then)."""
        self.writable = False
        return storage_error(error, self.path)

    def close(self) -> None:
        if self._db is not None:
            self._db.close()

    def new_game(self, game: str, config: dict[str, Any]) -> int:
        try:
            cur = self._writing().execute(
                "INSERT INTO games (game, config, created) VALUES (?, ?, ?)",
                (game, json.dumps(config, ensure_ascii=False), _now()),
            )
        except (sqlite3.Error, OSError) as error:
            raise self._failed(error) from error
        return int(cur.lastrowid or 0)

    def append(self, game_id: int, action: str) -> None:
        try:
            self._append(self._writing(), game_id, action)
        except (sqlite3.Error, OSError) as error:
            raise self._failed(error) from error

    def _append(self, db: sqlite3.Connection, game_id: int, action: str) -> None:
        with db:
            db.execute("BEGIN IMMEDIATE")
            (seq,) = db.execute(
                "SELECT COALESCE(MAX(seq), 0) + 1 FROM steps WHERE game_id = ?", (game_id,)
            ).fetchone()
            db.execute(
                "INSERT INTO steps (game_id, seq, action, at) VALUES (?, ?, ?, ?)",
                (game_id, seq, action, _now()),
            )

    def undo(self, game_id: int) -> str | None:
        """Mark the last live step undone; returns its text, or None if there is none."""
        try:
            return self._undo(self._writing(), game_id)
        except (sqlite3.Error, OSError) as error:
            raise self._failed(error) from error

    def _undo(self, db: sqlite3.Connection, game_id: int) -> str | None:
        with db:
            db.execute("BEGIN IMMEDIATE")
            row = db.execute(
                "SELECT seq, action FROM steps WHERE game_id = ? AND undone IS NULL "
                "ORDER BY seq DESC LIMIT 1", (game_id,),
            ).fetchone()
            if row is None:
                return None
            db.execute(
                "UPDATE steps SET undone = ? WHERE game_id = ? AND seq = ?",
                (_now(), game_id, row[0]),
            )
            db.execute("UPDATE games SET finished = NULL WHERE id = ?", (game_id,))
        return str(row[1])

    def finish(self, game_id: int) -> None:
        try:
            self._writing().execute(
                "UPDATE games SET finished = ? WHERE id = ?", (_now(), game_id)
            )
        except (sqlite3.Error, OSError) as error:
            raise self._failed(error) from error

    def load(self, game_id: int) -> SavedGame:
        if self._db is None:
            raise KeyError(game_id)
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

    def keep_addresses(self, game_id: int, tokens: dict[str, str]) -> None:
        """The web pages' tokens of a game, by view ("0", "1", …, "watch"), replacing any
        kept before."""
        try:
            db = self._writing()
            with db:
                db.execute("BEGIN IMMEDIATE")
                db.execute("DELETE FROM addresses WHERE game_id = ?", (game_id,))
                db.executemany(
                    "INSERT INTO addresses (game_id, view, token) VALUES (?, ?, ?)",
                    [(game_id, view, token) for view, token in sorted(tokens.items())])
        except (sqlite3.Error, OSError) as error:
            raise self._failed(error) from error

    def addresses(self, game_id: int) -> dict[str, str]:
        """The web pages' tokens kept for a game ({} if none, or a log older than them)."""
        if self._db is None:
            return {}
        try:
            rows = self._db.execute(
                "SELECT view, token FROM addresses WHERE game_id = ?", (game_id,)).fetchall()
        except sqlite3.Error:
            return {}
        return {str(view): str(token) for view, token in rows}

    def last_unfinished(self, game: str | None = None) -> SavedGame | None:
        if self._db is None:
            return None
        query = "SELECT id FROM games WHERE finished IS NULL"
        args: tuple[Any, ...] = ()
        if game is not None:
            query += " AND game = ?"
            args = (game,)
        row = self._db.execute(query + " ORDER BY id DESC LIMIT 1", args).fetchone()
        return None if row is None else self.load(row[0])


@dataclass(frozen=True)
class WriteReport:
    """What the player must hear about a write: a new problem (said once), or that the log
    is written again after `caught_up` steps that had waited."""

    problem: StorageError | None = None
    caught_up: int | None = None


class GameRecord:
    """One table's writes to the log, in order. A write that fails waits, with every later
    one, and all are retried before the next: once the log can be written again it is
    complete. With no store (simulations, tests) nothing is written."""

    def __init__(self, store: GameStore | None, game: str, config: dict[str, Any],
                 game_id: int | None = None) -> None:
        self.store, self.game, self.config = store, game, config
        self.game_id = game_id
        self.backlog: list[tuple[str, str]] = []  # ("new" | "append" | "undo" | "finish", text)
        self.failing: StorageError | None = None  # the problem already said

    def opened(self) -> WriteReport:
        """A problem met when the log was opened (read-only: saved games are still read)."""
        if self.store is None or self.store.problem is None:
            return WriteReport()
        self.failing = self.store.problem
        return WriteReport(problem=self.failing)

    @property
    def unsaved(self) -> int:
        """Steps accepted but not in the log yet."""
        return sum(1 for op, _ in self.backlog if op == "append")

    def write(self, op: str, text: str = "") -> WriteReport:
        if self.store is None:
            return WriteReport()
        late = self.unsaved
        self.backlog.append((op, text))
        return self._flush(late)

    def retry(self) -> WriteReport:
        """Write what waits (before quitting: the disk may have been freed meanwhile)."""
        return self._flush(self.unsaved) if self.backlog else WriteReport()

    def _flush(self, late: int) -> WriteReport:
        """Write what waits, in order; stops at the first failure."""
        assert self.store is not None
        try:
            while self.backlog:
                self._write(*self.backlog[0])
                self.backlog.pop(0)
        except StorageError as error:
            said = self.failing is not None and self.failing.cause == error.cause
            self.failing = error
            return WriteReport(problem=None if said else error)
        if self.failing is None:
            return WriteReport()
        self.failing = None
        return WriteReport(caught_up=late)

    def _write(self, op: str, text: str) -> None:
        assert self.store is not None
        if op == "new":
            self.game_id = self.store.new_game(self.game, self.config)
        elif self.game_id is None:
            raise StorageError("failed", str(self.store.path), "no game in the log")
        elif op == "append":
            self.store.append(self.game_id, text)
        elif op == "undo":
            self.store.undo(self.game_id)
        else:
            self.store.finish(self.game_id)
