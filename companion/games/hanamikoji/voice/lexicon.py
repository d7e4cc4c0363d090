"""Spoken words and what they mean, derived from the game data (one source of truth).

A card can be named by its item, its colour, its sticker symbol, its geisha or its
position in table order; every one of those words is built here from `GEISHAS` and the
sticker tables, plus a few synonyms players actually use (paper, parasol, lute, purple).
Pronunciations in the CMU phone set are given for the words the pocketsphinx en-us
dictionary lacks, so the decoder can be told about them with `add_word`.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType

from companion.games.hanamikoji.data import GEISHAS, Item, Token
from companion.voice.shared_words import QUERIES, SETTING_PHRASES, SETTINGS
from stickers.colours import COLOUR_NAMES, SYMBOLS, Colour

__all__ = ["ENGLISH", "EN_NUMBERS", "FRENCH", "FR_NUMBERS", "LEXICONS", "PRONUNCIATIONS",
           "QUERIES", "RIVALS", "SETTINGS", "SETTING_PHRASES", "Lexicon", "fold", "lexicon"]

# Synonyms beyond what the data tables name; keyed by item so a new item cannot be forgotten.
_EN_ITEM_SYNONYMS: dict[Item, tuple[str, ...]] = {
    Item.SCROLL: ("paper",),
    Item.UMBRELLA: ("parasol",),
    Item.SHAMISEN: ("lute",),
    Item.TEA: ("tea",),  # the data says "tea set"; players say "tea"
}
_EN_COLOUR_SYNONYMS: dict[Colour, tuple[str, ...]] = {Colour.VIOLET: ("purple",)}
_FR_ITEM_SYNONYMS: dict[Item, tuple[str, ...]] = {
    Item.TEA: ("thé", "service", "service de thé"),
    Item.UMBRELLA: ("parasol",),
    Item.SHAMISEN: ("shamisen",),
    Item.FLUTE: ("raisin",),  # the symbol is "grappe de raisin": players say "raisin"
}
_FR_COLOUR_SYNONYMS: dict[Colour, tuple[str, ...]] = {Colour.VIOLET: ("mauve",)}

EN_NUMBERS: tuple[str, ...] = ("one", "two", "three", "four", "five", "six", "seven")
FR_NUMBERS: tuple[str, ...] = ("un", "deux", "trois", "quatre", "cinq", "six", "sept")


def fold(text: str) -> str:
    """Lowercase and strip accents, so "Thé" and "the" compare equal; each language's
    lexicon is looked up separately, so this is safe (English "the" is never French "thé")."""
    decomposed = unicodedata.normalize("NFKD", text.lower())
    stripped = "".join(c for c in decomposed if not unicodedata.combining(c))
    return stripped.replace("œ", "oe").replace("æ", "ae")


@dataclass(frozen=True)
class Lexicon:
    """The words of one language, each mapped to its meaning.

    Phrases may have several words ("tea set"); lookups are on folded text.
    """

    lang: str
    cards: Mapping[str, Item]
    numbers: Mapping[str, int]
    tokens: Mapping[str, Token]
    queries: Mapping[str, str]
    yes: frozenset[str]
    no: frozenset[str]
    take: frozenset[str]
    reveal: frozenset[str]
    pair: frozenset[str]
    ordinals: Mapping[str, int]  # "first" pair = 1, "second" pair = 2
    token_words: frozenset[str]  # "token", "action": optional before a token number
    fillers: frozenset[str] = field(default_factory=frozenset)

    def card_words(self, item: Item) -> tuple[str, ...]:
        """Every phrase that names `item` (numbers excluded), sorted for stable output."""
        return tuple(sorted(w for w, i in self.cards.items() if i is item))


def _card_phrases(lang_index: int, item_syn: dict[Item, tuple[str, ...]],
                  colour_syn: dict[Colour, tuple[str, ...]], with_geisha: bool) -> dict[str, Item]:
    phrases: dict[str, Item] = {}
    for geisha in GEISHAS:
        item = geisha.item
        names = [geisha.item_en if lang_index == 0 else geisha.item_fr]
        names += item_syn.get(item, ())
        names.append(COLOUR_NAMES[geisha.colour][lang_index])
        names += colour_syn.get(geisha.colour, ())
        symbol = SYMBOLS[geisha.colour][lang_index]
        names.append(symbol)
        # "filled circle" / "goutte d'eau": players drop the qualifier, keep both forms.
        short = symbol.split()[-1] if lang_index == 0 else symbol.split()[0]
        names.append(short)
        if with_geisha:
            names.append(geisha.name.lower())
        for name in names:
            key = name.lower()  # spelled as written (Vosk wants accents); lookups fold
            if any(fold(k) == fold(key) and i is not item for k, i in phrases.items()):
                raise ValueError(f"spoken word {name!r} names two cards")  # pragma: no cover
            phrases[key] = item
    return phrases


def _english() -> Lexicon:
    return Lexicon(
        lang="en",
        cards=MappingProxyType(_card_phrases(0, _EN_ITEM_SYNONYMS, _EN_COLOUR_SYNONYMS, True)),
        numbers=MappingProxyType({w: n for n, w in enumerate(EN_NUMBERS, start=1)}),
        tokens=MappingProxyType({t.word: t for t in Token}),
        queries=MappingProxyType({q: q for q in QUERIES} | SETTING_PHRASES),
        yes=frozenset({"yes", "yeah", "yep", "correct", "confirm"}),
        no=frozenset({"no", "nope", "cancel", "wrong"}),
        take=frozenset({"take", "takes", "taking", "choose", "pick"}),
        reveal=frozenset({"reveal", "reveals"}),
        pair=frozenset({"pair"}),
        ordinals=MappingProxyType({"first": 1, "second": 2}),
        token_words=frozenset({"token", "action", "number"}),
        fillers=frozenset({"i", "the", "a", "and", "me", "my", "is", "play", "please",
                           "what's", "whats", "what", "show", "tell", "card", "cards",
                           "of", "us", "it", "its", "it's", "let's", "lets", "see"}),
    )


def _french() -> Lexicon:
    return Lexicon(
        lang="fr",
        cards=MappingProxyType(_card_phrases(1, _FR_ITEM_SYNONYMS, _FR_COLOUR_SYNONYMS, True)),
        numbers=MappingProxyType({w: n for n, w in enumerate(FR_NUMBERS, start=1)} | {"une": 1}),
        tokens=MappingProxyType({
            "secret": Token.SECRET,
            "dépôt": Token.DISCARD, "défausse": Token.DISCARD,
            "offre": Token.GIFT, "offrir": Token.GIFT, "don": Token.GIFT,
            "échange": Token.COMPETITION, "compétition": Token.COMPETITION,
        }),
        queries=MappingProxyType({
            "score": "score", "points": "score", "plateau": "board", "actions": "actions",
            "répéter": "repeat", "répète": "repeat", "aide": "help", "annuler": "undo",
            "annule": "undo", "non vues": "unseen", "plus vite": "faster",
            "moins vite": "slower", "plus fort": "louder", "moins fort": "quieter",
        }),
        yes=frozenset({"oui", "ouais", "d'accord", "confirme"}),
        no=frozenset({"non"}),
        take=frozenset({"prendre", "prends", "prend", "choisis", "je prends"}),
        reveal=frozenset({"révèle", "révéler"}),
        pair=frozenset({"paire"}),
        ordinals=MappingProxyType({"première": 1, "premier": 1, "deuxième": 2, "seconde": 2,
                                   "second": 2}),
        token_words=frozenset({"jeton", "action", "numero"}),
        fillers=frozenset({"je", "j", "la", "le", "l", "les", "et", "mon", "ma", "est", "de",
                           "du", "s", "il", "te", "plaît", "moi", "carte", "cartes", "à",
                           "joue", "donne", "montre", "quel", "quelle", "c", "d", "voir"}),
    )


ENGLISH: Lexicon = _english()
FRENCH: Lexicon = _french()
LEXICONS: Mapping[str, Lexicon] = MappingProxyType({"en": ENGLISH, "fr": FRENCH})


def lexicon(lang: str) -> Lexicon:
    """The lexicon for a language code ("en", "fr", "fr-FR"...); ValueError if unknown."""
    key = lang.lower().split("-")[0].split("_")[0]
    try:
        return LEXICONS[key]
    except KeyError:
        raise ValueError(f"no voice lexicon for language {lang!r}; known: "
                         f"{', '.join(sorted(LEXICONS))}") from None


# CMU-phone pronunciations for words the en-us dictionary lacks. Several variants per word:
# an English reader's guess (what espeak-ng and most players say) and the Japanese reading.
PRONUNCIATIONS: Mapping[str, tuple[str, ...]] = MappingProxyType({
    "shamisen": ("SH AA M IH S EH N", "SH AE M AH S AH N", "SH AH M AY S AH N"),
    "parasol": ("P EH R AH S AO L", "P AE R AH S AA L"),
    "ayane": ("AA Y AA N EY", "EY AE N", "AY AA N EY"),
    "iroha": ("IY R OW HH AA", "IH R OW HH AH"),
    "tomoyo": ("T OW M OW Y OW", "T AH M OY OW"),
    "chiharu": ("CH IY HH AA R UW", "CH IH HH AA R UW"),
    "anju": ("AA N JH UW", "AE N JH UW"),
    "ruri": ("R UH R IY", "R UW R IY"),
    "yoko": ("Y OW K OW",),
})


def _rivals(pairs: tuple[tuple[str, str], ...]) -> Mapping[str, tuple[str, ...]]:
    out: dict[str, tuple[str, ...]] = {}
    for a, b in pairs:
        out[a] = (*out.get(a, ()), b)
        out[b] = (*out.get(b, ()), a)
    return MappingProxyType(out)


# English card words the recognizers take for one another, naming different cards: the
# confusions benchmarks/whisper_tune.py counted three times or more (docs/voice.md). A
# command read from one of them is asked about when the rival reads as another command.
RIVALS: Mapping[str, tuple[str, ...]] = _rivals((
    ("flute", "blue"), ("violet", "five"), ("parasol", "tea"), ("green", "three"),
    ("two", "blue"), ("pink", "one"), ("tea", "one"),
))
