"""`python -m companion.speech.sinkplay OUT --rate R --channels C`: a paced sink process.

Reads raw 16-bit PCM on stdin and appends it to OUT no faster than real time (plus a 50 ms
lead, like a device buffer), flushing as it goes. Killing it therefore leaves in OUT what a
listener would have heard: it is how we measure interruption without a sound card.
"""

from __future__ import annotations

import argparse
import os
import sys
import time

LEAD = 0.05


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m companion.speech.sinkplay")
    ap.add_argument("out")
    ap.add_argument("--rate", type=int, default=22050)
    ap.add_argument("--channels", type=int, default=1)
    args = ap.parse_args(argv)
    bps = args.rate * args.channels * 2
    slice_bytes = max(2, (bps // 50) & ~1)  # 20 ms
    fd = sys.stdin.fileno()
    written = 0
    start: float | None = None
    with open(args.out, "ab", buffering=0) as out:
        while True:
            data = os.read(fd, slice_bytes)
            if not data:
                break
            if start is None:
                start = time.perf_counter()
            delay = start + written / bps - LEAD - time.perf_counter()
            if delay > 0:
                time.sleep(delay)
            out.write(data)
            written += len(data)
    if start is not None:  # drain: the "device" finishes playing what it holds
        delay = start + written / bps - time.perf_counter()
        if delay > 0:
            time.sleep(delay)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
