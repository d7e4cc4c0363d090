"""Voice in Hanamikoji: what to listen for at each moment (companion/play_voice.py applies
what was heard, with the same policy for every game)."""

from __future__ import annotations

from typing import Any

from companion.games.hanamikoji.interpret import parse_command

__all__ = ["context_for", "make_recognizer", "parse_command"]


def make_recognizer(base: Any) -> Any:
    """Hanamikoji's commands are the recognizer's own: nothing to wrap."""
    return base


def context_for(session: Any) -> Any:
    """The voice Context matching the session's state."""
    from companion.games.hanamikoji.actions import Gift
    from companion.games.hanamikoji.rules import Phase
    from companion.games.hanamikoji.voice.context import Context

    state = session.state
    if session.confirming is not None:
        return Context.confirm()
    if session.pending is not None or state.phase in (Phase.DEAL, Phase.OVER):
        return Context.any()
    if state.phase is Phase.ANSWER:
        if isinstance(state.offer, Gift):
            return Context.answer_gift(state.offer.cards)
        first, second = state.offer.pairs
        return Context.answer_competition(first, second)
    if state.phase is Phase.REVEAL:
        return Context.reveal()
    return Context.action(state.players[state.to_move].tokens)
