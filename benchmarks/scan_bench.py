"""Scan to announcement: an RDM6300 frame written to a pseudo-terminal → rendered sentences.

The path measured is the one `companion play` uses: SerialReader thread (default timings)
→ InputHub queue → handle_device_event (registry lookup, context, Session.execute, rules,
narration) → Catalogue.render of every message. Speech synthesis is not included (see
docs/speech.md). Each cycle scans a Gift token, three cards (the third completes the offer)
and the card the other player takes; two undos then put the game back.

Run: .venv/bin/python benchmarks/scan_bench.py [--cycles 200]
"""

from __future__ import annotations

import argparse
import os
import pty
import statistics
import sys
import tempfile
import time
from argparse import Namespace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from companion.cards.payload import CardRef, all_cards  # noqa: E402
from companion.cards.registry import CardRegistry  # noqa: E402
from companion.games.registry import load_game  # noqa: E402
from companion.inputs.devices import attach_devices, handle_device_event  # noqa: E402
from companion.inputs.hub import InputHub  # noqa: E402
from companion.narrate.catalogue import Catalogue  # noqa: E402
from companion.session import Session  # noqa: E402
from hardware.frames import rdm6300_frame  # noqa: E402

CYCLE = [("token", "gift", 1), ("item", "flower", 1), ("item", "flower", 2),
         ("item", "tea", 1), ("item", "tea", 1)]


def tag_of(ref: CardRef) -> str:
    return f"{0x0A00000000 + all_cards().index(ref):010X}"


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(p / 100 * (len(ordered) - 1)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cycles", type=int, default=200)
    parser.add_argument("--lang", default="en")
    options = parser.parse_args()

    folder = Path(tempfile.mkdtemp())
    registry = CardRegistry(folder / "cards.json")
    for ref in all_cards():
        registry.add(tag_of(ref), ref)
    catalogue = Catalogue(options.lang)
    session = Session(load_game("hanamikoji"), {"players": ["Ana", "Ben"], "lang": options.lang})
    master, slave = pty.openpty()
    path = os.ttyname(slave)
    os.close(slave)
    hub = InputHub()
    # repeat_gap=0: the same tag comes back every cycle, faster than a hand could lift it.
    attach_devices(hub, Namespace(reader=[path], reader_protocol="rdm6300", keypad=None),
                   lambda messages: None, repeat_gap=0)
    per_kind: dict[str, list[float]] = {"token": [], "card": [], "offer complete": [],
                                        "answer": []}
    try:
        hub.queue.get(timeout=5)  # connected
        for _ in range(options.cycles):
            for index, (kind, name, copy) in enumerate(CYCLE):
                frame = rdm6300_frame(tag_of(CardRef("hanamikoji", kind, name, copy)))
                start = time.perf_counter()
                os.write(master, frame)
                item = hub.queue.get(timeout=5)
                texts = [catalogue.render(m) for m in
                         handle_device_event(session, item.event, registry)]
                elapsed = (time.perf_counter() - start) * 1000
                assert texts and item.event.kind == "scan", texts
                label = ("token" if index == 0 else "card" if index < 3
                         else "offer complete" if index == 3 else "answer")
                per_kind[label].append(elapsed)
            session.handle("undo")
            session.handle("undo")
    finally:
        hub.close()
        os.close(master)
    everything = [v for values in per_kind.values() for v in values]
    print(f"Scan to rendered announcement, {len(everything)} scans "
          f"({options.cycles} cycles), pty + SerialReader defaults:")
    for label, values in [("all scans", everything), *per_kind.items()]:
        print(f"  {label:15s} median {statistics.median(values):6.2f} ms   "
              f"p95 {percentile(values, 95):6.2f} ms   max {max(values):6.2f} ms")


if __name__ == "__main__":
    main()
