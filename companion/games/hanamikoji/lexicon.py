"""The words players use for Hanamikoji, per language, folded (lowercase, no accents).

One source for the text interpreter, the help text and the voice grammars. Every card has
several names: item, colour, sticker symbol and geisha, so a player can say whatever is
under their fingers.
"""

from __future__ import annotations

from companion.commands import Query, Setting
from companion.games.hanamikoji.data import Item, Token

CARD_WORDS: dict[Item, tuple[str, ...]] = {
    Item.FLUTE: (
        "flute", "flutes", "purple", "violet", "grapes", "grape", "raisin", "raisins",
        "grappe de raisin", "grappe", "ayane",
    ),
    Item.FAN: ("fan", "fans", "eventail", "eventails", "red", "rouge", "heart", "coeur", "iroha"),
    Item.SCROLL: (
        "scroll", "scrolls", "paper", "papers", "papier", "papiers", "yellow", "jaune", "moon",
        "lune", "tomoyo",
    ),
    Item.UMBRELLA: (
        "umbrella", "umbrellas", "parasol", "parasols", "ombrelle", "ombrelles", "blue", "bleu",
        "drop", "goutte", "goutte d eau", "yoko",
    ),
    Item.SHAMISEN: (
        "shamisen", "shamisens", "lute", "lutes", "luth", "luths", "orange", "circle",
        "filled circle", "rond", "rond plein", "chiharu",
    ),
    Item.TEA: (
        "tea", "tea set", "teas", "service a the", "services a the", "the", "green", "vert",
        "verte", "clover", "trefle", "anju",
    ),
    Item.FLOWER: ("flower", "flowers", "fleur", "fleurs", "pink", "rose", "ruri"),
}

TOKEN_WORDS: dict[Token, tuple[str, ...]] = {
    Token.SECRET: ("secret", "secrete"),
    Token.DISCARD: ("discard", "depot", "defausse", "defausser"),
    Token.GIFT: ("gift", "offer", "offre", "offrir", "cadeau"),
    Token.COMPETITION: ("competition", "exchange", "echange", "echanger"),
}

TAKE_WORDS = (
    "take", "takes", "i take", "choose", "pick", "prendre", "prends", "je prends", "prend",
    "choisir", "choisis", "je choisis",
)
REVEAL_WORDS = ("reveal", "reveals", "reveler", "revele", "revelation")

NUMBER_WORDS: dict[str, int] = {
    "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7,
    "un": 1, "une": 1, "deux": 2, "trois": 3, "quatre": 4, "cinq": 5, "sept": 7,
}
ORDINAL_WORDS: dict[str, int] = {
    "first": 1, "second": 2, "third": 3, "1st": 1, "2nd": 2, "3rd": 3,
    "premier": 1, "premiere": 1, "deuxieme": 2, "seconde": 2, "troisieme": 3,
    "1er": 1, "1re": 1, "2e": 2, "3e": 3,
}

QUERY_WORDS: dict[Query, tuple[str, ...]] = {
    Query.SCORE: ("score", "scores", "points", "/"),
    Query.BOARD: ("board", "plateau", "table", "."),
    Query.ACTIONS: ("actions", "tokens", "jetons", "actions left"),
    Query.REPEAT: ("repeat", "again", "repeter", "repete", "encore", "*"),
    Query.HELP: ("help", "aide", "?", "+"),
    Query.UNSEEN: ("unseen", "non vues", "cartes non vues", "remaining"),
    Query.TURN: ("turn", "whose turn", "tour", "a qui"),
    Query.WHAT: ("what", "now", "quoi", "what now"),
    Query.BACK: ("back", "previous", "precedent", "avant"),
    Query.FORWARD: ("forward", "next", "suivant", "apres"),
}
SETTING_WORDS: dict[Setting, tuple[str, ...]] = {
    Setting.FASTER: ("faster", "plus vite"),
    Setting.SLOWER: ("slower", "moins vite", "plus lent"),
    Setting.LOUDER: ("louder", "plus fort"),
    Setting.QUIETER: ("quieter", "softer", "moins fort"),
    Setting.BRIEF: ("brief", "bref"),
    Setting.NORMAL: ("normal",),
    Setting.DETAILED: ("detailed", "detaille"),
}
UNDO_WORDS = ("undo", "annuler", "annule", "-")
YES_WORDS = ("yes", "y", "oui", "o", "ok", "d accord")
NO_WORDS = ("no", "n", "non")
CANCEL_WORDS = ("cancel", "0", "zero", "abandon")
PAIR_SEPARATORS = ("/", "then", "puis")
FILLERS = (
    "a", "an", "and", "et", "le", "la", "les", "l", "de", "du", "des", "d", "card", "cards",
    "carte", "cartes", "pair", "pairs", "paire", "paires", "i", "je", "with", "avec", "my",
    "mon", "ma", "mes", "please", "the", "set", "to", "play", "jouer", "joue", "plays",
)
