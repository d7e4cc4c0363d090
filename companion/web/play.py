"""`companion play --web`: the pages beside the speaker and the terminal, and how to join."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from companion.narrate.message import Message
from companion.web.server import WATCH, WebTable


def attach_web(hub: Any, session: Any, out: Any, host: str, port: int,
               seats: Sequence[int] | None = None) -> WebTable:
    """Serve the pages, make each seat's page its private channel, and say how to join: one
    address and QR code per seat and one for watchers (printed; the table hears where the
    pages are served). `seats`: those people sit at (default all; a seat the computer
    plays has no page)."""
    seats = list(range(len(session.names)) if seats is None else seats)
    table = WebTable(session, out.catalogue, hub, host=host, port=port, seats=seats)
    table.start()
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
