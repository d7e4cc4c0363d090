"""Voice in play for Momiji: the context the game is in, and what to do with a recognition.

The counterpart of companion/play_voice.py (Hanamikoji), with the same safety: a sure
state-changing command is applied and its narration reads it back, an unsure one is asked
about ("… Yes or no?"), anything else is refused with "please repeat".
"""

from __future__ import annotations

from typing import Any

from companion.errors import CompanionError
from companion.narrate.message import Message, Priority
from companion.voice.momiji import MomijiContext, momiji_context, recognize_in
from companion.voice.sphinx import Recognition, SphinxRecognizer


def context_for(session: Any) -> MomijiContext:
    """The Momiji voice context matching the session's state."""
    return momiji_context(session.state, confirming=session.confirming is not None)


class MomijiRecognizer:
    """`recognize(pcm, context)` as companion/voice/listen.py expects, in Momiji contexts."""

    def __init__(self, recognizer: SphinxRecognizer | None = None) -> None:
        self.recognizer = recognizer or SphinxRecognizer()

    def recognize(self, pcm: bytes, context: Any = None) -> Recognition:
        if not isinstance(context, MomijiContext):
            raise TypeError("a Momiji recognition needs a MomijiContext (see context_for)")
        return recognize_in(self.recognizer, pcm, context)


def handle_recognition(session: Any, recognition: Recognition) -> list[Message]:
    """Apply, ask about, or refuse what the recognizer heard."""
    from companion.games.momiji.actions import Colours, Garden, Objectives, PileSize
    from companion.games.momiji.interpret import parse_command
    from companion.voice.policy import Accept, Confirm, decide

    decision = decide(recognition)
    if isinstance(decision, (Accept, Confirm)):
        try:
            command = parse_command(decision.command)
        except CompanionError:
            pass
        else:
            if isinstance(decision, Accept):
                return session.execute(command)
            messages: list[Message] = session.propose(command)
            if isinstance(command, (Colours, Objectives, Garden, PileSize)):
                # The game describes any set-up step as "a set-up step"; a question needs
                # its content. The params dict is shared with the history, so "repeat" too.
                for message in messages:
                    if message.key == "confirm":
                        message.params["command"] = command.text()
            return messages
    return [Message("error", "error.not_understood", {}, {"code": "not_understood",
                    "reason": "not understood"}, Priority.REFUSAL)]
