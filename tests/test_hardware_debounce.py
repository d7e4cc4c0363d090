"""Repeat suppression with an injected clock: no sleeping."""

from __future__ import annotations

import pytest

from hardware.debounce import RepeatSuppressor


class FakeClock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_held_tag_is_one_scan_until_it_leaves_for_the_gap():
    clock = FakeClock()
    s = RepeatSuppressor(gap=0.3, clock=clock)
    reported = []
    for _ in range(30):  # about two seconds on the reader at 65 ms per repeat
        reported.append(s.accept("A"))
        clock.now += 0.065
    assert reported == [True] + [False] * 29
    clock.now += 0.29 - 0.065  # away for less than the gap since the last read
    assert s.accept("A") is False
    clock.now += 0.31  # away for longer than the gap: a new scan
    assert s.accept("A") is True
    assert s.suppressed == 30


def test_another_tag_means_the_first_left():
    clock = FakeClock()
    s = RepeatSuppressor(gap=0.3, clock=clock)
    assert [s.accept(v) for v in "AABBA"] == [True, False, True, False, True]


def test_gap_zero_reports_everything_and_reset_forgets():
    s = RepeatSuppressor(gap=0, clock=FakeClock())
    assert [s.accept("A") for _ in range(3)] == [True] * 3
    s = RepeatSuppressor(gap=1.0, clock=FakeClock())
    assert s.accept("A") and not s.accept("A")
    s.reset()
    assert s.accept("A")
    with pytest.raises(ValueError):
        RepeatSuppressor(gap=-1)


def test_explicit_time_argument():
    s = RepeatSuppressor(gap=0.3)
    assert s.accept("A", now=1.0)
    assert not s.accept("A", now=1.2)
    assert s.accept("A", now=1.6)
