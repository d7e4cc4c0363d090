"""One entry point for scans, keys and typed lines in `companion play`, whatever the game.

Each game reads a scan in its own context (Hanamikoji: companion/play_devices.py and
companion/scan.py; Momiji: companion/play_devices_momiji.py and companion/scan_momiji.py);
the play loop only needs to call these two functions. The game modules are imported when
first used, so a game never loads the other's scanning code.
"""

from __future__ import annotations

from importlib import import_module
from typing import Any

from companion.cards.registry import CardRegistry
from companion.narrate.message import Message
from companion.scan_echo import Origin

# game name → module with handle_device_event(session, event, registry) and handle_line
MODULES = {"hanamikoji": "companion.play_devices", "momiji": "companion.play_devices_momiji"}


def supports(game_name: str) -> bool:
    """Whether scans and keypad keys are read for this game."""
    return game_name in MODULES


def _module(session: Any) -> Any:
    return import_module(MODULES[session.game.name])


def handle_device_event(session: Any, event: Any, registry: CardRegistry | None
                        ) -> list[Message]:
    return _module(session).handle_device_event(session, event, registry)


def handle_line(session: Any, line: str, registry: CardRegistry | None,
                origin: Origin | None = None) -> list[Message]:
    """A typed line; `origin` says which keyboard and when, for a wedge scanner's scans."""
    return _module(session).handle_line(session, line, registry, origin)
