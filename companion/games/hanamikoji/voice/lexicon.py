"""Spoken words and what they mean, derived from the game data (one source of truth).

A card can be named by its item, its colour, its sticker symbol, its geisha or its
position in table order; every one of those words is built here from `GEISHAS` and the
sticker tables (English, French), the game's catalogues (Spanish and Ukrainian item, token
and geisha names), plus a few synonyms players actually use (paper, parasol, lute, purple)
and, in Spanish and Ukrainian, the forms a card's name takes in a sentence ("la roja",
"беру флейту", "червону").
Pronunciations in the CMU phone set are given for the words the pocketsphinx en-us
dictionary lacks, so the decoder can be told about them with `add_word`.
"""

from __future__ import annotations

import functools
import re
import unicodedata
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType

from companion.games.hanamikoji.data import GEISHAS, Geisha, Item, Token
from companion.shared_words import ASKING, COURTESY, HINT_ASKED
from companion.voice import mapper
from companion.voice.shared_words import (
    QUERIES,
    SETTING_PHRASES,
    SETTINGS,
    said_otherwise,
)
from stickers.colours import COLOUR_NAMES, NAME_LANGS, SYMBOLS, Colour

__all__ = ["ENGLISH", "EN_NUMBERS", "FRENCH", "FR_NUMBERS", "LANGS", "PRONUNCIATIONS",
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
    lexicon is looked up separately, so this is safe (English "the" is never French "thé").
    Cyrillic letters stay whole (й is not и, ї is not і: companion.voice.mapper.fold)."""
    return mapper.fold(unicodedata.normalize("NFKC", text)).replace("œ", "oe").replace(
        "æ", "ae")


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
    # Forms a word takes in a sentence ("флейту", "червону", "roja"): read, but left out of
    # a recognizer's prompt, whose room is better spent on different words.
    forms: frozenset[str] = field(default_factory=frozenset)
    # How a question is asked around its word ("quel est le score", "tu peux répéter",
    # "cuál es la puntuación", "який рахунок"): read with a question alone, so table talk
    # ("tu peux prendre le thé") is never taken for a move. Whole phrases, not their short
    # words: offered to the voice reading, "tu" took the "tue" of "service à tue" (thé).
    asking: frozenset[str] = field(default_factory=frozenset)
    # Words the voice reading takes but no prompt holds, and a recognizer held to its words
    # (Whisper's limited beam, Vosk) is not given: Whisper writes them unprompted ("Un
    # conseil.", "Tu peux répéter."), and a word more in a prompt moves other decodes
    # (docs/voice.md, "Phrasings a player says around a command").
    # By the context kind they are read in ("": every context).
    unprompted: Mapping[str, frozenset[str]] = field(default_factory=dict)

    def card_words(self, item: Item) -> tuple[str, ...]:
        """Every phrase that names `item` (numbers excluded), sorted for stable output."""
        return tuple(sorted(w for w, i in self.cards.items() if i is item))


def _card_phrases(lang: str, item_syn: Mapping[Item, tuple[str, ...]],
                  colour_syn: Mapping[Colour, tuple[str, ...]],
                  item_name: Callable[[Geisha], tuple[str, ...]],
                  geisha_name: Callable[[Geisha], str] = lambda g: g.name,
                  noun_forms: Callable[[str], tuple[str, ...]] = lambda w: (w,),
                  colour_forms: Callable[[str], tuple[str, ...]] = lambda w: (w,)
                  ) -> dict[str, Item]:
    """Every phrase naming each card: its item names, colour and sticker symbol (from the
    sticker tables' `lang` column), their synonyms, its geisha; `noun_forms` and
    `colour_forms` give a name's forms in a sentence (cases, agreement)."""
    index = NAME_LANGS.index(lang)
    phrases: dict[str, Item] = {}
    for geisha in GEISHAS:
        item = geisha.item
        names = [*item_syn.get(item, ())]
        symbol = SYMBOLS[geisha.colour][index]
        names.append(symbol)
        # "filled circle" / "goutte d'eau": players drop the qualifier, keep both forms. The
        # noun is last in English and Ukrainian, first in French and Spanish.
        short = symbol.split()[-1] if lang in ("en", "uk") else symbol.split()[0]
        names.append(short)
        names.append(geisha_name(geisha).lower())
        colours = [COLOUR_NAMES[geisha.colour][index], *colour_syn.get(geisha.colour, ())]
        # The item's names come with their own cases (the catalogue's); the others' forms
        # follow the grammar.
        names = [*(n.lower() for n in item_name(geisha)), *_with_forms(colours, colour_forms),
                 *_with_forms(names, noun_forms)]
        for name in dict.fromkeys(names):
            # spelled as written (Vosk wants accents); lookups fold
            if any(fold(k) == fold(name) and i is not item for k, i in phrases.items()):
                raise ValueError(f"spoken word {name!r} names two cards")  # pragma: no cover
            phrases[name] = item
    return phrases


def _with_forms(names: list[str], forms: Callable[[str], tuple[str, ...]]) -> list[str]:
    """Each name (lowercase) followed by its other forms, once."""
    return list(dict.fromkeys(f for n in names for f in forms(n.lower())))


def _sentence_forms(*pairs: tuple[list[str], Callable[[str], tuple[str, ...]]]
                    ) -> frozenset[str]:
    """The forms of the names that are not names themselves (for `Lexicon.forms`)."""
    bases = {n.lower() for names, _ in pairs for n in names}
    return frozenset(f for names, forms in pairs for n in names
                     for f in forms(n.lower())[1:]) - bases


def _plurals(items: Mapping[str, tuple[str, ...]],
             synonyms: Mapping[Item, tuple[str, ...]]) -> frozenset[str]:
    """Each item's plural (the last of its catalogue forms) that is no name of its own."""
    said = {w for ws in synonyms.values() for w in ws}
    return frozenset(ws[-1] for ws in items.values() if len(ws) > 1) - said - {
        ws[0] for ws in items.values()}


def _numbers(words: tuple[str, ...], extra: Mapping[str, int] | None = None
             ) -> dict[str, int]:
    """1 to 7 as words, and as digits: a recognizer may write either ("regalo 1 2 6")."""
    table = {w: n for n, w in enumerate(words, start=1)} | dict(extra or {})
    return table | {str(n): n for n in range(1, len(words) + 1)}


def _english() -> Lexicon:
    return Lexicon(
        lang="en",
        cards=MappingProxyType(_card_phrases("en", _EN_ITEM_SYNONYMS, _EN_COLOUR_SYNONYMS,
                                             lambda g: (g.item_en,))),
        numbers=MappingProxyType(_numbers(EN_NUMBERS)),
        tokens=MappingProxyType({t.word: t for t in Token}),
        queries=MappingProxyType({q: q for q in QUERIES} | SETTING_PHRASES
                                 | dict.fromkeys(HINT_ASKED["en"], "hint")
                                 | said_otherwise("en")),
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
        asking=frozenset(ASKING["en"]),
        unprompted=MappingProxyType({"": frozenset({*HINT_ASKED["en"],
                                                    *said_otherwise("en")})}),
    )


# What the voice reading takes unprompted in each language (`Lexicon.unprompted`), besides
# the asking words: the hint asked for ("un conseil", "consejo"; Whisper writes them
# unprompted, and the prompts stay as measured), courtesy said around any command ("le thé,
# s'il te plaît", "la flauta, por favor", "повтори, будь ласка": refused before, each
# unknown word lowering the reading's fit), and the card called a card ("tomo la carta
# verde", "беру зелену карту"; French "carte" is prompted and spelled as it always was),
# and a few plain words: "je garde le thé" (a take), "flûte et thé contre rose et éventail"
# (a competition's two pairs), "mon secret était l'éventail", "mi secreto era la flauta".
# The hint's words, and questions and help said another way ("combien de points",
# "aide-moi": `said_otherwise`): questions of the lexicon, read but not prompted.
_FR_HINT = ("conseil", "indice", *HINT_ASKED["fr"])
_ES_HINT = ("consejo", *HINT_ASKED["es"])
_UK_HINT = HINT_ASKED["uk"]
_FR_UNPROMPTED = MappingProxyType({
    # Courtesy as whole phrases: "te" alone took the "thé" of "service à tue".
    "": frozenset({*_FR_HINT, *said_otherwise("fr"), *COURTESY["fr"]}),
    # Where they mean something: offered everywhere, "était" split "secrète" in two.
    "action": frozenset({"contre"}), "complete": frozenset({"contre"}),
    "answer_gift": frozenset({"garde"}), "answer_competition": frozenset({"garde"}),
    # Not "c'est" nor "c'était": held out, babble written " C'est bon, c'est bon." was
    # taken for a reveal ("bon", near "lune").
    "reveal": frozenset({"était"})})
_ES_UNPROMPTED = MappingProxyType({
    # "qué acciones" whole: "qué" alone took Momiji's "he terminado" (" ¿Qué terminado?")
    "": frozenset({*_ES_HINT, *said_otherwise("es"), *COURTESY["es"], "carta",
                   "qué acciones"}),
    "action": frozenset({"contra"}), "complete": frozenset({"contra"}),
    "reveal": frozenset({"era"})})
_UK_UNPROMPTED = MappingProxyType({
    "": frozenset({*_UK_HINT, *said_otherwise("uk"), *COURTESY["uk"], "карту", "карта"}),
    "action": frozenset({"проти"}), "complete": frozenset({"проти"})})


def _french() -> Lexicon:
    return Lexicon(
        lang="fr",
        cards=MappingProxyType(_card_phrases("fr", _FR_ITEM_SYNONYMS, _FR_COLOUR_SYNONYMS,
                                             lambda g: (g.item_fr,))),
        numbers=MappingProxyType(_numbers(FR_NUMBERS, {"une": 1})),
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
            "règles": "rules",
        } | dict.fromkeys(_FR_HINT, "hint") | said_otherwise("fr")),
        yes=frozenset({"oui", "ouais", "d'accord", "confirme"}),
        no=frozenset({"non"}),
        take=frozenset({"prendre", "prends", "prend", "choisis", "je prends", "garde"}),
        reveal=frozenset({"révèle", "révéler"}),
        pair=frozenset({"paire"}),
        ordinals=MappingProxyType({"première": 1, "premier": 1, "deuxième": 2, "seconde": 2,
                                   "second": 2}),
        token_words=frozenset({"jeton", "action", "numero"}),
        fillers=frozenset({"je", "j", "la", "le", "l", "les", "et", "mon", "ma", "est", "de",
                           "du", "s", "il", "te", "vous", "plaît", "moi", "carte", "cartes",
                           "à", "joue", "donne", "montre", "c", "d", "voir", "mets", "au",
                           "ai", "veux", "ne", "euh", "contre", "était"}),
        asking=frozenset(ASKING["fr"]),
        unprompted=_FR_UNPROMPTED,
    )


# -- Spanish and Ukrainian: names from the game's catalogues, forms from the grammar -----
ES_NUMBERS: tuple[str, ...] = ("uno", "dos", "tres", "cuatro", "cinco", "seis", "siete")
UK_NUMBERS: tuple[str, ...] = ("один", "два", "три", "чотири", "п'ять", "шість", "сім")


@functools.cache
def _catalogue_words(lang: str) -> dict[str, dict[str, tuple[str, ...]]]:
    """The game's words in `lang` as its catalogues say them (items with their cases and
    plural, tokens without their sticker number, geishas), lowercase."""
    from companion.narrate.catalogue import Catalogue

    words = Catalogue(lang, games=("hanamikoji",))
    # The plural of two ("флейти", "flautas"): also the Ukrainian genitive singular.
    items = {i.word: (words.word("items", i.word), words.word("items", i.word, "acc"),
                      words.plural("items_plural", i.word, 2) or "")
             for i in Item}
    tokens = {t.word: (re.sub(r"\s*\(\d\)$", "", words.word("tokens", t.word)),) for t in Token}
    geishas = {g.name: (words.word("geishas", g.name.lower()),) for g in GEISHAS}
    return {section: {k: tuple(dict.fromkeys(w.lower() for w in v if w))
                      for k, v in table.items()}
            for section, table in (("items", items), ("tokens", tokens), ("geishas", geishas))}


def _es_colour_forms(word: str) -> tuple[str, ...]:
    """"rojo" agrees with "la carta": "la roja"; "azul", "verde", "rosa" do not change."""
    return (word, word[:-1] + "a") if word.endswith("o") else (word,)


def _uk_noun_forms(word: str) -> tuple[str, ...]:
    """A feminine noun in -а/-я after a verb ("беру флейту", "відкриваю таємницю"): the
    accusative in -у/-ю; other nouns here say it as the nominative."""
    if " " in word or not word.endswith(("а", "я")):
        return (word,)
    return (word, word[:-1] + ("у" if word.endswith("а") else "ю"))


def _uk_colour_forms(word: str) -> tuple[str, ...]:
    """A colour adjective as it agrees with what is meant: "червоний" (the card), "червону"
    (беру … карту), "червона", "червоне" (віяло), "червоного", "червоні"; soft "синій":
    "синю", "синя", "синє", "синього", "сині"."""
    if word.endswith("ий"):
        stem = word[:-2]
        return (word, *(stem + end for end in ("а", "у", "е", "ого", "і")))
    if word.endswith("ій"):
        stem = word[:-2]
        return (word, *(stem + end for end in ("я", "ю", "є", "ього", "і")))
    return (word,)


_ES_ITEM_SYNONYMS: dict[Item, tuple[str, ...]] = {
    Item.SCROLL: ("papel",),
    Item.UMBRELLA: ("parasol", "paraguas"),
    Item.SHAMISEN: ("laúd",),
    Item.TEA: ("té",),
    Item.FLUTE: ("uvas", "uva"),  # the symbol is "racimo de uvas": players say "uvas"
}
_ES_COLOUR_SYNONYMS: dict[Colour, tuple[str, ...]] = {Colour.VIOLET: ("violeta", "lila")}
_UK_ITEM_SYNONYMS: dict[Item, tuple[str, ...]] = {
    Item.SCROLL: ("папір",),
    Item.UMBRELLA: ("парасоля",),
    Item.SHAMISEN: ("шамісен", "лютня"),
    Item.TEA: ("чай",),
    Item.FLUTE: ("гроно", "виноград"),  # the symbol is "гроно винограду"
}
_UK_COLOUR_SYNONYMS: dict[Colour, tuple[str, ...]] = {
    Colour.VIOLET: ("бузковий",), Colour.BLUE: ("блакитний",),
    Colour.ORANGE: ("оранжевий",),
}


def _spanish() -> Lexicon:
    words = _catalogue_words("es")
    return Lexicon(
        lang="es",
        cards=MappingProxyType(_card_phrases(
            "es", _ES_ITEM_SYNONYMS, _ES_COLOUR_SYNONYMS,
            lambda g: words["items"][g.item.word], colour_forms=_es_colour_forms)),
        numbers=MappingProxyType(_numbers(ES_NUMBERS, {"una": 1})),
        tokens=MappingProxyType(
            {w: t for t in Token for w in words["tokens"][t.word]}
            | {"descarte": Token.DISCARD, "competencia": Token.COMPETITION}),
        queries=MappingProxyType({
            "puntuación": "score", "puntos": "score", "marcador": "score",
            "tablero": "board", "mesa": "board", "acciones": "actions", "fichas": "actions",
            "qué acciones": "actions",
            "repite": "repeat", "repetir": "repeat", "otra vez": "repeat", "ayuda": "help",
            "deshacer": "undo", "deshaz": "undo", "sin ver": "unseen", "no vistas": "unseen",
            "pista": "hint", "más rápido": "faster", "más lento": "slower",
            "más alto": "louder", "más bajo": "quieter", "reglas": "rules",
        } | dict.fromkeys(_ES_HINT, "hint") | said_otherwise("es")),
        yes=frozenset({"sí", "vale", "claro", "correcto", "confirmo", "de acuerdo"}),
        no=frozenset({"no", "incorrecto"}),
        take=frozenset({"tomo", "cojo", "elijo", "escojo", "me quedo con", "me quedo",
                        "tomar", "coger", "elegir", "quiero"}),
        reveal=frozenset({"revelo", "revelar", "muestro", "enseño"}),
        pair=frozenset({"pareja", "par"}),
        ordinals=MappingProxyType({"primera": 1, "primero": 1, "primer": 1, "segunda": 2,
                                   "segundo": 2}),
        token_words=frozenset({"ficha", "acción", "número"}),
        # An item's plural ("dos flautas") is read as a form: the Spanish action prompt
        # had 275 tokens with them, past Whisper's 223, and lost its questions.
        forms=_sentence_forms(([c[2] for c in COLOUR_NAMES.values()], _es_colour_forms))
        | _plurals(words["items"], _ES_ITEM_SYNONYMS),
        fillers=frozenset({"el", "la", "los", "las", "lo", "y", "e", "de", "del", "mi", "me",
                           "es", "yo", "con", "por", "favor", "carta", "cartas", "a", "al",
                           "eh", "bueno", "pues", "dime", "muestra", "enseña", "contra",
                           "era"}),
        asking=frozenset(ASKING["es"]),
        unprompted=_ES_UNPROMPTED,
    )


def _ukrainian() -> Lexicon:
    words = _catalogue_words("uk")
    return Lexicon(
        lang="uk",
        cards=MappingProxyType(_card_phrases(
            "uk", _UK_ITEM_SYNONYMS, _UK_COLOUR_SYNONYMS,
            lambda g: words["items"][g.item.word],
            lambda g: words["geishas"][g.name][0], _uk_noun_forms, _uk_colour_forms)),
        numbers=MappingProxyType(_numbers(UK_NUMBERS, {"одна": 1, "одну": 1, "дві": 2})),
        tokens=MappingProxyType({f: t for t in Token for w in words["tokens"][t.word]
                                 for f in _uk_noun_forms(w)}),
        queries=MappingProxyType({
            "рахунок": "score", "бали": "score", "очки": "score", "стіл": "board",
            "дії": "actions", "жетони": "actions", "повтори": "repeat",
            "повторити": "repeat", "ще раз": "repeat", "допомога": "help",
            "довідка": "help", "скасувати": "undo", "скасуй": "undo",
            "не бачили": "unseen", "небачені": "unseen", "порада": "hint",
            "підказка": "hint", "підкажи": "hint", "швидше": "faster",
            "повільніше": "slower", "голосніше": "louder", "тихіше": "quieter",
            "правила": "rules",
        } | dict.fromkeys(_UK_HINT, "hint") | said_otherwise("uk")),
        yes=frozenset({"так", "ага", "підтверджую", "правильно", "вірно", "добре"}),
        no=frozenset({"ні", "неправильно"}),
        take=frozenset({"беру", "візьму", "забираю", "заберу", "обираю", "вибираю",
                        "взяти"}),
        reveal=frozenset({"відкриваю", "відкрию", "показую", "покажу", "відкрити"}),
        pair=frozenset({"пара", "пару", "пари"}),
        ordinals=MappingProxyType({"перша": 1, "першу": 1, "перший": 1, "друга": 2,
                                   "другу": 2, "другий": 2}),
        token_words=frozenset({"жетон", "дія", "номер"}),
        forms=_sentence_forms(
            ([c[3] for c in COLOUR_NAMES.values()]
             + [w for ws in _UK_COLOUR_SYNONYMS.values() for w in ws], _uk_colour_forms),
            ([w for t in ("tokens", "geishas") for ws in words[t].values() for w in ws]
             + [s[3] for s in SYMBOLS.values()]
             + [w for ws in _UK_ITEM_SYNONYMS.values() for w in ws], _uk_noun_forms))
        | {w for ws in words["items"].values() for w in ws[1:]} - {ws[0] for ws in words[
            "items"].values()},
        fillers=frozenset({"я", "і", "й", "та", "а", "моя", "мою", "мій", "це", "ну",
                           "карту", "карта", "карти", "будь", "ласка", "покажи",
                           "скажи", "ось", "еее", "проти"}),
        asking=frozenset(ASKING["uk"]),
        unprompted=_UK_UNPROMPTED,
    )


ENGLISH: Lexicon = _english()
FRENCH: Lexicon = _french()
# Spanish and Ukrainian are built at first use: their names come from the catalogues.
_BUILDERS: dict[str, Callable[[], Lexicon]] = {
    "en": lambda: ENGLISH, "fr": lambda: FRENCH, "es": _spanish, "uk": _ukrainian}
LANGS: tuple[str, ...] = tuple(_BUILDERS)


def lexicon(lang: str) -> Lexicon:
    """The lexicon for a language code ("en", "fr", "es-MX", "uk"...); ValueError if
    unknown."""
    key = lang.lower().split("-")[0].split("_")[0]
    if key not in _BUILDERS:
        raise ValueError(f"no voice lexicon for language {lang!r}; known: "
                         f"{', '.join(LANGS)}")
    return _built(key)


@functools.cache
def _built(key: str) -> Lexicon:
    return _BUILDERS[key]()


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
