"""Commands any game shares: queries, undo, answers to questions, speech settings, quit
and new game.

Like game actions, each is a frozen value whose `text()` parses back to the same value.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum


class Query(Enum):
    """Questions that change nothing."""

    SCORE = "score"
    BOARD = "board"
    ACTIONS = "actions"
    REPEAT = "repeat"
    HELP = "help"
    UNSEEN = "unseen"
    TURN = "turn"
    WHAT = "what"  # what is expected right now
    BACK = "back"  # the announcement before the one last heard
    FORWARD = "forward"
    HINT = "hint"  # a suggested move, said to the deciding player only
    RULES = "rules"  # the rulebook's section for what is asked now (companion/rulebook)


class Setting(Enum):
    FASTER = "faster"
    SLOWER = "slower"
    LOUDER = "louder"
    QUIETER = "quieter"
    BRIEF = "brief"
    NORMAL = "normal"
    DETAILED = "detailed"


@dataclass(frozen=True)
class Ask:
    query: Query

    def text(self) -> str:
        return self.query.value


@dataclass(frozen=True)
class Undo:
    def text(self) -> str:
        return "undo"


@dataclass(frozen=True)
class Reply:
    """Yes or no to a question the companion asked."""

    yes: bool

    def text(self) -> str:
        return "yes" if self.yes else "no"


@dataclass(frozen=True)
class Cancel:
    """Drop a half-entered command (a keypad user who keyed the wrong action)."""

    def text(self) -> str:
        return "cancel"


@dataclass(frozen=True)
class Adjust:
    setting: Setting

    def text(self) -> str:
        return self.setting.value


@dataclass(frozen=True)
class Quit:
    """Stop playing: the game stays in the log, to be resumed."""

    def text(self) -> str:
        return "quit"


@dataclass(frozen=True)
class NewGame:
    """After game over: the next game with the same players and settings."""

    def text(self) -> str:
        return "new game"


@dataclass(frozen=True)
class Explain:
    """A question about one thing the game names by a word or number ("position 3", "what
    is 3"): changes nothing; the game answers it (its optional `explain` hook)."""

    subject: str

    def text(self) -> str:
        return f"position {self.subject}"


MetaCommand = Ask | Undo | Reply | Cancel | Adjust | Quit | NewGame | Explain


def parse_meta(text: str) -> MetaCommand | None:
    """The shared command whose canonical text is `text`, or None."""
    text = text.strip()
    for query in Query:
        if text == query.value:
            return Ask(query)
    for setting in Setting:
        if text == setting.value:
            return Adjust(setting)
    verb, _, subject = text.partition(" ")
    if verb == "position" and subject:
        return Explain(subject)
    return {
        "undo": Undo(), "yes": Reply(True), "no": Reply(False), "cancel": Cancel(),
        "quit": Quit(), "new game": NewGame(),
    }.get(text)


# Keypad symbols, acting at once (no Enter), as the play help tells players; a 0 on an
# empty line cancels in games whose keypad does not use 0 as a digit.
KEYPAD_SYMBOLS: dict[str, MetaCommand] = {
    "*": Ask(Query.REPEAT), "/": Ask(Query.SCORE), ".": Ask(Query.BOARD), "-": Undo(),
    "+": Ask(Query.HELP), "0": Cancel()}
