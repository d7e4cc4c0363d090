"""Momiji: data, actions, rules, words and narration; the session's adapter is in
adapter.py, loaded on first use so that reading the game's data stays cheap."""

from typing import Any


def __getattr__(name: str) -> Any:
    if name == "Momiji":
        from companion.games.momiji.adapter import Momiji

        return Momiji
    raise AttributeError(name)
