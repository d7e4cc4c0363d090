"""A Message: what to say, independent of the language it will be said in."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
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

    `game` names the game whose message it is (`owned`): its keys are looked up in that
    game's catalogue first, then the core's; a message without one is the core's, and a
    message nested in another (a parameter) is looked up as its parent is.
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
    game: str | None = None


def owned(said: Any, game: str) -> Any:
    """What a game's method returned (a Message, a list of them), marked as `game`'s own;
    anything else is returned as it is."""
    if isinstance(said, list):
        return [owned(m, game) for m in said]
    if not isinstance(said, Message) or said.game is not None:
        return said
    otherwise = None if said.otherwise is None else owned(said.otherwise, game)
    return replace(said, game=game, otherwise=otherwise)
