"""Momiji's help says its reading of the objective scoring in its own words, in each
language, with the points the rules engine gives (not a quotation of the rule text)."""

from __future__ import annotations

import pytest

from companion.games.momiji.data import OTHER_POINTS, OWNER_POINTS
from companion.narrate.catalogue import Catalogue
from companion.narrate.message import Message

QUOTED = ("moins 10", "menos 10", "minus 10", "мінус 10", "seed", "règle", "reglas", "правил")


@pytest.mark.parametrize("lang", ["en", "fr", "es", "uk"])
def test_scoring_reading_in_the_companions_words(lang):
    text = Catalogue(lang).render(Message("help", "momiji.help.turn"))
    assert not any(q in text.lower() for q in QUOTED), text
    assert f" {OWNER_POINTS} " in text and f" {OTHER_POINTS}" in text, text
