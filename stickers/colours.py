"""The colour symbols of the tactile collection: a raised symbol stands for a colour."""

from __future__ import annotations

from enum import Enum

from stickers._text import SEPARATOR, Lang, StickerParseError, Token, check_lang, quote, tokens


class Colour(Enum):
    """The ten colours the adapted edition marks with a symbol sticker."""

    RED = "red"
    YELLOW = "yellow"
    BLUE = "blue"
    ORANGE = "orange"
    GREEN = "green"
    BROWN = "brown"
    VIOLET = "violet"
    PINK = "pink"
    BLACK = "black"
    WHITE = "white"


# Symbol names per colour, (English, French, Spanish, Ukrainian): English and French as the
# seed's "Adaptation" section gives them, Spanish and Ukrainian as the catalogues say them
# (companion/locales/{es,uk}.toml; a test keeps them equal). The parsers below read English
# and French (`LANGS`); the spoken names of all four feed the voice lexicons.
SYMBOLS: dict[Colour, tuple[str, str, str, str]] = {
    Colour.RED: ("heart", "cœur", "corazón", "серце"),
    Colour.YELLOW: ("moon", "lune", "luna", "місяць"),
    Colour.BLUE: ("drop", "goutte d'eau", "gota", "крапля"),
    Colour.ORANGE: ("filled circle", "rond plein", "círculo relleno", "зафарбоване коло"),
    Colour.GREEN: ("clover", "trèfle", "trébol", "конюшина"),
    Colour.BROWN: ("four squares", "quatre carreaux", "cuatro cuadrados", "чотири квадрати"),
    Colour.VIOLET: ("grapes", "grappe de raisin", "racimo de uvas", "гроно винограду"),
    Colour.PINK: ("flower", "fleur", "flor", "квітка"),
    Colour.BLACK: ("thick cross", "croix épaisse", "cruz gruesa", "товстий хрест"),
    Colour.WHITE: ("filled square", "carré plein", "cuadrado relleno", "зафарбований квадрат"),
}

# Colour names, (English, French, Spanish, Ukrainian).
COLOUR_NAMES: dict[Colour, tuple[str, str, str, str]] = {
    Colour.RED: ("red", "rouge", "rojo", "червоний"),
    Colour.YELLOW: ("yellow", "jaune", "amarillo", "жовтий"),
    Colour.BLUE: ("blue", "bleu", "azul", "синій"),
    Colour.ORANGE: ("orange", "orange", "naranja", "помаранчевий"),
    Colour.GREEN: ("green", "vert", "verde", "зелений"),
    Colour.BROWN: ("brown", "marron", "marrón", "коричневий"),
    Colour.VIOLET: ("violet", "violet", "morado", "фіолетовий"),
    Colour.PINK: ("pink", "rose", "rosa", "рожевий"),
    Colour.BLACK: ("black", "noir", "negro", "чорний"),
    Colour.WHITE: ("white", "blanc", "blanco", "білий"),
}
# The tables' columns, in order.
NAME_LANGS: tuple[str, ...] = ("en", "fr", "es", "uk")

# --- both directions, both languages ----------------------------------------------------

_LANG_INDEX: dict[Lang, int] = {"en": 0, "fr": 1}
_PARSED = len(_LANG_INDEX)  # the parsers read the English and French columns only


def symbol_name(colour: Colour, lang: Lang = "en") -> str:
    """The symbol that stands for `colour`: symbol_name(Colour.RED, "fr") == "cœur"."""
    return SYMBOLS[colour][_LANG_INDEX[check_lang(lang)]]


def colour_name(colour: Colour, lang: Lang = "en") -> str:
    """The colour's own name: colour_name(Colour.VIOLET, "fr") == "violet"."""
    return COLOUR_NAMES[colour][_LANG_INDEX[check_lang(lang)]]


def describe_colour(colour: Colour, lang: Lang = "en") -> str:
    """Symbol first, as a finger meets it: 'heart (red)' / 'cœur (rouge)'."""
    return f"{symbol_name(colour, lang)} ({colour_name(colour, lang)})"


# Other ways people say the symbols and colours, beyond the two tables above.
_SYMBOL_VARIANTS: dict[Colour, tuple[str, ...]] = {
    Colour.RED: ("hearts",),
    Colour.YELLOW: ("crescent", "crescent moon", "croissant", "croissant de lune"),
    Colour.BLUE: ("goutte", "water drop", "drop of water", "droplet", "raindrop", "teardrop",
                  "gouttelette", "goutte d eau"),
    Colour.ORANGE: ("solid circle", "full circle", "filled disc", "disc", "disk", "cercle plein",
                    "disque", "rond rempli"),
    Colour.GREEN: ("shamrock", "clover leaf", "four leaf clover", "feuille de trefle"),
    Colour.BROWN: ("4 squares", "4 carreaux", "carreaux", "quatre carres", "4 carres",
                   "four tiles", "checkerboard", "damier"),
    Colour.VIOLET: ("grape", "bunch of grapes", "cluster of grapes", "raisin", "raisins",
                    "grappe", "grappe de raisins", "grappes de raisin"),
    Colour.PINK: ("flowers", "fleurs"),
    Colour.BLACK: ("cross", "croix", "heavy cross", "bold cross", "croix grasse"),
    Colour.WHITE: ("solid square", "full square", "filled box", "carre rempli"),
}  # fmt: skip
_COLOUR_VARIANTS: dict[Colour, tuple[str, ...]] = {
    Colour.YELLOW: ("jaunes",),
    Colour.BLUE: ("bleue", "bleus", "bleues"),
    Colour.GREEN: ("verte", "verts", "vertes"),
    Colour.BROWN: ("brun", "brune", "chocolat"),
    Colour.VIOLET: ("violette", "purple", "mauve"),
    Colour.PINK: ("roses",),
    Colour.BLACK: ("noire", "noirs", "noires"),
    Colour.WHITE: ("blanche", "blancs", "blanches"),
}
# Words that carry no meaning here: "the heart", "le symbole cœur", "couleur rouge", "=".
_FILLERS = {"a", "an", "the", "le", "la", "les", "l", "un", "une", "symbol", "symbole",
            "sticker", "colour", "color", "couleur", "is", "means", "for", "c", "est",
            "egale", "equals", "same", "as"}  # fmt: skip


def _phrase_keys() -> dict[tuple[str, ...], tuple[Colour, str]]:
    """Every accepted phrase (folded words) -> (colour, 'symbol' or 'colour')."""
    table: dict[tuple[str, ...], tuple[Colour, str]] = {}
    for colour in Colour:
        symbols = (*SYMBOLS[colour][:_PARSED], *_SYMBOL_VARIANTS.get(colour, ()))
        names = (*COLOUR_NAMES[colour][:_PARSED], *_COLOUR_VARIANTS.get(colour, ()))
        for kind, phrases in (("symbol", symbols), ("colour", names)):
            for phrase in phrases:
                words = [t.word for t in tokens(phrase) if t.word not in _FILLERS]
                table.setdefault(tuple(words), (colour, kind))
    return table


_PHRASES = _phrase_keys()
_LONGEST = max(len(k) for k in _PHRASES)
# A bare shape is ambiguous with the number code ("rond pointé" = 5): say so.
_BARE_SHAPES = {"circle": "filled circle", "rond": "rond plein", "cercle": "rond plein",
                "square": "filled square", "carre": "carré plein"}  # fmt: skip


def _matches(text: str) -> tuple[list[tuple[str, Colour, str]], list[Token], list[Token]]:
    """Greedy longest matches over the words of `text`: (matched, all tokens, leftovers)."""
    toks = [t for t in tokens(text) if t.word != SEPARATOR]
    found: list[tuple[str, Colour, str]] = []
    leftovers: list[Token] = []
    i = 0
    while i < len(toks):
        if toks[i].word in _FILLERS:
            i += 1
            continue
        for size in range(min(_LONGEST + 2, len(toks) - i), 0, -1):
            words = [t.word for t in toks[i : i + size] if t.word not in _FILLERS]
            if words and tuple(words) in _PHRASES:
                colour, kind = _PHRASES[tuple(words)]
                found.append((quote(text, toks[i : i + size]), colour, kind))
                i += size
                break
        else:
            leftovers.append(toks[i])
            i += 1
    return found, toks, leftovers


def parse_colour(text: str) -> Colour:
    """A colour from a spoken or typed symbol or colour name, French or English.

    Accents, case, articles and punctuation do not matter: "Goutte d'eau", "coeur",
    "4 carreaux", "the grapes", "bleu" all work; a symbol with its colour ("cœur rouge")
    is accepted when both agree. Raises StickerParseError otherwise.
    """
    found, toks, leftovers = _matches(text)
    if not toks or (not found and not leftovers):
        raise StickerParseError(f"empty description {text!r}: expected a colour or its symbol")
    colours = {colour for _, colour, _ in found}
    if len(colours) > 1:
        said = ", ".join(f"{q} is {c.value}" for q, c, _ in found)
        raise StickerParseError(f"contradictory colours: {said}")
    if leftovers:
        bad = " ".join(repr(text[t.start : t.end]) for t in leftovers)
        hints = [_BARE_SHAPES[t.word] for t in leftovers if t.word in _BARE_SHAPES]
        hint = (
            f" (a bare shape is not a colour symbol: did you mean {hints[0]!r}?"
            " 'dotted' shapes are numbers)"
            if hints
            else ""
        )
        if found:
            q, colour, _ = found[0]
            raise StickerParseError(f"understood {q} ({colour.value}) but not {bad}{hint}")
        raise StickerParseError(f"not a colour or colour symbol: {bad}{hint}")
    return colours.pop()


def parse_symbol(text: str) -> Colour:
    """Like parse_colour, but only symbol names count ("heart", not "red")."""
    colour = parse_colour(text)
    found, _, _ = _matches(text)
    if not any(kind == "symbol" for _, _, kind in found):
        raise StickerParseError(
            f"{text.strip()!r} names a colour, not a symbol: its symbol is "
            f"{symbol_name(colour)!r} / {symbol_name(colour, 'fr')!r}"
        )
    return colour
