"""Keypad key mapping (pure, no evdev), evdev availability, listing and the CLI."""

from __future__ import annotations

import argparse
import io
import sys

import pytest

from hardware import cli, keypad, listing
from hardware.events import ReaderEvent
from hardware.keypad import KeyLineBuilder, key_to_char


def test_key_to_char_keypad_and_main_block():
    assert [key_to_char(f"KEY_KP{d}") for d in range(10)] == list("0123456789")
    assert [
        key_to_char(k)
        for k in (
            "KEY_KPPLUS",
            "KEY_KPMINUS",
            "KEY_KPASTERISK",
            "KEY_KPSLASH",
            "KEY_KPDOT",
            "KEY_KPENTER",
        )
    ] == list("+-*/.\n")
    assert key_to_char("KEY_7") == "7" and key_to_char("KEY_7", shift=True) == "&"
    assert key_to_char("KEY_Q") == "q" and key_to_char("KEY_Q", shift=True) == "Q"
    assert key_to_char("KEY_MINUS", shift=True) == "_"
    assert key_to_char("KEY_LEFTSHIFT") is None and key_to_char("KEY_VOLUMEUP") is None


def type_keys(builder: KeyLineBuilder, keys: list[str]) -> list[tuple[str, str]]:
    out = []
    for key in keys:
        out += builder.press(key, 1)
        out += builder.press(key, 0)
    return out


def test_keypad_digits_and_enter():
    b = KeyLineBuilder()
    events = type_keys(b, ["KEY_KP3", "KEY_KPPLUS", "KEY_KP1", "KEY_KPENTER"])
    assert events == [("key", "3"), ("key", "+"), ("key", "1"), ("key", "ENTER"), ("scan", "3+1")]


def test_wedge_scanner_with_shift_backspace_and_escape():
    b = KeyLineBuilder()
    out = b.press("KEY_LEFTSHIFT", 1) + b.press("KEY_H", 1) + b.press("KEY_LEFTSHIFT", 0)
    out += type_keys(
        b, ["KEY_A", "KEY_N", "KEY_X", "KEY_BACKSPACE", "KEY_MINUS", "KEY_4", "KEY_ENTER"]
    )
    assert out[-1] == ("scan", "Han-4")
    assert ("key", "BACKSPACE") in out
    b.press("KEY_1", 1)
    b.press("KEY_ESC", 1)
    assert type_keys(b, ["KEY_2", "KEY_TAB"])[-1] == ("scan", "2")
    assert type_keys(b, ["KEY_ENTER"]) == [("key", "ENTER")]  # empty line: no scan


def test_autorepeat_ignored_unless_asked():
    assert KeyLineBuilder().press("KEY_KP5", 2) == []
    assert KeyLineBuilder(autorepeat=True).press("KEY_KP5", 2) == [("key", "5")]


def test_without_evdev_the_reason_is_a_sentence(monkeypatch):
    monkeypatch.setitem(sys.modules, "evdev", None)  # makes "import evdev" fail
    status = keypad.evdev_status()
    assert status.startswith("The evdev package is not installed") and status.endswith(".")
    with pytest.raises(keypad.EvdevUnavailable, match="pip install evdev"):
        keypad.KeypadReader("/dev/input/event0")
    assert listing.list_input_devices() == []
    assert any("Input devices not listed" in line for line in listing.describe_devices([]))
    parser = argparse.ArgumentParser()
    cli.add_parser(parser.add_subparsers())
    out = io.StringIO()
    args = parser.parse_args(["readers", "watch", "keypad-x", "--protocol", "keypad"])
    assert cli.cmd_watch(args, out) == 1
    assert "not installed" in out.getvalue()


def test_missing_input_device_is_reported_not_raised():
    if keypad.evdev_status():
        pytest.skip(keypad.evdev_status())
    reader = keypad.KeypadReader("no such keypad name", retry_initial=0.01)
    with reader:
        event = reader.events.get(timeout=2)
    assert event.kind == "error" and "no input device" in event.detail


def test_serial_protocol_hints():
    assert listing.serial_protocol_hint(0x1A86, 0x7523)[0] == ("rdm6300", "uid-lines")
    assert listing.serial_protocol_hint(0x10C4, 0xEA60)[0] == ("rdm6300", "uid-lines")
    assert listing.serial_protocol_hint(0x0403, 0x6001)[0] == ("rdm6300", "uid-lines")
    assert listing.serial_protocol_hint(0x2341, 0x0043)[0] == ("uid-lines",)
    assert listing.serial_protocol_hint(0x0C2E, 0x0CAA)[0] == ("line",)
    assert listing.serial_protocol_hint(0x1234, 0x5678, "USB CDC", "/dev/ttyACM0")[0] == (
        "line",
        "uid-lines",
    )
    assert listing.serial_protocol_hint(None, None)[0] == ()
    assert listing.input_protocol_hint("USB Numeric Keypad")[0] == ("keypad",)
    assert listing.input_protocol_hint("AT Translated Set 2 keyboard")[0] == ()


def test_listing_text_and_cli_list():
    dev = listing.DeviceInfo(
        "serial", "/dev/ttyUSB0", "USB Serial", "1A86:7523", "", ("rdm6300", "uid-lines"), "CH340"
    )
    assert dev.text() == (
        "serial /dev/ttyUSB0, USB Serial, USB 1A86:7523, try protocol rdm6300 or uid-lines (CH340)"
    )
    parser = argparse.ArgumentParser()
    cli.add_parser(parser.add_subparsers())
    args = parser.parse_args(["readers", "list"])
    out = io.StringIO()
    assert args.func(args, out) == 0
    assert out.getvalue().strip()  # at least a line saying what was (not) found
    assert parser.parse_args(["readers"]).func is not None


def test_event_text_and_kinds():
    e = ReaderEvent("door", "/dev/ttyUSB0", "scan", "0A00B1C2D3", 1.0)
    assert e.text() == "door scan 0A00B1C2D3"
    assert ReaderEvent("door", "x", "disconnected", detail="gone").text() == (
        "door disconnected: gone"
    )
    with pytest.raises(ValueError, match="unknown event kind"):
        ReaderEvent("door", "x", "swipe")
