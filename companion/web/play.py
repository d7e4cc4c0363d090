"""`companion play --web`: the pages beside the speaker and the terminal, and how to join."""

from __future__ import annotations

import contextlib
import errno
import shlex
import socket
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from companion.narrate.message import Message
from companion.web.server import WATCH, WebTable, listen


def reserve(host: str, port: int, catalogue: Any, speak: bool,
            speech_out: Any = None) -> socket.socket | None:
    """The pages' port, bound before the game starts; None when it cannot be (a busy port,
    an address not of this computer), after saying so plainly, printed and spoken, with
    what to do: nothing of the game is written or said before."""
    try:
        return listen(host, port)
    except OSError as error:
        busy = error.errno in (errno.EADDRINUSE, getattr(errno, "WSAEADDRINUSE", None))
        key = "web.port_busy" if busy else "web.cannot_listen"
        text = catalogue.render(Message("error", key, {"host": host, "port": port,
                                                       "next": port + 1 if port else 0}))
        print(text, flush=True)
        if speak:
            with contextlib.suppress(Exception):  # no voice here: the printed line stays
                from companion.speech import load_settings, open_speaker

                speaker, _ = open_speaker(catalogue.lang, load_settings()[0], enabled=True,
                                          out_dir=speech_out)
                if speaker is not None:
                    speaker.say(text)
                    speaker.wait(timeout=20)
                    speaker.close()
        return None


def attach_web(hub: Any, session: Any, out: Any, host: str, port: int,
               seats: Sequence[int] | None = None, sock: socket.socket | None = None,
               store: Any = None, new_addresses: bool = False) -> WebTable:
    """Serve the pages, make each seat's page its private channel, and say how to join: one
    address and QR code per seat and one for watchers (printed; the table hears where the
    pages are served). `seats`: those people sit at (default all; a seat the computer
    plays has no page). A resumed game keeps the addresses its log holds (the pages on the
    players' phones reconnect by themselves) unless `new_addresses`."""
    seats = list(range(len(session.names)) if seats is None else seats)
    kept = None
    if store is not None and session.game_id is not None and not new_addresses:
        kept = store.addresses(session.game_id) or None
    hidden: list[str] = []
    if store is not None and str(store.path) != ":memory:":
        path = str(store.path)
        hidden = [path, shlex.quote(path), str(Path(path).resolve())]
    table = WebTable(session, out.catalogue, hub, host=host, port=port, seats=seats,
                     sock=sock, kept=kept, hidden=hidden)
    table.start()
    if store is not None:
        _keep_addresses(table, session, store)
        out.listeners.append(lambda said: _keep_addresses(table, session, store))
    out.channels.update(f"player:{seat}" for seat in seats)
    out.listeners.append(table.publish)
    say = out.catalogue.render
    for view in table.views:
        key, params = (("web.join_watch", {}) if view == WATCH
                       else ("web.join_seat", {"player": session.names[int(view)]}))
        out.notice("web_join", say(Message("", key, {**params, "url": table.url(view)})))
        if not out.json_mode:
            out.stream.write(table.qr_text(view))
    # A player with an earbud also hears their own address there, and only there.
    earbuds = getattr(out.speaker, "private_channels", ())
    out.emit([Message("private", "web.join_private", {"url": table.url(seat)},
                      private_to=seat)
              for seat in seats if f"player:{seat}" in earbuds])
    where = ("web.join_local" if host in ("127.0.0.1", "localhost", "::1")
             else "web.join_network")
    out.emit([Message("info", where, {"host": table.url(WATCH).split("/")[2]})])
    return table


def _keep_addresses(table: WebTable, session: Any, store: Any) -> None:
    """The pages' addresses in the game's log (once per game: `new game` makes another),
    so that `--resume --web` serves the same ones. A log that cannot be written says so
    through the session; the pages work all the same."""
    game_id = session.game_id
    if game_id is None or table.kept_for == game_id:
        return
    from companion.store import StorageError

    with contextlib.suppress(StorageError):
        store.keep_addresses(game_id, table.addresses)
        table.kept_for = game_id
