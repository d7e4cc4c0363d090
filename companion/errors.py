"""The three ways an input can fail, each carrying a reason a person can hear.

Modelled on python-chess: all three are ValueErrors. Each carries a message `key` and
`params` so the narrator can say the reason in the player's language; `str()` gives an
English sentence for logs and tests.
"""

from __future__ import annotations

from typing import Any

# What a refusal may read back of the player's own input: a few words, never a page.
ECHO_WORDS = 6
ECHO_CHARS = 60
SENTENCE_CHARS = 100  # a line longer than this is no command anyone means to say
# The longest line read at all: ten times any command (six Momiji objectives in Ukrainian
# are under 200 characters). Reading a line costs time in its length; a pasted megabyte
# must not hold up the table's input for seconds.
LINE_CHARS = 1000
UNREADABLE = "\ufffd"  # what input readers put for bytes that are not UTF-8


def excerpt(text: str) -> str:
    """`text` if it is short enough to say back, else its first words and "…"."""
    words = text.split()
    if len(words) <= ECHO_WORDS and len(text) <= ECHO_CHARS:
        return text
    start = " ".join(words[:ECHO_WORDS])[:ECHO_CHARS].rstrip()
    return start + "…"


def is_long(text: str) -> bool:
    """Longer than a sentence, so not read back: its first words are said instead."""
    return len(text.strip()) > SENTENCE_CHARS


def check_readable(line: str) -> None:
    """Refuse, before any parsing, a line too long to be a command or holding bytes that
    were not text (decoded as U+FFFD, or as lone surrogates by Python's surrogateescape)."""
    if len(line) > LINE_CHARS:
        raise InvalidCommand("line_too_long", f"a line of more than {LINE_CHARS} characters "
                             "is not read", most=LINE_CHARS)
    if UNREADABLE in line or any("\ud800" <= c <= "\udfff" for c in line):
        raise InvalidCommand("unreadable_line", "that line held bytes that are not UTF-8 text")


class CompanionError(ValueError):
    """Base: an input that changes nothing and gets a spoken reason.

    Text parameters echo what the player typed or said; each is cut to `excerpt` here, so
    that no refusal, from any input, reads a long line back in full.
    """

    def __init__(self, key: str, english: str, **params: Any) -> None:
        for name, value in params.items():
            if isinstance(value, str) and excerpt(value) != value:
                params[name] = excerpt(value)
                english = english.replace(value, params[name])
        super().__init__(english)
        self.key = key
        self.params = params
        # the game whose refusal it is (set as it leaves the game's methods: its key is
        # looked up in that game's catalogue first); None: the core's
        self.game: str | None = None


class InvalidCommand(CompanionError):
    """The input could not be understood at all."""


class IllegalAction(CompanionError):
    """The input was understood but the rules do not allow it now."""


class AmbiguousCommand(CompanionError):
    """The input matches several things; `options` are the candidates to ask about."""

    def __init__(self, key: str, english: str, options: tuple[Any, ...], **params: Any) -> None:
        super().__init__(key, english, **params)
        self.options = options


class ConfirmFirst(IllegalAction):
    """Allowed only if the player confirms (the companion cannot tell whether the rules
    allow it): the session asks the question `key`, and a yes applies `command`."""

    def __init__(self, key: str, english: str, command: Any, **params: Any) -> None:
        super().__init__(key, english, **params)
        self.command = command
