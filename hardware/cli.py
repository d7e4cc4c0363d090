"""``readers`` sub-commands for the main CLI: list devices, watch one reader."""

from __future__ import annotations

import argparse
import queue
import sys
import time
from typing import Any, TextIO

from .debounce import DEFAULT_GAP
from .events import ReaderEvent
from .frames import PROTOCOLS
from .keypad import EvdevUnavailable, KeypadReader
from .listing import describe_devices
from .serial_reader import SerialReader

__all__ = ["add_parser", "cmd_list", "cmd_watch", "main"]

WATCH_PROTOCOLS = (*sorted(PROTOCOLS), "keypad")


def add_parser(subparsers: Any) -> argparse.ArgumentParser:
    """Register ``readers list`` and ``readers watch`` on an argparse subparsers object."""
    parser = subparsers.add_parser(
        "readers", help="list card readers and keypads, or watch one to test it",
        description="Card readers and keypads: `readers list` shows the serial ports and "
        "input devices of this computer; `readers watch URL` prints each scan or key of one "
        "device as a line, to check it works before playing.",
    )
    sub = parser.add_subparsers(dest="readers_command", metavar="{list,watch}")
    parser.set_defaults(func=lambda args: _usage(parser))

    p_list = sub.add_parser("list", help="list serial ports and input devices")
    p_list.set_defaults(func=cmd_list)

    p_watch = sub.add_parser(
        "watch",
        help="print every event from one reader as a plain line",
        description="URL is a serial device or pyserial URL (/dev/ttyUSB0, "
        "/dev/serial/by-id/..., socket://HOST:PORT, hwgrep://VID:PID, loop://); with "
        "--protocol keypad it is an input device path or name.",
    )
    p_watch.add_argument("url", help="the device (see above)")
    p_watch.add_argument("--protocol", "-p", choices=WATCH_PROTOCOLS, default="rdm6300",
                         help="how the device sends its reads (default: rdm6300)")
    p_watch.add_argument("--baudrate", "-b", type=int, default=9600,
                         help="serial speed (default: 9600)")
    p_watch.add_argument("--name", help="reader name shown on each line (default: the URL)")
    p_watch.add_argument(
        "--gap",
        type=float,
        default=DEFAULT_GAP,
        help="seconds a tag must be away before it counts again (0: report every read; "
        f"default: {DEFAULT_GAP})",
    )
    p_watch.add_argument("--count", type=int, default=0, help="stop after this many scans")
    p_watch.add_argument("--seconds", type=float, default=0, help="stop after this long")
    p_watch.add_argument(
        "--no-grab", action="store_true", help="keypad: let keystrokes reach other windows too"
    )
    p_watch.set_defaults(func=cmd_watch)
    return parser


def _usage(parser: argparse.ArgumentParser) -> int:
    parser.print_help()
    return 2


def cmd_list(args: argparse.Namespace, out: TextIO | None = None) -> int:
    out = out or sys.stdout
    for line in describe_devices():
        print(line, file=out)
    return 0


def cmd_watch(args: argparse.Namespace, out: TextIO | None = None) -> int:
    out = out or sys.stdout
    events: queue.Queue[ReaderEvent] = queue.Queue()
    reader: Any
    if args.protocol == "keypad":
        try:
            reader = KeypadReader(args.url, name=args.name, grab=not args.no_grab, events=events)
        except EvdevUnavailable as exc:
            print(exc, file=out)
            return 1
    else:
        reader = SerialReader(
            args.url,
            args.protocol,
            name=args.name,
            baudrate=args.baudrate,
            repeat_gap=args.gap,
            events=events,
        )
    print(f"Watching {args.url} ({args.protocol}); press Control-C to stop.", file=out, flush=True)
    scans = 0
    deadline = time.monotonic() + args.seconds if args.seconds > 0 else None
    reader.start()
    try:
        while deadline is None or time.monotonic() < deadline:
            try:
                event = events.get(timeout=0.2)
            except queue.Empty:
                continue
            print(event.text(), file=out, flush=True)
            if event.kind == "scan":
                scans += 1
                if args.count and scans >= args.count:
                    break
    except KeyboardInterrupt:
        pass
    finally:
        reader.close()
    stats = getattr(reader, "stats", None)
    if stats is not None:
        print(
            f"{scans} scans; frames ok {stats.frames_ok}, bad checksum "
            f"{stats.frames_bad_checksum}, too long {stats.frames_too_long}, noise bytes "
            f"{stats.noise_bytes}.",
            file=out,
        )
    else:
        print(f"{scans} scans.", file=out)
    return 0


def main(argv: list[str] | None = None) -> int:
    """Stand-alone entry: ``python -m hardware.cli readers list``."""
    parser = argparse.ArgumentParser(prog="companion")
    add_parser(parser.add_subparsers(dest="command"))
    args = parser.parse_args(argv)
    if not hasattr(args, "func"):
        parser.print_help()
        return 2
    return args.func(args)


if __name__ == "__main__":
    raise SystemExit(main())
