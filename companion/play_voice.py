"""Voice in play: recognitions join the input queue, in the context the game is in.

The recognizer listens for what is valid now (an answer to a gift can only name one of
its three cards); what it hears goes through the confirmation policy: state-changing
commands it is unsure of are asked about ("… Yes or no?"), anything else is refused with
"please repeat". A missing microphone or recognizer is said once; play goes on by keys.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

from companion.errors import CompanionError
from companion.inputs import InputHub, InputItem
from companion.narrate.message import Message, Priority

Announce = Callable[[list[Message]], None]
PUSH_TO_TALK_LINE = "00"  # the keypad's double zero (or "00" then Enter) starts listening


def context_for(session: Any) -> Any:
    """The voice Context matching the session's state (Hanamikoji)."""
    from companion.games.hanamikoji.actions import Gift
    from companion.games.hanamikoji.rules import Phase
    from companion.voice.context import Context

    if session.game.name == "momiji":
        from companion.play_voice_momiji import context_for as momiji_context_for

        return momiji_context_for(session)
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


class Voice:
    """Always listening (default) or push-to-talk; recognitions go to the hub's queue."""

    def __init__(self, hub: InputHub, session: Any, mode: str) -> None:
        from companion.voice.listen import BackgroundListener, PushToTalk
        from companion.voice.sphinx import SphinxRecognizer

        self.session = session
        self.mode = mode
        self.hub = hub
        recognizer: Any = SphinxRecognizer()
        if session.game.name == "momiji":
            from companion.play_voice_momiji import MomijiRecognizer

            recognizer = MomijiRecognizer(recognizer)
        if mode == "push":
            self._push: Any = PushToTalk(recognizer)
            self._listener: Any = None
        else:
            self._push = None
            self._listener = BackgroundListener(recognizer, self._heard, context_for(session))
            self._listener.start()
            hub.add_closer(self._listener.stop)

    def _heard(self, recognition: Any) -> None:
        self.hub.queue.put(InputItem("voice", event=recognition))

    def follow(self) -> None:
        """Listen for what the game expects now (call after each handled input)."""
        if self._listener is not None:
            self._listener.context = context_for(self.session)

    def push_to_talk(self) -> None:
        if self._push is None:
            return
        context = context_for(self.session)

        def capture() -> None:
            recognition = self._push.capture(context)
            if recognition is not None:
                self._heard(recognition)

        threading.Thread(target=capture, name="push-to-talk", daemon=True).start()


def attach_voice(hub: InputHub, session: Any, mode: str, announce: Announce) -> Voice | None:
    """Start listening, or say once why voice is not available and return None."""
    from companion.voice.listen import MicrophoneUnavailable

    try:
        return Voice(hub, session, mode)
    except MicrophoneUnavailable as error:  # its sentence says what to do
        reason: Any = str(error).strip()
    except Exception as error:  # audio libraries fail in many ways when there is no microphone
        reason = Message("", "no_microphone")
        detail = f"{type(error).__name__}: {error}"
    else:  # pragma: no cover
        return None
    announce([Message("voice_unavailable", "voice_unavailable", {"reason": reason},
                      {"reason": str(reason) if isinstance(reason, str) else detail})])
    return None


def handle_recognition(session: Any, recognition: Any) -> list[Message]:
    """Apply, ask about, or refuse what the recognizer heard."""
    from companion.games.hanamikoji.interpret import parse_command
    from companion.voice.policy import Accept, Confirm, decide

    if session.game.name == "momiji":
        from companion.play_voice_momiji import handle_recognition as momiji_handle

        return momiji_handle(session, recognition)
    decision = decide(recognition)
    if isinstance(decision, (Accept, Confirm)):
        try:
            command = parse_command(decision.command)
        except CompanionError:
            decision = None  # type: ignore[assignment]
        else:
            if isinstance(decision, Accept):
                return session.execute(command)
            return session.propose(command)
    refusal = Message("error", "error.not_understood", {}, {"code": "not_understood",
                      "reason": "not understood"}, Priority.REFUSAL)
    return [refusal]
