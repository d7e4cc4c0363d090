"""What to do with a recognition: apply it, ask for a yes, or ask the player to repeat.

A wrongly applied command is far worse than a repeat, so: anything the grammar did not
produce is refused; a state-changing command is always read back, and below the threshold
it is only applied after a spoken "yes"; queries (and yes/no themselves) change nothing
and need no confirmation. A speech setting changes how every later sentence is said: below
the threshold it is asked about too (a held-out voice's "speak quieter" was read "speak
louder" at 0.42-0.70: docs/voice.md "Held-out voices, and a setting heard unsure"). Ending
a game (new game, quit) is asked about however sure.
"""

from __future__ import annotations

from dataclasses import dataclass

from companion.voice.shared_words import ENDINGS, SETTINGS
from companion.voice.sphinx import ALWAYS_ANSWERED, ANSWERS, LOW, MIN_MARGIN, Recognition

CONFIRM_THRESHOLD = 0.8
REFUSAL = "I did not understand, please repeat."
TOO_NOISY = ("Too much noise for me to be sure. Please repeat closer to the microphone, "
             "or use the keys.")
QUERY_COMMANDS = ALWAYS_ANSWERED  # questions, settings, cancel: they change nothing in a game


@dataclass(frozen=True)
class Accept:
    """Apply `command` now; `readback` is said first for state-changing commands ("" if none)."""

    command: str
    readback: str


@dataclass(frozen=True)
class Confirm:
    """Say `question` and apply `command` only if the answer is yes."""

    command: str
    question: str


@dataclass(frozen=True)
class Refuse:
    message: str = REFUSAL
    reason: str = "not_understood"  # the catalogue's error key


Decision = Accept | Confirm | Refuse


def _join(words: list[str]) -> str:
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


def readback(command: str) -> str:
    """A spoken sentence for a canonical command: "gift flute fan tea" → "Gift flute, fan and
    tea."."""
    verb, *rest = command.split()
    if verb == "competition" and "/" in rest:
        cut = rest.index("/")
        body = f"{_join(rest[:cut])} against {_join(rest[cut + 1:])}"
    elif verb == "take" and rest and rest[0] in ("1", "2"):
        body = "the first pair" if rest[0] == "1" else "the second pair"
    elif verb == "take" and rest:
        body = f"the {rest[0]}"
    else:
        body = _join(rest) if rest else ""
    return f"{verb.capitalize()} {body}".strip() + "."


def decide(recognition: Recognition, threshold: float = CONFIRM_THRESHOLD,
           answering: bool = False) -> Decision:
    """Accept, Confirm or Refuse a recognition (pure). `answering`: a yes or no is awaited,
    so a question heard doubtfully (below LOW) is more likely a misheard answer (Spanish
    "no" was heard as "sin ver", unseen, at 0.44): refused, not answered."""
    command = recognition.command
    # Below MIN_MARGIN (sphinx.py) what the decoders agree on is as often wrong as right:
    # refused with that reason rather than applied or asked about. The Sphinx recognizer
    # already refuses such commands itself (without the second opinions): say why here.
    noisy = recognition.margin is not None and recognition.margin < MIN_MARGIN
    if command is None:
        return Refuse(TOO_NOISY, "too_noisy") if noisy else Refuse()
    if command in QUERY_COMMANDS:
        if answering and recognition.confidence < LOW:
            return Refuse()
        if command in SETTINGS and recognition.confidence < threshold:
            # A question cannot wait on another question: said again instead.
            return Refuse() if answering else Confirm(command, readback(command) + " Yes or no?")
        return Accept(command, "")  # changes nothing: a misheard query costs a sentence
    if noisy:
        return Refuse(TOO_NOISY, "too_noisy")
    if command in ENDINGS:  # new game, quit: always asked, however sure
        return Refuse() if answering else Confirm(command, readback(command) + " Yes or no?")
    if command in ANSWERS:
        # A doubtful yes must not apply a command: asking "yes or no?" about a "yes" would
        # loop, so ask again instead.
        return Accept(command, "") if recognition.confidence >= threshold else Refuse()
    if recognition.confidence >= threshold:
        return Accept(command, readback(command))
    return Confirm(command, readback(command) + " Yes or no?")
