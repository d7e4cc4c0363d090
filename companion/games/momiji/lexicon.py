"""The words players use for Momiji, per language, folded (lowercase, no accents).

Leaf types are said by colour or by sticker symbol (from stickers.colours), or keyed as a
digit 1 to 6 in the seed's order. Shared words (questions, undo, yes, no, speech
settings) are the core's (companion/shared_words.py), minus those Momiji needs otherwise:
"points" and "dots" are how a card's value is said ("vert deux points"), "zero" is a value
and an objective.

Spanish and Ukrainian words follow the English and French ones in each table. Words are
written folded as `companion.normalize.fold` leaves them: in Ukrainian "й" becomes "и" and
"ї" becomes "і" ("пейзаж" is "пеизаж", "торії" is "торіі"), and an apostrophe splits a
word ("зв'язки" is "зв язки"). Colour words are folded by `colour_words`.
"""

from __future__ import annotations

from companion import shared_words as shared
from companion.games.momiji.data import LEAVES, Objective
from companion.normalize import fold
from companion.shared_commands import Query, Setting
from stickers.colours import COLOUR_NAMES, SYMBOLS, Colour

_EXTRA_COLOUR_WORDS: dict[Colour, tuple[str, ...]] = {
    Colour.GREEN: ("verte", "verts", "vertes", "greens", "shamrock",
                   "verde", "verdes", "trébol", "зелений", "зелена", "зелене", "зелені",
                   "зеленого", "зелених", "конюшина", "конюшину", "трилисник"),
    Colour.BROWN: ("brun", "brune", "bruns", "marrons", "browns", "carreaux", "four tiles",
                   "marrón", "marrones", "cuatro cuadrados", "cuadrados", "коричневий",
                   "коричнева", "коричневе", "коричневі", "коричневого", "коричневих",
                   "чотири квадрати", "квадрати"),
    Colour.VIOLET: ("purple", "violette", "violets", "violettes", "mauve", "grape", "raisin",
                    "raisins", "grappe", "grappe de raisins",
                    "morado", "morada", "morados", "moradas", "violeta", "violetas", "lila",
                    "uva", "uvas", "racimo", "racimo de uvas", "фіолетовий", "фіолетова",
                    "фіолетове", "фіолетові", "фіолетового", "фіолетових", "бузковий",
                    "виноград", "гроно", "гроно винограду"),
    Colour.YELLOW: ("jaunes", "yellows", "croissant", "crescent",
                    "amarillo", "amarilla", "amarillos", "amarillas", "luna", "media luna",
                    "жовтий", "жовта", "жовте", "жовті", "жовтого", "жовтих", "місяць",
                    "півмісяць"),
    Colour.ORANGE: ("oranges", "rond", "disc", "disque", "cercle plein",
                    "naranja", "naranjas", "anaranjado", "círculo", "círculo relleno", "disco",
                    "помаранчевий", "помаранчева", "помаранчеве", "помаранчеві",
                    "помаранчевого", "помаранчевих", "оранжевий", "оранжевого", "коло",
                    "зафарбоване коло", "круг"),
    Colour.RED: ("rouges", "reds", "hearts", "coeurs",
                 "rojo", "roja", "rojos", "rojas", "corazón", "corazones", "червоний",
                 "червона", "червоне", "червоні", "червоного", "червоних", "серце", "серця"),
}  # fmt: skip
# Spanish and Ukrainian words follow the others. No triple such as "verde marrón morado" is
# an objective here: a list of colours said at set-up must stay a list of colours.


def colour_words(colour: Colour) -> tuple[str, ...]:
    names = (*COLOUR_NAMES[colour], *SYMBOLS[colour], *_EXTRA_COLOUR_WORDS.get(colour, ()))
    return tuple(fold(n).replace("'", " ") for n in names)


COLOUR_WORDS: dict[Colour, tuple[str, ...]] = {c: colour_words(c) for c in LEAVES}

NUMBER_WORDS: dict[str, int] = {
    "zero": 0, "one": 1, "two": 2, "three": 3, "un": 1, "une": 1, "deux": 2, "trois": 3,
    "four": 4, "five": 5, "six": 6, "quatre": 4, "cinq": 5,
    "cero": 0, "uno": 1, "una": 1, "dos": 2, "tres": 3, "cuatro": 4, "cinco": 5, "seis": 6,
    "нуль": 0, "один": 1, "одна": 1, "одну": 1, "два": 2, "дві": 2, "три": 3, "чотири": 4,
    "п ять": 5, "шість": 6,
}  # fmt: skip

# Verbs. "pioche" is the pile at set-up and "draw" during a turn: the phase decides.
VERB_WORDS: dict[str, tuple[str, ...]] = {
    "colours": ("colours", "colors", "colour", "color", "couleurs", "couleur", "types",
                "colores", "tipos", "кольори", "типи"),
    "without": ("without", "except", "sans", "sauf", "not", "pas",
                "sin", "excepto", "salvo", "без", "крім", "окрім"),
    "objectives": ("objectives", "objectifs", "tokens revealed", "objetivos", "цілі"),
    "garden": ("garden", "jardin", "сад"),
    "pile": ("pile", "deck", "pile size", "taille de la pioche", "mazo", "колода"),
    "collect": ("collect", "collects", "take", "takes", "pick", "collecter", "collecte",
                "ramasser", "ramasse", "prendre", "prends", "prend", "prenez", "cueillir",
                "cueille",
                "coger", "coge", "cojo", "tomar", "toma", "tomo", "recoger", "recoge", "recojo",
                "взяти", "візьми", "візьміть", "беру", "бере", "бери", "забрати", "забираю",
                "забери", "заберіть"),
    "reveal": ("reveal", "reveals", "reveler", "revele", "revelez", "revelation", "pay",
               "payer", "paie", "payez",
               "revelar", "revela", "revelo", "pagar", "paga", "pago",
               "відкрити", "відкриваю", "відкрии", "відкриите", "платити", "плачу",
               "заплатити"),
    "play": ("play", "plays", "put", "poser", "pose", "posez", "jouer", "joue", "jouez",
             "jugar", "juega", "juego", "poner", "pon", "pongo",
             "зіграти", "зіграи", "зіграите", "граю", "грати", "викласти", "викладаю",
             "виклади", "викладіть"),
    "place": ("place", "placer", "extra", "colocar", "coloca", "coloco",
              "докласти", "докладаю", "доклади", "докладіть", "додатково"),
    "bonus": ("bonus", "harvest", "harvest bonus", "recolte", "bonus de recolte",
              "connections", "connexions", "connexion", "connection",
              "bonificacion", "bonificacion de cosecha", "bono", "cosecha", "conexiones",
              "conexion", "бонус", "бонус урожаю", "урожаи", "зв язки", "зв язок",
              "зв язків", "з єднання"),
    "objective": ("objective", "objectif", "activate", "activer", "active", "activez",
                  "objetivo", "activar", "activa", "activo",
                  "ціль", "активувати", "активую", "активуи", "активуите"),
    "landscape": ("landscape", "paysage", "paisaje", "пеизаж"),
    "trade": ("trade", "discard", "discard two", "defausse", "defausser", "echange",
              "echanger", "echangez", "defaussez", "troc", "descartar", "descarta", "descarto",
              "descartar dos",
              "descarta dos", "intercambiar", "intercambia", "intercambio",
              "обмін", "обміняти", "обмінюю", "обміняи", "обміняите", "скинути", "скидаю",
              "скинь", "скиньте"),
    "gain": ("gain", "gains", "gagne", "gagner", "receive", "recoit",
             "ganar", "gana", "gano", "recibir", "recibe", "recibo",
             "отримати", "отримую", "отримує", "отримаи"),
    "lose": ("lose", "loses", "perd", "perdre", "spend", "depense",
             "perder", "pierde", "pierdo", "gastar", "gasta", "gasto",
             "втратити", "втрачаю", "втрачає", "витратити", "витрачаю"),
    "draw": ("draw", "draws", "pioche", "piocher", "robar", "roba", "robo",
             "добрати", "добираю", "добери", "доберіть", "тягнути", "тягну"),
    "empty": ("empty", "pile empty", "pioche vide", "vide", "epuisee", "pioche epuisee",
              "vacio", "mazo vacio", "agotado", "mazo agotado",
              "порожня", "колода порожня", "колода закінчилася", "порожньо"),
    "end": ("end", "end turn", "end of turn", "done", "fin", "fin du tour", "fin de tour",
            "fini", "j ai fini", "finir", "finissez", "terminez", "termine", "fin del turno",
            "terminar", "termina", "termino",
            # the hint's own words said back: "end your turn", "finissez votre tour"
            "end your turn", "end my turn", "finissez votre tour", "finir mon tour",
            "termina tu turno", "termino mi turno", "завершіть хід", "завершити хід",
            "he terminado", "listo", "кінець", "кінець ходу", "завершити", "завершую",
            "завершіть",
            "готово", "все"),
}  # fmt: skip

OBJECTIVE_WORDS: dict[Objective, tuple[str, ...]] = {
    Objective.COOL: ("cool", "cold", "froid", "froids", "froides", "frio", "frios", "fria",
                     "frias", "холодні", "холоднии", "холодна"),
    Objective.WARM: ("warm", "hot", "chaud", "chauds", "chaudes", "calido", "calidos",
                     "calida", "calidas", "caliente", "calientes", "теплі", "теплии", "тепла"),
    Objective.ACORNS: ("acorns", "acorn", "glands", "gland", "bellotas", "bellota",
                       "жолуді", "жолудь", "жолудів"),
    Objective.TORII: ("torii", "toriis", "торіі"),
    Objective.ZERO: ("нульові", "нульові карти"),
    Objective.PLACED: ("placed", "fewest", "fewest placed", "fewest cards placed",
                       "cards placed", "posees", "cartes posees", "moins de cartes posees",
                       "carte posee", "moins de cartes", "colocadas", "cartas colocadas",
                       "menos cartas", "menos cartas colocadas", "викладені",
                       "викладені карти", "наименше карт", "наименше викладених",
                       "наименше викладених карт"),
    Objective.HAND: ("hand", "in hand", "main", "en main", "cartes en main", "mano",
                     "en mano", "en la mano", "cartas en mano", "cartas en la mano",
                     "рука", "в руці", "у руці", "на руці", "карти в руці", "карти у руці"),
    Objective.PILES: ("piles", "stacks", "tas", "piles and unused landscapes",
                      "unused landscapes", "piles et paysages", "piles et paysages inutilises",
                      "paysages inutilises", "pilas", "montones",
                      "pilas y paisajes", "pilas y paisajes sin usar", "стоси",
                      "стоси і пеизажі", "стоси та пеизажі", "стоси та невикористані пеизажі"),
    Objective.SUM: ("sum", "total", "sum of the top cards", "top cards", "somme",
                    "somme des feuilles", "suma",
                    "suma de las cartas de arriba", "сума", "сума верхніх карт"),
    Objective.TALLEST: ("tallest", "highest", "tallest pile", "plus haute", "plus haute pile",
                        "hauteur", "plus grande pile", "mas alta", "pila mas alta",
                        "наивищии", "наивищии стос"),
}  # fmt: skip

# The colours of the cool and warm tokens said in a row: the group's one token, or three
# leaf objectives (interpret.py reads both ways and asks when both fit); at set-up, colours.
GROUP_WORDS: dict[Objective, tuple[str, ...]] = {
    Objective.COOL: ("green brown violet", "green brown purple", "vert marron violet"),
    Objective.WARM: ("yellow orange red", "jaune orange rouge"),
}

KEYPAD_ACTIONS: dict[int, str] = {
    1: "collect", 2: "play", 3: "objective", 4: "landscape", 5: "trade", 6: "bonus",
    7: "reveal", 8: "empty", 9: "end",
}
UNKNOWN_WORDS = ("unknown", "inconnu", "inconnue", "not counted", "non comptee",
                 "desconocido", "desconocida", "no contado", "sin contar",
                 "невідомо", "невідома", "невідоме", "не пораховано", "не знаю")

QUERY_WORDS: dict[Query, tuple[str, ...]] = {
    q: tuple(w for w in words if w not in ("points", "puntos"))
    for q, words in shared.QUERY_WORDS.items()
}
SETTING_WORDS: dict[Setting, tuple[str, ...]] = shared.SETTING_WORDS
UNDO_WORDS = shared.UNDO_WORDS
YES_WORDS = shared.YES_WORDS
NO_WORDS = shared.NO_WORDS
CANCEL_WORDS = tuple(w for w in shared.CANCEL_WORDS if w not in ("0", "zero"))
# The shared words Momiji reads itself (Game.own_words): "0" and "zero" name a value.
OWN_WORDS = frozenset(shared.CANCEL_WORDS) - frozenset(CANCEL_WORDS)
QUIT_WORDS = shared.QUIT_WORDS
NEW_GAME_WORDS = shared.NEW_GAME_WORDS
SEPARATORS = ("/", "then", "puis", "and", "et", "luego", "despues", "y", "потім", "і", "та", "и")
FILLERS = (
    "a", "an", "the", "le", "la", "les", "l", "de", "du", "des", "d", "card", "cards",
    "carte", "cartes", "leaf", "leaves", "feuille", "feuilles", "column", "colonne", "with",
    "avec", "my", "mon", "ma", "mes", "i", "je", "j", "on", "sur", "dot", "dots", "point",
    "points", "value", "valeur", "please", "number", "numero", "of", "s", "token", "jeton",
    "to", "for", "pour", "de type",
    "el", "los", "las", "del", "al", "carta", "cartas", "hoja", "hojas", "columna", "con",
    "mi", "mis", "yo", "valor", "por favor", "ficha", "marcador", "para", "de color",
    "карта", "карту", "карти", "карт", "листок", "листки", "листків", "листка", "стовпець",
    "стовпчик", "колонку", "колонка", "з", "із", "я", "мии", "мою", "мои", "будь ласка",
    "номер", "значення", "жетон", "колір", "кольору", "тип", "типу",
)  # fmt: skip
