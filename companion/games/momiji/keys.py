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
from companion.games.momiji.scan import Confirm, Gathering, handle_scan, set_aside, waiting
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
    g = waiting(session.pending, session.state)  # scanned cards, or objectives named so far
    if g is not None:
        if not text:
            return session.enter(Confirm())
        command = _interpret(session, text)
        if isinstance(command, (Undo, Cancel, End)) or (
                isinstance(command, Ask) and command.query is Query.REPEAT) or (
                g.purpose == "objectives" and isinstance(command, Objectives)
                and len(command.objectives) < (g.wanted or 0)):
            return session.enter(command)  # folded into what waits (scan.fold)
    elif text and session.state.phase is Phase.TURN:
        command = _interpret(session, text)
        if isinstance(command, Reveal) and not command.cards:
            return session.enter(command)  # "reveal" alone: the new cards will be scanned
    before, steps = session.pending, session.step
    messages = session.handle(line)
    if g is not None and session.pending is not before and not _took(session, steps, g):
        messages = [set_aside(g), *messages]  # another action came first: not applied
    return messages


def _took(session: Any, steps: int, g: Gathering) -> bool:
    """Whether the step just made took what waited (objectives named in parts, completed
    by a typed line), so that nothing was set aside."""
    if session.step <= steps or g.purpose != "objectives":
        return False
    action = session.log[-1][0]
    return isinstance(action, Objectives) and set(g.items) <= set(action.objectives)


# Keypad 0 is a digit (values 0 to 3); symbols act as lines.
DEVICES = DeviceHooks(scan=handle_scan, line=_line, symbol=_line,
                      zero_acts=False)
