"""The table as a live web page: one more input and output of the same session.

The play loop stays in charge. The server runs in its own thread with its own asyncio
loop; a command typed or pressed on a page goes into the InputHub queue as a line, so it
is validated, logged and announced like a typed one (same session, same log, same undo).
Every announcement the Output makes is rendered once (in the game's language) and pushed
to the pages: a seat's page also gets that seat's private Messages, a watcher's page and
the other seats never do. Each seat has its own unguessable token, new for each game.

Only the loop thread touches the clients and the history, so nothing here needs a lock;
the play loop hands it ready-made JSON text with `call_soon_threadsafe`.
"""

from __future__ import annotations

import asyncio
import contextlib
import ipaddress
import json
import logging
import re
import secrets
import socket
import struct
import sys
import threading
import time
from collections import deque
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from importlib import resources
from typing import Any

import segno
import uvicorn
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import HTMLResponse, Response
from starlette.routing import Route, WebSocketRoute
from starlette.types import ASGIApp, Receive, Scope, Send
from starlette.types import Message as ASGIMessage
from starlette.websockets import WebSocket, WebSocketDisconnect

from companion.inputs.hub import InputHub, InputItem
from companion.narrate.catalogue import Catalogue
from companion.narrate.message import Message, Priority
from companion.web.views import render_view

log = logging.getLogger("companion.web")

WATCH = "watch"  # the watchers' view; a seat's view is its index
MAX_LINE = 500  # characters in one command: more is not a command
MAX_FRAME = 64 * 1024  # bytes in one websocket message: more closes that connection
# Updates waiting for one page: past QUEUE, a page whose connection took nothing for STALL
# seconds is let go (it reads nothing); one that reads but lags behind a burst may reach
# HISTORY, never more, so memory stays bounded either way.
QUEUE, STALL = 256, 5.0
CLOSING = 2.0  # seconds a page being let go has to take the close, then to go
HISTORY = 2000  # announcements kept per view for a page that joins late
# Messages from one page: a burst of BURST, then RATE a second (a player presses a few
# buttons a second at most); the rest is refused on that page, so a page sending junk
# cannot fill the table's input queue.
RATE, BURST = 10.0, 30
DEPTH = 8  # brackets opened in one message: a command is {"line": "..."}
TOKEN = re.compile(r"[A-Za-z0-9_-]{22}")  # secrets.token_urlsafe(16)
# Every answer: nothing from elsewhere runs in the page or frames it; no guessing of types
SECURITY_HEADERS = [
    (b"content-security-policy",
     b"default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; "
     b"connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"),
    (b"x-content-type-options", b"nosniff"),
    (b"x-frame-options", b"DENY"),
    (b"referrer-policy", b"no-referrer"),
    (b"cross-origin-opener-policy", b"same-origin"),
    (b"cross-origin-resource-policy", b"same-origin"),
]


@dataclass(eq=False)
class Client:
    view: int | str
    queue: asyncio.Queue[str]
    ws: WebSocket
    sender: asyncio.Task[None] | None = None
    progress: float = field(default_factory=time.monotonic)  # when it last took a frame
    allowance: float = BURST  # commands it may still send now (a token bucket)
    checked: float = field(default_factory=time.monotonic)
    throttled: bool = False  # told it sends too fast, not told again until it slows
    watch: asyncio.TimerHandle | None = None  # a look again once it may have stalled


def listen(host: str, port: int) -> socket.socket:
    """The pages' listening socket, bound before anything of the game is written, so that a
    busy port refuses the start instead of ending a game half-way (OSError)."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    try:
        if sys.platform != "win32":  # there it would let two servers share the port
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((host, port))
        sock.listen(128)
    except OSError:
        sock.close()
        raise
    sock.set_inheritable(True)
    return sock


class WebTable:
    """The web pages of one game: tokens, the server thread, and what each view was told."""

    def __init__(self, session: Any, catalogue: Catalogue, hub: InputHub,
                 host: str = "127.0.0.1", port: int = 8765,
                 seats: list[int] | None = None, *,
                 sock: socket.socket | None = None,
                 kept: Mapping[str, str] | None = None,
                 hidden: Sequence[str] = ()) -> None:
        """`seats`: those people sit at (default all: a seat the computer plays has no
        page); `sock`: the socket `listen` bound (else bound here); `kept`: the addresses
        of a resumed game (view name → token), kept when whole; `hidden`: text no page may
        be sent (the game log's path), said in words instead."""
        self.session, self.catalogue, self.hub = session, catalogue, hub
        self.host = host
        seats = list(range(len(session.names)) if seats is None else seats)
        self.views: list[int | str] = [*seats, WATCH]
        # a page per seat people sit at and one for the watchers, each with 128 bits of
        # randomness, new for each new game
        if kept is not None and sorted(kept) == sorted(map(str, self.views)) and all(
                TOKEN.fullmatch(t) for t in kept.values()) and len(set(kept.values())) == len(kept):
            self.tokens: dict[str, int | str] = {
                token: (WATCH if view == WATCH else int(view)) for view, token in kept.items()}
        else:
            self.tokens = {secrets.token_urlsafe(16): view for view in self.views}
        self._hidden = [h for h in hidden if h]
        self.kept_for: int | None = None  # the game whose log holds these addresses
        self._history: dict[int | str, deque[str]] = {v: deque(maxlen=HISTORY)
                                                      for v in self.views}
        self._state: dict[int | str, str] = {}
        self._clients: set[Client] = set()
        self.loop = asyncio.new_event_loop()
        self._sock = sock if sock is not None else listen(host, port)
        _quiet_server_logs()
        config = uvicorn.Config(_Guard(self._app(), self), log_config=None,
                                log_level="warning", ws_max_size=MAX_FRAME,
                                ws="websockets-sansio", lifespan="off", loop="asyncio",
                                server_header=False, proxy_headers=False)
        self._server = uvicorn.Server(config)
        self._thread = threading.Thread(target=self._serve, name="web", daemon=True)
        self.port = self._sock.getsockname()[1]

    @property
    def addresses(self) -> dict[str, str]:
        """Each view's token by view name ("0", "1", …, "watch"): what the log keeps so
        that a resumed game's pages reconnect at the same addresses."""
        return {str(view): token for token, view in self.tokens.items()}

    # -- life ---------------------------------------------------------------------------
    def start(self) -> None:
        """Serve, and return once the port listens (so the addresses said are live)."""
        self._thread.start()
        while not self._server.started:
            if not self._thread.is_alive():
                raise OSError(f"the web server could not listen on {self.host}:{self.port}")
            threading.Event().wait(0.01)
        self.publish([])  # the board as it stands

    def _serve(self) -> None:
        asyncio.set_event_loop(self.loop)
        self.loop.run_until_complete(self._server.serve(sockets=[self._sock]))

    def close(self) -> None:
        """Stop serving once every page has been sent what it was told (or 2 s passed)."""
        if self._thread.is_alive():
            done = asyncio.run_coroutine_threadsafe(self._flush(2.0), self.loop)
            with contextlib.suppress(Exception):
                done.result(timeout=3)
        self._server.should_exit = True
        self._thread.join(timeout=5)

    async def _flush(self, limit: float) -> None:
        for _ in range(int(limit / 0.01)):
            if all(c.queue.empty() for c in self._clients):
                break
            await asyncio.sleep(0.01)
        await asyncio.sleep(0.05)  # the last frame taken from a queue is being written

    # -- addresses ----------------------------------------------------------------------
    def url(self, view: int | str) -> str:
        token = next(t for t, v in self.tokens.items() if v == view)
        host = _lan_address() if self.host in ("0.0.0.0", "::", "") else self.host
        return f"http://{host}:{self.port}/s/{token}"

    def qr_text(self, view: int | str) -> str:
        """The join code as text for the terminal (two rows of modules per line)."""
        import io

        buffer = io.StringIO()
        segno.make(self.url(view), error="m").terminal(out=buffer, compact=True, border=2)
        return buffer.getvalue()

    # -- the play loop's side -----------------------------------------------------------
    def publish(self, said: list[tuple[Message, str]]) -> None:
        """An announcement (Output listener): each view's lines and its new board."""
        updates: dict[int | str, tuple[str | None, str]] = {}
        said = [(m, self._unsaid(t)) for m, t in said]
        for view in self.views:
            mine = [(m, t) for m, t in said if m.private_to is None or m.private_to == view]
            say = None
            if mine:
                say = json.dumps({
                    "type": "say", "lines": [t for _, t in mine],
                    "assertive": any(m.priority is Priority.REFUSAL for m, _ in mine)},
                    ensure_ascii=False)
            updates[view] = (say, render_view(self.session, self.catalogue, view))
        self.loop.call_soon_threadsafe(self._deliver, updates)

    def _unsaid(self, text: str) -> str:
        """A line as the pages get it: the game log's path (which names the computer's
        user and folders) said in words instead."""
        for secret in self._hidden:
            if secret in text:
                text = text.replace(secret, self.catalogue.render(Message("", "web.log_file")))
        return text

    def _deliver(self, updates: dict[int | str, tuple[str | None, str]]) -> None:
        for view, (say, board) in updates.items():
            frames = [] if say is None else [say]
            if say is not None:
                self._history[view].append(say)
            if self._state.get(view) != board:  # an unchanged board is not sent again
                self._state[view] = board
                frames.append(board)
            for client in [c for c in self._clients if c.view == view]:
                for frame in frames:
                    self._push(client, frame)

    def _push(self, client: Client, frame: str) -> None:
        if client not in self._clients:
            return
        waiting = client.queue.qsize()
        if waiting < QUEUE or (waiting < HISTORY
                               and time.monotonic() - client.progress < STALL):
            client.queue.put_nowait(frame)
            if waiting >= QUEUE and client.watch is None:
                # The burst may end before the page has stalled long: look again then,
                # or a silent page would keep its full queue until the next announcement.
                client.watch = self.loop.call_later(STALL, self._look_again, client)
        else:
            self._let_go(client)

    def _look_again(self, client: Client) -> None:
        client.watch = None
        if client in self._clients and client.queue.qsize() >= QUEUE:
            if time.monotonic() - client.progress >= STALL:
                self._let_go(client)
            else:
                client.watch = self.loop.call_later(STALL, self._look_again, client)

    def _let_go(self, client: Client) -> None:
        """A page that reads nothing: let it go, memory stays bounded."""
        log.warning("web: a page of view %s stopped reading; it is disconnected", client.view)
        self._clients.discard(client)
        if client.watch is not None:
            client.watch.cancel()
            client.watch = None
        if client.sender is not None:
            client.sender.cancel()
        client.queue = asyncio.Queue(maxsize=1)
        self.loop.create_task(self._drop(client.ws))

    async def _drop(self, ws: WebSocket) -> None:
        """Close a page's connection; one that does not take the close either (it reads
        nothing, its buffers are full) is cut, so that it does not stay open forever."""
        with contextlib.suppress(Exception):  # too slow to take it, or already gone
            await asyncio.wait_for(ws.close(code=1008), timeout=CLOSING)
        # A close waits behind everything the page has not read: give it as long again,
        # then cut the connection.
        for _ in range(int(CLOSING / 0.05)):
            if not self._open(ws):
                return
            await asyncio.sleep(0.05)
        for connection in self._open(ws):
            _cut(connection.transport)

    def _open(self, ws: WebSocket) -> list[Any]:
        """The server's connection (uvicorn's protocol) serving `ws`, if it is still open."""
        return [c for c in list(self._server.server_state.connections)
                if getattr(c, "scope", None) is ws.scope
                and not getattr(c, "disconnected", False)
                and getattr(c, "transport", None) is not None]

    # -- the web side -------------------------------------------------------------------
    def _app(self) -> Starlette:
        return Starlette(routes=[
            Route("/", self._refused),
            Route("/s/{token}", self._page),
            Route("/s/{token}/qr.svg", self._qr),
            Route("/static/{name}", self._static),
            WebSocketRoute("/s/{token}/ws", self._socket),
        ])

    def _view_of(self, token: str | None, where: str) -> int | str | None:
        view = self.tokens.get(token or "")
        if view is None:
            log.warning("web: refused a %s with an unknown token", where)
        return view

    async def _refused(self, request: Request) -> Response:
        self._view_of(None, "page")
        return self._refusal()

    def _refusal(self) -> Response:
        words = self.catalogue.render(Message("", "web.ui.refused"))
        html = (f'<!doctype html><html lang="{self.catalogue.lang}"><head><meta charset="utf-8">'
                f"<title>{words}</title></head><body><main><p>{words}</p></main></body></html>")
        return HTMLResponse(html, status_code=403)

    async def _page(self, request: Request) -> Response:
        view = self._view_of(request.path_params["token"], "page")
        if view is None:
            return self._refusal()
        return HTMLResponse(_asset("page.html").replace("{lang}", self.catalogue.lang),
                            headers={"Cache-Control": "no-store"})

    async def _qr(self, request: Request) -> Response:
        view = self._view_of(request.path_params["token"], "join code")
        if view is None:
            return self._refusal()
        import io

        buffer = io.BytesIO()
        segno.make(self.url(view), error="m").save(buffer, kind="svg", scale=8,
                                                   title=self.url(view))
        return Response(buffer.getvalue(), media_type="image/svg+xml")

    async def _static(self, request: Request) -> Response:
        name = request.path_params["name"]
        types = {"page.js": "text/javascript", "page.css": "text/css"}
        if name not in types:
            return Response("", status_code=404)
        return Response(_asset(name), media_type=types[name])

    async def _socket(self, ws: WebSocket) -> None:
        view = self._view_of(ws.path_params["token"], "connection")
        if view is None:
            await ws.close(code=1008)
            return
        await ws.accept()
        # What was said so far and the board, then everything said from now on, through
        # one queue filled here at once: no announcement made while the history is being
        # sent can fall between the two (nothing awaits before the client is listed).
        client = Client(view, asyncio.Queue(), ws)  # bounded by _push
        hello = {"type": "hello", "ui": self._ui(view), "view": str(view)}
        client.queue.put_nowait(json.dumps(hello, ensure_ascii=False))
        past = [line for frame in self._history[view] for line in json.loads(frame)["lines"]]
        if past:
            client.queue.put_nowait(json.dumps({"type": "past", "lines": past},
                                               ensure_ascii=False))
        if view in self._state:
            client.queue.put_nowait(self._state[view])
        self._clients.add(client)
        sender = client.sender = asyncio.create_task(self._send(ws, client))
        try:
            while True:
                message = await ws.receive()
                if message["type"] == "websocket.disconnect":
                    break
                self._command(client, message.get("text"))
        except (WebSocketDisconnect, RuntimeError):
            pass  # the page left
        finally:
            self._clients.discard(client)
            sender.cancel()

    async def _send(self, ws: WebSocket, client: Client) -> None:
        try:
            while True:
                await ws.send_text(await client.queue.get())
                client.progress = time.monotonic()
        except Exception:  # the connection is gone: its reader ends the client
            return

    def _command(self, client: Client, text: str | None) -> None:
        """A page's command: a line for the hub, like a typed one; anything else (not
        text, not JSON, no line) is said back to that page only and changes nothing."""
        if not self._allowed(client):
            return
        line = None if text is None else _line(text)
        if line is None:
            self._notice(client, "web.ui.bad_message")
        elif client.view == WATCH:
            self._notice(client, "web.ui.watch_only")
        else:
            self.hub.queue.put(InputItem(f"web:{client.view}", text=line, seat=int(client.view)))

    def _allowed(self, client: Client) -> bool:
        """Whether a page's message is taken (RATE a second after a burst of BURST): the
        first one refused says so on that page, the next ones are dropped quietly."""
        now = time.monotonic()
        client.allowance = min(BURST, client.allowance + (now - client.checked) * RATE)
        client.checked = now
        if client.allowance >= 1:
            client.allowance -= 1
            client.throttled = False
            return True
        if not client.throttled:
            client.throttled = True
            log.warning("web: a page of view %s sends too fast; its messages wait", client.view)
            self._notice(client, "web.ui.too_fast")
        return False

    def _notice(self, client: Client, key: str) -> None:
        text = self.catalogue.render(Message("error", key))
        self._push(client, json.dumps({"type": "notice", "lines": [text], "assertive": True},
                                      ensure_ascii=False))

    def _ui(self, view: int | str) -> dict[str, str]:
        words: Callable[..., str] = lambda key, **p: self.catalogue.render(  # noqa: E731
            Message("", f"web.ui.{key}", p))
        keys = ("announcements", "latest", "history", "board", "actions", "no_actions",
                "command", "send", "contrast", "disconnected", "connected")
        ui = {k: words(k) for k in keys}
        ui["title"] = words("title", game=self.session.game.name.capitalize())
        ui["role"] = (words("watching") if view == WATCH
                      else words("seat", player=self.session.names[int(view)]))
        return ui


def _lan_address() -> str:
    """This computer's address on the local network, for a server on every interface (a
    UDP socket "connected" to a private address sends nothing; 127.0.0.1 if none)."""
    import socket

    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(("10.254.254.254", 1))
            return str(probe.getsockname()[0])
        except OSError:
            return "127.0.0.1"


def _line(text: str) -> str | None:
    """The command in a page's message ({"line": "..."}), or None if it is not one."""
    if len(text) > MAX_LINE * 4 or text.count("[") + text.count("{") > DEPTH:
        return None  # too long or too deep to be a command: refused before parsing
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):
        return None
    line = data.get("line") if isinstance(data, dict) else None
    if not isinstance(line, str) or not line.strip() or len(line) > MAX_LINE:
        return None
    return " ".join(line.split())  # one line: no newline can end the hub's line early


def _asset(name: str) -> str:
    return resources.files("companion.web").joinpath("static", name).read_text("utf-8")


def _cut(transport: Any) -> None:
    """End a connection now: a reset, not a close that waits for the unread data to go."""
    sock = transport.get_extra_info("socket")
    if sock is not None:
        linger = struct.pack("HH" if sys.platform == "win32" else "ii", 1, 0)
        with contextlib.suppress(OSError):
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, linger)
    transport.abort()


class _Guard:
    """Around the pages' application: only requests naming this server by address (the
    Host header: a name that resolves elsewhere is how DNS rebinding reaches a local
    server), websockets only from our own pages (the Origin header), and every answer with
    the security headers."""

    def __init__(self, app: ASGIApp, table: WebTable) -> None:
        self.app, self.table = app, table

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        async def secured(message: ASGIMessage) -> None:
            if message["type"] == "http.response.start":
                message = {**message, "headers": [*message.get("headers", []),
                                                  *SECURITY_HEADERS]}
            await send(message)

        headers = {k.decode("latin-1"): v.decode("latin-1") for k, v in scope["headers"]}
        host = headers.get("host", "")
        why = None
        if not _named_by_address(host, self.table.host):
            why = "a request for another host name"
        elif scope["type"] == "websocket" and "origin" in headers and headers["origin"] not in (
                f"http://{host}", f"https://{host}"):
            why = "a connection from a page of another site"
        if why is not None:
            log.warning("web: refused %s", why)
            if scope["type"] == "websocket":
                await send({"type": "websocket.close", "code": 1008})
            else:
                await self.table._refusal()(scope, receive, secured)
            return
        await self.app(scope, receive, secured)


def _named_by_address(host: str, served: str) -> bool:
    """Whether a Host header names this server by an address (or localhost, or the name
    it was started with), not by some other name."""
    name = host.rsplit(":", 1)[0] if host.count(":") == 1 or host.startswith("[") else host
    name = name.strip("[]").lower()
    if not name:
        return False
    if name in ("localhost", served.lower()):
        return True
    try:
        ipaddress.ip_address(name)
    except ValueError:
        return False
    return True


class _Plain(logging.Formatter):
    """The server's own log lines, one plain line each: never a traceback on the players'
    terminal (an invalid frame from a page is the page's problem, not the game's)."""

    def format(self, record: logging.LogRecord) -> str:
        return f"web: {record.getMessage()}"


def _quiet_server_logs() -> None:
    server = logging.getLogger("uvicorn")
    if not any(isinstance(h.formatter, _Plain) for h in server.handlers):
        handler = logging.StreamHandler()
        handler.setFormatter(_Plain())
        server.addHandler(handler)
    server.setLevel(logging.WARNING)
    server.propagate = False
