"""A real `companion play --web` in a subprocess, and pages connected to it by websocket
(the browser tests drive Chromium against the same subprocess)."""

from __future__ import annotations

import contextlib
import json
import os
import re
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

ROOT = Path(__file__).resolve().parents[1]
URL = re.compile(r"(http://\S+/s/[A-Za-z0-9_-]+)")


class Play:
    """`companion play GAME --web` with its terminal: lines typed in, lines printed out.
    With `command="practice"`, `players` are the seats people sit at (the others are the
    computer's, without a page)."""

    def __init__(self, tmp: Path, game: str = "hanamikoji",
                 players: tuple[str, ...] = ("Ana", "Ben"), lang: str = "en",
                 extra: tuple[str, ...] = (), command: str = "play") -> None:
        env = {**os.environ, "PYTHONPATH": str(ROOT), "PYTHONUNBUFFERED": "1"}
        self.db = tmp / "games.sqlite3"
        seats = ("--players", *players) if command == "play" else ()
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "companion", command, game, "--no-speech", "--web",
             "--web-port", "0", "--db", str(self.db), "--lang", lang,
             *seats, *extra],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
            text=True, encoding="utf-8", cwd=ROOT, env=env)
        self.lines: list[str] = []
        self.errors: list[str] = []
        self.urls: list[str] = []
        self._readers = [threading.Thread(target=self._read, args=(stream, into), daemon=True)
                         for stream, into in ((self.proc.stdout, self.lines),
                                              (self.proc.stderr, self.errors))]
        for reader in self._readers:
            reader.start()
        self.wait_for(lambda: len(self.urls) == len(players) + 1, 30)
        self.seats, self.watch = self.urls[:-1], self.urls[-1]

    def _read(self, stream: Any, into: list[str]) -> None:
        for line in stream:
            line = line.rstrip("\n")
            if into is self.lines and (m := URL.search(line)):
                self.urls.append(m.group(1))
            into.append(line)

    def said(self) -> list[str]:
        """The printed announcements: lines that are not the join codes' drawings."""
        return [line for line in self.lines
                if line and not set(line) <= set("█▀▄ ") and not URL.search(line)]

    def type(self, line: str) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()

    def wait_for(self, condition: Any, timeout: float = 10) -> None:
        end = time.monotonic() + timeout
        while not condition():
            if time.monotonic() > end or self.proc.poll() is not None and not condition():
                raise AssertionError(f"timed out; printed: {self.lines[-5:]}, "
                                     f"errors: {self.errors[-5:]}")
            time.sleep(0.01)

    def quit(self) -> None:
        if self.proc.poll() is None:
            self.type("quit")
            try:
                self.proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        # The child has ended, not yet its output: the readers may still be behind
        for reader in self._readers:
            reader.join(timeout=10)


def ws_url(page: str) -> str:
    return page.replace("http://", "ws://", 1) + "/ws"


class Page:
    """A page's connection, reading every frame in a thread."""

    def __init__(self, page: str, **options: Any) -> None:
        # No client keepalive: a page left open when its table quits had its ping thread
        # print "keepalive ping failed" and a traceback after the tests ended.
        # Held as its context: websockets 17 warns about a connection used without one.
        self._held = contextlib.ExitStack()
        self.ws = self._held.enter_context(
            connect(ws_url(page), open_timeout=10, **{"ping_interval": None, **options}))
        self.frames: list[str] = []
        self.closed = threading.Event()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        try:
            while True:
                self.frames.append(str(self.ws.recv()))
        except ConnectionClosed:
            pass
        finally:
            self.closed.set()

    def of(self, kind: str) -> list[dict[str, Any]]:
        return [f for f in map(json.loads, self.frames) if f["type"] == kind]

    def heard(self) -> list[str]:
        """Every line the page was said, in order: those said before it joined ("past")
        and those said since ("say")."""
        return [line for f in map(json.loads, self.frames) if f["type"] in ("past", "say")
                for line in f["lines"]]

    def wait_heard(self, fragment: str, timeout: float = 10) -> None:
        """Until the page has heard a line holding `fragment`. The terminal prints a line
        before the pages are sent it: a line printed is not yet a line every page has."""
        end = time.monotonic() + timeout
        while not any(fragment in line for line in self.heard()):
            assert time.monotonic() < end, f"never heard {fragment!r}: {self.heard()[-3:]}"
            time.sleep(0.01)

    def wait_view(self, timeout: float = 10) -> None:
        end = time.monotonic() + timeout
        while not self.of("view"):
            assert time.monotonic() < end, "no board came"
            time.sleep(0.01)

    def send(self, line: str) -> None:
        self.ws.send(json.dumps({"line": line}))

    def close(self) -> None:
        self._held.close()
