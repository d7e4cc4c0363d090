"""Momiji says it once too (issue 28, part 4): the garden prompt's example names leaf types
in play, a landscape used asks for its effect, acorns gained are said as acorns."""

from __future__ import annotations

from companion.games.momiji import Momiji
from companion.narrate.catalogue import LANGUAGES, Catalogue
from companion.narrate.message import Message
from companion.session import Session


def session(lang: str = "en") -> Session:
    s = Session(Momiji(), {"players": ["Ana", "Ben", "Cy"], "lang": lang})
    s.start()
    return s


def said(messages, lang: str = "en") -> str:
    catalogue = Catalogue(lang)
    return " ".join(catalogue.render(m) for m in messages if m.private_to is None)


def test_the_garden_prompt_gives_an_example_in_play():
    s = session()
    s.handle("without red")
    out = s.handle("cool acorns torii zero placed")
    prompt = said(out).rpartition("Which 4 cards")[2]
    assert "red" not in prompt, prompt  # red is not in play
    assert "like green 0, " in prompt


def test_a_landscape_asks_for_its_effect_and_gains_say_acorns():
    s = session()
    for line in ("without red", "cool acorns torii zero placed",
                 "green 0 brown 0 violet 0 yellow 1", "8",
                 "play green 0 brown 0 yellow 0"):
        s.handle(line)
    out = s.handle("landscape 2")
    # the effect question is the last thing heard (it is the prompt), not "Ana: your move."
    assert said(out[-1:]).startswith("Ana: what does landscape 2 do?"), said(out)
    assert said(out).count("landscape 2 do?") == 1, said(out)
    assert said(s.handle("repeat")).endswith(said(out[-1:]))
    assert said(s.handle("what")).endswith("Ana: gain, lose, draw or place?")  # heard: short
    gained = s.handle("gain 2")
    assert "gains 2 acorns from a landscape" in said(gained), said(gained)
    assert "landscape 2 do?" not in said(gained) and said(gained[-1:]).startswith("Ana: ")


def test_every_language_says_the_effect_question():
    for lang in LANGUAGES:
        text = Catalogue(lang).render(
            Message("x", "momiji.prompt.effect", {"player": "Ana", "card": 2}))
        assert "2" in text and "Ana" in text and "{" not in text, (lang, text)
