"""A player voice keeps missing is told, once, how to enrol their own words (EnrolHint):
after the third "please repeat" in a row, right after that refusal, the prompt still last,
in the table's language, and only where enrolled words would be heard."""

from __future__ import annotations

import pytest

from companion.games.hanamikoji import Hanamikoji
from companion.games.registry import load_game
from companion.inputs.hub import InputItem
from companion.inputs.voice import HINT_AFTER, EnrolHint, enrol_hint, handle_recognition
from companion.narrate.catalogue import LANGUAGES, Catalogue
from companion.narrate.message import Message
from companion.session import Session
from companion.table import Table
from companion.voice.enroll_words import TAKES, minutes
from companion.voice.sphinx import Recognition
from companion.voice.whisper_model import engine_available

NOT_HEARD = Recognition(None, 0.0, "")  # nothing valid heard: "please repeat"
NOISE = Recognition(None, 0.0, "", margin=0.0)  # too loud a room: "too noisy"


def game(lang: str = "fr") -> Session:
    session = Session(Hanamikoji(), {"players": ["Ana", "Ben"], "rules": "iello",
                                     "lang": lang})
    session.start()
    return session


def hinted(messages: list[Message]) -> bool:
    return any(m.key == "voice_enrol_hint" for m in messages)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_voice_missing_three_times_in_a_row_says_how_to_enrol_once(lang):
    session = game(lang)
    before = session.state
    hint = EnrolHint(None, "hanamikoji", lang, 3)
    said = [hint.after(handle_recognition(session, heard))
            for heard in (NOT_HEARD, NOISE, NOT_HEARD, NOT_HEARD, NOISE, NOT_HEARD)]
    assert [hinted(messages) for messages in said] == [False, False, True, False, False,
                                                        False]
    assert said[1][0].key == "error.too_noisy"  # a room too loud is a miss too
    third = said[HINT_AFTER - 1]
    at = next(i for i, m in enumerate(third) if m.key == "voice_enrol_hint")
    assert third[at - 1].key == "error.not_understood"  # right after the refusal...
    assert third[-1].event == "prompt"  # ...and the prompt still the last thing heard
    assert third[at].private_to is None and session.state == before
    line = Catalogue(lang).render(third[at])
    assert "\n" not in line and "{" not in line
    assert f"voice-enroll --words --name {Catalogue(lang).render(Message('', 'voice_your_name'))}" \
           f" --game hanamikoji --lang {lang}" in line
    assert "3" in line  # the minutes and the misses


def test_the_count_starts_again_when_a_command_is_understood():
    session = game("en")
    hint = EnrolHint("Ana", "hanamikoji", "en", 3)
    sure = Recognition("gift flute fan tea", 0.95, "gift flute fan tea")
    heard = [NOT_HEARD, NOT_HEARD, sure, NOT_HEARD, NOT_HEARD]
    assert not any(hinted(hint.after(handle_recognition(session, h))) for h in heard)
    said = hint.after(handle_recognition(session, NOT_HEARD))
    assert hinted(said)
    line = Catalogue("en").render(next(m for m in said if m.key == "voice_enrol_hint"))
    assert "--name Ana --game hanamikoji --lang en" in line and "--voice-profile Ana" in line


def test_a_move_refused_by_the_rules_is_no_miss_of_the_voice():
    session = game("en")
    hint = EnrolHint(None, "hanamikoji", "en", 3)
    illegal = Recognition("take flute", 0.95, "take flute")  # no gift waits for an answer
    for _ in range(HINT_AFTER + 1):
        said = hint.after(handle_recognition(session, illegal))
        assert said[0].event == "error" and not hinted(said)


@pytest.mark.parametrize("name", ["hanamikoji", "momiji"])
def test_the_hint_is_offered_only_where_enrolled_words_would_be_heard(name):
    loaded = load_game(name)
    session = Session(loaded, {"players": ["Ana", "Ben"], "lang": "fr"})
    assert enrol_hint(session, "sphinx", "Ana") is None  # pocketsphinx hears no enrolled words
    if not engine_available():
        pytest.skip("Whisper is not installed (scripts/setup.sh): no words can be enrolled")
    hint = enrol_hint(session, None, "Ana")
    assert hint is not None and (hint.game, hint.lang, hint.name) == (name, "fr", "Ana")
    count = len(loaded.voice().enrolment_words("fr"))
    assert hint.minutes == minutes(count, TAKES) <= 3  # the three minutes


class Said:
    """An output that keeps what it is given to say."""

    catalogue = None

    def __init__(self) -> None:
        self.messages: list[Message] = []

    def emit(self, messages: list[Message]) -> None:
        self.messages.extend(messages)

    def has_earpiece(self, seat: int) -> bool:
        return False


class Listening:
    """Stands in for the microphone of inputs.voice.Voice (none here); what the table does
    with what is heard, the hint included, is the real code."""

    def __init__(self, hint: EnrolHint) -> None:
        self.after = hint.after

    def is_push_key(self, item: InputItem) -> bool:
        return False

    def follow(self) -> None:
        pass


def test_the_table_says_the_hint_and_typed_lines_do_not_count():
    session, out = game("fr"), Said()
    table = Table(session, out)
    voice = Listening(EnrolHint(None, "hanamikoji", "fr", 3))
    typed = InputItem("keyboard", text="blah")
    heard = InputItem("voice", event=NOT_HEARD)
    table.play([heard, heard, typed, typed, typed], voice)
    assert not hinted(out.messages)  # a typed line refused is no miss of the voice
    table.play([heard], voice)
    assert hinted(out.messages) and out.messages[-1].event == "prompt"
