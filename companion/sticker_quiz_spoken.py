"""The sticker quiz by voice (`companion stickers quiz --voice`): what a player says, per
language, spelled as the language writes it, and the bag of phrases the quiz listens for:
the pieces' numbers (an answer, as keyed in play), what is felt (the symbols and colours
of the pieces in the quiz, counts, dots, circles, squares: a description), skip, repeat,
help and quit. A transcript is read by sticker_quiz.read, as a typed line is; a number
counts as an answer, so the voice asks about it when unsure (reading_voice.py).
"""

from __future__ import annotations

from collections.abc import Sequence

from companion.inputs.reading_voice import Phrases
from companion.sticker_quiz import Key, Piece, read
from companion.voice.numbers import as_digits, said
from stickers.colours import COLOUR_NAMES, NAME_LANGS, SYMBOLS

# skip, repeat, help, quit as a player says them (sticker_quiz.WORDS folds them).
WORDS: dict[str, tuple[str, ...]] = {
    "en": ("skip", "pass", "repeat", "again", "help", "quit", "stop"),
    "fr": ("passer", "je ne sais pas", "répète", "encore", "aide", "quitter"),
    "es": ("saltar", "paso", "no sé", "repite", "repetir", "ayuda", "salir"),
    "uk": ("пропустити", "не знаю", "повтори", "повторити", "допомога", "вийти"),
}
# What a description is made of besides symbols, colours and counts.
FELT: dict[str, tuple[str, ...]] = {
    "en": ("what is", "a", "and", "dot", "dots", "circle", "dotted circle", "square",
           "squares", "nothing"),
    "fr": ("qu'est-ce que", "c'est quoi", "un", "une", "et", "point", "points", "rond",
           "rond pointé", "cercle", "carré", "carrés", "rien"),
    "es": ("qué es", "un", "una", "y", "punto", "puntos", "círculo", "cuadrado",
           "cuadrados", "nada"),
    "uk": ("що це", "і", "та", "крапка", "крапки", "крапок", "коло", "квадрат", "квадрати",
           "нічого"),
}
COUNTS = range(1, 6)  # dots a finger counts on a sticker


def _lang(lang: str) -> str:
    return lang if lang in WORDS else "en"


def reader(lang: str, keys: frozenset[str]):  # type: ignore[no-untyped-def]
    """A transcript → the canonical text of a quiz command (`key 7`, `what heart`,
    `skip`), or None; a number must be one of the quiz's `keys` (a recognizer held to
    numbers writes one said once twice, "seven seven", which reads as no piece)."""
    lang = _lang(lang)

    def heard(text: str) -> str | None:
        if not text.strip(" .,?!"):
            return None  # Enter repeats the question when typed; silence does not
        command = read(as_digits(text, lang).replace(",", " "))
        if command is None or isinstance(command, Key) and command.digits not in keys:
            return None
        return command.text()

    return heard


def phrases(pieces: Sequence[Piece], lang: str) -> Phrases:
    """What the quiz listens for in `lang`: its pieces' numbers and what they feel like."""
    lang = _lang(lang)
    i = NAME_LANGS.index(lang)
    keys = sorted({int(p.key) for p in pieces if p.key and p.key.isdigit()})
    numbers = [w for n in keys for w in (*said(n, lang), str(n))]
    colours = sorted({p.feel.colour for p in pieces if p.feel.colour is not None},
                     key=lambda c: c.value)
    symbols = [w for c in colours for w in (SYMBOLS[c][i], COLOUR_NAMES[c][i])]
    counts = [w for n in COUNTS for w in said(n, lang)]
    bag = tuple(dict.fromkeys([*WORDS[lang], *numbers, *symbols, *counts, *FELT[lang]]))
    spelled = [w for w in numbers if not w.isdigit()]
    prompt = tuple(dict.fromkeys([*symbols, *FELT[lang], *WORDS[lang], *spelled]))
    valid = frozenset(p.key for p in pieces if p.key)
    return Phrases(f"quiz_{lang}", bag, reader(lang, valid), prompt,
                   scored=lambda command: command.startswith("key "))


def readback(command: str) -> str:
    """A scored command as the question about it says it: the number heard ("7")."""
    from companion.sticker_quiz import parse

    heard = parse(command)
    return heard.digits if isinstance(heard, Key) else command
