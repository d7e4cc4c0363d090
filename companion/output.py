"""Where Messages go: one plain printed line each (or one JSON object), and the voice.

Private messages (a player's own Secret) are never printed on the shared screen nor
spoken on the shared speaker: they go to that player's private audio channel, if any.
Whether a player has one is known here only, so a message that depends on it (a prompt
that promises an earpiece) is worded here too (Message.earpiece / otherwise).
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from typing import Any, TextIO

from companion.narrate.catalogue import Catalogue
from companion.narrate.message import Message

_REPLACEABLE = {"score", "board", "actions", "unseen", "turn", "help", "repeat"}
_EARCONS = {
    "error": "refused", "offer": "offer_waiting", "round_scored": "round_over",
    "reader_connected": "reader_connected", "reader_disconnected": "reader_disconnected",
}


class Output:
    def __init__(
        self,
        catalogue: Catalogue,
        *,
        json_mode: bool = False,
        speaker: Any = None,
        stream: TextIO | None = None,
    ) -> None:
        self.catalogue = catalogue
        self.json_mode = json_mode
        self.speaker = speaker
        self.stream = stream or sys.stdout
        self._priority: Any = int
        # Other outputs fed with every (message, text) said, private ones included (the web
        # pages: each seat's page is that player's private channel, named in `channels`).
        self.listeners: list[Callable[[list[tuple[Message, str]]], None]] = []
        self.channels: set[str] = set()
        if speaker is not None:
            from companion.speech import Priority as SpeechPriority

            self._priority = SpeechPriority

    def emit(self, messages: list[Message]) -> None:
        """Print each message as a line; speak the public ones as ONE utterance, in order.

        One utterance per announcement keeps "Ana offers …" before "Ben, take one …" (a
        prompt queued separately would jump ahead of the narration) and lets the seven
        geisha lines of a scoring be heard whole. Only answers to questions are replaceable
        by a newer answer of the same kind (a newer board replaces an unspoken older one).
        """
        spoken: list[str] = []
        earcons: list[str] = []
        priority = 0
        messages = [self._for_channels(m) for m in messages]
        said: list[tuple[Message, str]] = []
        for message in messages:
            text = self.catalogue.render(message)
            if message.private_to is not None:
                said.append((message, text))
                if self.speaker is not None:
                    self.speaker.say(text, priority=self._priority(int(message.priority)),
                                     kind=None, channel=f"player:{message.private_to}")
                continue
            earcon = _EARCONS.get(message.event)
            if earcon is not None:
                earcons.append(earcon)
                if self.catalogue.verbosity == "detailed":
                    # nothing essential by sound alone: at detailed verbosity it is a word too
                    text = f"{self.catalogue.word('earcon_words', earcon)} {text}"
            self._print(message, text)
            said.append((message, text))
            spoken.append(text)
            priority = max(priority, int(message.priority))
        for listener in self.listeners:
            listener(said)
        if self.speaker is None or not spoken:
            return
        level = self._priority(priority)
        if earcons and hasattr(self.speaker, "earcon"):
            self.speaker.earcon(earcons[0], priority=level)
        events = {m.event for m in messages if m.private_to is None} - {"prompt"}
        kind = events.pop() if len(events) == 1 and events <= _REPLACEABLE else None
        self.speaker.say(" ".join(spoken), priority=level, kind=kind)

    def has_earpiece(self, player: int) -> bool:
        """Whether `player` has a private channel: what is private to them can be heard."""
        channels = getattr(self.speaker, "private_channels", ())
        return f"player:{player}" in channels or f"player:{player}" in self.channels

    def _for_channels(self, message: Message) -> Message:
        """The message as said with the channels this table has (see Message.earpiece)."""
        seat = message.private_to if message.earpiece is None else message.earpiece
        if seat is None or message.otherwise is None or self.has_earpiece(seat):
            return message
        return message.otherwise

    def notice(self, event: str, text: str) -> None:
        """A one-off line that is not part of the game (speech unavailable, ...)."""
        self._print(Message(event, event), text)

    def _print(self, message: Message, text: str) -> None:
        if self.json_mode:
            record = {"event": message.event, "text": text, **message.data}
            line = json.dumps(record, ensure_ascii=False)
        else:
            line = text
        self.stream.write(line + "\n")
        self.stream.flush()
