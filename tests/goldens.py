"""One comparison for every golden transcript: line by line, so a failure names the first
line that changed; `UPDATE_GOLDEN=1` writes the new transcript instead (review the diff)."""

from __future__ import annotations

import os
from pathlib import Path

GOLDEN = Path(__file__).parent / "golden"


def matches_golden(name: str, out: str) -> None:
    """`out` (printed text) is golden/NAME.expected, line for line."""
    path = GOLDEN / f"{name}.expected"
    if os.environ.get("UPDATE_GOLDEN"):
        path.write_text(out, "utf-8")
    expected = path.read_text("utf-8").splitlines()
    actual = out.splitlines()
    for number, (want, got) in enumerate(zip(expected, actual, strict=False), start=1):
        assert got == want, f"{name}.expected line {number}"
    assert len(actual) == len(expected), f"{name}.expected: {len(expected)} lines"
