"""`companion play --reader`: a real pyserial reader on a pseudo-terminal, through the CLI."""

from __future__ import annotations

import os
import pty
import subprocess
import sys
import tty
from pathlib import Path

from lines import Lines

ROOT = Path(__file__).resolve().parent.parent


def test_scans_play_an_offer_and_unplugging_is_announced(tmp_path):
    master, slave = pty.openpty()
    tty.setraw(slave)
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    proc = subprocess.Popen(
        [sys.executable, "-m", "companion", "play", "--no-speech", "--lang", "en",
         "--players", "Ana", "Ben", "--db", str(tmp_path / "g.db"),
         "--registry", str(tmp_path / "cards.json"),
         "--reader", os.ttyname(slave), "--reader-protocol", "line"],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, env=env, cwd=ROOT)
    assert proc.stdin is not None and proc.stdout is not None
    heard = Lines(proc.stdout)
    wait_for = heard.wait_for
    try:
        wait_for("Card reader connected")
        for payload in ("TC1:HK:TOKEN:GIFT:1", "TC1:HK:ITEM:FLUTE:1", "TC1:HK:ITEM:FAN:1",
                        "TC1:HK:ITEM:TEA:1"):
            os.write(master, (payload + "\r\n").encode())
        wait_for("Ben, take one of the three cards")
        os.write(master, b"TC1:HK:ITEM:FAN:1\r\n")  # at once, on Ana's reader: her fan again
        wait_for("This fan (red, 2) was just scanned into the offer, so it is not taken as "
                 "Ben's choice.")
        proc.stdin.write("take fan\n")
        proc.stdin.flush()
        wait_for("Ben takes fan (red, 2)")
        os.close(master)  # the reader is unplugged
        master = -1
        wait_for("Card reader disconnected")
        proc.stdin.write("secret\n")  # the keyboard still works
        proc.stdin.flush()
        wait_for("Ben plays Secret")
    finally:
        if master >= 0:
            os.close(master)
        proc.stdin.close()
        try:
            proc.wait(timeout=30)
        finally:
            if proc.poll() is None:
                proc.kill()
            os.close(slave)
    assert ("Ana offers a gift: flute (purple, 2), fan (red, 2) and tea set (green, 4)."
            in heard.seen)
