"""`rules` during a game: the section that explains what is being asked for now, or the
one a question by word names ("rules gift"), said without leaving the game."""

from __future__ import annotations

from collections.abc import Sequence

from companion.narrate.message import Message
from companion.normalize import fold
from companion.rulebook.book import RulebookMissing, load
from companion.rulebook.navigator import said

# The word that asks for the rules during play, in the four languages (folded); the same
# words make `Query.RULES` in companion/shared_words.py.
RULES_WORDS = ("rules", "rule", "regles", "regle", "reglas", "regla", "правила", "правило")


def question(line: str) -> str | None:
    """The words after a leading rules word ("rules gift" -> "gift"), or None when the
    line does not start with one or says nothing after it."""
    words = line.split()
    if len(words) < 2 or fold(words[0]) not in {fold(w) for w in RULES_WORDS}:
        return None
    return " ".join(words[1:])


def explain(game: str, lang: str, prompt: Sequence[Message],
            words: str | None = None) -> list[Message]:
    """What to say for `rules` now: the section for the current prompt's moment, or for
    the question `words`. State is not touched: the caller says its prompt again."""
    try:
        book = load(game, lang)
    except RulebookMissing:
        return [Message("rules", "rules.missing", {"game": game.capitalize()})]
    n = len(book.sections)
    if words is not None:
        asked = book.section(words) or book.search(words)
        if asked is None:
            return [Message("rules", "rules.not_found", {"words": words})]
        return [said(asked, n, "rules.answer", words)]
    # The table's prompt only: a question put to one player privately says nothing here.
    section = book.for_moment([m.key for m in prompt if m.private_to is None])
    if section is None:
        return [Message("rules", "rules.now_none")]
    return [Message("rules", "rules.now", {"title": section.title, "text": section.text},
                    {"section": section.id})]
