"""Card readers and a keypad at a Momiji table: events and lines in, Messages out.

The Momiji twin of companion/inputs/devices.py (whose `attach_devices` starts the same
threads for both games). Scans go to companion.games.momiji.scan; keypad keys build a line;
while scanned cards wait to be applied, a few lines act on them instead of the session:

* Enter alone applies them (a play, a place, a short reveal);
* undo (keypad minus) takes back the last scan only, not the previous action;
* cancel sets them all aside; repeat (star) reads them back;
* end is refused with a reminder: ending the turn would silently drop a scanned play.

Unlike Hanamikoji, a leading 0 is not cancel: 0 is a leaf value, "pile unknown" and the
"zero" objective in Momiji's keypad language. Anything else goes to `Session.handle`;
if it changes the game, the scanned cards are set aside and the player is told so.
"""

from __future__ import annotations

import logging
from typing import Any

from companion.cards.registry import CardRegistry, is_payload
from companion.errors import CompanionError
from companion.games.momiji.actions import End, Objectives, Reveal
from companion.games.momiji.rules import Phase
from companion.games.momiji.scan import (
    P,
    add_objectives,
    confirm,
    context_for,
    drop,
    handle_scan,
    objectives_so_far,
    remove_last,
    set_aside,
    so_far,
    start_reveal,
)
from companion.games.protocol import DeviceHooks
from companion.inputs.scan_echo import Origin
from companion.narrate.message import Message, Priority
from companion.shared_commands import Ask, Cancel, Query, Undo

log = logging.getLogger(__name__)
C = "cards."  # device sentences are shared with Hanamikoji (companion/locales/cards.*)


def handle_line(session: Any, line: str, registry: CardRegistry | None,
                origin: Origin | None = None) -> list[Message]:
    """A keyed or typed line (a wedge scanner's too, read from `origin`); never raises."""
    try:
        return _line(session, line, registry, origin)
    except Exception:
        log.exception("line %r could not be handled", line)
        return [Message("error", C + "input_failed", priority=Priority.REFUSAL)]


def _interpret(session: Any, text: str) -> Any:
    """The command a line means now, or None if it means nothing (the session says why)."""
    try:
        return session.interpret(text)
    except CompanionError:
        return None


def _line(session: Any, line: str, registry: CardRegistry | None,
          origin: Origin | None = None) -> list[Message]:
    text = line.strip()
    if text and (is_payload(text) or (registry is not None and registry.lookup(text))):
        return handle_scan(session, text, registry, origin)
    ctx = context_for(session)
    ctx.prune(session)
    g = objectives_so_far(session) or ctx.gathering  # a part said or typed joins the scans
    if g is not None:
        if not text:
            return confirm(session) or []
        command = _interpret(session, text)
        if (g.purpose == "objectives" and isinstance(command, Objectives)
                and len(command.objectives) < (g.wanted or 0)):
            return add_objectives(session, command.objectives)
        if isinstance(command, Undo):
            return remove_last(session) or []
        if isinstance(command, Cancel):
            return drop(session) or []
        if isinstance(command, Ask) and command.query is Query.REPEAT:
            return so_far(session, g)
        if isinstance(command, End):
            return [Message("error", P + "finish_first", priority=Priority.REFUSAL)] + so_far(
                session, g)
    elif text and session.state.phase is Phase.TURN:
        command = _interpret(session, text)
        if isinstance(command, Reveal) and not command.cards:
            return start_reveal(session)  # "reveal" alone: the new cards will be scanned
    messages = session.handle(line)
    gone = ctx.prune(session)
    if gone is not None:  # another action came first: nothing scanned was applied
        messages = [set_aside(gone)] + messages
    return messages


# Keypad 0 is a digit (values 0 to 3); symbols act as lines.
DEVICES = DeviceHooks(scan=handle_scan, line=_line, symbol=_line,
                      keys=lambda session: context_for(session).keys, zero_acts=False)
