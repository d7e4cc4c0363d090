"""Momiji commands said in Spanish and Ukrainian mean the same values as in English.

The words live in companion/games/momiji/lexicon.py next to the English and French ones;
the lines below are what a player would say after hearing momiji.es.toml / momiji.uk.toml.
"""

from __future__ import annotations

import pytest

from companion.games.momiji import lexicon as lx
from companion.games.momiji.actions import (
    Activate,
    Bonus,
    Collect,
    Colours,
    Draw,
    Empty,
    End,
    Gain,
    Garden,
    Landscape,
    Objectives,
    PileSize,
    Place,
    Play,
    Reveal,
    Trade,
)
from companion.games.momiji.data import LEAVES, Leaf, Objective
from companion.games.momiji.interpret import interpret
from companion.games.momiji.rules import apply, new_game, replay
from companion.normalize import fold
from companion.shared_commands import Ask, Query, Undo

G, B, V, Y, O, R = LEAVES  # noqa: E741


def at(phase: str):
    """Three players (five leaf types, orange left out) up to `phase`; four for a turn."""
    if phase == "turn":
        return replay(new_game(4), [
            Objectives((Objective.GREEN, Objective.COOL, Objective.ACORNS, Objective.TORII,
                        Objective.SUM, Objective.TALLEST)),
            Garden((Leaf(G, 0), Leaf(B, 0), Leaf(R, 0), Leaf(Y, 1))), PileSize(20)])
    steps = {"colours": [], "objectives": [Colours((G, B, V, Y, R))]}
    steps["garden"] = [*steps["objectives"], Objectives(
        (Objective.COOL, Objective.ACORNS, Objective.TORII, Objective.ZERO, Objective.SUM))]
    steps["pile"] = [*steps["garden"], Garden((Leaf(G, 0), Leaf(B, 0), Leaf(V, 0), Leaf(Y, 1)))]
    return replay(new_game(3), steps[phase])


@pytest.mark.parametrize(("phase", "lines", "expected"), [
    ("colours", ["sin naranja", "verde marrón uvas luna corazón",
                 "verde marrón morado amarillo rojo", "без помаранчевого",
                 "зелений коричневий фіолетовий жовтий червоний",
                 "конюшина чотири квадрати виноград місяць серце"],
     Colours((G, B, V, Y, R))),
    ("objectives", ["frías bellotas torii cero suma", "холодні жолуді торії нуль сума",
                    "objetivos suma cero torii bellotas frías", "7 9 10 0 15"],
     Objectives((Objective.COOL, Objective.ACORNS, Objective.TORII, Objective.ZERO,
                 Objective.SUM))),
    ("garden", ["verde 0 rojo 2 3 amarillo 1", "jardín trébol cero corazón dos tres luna uno",
                "сад зелений 0 червоний 2 3 жовтий 1", "конюшина нуль серце два три місяць один"],
     Garden((Leaf(G, 0), Leaf(R, 2), Leaf(R, 3), Leaf(Y, 1)))),
    ("pile", ["mazo 20", "колода 20"], PileSize(20)),
    ("pile", ["desconocido", "sin contar", "невідомо", "не пораховано"], PileSize(None)),
    ("turn", ["coge la columna de color rojo", "coge la columna roja", "coge corazón",
              "візьміть червоний стовпець", "беру серце"], Collect(R)),
    ("turn", ["juega verde 1 y marrón 0", "juega trébol uno cuatro cuadrados cero",
              "зіграй зелений 1 і коричневий 0", "граю зелений 1 та коричневий 0"],
     Play((Leaf(G, 1), Leaf(B, 0)))),
    ("turn", ["revela verde 1 naranja 0 0 amarillo 3",
              "відкрий зелений 1 помаранчевий 0 0 жовтий 3"],
     Reveal((Leaf(G, 1), Leaf(O, 0), Leaf(O, 0), Leaf(Y, 3)))),
    ("turn", ["objetivo pila más alta", "ціль найвищий стос"], Activate(Objective.TALLEST)),
    ("turn", ["objetivo hojas verdes", "ціль зелені листки"], Activate(Objective.GREEN)),
    ("turn", ["paisaje 3", "пейзаж 3"], Landscape(3)),
    ("turn", ["descarta dos", "descartar", "обмін"], Trade()),
    ("turn", ["bonificación 2", "conexiones 2", "бонус урожаю 2", "зв'язки 2"], Bonus(2)),
    ("turn", ["gana 2", "отримую 2"], Gain(2)),
    ("turn", ["pierde 1", "втрачаю 1"], Gain(-1)),
    ("turn", ["roba una carta", "roba 1", "доберіть одну карту"], Draw(1)),
    ("turn", ["coloca amarillo 0", "докладіть жовтий 0"], Place((Leaf(Y, 0),))),
    ("turn", ["mazo vacío", "колода порожня"], Empty()),
    ("turn", ["fin", "fin del turno", "termino", "кінець", "кінець ходу"], End()),
    ("turn", ["puntuación", "рахунок"], Ask(Query.SCORE)),
    ("turn", ["tablero", "стіл"], Ask(Query.BOARD)),
    ("turn", ["acciones", "дії"], Ask(Query.ACTIONS)),
    ("turn", ["deshacer", "скасувати"], Undo()),
])
def test_spanish_and_ukrainian_lines_mean_the_same_value(phase, lines, expected):
    state = at(phase)
    for line in lines:
        assert interpret(line, state) == expected, line
    if isinstance(expected, (Colours, Objectives, Garden, PileSize, Collect, Reveal, Activate,
                             Landscape, Trade)):  # `empty` is refused: the pile is counted
        apply(state, expected)


def test_the_words_are_written_folded():
    """Typed, keyed or recognised lines are folded before lookup: so are the words."""
    tables = [*lx.VERB_WORDS.values(), *lx.OBJECTIVE_WORDS.values(), lx.NUMBER_WORDS,
              lx.UNKNOWN_WORDS, lx.SEPARATORS, lx.FILLERS]
    words = [w for table in tables for w in table]
    assert "пеизаж" in words and "bonificacion" in words
    assert [w for w in words if fold(w) != w] == []


def test_colours_in_keypad_order_are_colours_not_the_cool_objective() -> None:
    from companion.games.momiji import Momiji
    from companion.games.momiji.interpret import interpret as momiji_interpret

    state = Momiji().new_state({"players": ["A", "B", "C"]})
    for line in ("green brown violet yellow red", "vert marron violet jaune rouge"):
        assert momiji_interpret(line, state).text() == "colours green brown violet yellow red"
