"""The game log: every accepted step goes to SQLite before it is announced.

A game is its configuration plus the texts of its accepted steps, in order; its state is
the replay of those steps. Undo marks the last step undone (kept, for the record), resume
replays what is left. Each step is committed on its own with synchronous=FULL, so killing
the process (or the power) at any moment loses no announced step.

A log that cannot be written (read-only file or folder, full disk, locked by another
program) never stops a game: writes raise StorageError, which says what the player can do,
and `GameRecord` keeps the steps not yet written to retry them at the next step. A log
that cannot be opened for writing is opened read-only, so a saved game is still found.

A log can also be lost under a running game: deleted, replaced, overwritten with junk.
SQLite goes on writing into a deleted file without a word, so before each write the
record checks that the file at the path is still the one it wrote and still holds its
steps (`GameStore.lost`); if not, it writes the whole game again from memory, to the
same path when that is free or a readable log, else to a file beside it
(`fallback_path`), and says so once. A log found damaged when opened is left as it is:
what can be read of it is read (`GameStore.damage`), and play is saved beside it.
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
-- what a command adds to a game beside its steps, by kind (the guide of `companion learn`
-- keeps the lessons it said, so that a resumed game does not say them again); an older log
-- gets the table as `addresses` does
CREATE TABLE IF NOT EXISTS notes (
    game_id INTEGER NOT NULL REFERENCES games(id),
    kind TEXT NOT NULL,
    value TEXT NOT NULL,
    at TEXT NOT NULL,
    PRIMARY KEY (game_id, kind, value)
);
"""


def _now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="milliseconds")


def default_path() -> Path:
    from platformdirs import user_data_dir

    return Path(user_data_dir("tactile-companion", appauthor=False)) / "games.sqlite3"


@dataclass(frozen=True)
class Damage:
    """A log found damaged when opened: what of it could be read, and where play goes."""

    path: str
    where: str  # the file the companion writes to instead
    steps: int | None  # steps read of the last unfinished game; None: no such game read


def fallback_path(path: Path | str) -> Path:
    """A new file beside `path` for a game whose log cannot be written there."""
    path = Path(path)
    stamp = datetime.now().strftime("%Y%m%d-%H%M%S")
    for n in range(1, 1000):
        tail = "" if n == 1 else f"-{n}"
        candidate = path.with_name(f"{path.stem}-recovered-{stamp}{tail}{path.suffix}")
        if not candidate.exists():
            return candidate
    raise FileExistsError(path)


_DAMAGED = ("SQLITE_NOTADB", "SQLITE_CORRUPT")


def _is_damage(error: BaseException) -> bool:
    return getattr(error, "sqlite_errorname", "").startswith(_DAMAGED) or (
        isinstance(error, sqlite3.DatabaseError)
        and ("not a database" in str(error) or "malformed" in str(error)))


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
        self.damage: Damage | None = None
        self._db: sqlite3.Connection | None = None
        self._identity: tuple[int, int] | None = None  # the file written: (device, inode)
        self._recovered: list[SavedGame] = []  # what could be read of a damaged log
        self.writable = False
        if self._damaged():
            self._recover()
            return
        try:
            self._reopen()
        except StorageError as error:
            self.problem = error
            self._db = self._open_read_only()

    def _damaged(self) -> bool:
        """Whether the file at the path is there but is not a sound SQLite log."""
        if str(self.path) == ":memory:" or not Path(self.path).is_file():
            return False
        try:
            with open(self.path, "rb") as f:
                head = f.read(16)
        except OSError:
            return False  # unreadable for permissions: said as a storage problem
        if head and head != b"SQLite format 3\x00":
            return True
        db = self._connect_read_only("mode=ro")
        if db is None:
            return False
        try:
            return db.execute("PRAGMA quick_check").fetchone()[0] != "ok"
        except sqlite3.Error as error:
            return _is_damage(error)
        finally:
            db.close()

    def _recover(self) -> None:
        """Read what can be read of a damaged log (games in order, each game's steps up to
        the first that cannot be read), leave the file as it is, write beside it."""
        original = str(self.path)
        db = self._connect_read_only("mode=ro")
        if db is not None:
            try:
                self._recovered = _readable_games(db)
            finally:
                db.close()
        unfinished = [g for g in self._recovered if not g.finished]
        self.path = fallback_path(original)
        self.damage = Damage(original, str(self.path),
                             len(unfinished[-1].steps) if unfinished else None)
        try:
            self._reopen()
        except StorageError as error:
            self.problem = error

    def _connect_read_only(self, options: str) -> sqlite3.Connection | None:
        uri = "file:" + quote(str(Path(self.path).resolve()))
        try:
            return sqlite3.connect(f"{uri}?{options}", uri=True, isolation_level=None,
                                   timeout=self.timeout)
        except sqlite3.Error:
            return None

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
        self._identity = self._file_identity()

    def _file_identity(self) -> tuple[int, int] | None:
        if str(self.path) == ":memory:":
            return None
        try:
            st = os.stat(self.path)
        except OSError:
            return None
        return st.st_dev, st.st_ino

    def lost(self, game_id: int, steps: int) -> bool:
        """Whether the log no longer holds what was written to it: the file gone, replaced
        (another inode), unreadable, or without the game's `steps` live steps. A lock held
        by another program is not a loss (the write will say it)."""
        if str(self.path) == ":memory:" or not self.writable:
            return False
        if self._identity is None or self._file_identity() != self._identity:
            return True
        db = self._connect_read_only("mode=ro")
        if db is None:
            return True
        try:
            row = db.execute(
                "SELECT COUNT(*), (SELECT COUNT(*) FROM games WHERE id = ?) FROM steps "
                "WHERE game_id = ? AND undone IS NULL", (game_id, game_id)).fetchone()
        except sqlite3.OperationalError as error:
            busy = getattr(error, "sqlite_errorname", "").startswith(("SQLITE_BUSY",
                                                                      "SQLITE_LOCKED"))
            return not busy
        except sqlite3.Error:
            return True
        finally:
            db.close()
        return tuple(row) != (steps, 1)

    def rewrite(self, game: str, config: dict[str, Any], steps: list[str],
                finished: bool) -> int:
        """Write a whole game again, in one transaction, to the path if it is free or holds
        a sound log, else to a new file beside it (`path` then names it). Its new id."""
        if self._db is not None:
            self._db.close()
            self._db = None
        self.writable = False
        if self._damaged() or not self._usable():
            self.path = fallback_path(self.path)
        try:
            db = self._writing()
            with db:
                db.execute("BEGIN IMMEDIATE")
                cur = db.execute(
                    "INSERT INTO games (game, config, created, finished) VALUES (?, ?, ?, ?)",
                    (game, json.dumps(config, ensure_ascii=False), _now(),
                     _now() if finished else None))
                game_id = int(cur.lastrowid or 0)
                db.executemany(
                    "INSERT INTO steps (game_id, seq, action, at) VALUES (?, ?, ?, ?)",
                    [(game_id, seq, text, _now()) for seq, text in enumerate(steps, 1)])
        except (sqlite3.Error, OSError) as error:
            raise self._failed(error) from error
        return game_id

    def _usable(self) -> bool:
        """Whether a file at the path can be written as a log: absent, or a log already."""
        if not Path(self.path).exists():
            return True
        db = self._connect_read_only("mode=ro")
        if db is None:
            return False
        try:
            tables = {r[0] for r in db.execute("SELECT name FROM sqlite_master")}
        except sqlite3.Error:
            return False
        finally:
            db.close()
        return not tables or {"games", "steps"} <= tables

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

    def append(self, game_id: int, action: str, finished: bool = False) -> None:
        """Write a step; with `finished`, the step that ends the game and the mark that it
        is over, in one transaction (a kill between two writes left it unfinished)."""
        try:
            self._append(self._writing(), game_id, action, finished)
        except (sqlite3.Error, OSError) as error:
            raise self._failed(error) from error

    def _append(self, db: sqlite3.Connection, game_id: int, action: str,
                finished: bool = False) -> None:
        with db:
            db.execute("BEGIN IMMEDIATE")
            (seq,) = db.execute(
                "SELECT COALESCE(MAX(seq), 0) + 1 FROM steps WHERE game_id = ?", (game_id,)
            ).fetchone()
            db.execute(
                "INSERT INTO steps (game_id, seq, action, at) VALUES (?, ?, ?, ?)",
                (game_id, seq, action, _now()),
            )
            if finished:
                db.execute("UPDATE games SET finished = ? WHERE id = ?", (_now(), game_id))

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
        if self.damage is not None:  # the damaged log's games, as far as they were read
            found = [g for g in self._recovered if g.id == game_id]
            if not found:
                raise KeyError(game_id)
            return found[0]
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

    def keep_note(self, game_id: int, kind: str, value: str) -> None:
        """Remember `value` of `kind` for a game (once: a value kept again changes nothing)."""
        try:
            self._writing().execute(
                "INSERT OR IGNORE INTO notes (game_id, kind, value, at) VALUES (?, ?, ?, ?)",
                (game_id, kind, value, _now()))
        except (sqlite3.Error, OSError) as error:
            raise self._failed(error) from error

    def notes(self, game_id: int, kind: str) -> list[str]:
        """The values of `kind` kept for a game, in the order kept ([] if none, or a log
        older than them)."""
        if self._db is None:
            return []
        try:
            rows = self._db.execute(
                "SELECT value FROM notes WHERE game_id = ? AND kind = ? ORDER BY rowid",
                (game_id, kind)).fetchall()
        except sqlite3.Error:
            return []
        return [str(value) for (value,) in rows]

    def last_unfinished(self, game: str | None = None) -> SavedGame | None:
        if self.damage is not None:
            found = [g for g in self._recovered if not g.finished
                     and (game is None or g.game == game)]
            return found[-1] if found else None
        if self._db is None:
            return None
        query = "SELECT id FROM games WHERE finished IS NULL"
        args: tuple[Any, ...] = ()
        if game is not None:
            query += " AND game = ?"
            args = (game,)
        row = self._db.execute(query + " ORDER BY id DESC LIMIT 1", args).fetchone()
        return None if row is None else self.load(row[0])


def _readable_games(db: sqlite3.Connection) -> list[SavedGame]:
    """The games of a damaged log, each with its live steps up to the first that cannot
    be read; a game whose row cannot be read is left out."""
    rows = []
    try:
        ids = [r[0] for r in db.execute("SELECT id FROM games ORDER BY id")]
    except sqlite3.Error:
        ids = []
    for game_id in ids:  # row by row: a damaged page loses its own games only
        try:
            rows.append(db.execute("SELECT id, game, config, finished FROM games WHERE id = ?",
                                   (game_id,)).fetchone())
        except sqlite3.Error:
            continue
    games = []
    for game_id, game, config, finished in rows:
        try:
            settings = json.loads(config)
        except (TypeError, ValueError):
            continue
        steps: list[str] = []
        try:
            for (action,) in db.execute(
                    "SELECT action FROM steps WHERE game_id = ? AND undone IS NULL "
                    "ORDER BY seq", (game_id,)):
                steps.append(action)
        except sqlite3.Error:
            pass  # the steps read so far are kept
        games.append(SavedGame(game_id, game, settings, tuple(steps), finished is not None))
    return games


@dataclass(frozen=True)
class WriteReport:
    """What the player must hear about a write: a new problem (said once), or that the log
    is written again after `caught_up` steps that had waited."""

    problem: StorageError | None = None
    caught_up: int | None = None
    rewritten: tuple[str, str, int] | None = None  # the log lost: (its path, where, steps)
    damage: Damage | None = None  # the log was found damaged when opened
    repaired: bool = False  # a game over whose end was not marked is marked now


class GameRecord:
    """One table's writes to the log, in order. A write that fails waits, with every later
    one, and all are retried before the next: once the log can be written again it is
    complete. With no store (simulations, tests) nothing is written."""

    def __init__(self, store: GameStore | None, game: str, config: dict[str, Any],
                 game_id: int | None = None, steps: tuple[str, ...] = (),
                 finished: bool = False) -> None:
        """`steps`: a resumed game's live steps (the log holds them already)."""
        self.store, self.game, self.config = store, game, config
        self.game_id = game_id
        # ("new" | "append" | "last" | "undo" | "finish" | "rewrite", text): "last" is the
        # step that ends the game, written with the mark that it is over
        self.backlog: list[tuple[str, str]] = []
        self.failing: StorageError | None = None  # the problem already said
        # The game as it should be in the log, to write it again whole if the log is lost.
        self.steps: list[str] = list(steps)
        self.finished = finished
        self.kept: int | None = len(steps) if game_id is not None else None  # in the file

    def opened(self) -> WriteReport:
        """A problem met when the log was opened (read-only: saved games are still read; a
        damaged log: what was read of it, and a resumed game written beside it)."""
        if self.store is None:
            return WriteReport()
        damage = self.store.damage
        if damage is not None and self.game_id is not None:
            self.backlog = [("rewrite", "")]  # the resumed game, into the new file
            report = self._flush(0)
            return WriteReport(problem=report.problem, damage=damage)
        if damage is not None:
            return WriteReport(problem=self.store.problem, damage=damage)
        if self.store.problem is None:
            return WriteReport()
        self.failing = self.store.problem
        return WriteReport(problem=self.failing)

    @property
    def unsaved(self) -> int:
        """Steps accepted but not in the log yet."""
        if any(op == "rewrite" for op, _ in self.backlog):
            return len(self.steps)
        return sum(1 for op, _ in self.backlog if op in ("append", "last"))

    def write(self, op: str, text: str = "") -> WriteReport:
        if op == "new":
            self.steps, self.finished = [], False
        elif op in ("append", "last"):
            self.steps.append(text)
            self.finished = op == "last"
        elif op == "undo":
            if self.steps:
                self.steps.pop()
            self.finished = False
        elif op == "finish":
            self.finished = True
        if self.store is None:
            return WriteReport()
        late = self.unsaved
        self.backlog.append((op, text))
        return self._flush(late)

    def retry(self) -> WriteReport:
        """Write what waits (before quitting: the disk may have been freed meanwhile)."""
        return self._flush(self.unsaved) if self.backlog else WriteReport()

    def _flush(self, late: int) -> WriteReport:
        """Write what waits, in order; stops at the first failure. A log lost since the
        last write is written again whole, from memory, instead."""
        assert self.store is not None
        rewritten = None
        if (self.backlog and self.game_id is not None and self.kept is not None
                and self.backlog[0][0] != "rewrite"
                and self.store.lost(self.game_id, self.kept)):
            lost_path = str(self.store.path)
            self.backlog = [("rewrite", "")]
            rewritten = lost_path
        try:
            while self.backlog:
                self._write(*self.backlog[0])
                self.backlog.pop(0)
        except StorageError as error:
            said = self.failing is not None and self.failing.cause == error.cause
            self.failing = error
            return WriteReport(problem=None if said else error)
        if rewritten is not None:
            self.failing = None
            return WriteReport(rewritten=(rewritten, str(self.store.path), len(self.steps)))
        if self.failing is None:
            return WriteReport()
        self.failing = None
        return WriteReport(caught_up=late)

    def _write(self, op: str, text: str) -> None:
        assert self.store is not None
        if op == "rewrite":
            self.game_id = self.store.rewrite(self.game, self.config, self.steps,
                                              self.finished)
            self.kept = len(self.steps)
        elif op == "new":
            self.game_id = self.store.new_game(self.game, self.config)
            self.kept = 0
        elif self.game_id is None:
            raise StorageError("failed", str(self.store.path), "no game in the log")
        elif op in ("append", "last"):
            self.store.append(self.game_id, text, finished=op == "last")
            self.kept = None if self.kept is None else self.kept + 1
        elif op == "undo":
            if self.store.undo(self.game_id) is not None and self.kept:
                self.kept -= 1
        else:
            self.store.finish(self.game_id)
