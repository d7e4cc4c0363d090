"""The input hub: every source feeds one queue; Ctrl-C is never lost while it waits."""

from __future__ import annotations

import os
import signal
import sys
import threading
import time

import pytest

from companion.inputs.hub import InputHub


class Interrupted(Exception):
    pass


@pytest.mark.skipif(sys.platform == "win32" or threading.current_thread() is not
                    threading.main_thread(), reason="POSIX signals, main thread")
def test_ctrl_c_landing_on_an_input_thread_still_interrupts_the_wait() -> None:
    """POSIX may give a process signal to any thread that does not block it: one that
    lands on the thread reading the keyboard left the game loop blocked in a wait without
    a timeout for good (and on Windows such a wait is never interrupted by Ctrl-C). The
    wait wakes in slices, so the handler runs within a fraction of a second."""
    read, write = os.pipe()
    hub = InputHub()
    stream = os.fdopen(read, "r")
    hub.add_lines(stream)
    time.sleep(0.1)  # the reader thread is now blocked in read()
    reader = next(t for t in threading.enumerate() if t.name == "input-keyboard")

    def handler(signum: int, frame: object) -> None:
        raise Interrupted()

    previous = signal.signal(signal.SIGINT, handler)
    # After 5 s a line arrives anyway, so a wait that never wakes fails instead of hanging.
    rescue = threading.Timer(5.0, lambda: os.write(write, b"late\n"))
    try:
        threading.Timer(0.3, signal.pthread_kill, (reader.ident, signal.SIGINT)).start()
        rescue.start()
        started = time.monotonic()
        with pytest.raises(Interrupted):
            for item in hub:
                pytest.fail(f"the wait was not interrupted; it ended with {item.text!r}")
        assert time.monotonic() - started < 2.0
    finally:
        rescue.cancel()
        signal.signal(signal.SIGINT, previous)
        os.close(write)
