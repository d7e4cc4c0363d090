"""A question asked as one asks a person ("quel est le score", "can you repeat", "cuál es la
puntuación", "який рахунок"), with courtesy or not, is that question in every game; the
same asking words around a move are refused with their own reason, never read as the move
(companion/shared_words.py ASKING and COURTESY, companion/phrases.py)."""

from __future__ import annotations

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from companion.errors import InvalidCommand
from companion.games.hanamikoji import interpret as hanamikoji
from companion.games.hanamikoji.rules import new_game
from companion.games.momiji import interpret as momiji
from companion.games.momiji.simulate import random_steps
from companion.narrate.catalogue import Catalogue
from companion.narrate.message import Message
from companion.shared_commands import Adjust, Ask, Query, Setting, Undo
from companion.shared_words import (
    ASKING,
    COURTESY,
    HELP_ASKED,
    HELP_OFFERED,
    HINT_ASKED,
    QUERY_WORDS,
)

HANAMIKOJI = new_game()
MOMIJI = next(state for state, _ in random_steps(7, 3) if state.turn is not None)
GAMES = {"hanamikoji": lambda line, lang: hanamikoji.interpret(line, HANAMIKOJI, lang=lang),
         "momiji": lambda line, lang: momiji.interpret(line, MOMIJI, lang=lang)}


@pytest.mark.parametrize("game", sorted(GAMES))
@pytest.mark.parametrize(("lang", "line", "meant"), [
    ("fr", "quel est le score", Ask(Query.SCORE)),
    ("fr", "qu'elle est le score", Ask(Query.SCORE)),  # as Whisper writes it, typed alike
    ("fr", "quelles sont les actions", Ask(Query.ACTIONS)),
    ("fr", "tu peux répéter, s'il te plaît", Ask(Query.REPEAT)),
    ("fr", "est-ce que tu peux répéter", Ask(Query.REPEAT)),
    ("fr", "un conseil", Ask(Query.HINT)),
    ("fr", "parle plus fort", Adjust(Setting.LOUDER)),
    ("fr", "tu peux annuler", Undo()),
    ("en", "what's the score", Ask(Query.SCORE)),
    ("en", "can you repeat, please", Ask(Query.REPEAT)),
    ("en", "a hint", Ask(Query.HINT)),
    ("es", "cuál es la puntuación", Ask(Query.SCORE)),
    ("es", "repite, por favor", Ask(Query.REPEAT)),
    ("es", "una pista", Ask(Query.HINT)),
    ("es", "qué acciones", Ask(Query.ACTIONS)),  # whole: "qué" alone is not asking
    ("uk", "який рахунок", Ask(Query.SCORE)),
    ("uk", "можеш повторити, будь ласка", Ask(Query.REPEAT)),
    ("uk", "пораду", Ask(Query.HINT)),
    ("en", "can you", Ask(Query.WHAT)),  # asking alone: what now, as an empty line
    # the hint asked with "give me": refused before ("I did not understand 'donne'": the
    # phrase was kept as the one word "donne-moi", which no line is cut into)
    ("fr", "donne-moi un conseil", Ask(Query.HINT)),
    ("fr", "donne moi un indice", Ask(Query.HINT)),
    ("en", "give me a hint, please", Ask(Query.HINT)),
    ("es", "dame una pista", Ask(Query.HINT)),
    ("uk", "дай пораду", Ask(Query.HINT)),
    ("uk", "дай підказку", Ask(Query.HINT)),
    ("uk", "підкажи", Ask(Query.HINT)),  # heard by voice, and refused typed
    # a need said, and help asked as a person asks it: refused before ("I did not
    # understand 'need'", "... 'moi'", "... 'necesito'", "... 'мені'")
    ("en", "i need a hint", Ask(Query.HINT)),
    ("en", "can i have a hint", Ask(Query.HINT)),
    ("fr", "j'ai besoin d'un conseil", Ask(Query.HINT)),
    ("es", "necesito una pista", Ask(Query.HINT)),
    ("uk", "мені потрібна підказка", Ask(Query.HINT)),
    ("uk", "потрібна порада", Ask(Query.HINT)),
    ("en", "help me", Ask(Query.HELP)),
    ("fr", "aide-moi", Ask(Query.HELP)),
    ("fr", "aidez-moi, s'il vous plaît", Ask(Query.HELP)),
    ("es", "ayúdame", Ask(Query.HELP)),
    ("uk", "допоможи", Ask(Query.HELP)),
    # help asked for the table: refused before ("I did not understand 'nous'")
    ("fr", "aide-nous", Ask(Query.HELP)),
    ("fr", "aidez-nous, s'il vous plaît", Ask(Query.HELP)),
    ("en", "help us", Ask(Query.HELP)),
    ("es", "ayúdanos", Ask(Query.HELP)),
    ("uk", "допоможіть нам", Ask(Query.HELP)),
])
def test_a_question_asked_as_one_asks_a_person(game: str, lang: str, line: str,
                                               meant: object) -> None:
    assert GAMES[game](line, lang) == meant


@pytest.mark.parametrize(("game", "lang", "line"), [
    ("hanamikoji", "fr", "tu peux prendre le thé"),  # said to a neighbour: not a move
    ("hanamikoji", "fr", "quel thé"),
    ("hanamikoji", "es", "puedes coger la flauta"),
    ("momiji", "fr", "tu peux jouer le rouge"),
    ("momiji", "uk", "можеш взяти червоний"),
    ("hanamikoji", "en", "i need the tea"),  # a need said beside a move: talk
    ("hanamikoji", "fr", "j'ai besoin de prendre le thé"),
    ("hanamikoji", "es", "necesito el té"),
])
def test_asking_words_around_a_move_are_refused_with_their_reason(game: str, lang: str,
                                                                  line: str) -> None:
    with pytest.raises(InvalidCommand) as refused:
        GAMES[game](line, lang)
    assert refused.value.key == "asked_move"
    for spoken in ("en", "fr", "es", "uk"):  # said in the player's language
        said = Catalogue(spoken).render(Message("error", "error.asked_move", refused.value.params))
        assert said != "error.asked_move" and "\n" not in said


@pytest.mark.parametrize("game", sorted(GAMES))
@pytest.mark.parametrize(("lang", "line"), [
    ("fr", "donne-moi une seconde"), ("fr", "donne-moi le sel"), ("en", "give me a minute"),
    ("es", "dame la sal"), ("uk", "дай сіль")])
def test_give_me_without_the_hint_is_not_understood(game: str, lang: str, line: str) -> None:
    with pytest.raises(InvalidCommand) as refused:
        GAMES[game](line, lang)
    assert refused.value.key == "unknown_word"


def test_the_explain_words_of_hanamikoji_still_name_a_position() -> None:
    assert hanamikoji.interpret("what is 3", HANAMIKOJI).text() == "position 3"


QUESTIONS = [w for q, ws in QUERY_WORDS.items() if q is not Query.WHAT
             for w in ws if w[:1].isalpha()]


@pytest.mark.parametrize("game", sorted(GAMES))
@settings(max_examples=150, deadline=None)
@given(data=st.data())
def test_any_asking_phrase_before_any_question_is_that_question(game: str,
                                                                data: st.DataObject) -> None:
    lang = data.draw(st.sampled_from(sorted(ASKING)))
    asking = data.draw(st.sampled_from(ASKING[lang]))
    question = data.draw(st.sampled_from(QUESTIONS))
    courtesy = data.draw(st.sampled_from(["", *COURTESY[lang]]))
    try:
        alone = GAMES[game](question, lang)
    except InvalidCommand:
        alone = None
    # a word the game reads otherwise (Momiji: "points" is a card's, dropped)
    assume(isinstance(alone, Ask) and alone.query is not Query.WHAT)
    asked = GAMES[game](f"{asking} {question} {courtesy}", lang)
    assert asked == alone, (asking, question, courtesy)


def test_the_hint_with_its_article_is_a_question_word_of_every_language() -> None:
    assert all(w in QUERY_WORDS[Query.HINT] for said in HINT_ASKED.values() for w in said)
    assert all(w in QUERY_WORDS[Query.HELP] for said in HELP_ASKED.values() for w in said)


@pytest.mark.parametrize("game", sorted(GAMES))
@pytest.mark.parametrize(("lang", "offered"), [
    (lang, phrase) for lang, phrases in sorted(HELP_OFFERED.items()) for phrase in phrases])
def test_help_offered_at_the_table_is_refused_with_its_reason(game: str, lang: str,
                                                              offered: str) -> None:
    """"aide-le" to a neighbour was the help ("le" dropped as an article); "help him",
    "ayúdale" were words not understood. Said aloud at the table, the help is not wanted."""
    with pytest.raises(InvalidCommand) as refused:
        GAMES[game](offered, lang)
    assert refused.value.key == "help_offered"
    said = Catalogue(lang).render(Message("error", "error.help_offered", refused.value.params))
    assert said != "error.help_offered" and "\n" not in said
    with pytest.raises(InvalidCommand) as courteous:  # "aide-le, s'il te plaît"
        GAMES[game](f"{offered}, {COURTESY[lang][0]}", lang)
    assert courteous.value.key == "help_offered"


@pytest.mark.parametrize(("line", "key"), [
    ("aide le thé", "one_at_a_time"), ("aide les règles", "one_at_a_time"),
    ("aide la flûte", "one_at_a_time")])
def test_an_article_before_a_word_is_not_a_pronoun(line: str, key: str) -> None:
    """"aide le thé": "le" is the tea's article, so no help is offered to anyone; the line
    is refused as before, for holding a question and a card, not as help offered."""
    with pytest.raises(InvalidCommand) as refused:
        GAMES["hanamikoji"](line, "fr")
    assert refused.value.key == key
