"""Hanamikoji: data, actions, rules, words and narration; the session's adapter is in
adapter.py, loaded on first use so that reading the game's data stays cheap."""

from typing import Any


def __getattr__(name: str) -> Any:
    if name == "Hanamikoji":
        from companion.games.hanamikoji.adapter import Hanamikoji

        return Hanamikoji
    raise AttributeError(name)
