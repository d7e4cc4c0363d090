"""Hanamikoji at the keypad and the card readers: what its keys and scans mean.

The device and key handling around it is the core's (companion/inputs/devices.py); this
says that a tag id or label typed by a wedge scanner is a scan, that digits during a
scanned Secret or Discard name its cards privately (a part the game folds into that
pending action, scan.Keyed), and what each keypad symbol does.
"""

from __future__ import annotations

from typing import Any

from companion.cards.registry import CardRegistry, is_payload
from companion.games.hanamikoji.scan import Keyed, Private, handle_scan, private_prompt
from companion.games.protocol import DeviceHooks
from companion.inputs.devices import SYMBOLS
from companion.inputs.scan_echo import Origin
from companion.narrate.message import Message
from companion.shared_commands import Cancel


def handle_line(session: Any, line: str, registry: CardRegistry | None,
                origin: Origin | None = None) -> list[Message]:
    """A keyed or typed line: a tag id or label typed by a wedge scanner is a scan (read
    from `origin`); during a scanned Secret/Discard, digits name its cards privately; else
    the session's line."""
    text = line.strip()
    if text and (is_payload(text) or (registry is not None and registry.lookup(text))):
        return handle_scan(session, text, registry, origin)
    if text == "0" or text in SYMBOLS:
        return _symbol(session, text)
    if (text == "" or text.isdigit()) and isinstance(session.pending, Private):
        return session.enter(Keyed(text))
    return session.handle(line)


def _symbol(session: Any, symbol: str, registry: CardRegistry | None = None) -> list[Message]:
    """0 cancels what is half-entered (minus too: undo drops it before any step); star
    says the scanned Secret/Discard's prompt again, privately, while one waits."""
    if symbol == "0":
        return session.execute(Cancel())
    if symbol == "*" and isinstance(session.pending, Private):
        return [private_prompt(session.names, session.pending)]
    return session.execute(SYMBOLS[symbol])


DEVICES = DeviceHooks(scan=handle_scan, line=handle_line, symbol=_symbol, zero_acts=True)
