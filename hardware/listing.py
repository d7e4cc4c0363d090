"""What is plugged in: serial ports and (with evdev) input devices, with a protocol hint."""

from __future__ import annotations

from dataclasses import dataclass

from serial.tools import list_ports

from .keypad import evdev_status, require_evdev

__all__ = [
    "DeviceInfo",
    "describe_devices",
    "list_devices",
    "list_input_devices",
    "list_serial_ports",
    "serial_protocol_hint",
    "input_protocol_hint",
]

# USB-to-TTL bridges: an RDM6300 wired to one, or a microcontroller board using one.
_BRIDGES = {
    0x1A86: "WCH CH340/CH9102 USB-serial bridge",
    0x10C4: "Silicon Labs CP210x USB-serial bridge",
    0x0403: "FTDI USB-serial bridge",
    0x067B: "Prolific PL2303 USB-serial bridge",
}
# Boards whose own USB port is the serial port (CDC-ACM): they run MFRC522/PN532 sketches.
_BOARDS = {
    0x2341: "Arduino board",
    0x2A03: "Arduino board",
    0x239A: "Adafruit board",
    0x16C0: "Teensy board",
    0x2E8A: "Raspberry Pi Pico / RP2040 board",
    0x303A: "Espressif ESP32 board",
}
# Barcode scanner makers whose scanners offer a USB-COM (CDC) mode.
_SCANNERS = {
    0x0C2E: "Honeywell scanner",
    0x05E0: "Zebra/Symbol scanner",
    0x05F9: "Datalogic scanner",
    0x1EAB: "Newland scanner",
}
_KEYPAD_WORDS = ("keypad", "numpad", "num pad", "numeric", "number pad", "10-key", "calculator")
_SCANNER_WORDS = (
    "barcode",
    "scanner",
    "qr",
    "honeywell",
    "zebra",
    "symbol",
    "datalogic",
    "newland",
    "rfid",
    "reader",
    "wedge",
)


@dataclass(frozen=True)
class DeviceInfo:
    kind: str  # "serial" or "input"
    path: str  # what to pass as URL (serial) or device (input)
    name: str
    vid_pid: str = ""  # "1A86:7523", empty when not USB
    serial_number: str = ""
    protocols: tuple[str, ...] = ()  # likely protocols, best first; empty if unknown
    hint: str = ""  # why: a short plain phrase

    def text(self) -> str:
        parts = [f"{self.kind} {self.path}", self.name]
        if self.vid_pid:
            parts.append(f"USB {self.vid_pid}")
        if self.serial_number:
            parts.append(f"serial number {self.serial_number}")
        if self.protocols:
            parts.append(f"try protocol {' or '.join(self.protocols)} ({self.hint})")
        elif self.hint:
            parts.append(self.hint)
        return ", ".join(parts)


def serial_protocol_hint(
    vid: int | None, pid: int | None, text: str = "", device: str = ""
) -> tuple[tuple[str, ...], str]:
    """Likely protocols for a serial port from its USB ids and description."""
    lowered = text.lower()
    if vid in _SCANNERS or any(w in lowered for w in ("barcode", "scanner")):
        return ("line",), _SCANNERS.get(vid or -1, "barcode scanner in USB-COM mode")
    if vid in _BRIDGES:
        return ("rdm6300", "uid-lines"), f"{_BRIDGES[vid]}: RDM6300 at 9600 baud or a board"
    if vid in _BOARDS:
        return ("uid-lines",), f"{_BOARDS[vid]} printing UIDs"
    if vid is not None and ("acm" in device.lower() or "cdc" in lowered):
        return ("line", "uid-lines"), "USB CDC-ACM device: scanner in USB-COM mode or a board"
    if vid is None:
        return (), "not a USB device (built-in or virtual port)"
    return (), "unknown USB device"


def input_protocol_hint(name: str) -> tuple[tuple[str, ...], str]:
    lowered = name.lower()
    if any(w in lowered for w in _KEYPAD_WORDS):
        return ("keypad",), "named like a numeric keypad"
    if any(w in lowered for w in _SCANNER_WORDS):
        return ("keypad",), "named like a keyboard-wedge scanner (reads lines)"
    return (), ""


def _vid_pid(vid: int | None, pid: int | None) -> str:
    return f"{vid:04X}:{pid:04X}" if vid is not None and pid is not None else ""


def list_serial_ports() -> list[DeviceInfo]:
    out = []
    for port in sorted(list_ports.comports(), key=lambda p: p.device):
        text = " ".join(
            s for s in (port.description, port.manufacturer, port.product, port.interface) if s
        )
        protocols, hint = serial_protocol_hint(port.vid, port.pid, text, port.device)
        name = port.description if port.description and port.description != "n/a" else port.name
        out.append(
            DeviceInfo(
                "serial",
                port.device,
                name or port.device,
                _vid_pid(port.vid, port.pid),
                port.serial_number or "",
                protocols,
                hint,
            )
        )
    return out


def list_input_devices() -> list[DeviceInfo]:
    """Input devices with keys; empty when evdev is unavailable (see ``evdev_status``)."""
    if evdev_status():
        return []
    evdev = require_evdev()
    ecodes = evdev.ecodes
    wanted = {ecodes.KEY_KP0, ecodes.KEY_KPENTER, ecodes.KEY_A, ecodes.KEY_ENTER}
    out = []
    for path in sorted(evdev.list_devices()):
        try:
            dev = evdev.InputDevice(path)
        except OSError:
            continue
        try:
            keys = set(dev.capabilities().get(ecodes.EV_KEY, []))
            if not keys & wanted:
                continue  # power buttons, mice, lid switches
            protocols, hint = input_protocol_hint(dev.name)
            out.append(
                DeviceInfo(
                    "input",
                    dev.path,
                    dev.name,
                    _vid_pid(dev.info.vendor, dev.info.product) if dev.info.vendor else "",
                    dev.uniq or "",
                    protocols,
                    hint,
                )
            )
        finally:
            dev.close()
    return out


def list_devices() -> list[DeviceInfo]:
    return list_serial_ports() + list_input_devices()


def describe_devices(devices: list[DeviceInfo] | None = None) -> list[str]:
    """Plain printed lines describing the devices (and why input devices may be missing)."""
    if devices is None:
        devices = list_devices()
    lines = [d.text() for d in devices]
    if not any(d.kind == "serial" for d in devices):
        lines.append("No serial ports found.")
    status = evdev_status()
    if status:
        lines.append(f"Input devices not listed: {status}")
    elif not any(d.kind == "input" for d in devices):
        lines.append(
            "No keypad or keyboard input devices found (or no permission to read /dev/input)."
        )
    return lines
