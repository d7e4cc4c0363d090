"""The Whisper recognizer: the mapper on transcripts, the real models on espeak-ng speech,
and a decode cancelled by another input."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import threading
import time
import wave
from pathlib import Path

import pytest
from needs import needs_pocketsphinx

from companion.games.hanamikoji.data import Item, Token
from companion.games.hanamikoji.voice.context import Context
from companion.games.hanamikoji.voice.grammar import build_grammar, phrase_list
from companion.games.hanamikoji.voice.hooks import HanamikojiRecognizer
from companion.games.hanamikoji.voice.words import normalize
from companion.voice.audio import read_wav
from companion.voice.decoders import Cancelled
from companion.voice.mapper import accepts, jsgf_graph, phrases_graph, vocabulary, words_of
from companion.voice.rescore import candidates, decide_shares
from companion.voice.whisper import map_hypotheses
from companion.voice.whisper_model import base, engine_available, tiny_en

GIFT = (Item.FLUTE, Item.FAN, Item.TEA)  # the offer of an answer_gift context


def mapped(transcripts: list[str], ctx: Context, lang: str = "en") -> str | None:
    """The command a list of hypotheses (equally likely) maps to in a context."""
    if lang == "en":
        graph = jsgf_graph(build_grammar(ctx))
    else:
        graph = phrases_graph(tuple(phrase_list(ctx, lang)))
    command, confidence, _ = map_hypotheses([(t, -0.2) for t in transcripts], graph,
                                            lambda words: normalize(words, lang, ctx),
                                            english=lang == "en")
    return command if confidence >= 0.4 else None


# -- the mapper on transcripts ------------------------------------------------------------
@pytest.mark.parametrize(("transcript", "ctx", "expected"), [
    ("Gift, flute, fan and tea.", Context.action(), "gift flute fan tea"),
    ("gift flewt fann and T", Context.action(), "gift flute fan tea"),  # near words
    ("Gift, gift flute, fan, tea.", Context.action(), "gift flute fan tea"),  # a stutter
    ("Um, uh, the secret please.", Context.action(), "secret"),  # fillers
    ("Token 1.", Context.action(), "secret"),  # digits
    ("Take the 2nd pair.", Context.any(), "take 2"),
    ("I take the fan.", Context.answer_gift(GIFT), "take fan"),
    ("Yeah.", Context.confirm(), "yes"),
    ("Nope!", Context.confirm(), "no"),
])
def test_transcripts_map_onto_the_commands_valid_now(transcript: str, ctx: Context,
                                                     expected: str) -> None:
    assert mapped([transcript], ctx) == expected


@pytest.mark.parametrize(("transcript", "ctx"), [
    ("What time is it?", Context.action()),  # chatter
    ("Pass me the crisps, please.", Context.any()),
    ("I take the umbrella.", Context.answer_gift(GIFT)),  # a card that was not offered
    ("Competition red blue green pink.", Context.action({"gift"})),  # a token already used
    ("", Context.any()),
])
def test_out_of_grammar_speech_is_refused(transcript: str, ctx: Context) -> None:
    assert mapped([transcript], ctx) is None


def test_hypotheses_vote_and_a_split_vote_is_not_sure() -> None:
    graph = jsgf_graph(build_grammar(Context.answer_gift(GIFT)))

    def read(words: str) -> str | None:
        return normalize(words, "en", Context.answer_gift(GIFT))

    agreed = map_hypotheses([("the fan", -0.1), ("fan.", -0.3)], graph, read)
    split = map_hypotheses([("the fan", -0.1), ("the flute", -0.1)], graph, read)
    assert agreed[0] == "take fan" and agreed[1] > 0.8
    assert split[1] <= 0.5  # asked about or refused, never applied at once


def test_french_phrases_map_through_the_french_reader() -> None:
    assert mapped(["Je prends l'éventail."], Context.answer_gift(GIFT), "fr") == "take fan"
    assert mapped(["Oui."], Context.confirm(), "fr") == "yes"


def test_digits_and_ordinals_are_spelt() -> None:
    assert words_of("Take the 1st pair, 3 and 21!") == ["take", "the", "first", "pair",
                                                        "three", "and", "twenty", "one"]


# -- the real models on espeak-ng speech --------------------------------------------------
needs_whisper = pytest.mark.skipif(
    not (engine_available() and tiny_en() and shutil.which("espeak-ng")),
    reason="needs the whisper extra (scripts/setup.sh) and espeak-ng")


@pytest.fixture(scope="module")
def speech(tmp_path_factory: pytest.TempPathFactory):  # type: ignore[no-untyped-def]
    folder = tmp_path_factory.mktemp("whisper-speech")

    def synthesize(text: str, voice: str = "en-us") -> bytes:
        path = folder / f"{abs(hash((text, voice)))}.wav"
        subprocess.run(["espeak-ng", "-v", voice, "-s", "150", "-w", str(path), text],
                       check=True)
        return read_wav(path)
    return synthesize


@pytest.fixture(scope="module")
def english() -> HanamikojiRecognizer:
    from companion.voice.whisper import WhisperRecognizer

    return HanamikojiRecognizer(WhisperRecognizer())


@needs_whisper
@pytest.mark.parametrize(("text", "ctx", "expected"), [
    ("gift flute, fan and tea", Context.action(), "gift flute fan tea"),
    ("gift purple, red and green", Context.action(hand=(*GIFT, Item.TEA, Item.FLOWER)),
     "gift flute fan tea"),  # a hand told whole: only its cards
    # One card short: the offer is begun (its last card is asked for), then completed.
    ("gift purple and red", Context.action(), "gift flute fan"),
    ("competition flute, fan and tea", Context.action(), "competition flute fan tea"),
    ("the tea", Context.complete(Token.GIFT, GIFT[:2]), "gift flute fan tea"),
    ("cancel", Context.complete(Token.GIFT, GIFT[:2]), "cancel"),
    ("the secret", Context.action(), "secret"),
    ("take the first pair", Context.any(), "take 1"),
    ("I take the tea", Context.answer_gift(GIFT), "take tea"),
    ("yes", Context.confirm(), "yes"),
    ("score", Context.any(), "score"),
])
def test_whisper_recognizes_english_commands(english: HanamikojiRecognizer, speech,  # type: ignore[no-untyped-def]
                                             text: str, ctx: Context, expected: str) -> None:
    assert english.recognize(speech(text), ctx).command == expected


@needs_whisper
def test_a_gift_of_a_card_not_held_is_never_applied_as_said(english: HanamikojiRecognizer,  # type: ignore[no-untyped-def]
                                                              speech) -> None:
    from companion.voice.policy import Accept, decide

    ctx = Context.action(hand=(Item.FLUTE, Item.FAN, Item.TEA, Item.SCROLL))
    heard = english.recognize(speech("gift flower, fan and tea"), ctx)
    assert heard.command != "gift fan tea flower"  # the flower is not in that hand
    assert not isinstance(decide(heard), Accept)  # whatever was heard instead is asked about


@needs_whisper
def test_whisper_refuses_chatter(english: HanamikojiRecognizer, speech) -> None:  # type: ignore[no-untyped-def]
    assert english.recognize(speech("what time is it"), Context.action()).command is None


@pytest.mark.skipif(not (engine_available() and base(join=False) and shutil.which("espeak-ng")),
                    reason="needs the multilingual Whisper model joined (scripts/setup.sh)")
# espeak-ng's French voice is mostly not understood by base (docs/voice.md): the yes/no of a
# confirmation is, and shows the multilingual path (phrases, French reader) end to end.
@pytest.mark.parametrize(("text", "ctx", "expected"), [
    ("oui", Context.confirm(), "yes"),
    ("non", Context.confirm(), "no"),
])
def test_whisper_recognizes_french_commands(speech, text: str, ctx: Context,  # type: ignore[no-untyped-def]
                                            expected: str) -> None:
    from companion.voice.whisper import WhisperRecognizer

    french = HanamikojiRecognizer(WhisperRecognizer(lang="fr"))
    assert french.recognize(speech(text, "fr"), ctx).command == expected


# -- cancelling ------------------------------------------------------------------------
@needs_whisper
def test_a_decode_cancelled_by_another_input_leaves_no_thread(english, speech) -> None:  # type: ignore[no-untyped-def]
    engine = english.engine
    engine.ready()
    before = set(threading.enumerate())
    outcome: list[object] = []
    pcm = speech("gift flute fan and tea")

    def decode() -> None:
        try:
            outcome.append(english.recognize(pcm, Context.action()))
        except Cancelled as cancelled:
            outcome.append(cancelled)

    # Hold the model as a decode in flight does; the second decode waits, is cancelled.
    with engine._lock:  # noqa: SLF001 (the test stands in for a decode in flight)
        worker = threading.Thread(target=decode)
        worker.start()
        while not _inside(worker, "_decode"):  # its decode has begun
            time.sleep(0.001)
        engine.cancel()
    worker.join(timeout=30)
    assert not worker.is_alive()
    assert len(outcome) == 1 and isinstance(outcome[0], Cancelled)
    assert set(threading.enumerate()) <= before  # nothing left running
    # The next decode is not affected.
    assert english.recognize(speech("the secret"), Context.action()).command == "secret"


def test_together_runs_both_and_leaves_no_thread() -> None:
    from companion.voice.whisper import together

    before = set(threading.enumerate())
    seen: list[str] = []
    assert together(lambda: "here", lambda: seen.append(threading.current_thread().name)
                    or "beside") == ("here", "beside")
    assert seen == ["whisper-beside"]  # the second pass ran on a thread of its own

    def broken() -> str:
        raise RuntimeError("the second pass failed")
    with pytest.raises(RuntimeError, match="second pass"):  # raised in the caller's thread
        together(lambda: "here", broken)
    assert set(threading.enumerate()) <= before


@needs_whisper
def test_two_workers_read_what_one_reads(english, speech) -> None:  # type: ignore[no-untyped-def]
    """The decode's passes run two at a time (docs/voice.md: a quarter of a decode saved on
    two cores); the readings are the same, and no thread is left behind."""
    from companion.voice.whisper import WhisperRecognizer

    one = HanamikojiRecognizer(WhisperRecognizer(workers=1, threads=2))
    assert english.engine.workers == (2 if (os.cpu_count() or 1) >= 2 else 1)
    before = set(threading.enumerate())
    for text, ctx in [("gift flute fan and tea", Context.action()),
                      ("take the fan", Context.answer_gift(GIFT)),
                      ("what time is it", Context.action())]:
        pcm = speech(text)
        a, b = english.recognize(pcm, ctx), one.recognize(pcm, ctx)
        assert a.command == b.command
        assert a.confidence == pytest.approx(b.confidence, abs=0.01)
    assert set(threading.enumerate()) <= before
    one.close()


def _inside(thread: threading.Thread, function: str) -> bool:
    frame = sys._current_frames().get(thread.ident or 0)
    while frame is not None:
        if frame.f_code.co_name == function:
            return True
        frame = frame.f_back
    return False


@needs_pocketsphinx
def test_listen_falls_back_to_sphinx_saying_why(tmp_path: Path,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    from companion.voice.cli import main

    wav = tmp_path / "quiet.wav"
    with wave.open(str(wav), "wb") as out:
        out.setnchannels(1)
        out.setsampwidth(2)
        out.setframerate(16000)
        out.writeframes(bytes(16000))
    assert main(["listen", "--file", str(wav), "--engine", "whisper", "--lang", "en",
                 "--whisper-model", str(tmp_path)]) == 1  # silence: nothing recognized
    said = capsys.readouterr().err
    assert "is not a CTranslate2 Whisper model" in said and "pocketsphinx" in said


# -- rescoring the commands valid now (rescore.py) --------------------------------------
def test_the_word_graph_accepts_exactly_its_sentences() -> None:
    graph = jsgf_graph(build_grammar(Context.answer_gift(GIFT)))
    assert accepts(graph, ("i", "take", "the", "fan"))
    assert accepts(graph, ("fan",))
    assert not accepts(graph, ("take", "umbrella"))  # not offered
    assert not accepts(graph, ("take", "the"))  # incomplete


def test_candidates_are_neighbours_the_game_accepts_now() -> None:
    ctx = Context.answer_gift(GIFT)
    graph = jsgf_graph(build_grammar(ctx))
    found = candidates([("take", "the", "fan")], graph,
                       lambda words: normalize(words, "en", ctx), cap=40)
    assert found[("take", "the", "fan")] == "take fan"
    assert {"take flute", "take tea"} <= set(found.values())  # the other cards offered
    assert all(accepts(graph, words) for words in found)
    assert "take umbrella" not in found.values()


def test_a_close_call_between_commands_is_not_sure_and_chatter_is_refused() -> None:
    grammar = [(("take", "flute"), "take flute"), (("take", "fan"), "take fan")]
    clear = decide_shares(grammar, [-2.0, -40.0], [-2.5])
    close = decide_shares(grammar, [-2.0, -2.3], [-2.5])
    chatter = decide_shares(grammar, [-30.0, -32.0], [-4.0])  # a free transcript far likelier
    assert clear[0] == "take flute" and clear[1] > 0.99
    assert close[1] < 0.6
    assert chatter[1] < 0.4


# -- a busy machine ---------------------------------------------------------------------
@pytest.mark.skipif(not (engine_available() and tiny_en()), reason="needs the whisper extra")
@pytest.mark.parametrize(("given", "expected"), [(None, "PASSIVE"), ("ACTIVE", "ACTIVE")])
def test_the_engine_waits_passively_unless_told_otherwise(given: str | None,
                                                          expected: str) -> None:
    """OpenMP threads that spin while waiting made a decode take seconds on a machine whose
    cores were busy (docs/voice.md): the recognizer asks for passive waiting before the
    engine starts, and leaves a player's own choice alone."""
    import os

    env = {k: v for k, v in os.environ.items() if k != "OMP_WAIT_POLICY"}
    if given is not None:
        env["OMP_WAIT_POLICY"] = given
    code = ("import os; from companion.voice.whisper import WhisperRecognizer as W; "
            "W().ready(); print(os.environ['OMP_WAIT_POLICY'])")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         env=env, check=True).stdout.strip()
    assert out == expected


@pytest.mark.skipif(not (engine_available() and tiny_en()), reason="needs the whisper extra")
@pytest.mark.parametrize(("given", "expected"), [(None, 1), ("2", 2)])
def test_numpy_blas_runs_on_one_thread_unless_told_otherwise(given: str | None,
                                                            expected: int) -> None:
    """OpenBLAS's threads spin after each product and took a core from the encoder that
    followed (about 120 ms more CPU a French decode, docs/voice.md): once the model is
    loaded, numpy's BLAS has one thread in the process; a count the player set stands."""
    import os

    variables = ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS")
    env = {k: v for k, v in os.environ.items() if k not in variables}
    if given is not None:
        env["OPENBLAS_NUM_THREADS"] = given
    code = ("import numpy; from companion.voice.whisper import WhisperRecognizer as W; "
            "W().ready(); "
            "from threadpoolctl import threadpool_info; "
            "print(min(i['num_threads'] for i in threadpool_info() "
            "if i['user_api'] == 'blas'))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         env=env, check=True).stdout.strip()
    assert int(out) == expected


# -- rhyming rivals (flute / blue...) ----------------------------------------------------
def test_a_command_read_from_a_rhyming_rival_is_asked_about() -> None:
    """Measured: "flute" heard as "blue, blue" applied reveal umbrella unasked at 6 dB. A
    word with a known rival that reads as another valid command now caps the confidence,
    so the player is asked; where the rival is not valid now, nothing changes."""
    from companion.games.hanamikoji.voice.hooks import rival_checked
    from companion.voice.policy import Accept, Confirm, decide
    from companion.voice.sphinx import Recognition

    def read(ctx: Context):  # type: ignore[no-untyped-def]
        return lambda words: normalize(words, "en", ctx)

    heard = Recognition("reveal umbrella", 1.0, "blue")
    assert isinstance(decide(heard), Accept)
    asked = rival_checked(heard, read(Context.reveal()))
    assert asked.command == "reveal umbrella" and isinstance(decide(asked), Confirm)
    # flute offered, no umbrella: "blue" has no valid rival reading, "fan" has no rival.
    only_flute = Context.answer_gift((Item.FLUTE, Item.FAN, Item.TEA))
    sure = Recognition("take flute", 0.95, "take the flute")
    assert rival_checked(sure, read(only_flute)) == sure
    fan = Recognition("reveal fan", 0.95, "reveal the fan")
    assert rival_checked(fan, read(Context.reveal())) == fan


# -- the beam limited to the grammar's tokens (an option, measured) ----------------------
@needs_whisper
def test_a_limited_beam_writes_only_pieces_of_the_grammar_words(speech) -> None:  # type: ignore[no-untyped-def]
    """The English beam can only write tokens that spell the context's words, so even
    chatter comes out in pieces of them ("chi" of "chiharu"), and a free greedy transcript
    is kept to measure it against (calibration.py)."""
    import tokenizers

    from companion.voice.whisper import PUNCTUATION, WhisperRecognizer

    tokenizer = tokenizers.Tokenizer.from_file(str(tiny_en() / "tokenizer.json"))
    engine = WhisperRecognizer(constrain=True)
    recognizer = HanamikojiRecognizer(engine)
    ctx = Context.action()
    graph = jsgf_graph(build_grammar(ctx))
    for text in ("gift flute, fan and tea", "what time is it"):
        recognizer.recognize(speech(text), ctx)
        hyps = engine.evidence["hyps"]
        assert hyps
        for transcript, _ in hyps:
            for token in tokenizer.encode(transcript, add_special_tokens=False).ids:
                piece = tokenizer.decode([token]).strip().lower()
                assert piece in PUNCTUATION or any(piece in known for known in graph.words), (
                    transcript, piece)
        assert [t for t, _ in engine.evidence["free"]]  # the free transcript was read
    engine.close()


def test_an_unsure_undo_is_asked_about_not_applied() -> None:
    """Measured: "gift tea Anju Anju" was heard as "the undo" (confidence 0.49) and undo,
    answered at once like a question, took back the table's last step. Undo changes the
    game: applied when sure, asked about when not, and a noisy one is refused."""
    from companion.games.hanamikoji.voice.hooks import settled
    from companion.voice.policy import Accept, Confirm, Refuse, decide
    from companion.voice.sphinx import Recognition

    assert isinstance(decide(Recognition("undo", 0.49, "the undo")), Confirm)
    assert isinstance(decide(Recognition("undo", 0.95, "undo")), Accept)
    assert isinstance(decide(Recognition("undo", 0.95, "undo", margin=0.0)), Refuse)
    assert isinstance(decide(Recognition("score", 0.49, "score")), Accept)  # a question
    assert settled("undo") is None  # not "always answered": decoded again if unsure


def test_the_calibrated_confidence_believes_clear_speech_and_refuses_chatter() -> None:
    """calibration.py: a reading whose sentence is far likelier than any other command's,
    that the free transcript also reads, is applied; one the free transcript is far
    likelier than (chatter forced into grammar words), close to another command, is never
    applied unasked, even when the text mapper is sure of it."""
    from companion.voice import calibration
    from companion.voice.policy import CONFIRM_THRESHOLD
    from companion.voice.rescore import Scores
    from companion.voice.whisper import REFUSE_BELOW

    grammar = ((("take", "fan"), "take fan"), (("take", "flute"), "take flute"))

    def confidence(fan: float, flute: float, free: float, agrees: bool) -> float:
        reading = (1.0, "take fan", "take fan") if agrees else None
        scores = Scores(grammar, (fan, flute), ((" free.", reading),), (free,))
        return calibration.confidence(calibration.features("take fan", 1.0, -0.3, scores))

    clear = confidence(-3.0, -20.0, -3.5, agrees=True)
    chatter = confidence(-30.0, -31.0, -4.0, agrees=False)
    assert clear >= CONFIRM_THRESHOLD > chatter
    assert chatter < clear - 0.25 and REFUSE_BELOW < CONFIRM_THRESHOLD


def test_an_unsure_text_mapper_does_not_veto_a_calibrated_reading() -> None:
    """Measured with flite's voices: a clear "hint" was written " and" by every hypothesis of
    the limited beam (a joiner, which the text mapper reads as "undo" with no confidence),
    while the model scored " Hint." far above every other command. Held to the mapper, it was
    refused; the calibrated confidence, which weighs the mapper's doubt, now decides. A sure
    mapper still vetoes, and without a calibration the mapper always does."""
    from companion.voice import calibration
    from companion.voice.rescore import Scores
    from companion.voice.whisper import MAPPER_UNSURE, REFUSE_BELOW, agree

    words = ("undo", "unseen", "actions", "board", "discard", "help", "hint", "repeat",
             "score", "secret")
    logs = (-5.56, -7.74, -7.57, -6.41, -7.12, -6.36, -3.83, -5.35, -7.78, -7.15)
    scores = Scores(tuple(((w,), w) for w in words), logs,
                    ((" And", (0.0, "undo", "undo")),), (-1.59,))
    mapper = ("undo", 0.0, "undo")
    command, share, _ = scores.decide(calibration.SHARE_TEMPERATURE)
    assert command == "hint"
    assert agree(mapper, command, share) == (None, share)  # the free beam's rule
    heard, _ = agree(mapper, command, share, calibrated=True)
    assert heard == "hint"
    measured = calibration.features(heard, mapper[1], -0.76, scores)
    assert calibration.confidence(measured) >= REFUSE_BELOW
    sure = ("undo", MAPPER_UNSURE + 0.1, "undo")
    assert agree(sure, command, share, calibrated=True) == (None, share)


def test_a_free_transcript_far_likelier_than_any_command_is_chatter() -> None:
    """Measured with MBROLA's recorded voices: "who is winning right now", the limited beam
    writing "I, I, I, I" (discard, the only command in reach: the widest margin), its free
    transcript word for word and 8.5 nats per token likelier, was asked about at 0.50. A lead
    past anything the model was fitted on is refused, whatever else was measured."""
    from companion.voice import calibration
    from companion.voice.rescore import Scores

    grammar = ((("i", "discard"), "discard"), (("the", "discard"), "discard"))
    free = ((" Who is winning right now?", (0.0, "repeat", "repeat")),)
    scores = Scores(grammar, (-8.55, -8.94), free, (-0.08,))
    measured = calibration.features("discard", 0.0, -0.74, scores)
    assert measured[calibration.FEATURES.index("free lead")] > calibration.FREE_LEAD_REFUSED
    assert calibration.confidence(measured) == 0.0
    # The same reading with the lead the tuning dumps' right readings reached stays scored.
    near = Scores(grammar, (-8.55, -8.94), free, (-8.55 + 5.9,))
    assert calibration.confidence(calibration.features("discard", 0.0, -0.74, near)) > 0.1


@needs_whisper
def test_four_cards_alike_said_alike_survive_the_loop_cut(english: HanamikojiRecognizer,  # type: ignore[no-untyped-def]
                                                          speech) -> None:
    """The limited beam may not write the same run of NO_REPEAT tokens twice (chatter looped
    to the token cap, the slowest decodes). A competition of four cards named alike must
    still be written whole: with runs of six it lost its fourth "yellow"."""
    english.recognize(speech("competition yellow, yellow, yellow, yellow"), Context.action())
    best = english.engine.evidence["hyps"][0][0]
    assert words_of(best).count("yellow") >= 4, best


def test_one_word_over_and_over_is_a_loop_not_an_answer() -> None:
    """Measured (Spanish, babble at 20 and 6 dB): chatter written "no, no, no, no" or "sí,
    sí, sí, sí" was applied as an answer. In the other languages one word three times or
    more is Whisper looping on noise: it reads as nothing; twice is still a stutter. In
    English the limited beam loops on one clean word too, so it still reads."""
    ctx = Context.confirm()
    graph = phrases_graph(tuple(phrase_list(ctx, "es")))

    def spanish(hyps):  # type: ignore[no-untyped-def]
        return map_hypotheses(hyps, graph, lambda w: normalize(w, "es", ctx), english=False)

    assert spanish([(" No, no, no, no.", -0.2), (" No, no, no.", -0.3)])[0] is None
    assert spanish([(" No, no.", -0.2)])[0] == "no"
    action = Context.action()
    looped = [(" secret, secret, secret, secret, secret.", -0.15)]
    assert map_hypotheses(looped, jsgf_graph(build_grammar(action)),
                          lambda w: normalize(w, "en", action))[0] == "secret"


@pytest.mark.parametrize(("lang", "expected"), [
    ("en", "Undo Ana's Secret. Yes or no?"),
    ("fr", "Annuler le Secret d'Ana. Oui ou non ?"),
])
def test_an_unsure_undo_names_the_step_it_would_take_back(lang: str, expected: str) -> None:
    """The question about an unsure undo says, in the table's language, which step a yes
    takes back (it was "Undo. Oui ou non ?" in French, naming nothing)."""
    from companion.games.registry import load_game
    from companion.inputs.voice import handle_recognition
    from companion.narrate.catalogue import Catalogue
    from companion.session import Session
    from companion.voice.sphinx import Recognition

    session = Session(load_game("hanamikoji"), {"players": ["Ana", "Ben"], "lang": lang})
    session.start()
    session.handle("secret flute")
    asked = handle_recognition(session, Recognition("undo", 0.5, "the undo"))
    assert [Catalogue(lang).render(m) for m in asked] == [expected]


def test_grammar_sentences_are_scored_as_the_language_spells_them() -> None:
    """The other languages' grammar words are folded ("eventail", "l"): the model scores a
    sentence as a writer of the language spells it, accents and elisions back."""
    from companion.voice.mapper import phrases_spelling
    from companion.voice.rescore import sentence

    spelling = phrases_spelling(("l'éventail", "flûte", "п'ять", "беру"))
    assert sentence(("l", "eventail", "flute"), spelling) == " L'éventail flûte."
    assert sentence(("беру", "п", "ять"), spelling) == " Беру п'ять."
    assert sentence(("gift", "tea")) == " Gift tea."


def test_a_loop_is_judged_by_the_beam_not_the_language() -> None:
    """One word over and over is Whisper looping on noise with a free beam (any language);
    the limited beam loops on one clean word too, so there it still reads."""
    from companion.voice.whisper import read_hypothesis

    ctx = Context.confirm()
    english = jsgf_graph(build_grammar(ctx))
    spanish = phrases_graph(tuple(phrase_list(ctx, "es")))
    looped = " no, no, no, no."
    assert read_hypothesis(looped, english, lambda w: normalize(w, "en", ctx),
                           loops=True) is None
    found = read_hypothesis(looped, spanish, lambda w: normalize(w, "es", ctx),
                            english=False, loops=False)
    assert found is not None and found[1] == "no"


def test_a_whole_move_looped_is_read_once_with_the_free_beam() -> None:
    """Measured (Spanish, Pico, babble at 20 dB; with an 8-second window at 40 dB too):
    the free beam wrote a whole gift twice and began it a third time, and it was refused.
    It reads as the move said once (a move is asked about); a question, a setting or an
    answer looped stays a loop, as does a word alone over and over, and the limited beam's
    readings (its confidence was fitted on them) are left as they were."""
    from companion.voice.mapper import said_once
    from companion.voice.whisper import read_hypothesis

    ctx = Context.action()
    graph = phrases_graph(tuple(phrase_list(ctx, "es")))

    def read(text: str, loops: bool) -> tuple[float, str, str] | None:
        return read_hypothesis(text, graph, lambda w: normalize(w, "es", ctx),
                               english=False, loops=loops, lang="es")
    looped = " regalo, seis, sombrilla, flauta, regalo, seis, sombrilla, flauta, regalo, seis,"
    once = read(" regalo, seis, sombrilla, flauta.", True)
    assert once is not None and once[0] == 1.0
    assert read(looped, True) == once
    as_written = read(looped, False)
    assert as_written is None or as_written[0] < 1.0
    assert said_once(["no", "no", "no", "no"]) == ["no", "no"]  # LOOP refuses it first
    assert read(" no, no, no, no.", True) is None
    assert said_once(["regalo", "flauta", "regalo"]) is None  # not twice whole
    # Babble written as a setting twice (French, mb-fr4, 20 dB) is a loop, not a louder.
    assert read(" más alto, más alto.", True) is None
    assert said_once(["competición", "rojo", "rojo", "rojo"]) is None


def test_an_utterance_nothing_read_as_still_dumps_and_reads_back() -> None:
    """Rescoring a decode whose hypotheses read as no command scores nothing: its
    evidence (the benchmark's dump) must still be written and read back."""
    from companion.voice.rescore import Scores

    scores = Scores((), (), ((" Ok, one.", None),), ())
    assert scores.decide() == (None, 0.0, "Ok, one.")
    assert Scores.from_evidence(scores.evidence()) == Scores((), (), ((" Ok, one.", None),), ())


@needs_whisper
def test_the_limited_beams_token_lists_do_not_pile_up_over_a_game() -> None:
    """Each context's forbidden-token list is about 2 MB, and every gift offer is a context
    of its own: a long game kept them all (17 offers held 35 MB). Only the most recent are
    kept, and a context met again is rebuilt the same."""
    import itertools

    from companion.voice.whisper import LIMITS_KEPT, WhisperRecognizer

    engine = WhisperRecognizer()
    engine.ready()
    offers = list(itertools.combinations_with_replacement(list(Item), 3))[:LIMITS_KEPT + 12]
    vocabularies = [vocabulary(jsgf_graph(build_grammar(Context.answer_gift(list(o)))))
                    for o in offers]
    first = list(engine._limit(vocabularies[0]))
    for words in vocabularies:
        engine._limit(words)
    assert len(engine._suppressed) <= LIMITS_KEPT
    assert engine._limit(vocabularies[0]) == first
    engine.close()
