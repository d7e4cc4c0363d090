"""attach_devices over real pyserial: unplug and replug mid-game, loop://, no evdev."""

from __future__ import annotations

import os
from argparse import Namespace

import pytest
from ptys import FakeTty

from companion.cards.payload import CardRef
from companion.cards.registry import CardRegistry
from companion.games.hanamikoji.keys import DEVICES
from companion.games.registry import load_game
from companion.inputs.devices import attach_devices, device_event, handle_device_event
from companion.inputs.hub import InputHub
from companion.narrate.catalogue import Catalogue
from companion.narrate.message import Message
from companion.session import Session
from hardware import keypad as keypad_module
from hardware.events import ReaderEvent
from hardware.frames import rdm6300_frame

pytestmark = pytest.mark.skipif(not hasattr(os, "openpty"), reason="needs pseudo-terminals")

FAST = {"retry_initial": 0.02, "retry_max": 0.1, "read_timeout": 0.01, "repeat_gap": 0}
EN = Catalogue("en")


def link_to(link: str, target: str) -> None:
    tmp = link + ".new"
    os.symlink(target, tmp)
    os.replace(tmp, link)  # as udev re-creates /dev/serial/by-id links


def next_event(hub: InputHub, timeout: float = 3.0) -> ReaderEvent:
    while True:
        item = hub.queue.get(timeout=timeout)
        if item.event is not None:
            return item.event


def new_session() -> Session:
    return Session(load_game("hanamikoji"), {"players": ["Ana", "Ben"], "lang": "en"})


def args(**kw: object) -> Namespace:
    return Namespace(**{"reader": None, "reader_protocol": None, "keypad": None, **kw})


@pytest.fixture
def registry(tmp_path) -> CardRegistry:
    registry = CardRegistry(tmp_path / "cards.json")
    registry.add("0A00000001", CardRef("hanamikoji", "token", "gift", 1))
    registry.add("0A00000002", CardRef("hanamikoji", "item", "fan", 1))
    registry.add("0A00000003", CardRef("hanamikoji", "item", "fan", 2))
    registry.add("0A00000004", CardRef("hanamikoji", "item", "tea", 1))
    return registry


def test_unplug_and_replug_announced_and_the_game_goes_on(tmp_path, registry):
    link = str(tmp_path / "usb-RDM6300-if00-port0")
    first = FakeTty()
    link_to(link, first.path)
    hub = InputHub()
    session = new_session()
    attach_devices(hub, args(reader=[link]), lambda m: None, **FAST)
    second = None
    try:
        said = handle_device_event(session, next_event(hub), registry)
        assert [m.event for m in said] == ["reader_connected"]
        assert EN.render(said[0]) == "Card reader connected."
        first.write(rdm6300_frame("0A00000001"))
        handle_device_event(session, next_event(hub), registry)
        assert session.pending is not None  # the Gift token

        first.unplug()
        gone = next_event(hub)
        said = handle_device_event(session, gone, registry)
        assert gone.kind == "disconnected" and said[0].event == "reader_disconnected"
        assert EN.render(said[0]) == (
            "Card reader disconnected: go on with the keypad or voice.")
        for line in ["fan", "tea"]:  # typed while the reader is away
            session.handle(line)
        assert session.pending.cards and len(session.log) == 0

        second = FakeTty()
        link_to(link, second.path)
        back = next_event(hub)
        assert back.kind == "connected"
        assert handle_device_event(session, back, registry)[0].event == "reader_connected"
        second.write(rdm6300_frame("0A00000003"))
        said = handle_device_event(session, next_event(hub), registry)
        assert session.log[-1][0].text() == "gift fan fan tea"
        assert any(m.event == "offer" for m in said)
    finally:
        hub.close()
        first.unplug()
        if second is not None:
            second.unplug()


def test_loop_url_with_printed_labels_and_line_protocol():
    hub = InputHub()
    session = new_session()
    group = attach_devices(hub, args(reader=["loop://"], reader_protocol=["line"]),
                           lambda m: None, **FAST)
    try:
        assert next_event(hub).kind == "connected"
        port = group.readers[0].port
        port.write(b"TC1:HK:TOKEN:GIFT:1\r\n")
        said = handle_device_event(session, next_event(hub), None)  # labels need no registry
        assert "Gift" in EN.render(said[0])
        port.write(b"NOT-A-CARD\r\n")
        said = handle_device_event(session, next_event(hub), None)
        assert [m.key for m in said] == ["cards.unknown_tag"]
    finally:
        hub.close()


def test_missing_reader_is_said_once_and_bad_protocol_announced(tmp_path):
    hub = InputHub()
    notes: list[Message] = []
    group = attach_devices(hub, args(reader=[str(tmp_path / "absent"), "loop://"],
                                     reader_protocol=["rdm6300", "morse"]), notes.extend, **FAST)
    try:
        assert [m.key for m in notes] == ["cards.reader_bad_protocol"]
        assert len(group.readers) == 1
        event = next_event(hub)
        said = handle_device_event(new_session(), event, None)
        assert event.kind == "error"
        assert EN.render(said[0]) == (
            "Card reader 1 cannot be opened: it is not there; check the cable and the address "
            "given after --reader. Go on with the keypad or voice.")
    finally:
        hub.close()


def test_keypad_without_evdev_is_explained_once(monkeypatch):
    def unavailable() -> None:
        raise keypad_module.EvdevUnavailable("The evdev package is not installed.")

    monkeypatch.setattr(keypad_module, "_load_evdev", unavailable)
    hub = InputHub()
    notes: list[Message] = []
    assert attach_devices(hub, args(keypad="Numeric Keypad"), notes.extend) is None
    assert [m.key for m in notes] == ["cards.keypad_unavailable"]
    assert "ordinary keyboard" in EN.render(notes[0])
    assert Catalogue("fr").render(notes[0]).startswith("Le pavé numérique ne peut pas")
    session = new_session()
    session.handle("3")  # the keyboard still works
    assert session.pending is not None


def test_no_devices_no_threads():
    hub = InputHub()
    assert attach_devices(hub, args(), lambda m: None) is None


def test_a_failing_event_never_raises():
    class Broken:
        names = ["Ana", "Ben"]

        def handle(self, line: str) -> list[Message]:
            raise RuntimeError("bug")

    said = device_event(DEVICES, Broken(), ReaderEvent("keypad", "k", "key", "ENTER"), None)
    assert [m.key for m in said] == ["cards.input_failed"]


def test_keypad_events_are_spoken_as_keypad():
    session = new_session()
    for kind, key in [("connected", "cards.keypad_connected"),
                      ("disconnected", "cards.keypad_disconnected"),
                      ("error", "cards.keypad_error")]:
        said = handle_device_event(session, ReaderEvent("keypad", "/dev/input/e", kind), None)
        assert said[0].key == key
        if kind != "connected":  # a problem comes after the prompt: the prompt is said again
            assert [m.event for m in said[1:]] == ["prompt"]


def test_a_keypad_that_is_not_there_names_the_keypad_option_and_device():
    event = ReaderEvent("keypad", "Numeric Keypad", "error", reason="not_found")
    said = handle_device_event(new_session(), event, None)
    text = EN.render(said[0])
    assert "--keypad" in text and "--reader" not in text, text
    assert "Numeric Keypad" in text
    assert said[-1].event == "prompt"


def test_the_00_key_of_a_keypad_read_directly_says_that_voice_is_off():
    """With voice on, the play loop takes two quick zeros as push-to-talk; here voice is
    off, so the second zero says so (and how to turn it on) instead of cancelling again."""
    session = new_session()

    def zero(at: float) -> list[Message]:
        return handle_device_event(session, ReaderEvent("keypad", "k", "key", "0", at), None)

    assert [m.key for m in zero(10.0)] != ["voice_off"]  # a lone 0 cancels, as ever
    assert [m.key for m in zero(10.2)] == ["voice_off"]
    assert [m.key for m in zero(12.0)] != ["voice_off"]  # far apart: two cancels
    assert [m.key for m in zero(13.0)] != ["voice_off"]
