"""The rulebook, the sticker quiz and the guided game by voice, in four languages.

Text first: every phrase a tool listens for reads back, through the tool's own reader
(the one typed lines go through), as the command it is listed under, and nothing else
slips in. Then the real Whisper models (tiny.en, the multilingual base) on espeak-ng
speech, through the same policy and handlers as `companion rules --voice`,
`companion stickers quiz --voice` and `companion learn --voice`."""

from __future__ import annotations

import functools
from pathlib import Path

import pytest
from espeak import ESPEAK, speak
from realspeech import clip, commands, digit, needs_realspeech
from tables import practice_table, whisper_engines

from companion.cli_quiz import answer as quiz_answer
from companion.cli_rules import answer as rules_answer
from companion.inputs.hub import InputItem
from companion.inputs.reading_voice import Listening, PhraseRecognizer, yes_no
from companion.narrate.catalogue import LANGUAGES, Catalogue
from companion.rulebook import spoken as rules_spoken
from companion.rulebook.book import load
from companion.rulebook.navigator import Navigator, Open
from companion.rulebook.navigator import parse as parse_rules
from companion.sticker_quiz import Describe, Key, Quiz, Word, pieces
from companion.sticker_quiz import parse as parse_quiz
from companion.sticker_quiz_spoken import phrases as quiz_phrases
from companion.sticker_quiz_spoken import readback
from companion.voice.sphinx import Recognition

GAMES = ("hanamikoji", "momiji")


# -- the rulebook's phrases ----------------------------------------------------------------
@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_rulebook_phrase_reads_as_what_it_is_listed_under(game: str, lang: str) -> None:
    book = load(game, lang)
    said = rules_spoken.phrases(book, lang)
    for move, words in rules_spoken.MOVES[lang].items():
        for word in words:
            assert word in said.phrases and said.read(word) == move, (lang, word)
    for section in book.sections:
        for number in (str(section.number), *rules_spoken.said(section.number, lang)):
            assert said.read(f"{rules_spoken.LEADING[lang][-1]} {number}") == \
                Open(section.number).text(), (lang, number)
        assert said.read(section.title) == f"section {section.number}"
        for keyword in section.keywords:
            assert keyword in said.phrases
            if said.read(keyword) is not None and said.read(keyword).startswith("section"):
                continue  # a number alone ("three") is a section's number
            command = parse_rules(said.read(f"{rules_spoken.ASKING[lang][0]} {keyword}"))
            assert Navigator(book).execute(command)[0].event == "rules", (lang, keyword)
    assert said.read(str(len(book.sections) + 1)) is None  # no such section
    assert said.read("") is None and said.read("...") is None  # silence reads on nothing


def test_a_voice_question_is_a_topic_of_the_rulebook_not_any_word() -> None:
    """A word misheard among many ("a gift" as "again") must not make a question."""
    said = rules_spoken.phrases(load("hanamikoji", "en"), "en")
    assert said.read("what is a gift") == "question gift"
    assert said.read("what is again") is None
    assert said.read("contents contents") is None
    assert said.read("section three") == "section 3"


# -- the quiz's phrases --------------------------------------------------------------------
@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_quiz_phrase_reads_as_a_number_a_description_or_a_word(game: str,
                                                                    lang: str) -> None:
    found = pieces(game)
    said = quiz_phrases(found, lang)
    for piece in found:
        n = int(piece.key)
        for number in (str(n), *rules_spoken.said(n, lang)):
            assert said.read(number) == f"key {n}", (lang, number)
            assert said.scored(said.read(number))  # an answer: asked about when unsure
    from stickers.colours import NAME_LANGS, SYMBOLS

    i = NAME_LANGS.index(lang)
    for colour in {p.feel.colour for p in found if p.feel.colour is not None}:
        command = parse_quiz(said.read(SYMBOLS[colour][i]))
        assert isinstance(command, Describe) and not said.scored(command.text())
    for word in ("skip", "repeat", "help", "quit"):
        heard = [w for w in said.phrases if said.read(w) == word]
        assert heard, (lang, word)
        assert isinstance(parse_quiz(said.read(heard[0])), Word)
    assert said.read("") is None


# -- the policy ----------------------------------------------------------------------------
def test_an_unsure_answer_is_asked_about_and_applied_only_after_yes() -> None:
    found = pieces("hanamikoji")
    said = quiz_phrases(found, "en")
    listening = Listening("en")
    heard = listening.heard(Recognition("key 7", 0.6, "seven"), said, readback)
    assert heard.command is None and heard.said[0].event == "confirm"
    assert Catalogue("en").render(heard.said[0]) == "7? Yes or no."
    assert listening.context(said).name == "yes_no"
    assert listening.heard(Recognition("yes", 0.9, "yes"), said, readback).command == "key 7"
    assert listening.context(said) == said
    listening.heard(Recognition("key 7", 0.6, "seven"), said, readback)
    refused = listening.heard(Recognition("no", 0.9, "no"), said, readback)
    assert refused.command is None and refused.said[0].key == "not_understood"
    # Sure, or not scored: applied at once.
    assert listening.heard(Recognition("key 7", 0.9, "seven"), said, readback).command == "key 7"
    assert listening.heard(Recognition("skip", 0.5, "skip"), said, readback).command == "skip"
    assert listening.heard(Recognition(None, 0.0, "uh"), said, readback).command is None


@pytest.mark.parametrize("lang", LANGUAGES)
def test_yes_and_no_in_each_language(lang: str) -> None:
    asked = yes_no(lang)
    yes, no = asked.phrases[0], asked.phrases[-1]
    assert asked.read(yes) == "yes" and asked.read(f"{no}.") == "no"
    assert asked.read(f"{yes} {no}") is None


# -- the real models on real audio ---------------------------------------------------------
@pytest.fixture(scope="module")
def engines():  # type: ignore[no-untyped-def]
    yield from whisper_engines(PhraseRecognizer, rescore=False)  # as ReadingVoice builds it


# What espeak-ng's voices say and the models hear (docs/voice.md, "The rulebook and the
# quiz by voice", has the measured rates: espeak-ng's French and Spanish are heard worst).
RULES_HEARD = [
    ("en", "next", "next"), ("en", "section three", "section 3"),
    ("en", "what is a gift", "question gift"), ("en", "contents", "contents"),
    ("fr", "sommaire", "contents"), ("fr", "quitter", "quit"),
    ("es", "siguiente", "next"), ("es", "sección tres", "section 3"),
    ("uk", "зміст", "contents"), ("uk", "вийти", "quit"),
]
CHATTER = {"en": "what time is it now", "fr": "quelle heure est-il", "es": "qué hora es",
           "uk": "котра година"}


@pytest.mark.skipif(ESPEAK is None, reason="espeak-ng is not installed")
@pytest.mark.parametrize(("lang", "said", "meant"), RULES_HEARD,
                         ids=[f"{h[0]}-{h[2]}" for h in RULES_HEARD])
def test_the_rulebook_hears_a_reader(engines, tmp_path: Path, lang: str, said: str,
                                     meant: str) -> None:  # type: ignore[no-untyped-def]
    book = load("hanamikoji", lang)
    phrases = rules_spoken.phrases(book, lang)
    heard = engines(lang).recognize(speak(tmp_path, said, lang), phrases)
    assert heard.command == meant, heard
    navigator = Navigator(book)
    policy = functools.partial(Listening(lang).heard, phrases=phrases, readback=str)
    messages = rules_answer(navigator, InputItem("voice", event=heard), policy)
    assert messages == Navigator(book).execute(parse_rules(meant))  # as the line would


@pytest.mark.skipif(ESPEAK is None, reason="espeak-ng is not installed")
@pytest.mark.parametrize("lang", LANGUAGES)
def test_chatter_moves_no_rulebook(engines, tmp_path: Path, lang: str) -> None:  # type: ignore[no-untyped-def]
    """Table talk heard by an always-listening rulebook changes nothing, or at most reads
    on (nothing a reader loses); it never quits."""
    book = load("hanamikoji", lang)
    phrases = rules_spoken.phrases(book, lang)
    heard = engines(lang).recognize(speak(tmp_path, CHATTER[lang], lang), phrases)
    done = Listening(lang).heard(heard, phrases, str)
    assert done.command in (None, "next", "previous", "repeat", "contents"), heard


QUIZ_HEARD = [
    ("en", "seven", "key 7"), ("en", "a heart and two dots", "what a heart and 2 dots"),
    ("en", "skip", "skip"), ("fr", "sept", "key 7"), ("fr", "passer", "skip"),
    ("es", "un corazón y dos puntos", "what un corazon y 2 puntos"), ("es", "saltar", "skip"),
    ("uk", "сім", "key 7"), ("uk", "пропустити", "skip"),
]


@pytest.mark.skipif(ESPEAK is None, reason="espeak-ng is not installed")
@pytest.mark.parametrize(("lang", "said", "meant"), QUIZ_HEARD,
                         ids=[f"{h[0]}-{h[2]}" for h in QUIZ_HEARD])
def test_the_quiz_hears_an_answer(engines, tmp_path: Path, lang: str, said: str,
                                  meant: str) -> None:  # type: ignore[no-untyped-def]
    found = pieces("hanamikoji")
    phrases = quiz_phrases(found, lang)
    heard = engines(lang).recognize(speak(tmp_path, said, lang), phrases)
    assert heard.command == meant, heard
    quiz = Quiz(found, 3, 4)
    quiz.start()
    listening = Listening(lang)
    policy = functools.partial(listening.heard, phrases=phrases, readback=readback)
    messages = quiz_answer(quiz, InputItem("voice", event=heard), None, policy)
    if messages[0].event == "confirm":  # an unsure number: nothing counted before yes
        assert quiz.asked == 0 and isinstance(parse_quiz(meant), Key)
        yes = engines(lang).recognize(speak(tmp_path, yes_no(lang).phrases[0], lang),
                                      listening.context(phrases))
        assert yes.command == "yes", yes
        messages = quiz_answer(quiz, InputItem("voice", event=yes), None, policy)
    if isinstance(parse_quiz(meant), Key):
        assert quiz.asked == 1 and messages[0].event in ("right", "wrong")
    elif meant == "skip":
        assert quiz.asked == 1 and messages[0].event == "wrong"
    else:  # a description: said what it is, unscored
        assert quiz.asked == 0 and messages[0].event == "info"


# -- the guided game: `rules` by voice in both games --------------------------------------
RULES_WORD = {"en": "rules", "fr": "règles", "es": "reglas", "uk": "правила"}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_rules_is_in_both_games_grammars_in_each_language(lang: str) -> None:
    from companion.games.hanamikoji.voice.context import Context
    from companion.games.hanamikoji.voice.grammar import build_grammar, phrase_list
    from companion.games.hanamikoji.voice.words import normalize
    from companion.games.momiji.simulate import random_steps
    from companion.games.momiji.voice import build_grammar as momiji_grammar
    from companion.games.momiji.voice import momiji_context
    from companion.games.momiji.voice import phrase_list as momiji_phrases
    from companion.games.momiji.voice import read as momiji_read

    word = RULES_WORD[lang]
    action = Context.action()
    turn = momiji_context(next(s for s, _ in random_steps(7, 2) if s.turn is not None))
    if lang == "en":
        assert " rules" in build_grammar(action) and " rules" in momiji_grammar(turn)
    else:
        assert word in phrase_list(action, lang) and word in momiji_phrases(turn, lang)
    assert normalize(word, lang, action) == "rules"
    assert momiji_read(word, turn) == "rules"


# What espeak-ng says and the models hear; espeak-ng's Ukrainian "правила" was heard as
# nothing valid in every variant tried (docs/voice.md): Ukrainian is checked on text above.
SPOKEN_RULES = {"en": ("the rules", "en-us"), "fr": ("règles", "fr"), "es": ("reglas", "es")}


@pytest.mark.skipif(ESPEAK is None, reason="espeak-ng is not installed")
@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("lang", sorted(SPOKEN_RULES))
def test_rules_by_voice_pauses_a_guided_game_on_the_rulebook(
        tmp_path: Path, game: str, lang: str) -> None:
    """`rules` is in each game's grammar in the four languages: heard in a learn game's
    first turn, it says the rulebook's section for the moment, and the game is as it was."""

    from companion.inputs.voice import context_for, handle_recognition
    from companion.voice.whisper import WhisperRecognizer
    from companion.voice.whisper_model import ModelMissing

    session = practice_table(game, lang, learn=True).session
    loaded = session.game
    try:
        engine = WhisperRecognizer(None, lang)
    except ModelMissing as missing:
        pytest.skip(f"no Whisper model for {lang}: {missing}")
    try:
        recognizer = loaded.voice().make_recognizer(engine)
        said, voice = SPOKEN_RULES[lang]
        heard = recognizer.recognize(speak(tmp_path, said, voice), context_for(session))
    finally:
        engine.close()
    before = session.state
    messages = handle_recognition(session, heard)
    assert heard.command == "rules", heard
    assert messages[0].event == "rules" and session.state == before


# -- real people ---------------------------------------------------------------------------
SPEAKERS = ("george", "jackson", "lucas", "nicolas", "theo", "yweweler")


@needs_realspeech
def test_the_quiz_hears_numbers_said_by_real_people(engines) -> None:  # type: ignore[no-untyped-def]
    """The free spoken digit dataset, six speakers, 1 to 7 (the Hanamikoji keys): a key is
    never applied wrongly (an unsure one is asked about), and most are heard right
    (measured 40 of 42 right, 36 at once: docs/voice.md)."""
    found = pieces("hanamikoji")
    phrases = quiz_phrases(found, "en")
    right = 0
    for n in range(1, 8):
        for speaker in SPEAKERS:
            heard = engines("en").recognize(clip(digit(n, speaker, 0)), phrases)
            done = Listening("en").heard(heard, phrases, readback)
            if done.command is not None and done.command.startswith("key"):
                assert done.command == f"key {n}", (n, speaker, heard)
            right += heard.command == f"key {n}"
    assert right >= 34, right


@needs_realspeech
def test_stop_said_by_real_people_ends_the_rulebook_or_changes_nothing(engines) -> None:  # type: ignore[no-untyped-def]
    book = load("hanamikoji", "en")
    phrases = rules_spoken.phrases(book, "en")
    quits = 0
    for take in range(6):
        heard = engines("en").recognize(clip(commands("stop", take)), phrases)
        done = Listening("en").heard(heard, phrases, str)
        assert done.command is None or not done.command.startswith("section"), heard
        quits += done.command == "quit"
    assert quits >= 4, quits
