"""A Momiji game driven by printed-label scans over a real pseudo-terminal (pyserial, the
`line` protocol) ends exactly where the same game typed ends."""

from __future__ import annotations

import os
from argparse import Namespace

import pytest
from ptys import FakeTty

from companion.games.registry import load_game
from companion.inputs.devices import attach_devices, handle_device_event, handle_line
from companion.inputs.hub import InputHub
from companion.narrate.catalogue import Catalogue
from companion.narrate.message import Message
from companion.session import Session
from hardware.events import ReaderEvent

pytestmark = pytest.mark.skipif(not hasattr(os, "openpty"), reason="needs pseudo-terminals")

FAST = {"retry_initial": 0.02, "retry_max": 0.1, "read_timeout": 0.01, "repeat_gap": 0}
EN = Catalogue("en")
NAMES = ["Ana", "Ben", "Cy"]

# The opening of tests/golden/momiji_en.txt, typed.
TYPED = [
    "without red",
    "cool acorns torii zero placed",
    "green 0 brown 0 violet 0 yellow 1",
    "8",
    "play green 0 brown 0 yellow 0",
    "bonus 1",
    "end",
    "collect green",
    "trade",
    "end",
    "reveal green 1 green 2 purple 1 orange 0",
    "collect grapes",
    "end",
    "play green 2",  # refused: Ana's green pile has a 0 on top
    "play green 1 2",
    "end",
]

# The same game at the table: cards and tokens scanned, the rest keyed or typed.
# ("scan", payload) is written to the serial port; ("key", k) is a keypad key; text is typed.
MJ = "TC1:MJ:"
SCANNED: list[tuple[str, str] | str] = [
    "without red",
    *[("scan", MJ + f"OBJECTIVE:{o}:1") for o in ("ZERO", "COOL", "PLACED", "ACORNS", "TORII")],
    *[("scan", MJ + f"LEAF:{c}") for c in ("YELLOW:1", "GREEN:0", "VIOLET:0", "BROWN:0")],
    ("key", "8"), ("key", "ENTER"),
    *[("scan", MJ + f"LEAF:{c}") for c in ("YELLOW:0", "GREEN:0", "BROWN:0")],
    ("key", "ENTER"),  # plays the three leaves
    "bonus 1",
    ("key", "9"), ("key", "ENTER"),
    "collect green",
    "trade",
    "end",
    ("key", "7"), ("key", "ENTER"),  # reveal: the four new cards are scanned
    *[("scan", MJ + f"LEAF:{c}") for c in ("ORANGE:0", "GREEN:2", "VIOLET:1", "GREEN:1")],
    "collect grapes",
    "end",
    ("scan", MJ + "LEAF:GREEN:2"), ("key", "ENTER"),  # refused at Enter, as typed
    ("scan", MJ + "LEAF:GREEN:2"), ("scan", MJ + "LEAF:GREEN:1"),  # order does not matter
    "",  # Enter typed on the keyboard works too
    "end",
]


def next_event(hub: InputHub, timeout: float = 3.0) -> ReaderEvent:
    while True:
        item = hub.queue.get(timeout=timeout)
        if item.event is not None:
            return item.event


def new_session() -> Session:
    return Session(load_game("momiji"), {"players": NAMES, "lang": "en"})


def texts(session: Session) -> list[str]:
    return [action.text() for action, _ in session.log]


def narration(messages: list[Message]) -> list[str]:
    """What the engine said about accepted steps (scan read-backs and prompts left out)."""
    return [EN.render(m) for m in messages
            if m.private_to is None and m.event not in ("prompt", "error", "info")]


def test_scanned_game_equals_the_typed_game():
    typed = new_session()
    typed_said: list[str] = []
    for line in TYPED:
        typed_said += narration(typed.handle(line))

    tty = FakeTty()
    hub = InputHub()
    session = new_session()
    group = attach_devices(hub, Namespace(reader=[tty.path], reader_protocol=["line"],
                                          keypad=None), lambda m: None, **FAST)
    said: list[str] = []
    heard: list[str] = []
    try:
        assert group is not None
        assert next_event(hub).kind == "connected"
        for step in SCANNED:
            if isinstance(step, str):
                out = handle_line(session, step, None)
            elif step[0] == "scan":
                tty.write(step[1].encode() + b"\r\n")
                event = next_event(hub)
                assert (event.kind, event.value) == ("scan", step[1])
                out = handle_device_event(session, event, None)
            else:
                out = handle_device_event(session, ReaderEvent("keypad", "k", "key", step[1]),
                                          None)
            said += narration(out)
            heard += [EN.render(m) for m in out]
    finally:
        hub.close()
        tty.close()

    assert texts(session) == texts(typed)
    assert session.state == typed.state
    assert said == typed_said
    # what the scans added: read-backs, and the refusal of green 2 on a green 0
    assert "Play so far: yellow 0, green 0 and brown 0. Scan more leaves, or press Enter to " \
           "play them." in heard
    assert "Cy reveals: scan the 4 new cards." in heard
    assert "Garden so far: yellow 1, green 0 and purple 0. 1 more card." in heard
    assert "Green 2 must equal the top of its pile, 0, or be one higher." in heard
    assert "Nothing was applied: scan the cards again. Scanned: green 2." in heard


def test_unknown_and_foreign_scans_over_the_port_change_nothing():
    tty = FakeTty()
    hub = InputHub()
    session = new_session()
    attach_devices(hub, Namespace(reader=[tty.path], reader_protocol=["line"], keypad=None),
                   lambda m: None, **FAST)
    try:
        assert next_event(hub).kind == "connected"
        for value, key in [("0A1B2C3D", "momiji.scan.unknown_tag"),
                           ("TC1:HK:ITEM:FAN:1", "cards.other_game"),
                           ("TC1:MJ:LEAF:GREEN:9", "cards.bad_label"),
                           ("TC1:MJ:LEAF:GREEN:0", "momiji.scan.not_now")]:
            tty.write(value.encode() + b"\r\n")
            said = handle_device_event(session, next_event(hub), None)
            assert said[0].key == key
            assert session.log == () and session.pending is None
        tty.close()
        gone = next_event(hub)
        assert handle_device_event(session, gone, None)[0].key == "cards.reader_disconnected"
    finally:
        hub.close()
        tty.close()
