"""The player's own voice (issue 25, part 2): enrolled words compared by dynamic time
warping (companion/voice/enrolled.py), beside Whisper in play (enrolled_engine.py), kept
per player, game and language (word_profiles.py), enrolled by `voice-enroll --words`."""

from __future__ import annotations

import shutil
import subprocess
import time
from collections.abc import Iterable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import numpy as np
import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from companion.games.hanamikoji.voice.context import Context
from companion.games.hanamikoji.voice.hooks import HanamikojiRecognizer, enrolment_words
from companion.voice.audio import read_wav
from companion.voice.enroll_words import WordEnrollment, minutes
from companion.voice.enrolled import (
    AGREE_MARGIN,
    AGREED,
    ASKED,
    MAX_DISTANCE,
    PLAIN_SURE_DISTANCE,
    SURE_DISTANCE,
    SURE_MARGIN,
    EnrolledVoice,
    Match,
    combine,
    dtw_distance,
    sure,
    unit_rows,
)
from companion.voice.policy import Accept, Confirm, Refuse, decide
from companion.voice.sphinx import ANSWERS, Recognition
from companion.voice.whisper_model import base, engine_available, tiny_en
from companion.voice.word_profiles import WordProfile
from tests.realspeech import clip, digit, needs_realspeech

# The free spoken digit dataset's words, by number.
DIGITS = ("zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine")


def _takes(speaker: str, numbers: Iterable[int]) -> dict[str, list[bytes]]:
    """`speaker`'s takes 0 and 1 of each of `numbers`, by word: what the tests enrol (the
    other takes are heard)."""
    return {DIGITS[n]: [clip(digit(n, speaker, t)) for t in (0, 1)] for n in numbers}


def _digit_profile(folder: Path, speaker: str, numbers: Iterable[int]) -> WordProfile:
    """`speaker`'s words profile with `_takes` of `numbers` saved, as voice-enroll saves."""
    profile = WordProfile.named(speaker, "hanamikoji", "en", folder)
    for word, takes in _takes(speaker, numbers).items():
        for pcm in takes:
            profile.save(pcm, word)
    return profile


RNG = np.random.default_rng(3)
WORD_A = RNG.standard_normal((30, 16))
WORD_B = RNG.standard_normal((25, 16))


def test_a_word_said_slower_is_near_its_recording_and_far_from_another() -> None:
    slower = np.repeat(WORD_A, 2, axis=0)[::1] + 0.05 * RNG.standard_normal((60, 16))
    assert dtw_distance(unit_rows(WORD_A), unit_rows(WORD_A)) == pytest.approx(0, abs=1e-5)
    near = dtw_distance(unit_rows(slower), unit_rows(WORD_A))
    assert near < 0.05 < dtw_distance(unit_rows(slower), unit_rows(WORD_B))


def test_the_nearest_word_wins_and_a_stranger_is_rejected() -> None:
    voice = EnrolledVoice({"a": [WORD_A], "b": [WORD_B]})
    heard = voice.match(WORD_A + 0.05 * RNG.standard_normal(WORD_A.shape))
    assert heard is not None and heard.words == "a" and heard.accepted
    stranger = voice.match(RNG.standard_normal((28, 16)))
    assert stranger is not None and not stranger.accepted
    # Three times as long as the word: a sentence, not the word alone.
    long = voice.match(np.concatenate([WORD_A, WORD_B, WORD_A]))
    assert long is not None and not long.accepted


def test_a_word_must_be_near_every_take_not_one() -> None:
    """A word's distance is the mean over the player's takes of it (each with its noisy
    copies), so one take of a wrong word that happens to be near (a noisy copy in babble)
    does not outweigh a word near both takes."""
    heard = WORD_A + 0.3 * RNG.standard_normal(WORD_A.shape)
    near_once = heard + 0.2 * RNG.standard_normal(heard.shape)  # one take of "b": nearest
    voice = EnrolledVoice({"a": [WORD_A, WORD_A + 0.1 * RNG.standard_normal(WORD_A.shape)],
                           "b": [near_once, WORD_B]})
    one = EnrolledVoice({"a": voice.templates["a"], "b": voice.templates["b"][:1]})
    assert one.match(heard).words == "b"  # the nearest template alone would take "b"
    found = voice.match(heard)
    assert found is not None and found.words == "a", found
    # Each recording followed by one noisy copy: the nearest of the two counts per take.
    with_copies = EnrolledVoice({"a": [WORD_A, WORD_B, WORD_A, WORD_B],
                                 "b": [WORD_B, WORD_B, WORD_B, WORD_B]}, copies=1)
    assert with_copies.distances(WORD_A)["a"][0] == pytest.approx(0, abs=1e-5)


def test_a_recorded_words_quiet_frames_count_less_than_its_loud_ones() -> None:
    """A word's weight per encoder frame follows its loudness in the clean recording: its
    loud part 1, a part 20 dB quieter the floor, the silence around it not kept."""
    from companion.voice.enrolled_engine import (
        FRAME_SAMPLES,
        WEIGHT_FLOOR,
        frame_weights,
        speech_frames,
    )

    t = np.arange(16000 * 3 // 10) / 16000
    loud = 8000 * np.sin(2 * np.pi * 220 * t)
    pcm = np.concatenate([np.zeros(8000), loud, loud[:3200] / 10, np.zeros(8000)])
    pcm = np.round(pcm + RNG.normal(0, 3, len(pcm))).astype("<i2").tobytes()
    weights = frame_weights(pcm)
    span = speech_frames(np.zeros((len(pcm) // FRAME_SAMPLES + 1, 2)), pcm)
    assert len(weights) == len(span)
    assert max(weights) == 1.0 and min(weights) == WEIGHT_FLOOR
    # 0.3 s loud (15 frames) in one run; the quiet part after it (10 frames) and the
    # silence the span keeps around the word, at the floor.
    loud_frames = [k for k, w in enumerate(weights) if w > 0.95]
    assert len(loud_frames) >= 12 and loud_frames == list(range(loud_frames[0],
                                                                loud_frames[-1] + 1))
    after = weights[loud_frames[-1] + 2:]
    assert len(after) >= 9 and all(after == WEIGHT_FLOOR)
    assert all(weights[:loud_frames[0] - 1] == WEIGHT_FLOOR)


def test_noise_over_a_words_quiet_ending_does_not_make_another_word_nearest() -> None:
    """Noise covers a word's quiet frames first. "a" heard with its loud part intact and its
    quiet ending lost in noise that happens to sound like the quiet ending of "b" (whose
    loud part is only like "a"'s): every recorded frame counted alike, "b" was nearest; with
    the quiet frames counted less (their weights), "a" is."""
    quiet_a, quiet_b = RNG.standard_normal((10, 16)), RNG.standard_normal((10, 16))
    loud_a = RNG.standard_normal((10, 16))
    loud_b = loud_a + 0.6 * RNG.standard_normal((10, 16))
    word_a = np.concatenate([loud_a, quiet_a])
    word_b = np.concatenate([loud_b, quiet_b])
    heard = np.concatenate([loud_a + 0.1 * RNG.standard_normal((10, 16)), quiet_b])
    weights = np.array([1.0] * 10 + [0.15] * 10)
    alike = EnrolledVoice({"a": [word_a], "b": [word_b]})
    assert alike.match(heard).words == "b"
    weighted = EnrolledVoice({"a": [word_a], "b": [word_b]},
                             weights={"a": [weights], "b": [weights]})
    found = weighted.match(heard)
    assert found is not None and found.words == "a" and found.accepted
    # A weight given for fewer frames than the recording is carried on (a frame's
    # difference at the window's end); one alike for every frame changes nothing.
    short = EnrolledVoice({"a": [word_a]}, weights={"a": [weights[:15]]})
    assert short.distances(heard)["a"][0] == pytest.approx(
        dtw_distance(unit_rows(heard), unit_rows(word_a), weights), abs=1e-6)
    ones = EnrolledVoice({"a": [word_a], "b": [word_b]},
                         weights={"a": [np.ones(20)], "b": [np.ones(20)]})
    for word, (distance, _) in alike.distances(heard).items():
        assert ones.distances(heard)[word][0] == pytest.approx(distance, abs=1e-6)


@given(lengths=st.lists(st.integers(1, 9), min_size=1, max_size=6),
       heard=st.integers(1, 12), copies=st.integers(0, 1), seed=st.integers(0, 2**16))
def test_all_recordings_at_once_measure_what_each_alone_does(
        lengths: list[int], heard: int, copies: int, seed: int) -> None:
    """One batched pass over recordings of unlike lengths (their frames alone multiplied,
    the padding never) gives each word the distance its recordings give one by one: the
    mean over its takes of the nearest of each take and its copies."""
    rng = np.random.default_rng(seed)
    group = copies + 1
    takes = {f"w{k}": [rng.standard_normal((n, 8)) for _ in range(group)]
             for k, n in enumerate(lengths)}
    weights = {w: [rng.uniform(0.1, 1.0, len(t)) for t in ts] for w, ts in takes.items()}
    said = rng.standard_normal((heard, 8))
    voice = EnrolledVoice(takes, copies=copies, weights=weights)
    for word, (distance, _) in voice.distances(said).items():
        alone = min(dtw_distance(unit_rows(said), unit_rows(t), w)
                    for t, w in zip(takes[word], weights[word], strict=True))
        assert distance == pytest.approx(alone, abs=1e-5)
    # Half of the products made on another thread (as in play): the same match.
    with ThreadPoolExecutor(max_workers=1) as beside:
        found, shared = voice.match(said), voice.match(said, beside)
    assert found is not None and shared is not None and shared.words == found.words
    assert (shared.distance, shared.margin) == pytest.approx((found.distance, found.margin),
                                                             abs=1e-6)


def test_a_word_near_only_in_its_loud_part_is_not_sure_enough_to_apply_alone() -> None:
    """The weights make words that share their loud part nearer (the English tuning voices'
    "unseen", never enrolled, came sure of the player's "repeat"): a match is sure only
    when it is also sure with every recorded frame counted alike. What is heard here has
    "a"'s loud part and a quiet part unlike it: weighted it is near "a" by every
    threshold, counted alike it is not, so it is asked about, never applied alone."""
    loud, quiet = RNG.standard_normal((10, 16)), RNG.standard_normal((10, 16))
    word_a, word_c = np.concatenate([loud, quiet]), RNG.standard_normal((20, 16))
    weights = np.array([1.0] * 10 + [0.15] * 10)
    voice = EnrolledVoice({"a": [word_a], "c": [word_c]},
                         weights={"a": [weights], "c": [weights]})
    rhyme = voice.match(np.concatenate([loud, RNG.standard_normal((10, 16))]))
    assert rhyme is not None and rhyme.words == "a" and rhyme.accepted
    assert rhyme.distance <= SURE_DISTANCE and rhyme.margin >= SURE_MARGIN
    assert rhyme.plain is not None and rhyme.plain > PLAIN_SURE_DISTANCE
    assert not sure(rhyme)
    said = voice.match(word_a + 0.05 * RNG.standard_normal(word_a.shape))
    assert said is not None and said.words == "a" and sure(said)
    # Frames never weighted: one distance, measured once.
    alike = EnrolledVoice({"a": [word_a], "c": [word_c]}).match(word_a)
    assert alike is not None and alike.plain is None and sure(alike)


def _read(text: str) -> str | None:
    """A reveal's reading of a few words, as the game reads a free transcript (" Help.")."""
    return {"three": "reveal scroll", "seven": "reveal flower", "yes": "yes",
            "help": "help", "the rules": "rules"}.get(text.strip(" .!").lower())


SURE = Match("three", 0.1, 0.1)


@pytest.mark.parametrize(("whisper", "match", "decision", "command"), [
    # Both read the same: applied, even where Whisper alone would have asked.
    (Recognition("reveal scroll", 0.6, "three"), SURE, Accept, "reveal scroll"),
    (Recognition("reveal scroll", 0.6, "three"), Match("three", 0.13, 0.025), Accept,
     "reveal scroll"),
    # ... unless the match is a hair ahead of another of the player's words: no opinion
    # (a never-enrolled "bueno" nearest the player's "uno" by 0.01, read "uno" by Whisper's
    # beam at 0.37, was applied as a card): Whisper's doubt stands, asked about.
    (Recognition("reveal scroll", 0.37, "three", transcript=" Bueno."),
     Match("three", 0.29, 0.01), Confirm, "reveal scroll"),
    (Recognition("reveal scroll", 0.6, "three"), Match("three", 0.13, 0.015), Confirm,
     "reveal scroll"),
    # They differ: the enrolled reading asked about, never applied.
    (Recognition("reveal flower", 0.95, "seven"), SURE, Confirm, "reveal scroll"),
    # Whisper heard nothing valid: the enrolled reading, applied when it is sure...
    (Recognition(None, 0.1, ""), SURE, Accept, "reveal scroll"),
    # ... and Whisper's free transcript writes no other number ...
    (Recognition(None, 0.1, "", transcript=" Three."), SURE, Accept, "reveal scroll"),
    (Recognition(None, 0.1, "", transcript=" Thank you."), SURE, Accept, "reveal scroll"),
    # ... where it does (the player said "eight", never enrolled, nearest to "three"):
    # asked about.
    (Recognition(None, 0.1, "", transcript=" 8."), SURE, Confirm, "reveal scroll"),
    (Recognition(None, 0.1, "", transcript=" Eight."), SURE, Confirm, "reveal scroll"),
    # ... else asked about.
    (Recognition(None, 0.1, ""), Match("three", 0.35, 0.03), Confirm, "reveal scroll"),
    (Recognition(None, 0.1, ""), Match("three", 0.1, 0.05), Confirm, "reveal scroll"),
    # Whisper read a longer command, the word is found within it: no opinion.
    (Recognition("take flower", 0.95, "take seven"), Match("seven", 0.1, 0.1), Accept,
     "take flower"),
    # ... the word not within it, and not sure: no opinion either.
    (Recognition("rules", 0.6, "the rules"), Match("three", 0.3, 0.03), Accept, "rules"),
    # ... a sure word not within it: they disagree. The player's own "zero", enrolled but
    # no command here, read "the rules" (a query, applied at any confidence): refused.
    (Recognition("rules", 0.6, "the rules"), Match("zero", 0.1, 0.1), Refuse, None),
    (Recognition("rules", 0.6, "the rules"), SURE, Confirm, "reveal scroll"),
    (Recognition("reveal flower", 0.95, "reveal seven"), SURE, Confirm, "reveal scroll"),
    # Not as long as the word (a sentence around it): no opinion.
    (Recognition(None, 0.1, ""), Match("three", 0.1, 0.1, heard=200, recorded=25), Refuse,
     None),
    # A word enrolled but not valid now ("eight" where one to seven name a card): refused.
    (Recognition("reveal flower", 0.95, "seven"), Match("eight", 0.1, 0.1), Refuse, None),
    # An answer cannot be asked about: the player's own, not sure, is refused (a sure one
    # is taken: test_an_english_players_own_sure_answer_is_taken_where_whisper_heard_none).
    (Recognition(None, 0.3, ""), Match("yes", 0.1, 0.03), Refuse, None),
    # No opinion (too far, or too close to another word): Whisper's own decision.
    (Recognition("reveal flower", 0.95, "seven"), Match("three", MAX_DISTANCE + 0.1, 0.1),
     Accept, "reveal flower"),
    (Recognition("reveal flower", 0.6, "seven"), Match("three", 0.1, 0.0), Confirm,
     "reveal flower"),
])
def test_whisper_and_the_enrolled_voice_combine(whisper: Recognition, match: Match,
                                               decision: type, command: str | None) -> None:
    out = decide(combine(whisper, match, _read))
    assert isinstance(out, decision)
    assert getattr(out, "command", None) == command


ENROLLED = ("three", "seven", "yes", "no")
NOT_NEAR = 0.25  # accepted (within MAX_DISTANCE), not within SURE_DISTANCE


@pytest.mark.parametrize(("whisper", "match", "decision", "command"), [
    # A word the player never enrolled, read alike by Whisper's beam and its free
    # transcript: the nearest enrolled word, not near, is no evidence against it (it was
    # refused as a "yes" that cannot be asked about, or asked about as a card).
    (Recognition("help", 0.82, "help", transcript=" Help."), Match("yes", NOT_NEAR, 0.01),
     Accept, "help"),
    (Recognition("help", 0.82, "help", transcript=" Help!"), Match("three", NOT_NEAR, 0.01),
     Accept, "help"),
    (Recognition("rules", 0.7, "the rules", transcript=" The rules."),
     Match("three", NOT_NEAR, 0.01), Accept, "rules"),
    # The free transcript reads otherwise: the match still disagrees.
    (Recognition("help", 0.82, "help", transcript=" Health."), Match("yes", NOT_NEAR, 0.01),
     Refuse, None),
    (Recognition("help", 0.82, "help", transcript=None), Match("three", NOT_NEAR, 0.01),
     Confirm, "reveal scroll"),
    # The match near (within SURE_DISTANCE), or sure: still an opinion.
    (Recognition("help", 0.82, "help", transcript=" Help."), Match("three", 0.15, 0.01),
     Confirm, "reveal scroll"),
    (Recognition("help", 0.82, "help", transcript=" Help."), SURE, Confirm, "reveal scroll"),
    # A word the player enrolled: the match knows it, and disagrees.
    (Recognition("reveal flower", 0.95, "seven", transcript=" Seven."),
     Match("three", NOT_NEAR, 0.01), Confirm, "reveal scroll"),
    # Whisper's beam read another number (refused for its confidence) beside a sure match:
    # asked about, not applied (a player's own "eight" in noise, nearest their "six", read
    # "three" by the beam and "Hey." by the free transcript, was applied).
    (Recognition(None, 0.37, "seven", transcript=" Hey."), SURE, Confirm, "reveal scroll"),
    (Recognition(None, 0.37, "three", transcript=" Hey."), SURE, Accept, "reveal scroll"),
    # A question cannot be asked about (the policy answers it at once): the match's reading
    # of one is applied only when it would be applied alone, else refused (it was answered:
    # a French "plus fort" nearest the player's "plateau", far, read the board aloud).
    (Recognition(None, 0.1, ""), Match("help", NOT_NEAR, 0.01), Refuse, None),
    (Recognition("reveal flower", 0.9, "seven"), Match("help", 0.1, 0.1), Refuse, None),
    (Recognition(None, 0.1, ""), Match("help", 0.1, 0.1), Accept, "help"),
])
def test_the_enrolled_voice_knows_only_its_words(whisper: Recognition, match: Match,
                                                 decision: type, command: str | None) -> None:
    out = decide(combine(whisper, match, _read, "en", ENROLLED))
    assert isinstance(out, decision)
    assert getattr(out, "command", None) == command


_COMMANDS = st.sampled_from([None, "reveal scroll", "reveal flower", "yes", "no", "rules",
                             "help"])
_WORDS = st.sampled_from(["three", "seven", "yes", "eight", "the rules", "the three",
                          "reveal seven", "help", ""])


@given(command=_COMMANDS, confidence=st.floats(0, 1), words=_WORDS,
       transcript=st.sampled_from([None, "", " 8.", " Three.", " Hey.", " 7", " Help.",
                                   " The rules."]),
       margin_db=st.none() | st.floats(0, 40), seat=st.none() | st.integers(0, 3),
       said=st.sampled_from(["three", "seven", "yes", "eight", "help"]),
       distance=st.floats(0, 0.5), margin=st.floats(0, 0.3),
       enrolled=st.none() | st.just(ENROLLED))
# The English player's own sure "yes" where Whisper heard nothing valid (taken since English
# joined ENROLLED_ANSWERS; this property said otherwise and failed on a random draw).
@example(command=None, confidence=0.0, words="yes", transcript=None, margin_db=None,
         seat=None, said="yes", distance=0.0, margin=0.25, enrolled=None)
# ... but not where Whisper wrote a number (a stray "eight" is no yes): these two draws
# failed on CI's run of 2026-12-06.
@example(command=None, confidence=0.0, words="eight", transcript=None, margin_db=None,
         seat=None, said="yes", distance=0.0, margin=0.25, enrolled=None)
@example(command=None, confidence=0.0, words="yes", transcript=" 8.", margin_db=None,
         seat=None, said="yes", distance=0.0, margin=0.25, enrolled=None)
def test_the_enrolled_voice_never_overrules_whisper_unasked(
        command: str | None, confidence: float, words: str, transcript: str | None,
        margin_db: float | None, seat: int | None, said: str, distance: float,
        margin: float, enrolled: tuple[str, ...] | None) -> None:
    """Whatever both heard: what is applied without a question is Whisper's own command,
    or the enrolled reading where Whisper heard nothing valid, the match was sure and
    neither Whisper's free transcript nor its beam's words said another number; an answer
    is the enrolled voice's alone only where Whisper heard none, the match was sure and
    nothing Whisper wrote reads as another command; the command is one of the two readings
    or none; the seat a question goes to and the loudness margin are kept."""
    from companion.voice.enrolled import names_another_number, reads_only, sure

    heard = Recognition(command, confidence, words, margin_db, seat, transcript)
    match = Match(said, distance, margin)
    out = combine(heard, match, _read, "en", enrolled)
    assert out.command in (None, command, _read(said))
    assert (out.private_to, out.margin, out.transcript) == (seat, margin_db, transcript)
    if out.command in ANSWERS and out.command != command:  # the player's own, sure
        assert command is None and sure(match)
        assert reads_only(out.command, _read, words, transcript)
    if command is not None and _read(said) == command and margin < AGREE_MARGIN:
        assert out == heard  # a hair ahead of another word: no opinion
    if isinstance(decide(out), Accept) and out.command != command:
        assert command is None and sure(match)
        assert not names_another_number(transcript, said, "en")
        assert not names_another_number(words, said, "en")


def _read_uk(text: str) -> str | None:
    """The confirm context's reading in Ukrainian, as the game reads a transcript."""
    return {"так": "yes", "ні": "no", "рахунок": "score"}.get(text.strip(" .!?").lower())


@pytest.mark.parametrize(("whisper", "match", "lang", "command"), [
    # The player's own "так", sure, where Whisper's decodes did not agree on it (written
    # "Та." and "Рад!" by the free one): taken.
    (Recognition(None, 0.3, "так", transcript=" Та."), Match("так", 0.08, 0.15), "uk", "yes"),
    (Recognition(None, 0.0, "Рад!", transcript=" Рад!"), Match("так", 0.08, 0.15), "uk",
     "yes"),
    (Recognition(None, 0.2, "", transcript=None), Match("ні", 0.1, 0.1), "uk", "no"),
    # Something Whisper wrote reads as the other answer, or another command: refused.
    (Recognition(None, 0.3, "ні", transcript=" Та."), Match("так", 0.08, 0.15), "uk", None),
    (Recognition(None, 0.3, "", transcript=" Ні."), Match("так", 0.08, 0.15), "uk", None),
    (Recognition(None, 0.3, "рахунок"), Match("так", 0.08, 0.15), "uk", None),
    # Not sure (too far, or too near another word): refused, an answer cannot be asked.
    (Recognition(None, 0.3, ""), Match("так", 0.25, 0.15), "uk", None),
    (Recognition(None, 0.3, ""), Match("так", 0.08, 0.03), "uk", None),
])
def test_a_players_own_sure_answer_is_taken_where_whisper_heard_none(
        whisper: Recognition, match: Match, lang: str, command: str | None) -> None:
    out = decide(combine(whisper, match, _read_uk, lang, ("так", "ні", "один", "рахунок")),
                 answering=True)
    assert getattr(out, "command", None) == command
    assert isinstance(out, Accept if command else Refuse)


def _read_answer(text: str) -> str | None:
    """A confirmation's reading in English: yes, no, or a question still answered."""
    return {"yes": "yes", "yeah": "yes", "no": "no", "score": "score"}.get(
        text.strip(" .!?").lower())


@pytest.mark.parametrize(("whisper", "match", "command"), [
    # The player's own "yes", sure, where tiny.en's own check (yesno.py) let none through:
    # taken, as in the other languages (settled on a third set of voices).
    (Recognition(None, 0.3, "", transcript=" Yes."), Match("yes", 0.08, 0.15), "yes"),
    (Recognition(None, 0.0, "", transcript=None), Match("no", 0.1, 0.1), "no"),
    # Whisper wrote the other answer, or another command; or the match is not sure: refused.
    (Recognition(None, 0.3, "no", transcript=" Yeah."), Match("yes", 0.08, 0.15), None),
    (Recognition(None, 0.3, "", transcript=" Score."), Match("yes", 0.08, 0.15), None),
    (Recognition(None, 0.3, ""), Match("yes", 0.25, 0.15), None),
])
def test_an_english_players_own_sure_answer_is_taken_where_whisper_heard_none(
        whisper: Recognition, match: Match, command: str | None) -> None:
    out = decide(combine(whisper, match, _read_answer, "en", ("yes", "no", "three", "score")),
                 answering=True)
    assert getattr(out, "command", None) == command
    assert isinstance(out, Accept if command else Refuse)


@given(command=st.sampled_from([None, "yes", "no", "score"]), confidence=st.floats(0, 1),
       words=st.sampled_from(["так", "ні", "рахунок", "Рад!", ""]),
       transcript=st.sampled_from([None, "", " Та.", " Ні.", " Так.", " Рахунок."]),
       said=st.sampled_from(["так", "ні", "один", "рахунок"]),
       distance=st.floats(0, 0.5), margin=st.floats(0, 0.3),
       lang=st.sampled_from(["uk", "fr", "en"]))
def test_an_answer_not_whispers_is_applied_only_when_sure_and_uncontradicted(
        command: str | None, confidence: float, words: str, transcript: str | None,
        said: str, distance: float, margin: float, lang: str) -> None:
    from companion.voice.enrolled import sure

    heard = Recognition(command, confidence, words, transcript=transcript)
    match = Match(said, distance, margin)
    out = decide(combine(heard, match, _read_uk, lang, ("так", "ні", "один", "рахунок")),
                 answering=True)
    if isinstance(out, Accept) and out.command in ANSWERS and out.command != command:
        assert command is None and sure(match) and _read_uk(said) == out.command
        assert {_read_uk(words), _read_uk(transcript or "")} <= {None, out.command}


def _read_fr(text: str) -> str | None:
    """The reveal context's reading in French, as the game reads a transcript."""
    return {"plateau": "board", "score": "score", "trois": "reveal scroll", "aide": "help",
            "plus fort": "louder", "de score": "score"}.get(text.strip(" .!?").lower())


FR_ENROLLED = ("plateau", "score", "trois", "dépôt", "oui")


@pytest.mark.parametrize(("whisper", "match", "lang", "command"), [
    # The player's own "plateau", near and well ahead though not sure, where Whisper heard
    # nothing valid (its limited beam wrote "et papier", its free decode " ok."): answered.
    (Recognition(None, 0.2, "et papier", transcript=" ok."), Match("plateau", 0.073, 0.043),
     "fr", "board"),
    (Recognition(None, 0.2, "", transcript=" Plateau."), Match("plateau", 0.19, 0.08), "fr",
     "board"),
    (Recognition(None, 0.2, ""), Match("score", 0.12, 0.05), "uk", "score"),
    # Too far, or too near another word (a setting never enrolled, "plus fort", nearest
    # the player's "plateau" by a hair): refused.
    (Recognition(None, 0.2, ""), Match("plateau", 0.22, 0.08), "fr", None),
    # A never-enrolled "moins fort" at 6 dB nearest the player's "plateau" just past the
    # limit, though ahead (the French tuning voices): not answered as the board.
    (Recognition(None, 0.2, "on l'a pas", transcript=" on l'a pas."),
     Match("plateau", 0.198, 0.046), "fr", None),
    (Recognition(None, 0.2, ""), Match("plateau", 0.12, 0.031), "fr", None),
    # Whisper's free transcript reads another command, or Whisper heard one: refused.
    (Recognition(None, 0.2, "", transcript=" Aide."), Match("plateau", 0.1, 0.05), "fr", None),
    (Recognition("reveal scroll", 0.5, "trois"), Match("plateau", 0.1, 0.05), "fr", None),
    # English questions are tiny.en's own: not answered on a match that is not sure.
    (Recognition(None, 0.2, ""), Match("plateau", 0.1, 0.05), "en", None),
    # Whisper's reading said in one word beside a filler is not longer than the word: a
    # near match of another word (Pico's "dépôt", read "de score") disagrees with it.
    (Recognition("score", 0.45, "de score", transcript=" D'accord."), Match("dépôt", 0.065,
     0.055), "fr", None),
    # ... a far one is no opinion: Whisper's reading stands.
    (Recognition("score", 0.45, "de score", transcript=" D'accord."), Match("dépôt", 0.27,
     0.02), "fr", "score"),
])
def test_a_players_own_near_question_is_answered_where_whisper_heard_none(
        whisper: Recognition, match: Match, lang: str, command: str | None) -> None:
    out = decide(combine(whisper, match, _read_fr, lang, FR_ENROLLED))
    assert getattr(out, "command", None) == command
    assert isinstance(out, Accept if command else Refuse)


@given(command=st.sampled_from([None, "score", "board", "reveal scroll", "help"]),
       confidence=st.floats(0, 1),
       words=st.sampled_from(["plateau", "et papier", "de score", "trois", "aide", ""]),
       transcript=st.sampled_from([None, "", " ok.", " Plateau.", " Aide.", " Trois."]),
       said=st.sampled_from(list(FR_ENROLLED)), distance=st.floats(0, 0.5),
       margin=st.floats(0, 0.3), lang=st.sampled_from(["fr", "en", "uk"]))
def test_a_question_not_whispers_is_answered_only_when_near_ahead_and_uncontradicted(
        command: str | None, confidence: float, words: str, transcript: str | None,
        said: str, distance: float, margin: float, lang: str) -> None:
    """What is applied without a question and is not Whisper's own command is the match's
    word: sure, or a question near (within QUESTION_DISTANCE) and ahead (QUESTION_MARGIN)
    where Whisper heard nothing valid and its free transcript reads no other command."""
    from companion.voice.enrolled import QUESTION_DISTANCE, QUESTION_MARGIN, sure

    heard = Recognition(command, confidence, words, transcript=transcript)
    match = Match(said, distance, margin)
    out = decide(combine(heard, match, _read_fr, lang, FR_ENROLLED))
    if isinstance(out, Accept) and out.command != command:
        assert command is None and out.command == _read_fr(said)
        assert sure(match) or (lang != "en" and distance <= QUESTION_DISTANCE
                               and margin >= QUESTION_MARGIN
                               and _read_fr(transcript or "") in (None, out.command))


def test_agreement_and_disagreement_confidences() -> None:
    assert combine(Recognition("yes", 0.5, "yes"), Match("yes", 0.1, 0.1), _read
                   ).confidence == AGREED
    assert combine(Recognition(None, 0.1, ""), Match("three", 0.3, 0.02), _read
                   ).confidence == ASKED


def test_a_word_profile_keeps_recordings_per_player_game_and_language(tmp_path: Path) -> None:
    ana = WordProfile.named("Ana", "hanamikoji", "fr", tmp_path)
    assert not ana.ready()
    ana.save(b"\x01\x00" * 8000, "trois")
    ana.save(b"\x02\x00" * 8000, "trois")
    ana.save(b"\x03\x00" * 8000, "oui")
    assert {w: len(r) for w, r in ana.recordings().items()} == {"trois": 2, "oui": 1}
    assert WordProfile.named("Ana", "momiji", "fr", tmp_path).recordings() == {}
    assert WordProfile.named("Ana", "hanamikoji", "en", tmp_path).recordings() == {}
    ana.forget("trois")
    assert list(ana.recordings()) == ["oui"]


def test_the_context_words_in_every_language() -> None:
    for lang in ("en", "fr", "es", "uk"):
        words = enrolment_words(lang)
        assert len(words) == len(set(words)) == 22
        assert minutes(len(words), 2) <= 3  # the player's time, as estimated
    assert {"trois", "oui", "non", "flûte"} <= set(enrolment_words("fr"))


def test_momiji_has_words_to_enrol_each_a_command_somewhere() -> None:
    """Momiji's players enrol their own voice too: twenty words a language, each one a
    command said alone in some context of a game (a colour collected or an objective, a
    pile's count, yes, no, end, a question)."""
    from companion.games.momiji.actions import Collect
    from companion.games.momiji.voice import VOICE, context_for, read
    from companion.games.momiji.voice import enrolment_words as momiji_words
    from stickers.colours import Colour
    from tests.test_voice_momiji import SETUP, session_after, states

    sessions = [*states().values(), session_after(players=4)]  # four players use red
    asked = session_after(*SETUP)
    asked.propose(Collect(Colour.GREEN))  # a question: yes and no are heard
    contexts = [context_for(s) for s in [*sessions, asked]]
    for lang in ("en", "fr", "es", "uk"):
        words = momiji_words(lang)
        assert words == VOICE.enrolment_words(lang)
        assert len(words) == len(set(words)) == 20
        assert minutes(len(words), 2) <= 3
        unread = [w for w in words if not any(read(w, c) for c in contexts)]
        assert unread == [], (lang, unread)


def test_enrolment_asks_each_word_twice_and_keys_decide(tmp_path: Path) -> None:
    profile = WordProfile.named("Ana", "hanamikoji", "en", tmp_path)
    said: list[str] = []
    keys = iter(["", "r", "", "0"])
    walk = WordEnrollment(profile, lambda m: said.append(m.key), lambda: b"\x05\x00" * 16000,
                          lambda: next(keys))
    assert walk.run(["one", "two", "three"]) is False  # stopped at the third word
    # "two" was said again (R): its first two recordings were replaced, not added to.
    assert {w: len(r) for w, r in profile.recordings().items()} == {
        "one": 2, "two": 2, "three": 2}
    assert said[:4] == ["voice_words.say", "voice_words.again", "voice_words.kept",
                        "voice_words.word"]
    assert said[-1] == "voice_words.stopped"
    # Run again: only the words not yet recorded twice are asked for.
    assert walk.todo(["one", "two", "three", "four"]) == ["four"]


def test_an_enrolment_says_what_its_timing_benchmark_times(tmp_path: Path) -> None:
    """What a whole enrolment says is `enrolment_sentences` (benchmarks/enrol_time_bench.py
    times those): the keys in full after the first word, then "Enter?"; the count on the
    first word and every fifth."""
    from companion.voice.enroll_words import enrolment_sentences

    words = enrolment_words("fr")
    said: list = []
    walk = WordEnrollment(WordProfile.named("Ana", "hanamikoji", "fr", tmp_path), said.append,
                          lambda: b"\x05\x00" * 16000, lambda: "")
    assert walk.run(words)
    expected = enrolment_sentences("Ana", "Hanamikoji", words, 2)
    assert expected[0].key == "voice_words.intro"
    assert said == expected[1:]
    keys = [m.key for m in said]
    assert keys.count("voice_words.kept") == 1 and keys.count("voice_words.next") == 21
    assert [m.params["n"] for m in said if m.key == "voice_words.say"] == [1, 5, 10, 15, 20]


def test_a_silence_is_asked_again_once(tmp_path: Path) -> None:
    profile = WordProfile.named("Ana", "hanamikoji", "en", tmp_path)
    said: list[str] = []
    takes = iter([None, b"\x05\x00" * 16000, b"\x05\x00" * 16000])
    walk = WordEnrollment(profile, lambda m: said.append(m.key), lambda: next(takes),
                          lambda: "")
    assert walk.run(["one"])
    assert "voice_words.nothing" in said and len(profile.recordings()["one"]) == 2


# -- the real Whisper encoder on real and espeak-ng speech ----------------------------------
needs_whisper = pytest.mark.skipif(not (engine_available() and tiny_en()),
                                   reason="needs the whisper extra (scripts/setup.sh)")


@pytest.fixture(scope="module")
def english():  # type: ignore[no-untyped-def]
    from companion.voice.whisper import WhisperRecognizer

    engine = WhisperRecognizer()
    yield engine
    engine.close()


@needs_whisper
@needs_realspeech
def test_a_real_speaker_enrolled_on_two_takes(english, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """Free spoken digit dataset: "theo" enrolled on takes 0 and 1 of four digits; takes 6
    of seven and eight heard in the reveal context (one to seven name a card; "three" and
    "one" have rivals there, "green" and "tea", and are always asked about)."""
    from companion.voice.enrolled_engine import EnrolledEngine, features_path

    profile = _digit_profile(tmp_path, "theo", (1, 3, 7, 8))
    engine = EnrolledEngine(english, profile)
    recognizer = HanamikojiRecognizer(engine)
    seven = recognizer.recognize(clip(digit(7, "theo", 6)), Context.reveal())
    assert engine.last_match is not None and engine.last_match.words == "seven"
    assert engine.last_match.accepted
    assert isinstance(decide(seven), Accept) and seven.command == "reveal flower"
    eight = recognizer.recognize(clip(digit(8, "theo", 6)), Context.reveal())
    assert engine.last_match.words == "eight"
    assert not isinstance(decide(eight), Accept)  # never applied: it names no card here
    assert features_path(profile, english.path.name).is_file()  # made once, kept


@needs_whisper
@needs_realspeech
def test_the_match_begins_as_whisper_encodes_and_is_the_same(english, tmp_path: Path,  # type: ignore[no-untyped-def]
                                                              monkeypatch) -> None:
    """The enrolled match begins once Whisper's encoder has made the utterance's frames,
    beside the beam (not after the decode), and is the match made after it would be; a
    decode of the same (shared) Whisper engine without the enrolled words begins none."""
    from companion.voice.enrolled_engine import EnrolledEngine, speech_frames

    engine = EnrolledEngine(english, _digit_profile(tmp_path, "theo", (1, 3, 7, 8)))
    assert engine.ready(120)
    begun: list[bool] = []
    alone = engine._match_now

    def watched(*args):  # type: ignore[no-untyped-def]
        begun.append(True)
        return alone(*args)

    monkeypatch.setattr(engine, "_match_now", watched)
    pcm = clip(digit(7, "theo", 6))
    HanamikojiRecognizer(engine).recognize(pcm, Context.reveal())
    assert begun == [True]
    early = engine.last_match
    assert engine.voice is not None and engine.frames is not None
    after = engine.voice.match(speech_frames(engine.frames(pcm), pcm))
    assert early is not None and after is not None and early.words == after.words == "seven"
    assert (early.distance, early.margin) == pytest.approx((after.distance, after.margin),
                                                           abs=1e-6)
    HanamikojiRecognizer(english).recognize(clip(digit(3, "theo", 6)), Context.reveal())
    assert begun == [True]


def _espeak(folder: Path, voice: str, text: str, rate: int, pitch: int) -> bytes:
    """`text` said by espeak-ng's `voice` at `rate` and `pitch` (a synthetic stand-in for a
    person: one speed and pitch to enrol, another to hear)."""
    path = folder / f"{voice}-{text}-{rate}.wav"
    subprocess.run(["espeak-ng", "-v", voice, "-s", str(rate), "-p", str(pitch),
                    "-w", str(path), text], check=True)
    return read_wav(path)


def _french(folder: Path, text: str, rate: int, pitch: int) -> bytes:
    return _espeak(folder, "fr-fr+m3", text, rate, pitch)


@needs_whisper
@pytest.mark.skipif(not (shutil.which("espeak-ng") and base(join=False)),
                    reason="needs espeak-ng and the multilingual Whisper model")
def test_french_words_enrolled_at_two_speeds_are_heard_at_a_third(tmp_path: Path) -> None:
    from companion.voice.enrolled_engine import Frames, load_voice, speech_frames
    from companion.voice.whisper import WhisperRecognizer

    profile = WordProfile.named("Ana", "hanamikoji", "fr", tmp_path / "voices")
    words = ("trois", "sept", "oui", "non")
    for word in words:
        for rate, pitch in ((150, 50), (175, 40)):
            profile.save(_french(tmp_path, word, rate, pitch), word)
    engine = WhisperRecognizer(None, "fr")
    try:
        frames = Frames(engine)
        voice = load_voice(profile, frames, engine.path.name)
        for word in words:
            pcm = _french(tmp_path, word, 130, 60)
            heard = voice.match(speech_frames(frames(pcm), pcm))
            assert heard is not None and heard.words == word and heard.accepted, heard
    finally:
        engine.close()


@needs_whisper
@pytest.mark.skipif(not (shutil.which("espeak-ng") and base(join=False)),
                    reason="needs espeak-ng and the multilingual Whisper model")
def test_momiji_heard_with_a_players_enrolled_french_words(tmp_path: Path) -> None:
    """A Momiji turn in French, the player's words enrolled at two speeds (synthetic
    stand-ins for a person): "jaune" said at a third is their "jaune", and Momiji's
    recognizer, driving Whisper with the enrolled words beside it, hears "collect yellow"
    (asked about or applied, never another command)."""
    from companion.games.momiji.voice import MomijiRecognizer, context_for
    from companion.voice.enrolled_engine import EnrolledEngine
    from companion.voice.whisper import WhisperRecognizer
    from tests.test_voice_momiji import SETUP, session_after

    profile = WordProfile.named("Ana", "momiji", "fr", tmp_path / "voices")
    for word in ("vert", "jaune", "trois", "fin", "oui", "non"):
        for rate, pitch in ((150, 50), (175, 40)):
            profile.save(_french(tmp_path, word, rate, pitch), word)
    engine = EnrolledEngine(WhisperRecognizer(None, "fr"), profile)
    try:
        heard = MomijiRecognizer(engine).recognize(_french(tmp_path, "jaune", 130, 60),
                                                   context_for(session_after(*SETUP)))
        assert engine.last_match is not None and engine.last_match.words == "jaune"
        out = decide(heard)
        assert isinstance(out, (Accept, Confirm)) and out.command == "collect yellow", heard
    finally:
        engine.close()


# Twelve of the French words (the cards, one to three, yes, no, the Secret, the discard):
# half the enrolment's time in a test, and as far from "actions".
FRENCH_WORDS = ("flûte", "éventail", "papier", "ombrelle", "luth", "un", "deux", "trois",
                "oui", "non", "secret", "dépôt")


@needs_whisper
@pytest.mark.skipif(not shutil.which("espeak-ng"), reason="needs espeak-ng")
@pytest.mark.parametrize("lang", ["en", "fr"])
def test_a_question_the_player_never_enrolled_is_still_heard(english, lang: str,  # type: ignore[no-untyped-def]
                                                            tmp_path: Path) -> None:
    """A player enrolled on the game's words (synthetic stand-in: espeak-ng at two speeds)
    asks for the actions left, a word they never recorded. Whisper reads "actions" (in
    English its limited beam and its free transcript alike, in French its free beam); the
    nearest enrolled word ("six", "non") is not near. Before, that match overruled
    Whisper: refused on the player's turn, asked about as a card at the reveal or refused;
    now the question is answered in both contexts."""
    from companion.voice.enrolled import SURE_DISTANCE
    from companion.voice.enrolled_engine import EnrolledEngine
    from companion.voice.whisper import WhisperRecognizer

    if lang == "fr" and not base(join=False):
        pytest.skip("needs the multilingual Whisper model")
    voice, words = (("en-us", enrolment_words("en")) if lang == "en"
                    else ("fr-fr+m3", FRENCH_WORDS))
    profile = WordProfile.named("Ana", "hanamikoji", lang, tmp_path / "voices")
    for word in words:
        for rate, pitch in ((150, 50), (175, 40)):
            profile.save(_espeak(tmp_path, voice, word, rate, pitch), word)
    whisper = english if lang == "en" else WhisperRecognizer(None, "fr")
    engine = EnrolledEngine(whisper, profile)
    try:
        engine.ready()
        pcm = _espeak(tmp_path, voice, "actions", 130, 60)
        for context in (Context.action(), Context.reveal()):
            heard = HanamikojiRecognizer(engine).recognize(pcm, context)
            match = engine.last_match
            assert match is not None and match.accepted and match.distance > SURE_DISTANCE
            assert decide(heard) == Accept("actions", ""), (context.name, heard, match)
    finally:
        if whisper is not english:
            engine.close()


@needs_whisper
@pytest.mark.skipif(not shutil.which("espeak-ng"), reason="needs espeak-ng")
def test_voice_enroll_words_from_a_folder(tmp_path: Path, monkeypatch, capsys) -> None:  # type: ignore[no-untyped-def]
    """`voice-enroll --words --from-dir`: recordings made elsewhere become the player's
    profile for the game and language, its templates made once; play then finds it."""
    from types import SimpleNamespace

    from companion.cli import main
    from companion.inputs.voice import word_profile

    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    folder = tmp_path / "said"
    folder.mkdir()
    for n, (word, rate) in enumerate((("seven", 150), ("seven", 175), ("yes", 150),
                                      ("yes", 175))):
        subprocess.run(["espeak-ng", "-v", "en-us", "-s", str(rate), "-w",
                        str(folder / f"{n}.wav"), word], check=True)
        (folder / f"{n}.txt").write_text(word + "\n", encoding="utf-8")
    assert main(["voice-enroll", "--name", "Ana", "--words", "--lang", "en", "--from-dir",
                 str(folder), "--no-speech"]) == 0
    assert "Your voice is enrolled: 2 words." in capsys.readouterr().out
    session = SimpleNamespace(game=SimpleNamespace(name="hanamikoji"), lang="en")
    found = word_profile("Ana", session)
    assert found is not None and set(found.recordings()) == {"seven", "yes"}
    assert list(found.root.glob("features-*.npz"))
    assert word_profile("Ana", SimpleNamespace(game=session.game, lang="fr")) is None
    assert word_profile("Ben", session) is None


@needs_whisper
@needs_realspeech
def test_a_real_speaker_heard_in_noise_at_a_table(english) -> None:  # type: ignore[no-untyped-def]
    """"lucas" enrolled on takes 0 and 1 of four digits (and their noisy copies); takes 2-9
    of the four heard in babble and pink noise at 6 dB (other segments, other seeds than
    the copies'): the word is found within the noise the speech span could not trim. With
    whole spans aligned end to end (before) 20 of 32 were read right; the word searched
    for within, the nearest template alone 25; each word's distance the mean over its two
    takes (each take's nearest copy) 27; with the middle layer beside the last, 26 (this
    babble is the player's own other words; other people's gains: the next test)."""
    from companion.voice.enrolled_engine import (
        Frames,
        enrolled_voice,
        noisy_copy,
        speech_frames,
    )
    from companion.voice.enrolled_engine import templates as make_templates

    takes = _takes("lucas", (1, 3, 7, 8))
    frames = Frames(english)
    voice = enrolled_voice(make_templates(takes, frames), takes)
    others = [pcm for ps in takes.values() for pcm in ps]
    right = 0
    for n in (1, 3, 7, 8):
        word = DIGITS[n]
        for take in range(2, 10):
            pcm = noisy_copy(clip(digit(n, "lucas", take)), ("babble", "pink")[take % 2], 6.0,
                             others, seed=99 + take)
            heard = voice.match(speech_frames(frames(pcm), pcm))
            right += heard is not None and heard.words == word
    assert right >= 26, right


@needs_whisper
@needs_realspeech
def test_the_replay_benchmark_keeps_what_play_heard_and_each_recordings_distance(
        tmp_path: Path) -> None:
    """benchmarks/enrolled_replay.py's dump watches the enrolled engine as play drives it
    (it failed when the engine's arguments changed): per clip, Whisper's own recognition,
    each recording's distance weighted and counted alike, and what play decided."""
    import pickle
    import sys

    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))
    import enrolled_replay
    import realspeech_bench

    if realspeech_bench.find_data() is None:
        pytest.skip("the real recordings are not where the benchmarks look")
    out = tmp_path / "dump.pkl"
    enrolled_replay.dump("tune", ("rec",), 16, out)
    with out.open("rb") as f:
        rows = pickle.load(f)
    clips = [row for row in rows if "distances" in row]
    assert clips
    for row in clips:
        assert isinstance(row["heard"], Recognition) and isinstance(row["final"], Recognition)
        assert row["distances"].shape == row["plain"].shape and (row["distances"] >= 0).all()


@needs_whisper
@needs_realspeech
def test_a_real_speaker_heard_among_other_people_talking(english) -> None:  # type: ignore[no-untyped-def]
    """"nicolas" enrolled on takes 0 and 1 of the ten digits; takes 2-9 heard at 10 and
    6 dB in babble of three other people at once (Speech Commands clips of words that are
    no digit). The encoder's last layer alone found the word said in 109 of 160; with its
    middle layer beside it (enrolled_engine.Frames), 123."""
    from companion.voice.enrolled_engine import (
        Frames,
        enrolled_voice,
        noisy_copy,
        speech_frames,
    )
    from companion.voice.enrolled_engine import templates as make_templates
    from tests.realspeech import commands

    takes = _takes("nicolas", range(10))
    frames = Frames(english)
    voice = enrolled_voice(make_templates(takes, frames), takes)
    people = [clip(commands(w, t)) for w in ("bed", "bird", "cat", "dog", "house", "marvin",
                                             "sheila", "wow", "happy", "tree") for t in (0, 1)]
    right = 0
    for snr in (10.0, 6.0):
        for n, word in enumerate(DIGITS):
            for take in range(2, 10):
                pcm = noisy_copy(clip(digit(n, "nicolas", take)), "babble", snr, people,
                                 seed=7 + take + 10 * n)
                heard = voice.match(speech_frames(frames(pcm), pcm))
                right += heard is not None and heard.words == word
    assert right >= 120, right


def test_frames_say_why_when_the_middle_encoder_cannot_be_made(tmp_path: Path,
                                                               monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """A model file ct2_file cannot read (another version): the enrolled words cannot
    listen, and the reason is the catalogue's, not a traceback (play: Whisper alone)."""
    from types import SimpleNamespace

    from companion.voice.enrolled_engine import Frames
    from companion.voice.whisper_model import ModelMissing

    monkeypatch.setenv("COMPANION_WHISPER_CACHE", str(tmp_path / "cache"))
    folder = tmp_path / "odd"
    folder.mkdir()
    for name in ("config.json", "tokenizer.json"):
        (folder / name).write_text("{}", encoding="utf-8")
    (folder / "model.bin").write_bytes(b"\x05\x00\x00\x00")
    engine = SimpleNamespace(path=folder, ready=lambda timeout=None: True)
    with pytest.raises(ModelMissing) as refused:
        Frames(engine)
    assert refused.value.message is not None
    assert refused.value.message.key == "voice_why.whisper_not_loaded"
    assert "version 5" in str(refused.value)


@needs_whisper
def test_frames_are_both_layers_and_the_middle_one_spans_the_sound_alone(english) -> None:  # type: ignore[no-untyped-def]
    """A frame is the last layer beside the middle one, each of unit length and weighted
    (their cosine is the weighted mix); the middle layer is made over whole seconds of the
    sound (two at least), not the decode's 10 s window: it is the cost a player waits for."""
    from companion.voice.enrolled_engine import LAST_WEIGHT, MIDDLE_WEIGHT, Frames

    frames = Frames(english)
    t = np.arange(int(1.3 * 16000)) / 16000
    pcm = (3000 * np.sin(2 * np.pi * 220 * t)).astype("<i2").tobytes()
    middle = frames.middle(pcm)
    assert middle.shape == (100, 384)  # 2 s, 50 frames a second
    longer = frames.middle(pcm * 3)  # 3.9 s: 4 s
    assert longer.shape == (200, 384)
    both = frames(pcm)
    assert both.shape == (100, 768)
    np.testing.assert_allclose(np.sum(both[:, :384] ** 2, axis=1), LAST_WEIGHT, rtol=1e-4)
    np.testing.assert_allclose(np.sum(both[:, 384:] ** 2, axis=1), MIDDLE_WEIGHT, rtol=1e-4)


def _tone_profile(root: Path, words: tuple[str, ...] = ("yes", "no")) -> WordProfile:
    """A profile whose recordings are tones (any sound makes templates), two takes a word."""
    profile = WordProfile.named("Ana", "hanamikoji", "en", root)
    t = np.arange(int(0.6 * 16000)) / 16000
    for pitch, word in enumerate(words):
        for take in (0, 1):
            tone = 3000 * np.sin(2 * np.pi * (220 + 110 * pitch + 7 * take) * t)
            profile.save(tone.astype("<i2").tobytes(), word)
    return profile


@needs_whisper
def test_a_features_file_cut_short_is_made_again(english, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """A features file that cannot be read (a full disk, a copy stopped midway) is not a
    reason to listen without the player's words: they are made again from the recordings."""
    from companion.voice.enrolled_engine import EnrolledEngine, features_path

    profile = _tone_profile(tmp_path)
    first = EnrolledEngine(english, profile)
    assert first.ready(120) and first.voice is not None
    kept = features_path(profile, english.path.name)
    kept.write_bytes(kept.read_bytes()[:100])  # cut short, and newer than the recordings
    errors: list[Exception] = []
    again = EnrolledEngine(english, profile, errors.append)
    assert again.ready(120)
    assert errors == [] and again.voice is not None
    assert set(again.voice.templates) == {"yes", "no"}
    assert kept.stat().st_size > 100  # written whole again


@pytest.fixture
def listening(tmp_path: Path, monkeypatch):  # type: ignore[no-untyped-def]
    """Voice attached as play attaches it (push-to-talk, Whisper, Ana's profile under
    tmp_path/voices), with a microphone that works (a silent audio file): a function of a
    started session giving (hub, voice, what was said); every hub is closed after."""
    pytest.importorskip("speech_recognition")
    from failing_mic import FailingMicrophone, silent_wav

    from companion.inputs.hub import InputHub
    from companion.inputs.voice import attach_voice
    from companion.voice import listen as listen_module

    room = FailingMicrophone(silent_wav(tmp_path / "room.wav", 1.0), "open", fail_from=99)
    monkeypatch.setattr(listen_module, "open_microphone", lambda device_index=None: (
        listen_module.speech_recognition_module(), room))
    hubs = []

    def attach(session):  # type: ignore[no-untyped-def]
        said: list = []
        hubs.append(InputHub())
        voice = attach_voice(hubs[-1], session, "push", said.extend, profile="Ana",
                             profiles=tmp_path / "voices", engine="whisper")
        return hubs[-1], voice, said

    yield attach
    for hub in hubs:
        hub.close()


def _started(game: str, lang: str):  # type: ignore[no-untyped-def]
    from companion.games.registry import load_game
    from companion.session import Session

    session = Session(load_game(game), {"players": ["Ana", "Ben"], "lang": lang})
    session.start()
    return session


@needs_whisper
def test_enrolled_words_that_cannot_load_are_said_in_play(listening, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """A recording that cannot be read: play says so once, in the player's language, with
    the word and the file's name (not its whole path: long to hear), then the prompt again;
    Whisper alone listens, and the game goes on."""
    from companion.inputs.voice import WordsUnusable
    from companion.narrate.catalogue import Catalogue
    from companion.table import route

    profile = _tone_profile(tmp_path / "voices")
    broken = profile.root / "0099.wav"
    broken.write_bytes(b"not a wav at all")
    broken.with_suffix(".txt").write_text("yes\n", encoding="utf-8")
    session = _started("hanamikoji", "en")
    hub, voice, said = listening(session)
    assert voice is not None and said == []  # nothing to say before the words load
    item = hub.queue.get(timeout=120)
    assert isinstance(item.event, WordsUnusable) and item.event.player == "Ana"
    before = session.state
    messages = route(item, session, None)
    assert session.state == before
    assert messages[0].key == "voice_words_unusable"
    assert messages[-1].event == "prompt"  # the prompt stays the last thing said
    for lang in ("fr", "en", "es", "uk"):
        line = Catalogue(lang).render(messages[0])
        assert "0099.wav" in line and "Ana" in line and "yes" in line
        assert str(profile.root) not in line
        assert "voice-enroll --words --name Ana --game hanamikoji --lang en" in line
        assert "{" not in line and "\n" not in line and "Traceback" not in line
    assert session.handle("secret")[0].event == "played"


@needs_whisper
def test_a_player_without_enrolled_words_is_told_how_to_enrol_them(listening,  # type: ignore[no-untyped-def]
                                                                  tmp_path: Path) -> None:
    """--voice-profile with nothing enrolled for this game and language, Whisper listening:
    the player is told the enrolment that serves it (their own words, for this game and
    language), not the English commands a pocketsphinx profile reads; play goes on."""
    from companion.narrate.catalogue import Catalogue

    _tone_profile(tmp_path / "voices")  # Ana's words, in English only
    session = _started("hanamikoji", "fr")
    _, voice, said = listening(session)
    assert voice is not None
    assert [m.key for m in said] == ["voice_words_missing"]
    for lang in ("fr", "en", "es", "uk"):
        line = Catalogue(lang).render(said[0])
        assert "voice-enroll --words --name Ana --game hanamikoji --lang fr" in line
        assert "{" not in line and "\n" not in line
    assert session.handle("secret")[0].event == "played"
    # Momiji's players enrol their words too, for Momiji
    _, _, said = listening(_started("momiji", "fr"))
    assert [m.key for m in said][:1] == ["voice_words_missing"]
    assert "--game momiji --lang fr" in Catalogue("en").render(said[0])


@needs_whisper
@pytest.mark.skipif(not (shutil.which("espeak-ng") and base(join=False)),
                    reason="needs espeak-ng and the multilingual Whisper model")
def test_other_voices_words_stand_in_where_the_player_has_none(listening,  # type: ignore[no-untyped-def]
                                                               tmp_path: Path) -> None:
    """Ana has no French words: the game's French words said by espeak-ng's voices are made
    in the background, beside the players' voices (stand_ins.py), every word by every
    voice at both speeds. In English (tiny.en hears its words), none are made; nor where
    the player's own words listen."""
    from companion.voice import stand_ins

    others = tmp_path / "stand-in-words"
    words = list(enrolment_words("fr"))
    want = len(words) * len(stand_ins.VOICES["fr"]) * len(stand_ins.SPEEDS)
    bank = stand_ins.profile("hanamikoji", "fr", others)
    listening(_started("hanamikoji", "fr"))
    deadline = time.monotonic() + 120
    # (each recording's text is written after its sound: a text counted is a sound whole)
    while len(list(bank.root.glob("*.txt"))) < want and time.monotonic() < deadline:
        time.sleep(0.2)
    made = bank.recordings()
    assert sorted(made) == sorted(words)
    assert {len(takes) for takes in made.values()} == {want // len(words)}
    _tone_profile(tmp_path / "voices", ("trois", "cinq"))  # Ana's words, said "en"
    listening(_started("hanamikoji", "en"))
    listening(_started("momiji", "en"))
    time.sleep(1.0)
    assert sorted(p.name for p in (others / "espeak-ng" / "words").iterdir()) == ["hanamikoji"]


@needs_whisper
@needs_realspeech
def test_a_word_the_player_never_enrolled_is_never_applied_as_another(english) -> None:  # type: ignore[no-untyped-def]
    """The tuning speakers enrolled as play enrols them: one to seven (the game's numbers),
    never zero, eight or nine. Said by the same player, those are stray words in their
    own voice; none may be sure enough to apply alone (two of 48 were, at a sure distance
    of 0.22: "nine" near "five" is near any "five"); every enrolled number is still read."""
    from companion.voice.enrolled import sure
    from companion.voice.enrolled_engine import Frames, enrolled_voice, speech_frames
    from companion.voice.enrolled_engine import templates as make_templates

    frames = Frames(english)
    applied, read = [], 0
    for speaker in ("george", "jackson"):
        takes = _takes(speaker, range(1, 8))
        voice = enrolled_voice(make_templates(takes, frames), takes)
        for n in range(10):
            for take in range(2, 10):
                pcm = clip(digit(n, speaker, take))
                match = voice.match(speech_frames(frames(pcm), pcm))
                assert match is not None
                if 1 <= n <= 7:
                    read += match.accepted and match.words == DIGITS[n]
                elif sure(match):
                    applied.append((speaker, DIGITS[n], take, match))
    assert applied == []
    assert read == 112


@needs_whisper
@needs_realspeech
def test_a_number_whisper_writes_is_not_applied_as_another_the_player_enrolled(
        english, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """yweweler enrolled as play enrols: one to seven. His "eight" (take 7) is nearest to
    his own "six"; Whisper's beam hears nothing valid, but its free transcript writes 8.
    The match was near enough to apply alone (it was applied before the transcript was
    read; then the two disagreed and it was asked about); since a recording's quiet frames
    count less it is no longer sure (0.20, sure from 0.18). Either way "reveal tea" is
    asked about, not applied; the disagreement itself is `combine`'s case above."""
    from companion.voice.enrolled_engine import EnrolledEngine

    engine = EnrolledEngine(english, _digit_profile(tmp_path, "yweweler", range(1, 8)))
    heard = HanamikojiRecognizer(engine).recognize(clip(digit(8, "yweweler", 7)),
                                                   Context.reveal())
    assert engine.last_match is not None and engine.last_match.words == "six"
    assert heard.transcript is not None and "8" in heard.transcript
    out = decide(heard)
    assert isinstance(out, Confirm) and out.command == "reveal tea"


@needs_whisper
@needs_realspeech
def test_a_word_said_clearly_outside_whispers_longer_reading_is_not_overruled(
        english, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """Enrolled on all ten digits, "zero" names nothing at the reveal. Whisper, limited to
    the reveal's words, read nicolas's "zero" as "the yellow" (asked about) and yweweler's
    in white noise at 10 dB as "the rules" (a query: applied unasked, a rule read out).
    The player's own voice is sure it heard "zero", which is not in either reading:
    they disagree, and "zero" is no command here, so both are refused (the longer
    reading was Whisper's alone before)."""
    from companion.voice.enrolled import sure
    from companion.voice.enrolled_engine import EnrolledEngine, noisy_copy

    for speaker, take, noise in (("nicolas", 6, None), ("yweweler", 7, "white")):
        engine = EnrolledEngine(english, _digit_profile(tmp_path, speaker, range(10)))
        pcm = clip(digit(0, speaker, take))
        if noise is not None:
            pcm = noisy_copy(pcm, noise, 10.0, [], seed=7 * take)
        heard = HanamikojiRecognizer(engine).recognize(pcm, Context.reveal())
        assert engine.last_match is not None and engine.last_match.words == "zero"
        assert sure(engine.last_match)
        assert isinstance(decide(heard), Refuse), (speaker, heard)


@needs_whisper
@pytest.mark.skipif(not (shutil.which("espeak-ng") and base(join=False)),
                    reason="needs espeak-ng and the multilingual Whisper model")
def test_a_ukrainian_players_clear_yes_is_taken_though_whisper_refuses_it(
        tmp_path: Path) -> None:
    """A Ukrainian player enrolled (synthetic stand-in: espeak-ng at two speeds) says "так"
    clearly while a yes or no is awaited: Whisper alone refuses it (its free decode writes
    "Та.", not the word), their own recording is sure of it: taken. Their "ні" stays a no."""
    from companion.voice.enrolled_engine import EnrolledEngine
    from companion.voice.whisper import WhisperRecognizer

    profile = WordProfile.named("Olena", "hanamikoji", "uk", tmp_path / "voices")
    for word in ("так", "ні", "один", "два", "три", "таємниця", "рахунок", "стіл"):
        for rate, pitch in ((150, 50), (175, 40)):
            profile.save(_espeak(tmp_path, "uk", word, rate, pitch), word)
    engine = EnrolledEngine(WhisperRecognizer(None, "uk"), profile)
    try:
        recognizer = HanamikojiRecognizer(engine)
        for word, answer in (("так", "yes"), ("ні", "no")):
            for rate, pitch in ((160, 35), (140, 45)):
                out = decide(recognizer.recognize(_espeak(tmp_path, "uk", word, rate, pitch),
                                                  Context.confirm()), answering=True)
                assert isinstance(out, Accept) and out.command == answer, (word, out)
                if word == "так":
                    assert engine.last_heard is not None
                    assert engine.last_heard.command is None  # Whisper alone: refused
    finally:
        engine.close()


@needs_whisper
@pytest.mark.skipif(not (shutil.which("espeak-ng") and base(join=False)),
                    reason="needs espeak-ng and the multilingual Whisper model")
def test_a_ukrainian_players_near_question_is_answered_in_noise(tmp_path: Path) -> None:
    """A Ukrainian player enrolled (espeak-ng at two speeds) asks "повтори" and "рахунок" at
    a third speed in white noise, at a card's reveal: Whisper alone hears nothing valid,
    their own recording is near and well ahead but not sure: answered (refused before,
    a question cannot be asked about). Questions and settings they never enrolled
    ("допомога", "швидше") are never answered as one they did."""
    from companion.voice.enrolled import sure
    from companion.voice.enrolled_engine import EnrolledEngine, noisy_copy
    from companion.voice.whisper import WhisperRecognizer

    profile = WordProfile.named("Olena", "hanamikoji", "uk", tmp_path / "voices")
    for word in ("так", "ні", "один", "два", "три", "таємниця", "рахунок", "стіл", "повтори"):
        for rate, pitch in ((150, 50), (175, 40)):
            profile.save(_espeak(tmp_path, "uk", word, rate, pitch), word)
    engine = EnrolledEngine(WhisperRecognizer(None, "uk"), profile)
    try:
        recognizer = HanamikojiRecognizer(engine)

        def heard(word: str, rate: int, pitch: int, db: float):  # type: ignore[no-untyped-def]
            pcm = noisy_copy(_espeak(tmp_path, "uk", word, rate, pitch), "white", db, [],
                             seed=rate)
            return decide(recognizer.recognize(pcm, Context.reveal()))

        for word, rate, pitch, db, question in (("повтори", 160, 35, 6.0, "repeat"),
                                                ("рахунок", 130, 60, 10.0, "score")):
            out = heard(word, rate, pitch, db)
            assert engine.last_heard is not None and engine.last_heard.command is None
            assert engine.last_match is not None and not sure(engine.last_match)
            assert isinstance(out, Accept) and out.command == question, (word, out)
        for word, meant in (("допомога", "help"), ("швидше", "faster")):
            for rate, pitch, db in ((160, 35, 6.0), (140, 45, 10.0)):
                out = heard(word, rate, pitch, db)
                assert not isinstance(out, Accept) or out.command == meant, (word, out)
    finally:
        engine.close()
