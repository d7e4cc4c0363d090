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
import json
import logging
import secrets
import threading
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from importlib import resources
from typing import Any

import segno
import uvicorn
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import HTMLResponse, Response
from starlette.routing import Route, WebSocketRoute
from starlette.websockets import WebSocket, WebSocketDisconnect

from companion.inputs.hub import InputHub, InputItem
from companion.narrate.catalogue import Catalogue
from companion.narrate.message import Message, Priority
from companion.web.views import render_view

log = logging.getLogger("companion.web")

WATCH = "watch"  # the watchers' view; a seat's view is its index
MAX_LINE = 500  # characters in one command: more is not a command
MAX_FRAME = 64 * 1024  # bytes in one websocket message: more closes that connection
QUEUE = 256  # updates waiting for one client: a page that reads none of them is let go
HISTORY = 2000  # announcements kept per view for a page that joins late


@dataclass(eq=False)
class Client:
    view: int | str
    queue: asyncio.Queue[str]
    ws: WebSocket
    sender: asyncio.Task[None] | None = None


class WebTable:
    """The web pages of one game: tokens, the server thread, and what each view was told."""

    def __init__(self, session: Any, catalogue: Catalogue, hub: InputHub,
                 host: str = "127.0.0.1", port: int = 8765,
                 seats: list[int] | None = None) -> None:
        self.session, self.catalogue, self.hub = session, catalogue, hub
        self.host = host
        # a page per seat people sit at (`seats`, default all) and one for the watchers,
        # each with 128 bits of randomness, new for each game
        seats = list(range(len(session.names)) if seats is None else seats)
        self.tokens: dict[str, int | str] = {secrets.token_urlsafe(16): seat for seat in seats}
        self.tokens[secrets.token_urlsafe(16)] = WATCH
        self.views: list[int | str] = [*seats, WATCH]
        self._history: dict[int | str, deque[str]] = {v: deque(maxlen=HISTORY)
                                                      for v in self.views}
        self._state: dict[int | str, str] = {}
        self._clients: set[Client] = set()
        self.loop = asyncio.new_event_loop()
        config = uvicorn.Config(self._app(), host=host, port=port, log_level="warning",
                                ws_max_size=MAX_FRAME, ws="websockets-sansio",
                                lifespan="off", loop="asyncio")
        self._server = uvicorn.Server(config)
        self._thread = threading.Thread(target=self._serve, name="web", daemon=True)
        self.port = port

    # -- life ---------------------------------------------------------------------------
    def start(self) -> None:
        """Serve, and return once the port listens (so the addresses said are live)."""
        self._thread.start()
        while not self._server.started:
            if not self._thread.is_alive():
                raise OSError(f"the web server could not listen on {self.host}:{self.port}")
            threading.Event().wait(0.01)
        sock = self._server.servers[0].sockets[0]
        self.port = sock.getsockname()[1]
        self.publish([])  # the board as it stands

    def _serve(self) -> None:
        asyncio.set_event_loop(self.loop)
        self.loop.run_until_complete(self._server.serve())

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
        try:
            client.queue.put_nowait(frame)
        except asyncio.QueueFull:  # a page that reads nothing: let it go, memory stays bounded
            log.warning("web: a page of view %s stopped reading; it is disconnected", client.view)
            self._clients.discard(client)
            if client.sender is not None:
                client.sender.cancel()
            client.queue = asyncio.Queue(maxsize=1)
            self.loop.create_task(_drop(client.ws))

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
                            headers={"Cache-Control": "no-store",
                                     "Referrer-Policy": "no-referrer"})

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
        client = Client(view, asyncio.Queue(maxsize=QUEUE), ws)
        hello = {"type": "hello", "ui": self._ui(view), "view": str(view)}
        await ws.send_text(json.dumps(hello, ensure_ascii=False))
        for frame in list(self._history[view]):
            await ws.send_text(frame.replace('"type": "say"', '"type": "past"', 1))
        if view in self._state:
            await ws.send_text(self._state[view])
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
        except Exception:  # the connection is gone: its reader ends the client
            return

    def _command(self, client: Client, text: str | None) -> None:
        """A page's command: a line for the hub, like a typed one; anything else (not
        text, not JSON, no line) is said back to that page only and changes nothing."""
        line = None if text is None else _line(text)
        if line is None:
            self._notice(client, "web.ui.bad_message")
        elif client.view == WATCH:
            self._notice(client, "web.ui.watch_only")
        else:
            self.hub.queue.put(InputItem(f"web:{client.view}", text=line))

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


async def _drop(ws: WebSocket) -> None:
    """Close a page's connection, without waiting long for a page that reads nothing."""
    try:
        await asyncio.wait_for(ws.close(code=1008), timeout=2)
    except Exception:  # already gone, or too slow to hear it: its reader ends it
        return


def _line(text: str) -> str | None:
    """The command in a page's message ({"line": "..."}), or None if it is not one."""
    if len(text) > MAX_LINE * 4:
        return None
    try:
        data = json.loads(text)
    except ValueError:
        return None
    line = data.get("line") if isinstance(data, dict) else None
    if not isinstance(line, str) or not line.strip() or len(line) > MAX_LINE:
        return None
    return " ".join(line.split())  # one line: no newline can end the hub's line early


def _asset(name: str) -> str:
    return resources.files("companion.web").joinpath("static", name).read_text("utf-8")
