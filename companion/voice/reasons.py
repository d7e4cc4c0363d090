"""Why voice cannot run, listen or learn, in the player's language.

The errors of the voice edges (adapt.AdaptationUnavailable, profiles.ProfileError,
cli's GameVoiceMissing and ListenRefused, audio.AudioError, whisper_model.ModelMissing,
decoders.VoiceUnavailable, listen.MicrophoneUnavailable: each an `Explained`) carry a
`message` (None when raised with a text alone): a part of a sentence keyed in the
catalogue's `[messages.voice_why]` (companion/locales/voice.*.toml), which voice-enroll,
`companion listen` and play's voice-off line say in the player's language. Their own text
(`str(exc)`) is that part in English, for logs.
"""

from __future__ import annotations

from dataclasses import replace
from functools import cache
from typing import TYPE_CHECKING, TypeVar

from companion.narrate.message import Message

if TYPE_CHECKING:
    from companion.narrate.catalogue import Catalogue


class Explained(Exception):
    """An error whose reason the catalogue can say: `message`, set by `explained`; None
    when it was raised with an English text alone. Mixed into each error `explained`
    makes, before its built-in base (`class AudioError(Explained, ValueError)`)."""

    message: Message | None = None


E = TypeVar("E", bound=Explained)


def reason(key: str, **params: object) -> Message:
    """A reason, said inside a sentence ("The voice profile was not made: {reason}"): no
    event, so it is not capitalized."""
    return Message("", f"voice_why.{key}", dict(params))


@cache
def _english() -> Catalogue:
    from companion.narrate.catalogue import Catalogue

    return Catalogue("en", games=())


def english(message: Message) -> str:
    return _english().render(message)


def explained(error: type[E], key: str, **params: object) -> E:
    """An `error` whose reason the catalogue says (its `message`); str() is the English."""
    message = reason(key, **params)
    exc = error(english(message))
    exc.message = message
    return exc


def why(exc: BaseException) -> Message | str:
    """An error's reason as the catalogue says it (`explained`), else its own text."""
    return getattr(exc, "message", None) or str(exc)


def about_file(exc: BaseException, name: str) -> Message | str:
    """An audio file's reason (`why`) with the file called `name` (its name in a profile's
    folder) where the reason gave its whole path: a path is long to hear."""
    message = getattr(exc, "message", None)
    if message is None or "path" not in message.params:
        return why(exc)
    return replace(message, params={**message.params, "path": name})
