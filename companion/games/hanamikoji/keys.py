"""Hanamikoji at the keypad and the card readers: what its keys and scans mean.

The device and key handling around it is the core's (companion/inputs/devices.py); this
says that a tag id or label typed by a wedge scanner is a scan, that digits during a
scanned Secret or Discard name its cards privately, and what each keypad symbol does.
"""

from __future__ import annotations

from typing import Any

from companion.cards.registry import CardRegistry, is_payload
from companion.games.hanamikoji.scan import (
    cancel_private,
    context_for,
    handle_scan,
    private_keys,
    private_prompt,
)
from companion.games.protocol import DeviceHooks
from companion.inputs.devices import SYMBOLS
from companion.inputs.scan_echo import Origin
from companion.narrate.message import Message
from companion.shared_commands import Ask, Cancel, Query


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
    if text == "" or text.isdigit():
        private = private_keys(session, text)
        if private is not None:
            return private
    return session.handle(line)


def _symbol(session: Any, symbol: str, registry: CardRegistry | None = None) -> list[Message]:
    if symbol in ("0", "-") and cancel_private(session):
        return [Message("info", "cancelled")] + session.execute(Ask(Query.WHAT))
    if symbol == "0":
        return session.execute(Cancel())
    if symbol == "*":
        again = private_prompt(session)
        if again is not None:
            return again
    return session.execute(SYMBOLS[symbol])


DEVICES = DeviceHooks(scan=handle_scan, line=handle_line, symbol=_symbol,
                      keys=lambda session: context_for(session).keys, zero_acts=True)
