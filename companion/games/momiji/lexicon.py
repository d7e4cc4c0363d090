"""The words players use for Momiji, per language, folded (lowercase, no accents).

Leaf types are said by colour or by sticker symbol (from stickers.colours), or keyed as a
digit 1 to 6 in the seed's order. Shared words (questions, undo, yes, no, speech
settings) are Hanamikoji's, minus those Momiji needs otherwise: "points" and "dots" are
how a card's value is said ("vert deux points"), "zero" is a value and an objective.
"""

from __future__ import annotations

from companion.commands import Query, Setting
from companion.games.hanamikoji import lexicon as shared
from companion.games.momiji.data import LEAVES, Objective
from companion.normalize import fold
from stickers.colours import COLOUR_NAMES, SYMBOLS, Colour

_EXTRA_COLOUR_WORDS: dict[Colour, tuple[str, ...]] = {
    Colour.GREEN: ("verte", "verts", "vertes", "greens", "shamrock"),
    Colour.BROWN: ("brun", "brune", "bruns", "marrons", "browns", "carreaux", "four tiles"),
    Colour.VIOLET: ("purple", "violette", "violets", "violettes", "mauve", "grape", "raisin",
                    "raisins", "grappe", "grappe de raisins"),
    Colour.YELLOW: ("jaunes", "yellows", "croissant", "crescent"),
    Colour.ORANGE: ("oranges", "rond", "disc", "disque", "cercle plein"),
    Colour.RED: ("rouges", "reds", "hearts", "coeurs"),
}  # fmt: skip


def colour_words(colour: Colour) -> tuple[str, ...]:
    names = (*COLOUR_NAMES[colour], *SYMBOLS[colour], *_EXTRA_COLOUR_WORDS.get(colour, ()))
    return tuple(fold(n).replace("'", " ") for n in names)


COLOUR_WORDS: dict[Colour, tuple[str, ...]] = {c: colour_words(c) for c in LEAVES}

NUMBER_WORDS: dict[str, int] = {
    "zero": 0, "one": 1, "two": 2, "three": 3, "un": 1, "une": 1, "deux": 2, "trois": 3,
    "four": 4, "five": 5, "six": 6, "quatre": 4, "cinq": 5,
}  # fmt: skip

# Verbs. "pioche" is the pile at set-up and "draw" during a turn: the phase decides.
VERB_WORDS: dict[str, tuple[str, ...]] = {
    "colours": ("colours", "colors", "colour", "color", "couleurs", "couleur", "types"),
    "without": ("without", "except", "sans", "sauf", "not", "pas"),
    "objectives": ("objectives", "objectifs", "tokens revealed"),
    "garden": ("garden", "jardin"),
    "pile": ("pile", "deck", "pile size", "taille de la pioche"),
    "collect": ("collect", "collects", "take", "takes", "pick", "collecter", "collecte",
                "ramasser", "ramasse", "prendre", "prends", "prend", "cueillir", "cueille"),
    "reveal": ("reveal", "reveals", "reveler", "revele", "revelation", "pay", "payer", "paie"),
    "play": ("play", "plays", "put", "poser", "pose", "jouer", "joue"),
    "place": ("place", "placer", "extra"),
    "bonus": ("bonus", "harvest", "harvest bonus", "recolte", "bonus de recolte",
              "connections", "connexions", "connexion", "connection"),
    "objective": ("objective", "objectif", "activate", "activer", "active"),
    "landscape": ("landscape", "paysage"),
    "trade": ("trade", "discard", "discard two", "defausse", "defausser", "echange",
              "echanger", "troc"),
    "gain": ("gain", "gains", "gagne", "gagner", "receive", "recoit"),
    "lose": ("lose", "loses", "perd", "perdre", "spend", "depense"),
    "draw": ("draw", "draws", "pioche", "piocher"),
    "empty": ("empty", "pile empty", "pioche vide", "vide", "epuisee", "pioche epuisee"),
    "end": ("end", "end turn", "end of turn", "done", "fin", "fin du tour", "fin de tour",
            "fini", "finir", "termine"),
}  # fmt: skip

OBJECTIVE_WORDS: dict[Objective, tuple[str, ...]] = {
    Objective.COOL: ("cool", "cold", "froid", "froids", "froides", "green brown violet",
                     "vert marron violet"),
    Objective.WARM: ("warm", "hot", "chaud", "chauds", "chaudes", "yellow orange red",
                     "jaune orange rouge"),
    Objective.ACORNS: ("acorns", "acorn", "glands", "gland"),
    Objective.TORII: ("torii", "toriis"),
    Objective.PLACED: ("placed", "fewest", "fewest placed", "posees", "cartes posees",
                       "carte posee", "moins de cartes"),
    Objective.HAND: ("hand", "in hand", "main", "en main", "cartes en main"),
    Objective.PILES: ("piles", "stacks", "tas", "piles et paysages"),
    Objective.SUM: ("sum", "total", "somme", "somme des feuilles"),
    Objective.TALLEST: ("tallest", "highest", "tallest pile", "plus haute", "plus haute pile",
                        "hauteur", "plus grande pile"),
}  # fmt: skip

KEYPAD_ACTIONS: dict[int, str] = {
    1: "collect", 2: "play", 3: "objective", 4: "landscape", 5: "trade", 6: "bonus",
    7: "reveal", 8: "empty", 9: "end",
}
UNKNOWN_WORDS = ("unknown", "inconnu", "inconnue", "not counted", "non comptee")

QUERY_WORDS: dict[Query, tuple[str, ...]] = {
    q: tuple(w for w in words if w != "points") for q, words in shared.QUERY_WORDS.items()
}
SETTING_WORDS: dict[Setting, tuple[str, ...]] = shared.SETTING_WORDS
UNDO_WORDS = shared.UNDO_WORDS
YES_WORDS = shared.YES_WORDS
NO_WORDS = shared.NO_WORDS
CANCEL_WORDS = tuple(w for w in shared.CANCEL_WORDS if w not in ("0", "zero"))
SEPARATORS = ("/", "then", "puis", "and", "et")
FILLERS = (
    "a", "an", "the", "le", "la", "les", "l", "de", "du", "des", "d", "card", "cards",
    "carte", "cartes", "leaf", "leaves", "feuille", "feuilles", "column", "colonne", "with",
    "avec", "my", "mon", "ma", "mes", "i", "je", "j", "on", "sur", "dot", "dots", "point",
    "points", "value", "valeur", "please", "number", "numero", "of", "s", "token", "jeton",
    "to", "for", "pour",
)  # fmt: skip
