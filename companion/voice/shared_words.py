"""The English commands every game's grammar offers, whatever the game: its questions and the
speech settings. They change nothing in a game, so the policy answers them at once."""

from __future__ import annotations

QUERIES: tuple[str, ...] = ("score", "board", "actions", "repeat", "help", "undo", "unseen",
                           "hint")
# Voice settings need their carrier word: a bare "slower" was heard for "score".
SETTINGS: tuple[str, ...] = ("faster", "slower", "louder", "quieter")
SETTING_PHRASES: dict[str, str] = {f"speak {s}": s for s in SETTINGS}
