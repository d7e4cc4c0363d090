"""A card reader that cannot be opened is said with the reason: not found, permission, busy."""

from __future__ import annotations

import os
import queue

import pytest
from ptys import FakeTty

from companion.games.registry import load_game
from companion.inputs.devices import handle_device_event
from companion.narrate.catalogue import Catalogue
from companion.session import Session
from hardware.events import ReaderEvent
from hardware.serial_reader import SerialReader

pytestmark = pytest.mark.skipif(not hasattr(os, "openpty"), reason="needs pseudo-terminals")
FAST = {"retry_initial": 0.05, "retry_max": 0.2, "read_timeout": 0.02}


def first(events: queue.Queue[ReaderEvent], kind: str) -> ReaderEvent:
    event = events.get(timeout=3)
    assert event.kind == kind, event
    return event


def said(event: ReaderEvent, lang: str = "en") -> str:
    """The problem as said (the prompt said again after it is left out)."""
    session = Session(load_game("hanamikoji"), {"players": ["Ana", "Ben"], "lang": lang})
    messages = handle_device_event(session, event, None)
    assert messages[-1].event == "prompt"  # the prompt stays the last thing heard
    return " ".join(Catalogue(lang).render(m) for m in messages if m.event != "prompt")


def opened(path: str) -> ReaderEvent:
    with SerialReader(path, "line", name="reader 1", **FAST) as reader:
        return first(reader.events, "error")


def test_a_missing_reader_is_said_not_found(tmp_path):
    event = opened(str(tmp_path / "ttyUSB9"))
    assert event.reason == "not_found"
    assert said(event) == ("Card reader 1 cannot be opened: it is not there; check the cable "
                           "and the address given after --reader. Go on with the keypad or voice.")
    assert "introuvable" in said(event, "fr")


def test_a_reader_held_by_another_program_is_said_busy():
    tty = FakeTty()
    try:
        with SerialReader(tty.path, "line", name="other", **FAST) as holder:
            first(holder.events, "connected")  # holds the port's exclusive lock
            event = opened(tty.path)
    finally:
        tty.close()
    assert event.reason == "busy"
    assert "another program is using it" in said(event)


@pytest.mark.skipif(os.geteuid() == 0, reason="root opens any file")
def test_a_reader_without_permission_is_said_so(tmp_path):
    device = tmp_path / "ttyS9"
    device.write_bytes(b"")
    device.chmod(0)
    event = opened(str(device))
    assert event.reason == "permission"
    assert "dialout" in said(event)
