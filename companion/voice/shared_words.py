"""The English commands every game's grammar offers, whatever the game: its questions and the
speech settings. All but undo change nothing in a game, so the policy answers them at once;
undo takes back a step, so it is asked about when unsure (sphinx.ALWAYS_ANSWERED)."""

from __future__ import annotations

QUERIES: tuple[str, ...] = ("score", "board", "actions", "repeat", "help", "undo", "unseen",
                           "hint", "rules")  # rules: the rulebook on what is asked now
# Voice settings need their carrier word: a bare "slower" was heard for "score".
SETTINGS: tuple[str, ...] = ("faster", "slower", "louder", "quieter")
SETTING_PHRASES: dict[str, str] = {f"speak {s}": s for s in SETTINGS}
# While a list is begun (an offer one card short, objectives named in part): it is dropped.
CANCEL = "cancel"
CANCEL_WORDS: tuple[str, ...] = (CANCEL, "no")
