"""The guide of a first game (companion/learn/guide.py): each lesson said once, where it
belongs (before a prompt, after narration), the summary at the end; each game's lessons in
four languages, brought by keys its catalogue really has."""

from __future__ import annotations

import pytest

from companion.games.registry import game_names, load_game
from companion.learn.guide import Guide, Lesson, LessonsMissing, load_lessons
from companion.narrate.catalogue import LANGUAGES, Catalogue
from companion.narrate.message import Message


def _guided() -> list[str]:
    names = []
    for name in game_names():
        try:
            load_lessons(name, "en")
        except LessonsMissing:
            continue
        names.append(name)
    return names


def test_hanamikoji_has_lessons() -> None:
    assert "hanamikoji" in _guided()


@pytest.mark.parametrize("game", _guided())
@pytest.mark.parametrize("lang", LANGUAGES)
def test_lessons_are_the_same_in_every_language(game: str, lang: str) -> None:
    lessons = load_lessons(game, lang)
    english = load_lessons(game, "en")
    assert [(x.id, x.after) for x in lessons] == [(x.id, x.after) for x in english]
    for lesson in lessons:
        assert lesson.title and 40 < len(lesson.text) < 400, (lang, lesson.id)


@pytest.mark.parametrize("game", _guided())
def test_every_key_that_brings_a_lesson_is_one_the_game_says(game: str) -> None:
    catalogue = Catalogue("en", games=(game,))
    for lesson in load_lessons(game, "en"):
        for key in lesson.after:
            assert catalogue.render(Message("x", key)) != key, (lesson.id, key)


LESSONS = (Lesson("turn", ("turn",), "a turn", "Draw, then play a token."),
           Lesson("gift", ("offer_gift",), "the Gift", "The Gift token has three dots."))


def test_each_lesson_is_said_once_before_a_prompt_and_after_narration() -> None:
    guide = Guide(LESSONS)
    turn = Message("prompt", "turn")
    first = guide.annotate([Message("game_started", "game_start"), turn])
    assert [m.key for m in first] == ["learn.intro", "game_start", "learn.lesson", "turn"]
    assert first[2].data["lesson"] == "turn"
    again = guide.annotate([turn])
    assert again == [turn]
    offer = Message("offer", "offer_gift")
    said = guide.annotate([offer, turn])
    assert [m.key for m in said] == ["offer_gift", "learn.lesson", "turn"]
    assert said[1].params["text"] == "The Gift token has three dots."
    assert guide.annotate([offer]) == [offer]


def test_the_summary_names_what_was_met_and_what_was_not() -> None:
    guide = Guide(LESSONS)
    guide.annotate([Message("prompt", "turn")])
    end = guide.annotate([Message("game_over", "win_points")])
    assert [m.key for m in end] == ["win_points", "learn.summary", "learn.not_met"]
    assert end[1].params["lessons"] == ["a turn"] and end[2].params["lessons"] == ["the Gift"]
    assert guide.annotate([Message("quit", "quit_over")]) == [Message("quit", "quit_over")]


def test_quitting_early_still_says_the_summary() -> None:
    guide = Guide(LESSONS)
    said = guide.annotate([Message("quit", "quit_saved")])
    assert [m.key for m in said] == ["learn.intro", "learn.summary", "learn.not_met",
                                     "quit_saved"]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_guide_sentences_render_in_each_language(lang: str) -> None:
    catalogue = Catalogue(lang, games=("hanamikoji",))
    guide = Guide(load_lessons("hanamikoji", lang))
    said = guide.annotate([Message("prompt", "turn"), Message("offer", "offer_gift")])
    said += guide.annotate([Message("game_over", "win_points")])
    ours = [m for m in said if m.key.startswith("learn.")]
    assert len(ours) == 5  # intro, two lessons, summary, not met
    for m in ours:
        text = catalogue.render(m)
        assert "{" not in text and not text.startswith("learn."), text


def test_a_game_without_lessons_says_so() -> None:
    with pytest.raises(LessonsMissing):
        load_lessons("hanamikoji", "xx")
    assert load_game("hanamikoji").locales() is not None
