"""The three ways an input can fail, each carrying a reason a person can hear.

Modelled on python-chess: all three are ValueErrors. Each carries a message `key` and
`params` so the narrator can say the reason in the player's language; `str()` gives an
English sentence for logs and tests.
"""

from __future__ import annotations

from typing import Any


class CompanionError(ValueError):
    """Base: an input that changes nothing and gets a spoken reason."""

    def __init__(self, key: str, english: str, **params: Any) -> None:
        super().__init__(english)
        self.key = key
        self.params = params


class InvalidCommand(CompanionError):
    """The input could not be understood at all."""


class IllegalAction(CompanionError):
    """The input was understood but the rules do not allow it now."""


class AmbiguousCommand(CompanionError):
    """The input matches several things; `options` are the candidates to ask about."""

    def __init__(self, key: str, english: str, options: tuple[Any, ...], **params: Any) -> None:
        super().__init__(key, english, **params)
        self.options = options
