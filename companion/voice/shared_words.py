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
# Said in practice only (a table with a computer): it changes nothing, so it is answered.
PRACTICE_WORDS: tuple[str, ...] = ("hand",)
PRACTICE_RULE = "[my] hand"  # the English grammar's alternative


def practice_phrases(lang: str) -> tuple[str, ...]:
    """The practice words a phrase recognizer listens for in `lang` (companion.shared_words)."""
    from companion.shared_words import HAND_WORDS

    return HAND_WORDS.get(lang, ())


def practice_word(words: str) -> str | None:
    """"hand" when the recognized words (any case, punctuation aside) say it, else None."""
    from companion.shared_words import HAND_WORDS

    said = " ".join("".join(c if c.isalnum() else " " for c in words.lower()).split())
    return "hand" if any(said in sayings for sayings in HAND_WORDS.values()) else None
