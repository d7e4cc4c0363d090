"""How both enrolments (`companion voice-enroll`, with and without --words) speak: in the
player's language, each sentence printed and said, and said in full before the microphone
listens; a command to read aloud (English, the Sphinx model's language) by the English
voice inside the player's sentence."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from companion.narrate.message import Message
from companion.voice.reasons import why

if TYPE_CHECKING:
    from companion.narrate.catalogue import Catalogue
    from companion.speech import NullSpeaker, Speaker

Say = Callable[[Message], None]


def speaking(catalogue: Catalogue, enabled: bool) -> tuple[Speaker | NullSpeaker, Say]:
    """The speaker (the caller closes it) and how each sentence is printed and said; when
    speech cannot be heard, why is printed and the printed lines go on."""
    from companion.speech import open_speaker

    speaker, notice = open_speaker(catalogue.lang, enabled=enabled)
    if notice is not None:
        text = catalogue.render(Message("speech", notice.key, dict(notice.params)))
        print(text if text != notice.key else notice.text)

    def say(message: Message) -> None:
        print(catalogue.render(message), flush=True)
        speak(speaker, catalogue, message)

    return speaker, say


def spoken(catalogue: Catalogue, message: Message) -> list[tuple[str, str]]:
    """A sentence as (text, language) parts to speak: the command to read (`command`, in
    English, the model's language) said by the English voice, the rest by the player's."""
    command = message.params.get("command")
    if command is None or catalogue.lang == "en":
        return [(catalogue.render(message), catalogue.lang)]
    mark = "\x00"  # where the command goes in the sentence, in any language
    before, _, after = catalogue.render(
        replace(message, params={**message.params, "command": mark})).partition(mark)
    parts = [(before, catalogue.lang), (str(command), "en"), (after, catalogue.lang)]
    return [(text, lang) for text, lang in parts if text.strip(" .:")]


def speak(speaker: Any, catalogue: Catalogue, message: Message) -> None:
    """Say `message`'s parts one after the other and wait till they are said: the
    microphone must not hear the prompt."""
    for text, lang in spoken(catalogue, message):
        # kind=None: stacked; a part of a kind would replace the unspoken part before it.
        speaker.say(text, kind=None, lang=lang)
    speaker.wait(30)


def cannot_record(error: Any, sentence: Callable[..., Message]) -> Message:
    """Why nothing can be recorded (a MicrophoneUnavailable), in the enrolment's own
    `sentence`s: its no_microphone one when no microphone opens, else cannot_record with
    the reason (a package to install, a microphone that stopped)."""
    if error.key == "microphone_not_opened":
        return sentence("no_microphone")
    return sentence("cannot_record", reason=why(error))
