"""What one page shows besides the announcements: the game's board and the buttons of what
can be done now, rendered in words by the catalogue (never a colour alone)."""

from __future__ import annotations

import json
from typing import Any

from companion.games.protocol import Choice, Section
from companion.narrate.catalogue import Catalogue
from companion.narrate.message import Message

# Commands every game shares, offered on every seat's page after the game's own.
SHARED = (Choice(Message("", "web.undo"), "undo"), Choice(Message("", "web.repeat"), "repeat"))


def render_view(session: Any, catalogue: Catalogue, view: int | str) -> str:
    """The board and the choices as one JSON frame for `view` (a seat index or "watch").
    A watcher's board has no private section and no buttons."""
    seat = view if isinstance(view, int) else None
    hooks = session.game.web()
    sections: list[Section] = [] if hooks is None else hooks.board(session.state,
                                                                     session.names, seat)
    choices: list[Choice] = []
    if seat is not None:
        if hooks is not None:
            choices = hooks.choices(session.state, session.names, session.pending)
        choices = [*choices, *SHARED]
    say = catalogue.render
    frame = {
        "type": "view",
        "board": [_section(s, say) for s in sections],
        "choices": [{"label": say(c.label), "line": c.line} for c in choices],
    }
    return json.dumps(frame, ensure_ascii=False)


def _section(section: Section, say: Any) -> dict[str, Any]:
    out: dict[str, Any] = {"heading": say(section.heading),
                           "items": [say(m) for m in section.items],
                           "private": section.private}
    if section.grid is not None:
        grid = section.grid
        out["grid"] = {"caption": say(grid.caption),
                       "columns": [say(c) for c in grid.columns],
                       "rows": [[say(c) for c in row] for row in grid.rows]}
    return out
