"""What could not start (the voice, an earbud, a keypad, the microphone), said once before
the game's first announcement so that its prompt stays the last thing heard; said the same
way by `companion play` and `companion practice`."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from companion.narrate.message import Message, Priority


def speech_problems(notice: Any, names: Sequence[str]) -> list[Message]:
    """open_speaker's notice as a sentence that says why and what to do, or nothing."""
    if notice is None:
        return []
    key = str(getattr(notice, "key", "")).replace(".", "_")
    params = dict(getattr(notice, "params", {}) or {})
    if key == "speech_private_missing":
        seat = str(params.get("channel", "")).rpartition(":")[2]
        player = names[int(seat)] if seat.isdigit() and int(seat) < len(names) else seat
        params = {"device": params.get("device", ""), "player": player}
    elif key not in ("speech_no_audio", "speech_no_espeak"):
        key = "speech_unavailable"
    return [Message("notice", key, params, {"code": key}, Priority.REFUSAL)]


class SetupNotices:
    """Holds what set-up announces until the opening announcement, then lets it through."""

    def __init__(self, out: Any, first: Sequence[Message] = ()) -> None:
        self._out = out
        self._held: list[Message] | None = list(first)

    def emit(self, messages: list[Message]) -> None:
        if self._held is None:
            self._out.emit(messages)
        else:
            self._held.extend(messages)

    def held(self) -> list[Message]:
        """What was held, to be said before the opening; from now on, said at once."""
        held, self._held = self._held or [], None
        return held
