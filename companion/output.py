"""Where Messages go: one plain printed line each (or one JSON object), and the voice.

Private messages (a player's own Secret) are never printed on the shared screen nor
spoken on the shared speaker: they go to that player's private audio channel, if any.
"""

from __future__ import annotations

import json
import sys
from typing import Any, TextIO

from companion.narrate.catalogue import Catalogue
from companion.narrate.message import Message

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
        self.last_text = ""
        self._priority: Any = int
        if speaker is not None:
            from companion.speech import Priority as SpeechPriority

            self._priority = SpeechPriority

    def emit(self, messages: list[Message]) -> None:
        for message in messages:
            text = self.catalogue.render(message)
            if message.private_to is not None:
                if self.speaker is not None:
                    priority = self._priority(int(message.priority))
                    self.speaker.say(text, priority=priority, kind=None,
                                     channel=f"player:{message.private_to}")
                continue
            self._print(message, text)
            if self.speaker is not None:
                earcon = _EARCONS.get(message.event)
                if earcon is not None and hasattr(self.speaker, "earcon"):
                    self.speaker.earcon(earcon)
                self.speaker.say(
                    text, priority=self._priority(int(message.priority)), kind=message.event
                )

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
        self.last_text = text
