"""Serial reader threads over real pyserial: pseudo-terminals, loop:// and socket://."""

from __future__ import annotations

import os
import queue
import socket
import threading
import time

import pytest
from ptys import FakeTty

from hardware.events import ReaderEvent
from hardware.frames import rdm6300_frame
from hardware.serial_reader import ReaderGroup, SerialReader

pytestmark = pytest.mark.skipif(not hasattr(os, "openpty"), reason="needs pseudo-terminals")

FAST = {"retry_initial": 0.02, "retry_max": 0.1, "read_timeout": 0.02}


@pytest.fixture
def ttys():
    made: list[FakeTty] = []

    def make() -> FakeTty:
        made.append(FakeTty())
        return made[-1]

    yield make
    for t in made:
        t.unplug()


def next_event(q: queue.Queue[ReaderEvent], timeout: float = 2.0) -> ReaderEvent:
    return q.get(timeout=timeout)


def expect(q: queue.Queue[ReaderEvent], kind: str, value: str | None = None) -> ReaderEvent:
    event = next_event(q)
    assert event.kind == kind, event
    if value is not None:
        assert event.value == value, event
    return event


def link_to(link: str, target: str) -> None:
    tmp = link + ".new"
    os.symlink(target, tmp)
    os.replace(tmp, link)  # atomic, as udev re-creates /dev/serial/by-id links


def test_rdm6300_over_pty_split_merged_noise_and_bad_checksum(ttys):
    tty = ttys()
    with SerialReader(tty.path, "rdm6300", name="r", repeat_gap=0, **FAST) as reader:
        expect(reader.events, "connected")
        frame = rdm6300_frame("0A00B1C2D3")
        for i in range(0, len(frame), 3):  # split across several reads
            tty.write(frame[i : i + 3])
            time.sleep(0.005)
        expect(reader.events, "scan", "0A00B1C2D3")
        bad = rdm6300_frame("1F00FFEE01", checksum=0)
        tty.write(
            b"\xffnoise\x02"
            + bad
            + rdm6300_frame("1F00FFEE01", crlf=True)
            + b"\x00"
            + rdm6300_frame("ABCDEF0123")
        )
        expect(reader.events, "scan", "1F00FFEE01")
        expect(reader.events, "scan", "ABCDEF0123")
        assert reader.stats.frames_bad_checksum == 1
        assert reader.stats.noise_bytes == 8


@pytest.mark.parametrize(
    ("protocol", "data", "values"),
    [
        ("line", b"5901234123457\r\nCARD-07\tX9\n", ["5901234123457", "CARD-07", "X9"]),
        (
            "uid-lines",
            b"Scan PICC to see UID\r\nCard UID: 04 A3 1F 7B\r\n"
            b"UID Value: 0x04 0xA3 0x1F 0x7B 0x80 0x11 0x22\r\n",
            ["04A31F7B", "04A31F7B801122"],
        ),
    ],
)
def test_line_protocols_over_pty(ttys, protocol, data, values):
    tty = ttys()
    with SerialReader(tty.path, protocol, baudrate=115200, repeat_gap=0, **FAST) as reader:
        expect(reader.events, "connected")
        tty.write(data)
        for value in values:
            expect(reader.events, "scan", value)


def test_loop_url_and_callback_delivery():
    got: list[ReaderEvent] = []
    done = threading.Event()

    def on_event(event: ReaderEvent) -> None:
        got.append(event)
        if event.kind == "scan":
            done.set()

    reader = SerialReader("loop://", "line", on_event=on_event, **FAST).start()
    try:
        assert reader.wait_connected(2)
        reader.port.write(b"HELLO-1\r\n")
        assert done.wait(2)
    finally:
        reader.close()
    assert [(e.kind, e.value) for e in got] == [("connected", ""), ("scan", "HELLO-1")]
    assert got[1].reader == "loop://" and got[1].timestamp >= got[0].timestamp


def test_held_tag_suppressed_then_reported_after_gap(ttys):
    tty = ttys()
    frame = rdm6300_frame("0A00B1C2D3")
    with SerialReader(tty.path, repeat_gap=0.15, **FAST) as reader:
        expect(reader.events, "connected")
        for _ in range(6):  # held on the reader: repeats faster than the gap
            tty.write(frame)
            time.sleep(0.02)
        expect(reader.events, "scan", "0A00B1C2D3")
        time.sleep(0.25)  # lifted off for longer than the gap
        tty.write(frame)
        expect(reader.events, "scan", "0A00B1C2D3")
        assert reader.events.empty()
        assert reader.suppressor.suppressed == 5


def test_unplug_and_replug_through_symlink(ttys, tmp_path):
    link = str(tmp_path / "usb-RDM6300-if00-port0")  # like /dev/serial/by-id/...
    first = ttys()
    link_to(link, first.path)
    with SerialReader(link, "rdm6300", name="table", **FAST) as reader:
        expect(reader.events, "connected")
        first.write(rdm6300_frame("0A00B1C2D3"))
        expect(reader.events, "scan", "0A00B1C2D3")
        first.unplug()
        gone = expect(reader.events, "disconnected")
        assert gone.reader == "table" and gone.detail
        time.sleep(0.2)  # several failed retries while unplugged: still one event
        assert reader.events.empty()
        second = ttys()
        link_to(link, second.path)
        expect(reader.events, "connected")
        second.write(rdm6300_frame("0A00B1C2D3") + rdm6300_frame("1F00FFEE01"))
        expect(reader.events, "scan", "0A00B1C2D3")  # same card again after replug
        expect(reader.events, "scan", "1F00FFEE01")
        assert reader.url == link


def test_missing_device_then_plugged_via_resolver(ttys, tmp_path):
    current = {"path": str(tmp_path / "absent")}
    reader = SerialReader(lambda: current["path"], "line", name="wedge", **FAST).start()
    try:
        err = expect(reader.events, "error")
        assert "cannot open" in err.detail
        tty = ttys()
        current["path"] = tty.path
        expect(reader.events, "connected")
        tty.write(b"A1\n")
        expect(reader.events, "scan", "A1")
        assert reader.url == tty.path
    finally:
        reader.close()


def test_socket_url_and_remote_close():
    server = socket.create_server(("127.0.0.1", 0))
    port = server.getsockname()[1]
    with SerialReader(f"socket://127.0.0.1:{port}", "rdm6300", **FAST) as reader:
        conn, _ = server.accept()
        expect(reader.events, "connected")
        conn.sendall(rdm6300_frame("ABCDEF0123"))
        expect(reader.events, "scan", "ABCDEF0123")
        conn.close()
        server.close()
        expect(reader.events, "disconnected")


def test_group_of_readers_into_one_queue_and_prompt_close(ttys):
    group = ReaderGroup()
    cards = {f"r{i}": [f"{i:02X}00{k:06X}" for k in range(5)] for i in range(3)}
    devices = {}
    for name in cards:
        devices[name] = ttys()
        group.add(devices[name].path, "rdm6300", name=name, **FAST)
    with group:
        connected = {next_event(group.events).reader for _ in cards}
        assert connected == set(cards)
        for k in range(5):
            for name, tty in devices.items():
                tty.write(rdm6300_frame(cards[name][k]))
            time.sleep(0.01)
        seen: dict[str, list[str]] = {name: [] for name in cards}
        for _ in range(15):
            event = group.get(timeout=2)
            assert event is not None and event.kind == "scan"
            seen[event.reader].append(event.value)
        assert seen == cards
        started = time.monotonic()
    assert time.monotonic() - started < 0.5
    assert not any(r.running for r in group.readers)


def test_exclusive_open_blocks_a_second_reader(ttys):
    tty = ttys()
    with SerialReader(tty.path, **FAST) as first:
        expect(first.events, "connected")
        with SerialReader(tty.path, **FAST) as second:
            err = expect(second.events, "error")
            assert "lock" in err.detail.lower()
