"""Voice in Momiji: what to listen for at each moment and how Momiji's grammars are
recognized (companion/play_voice.py applies what was heard, with the same safety policy
for every game)."""

from __future__ import annotations

from typing import Any

from companion.games.momiji.interpret import parse_command
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


make_recognizer = MomijiRecognizer  # wraps the shared recognizer with Momiji's grammars

__all__ = ["context_for", "make_recognizer", "parse_command"]
