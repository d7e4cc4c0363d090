"""Say it once, then less (issue 28, part 4): each prompt and narration is said in full the
first time the table hears it in a game, then short, keeping every fact a player needs;
help and repeat say it in full; back marks earlier announcements; brief mode keeps the
geisha counts and leaves the markers in the middle unsaid."""

from __future__ import annotations

import re

import pytest

from companion.games.hanamikoji import Hanamikoji
from companion.games.hanamikoji.data import GEISHAS, Item, Token
from companion.narrate.catalogue import LANGUAGES, Alternatives, Catalogue
from companion.narrate.message import Message
from companion.session import Session

NAMES = ("Ana", "Ben")


def session(*lines: str, lang: str = "en") -> Session:
    s = Session(Hanamikoji(), {"players": list(NAMES), "lang": lang})
    s.start()
    for line in lines:
        s.handle(line)
    return s


def text(messages, lang: str = "en", verbosity: str = "normal") -> str:
    catalogue = Catalogue(lang, verbosity)
    return " ".join(catalogue.render(m) for m in messages if m.private_to is None)


def test_a_prompt_is_said_in_full_once_then_short():
    s = session("gift flute fan tea", "take fan")
    first = s.handle("secret")  # Ben's Secret; the turn prompt came in full at the start
    assert text(first).endswith("Ana: your turn; Secret, Discard or Competition left.")
    again = s.handle("repeat")
    full = "Ana: draw a card, then choose an action: Secret (1), Discard (2) or Competition (4)."
    assert text(again).endswith(full)  # repeat: in full
    assert text(s.handle("help")).endswith(full)


# The facts a player needs from each message in its short form: (key, params, facts said).
GIFT = (Item.FLUTE, Item.FAN, Item.TEA)
FACTS = [
    ("turn", {"player": "Ana", "tokens": Alternatives([Token.GIFT, Token.COMPETITION]), "n": 2},
     ["Ana", "Gift", "Competition"]),
    ("turn", {"player": "Ana", "tokens": Alternatives([Token.GIFT]), "n": 1},
     ["Ana", "last", "Gift"]),
    ("answer_gift", {"player": "Ben"}, ["Ben", "take"]),
    ("answer_competition", {"player": "Ben"}, ["Ben", "1", "2"]),
    ("reveal_prompt", {"player": "Ben"}, ["Ben", "Secret"]),
    ("cards_for_gift", {"player": "Ana"}, ["Ana", "Gift", "three"]),
    ("cards_for_competition", {"player": "Ana"}, ["Ana", "four", "pair"]),
    ("round_start", {"round": 2, "player": "Ben"}, ["2", "Ben", "deal"]),
    ("played_secret", {"player": "Ben"}, ["Ben", "Secret"]),
    ("played_discard", {"player": "Ben"}, ["Ben", "Discard"]),
    ("offer_gift", {"player": "Ana", "cards": GIFT, "other": "Ben"},
     ["Ana", "flute", "fan", "tea set"]),
    ("offer_competition", {"player": "Ana", "first": (Item.FLUTE, Item.FAN),
                           "second": (Item.TEA, Item.FLOWER), "other": "Ben"},
     ["Ana", "competition", "1: flute and fan", "2: tea set and flower"]),
    ("took", {"chooser": "Ben", "received": (Item.FAN,), "offerer": "Ana",
              "kept": (Item.FLUTE, Item.TEA)}, ["Ben", "fan"]),
    ("revealed", {"player": "Ben", "card": Item.FLOWER}, ["Ben", "Secret", "flower"]),
    ("geisha_scored", {"geisha": GEISHAS[6], "card": Item.FLOWER, "a": "Ana", "na": 2,
                       "b": "Ben", "nb": 1, "favour": Message("", "favour_to",
                                                              {"player": "Ana"})},
     ["Ruri", "2", "1", "Ana"]),
    ("round_scored", {"round": 1, "a": "Ana", "ga": 4, "pa": 9, "b": "Ben", "gb": 2,
                      "pb": 11}, ["1", "Ana", "4 geishas", "9 points", "Ben", "2 geishas",
                                  "11 points"]),
    ("all_played", {}, ["played"]),
]


@pytest.mark.parametrize(("key", "params", "facts"), FACTS, ids=[f[0] for f in FACTS])
def test_the_short_form_keeps_what_a_player_needs(key, params, facts):
    catalogue = Catalogue("en")
    full = catalogue.render(Message("x", key, params))
    short = catalogue.render(Message("x", key, params, short=True))
    assert len(short) < len(full) or key == "revealed", (full, short)
    for fact in facts:
        assert fact in short, (key, fact, short)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_language_has_the_short_forms_with_the_same_placeholders(lang):
    import string

    catalogue = Catalogue(lang, games=("hanamikoji",))
    english = Catalogue("en", games=("hanamikoji",))
    for key in english.section("messages")["short"]:
        short = catalogue.section("messages").get("short", {}).get(key)
        assert short is not None, (lang, key)
        full = catalogue.section("messages")[key]
        def fields(t):
            texts = t.values() if isinstance(t, dict) else [t]
            return {n for x in texts for _, n, _, _ in string.Formatter().parse(x) if n}
        assert fields(short) <= fields(full) | {"player"}, (lang, key)


def test_every_action_is_played_is_said_once_before_the_reveals():
    s = session()
    lines = ["gift flute fan tea", "take fan", "gift scroll umbrella shamisen", "take scroll",
             "competition flower flower / tea tea", "take 1", "competition flute fan / "
             "umbrella shamisen", "take 1", "secret", "secret", "discard", "discard"]
    said = []
    for line in lines:
        said.append(text(s.handle(line)))
    said.append(text(s.handle("reveal flute")))
    joined = " ".join(said)
    assert joined.count("Every action is played.") == 1
    assert joined.index("Every action is played.") < joined.index("reveal your Secret")


def test_back_says_how_far_back_and_leaves_old_questions_out():
    s = session("gift flute fan tea")
    s.handle("take fan")
    back = s.handle("back")
    assert back[0].key == "earlier" and back[0].params["n"] == 1
    assert text(back).startswith("Earlier, 1 announcement back: Ana offers a gift")
    assert "take one" not in text(back)  # the offer's question is answered: not waiting
    back = s.handle("back")
    assert back[0].params["n"] == 2
    assert s.handle("forward")[0].params["n"] == 1
    latest = s.handle("forward")
    assert latest[0].key != "earlier" and latest[-1].event == "repeat"


def test_brief_keeps_the_geisha_counts_and_leaves_middle_markers_unsaid():
    catalogue = Catalogue("en", "brief")
    end = catalogue.render(Message("round_scored", "round_scored", {
        "round": 1, "a": "Ana", "ga": 4, "pa": 9, "b": "Ben", "gb": 2, "pb": 11}))
    assert "4 geishas" in end and "2 geishas" in end
    s = session("gift flute fan tea", "take fan", "competition scroll tea / umbrella flower",
                "take 1")
    board = text(s.handle("board"), verbosity="brief")
    assert "middle" not in re.sub(r"No cards yet, markers? in the middle", "", board), board
    assert "Iroha" in board and "Ayane" in board
