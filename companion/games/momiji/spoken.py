"""Momiji's words as players say them in French, Spanish and Ukrainian, spelled as the
language writes them (accents, й, apostrophes) for a recognizer that writes them so: the
Whisper prompt and its limited beam, Vosk's vocabulary.

What a phrase means is the interpreter's business (lexicon.py holds every language's words
folded, in one table per meaning); this module only chooses, per language, what a
recognizer should listen for. A test reads every phrase back through the interpreter, so a
phrase listed under a meaning it does not have cannot slip in. English is the JSGF grammar
of voice.py.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType

from companion.games.momiji.data import LEAVES, Objective
from stickers.colours import COLOUR_NAMES, NAME_LANGS, SYMBOLS, Colour


@dataclass(frozen=True)
class Spoken:
    """One language's Momiji words, by meaning.

    `numbers` are 0 to 6 in order (a value, a bonus, a landscape); `verbs` are keyed like
    lexicon.VERB_WORDS; `queries` hold the questions, undo and the speech settings;
    `joiners` are the small words said between the others ("et", "de la").
    """

    lang: str
    colours: Mapping[Colour, tuple[str, ...]]
    numbers: tuple[tuple[str, ...], ...]
    verbs: Mapping[str, tuple[str, ...]]
    objectives: Mapping[Objective, tuple[str, ...]]
    unknown: tuple[str, ...]
    queries: tuple[str, ...]
    yes: tuple[str, ...]
    no: tuple[str, ...]
    joiners: tuple[str, ...]


def _colours(lang: str, forms: Mapping[Colour, tuple[str, ...]]
             ) -> Mapping[Colour, tuple[str, ...]]:
    """Each leaf type's colour name and sticker symbol (the sticker tables' column for
    `lang`), with `forms` between them: what players also say (a form in a sentence,
    "roja"; a symbol shortened, "rond")."""
    index = NAME_LANGS.index(lang)
    return MappingProxyType({
        colour: tuple(dict.fromkeys((COLOUR_NAMES[colour][index], *forms.get(colour, ()),
                                     SYMBOLS[colour][index])))
        for colour in LEAVES})


def _french() -> Spoken:
    return Spoken(
        lang="fr",
        colours=_colours("fr", {Colour.VIOLET: ("mauve",), Colour.ORANGE: ("rond",),
                                Colour.BROWN: ("carreaux",),
                                Colour.GREEN: ("verte",)}),
        numbers=(("zéro",), ("un", "une"), ("deux",), ("trois",), ("quatre",), ("cinq",),
                 ("six",)),
        verbs=MappingProxyType({
            "collect": ("prends", "prendre", "ramasse", "cueille"),
            "play": ("joue", "jouer", "pose", "poser"),
            "reveal": ("révèle", "révéler", "paie"),
            "place": ("place", "placer"),
            "bonus": ("bonus", "bonus de récolte", "connexions"),
            "objective": ("objectif", "active", "activer"),
            "landscape": ("paysage",),
            "trade": ("défausse", "défausser", "échange"),
            "gain": ("gagne",), "lose": ("perd",), "draw": ("pioche",),
            "empty": ("pioche vide", "pioche épuisée"),
            "end": ("fin", "fin du tour", "fini", "terminé"),
            "colours": ("couleurs",), "without": ("sans", "sauf"),
            "objectives": ("objectifs",), "garden": ("jardin",), "pile": ("pioche",),
        }),
        objectives=MappingProxyType({
            Objective.COOL: ("froides", "froid"), Objective.WARM: ("chaudes", "chaud"),
            Objective.ACORNS: ("glands",), Objective.TORII: ("torii",),
            Objective.ZERO: ("zéro",), Objective.PLACED: ("posées", "moins de cartes"),
            Objective.HAND: ("main", "cartes en main"), Objective.PILES: ("piles", "tas"),
            Objective.SUM: ("somme", "somme des feuilles"),
            Objective.TALLEST: ("plus haute pile", "plus haute"),
        }),
        unknown=("inconnu", "non comptée"),
        queries=("score", "plateau", "actions", "répète", "répéter", "encore", "aide",
                 "non vues", "conseil", "indice", "annule", "annuler", "plus vite",
                 "moins vite", "plus fort", "moins fort", "règles"),
        yes=("oui", "d'accord"), no=("non",),
        joiners=("et", "puis", "le", "la", "les", "l'", "de", "du", "des", "carte",
                 "cartes", "colonne"),
    )


def _spanish() -> Spoken:
    return Spoken(
        lang="es",
        colours=_colours("es", {
            Colour.VIOLET: ("morada", "violeta", "uvas"), Colour.YELLOW: ("amarilla",),
            Colour.RED: ("roja",), Colour.GREEN: ("trébol",), Colour.ORANGE: ("círculo",)}),
        numbers=(("cero",), ("uno", "una"), ("dos",), ("tres",), ("cuatro",), ("cinco",),
                 ("seis",)),
        verbs=MappingProxyType({
            "collect": ("coge", "cojo", "tomo", "recoge"),
            "play": ("juega", "juego", "pon", "pongo"),
            "reveal": ("revela", "revelo", "paga"),
            "place": ("coloca", "coloco"),
            "bonus": ("bonificación", "bono", "conexiones", "cosecha"),
            "objective": ("objetivo", "activa", "activo"),
            "landscape": ("paisaje",),
            "trade": ("descarta", "descarto", "descarta dos", "intercambia"),
            "gain": ("gana", "gano"), "lose": ("pierde", "pierdo"), "draw": ("roba", "robo"),
            "empty": ("mazo vacío", "mazo agotado"),
            "end": ("fin", "fin del turno", "termino", "listo", "he terminado"),
            "colours": ("colores",), "without": ("sin", "excepto"),
            "objectives": ("objetivos",), "garden": ("jardín",), "pile": ("mazo",),
        }),
        objectives=MappingProxyType({
            Objective.COOL: ("frías", "fríos"), Objective.WARM: ("cálidas", "calientes"),
            Objective.ACORNS: ("bellotas",), Objective.TORII: ("torii",),
            Objective.ZERO: ("cero",), Objective.PLACED: ("colocadas", "menos cartas"),
            Objective.HAND: ("mano", "en mano"), Objective.PILES: ("pilas", "montones"),
            Objective.SUM: ("suma",),
            Objective.TALLEST: ("pila más alta", "más alta"),
        }),
        unknown=("desconocido", "sin contar"),
        queries=("puntuación", "tablero", "acciones", "repite", "repetir", "ayuda",
                 "sin ver", "pista", "consejo", "deshacer", "más rápido",
                 "más lento", "más alto", "más bajo", "reglas"),
        yes=("sí", "vale"), no=("no",),
        joiners=("y", "luego", "el", "la", "los", "las", "de", "del", "carta", "cartas",
                 "columna"),
    )


def _ukrainian() -> Spoken:
    return Spoken(
        lang="uk",
        colours=_colours("uk", {
            Colour.GREEN: ("зелені",), Colour.VIOLET: ("виноград",),
            Colour.ORANGE: ("коло",)}),
        numbers=(("нуль",), ("один", "одна", "одну"), ("два", "дві"), ("три",),
                 ("чотири",), ("п'ять",), ("шість",)),
        verbs=MappingProxyType({
            "collect": ("беру", "візьми", "бери", "забираю"),
            "play": ("граю", "зіграй", "викладаю", "виклади"),
            "reveal": ("відкриваю", "відкрий", "плачу"),
            "place": ("докладаю", "доклади"),
            "bonus": ("бонус", "бонус урожаю", "зв'язки"),
            "objective": ("ціль", "активую"),
            "landscape": ("пейзаж",),
            "trade": ("обмін", "скидаю", "скинь"),
            "gain": ("отримую",), "lose": ("втрачаю", "витрачаю"),
            "draw": ("добираю", "тягну"),
            "empty": ("колода порожня", "порожня"),
            "end": ("кінець", "кінець ходу", "готово", "завершую"),
            "colours": ("кольори",), "without": ("без", "крім"),
            "objectives": ("цілі",), "garden": ("сад",), "pile": ("колода",),
        }),
        objectives=MappingProxyType({
            Objective.COOL: ("холодні",), Objective.WARM: ("теплі",),
            Objective.ACORNS: ("жолуді",), Objective.TORII: ("торії",),
            Objective.ZERO: ("нульові",), Objective.PLACED: ("викладені", "найменше карт"),
            Objective.HAND: ("рука", "в руці"), Objective.PILES: ("стоси",),
            Objective.SUM: ("сума",), Objective.TALLEST: ("найвищий стос", "найвищий"),
        }),
        unknown=("невідомо", "не пораховано"),
        queries=("рахунок", "стіл", "дії", "повтори", "повторити", "довідка", "допомога",
                 "не бачили", "порада", "підказка", "скасувати", "швидше",
                 "повільніше", "голосніше", "тихіше", "правила"),
        yes=("так",), no=("ні",),
        joiners=("і", "та", "потім", "карту", "карти", "стовпець"),
    )


_BUILDERS = {"fr": _french, "es": _spanish, "uk": _ukrainian}
LANGS: tuple[str, ...] = ("en", *_BUILDERS)


@functools.cache
def spoken(lang: str) -> Spoken:
    """The words of a language other than English (ValueError if there are none)."""
    key = lang.lower().split("-")[0].split("_")[0]
    if key not in _BUILDERS:
        raise ValueError(f"no Momiji voice words for language {lang!r}; known: "
                         f"{', '.join(LANGS)}")
    return _BUILDERS[key]()  # cached and shared: its tables are read-only
