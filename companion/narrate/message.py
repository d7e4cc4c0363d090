"""A Message: what to say, independent of the language it will be said in."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import IntEnum
from typing import Any


class Priority(IntEnum):
    NARRATION = 0
    PROMPT = 1
    REFUSAL = 2


@dataclass(frozen=True)
class Message:
    """`event` names it in --json output; `key` and `params` make its sentence.

    `data` holds extra machine-readable fields for --json. `private_to` marks information
    only one player may hear: it never reaches the shared speaker or the printed log.
    """

    event: str
    key: str
    params: dict[str, Any] = field(default_factory=dict)
    data: dict[str, Any] = field(default_factory=dict)
    priority: Priority = Priority.NARRATION
    private_to: int | None = None
