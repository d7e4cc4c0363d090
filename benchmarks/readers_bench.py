"""Reader benchmarks: decoder throughput and end-to-end latency over pseudo-terminals.

Run: .venv/bin/python benchmarks/readers_bench.py [--readers 4] [--seconds 3]
Prints plain lines; the figures measured on the project machine are in docs/hardware.md.
"""

from __future__ import annotations

import argparse
import os
import pty
import statistics
import sys
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from hardware.events import ReaderEvent  # noqa: E402
from hardware.frames import make_decoder, rdm6300_frame  # noqa: E402
from hardware.serial_reader import ReaderGroup  # noqa: E402


def sample_streams(n: int) -> dict[str, tuple[bytes, int]]:
    cards = [f"{i % 256:02X}{i * 2654435761 % 2**32:08X}" for i in range(n)]
    rdm = b"".join(rdm6300_frame(c, crlf=i % 2 == 1) for i, c in enumerate(cards))
    lines = b"".join(f"59{i:011d}\r\n".encode() for i in range(n))
    uids = b"".join(f"Card UID: {c[2:4]} {c[4:6]} {c[6:8]} {c[8:10]}\r\n".encode() for c in cards)
    return {"rdm6300": (rdm, n), "line": (lines, n), "uid-lines": (uids, n)}


def bench_decoders(n: int = 20_000) -> None:
    print(f"Decoder throughput, one core, {n} frames each:")
    for protocol, (stream, count) in sample_streams(n).items():
        for label, chunk in (("64-byte chunks", 64), ("one frame per feed", 0)):
            decoder = make_decoder(protocol)
            if chunk:
                pieces = [stream[i : i + chunk] for i in range(0, len(stream), chunk)]
            else:
                size = len(stream) // count
                pieces = [stream[i : i + size] for i in range(0, len(stream), size)]
            start = time.perf_counter()
            got = 0
            for piece in pieces:
                got += len(decoder.feed(piece))
            elapsed = time.perf_counter() - start
            assert got == count, (protocol, got, count)
            print(f"  {protocol:10s} {label:19s} {count / elapsed:12,.0f} frames/s")
        # byte by byte is the worst case (a slow 9600-baud link read as it arrives)
        decoder = make_decoder(protocol)
        part = stream[: len(stream) // 10]
        start = time.perf_counter()
        got = sum(len(decoder.feed(part[i : i + 1])) for i in range(len(part)))
        elapsed = time.perf_counter() - start
        print(f"  {protocol:10s} {'byte by byte':19s} {got / elapsed:12,.0f} frames/s")


def bench_readers(readers: int, seconds: float, period: float = 0.065) -> None:
    """Each simulated reader writes a fresh card every ``period`` (the RDM6300 repeat)."""
    masters, written = [], {}
    group = ReaderGroup()
    for r in range(readers):
        master, slave = pty.openpty()
        path = os.ttyname(slave)
        os.close(slave)
        masters.append(master)
        group.add(path, "rdm6300", name=f"r{r}", repeat_gap=0, read_timeout=0.05)
    sent: dict[tuple[str, str], float] = {}
    lock = threading.Lock()

    def writer(r: int) -> None:
        k = 0
        end = time.monotonic() + seconds
        next_at = time.monotonic()
        while time.monotonic() < end:
            card = f"{r:02X}{k:08X}"
            with lock:
                sent[(f"r{r}", card)] = time.monotonic()
            os.write(masters[r], rdm6300_frame(card))
            k += 1
            next_at += period
            time.sleep(max(0.0, next_at - time.monotonic()))
        written[r] = k

    latencies: list[float] = []
    received: set[tuple[str, str]] = set()
    with group:
        for _ in range(readers):
            event = group.get(timeout=5)
            assert event is not None and event.kind == "connected", event
        threads = [threading.Thread(target=writer, args=(r,)) for r in range(readers)]
        for t in threads:
            t.start()
        deadline = time.monotonic() + seconds + 2
        expected = None
        while time.monotonic() < deadline:
            event: ReaderEvent | None = group.get(timeout=0.2)
            if event is None:
                if expected is not None and len(received) >= expected:
                    break
                if all(not t.is_alive() for t in threads):
                    expected = sum(written.values())
                continue
            if event.kind != "scan":
                print(f"  unexpected event: {event.text()}")
                continue
            key = (event.reader, event.value)
            with lock:
                latencies.append(event.timestamp - sent[key])
            received.add(key)
            if expected is not None and len(received) >= expected:
                break
        for t in threads:
            t.join()
    for m in masters:
        os.close(m)
    total = sum(written.values())
    lost = total - len(received)
    latencies.sort()
    p95 = latencies[int(0.95 * (len(latencies) - 1))] if latencies else float("nan")
    print(f"{readers} readers over pty, one card every {period * 1000:.0f} ms each, {seconds:g} s:")
    print(f"  frames written {total}, scans delivered {len(received)}, lost {lost}")
    print(
        f"  latency write to event: median {statistics.median(latencies) * 1000:.2f} ms, "
        f"p95 {p95 * 1000:.2f} ms, max {latencies[-1] * 1000:.2f} ms"
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--frames", type=int, default=20_000)
    parser.add_argument("--readers", type=int, default=4)
    parser.add_argument("--seconds", type=float, default=3.0)
    args = parser.parse_args()
    print(f"Python {sys.version.split()[0]} on {sys.platform}, {os.cpu_count()} cores")
    bench_decoders(args.frames)
    bench_readers(args.readers, args.seconds)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
