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

    `earpiece` names the player whose private channel (an earbud) the message depends on
    (by default `private_to`), and `otherwise` what is said instead when that player has
    none: a card-free acknowledgement for the table, or a wording that does not promise
    an earpiece. The Output knows the channels, so it chooses; the rules never do I/O.

    `short` marks a message the table has heard before in this game: the catalogue says
    its short form (`[messages.short]`, cards by their item alone) when it has one.
    """

    event: str
    key: str
    params: dict[str, Any] = field(default_factory=dict)
    data: dict[str, Any] = field(default_factory=dict)
    priority: Priority = Priority.NARRATION
    private_to: int | None = None
    earpiece: int | None = None
    otherwise: Message | None = None
    short: bool = False
