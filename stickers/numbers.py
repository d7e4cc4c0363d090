"""The tactile number code: raised shapes whose values add up.

A dot is 1, a dotted circle ("rond pointé") 5, a dotted square ("carré pointé") 10 and a
dotted square carrying n dots ("carré pointé à n points") n×10. A card shows the sum.
Canonical form of a value: the tens as one dotted square (with n dots for n tens, plain
for one ten), then a dotted circle if the units are 5 or more, then single dots.
Zero is "no number sticker" ("aucun sticker chiffre"): nothing is stuck on the card.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from stickers._text import SEPARATOR, Lang, StickerParseError, Token, check_lang, quote, tokens
from stickers.colours import parse_colour

# --- vocabulary (folded: lower case, no accents) ------------------------------------------

_NUMBER_WORDS: dict[Lang, tuple[str, ...]] = {
    "en": (
        "zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
        "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen",
        "eighteen", "nineteen", "twenty",
    ),
    "fr": (
        "zéro", "un", "deux", "trois", "quatre", "cinq", "six", "sept", "huit", "neuf", "dix",
        "onze", "douze", "treize", "quatorze", "quinze", "seize", "dix-sept", "dix-huit",
        "dix-neuf", "vingt",
    ),
}  # fmt: skip
_QUANTITIES: dict[str, int] = {
    **{w: n for n, w in enumerate(_NUMBER_WORDS["en"])},
    **{w.replace("é", "e"): n for n, w in enumerate(_NUMBER_WORDS["fr"]) if "-" not in w},
    "a": 1,
    "an": 1,
    "une": 1,
}
# "carré pointé à plusieurs points" is how the rules explain the code, not a value.
_VAGUE = {"plusieurs", "several", "some", "quelques", "many", "multiple", "few", "n"}
_ARTICLES = {"a", "an", "une"}
_DOT = {"dot", "dots", "point", "points", "pip", "pips"}
_DOTTED = {"dotted", "pointe", "pointes", "pointee", "pointees"}
_SQUARE = {"square", "squares", "carre", "carres"}
_CIRCLE = {"circle", "circles", "rond", "ronds", "cercle", "cercles"}
# Filled shapes belong to the colour code (rond plein = orange, carré plein = white).
_FILLED = {"filled", "solid", "full", "plein", "pleine", "pleins", "pleines"}
# Words that tie a count of dots to the square before them: "square with two dots",
# "carré pointé à deux points" ("à" folds to "a", so "a" needs an explicit count after it).
_BIND = {
    "with", "of", "carrying", "bearing", "having", "containing",
    "a", "avec", "de", "portant", "comportant", "contenant",
}  # fmt: skip
_SEPARATORS = {SEPARATOR, "and", "et", "plus", "then", "puis", "ensuite", "also", "aussi"}
_FILLERS = {
    "the", "le", "la", "les", "l", "des", "plain", "simple", "single", "seul", "seule",
    "only", "just", "juste", "sticker", "stickers", "autocollant", "autocollants",
    "gommette", "gommettes",
}  # fmt: skip
# Only after dots tied to a shape ("with two dots in the middle"): elsewhere they would
# let "two dots in a square" read as 2 + 10, so there they are errors instead.
_TRAILING = {"in", "it", "inside", "on", "middle", "centre", "center", "the", "au",
             "milieu", "dedans", "interieur", "a", "l"}  # fmt: skip
_ZERO = {"zero", "0", "no", "none", "nothing", "blank", "aucun", "aucune", "rien", "vide", "pas"}
_ZERO_ALLOWED = _ZERO | {"number", "numbers", "chiffre", "chiffres", "de", "d"}
_KEYWORDS = _DOT | _DOTTED | _SQUARE | _CIRCLE | _SEPARATORS

# Words only one language uses, to guess the language of a description.
_ONLY: dict[Lang, set[str]] = {
    "en": {"dot", "dots", "dotted", "square", "squares", "circle", "circles", "and", "with",
           "of", "an", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine",
           "no", "number", "the", "plain"},
    "fr": {"pointe", "pointes", "pointee", "pointees", "carre", "carres", "rond", "ronds",
           "cercle", "cercles", "et", "avec", "de", "un", "une", "deux", "trois", "quatre",
           "cinq", "sept", "huit", "neuf", "aucun", "chiffre", "le", "la", "les", "des"},
}  # fmt: skip

_NAMES: dict[Lang, dict[str, str]] = {
    "en": {"dot": "dot", "dots": "dots", "circle": "dotted circle", "square": "dotted square",
           "with": "with", "none": "no number sticker"},
    "fr": {"dot": "point", "dots": "points", "circle": "rond pointé", "square": "carré pointé",
           "with": "à", "none": "aucun sticker chiffre"},
}  # fmt: skip


def _count(n: int, lang: Lang) -> str:
    """'two dots' / 'deux points'."""
    words = _NUMBER_WORDS[lang]
    word = words[n] if n < len(words) else str(n)
    return f"{word} {_NAMES[lang]['dot' if n == 1 else 'dots']}"


# --- structured form -------------------------------------------------------------------


@dataclass(frozen=True, order=True)
class Piece:
    """One physical sticker: a dot (1), a dotted circle (5) or a dotted square with n dots."""

    value: int

    def __post_init__(self) -> None:
        if not (self.value in (1, 5) or (self.value > 0 and self.value % 10 == 0)):
            raise ValueError(f"no single number sticker is worth {self.value}")

    def describe(self, lang: Lang = "en") -> str:
        names = _NAMES[check_lang(lang)]
        if self.value == 1:
            return names["dot"]
        if self.value == 5:
            return names["circle"]
        if self.value == 10:
            return names["square"]
        return f"{names['square']} {names['with']} {_count(self.value // 10, lang)}"


@dataclass(frozen=True)
class NumberStickers:
    """The number stickers on one card: a dotted square carrying `tens_dots` dots (0: no
    square, 1: a plain dotted square), perhaps a dotted circle, and `dots` single dots."""

    tens_dots: int
    circle: bool
    dots: int

    def __post_init__(self) -> None:
        if self.tens_dots < 0 or self.dots < 0:
            raise ValueError("sticker counts cannot be negative")

    @property
    def value(self) -> int:
        return 10 * self.tens_dots + 5 * self.circle + self.dots

    @classmethod
    def from_value(cls, n: int) -> NumberStickers:
        """The canonical stickers for `n` (see the module docstring)."""
        if n < 0:
            raise ValueError(f"the number code has no negative numbers: {n}")
        tens, units = divmod(n, 10)
        return cls(tens_dots=tens, circle=units >= 5, dots=units % 5)

    @classmethod
    def parse(cls, text: str) -> NumberStickers:
        """Read any description and return the canonical stickers for its value."""
        return cls.from_value(decode(text))

    def pieces(self) -> Counter[Piece]:
        """The physical stickers to cut, counting each dot as its own sticker."""
        out: Counter[Piece] = Counter()
        if self.tens_dots:
            out[Piece(10 * self.tens_dots)] += 1
        if self.circle:
            out[Piece(5)] += 1
        if self.dots:
            out[Piece(1)] += self.dots
        return out

    def describe(self, lang: Lang = "en") -> str:
        """'dotted square, dotted circle, two dots' / 'carré pointé, rond pointé, deux points'."""
        names = _NAMES[check_lang(lang)]
        parts = []
        if self.tens_dots:
            parts.append(Piece(10 * self.tens_dots).describe(lang))
        if self.circle:
            parts.append(names["circle"])
        if self.dots:
            parts.append(_count(self.dots, lang))
        return ", ".join(parts) if parts else names["none"]


def describe(n: int, lang: Lang = "en") -> str:
    """The canonical description of 0 to 99 (what a volunteer sticks, in words)."""
    if not 0 <= n <= 99:
        raise ValueError(f"the number stickers describe 0 to 99, not {n}")
    return NumberStickers.from_value(n).describe(lang)


# --- parsing ---------------------------------------------------------------------------


class _Parser:
    def __init__(self, text: str) -> None:
        self.text = text
        self.toks: list[Token] = tokens(text)
        self.i = 0
        self.understood: list[tuple[str, int]] = []  # (quoted words, value)

    def word(self, j: int | None = None) -> str:
        j = self.i if j is None else j
        return self.toks[j].word if j < len(self.toks) else ""

    def fail(self, start: int, why: str = "", end: int | None = None) -> StickerParseError:
        """An error quoting what was understood and the words from `start` that were not."""
        if end is None:
            end = start + 1
            while end < len(self.toks) and self.word(end) not in _KEYWORDS:
                end += 1
        bad = quote(self.text, self.toks[start:end])
        if self.understood:
            got = ", ".join(f"{q} ({v})" for q, v in self.understood)
            msg = f"understood {got} but not {bad}"
        else:
            msg = f"not a number sticker: {bad}"
        return StickerParseError(f"{msg}{': ' + why if why else ''}")

    def filled(self, start: int) -> StickerParseError:
        """A filled shape: say which colour symbol it is instead of just 'not understood'."""
        end = min(start + 2, len(self.toks))
        try:
            colour = parse_colour(self.text[self.toks[start].start : self.toks[end - 1].end])
            what = f"the colour symbol for {colour.value}"
        except StickerParseError:
            what = "a colour symbol"
        return self.fail(start, f"{what} (colour code), not a number sticker", end)

    def quantity(self, j: int) -> tuple[int | None, int]:
        """A count at j (digits or a number word), skipping fillers after it."""
        w = self.word(j)
        if w in _VAGUE:
            raise self.fail(j, "say how many", j + 1)
        if w.isdigit():
            n: int | None = int(w)
        elif w in _QUANTITIES:
            n = _QUANTITIES[w]
        else:
            return None, j
        j += 1
        # compounds: "dix-sept" (split at the hyphen), "dix sept", "twenty one"
        unit = _QUANTITIES.get(self.word(j), 0)
        if self.word(j) not in _ARTICLES and (
            (w == "dix" and 7 <= unit <= 9) or (w in ("vingt", "twenty") and 1 <= unit <= 9)
        ):
            n = (n or 0) + unit
            j += 1
        while self.word(j) in _FILLERS:
            j += 1
        return n, j

    def piece(self) -> int:
        """One group of identical stickers from self.i on; returns its value."""
        start = self.i
        qty, self.i = self.quantity(self.i)
        dotted = self.word() in _DOTTED
        if dotted:
            self.i += 1
        if self.word() in _FILLED:
            raise self.filled(self.i)
        w = self.word()
        if w in _DOT and not dotted:
            if qty is None and w.endswith("s"):
                raise self.fail(start, "how many dots?")
            self.i += 1
            return 1 if qty is None else qty
        if w in _SQUARE or w in _CIRCLE:
            self.i += 1
            if self.word() in _FILLED:
                raise self.filled(self.i - 1)
            if self.word() in _DOTTED:
                self.i += 1
            inner = self.inner_dots(start)
            if w in _CIRCLE:
                if inner not in (None, 1):
                    raise self.fail(start, "a dotted circle carries a single dot", self.i)
                each = 5
            else:
                each = 10 * (1 if inner is None else inner)
            if qty is None and w.endswith("s"):
                raise self.fail(start, "how many?")
            return each * (1 if qty is None else qty)
        why = ""
        if qty is not None:
            why = "a count must be followed by dots, a dotted circle or a dotted square"
            if len(self.toks) == 1 and 0 <= qty <= 99:
                why = f"a number alone is not a description ({qty} is {describe(qty)!r})"
        raise self.fail(start, why)

    def inner_dots(self, start: int) -> int | None:
        """The dots a shape carries: 'with two dots', 'à deux points'; None if not said."""
        bind = self.word()
        if bind not in _BIND:
            return None
        n, j = self.quantity(self.i + 1)
        w = self.word(j)
        if w not in _DOT or (n is None and bind == "a"):
            return None  # "dotted square, a dot": the "a" starts the next group
        if n is None and w.endswith("s"):
            raise self.fail(start, "how many dots does the shape carry?")
        self.i = j + 1
        while self.word() in _TRAILING and self.word(self.i + 1) not in _DOT | _DOTTED:
            self.i += 1
        return 1 if n is None else n

    def parse(self) -> int:
        words = [t.word for t in self.toks if t.word not in _FILLERS | _SEPARATORS]
        if not words:
            raise StickerParseError(
                f"empty description {self.text!r}: expected dots, dotted circles or dotted squares"
            )
        if set(words) <= _ZERO_ALLOWED and set(words) & _ZERO:
            return 0
        total = 0
        while self.i < len(self.toks):
            if self.word() in _SEPARATORS or self.word() in _FILLERS:
                self.i += 1
                continue
            start = self.i
            value = self.piece()
            self.understood.append((quote(self.text, self.toks[start : self.i]), value))
            total += value
        return total


def decode(text: str) -> int:
    """The value of a spoken or typed description of number stickers, French or English.

    Raises StickerParseError naming what was understood and what was not.
    """
    return _Parser(text).parse()


def guess_lang(text: str) -> Lang:
    """'fr' if the description uses more French-only words than English-only ones."""
    words = [t.word for t in tokens(text)]
    fr = sum(w in _ONLY["fr"] for w in words)
    en = sum(w in _ONLY["en"] for w in words)
    return "fr" if fr > en else "en"
