"""Other voices' words for a player who has not enrolled (companion/voice/stand_ins.py):
the bank made once with espeak-ng, kept, made again when the game's words change; beside
Whisper they only agree or fill in, a filled-in move asked about (enrolled.filled); play
attaches them where no player's own words listen, and never waits for them."""

from __future__ import annotations

import functools
import shutil
import time
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from companion.games.hanamikoji.voice.context import Context
from companion.games.hanamikoji.voice.words import normalize
from companion.voice import stand_ins
from companion.voice.enrolled import (
    AGREED,
    ASKED,
    FILL_MARGIN,
    OTHERS_AGREE_MARGIN,
    OTHERS_ALONE_MARGIN,
    Match,
    filled,
)
from companion.voice.sphinx import ANSWERS, Recognition

needs_espeak = pytest.mark.skipif(not shutil.which("espeak-ng"), reason="needs espeak-ng")
REVEAL = functools.partial(normalize, lang="fr", context=Context.reveal())
CONFIRM = functools.partial(normalize, lang="fr", context=Context.confirm())


def near(words: str, margin: float = 0.1, distance: float = 0.1) -> Match:
    return Match(words, distance, margin, heard=30, recorded=30)


def test_whisper_hearing_nothing_valid_gets_the_banks_move_asked_about() -> None:
    heard = Recognition(None, 0.2, "", transcript="Trois ?")
    out = filled(heard, near("trois"), REVEAL, "fr")
    assert out.command == "reveal scroll" and out.confidence == ASKED
    assert out.words == "trois"


def test_a_sure_match_of_other_voices_is_still_only_asked_about() -> None:
    """A player's own sure word is applied alone (enrolled.combine); others' never."""
    out = filled(Recognition(None, 0.0, ""), near("trois", margin=0.5, distance=0.01),
                 REVEAL, "fr")
    assert out.confidence == ASKED


def test_whisper_reading_stands_when_the_bank_hears_another_word() -> None:
    heard = Recognition("reveal flute", 0.7, "flûte", transcript="Flûte.")
    assert filled(heard, near("trois"), REVEAL, "fr") == heard


def test_an_agreement_raises_whisper_confidence_by_a_clear_lead_only() -> None:
    heard = Recognition("reveal scroll", 0.6, "trois", transcript="Trois.")
    assert filled(heard, near("trois"), REVEAL, "fr").confidence == AGREED
    by_a_hair = near("trois", margin=OTHERS_AGREE_MARGIN - 0.001)
    assert filled(heard, by_a_hair, REVEAL, "fr") == heard


def test_an_agreement_with_whisper_beam_alone_needs_a_longer_lead() -> None:
    """A stray "zut" was read "six" by Whisper's limited beam (its free transcript: "oui.")
    and was nearest the bank's "six" by 0.039: applied as a card before."""
    heard = Recognition("reveal tea", 0.38, "six", transcript="oui.")
    lead = (OTHERS_AGREE_MARGIN + OTHERS_ALONE_MARGIN) / 2
    assert filled(heard, near("six", margin=lead), REVEAL, "fr") == heard
    agreeing = Recognition("reveal tea", 0.38, "six", transcript="Six.")
    assert filled(agreeing, near("six", margin=lead), REVEAL, "fr").confidence == AGREED
    clear = near("six", margin=OTHERS_ALONE_MARGIN)
    assert filled(heard, clear, REVEAL, "fr").confidence == AGREED


def test_a_fill_in_needs_a_lead_over_the_next_word() -> None:
    nothing = Recognition(None, 0.1, "", transcript="Merci.")
    assert filled(nothing, near("six", margin=FILL_MARGIN / 2), REVEAL, "fr") == nothing
    assert filled(nothing, near("six", margin=FILL_MARGIN), REVEAL, "fr").confidence == ASKED


def test_an_answer_is_never_raised_nor_filled_in_by_other_voices() -> None:
    weak_yes = Recognition("yes", 0.5, "oui", transcript="Oui.")
    assert filled(weak_yes, near("oui"), CONFIRM, "fr") == weak_yes
    nothing = Recognition(None, 0.1, "", transcript="Chat.")
    assert filled(nothing, near("oui"), CONFIRM, "fr") == nothing


def test_a_question_is_never_filled_in_by_other_voices() -> None:
    """A question is answered at once (it cannot be asked about): a far stray word nearest
    "plateau" must not read the board aloud."""
    nothing = Recognition(None, 0.1, "", transcript="Plus fort.")
    assert filled(nothing, near("plateau"), REVEAL, "fr") == nothing


def test_a_number_whisper_wrote_keeps_the_bank_from_asking_another() -> None:
    nothing = Recognition(None, 0.3, "", transcript="8.")
    assert filled(nothing, near("trois"), REVEAL, "fr") == nothing


def test_a_rejected_match_changes_nothing() -> None:
    nothing = Recognition(None, 0.1, "")
    assert filled(nothing, Match("trois", 0.5, 0.1), REVEAL, "fr") == nothing
    assert filled(nothing, None, REVEAL, "fr") == nothing


WORDS = ("trois", "cinq", "flûte", "oui", "non", "plateau", "score", "secret", "huit")
COMMANDS = (None, "reveal scroll", "reveal flute", "yes", "no", "board", "score")


@given(command=st.sampled_from(COMMANDS), confidence=st.floats(0, 1),
       words=st.sampled_from(WORDS), distance=st.floats(0, 0.5), margin=st.floats(0, 0.3),
       transcript=st.sampled_from(("", "Trois.", "8.", "Oui.", "Plateau.", None)),
       confirm=st.booleans())
def test_other_voices_never_overrule_whisper_nor_apply_unasked(
        command: str | None, confidence: float, words: str, distance: float, margin: float,
        transcript: str | None, confirm: bool) -> None:
    """Whatever both heard: Whisper's valid reading is never changed, only made surer by
    an agreement; an answer keeps Whisper's own confidence; what Whisper did not read
    is at most asked about, and is a move."""
    read = CONFIRM if confirm else REVEAL
    heard = Recognition(command, confidence, command or "", transcript=transcript)
    out = filled(heard, Match(words, distance, margin, 30, 30), read, "fr")
    if command is not None:
        assert out.command == command and out.words == heard.words
        assert out.confidence >= confidence
        if command in ANSWERS:
            assert out == heard
    elif out.command is not None:
        assert out.confidence == ASKED and out.command not in ANSWERS
        assert out.command.startswith("reveal")


# ---------------------------------------------------------------- the bank itself

@needs_espeak
def test_the_bank_is_made_once_and_kept(tmp_path: Path) -> None:
    bank = stand_ins.profile("hanamikoji", "fr", tmp_path)
    words, voices = ("trois", "flûte"), ("fr", "fr+f2")
    stand_ins.prepare(bank, words, voices)
    made = bank.recordings()
    assert sorted(made) == sorted(words)
    assert all(len(made[w]) == len(voices) * len(stand_ins.SPEEDS) for w in words)
    # two voices, two speeds: four different sounds of each word
    assert len(set(made["trois"])) == 4
    kept = {p.name: p.stat().st_mtime_ns for p in bank.root.glob("*.wav")}
    stand_ins.prepare(bank, words, voices)
    assert {p.name: p.stat().st_mtime_ns for p in bank.root.glob("*.wav")} == kept
    # the game's words changed: made again, the old ones gone
    stand_ins.prepare(bank, ("cinq",), voices)
    assert sorted(bank.recordings()) == ["cinq"]


@needs_espeak
def test_a_bank_cut_short_is_made_again(tmp_path: Path) -> None:
    bank = stand_ins.profile("hanamikoji", "fr", tmp_path)
    stand_ins.prepare(bank, ("trois",), ("fr",))
    first = sorted(bank.root.glob("*.wav"))[0]
    first.write_bytes(b"RIFF cut")
    stand_ins.prepare(bank, ("trois",), ("fr",))
    assert len(bank.recordings()["trois"]) == len(stand_ins.SPEEDS)


def test_without_espeak_no_bank_and_nothing_written(tmp_path: Path,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PATH", str(tmp_path / "empty"))
    bank = stand_ins.profile("hanamikoji", "fr", tmp_path)
    with pytest.raises(stand_ins.NoBank):
        stand_ins.prepare(bank, ("trois",), ("fr",))
    assert not bank.ready()


@needs_espeak
def test_a_stopped_making_writes_nothing(tmp_path: Path) -> None:
    bank = stand_ins.profile("hanamikoji", "fr", tmp_path)
    with pytest.raises(stand_ins.NoBank):
        stand_ins.prepare(bank, ("trois", "cinq"), ("fr",), stopped=lambda: True)
    assert not bank.ready()


def test_no_bank_where_it_was_not_measured_to_help_nor_for_a_game_without_words() -> None:
    class Engine:
        def encode(self, pcm: bytes) -> None:  # pragma: no cover - never called
            raise AssertionError

    engine = Engine()
    for lang, word in (("en", "three"), ("es", "tres"), ("uk", "три")):
        assert stand_ins.listening(engine, "hanamikoji", lang, (word,)) is engine
    assert stand_ins.listening(engine, "hanamikoji", "fr", ()) is engine
    pocketsphinx = object()  # no encoder: nothing to compare frames with
    assert stand_ins.listening(pocketsphinx, "hanamikoji", "fr", ("trois",)) is pocketsphinx


def test_the_bank_is_kept_beside_the_players_voices(tmp_path: Path) -> None:
    assert stand_ins.folder(tmp_path / "voices") == tmp_path / "stand-in-words"
    bank = stand_ins.profile("hanamikoji", "fr", stand_ins.folder(tmp_path / "voices"))
    assert not bank.root.is_relative_to(tmp_path / "voices")


# ---------------------------------------------------------------- beside Whisper

def _multilingual() -> bool:
    from companion.voice.whisper_model import base, engine_available

    return engine_available() and bool(base(join=False))


needs_whisper = pytest.mark.skipif(not (shutil.which("espeak-ng") and _multilingual()),
                                   reason="needs espeak-ng and the multilingual Whisper model")


@needs_whisper
def test_whisper_alone_listens_while_the_bank_is_made_and_closing_stops_it(
        tmp_path: Path) -> None:
    """A first game: the bank takes minutes to make; a decode meanwhile is Whisper's alone
    and does not wait for it, and closing ends the making at once, keeping no features."""
    from companion.games.hanamikoji.voice.hooks import HanamikojiRecognizer
    from companion.voice.whisper import WhisperRecognizer

    engine = stand_ins.listening(WhisperRecognizer(None, "fr"), "hanamikoji", "fr",
                                 ("trois", "cinq", "flûte", "oui", "non"), tmp_path)
    try:
        said = stand_ins.espeak("trois", "fr+m3", 130, 60)
        started = time.perf_counter()
        heard = HanamikojiRecognizer(engine).recognize(said, Context.reveal())
        assert time.perf_counter() - started < 20
        assert engine.last_match is None or engine.voice is not None
        assert heard.command in (None, "reveal scroll")
    finally:
        started = time.perf_counter()
        engine.close()
        assert time.perf_counter() - started < 10
    assert not list(stand_ins.profile("hanamikoji", "fr", tmp_path).root.glob("*.npz"))


@needs_whisper
def test_the_bank_beside_whisper_hears_another_voice(tmp_path: Path) -> None:
    """Made as play makes it (a few words, to keep the test short), the bank's nearest word
    to a voice not in it saying "flûte" is "flûte", and play hears the card (asked about
    or applied, never another)."""
    from companion.games.hanamikoji.voice.hooks import HanamikojiRecognizer
    from companion.voice.enrolled_engine import EnrolledEngine
    from companion.voice.policy import Accept, Confirm, decide
    from companion.voice.whisper import WhisperRecognizer

    bank = stand_ins.profile("hanamikoji", "fr", tmp_path)
    words = ("trois", "cinq", "flûte", "papier", "secret")
    engine = EnrolledEngine(WhisperRecognizer(None, "fr"), bank, own=False, copies=(),
                            prepare=lambda stopped: stand_ins.prepare(
                                bank, words, ("fr", "fr+f2", "fr-be"), stopped=stopped))
    try:
        assert engine.ready(300) and engine.voice is not None
        heard = HanamikojiRecognizer(engine).recognize(
            stand_ins.espeak("flûte", "fr+m7", 140, 45), Context.reveal())
        assert engine.last_match is not None and engine.last_match.words == "flûte"
        out = decide(heard)
        assert isinstance(out, (Accept, Confirm)) and out.command == "reveal flute", heard
    finally:
        engine.close()


def test_what_is_too_long_for_any_word_is_not_matched() -> None:
    """A match's time grows with what is heard (other voices' 1848 templates: 276 ms for
    160 frames); past the longest word's fit (`Match.fits`) no word could be accepted, so
    none is computed: the recognizer's outcome is the same."""
    import numpy as np

    from companion.voice.enrolled import MAX_STRETCH, NOISE_FRAMES, EnrolledVoice

    rng = np.random.default_rng(5)
    voice = EnrolledVoice({"trois": [rng.standard_normal((10, 8))],
                           "flûte": [rng.standard_normal((20, 8))]})
    longest = int(MAX_STRETCH * 20 + NOISE_FRAMES)
    at_the_edge = voice.match(rng.standard_normal((longest, 8)))
    assert at_the_edge is not None
    assert voice.match(rng.standard_normal((longest + 1, 8))) is None
    nothing = Recognition(None, 0.1, "")
    assert filled(nothing, None, REVEAL, "fr") == nothing


def test_the_banks_noisy_copies_are_a_players_at_10_db() -> None:
    from companion.voice.enrolled_engine import NOISY_COPIES

    assert tuple(c for c in NOISY_COPIES if c[1] == 10.0) == stand_ins.COPIES


@needs_whisper
def test_closing_while_words_are_made_says_nothing_of_them(tmp_path: Path) -> None:
    """Play ending while a player's words are made (or other voices'): the making stops,
    and no "your words cannot be used" is queued for a table that has left."""
    import numpy as np

    from companion.voice.enrolled_engine import EnrolledEngine
    from companion.voice.whisper import WhisperRecognizer
    from companion.voice.word_profiles import WordProfile

    profile = WordProfile.named("Ana", "hanamikoji", "fr", tmp_path / "voices")
    t = np.arange(int(0.6 * 16000)) / 16000
    for pitch, word in enumerate(("trois", "cinq", "flûte", "papier")):
        for take in (0, 1):
            tone = 3000 * np.sin(2 * np.pi * (220 + 110 * pitch + 7 * take) * t)
            profile.save(tone.astype("<i2").tobytes(), word)
    said: list[Exception] = []
    engine = EnrolledEngine(WhisperRecognizer(None, "fr"), profile, said.append)
    time.sleep(0.5)
    engine.close()
    assert said == []
    assert engine.voice is None or set(engine.voice.words) == {"trois", "cinq", "flûte",
                                                               "papier"}
