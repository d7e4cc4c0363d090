"""`hand` by voice in a game against the computer (`companion practice`, `companion learn`),
in both games and the four languages (issue 29): listened for only at a table with a
computer, read as the practice word, and answered by the table as if typed (the player's
hand, on their own channel), the game unchanged. Text first, then the real Whisper models
on espeak-ng speech through the table."""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

import pytest
from espeak import ESPEAK, speak
from tables import practice_table, whisper_engines

from companion.games.registry import load_game
from companion.inputs.hub import InputItem
from companion.inputs.voice import context_for
from companion.narrate.catalogue import LANGUAGES
from companion.session import Session
from companion.shared_words import HAND_WORDS
from companion.voice.sphinx import Recognition

GAMES = ("hanamikoji", "momiji")


def listens_for(ctx: Any, game: str, lang: str, word: str) -> tuple[bool, str | None]:
    """(whether the context's grammar or phrases offer `word`, what `word` reads as)."""
    if game == "hanamikoji":
        from companion.games.hanamikoji.voice.grammar import build_grammar, phrase_list
        from companion.games.hanamikoji.voice.words import normalize

        offered = " hand" in build_grammar(ctx) if lang == "en" else word in phrase_list(ctx, lang)
        return offered, normalize(word, lang, ctx)
    from companion.games.momiji.voice import build_grammar as momiji_grammar
    from companion.games.momiji.voice import phrase_list as momiji_phrases
    from companion.games.momiji.voice import read

    offered = " hand" in momiji_grammar(ctx) if lang == "en" else word in momiji_phrases(ctx, lang)
    return offered, read(word, ctx)


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("lang", LANGUAGES)
def test_hand_is_heard_at_a_table_with_a_computer_only(game: str, lang: str) -> None:
    session = practice_table(game, lang).session
    ctx = context_for(session)
    table_game = dataclasses.replace(ctx, practice=False)  # what a table of people hears
    for word in HAND_WORDS[lang]:
        assert listens_for(ctx, game, lang, word) == (True, "hand"), word
        offered, read = listens_for(table_game, game, lang, word)
        assert read != "hand", word  # (Momiji's Ukrainian has "карти" in other phrases)
        assert not offered or lang != "en", word


def test_the_context_of_a_table_of_people_has_no_practice_word() -> None:
    loaded = load_game("momiji")
    table = practice_table("momiji", "en")
    config = {k: v for k, v in table.session.config.items() if k != "practice"}
    people = Session(loaded, config)
    assert not context_for(people).practice and context_for(table.session).practice


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("learn", [False, True], ids=["practice", "learn"])
def test_the_table_answers_hand_heard_with_the_players_hand(game: str, learn: bool) -> None:
    table = practice_table(game, "en", learn=learn)
    log = list(table.session.log)
    messages = table.handle(InputItem("voice", event=Recognition("hand", 0.9, "my hand")))
    assert messages and all(m.event == "hand" and m.private_to == 0 for m in messages)
    assert list(table.session.log) == log  # a question: the game is as it was


# What espeak-ng says and the models hear (measured: espeak-ng's French "main" and Spanish
# "mano" alone, and its Ukrainian "рука", are heard below the refusal floor, and its French
# "ma main" in Momiji is written "maman"; those are checked on text above).
SPOKEN = [("en", "my hand", "en-us"), ("en", "hand", "en-us"), ("fr", "ma main", "fr"),
          ("es", "mi mano", "es"), ("uk", "карти", "uk")]
HEARD = [(game, *s) for game in GAMES for s in SPOKEN if (game, s[0]) != ("momiji", "fr")]


@pytest.fixture(scope="module")
def engines():  # type: ignore[no-untyped-def]
    yield from whisper_engines()


@pytest.mark.skipif(ESPEAK is None, reason="espeak-ng is not installed")
@pytest.mark.parametrize(("game", "lang", "said", "voice"), HEARD,
                         ids=[f"{h[0]}-{h[2]}" for h in HEARD])
def test_hand_said_in_practice_says_the_hand(engines, tmp_path: Path, game: str, lang: str,
                                             said: str, voice: str) -> None:  # type: ignore[no-untyped-def]
    table = practice_table(game, lang)
    session = table.session
    recognizer = session.game.voice().make_recognizer(engines(lang))
    heard = recognizer.recognize(speak(tmp_path, said, voice), context_for(session))
    assert heard.command == "hand", heard
    log = list(session.log)
    messages = table.handle(InputItem("voice", event=heard))
    assert messages and all(m.event == "hand" and m.private_to == 0 for m in messages)
    assert list(session.log) == log
