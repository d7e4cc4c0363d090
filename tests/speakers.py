"""A test stand-in for the Output's speaker: what it is told for the table and for each
earbud (the audio path itself is tested in test_speech_private)."""

from __future__ import annotations

from typing import Any


class Speaker:
    """The Output's speaker, reduced to what it is told: the text for the table and for
    each earbud; a private line for a seat without one is not said, as by the Speaker."""

    def __init__(self, earbuds: frozenset[int]) -> None:
        self.private_channels = tuple(f"player:{p}" for p in sorted(earbuds))
        self.shared: list[str] = []
        self.private: list[tuple[str, str]] = []

    def say(self, text: str, priority: Any = 0, kind: Any = None,
            channel: str | None = None) -> None:
        if channel is None:
            self.shared.append(text)
        elif channel in self.private_channels:  # like the Speaker: no earbud, not said
            self.private.append((channel, text))
