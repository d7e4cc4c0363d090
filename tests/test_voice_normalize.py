"""Recognized words → canonical text, in English and French, including Vosk's shapes."""

from __future__ import annotations

import json

import pytest

from companion.games.hanamikoji.data import Item
from companion.games.hanamikoji.voice.context import Context
from companion.games.hanamikoji.voice.lexicon import ENGLISH, FRENCH, PRONUNCIATIONS, lexicon
from companion.games.hanamikoji.voice.words import normalize, vosk_result

GIFT = Context.answer_gift([Item.FAN, Item.TEA, Item.FLUTE])
PAIRS = Context.answer_competition([Item.FAN, Item.FLUTE], [Item.TEA, Item.FLOWER])


@pytest.mark.parametrize(("words", "context", "expected"), [
    ("gift flute, fan and tea", None, "gift flute fan tea"),
    ("gift purple red green", None, "gift flute fan tea"),
    ("gift grapes heart clover", None, "gift flute fan tea"),
    ("gift ayane iroha anju", None, "gift flute fan tea"),
    ("gift one two six", None, "gift flute fan tea"),
    ("token three paper parasol tea set", None, "gift scroll umbrella tea"),
    ("competition red blue, green pink", None, "competition fan umbrella / tea flower"),
    ("competition red blue / green pink", None, "competition fan umbrella / tea flower"),
    ("take the first pair", None, "take 1"),
    ("take pair two", None, "take 2"),
    ("take the flower", None, "take flower"),
    ("I take the fan", None, "take fan"),
    ("the secret", None, "secret"),
    ("token one", None, "secret"),
    ("one", None, None),  # a bare number is never an action
    ("I discard", None, "discard"),
    ("show me the score", None, "score"),
    ("undo", None, "undo"),
    ("reveal the moon", None, "reveal scroll"),
    ("my secret is the drop", None, "reveal umbrella"),
    ("yes", None, "yes"),
    ("nope", None, "no"),
    ("gift flute fan", None, None),  # a gift is three cards
    ("secret flute and fan", None, None),
    ("what time is it", None, None),
    ("", None, None),
    ("tea", GIFT, "take tea"),
    ("take the flower", GIFT, None),  # not offered
    ("take the red", GIFT, "take fan"),
    ("the first pair", PAIRS, "take 1"),
    ("take the green", PAIRS, "take 2"),
    ("red and purple", PAIRS, "take 1"),
    ("clover", Context.reveal(), "reveal tea"),
    ("yes", Context.action(), None),
    ("gift flute fan tea", Context.action({"discard"}), None),  # token already used
    ("discard", Context.action({"discard"}), "discard"),
    ("<sil> the secret [noise]", None, "secret"),
])
def test_english(words: str, context: Context | None, expected: str | None) -> None:
    assert normalize(words, "en", context) == expected


def test_card_in_both_pairs_is_ambiguous() -> None:
    ctx = Context.answer_competition([Item.FAN, Item.TEA], [Item.FAN, Item.FLOWER])
    assert normalize("take the fan", "en", ctx) is None
    assert normalize("take the tea", "en", ctx) == "take 1"


@pytest.mark.parametrize(("words", "expected"), [
    ("offre flûte éventail thé", "gift flute fan tea"),
    ("prendre la première paire", "take 1"),
    ("échange rouge bleu vert rose", "competition fan umbrella / tea flower"),
    ("je prends l'éventail", "take fan"),
    ("dépôt", "discard"),
    ("depot", "discard"),
    ("secret", "secret"),
    ("score", "score"),
    ("plateau", "board"),
    ("annuler", "undo"),
    ("oui", "yes"),
    ("non", "no"),
    ("offre service à thé cœur lune", "gift fan scroll tea"),
    ("quelle heure est-il", None),
])
def test_french(words: str, expected: str | None) -> None:
    assert normalize(words, "fr") == expected


def test_vosk_shapes() -> None:
    assert normalize('{"text": "offre flûte éventail thé"}', "fr") == "gift flute fan tea"
    result = {"result": [{"word": "dépôt", "conf": 0.93, "start": 0.1, "end": 0.5}],
              "text": "dépôt"}
    assert normalize(result, "fr") == "discard"
    assert normalize(json.dumps(result), "fr") == "discard"
    assert vosk_result(result) == ("dépôt", 0.93)
    two = {"result": [{"word": "oui", "conf": 1.0}, {"word": "non", "conf": 0.4}]}
    assert vosk_result(two) == ("oui non", 0.4)
    assert vosk_result('{"partial": "offre"}') == ("offre", None)
    alts = {"alternatives": [{"text": "score", "confidence": 212.5}]}
    assert vosk_result(alts) == ("score", 212.5)
    assert normalize('{"text": "[unk] éventail"}', "fr") is None
    with pytest.raises(ValueError):
        vosk_result("[1, 2]")


def test_lexicon_from_game_data() -> None:
    for item in Item:
        assert item.word in ENGLISH.card_words(item) or item is Item.TEA
        assert ENGLISH.cards[item.geisha.name.lower()] is item
    assert ENGLISH.cards["purple"] is Item.FLUTE and ENGLISH.cards["tea set"] is Item.TEA
    assert FRENCH.cards["éventail"] is Item.FAN
    assert lexicon("fr-FR") is FRENCH
    with pytest.raises(ValueError, match="no voice lexicon"):
        lexicon("de")
    from companion.games.hanamikoji.voice.grammar import PHONES
    phones = set(PHONES)
    for word, prons in PRONUNCIATIONS.items():
        for pron in prons:
            assert set(pron.split()) <= phones, word


def test_spoken_card_order_gives_the_one_canonical_text() -> None:
    from companion.games.hanamikoji.interpret import parse_command

    for words in ("gift tea fan flute", "competition fan tea flower flute"):
        text = normalize(words)
        assert text is not None
        assert parse_command(text).text() == text
    assert normalize("gift tea fan flute") == "gift flute fan tea"
    assert normalize("competition fan tea flower flute") == "competition fan tea / flute flower"
