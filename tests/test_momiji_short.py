"""Momiji says it once, then less (issue 28, part 4): each prompt and narration is said in
full the first time the table hears it in a game, then short; `help` and `repeat` say it
in full. Every short form keeps the facts a player needs: whose turn it is, what is asked,
what is left. FACTS lists them for each message, checked in both forms and in the four
languages, so a short form that drops one fails here."""

from __future__ import annotations

import string
from dataclasses import replace
from typing import Any

import pytest

from companion.games.momiji import Momiji
from companion.games.momiji.data import Leaf, Objective
from companion.games.momiji.narrate import P, cards, colour, leaves, m, objective
from companion.games.momiji.simulate import table_script
from companion.narrate.catalogue import LANGUAGES, Alternatives, Catalogue
from companion.narrate.message import Message, Priority
from companion.session import Session
from stickers.colours import Colour

G, R = Colour.GREEN, Colour.RED

# The words of a fact, per language (any one of them, case ignored).
WORDS: dict[str, dict[str, tuple[str, ...]]] = {
    "end": {"en": ("end",), "fr": ("fin",), "es": ("fin", "terminar"), "uk": ("кінець",)},
    "ends": {"en": ("ends",), "fr": ("fini",), "es": ("termina",), "uk": ("завершує",)},
    "bonus": {"en": ("bonus",), "fr": ("bonus",), "es": ("bonificación",),
              "uk": ("бонус",)},
    "landscape": {"en": ("landscape",), "fr": ("paysage",), "es": ("paisaje",),
                  "uk": ("пейзаж",)},
    "trade": {"en": ("trade",), "fr": ("défausse",), "es": ("descartar",),
              "uk": ("обмін",)},
    "your move": {"en": ("your move", "collect a column"), "fr": ("à vous", "prenez"),
                  "es": ("te toca", "coge una columna"),
                  "uk": ("ваш хід", "візьміть стовпець")},
    "column": {"en": ("collect",), "fr": ("colonne",), "es": ("columna",),
               "uk": ("стовпець",)},
    "acorn": {"en": ("acorn",), "fr": ("gland",), "es": ("bellota",), "uk": ("жолуд",)},
    "card": {"en": ("card",), "fr": ("carte",), "es": ("carta",), "uk": ("карт",)},
    "last": {"en": ("last",), "fr": ("dernier",), "es": ("último",), "uk": ("останній",)},
    "leaf types": {"en": ("leaf type",), "fr": ("types de feuilles",),
                   "es": ("tipos de hoja",), "uk": ("типів листків",)},
    "objectives": {"en": ("objective",), "fr": ("objectif",), "es": ("objetivo",),
                   "uk": ("цілей",)},
    "garden": {"en": ("garden",), "fr": ("jardin",), "es": ("jardín",), "uk": ("сад",)},
    "four": {"en": ("4",), "fr": ("4",), "es": ("4",), "uk": ("чотири",)},
    "draw pile": {"en": ("draw pile",), "fr": ("pioche",), "es": ("mazo",),
                  "uk": ("колод",)},
    "unknown": {"en": ("unknown",), "fr": ("inconnu",), "es": ("desconocido",),
                "uk": ("невідомо",)},
    "two cards": {"en": ("two cards",), "fr": ("deux cartes",), "es": ("dos cartas",),
                  "uk": ("дві карти",)},
    "gain": {"en": ("gain",), "fr": ("gagner",), "es": ("ganar",), "uk": ("отримати",)},
    "lose": {"en": ("lose",), "fr": ("perdre",), "es": ("perder",), "uk": ("втратити",)},
    "draw": {"en": ("draw",), "fr": ("piocher",), "es": ("robar",), "uk": ("добрати",)},
    "place": {"en": ("place",), "fr": ("placer",), "es": ("colocar",), "uk": ("докласти",)},
    "2 acorns": {"en": ("2 acorns",), "fr": ("2 glands",), "es": ("2 bellotas",),
                 "uk": ("жолуді",)},  # "отримує жолуді …: 2"
    "torii": {"en": ("torii",), "fr": ("torii",), "es": ("torii",), "uk": ("торії",)},
}


class W(str):
    """A fact said in words: a key of WORDS."""


def options(*names: str) -> Alternatives:
    return Alternatives(m(f"option.{n}") for n in names)


def after_main(bonus: bool, optional: str, limit: Message, left: tuple[str, ...]) -> dict:
    return {"player": "Ana", "bonus": m("hint_bonus") if bonus else m("blank"),
            "limit": limit, "optional": m(optional) if optional else m("blank"),
            "options": options(*left)}


GREENS = (Leaf(G, 1), Leaf(G, 2))
REDS = (Leaf(R, 1), Leaf(R, 3))

# (key under momiji., its params as narrate gives them, the facts each form must say).
# A Message among the facts is said as the catalogue words it (a colour, an objective).
# The end of a turn says who ends: the acorns are said at each change and the hand at the
# player's next turn start, nothing happening to either in between. A reveal is followed
# by the garden, which names the cards revealed.
FACTS: list[tuple[str, dict[str, Any], list[Any]]] = [
    ("prompt.colours", {"types": 5, "n": 1}, ["5", W("leaf types")]),
    ("prompt.objectives", {"n": 5}, ["5", W("objectives")]),
    ("prompt.garden", {"first": colour(G), "second": colour(R)}, [W("four"), W("garden")]),
    ("prompt.pile", {}, [W("draw pile"), W("unknown")]),
    ("prompt.main", {"player": "Ana"}, ["Ana", W("your move")]),
    ("prompt.stuck", {"player": "Ana"}, ["Ana", W("end")]),
    ("prompt.collect", {"player": "Ana"}, ["Ana", W("column")]),
    ("prompt.after_main", after_main(True, "hint_optional", m("blank"),
                                     ("bonus", "landscape", "trade", "end")),
     ["Ana", W("end"), W("bonus"), W("landscape"), W("trade")]),
    ("prompt.after_main", after_main(False, "", m("blank"), ("end",)), ["Ana", W("end")]),
    ("prompt.after_main", after_main(False, "hint_optional", m("hint_limit", hand=10, n=2),
                                     ("landscape", "trade", "end")),
     ["Ana", W("end"), W("landscape"), W("trade"), "10", "2"]),
    ("prompt.after_main", after_main(False, "hint_optional_trade",
                                     m("hint_limit_name", hand=11, n=3), ("trade", "end")),
     ["Ana", W("end"), W("trade"), "11", "3"]),
    ("hint_limit", {"hand": 10, "n": 2}, ["10", "2"]),
    ("hint_limit_name", {"hand": 11, "n": 3}, ["11", "3", W("end")]),
    ("prompt.effect", {"player": "Ana", "card": 2},
     ["Ana", W("gain"), W("lose"), W("draw"), W("place")]),
    ("turn_start", {"player": "Ana", "acorns": 4, "hand": 6, "n": 6},
     ["Ana", "4", "6", W("acorn"), W("card")]),
    ("last_turn", {"player": "Ana", "acorns": 4, "hand": 6, "n": 6},
     ["Ana", "4", "6", W("acorn"), W("card"), W("last")]),
    ("turn_end", {"player": "Ana", "hand": 3, "acorns": 6, "n": 3}, ["Ana", W("ends")]),
    ("collected", {"player": "Ana", "colour": colour(G), "cards": cards(GREENS),
                   "leaves": leaves(GREENS), "hand": 8, "n": 2}, ["Ana", colour(G), "8"]),
    ("revealed", {"player": "Ana", "cards": cards(GREENS), "leaves": leaves(GREENS),
                  "acorns": 4}, ["Ana", "4", W("acorn")]),
    ("overflow", {"cards": cards(REDS), "leaves": leaves(REDS)}, [colour(R), "1", "3"]),
    ("pile_left", {"n": 12}, ["12"]),
    ("placed", {"player": "Ana", "cards": cards(GREENS), "leaves": leaves(GREENS)},
     ["Ana", colour(G), "1", "2"]),
    ("placed_extra", {"player": "Ana", "cards": cards(GREENS), "leaves": leaves(GREENS)},
     ["Ana", colour(G), "1", "2"]),
    ("bonus", {"player": "Ana", "n": 2, "gain": 4, "acorns": 6}, ["Ana", "4", "6", W("bonus")]),
    ("activated", {"player": "Ana", "objective": objective(Objective.TORII), "n": 2,
                   "cost": 3}, ["Ana", objective(Objective.TORII), "2"]),
    # the player is named by the effect prompt that follows (test_momiji_host.py)
    ("landscape", {"player": "Ana", "card": 2, "n": 3}, ["2", "3", W("landscape")]),
    ("traded", {"player": "Ana", "cards": [], "leaves": [], "n": 6},
     ["Ana", "6", W("two cards")]),
    ("traded_named", {"player": "Ana", "cards": cards(REDS), "leaves": leaves(REDS), "n": 6},
     ["Ana", colour(R), "1", "3", "6"]),
    ("gained", {"player": "Ana", "change": 2, "n": 5}, ["Ana", "2", "5", W("2 acorns")]),
    ("lost", {"player": "Ana", "change": 2, "n": 5}, ["Ana", "2", "5", W("2 acorns")]),
    ("drew", {"player": "Ana", "n": 2, "hand": 7}, ["Ana", "2", "7"]),
    ("closed_torii", {"player": "Ana", "colour": colour(G), "n": 4},
     ["Ana", colour(G), "4", W("torii")]),
    ("limit_discard", {"player": "Ana", "n": 2, "limit": 8}, ["Ana", "2"]),
    # the final scoring: which objective, whose it is, who scores what points
    ("objective_scored", {"objective": objective(Objective.TORII), "owner": "Ben",
                          "values": [m("measure", player="Ana", value=2)],
                          "detail": [m("achiever", player="Ana", points=7)]},
     [objective(Objective.TORII), "Ben", "Ana", "7"]),
    ("objective_scored", {"objective": objective(Objective.ZERO), "owner": "Cy",
                          "values": [m("measure", player="Ana", value=0)],
                          "detail": m("nobody")}, [objective(Objective.ZERO), "Cy", m("nobody")]),
]
CASES = [(lang, *f) for lang in LANGUAGES for f in FACTS]


def said(catalogue: Catalogue, fact: Any) -> tuple[str, ...]:
    if isinstance(fact, W):
        return WORDS[fact][catalogue.lang]
    if isinstance(fact, Message):
        return (catalogue.render(fact),)
    return (fact,)


@pytest.mark.parametrize(("lang", "key", "params", "facts"), CASES,
                         ids=[f"{c[0]}-{c[1]}" for c in CASES])
def test_full_and_short_forms_keep_the_facts(lang, key, params, facts):
    catalogue = Catalogue(lang, games=("momiji",))
    full = catalogue.render(Message("x", P + key, params))
    short = catalogue.render(Message("x", P + key, params, short=True))
    for text in (full, short):
        assert "{" not in text and P not in text, (lang, key, text)
        for fact in facts:
            words = said(catalogue, fact)
            assert any(w.lower() in text.lower() for w in words), (lang, key, fact, text)
    assert len(short) < len(full), (lang, key, full, short)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_short_form_is_listed_and_every_language_has_them(lang):
    """Each short form of any language is in FACTS (so its facts are checked), each
    language has every English one, and a short form uses only what narrate gives."""
    english = Catalogue("en", games=("momiji",)).section("messages")["short"]["momiji"]
    own = Catalogue(lang, games=("momiji",)).section("messages")["short"]["momiji"]

    def keys(table: dict, prefix: str = "") -> set[str]:
        return {k for name, v in table.items()
                for k in (keys(v, f"{prefix}{name}.") if name == "prompt" else
                          {prefix + name})}

    listed = {key for key, _, _ in FACTS}
    assert keys(own) == keys(english), lang
    assert keys(own) <= listed, keys(own) - listed
    fields = {key: set(params) for key, params, _ in FACTS}
    for key in keys(own):
        table: Any = own
        for part in key.split("."):
            table = table[part]
        texts = table.values() if isinstance(table, dict) else [table]
        used = {n.split(":")[0] for t in texts for _, n, _, _ in string.Formatter().parse(t)
                if n}
        assert used <= fields[key], (lang, key, used - fields[key])


NAMES = ["Ana", "Ben", "Cy"]
SETUP = ["without red", "cool acorns torii zero placed", "green 0 brown 0 violet 0 yellow 1",
         "8"]


def session(lang: str = "en") -> Session:
    s = Session(Momiji(), {"players": NAMES, "lang": lang})
    s.start()
    for line in SETUP:
        s.handle(line)
    return s


def text(messages: list[Message], lang: str = "en") -> str:
    catalogue = Catalogue(lang, games=("momiji",))
    return " ".join(catalogue.render(x) for x in messages if x.private_to is None)


def test_a_prompt_is_said_in_full_once_then_short_and_help_and_repeat_say_it_in_full():
    s = session()
    full = "Ben: collect a column, play leaves or activate an objective."
    first = text(s.handle("play green 0 brown 0 yellow 0"))
    assert first.endswith("Ana: say end when your turn is over. Harvest bonus: say bonus and "
                          "the number of connections. You may still use a landscape or trade "
                          "two cards."), first
    assert text(s.handle("bonus 1")).endswith("Ana: landscape, trade or end.")
    turn = text(s.handle("end"))
    assert turn == ("Ana ends the turn with 3 cards and 6 acorns. Ben: 5 acorns, 6 cards. "
                    "Ben: your move."), turn
    assert text(s.handle("repeat")).endswith(full)
    assert text(s.handle("help")).endswith(full)
    # a refusal says why, then the prompt short: it was heard in full just before
    refused = s.handle("play green 3")
    assert refused[0].event == "error" and text(refused).endswith("Ben: your move.")


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_prompt_of_a_whole_game_names_the_player_and_is_short_once_heard(lang):
    """A whole simulated game: each prompt during the turns names whose turn it is, and a
    prompt is said in full the first time only."""
    s = Session(Momiji(), {"players": NAMES, "lang": lang})
    s.start()
    heard: set[str] = set()
    catalogue = Catalogue(lang, games=("momiji",))
    shortened = 0
    for line in table_script(3, 3):
        for message in s.handle(line):
            if message.priority is not Priority.PROMPT or message.key == "game_is_over":
                continue
            assert message.short == (message.key in heard), (line, message.key)
            heard.add(message.key)
            shortened += message.short
            if ".prompt." in message.key and s.state.phase.value == "turn":
                said_text = catalogue.render(message)
                assert NAMES[s.state.to_move] in said_text, (lang, line, said_text)
    assert shortened > 30


def test_the_short_form_follows_the_verbosity_rules():
    """detailed never shortens; brief keeps the short form when it is shorter."""
    message = Message("prompt", P + "prompt.main", {"player": "Ana"}, short=True)
    assert Catalogue("en", "detailed", games=("momiji",)).render(message) == (
        "Ana: collect a column, play leaves or activate an objective.")
    assert Catalogue("en", "brief", games=("momiji",)).render(message) == "Ana: your move."
    assert Catalogue("en", games=("momiji",)).render(replace(message, short=False)) == (
        "Ana: collect a column, play leaves or activate an objective.")
