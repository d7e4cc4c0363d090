"""Momiji voice benchmark: synthetic speech in noise → right / refused / wrong, and latency.

The Momiji counterpart of benchmarks/voice_bench.py, whose pieces it imports (speech
synthesis, noise mixing, the outcome tables). Commands are drawn from seeded random games
(companion/games/momiji/simulate.py, 3 and 4 players) replayed as the companion at the table
sees them (hands unseen): mostly turn commands (collect, play one or two cards the piles
accept, activate an objective, landscape N, trade, bonus N, end...), some questions, some
yes/no in the confirm context, a few set-up answers and one in ten out-of-grammar
sentences of table talk (the right outcome: a refusal). Each is said in English, French,
Spanish or Ukrainian as a player would after hearing the game's prompts and help (colours
by name or by sticker symbol), synthesized with espeak-ng (flite: English only), mixed with
white, pink and babble noise at 40/20/10/6 dB, recognized by `MomijiRecognizer` in the
context of its state (`momiji_context`), then put through the confirmation policy
(`companion.voice.policy.decide`): what the player meets is counted, as in voice_bench.

A case's truth is the canonical text of the action (`action.text()`), the action is one the
rules accept in that state, and the sentence is kept only if the typed-text interpreter
(`interpret(spoken, state)`) reads it as that same command: a template the interpreter does
not read is dropped (counted in the header), never scored as a recognizer error.

One utterance at a time, in this process: the latencies are the player's. Needs numpy
(benchmark only); writes nothing unless `--dump FILE` is given.

    .venv/bin/python benchmarks/momiji_voice_bench.py --quick                # English, ~15 s
    .venv/bin/python benchmarks/momiji_voice_bench.py --quick --lang fr es uk  # ~30 s each
    .venv/bin/python benchmarks/momiji_voice_bench.py --recognizer sphinx --engine flite
    .venv/bin/python benchmarks/momiji_voice_bench.py --seeds 22 33 --lang uk --verbose
    .venv/bin/python benchmarks/momiji_voice_bench.py --seeds 22 33 --per-seed 10 \
        --set-up-step objectives --objectives-in-parts 3   # the objectives, three at a time

A list of objectives heard short is begun, as in play: the player says the next part, or,
once every part is said, the names still missing, and is scored on what the companion
then takes ("right, or once the rest is said").
"""

from __future__ import annotations

import argparse
import dataclasses
import functools
import json
import random
import sys
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
import voice_bench as vb  # noqa: E402  (it also puts the repository on sys.path)

from companion.errors import CompanionError  # noqa: E402
from companion.games.momiji.actions import (  # noqa: E402
    Action,
    Activate,
    Bonus,
    Collect,
    Colours,
    Draw,
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
    parse_action,
)
from companion.games.momiji.data import LEAVES, MAX_VALUE, Leaf, Objective  # noqa: E402
from companion.games.momiji.interpret import interpret  # noqa: E402
from companion.games.momiji.rules import (  # noqa: E402
    Phase,
    State,
    apply,
    begins_objectives,
    legal_actions,
    new_game,
    reveal_size,
)
from companion.games.momiji.simulate import table_script  # noqa: E402
from companion.games.momiji.voice import MomijiContext, momiji_context  # noqa: E402
from companion.narrate.catalogue import Catalogue  # noqa: E402
from companion.voice.policy import CONFIRM_THRESHOLD, Accept, Refuse, decide  # noqa: E402
from stickers.colours import COLOUR_NAMES, NAME_LANGS, SYMBOLS, Colour  # noqa: E402

LANGS = ("en", "fr", "es", "uk")

# Values, landscapes and told numbers are said as words (0 to 6): the synthesizer then says
# exactly what the interpreter is checked on. Pile counts stay digits, read in the voice's
# language ("vingt et un").
NUMBERS: dict[str, tuple[str, ...]] = {
    "en": ("zero", "one", "two", "three", "four", "five", "six"),
    "fr": ("zéro", "un", "deux", "trois", "quatre", "cinq", "six"),
    "es": ("cero", "uno", "dos", "tres", "cuatro", "cinco", "seis"),
    "uk": ("нуль", "один", "два", "три", "чотири", "п'ять", "шість"),
}
AND = {"en": "and", "fr": "et", "es": "y", "uk": "і"}
# The article before a symbol ("le cœur", "los cuatro cuadrados"); a colour name takes the
# language's masculine one. Ukrainian has none.
SYMBOL_ARTICLES: dict[str, dict[Colour, str]] = {
    "en": dict.fromkeys(LEAVES, "the"),
    "fr": {Colour.GREEN: "le", Colour.BROWN: "les", Colour.VIOLET: "la", Colour.YELLOW: "la",
           Colour.ORANGE: "le", Colour.RED: "le"},
    "es": {Colour.GREEN: "el", Colour.BROWN: "los", Colour.VIOLET: "el", Colour.YELLOW: "la",
           Colour.ORANGE: "el", Colour.RED: "el"},
    "uk": dict.fromkeys(LEAVES, ""),
}
NAME_ARTICLES = {"en": "the", "fr": "le", "es": "el", "uk": ""}
# "беру конюшину": the one Ukrainian colour word whose accusative differs (the colour names
# are adjectives of the inanimate стовпець, whose accusative is the nominative).
UK_ACCUSATIVE = {"конюшина": "конюшину"}
# Short names of the objectives that are not a leaf type (cool ... tallest, in Objective
# order), beside the locale's longer name the board reads out.
NON_LEAF = tuple(o for o in Objective if o.leaf is None)
SHORT_OBJECTIVES: dict[str, tuple[str, ...]] = {
    "en": ("cool", "warm", "acorns", "torii", "zero", "fewest placed", "hand", "piles", "sum",
           "tallest pile"),
    "fr": ("froides", "chaudes", "glands", "torii", "zéro", "posées", "main", "piles",
           "somme", "plus haute pile"),
    "es": ("frías", "cálidas", "bellotas", "torii", "cero", "colocadas", "mano", "pilas",
           "suma", "pila más alta"),
    "uk": ("холодні", "теплі", "жолуді", "торії", "нульові карти", "викладені карти",
           "карти в руці", "стоси", "сума", "найвищий стос"),
}

# What players say, per language and command, from the prompts and help each locale gives
# (companion/games/momiji/locales/<lang>.toml) and the interpreter's tests. Fields: {c} a
# colour (name or symbol), {the} the same with its article, {name} a colour name only,
# {gen} and {acc} (Ukrainian) its genitive and accusative, {cards} leaf cards, {n} a number
# word, {o} an objective, {list} colours or objectives, {count} the pile in digits. Bare
# colours or cards (typed "red") are left out: the English voice grammar offers each action
# with its verb only.
TEMPLATES: dict[str, dict[str, tuple[str, ...]]] = {
    "en": {
        "collect": ("collect {c}", "take {the}", "collect {the}", "take {c}"),
        "play": ("play {cards}",), "place": ("place {cards}",), "reveal": ("reveal {cards}",),
        "objective": ("objective {o}", "activate {o}", "activate the {o}"),
        "landscape": ("landscape {n}",), "trade": ("trade", "discard two"),
        "bonus": ("bonus {n}", "connections {n}"), "gain": ("gain {n}",),
        "lose": ("lose {n}",), "draw": ("draw {n}",), "empty": ("empty", "pile empty"),
        "end": ("end", "end turn", "done"),
        "colours": ("{list}", "colours {list}", "without {c}"),
        "objectives": ("{list}", "objectives {list}"), "garden": ("{cards}", "garden {cards}"),
        "pile": ("pile {count}", "{count}"), "pile unknown": ("unknown", "pile unknown"),
        "query": ("score", "board", "actions", "repeat", "help", "undo", "unseen", "hint",
                  "the score", "the board"),
        "yes": ("yes",), "no": ("no",),
        "oog": (*vb.OUT_OF_GRAMMAR, "who has the most acorns", "nice leaves you have there",
                "hand me the dice would you"),
    },
    "fr": {
        "collect": ("prends {the}", "je prends {the}", "prends la colonne {name}",
                    "prendre {the}", "je ramasse {the}"),
        "play": ("pose {cards}", "je pose {cards}", "joue {cards}"),
        "place": ("placer {cards}", "je place {cards}"),
        "reveal": ("révèle {cards}", "je révèle {cards}"),
        "objective": ("objectif {o}", "j'active {o}"), "landscape": ("paysage {n}",),
        "trade": ("défausse", "échange", "je défausse"),
        "bonus": ("bonus {n}", "bonus de récolte {n}", "connexions {n}"),
        "gain": ("gagne {n}",), "lose": ("perd {n}",), "draw": ("pioche {n}",),
        "empty": ("pioche vide", "la pioche est vide"),
        "end": ("fin", "fin du tour", "terminé", "j'ai fini"),
        "colours": ("{list}", "sans {c}"), "objectives": ("{list}", "objectifs {list}"),
        "garden": ("{cards}", "jardin {cards}"), "pile": ("pioche {count}", "{count}"),
        "pile unknown": ("inconnu", "pioche inconnue"),
        "query": ("score", "le score", "plateau", "actions", "répète", "aide", "annule",
                  "non vues", "conseil"),
        "yes": ("oui", "d'accord"), "no": ("non",),
        "oog": (*vb.PHRASES["fr"]["oog"], "qui a le plus de glands", "joli coup",
                "tu veux encore du thé"),
    },
    "es": {
        "collect": ("coge {the}", "cojo {the}", "tomo {the}", "coge la columna de color {name}",
                    "recojo {the}"),
        "play": ("juega {cards}", "juego {cards}", "pongo {cards}"),
        "place": ("coloca {cards}", "coloco {cards}"), "reveal": ("revelo {cards}",),
        "objective": ("objetivo {o}", "activo {o}"), "landscape": ("paisaje {n}",),
        "trade": ("descarta dos", "descartar", "intercambio"),
        "bonus": ("bonificación {n}", "conexiones {n}", "bonificación de cosecha {n}"),
        "gain": ("gana {n}", "gano {n}"), "lose": ("pierde {n}",), "draw": ("roba {n}",),
        "empty": ("mazo vacío",), "end": ("fin", "fin del turno", "termino", "he terminado"),
        "colours": ("{list}", "sin {c}"), "objectives": ("{list}", "objetivos {list}"),
        "garden": ("{cards}", "jardín {cards}"), "pile": ("mazo {count}", "{count}"),
        "pile unknown": ("desconocido", "sin contar"),
        "query": ("puntuación", "tablero", "acciones", "repite", "ayuda", "deshacer",
                  "sin ver", "pista"),
        "yes": ("sí", "vale"), "no": ("no",),
        "oog": (*vb.PHRASES["es"]["oog"], "quién tiene más bellotas", "qué buena jugada",
                "me pasas el agua"),
    },
    "uk": {
        "collect": ("беру {acc}", "беру {name} стовпець", "візьміть {name} стовпець",
                    "забираю {acc}"),
        "play": ("граю {cards}", "зіграй {cards}", "викладаю {cards}"),
        "place": ("докладаю {cards}", "докладіть {cards}"), "reveal": ("відкриваю {cards}",),
        "objective": ("ціль {o}",), "landscape": ("пейзаж {n}",),  # "активую суму": no
        "trade": ("обмін", "скидаю"),
        "bonus": ("бонус {n}", "бонус урожаю {n}", "зв'язки {n}"),
        "gain": ("отримую {n}",), "lose": ("втрачаю {n}",), "draw": ("добираю {n}",),
        "empty": ("колода порожня",), "end": ("кінець", "кінець ходу", "готово", "завершую"),
        "colours": ("{list}", "без {gen}"), "objectives": ("{list}", "цілі {list}"),
        "garden": ("{cards}", "сад {cards}"), "pile": ("колода {count}", "{count}"),
        "pile unknown": ("невідомо", "не пораховано"),
        "query": ("рахунок", "стіл", "дії", "повтори", "довідка", "скасувати", "не бачили",
                  "підказка"),
        "yes": ("так",), "no": ("ні",),
        "oog": (*vb.PHRASES["uk"]["oog"], "у кого найбільше жолудів", "гарний хід",
                "налий мені ще чаю"),
    },
}
# Turn commands by how often a player says them (a game is mostly collects and plays).
TURN_WEIGHTS: dict[str, int] = {
    "collect": 22, "play": 22, "end": 12, "objective": 8, "landscape": 7, "trade": 6,
    "bonus": 6, "reveal": 3, "gain": 2, "lose": 2, "draw": 2, "place": 2, "empty": 2,
}
KIND_WEIGHTS: dict[str, int] = {"turn": 73, "query": 11, "confirm": 8, "setup": 8}
# The per-command table's names for the kinds that are not a verb or a set-up step.
KIND_LABELS = {"query": "a question (score, board, ...)", "yes": "yes", "no": "no",
               "oog": "table talk (right: refused)"}
OOG_EVERY = 10  # one utterance in ten is table talk: at a fixed place, so --quick has one
SETUP_PHASES = (Phase.COLOURS, Phase.OBJECTIVES, Phase.GARDEN, Phase.PILE)
PLAYER_COUNTS = (3, 4)  # one simulated game of each per seed: the states cases are drawn in


# ---------------------------------------------------------------- what players say
def objective_names(objective: Objective, lang: str, catalogue: Catalogue) -> list[str]:
    """The locale's name the board reads out, and a short one (a leaf objective's colour)."""
    # "green-brown-purple leaves" is said without its hyphens (a typed "-" is undo).
    names = [catalogue.word("messages", f"momiji.objective.{objective.value}").replace("-", " ")]
    if objective.leaf is None:
        names.append(SHORT_OBJECTIVES[lang][NON_LEAF.index(objective)])
    elif lang != "uk":  # "ціль зелені листки": a Ukrainian leaf objective keeps its noun
        names.append(COLOUR_NAMES[objective.leaf][NAME_LANGS.index(lang)])
    return names


class Speaker:
    """Says commands in one language, with a seeded choice of words for each."""

    def __init__(self, lang: str, rng: random.Random) -> None:
        self.lang, self.rng = lang, rng
        self.index = NAME_LANGS.index(lang)
        catalogue = Catalogue(lang, games=("momiji",))  # the words the game says
        self.objectives = {o: objective_names(o, lang, catalogue) for o in Objective}

    def colour(self, colour: Colour) -> tuple[str, str, bool]:
        """(word, word with its article, is a symbol): the name 75%, the sticker symbol."""
        if self.rng.random() < 0.25:
            symbol = SYMBOLS[colour][self.index]
            return symbol, f"{SYMBOL_ARTICLES[self.lang][colour]} {symbol}".strip(), True
        name = self.name(colour)
        return name, f"{NAME_ARTICLES[self.lang]} {name}".strip(), False

    def name(self, colour: Colour) -> str:
        if self.lang == "en" and colour is Colour.VIOLET:
            return self.rng.choice(("violet", "purple"))
        return COLOUR_NAMES[colour][self.index]

    def number(self, n: int) -> str:
        return NUMBERS[self.lang][n]

    def join(self, parts: list[str]) -> str:
        """"a b c" or "a, b and c": players say lists both ways."""
        if len(parts) < 2 or self.rng.random() < 0.5:
            return " ".join(parts)
        return f"{', '.join(parts[:-1])} {AND[self.lang]} {parts[-1]}"

    def cards(self, cards: tuple[Leaf, ...]) -> str:
        parts: list[str] = []
        last: Colour | None = None
        for card in cards:
            # "vert un et deux": a value belongs to the colour before it (not in the English
            # voice grammar, which wants a colour before each value).
            if card.colour is last and self.lang != "en" and self.rng.random() < 0.5:
                parts.append(self.number(card.value))
            else:
                parts.append(f"{self.colour(card.colour)[0]} {self.number(card.value)}")
            last = card.colour
        return self.join(parts)

    def say(self, action: Action) -> str:
        """A sentence for `action` (the interpreter's reading is checked by the caller)."""
        key = action.text().split()[0]
        fields: dict[str, str] = {}
        if isinstance(action, PileSize) and action.count is None:
            key = "pile unknown"
        elif isinstance(action, PileSize):
            fields["count"] = str(action.count)
        elif isinstance(action, Colours):  # the list, or "without" the one left out
            fields["list"] = self.join([self.colour(c)[0] for c in action.colours])
            out = [c for c in LEAVES if c not in action.colours] or [LEAVES[0]]
            fields["c"] = self.name(out[0])
            # Ukrainian colour adjectives end in -ий: "без помаранчевого" is the genitive.
            fields["gen"] = fields["c"][:-2] + "ого"
        elif isinstance(action, Objectives):
            fields["list"] = self.join([self.rng.choice(self.objectives[o])
                                        for o in action.objectives])
        elif isinstance(action, Garden | Reveal | Play | Place):
            fields["cards"] = self.cards(action.cards)
        elif isinstance(action, Collect):
            fields["c"], fields["the"], _ = self.colour(action.colour)
            fields["name"] = self.name(action.colour)  # "la colonne rouge", never a symbol
            fields["acc"] = UK_ACCUSATIVE.get(fields["c"], fields["c"])
        elif isinstance(action, Activate):
            fields["o"] = self.rng.choice(self.objectives[action.objective])
        elif isinstance(action, Landscape):
            fields["n"] = self.number(action.card)
        elif isinstance(action, Bonus):
            fields["n"] = self.number(action.connections)
        elif isinstance(action, Gain):
            fields["n"] = self.number(abs(action.acorns))
        elif isinstance(action, Draw):
            fields["n"] = self.number(action.count)
        return self.rng.choice(TEMPLATES[self.lang][key]).format(**fields)


# ---------------------------------------------------------------- states and cases
@dataclass(frozen=True)
class MomijiCase:
    spoken: str
    truth: str | None  # None: out of grammar, the right outcome is a refusal
    context: MomijiContext
    kind: str  # the command's verb, query, yes, no, oog (what --verbose and --dump show)
    # Set-up objectives said in parts (--objectives-in-parts), each once the list so far is
    # read back; `spoken` stays the whole list, whose noise draws keep the other cases' own.
    parts: tuple[str, ...] = ()


def table_states(rng: random.Random) -> list[tuple[State, Action]]:
    """(state, the action the table took there) for a few simulated games, replayed as the
    companion sees them: hands unseen, so plays may name cards nobody has shown."""
    steps: list[tuple[State, Action]] = []
    for players in PLAYER_COUNTS:
        while True:
            game = rng.randrange(1 << 30)
            try:  # a random game that gets stuck is a simulator matter: take another
                lines = table_script(game, players)
                break
            except RuntimeError:
                continue
        state = new_game(players)
        for line in lines:
            action = parse_action(line)
            steps.append((state, action))
            state, _ = apply(state, action)
    return steps


def reading(spoken: str, state: State) -> str | None:
    """The canonical text the typed-text interpreter reads `spoken` as, or None."""
    try:
        return interpret(spoken, state).text()
    except CompanionError:
        return None


def accepted(state: State, action: Action) -> bool:
    """Whether the rules take `action` now without a question (`end` asked about: no)."""
    try:
        apply(state, action)
    except CompanionError:
        return False
    return True


def turn_offers(steps: list[tuple[State, Action]], rng: random.Random
                ) -> dict[str, list[tuple[State, list[Action]]]]:
    """verb → the turn states where it may be said, with the actions of that verb there:
    plays and places of one or two cards, a plain `trade`, a reveal of random cards."""
    offers: dict[str, list[tuple[State, list[Action]]]] = {v: [] for v in TURN_WEIGHTS}
    for state, _ in steps:
        if state.phase is not Phase.TURN:
            continue
        by_verb: dict[str, list[Action]] = {}
        for action in legal_actions(state):
            if isinstance(action, Play | Place) and len(action.cards) > 2:
                continue
            if isinstance(action, Trade) and action.cards or action == End(anyway=True):
                continue
            by_verb.setdefault(action.text().split()[0], []).append(action)
        if size := reveal_size(state):  # chance: the cards come from the pile
            cards = tuple(Leaf(rng.choice(state.colours), rng.randint(0, MAX_VALUE))
                          for _ in range(size))
            by_verb["reveal"] = [Reveal(cards)]
        for verb, actions in by_verb.items():
            actions = [a for a in actions if accepted(state, a)]
            if verb in offers and actions:
                offers[verb].append((state, actions))
    return offers


class CaseMaker:
    """Seeded cases for one language, each checked against the interpreter."""

    def __init__(self, lang: str, rng: random.Random, in_parts: int = 0,
                 tag: str = "", step: str | None = None) -> None:
        self.lang, self.rng = lang, rng
        self.in_parts, self.tag = in_parts, tag
        self.speaker = Speaker(lang, rng)
        self.steps = table_states(rng)
        self.offers = turn_offers(self.steps, rng)
        self.turns = [s for s, _ in self.steps if s.phase is Phase.TURN]
        self.setups = [(s, a) for s, a in self.steps if s.phase is not Phase.TURN
                       and (step is None or s.phase.value == step)]
        self.step = step  # --set-up-step: only that step is drawn
        self.dropped: Counter[str] = Counter()  # sentences the interpreter read otherwise

    def make(self, index: int) -> MomijiCase:
        """The `index`th case of the seed."""
        kind = "setup" if self.step else "oog" if index % OOG_EVERY == 3 else \
            self.rng.choices(list(KIND_WEIGHTS), weights=list(KIND_WEIGHTS.values()))[0]
        draw: dict[str, Callable[[], MomijiCase | None]] = {
            "turn": self._turn, "setup": self._setup, "query": self._query,
            "confirm": self._confirm, "oog": self._oog}
        for _ in range(50):  # a sentence the interpreter reads otherwise: draw again
            case = draw[kind]()
            if case is not None:
                return self._parts(case, index) if self.in_parts else case
        raise RuntimeError(f"no {kind} case in 50 draws: check the {self.lang} templates")

    def _parts(self, case: MomijiCase, index: int) -> MomijiCase:
        """Objectives said in parts of `in_parts` names, each once the list so far is read
        back, with draws of their own: every other utterance stays as it was."""
        state = case.context.state
        if case.kind != "objectives" or state is None or case.truth is None:
            return case
        named = parse_action(case.truth).objectives  # type: ignore[union-attr]
        speaker = Speaker(self.lang, random.Random(f"{self.tag}-parts-{index}"))
        size = self.in_parts
        parts = [Objectives(named[at:at + size]) for at in range(0, len(named), size)]
        said = [speaker.say(part) for part in parts]
        wanted = [Objectives(named[:at + size]).text() for at in range(0, len(named), size)]
        read: list[str] = []
        try:
            for at, line in enumerate(said):
                so_far = Objectives(named[:at * size]) if at else None
                read.append(interpret(line, state, pending=so_far).text())
        except CompanionError:
            pass
        if read != wanted:
            self.dropped[f"{said!r} read as {read}, not {case.truth} in parts"] += 1
            return case  # said whole, as without the option
        return dataclasses.replace(case, parts=tuple(said))

    def _action_case(self, state: State, action: Action, kind: str) -> MomijiCase | None:
        spoken = self.speaker.say(action)
        if not self._reads(spoken, state, action.text()):
            return None
        return MomijiCase(spoken, action.text(), momiji_context(state), kind)

    def _reads(self, spoken: str, state: State, truth: str | None) -> bool:
        """Whether the interpreter reads `spoken` as `truth` (None: as nothing at all)."""
        text = reading(spoken, state)
        if text != truth:
            self.dropped[f"{spoken!r} read as {text}, not {truth}"] += 1
        return text == truth

    def _turn(self) -> MomijiCase | None:
        verbs = [v for v in TURN_WEIGHTS if self.offers[v]]
        verb = self.rng.choices(verbs, weights=[TURN_WEIGHTS[v] for v in verbs])[0]
        state, actions = self.rng.choice(self.offers[verb])
        return self._action_case(state, self.rng.choice(actions), verb)

    def _setup(self) -> MomijiCase | None:
        state, action = self.rng.choice(self.setups)
        return self._action_case(state, action, state.phase.value)

    def _query(self) -> MomijiCase | None:
        state = self.rng.choice(self.turns)
        spoken = self.rng.choice(TEMPLATES[self.lang]["query"])
        truth = reading(spoken, state)
        if truth is None:
            self.dropped[f"{spoken!r} read as nothing"] += 1
            return None
        return MomijiCase(spoken, truth, momiji_context(state), "query")

    def _confirm(self) -> MomijiCase | None:
        state = self.rng.choice(self.turns)
        answer = self.rng.choice(("yes", "no"))
        spoken = self.rng.choice(TEMPLATES[self.lang][answer])
        if not self._reads(spoken, state, answer):
            return None
        return MomijiCase(spoken, answer, momiji_context(state, confirming=True), answer)

    def _oog(self) -> MomijiCase | None:
        state = self.rng.choice(self.turns)
        spoken = self.rng.choice(TEMPLATES[self.lang]["oog"])
        if not self._reads(spoken, state, None):  # chatter the interpreter would take
            return None
        return MomijiCase(spoken, None, momiji_context(state, self.rng.random() < 0.2), "oog")


# ---------------------------------------------------------------- running
def make_recognizer(kind: str, lang: str, model: str | None,
                    stand_ins: Path | None = None) -> tuple[Any, Any, str]:
    """(MomijiRecognizer, its engine, a description) for --recognizer; with `stand_ins`
    (a folder), other voices' words beside Whisper as in play for a player who has not
    enrolled (companion/voice/stand_ins.py)."""
    from companion.games.momiji.voice import MOMIJI_PRONUNCIATIONS, MomijiRecognizer

    if kind == "sphinx":
        from companion.voice.sphinx import SphinxRecognizer

        engine: Any = SphinxRecognizer(words=MOMIJI_PRONUNCIATIONS)
        return MomijiRecognizer(engine), engine, "pocketsphinx (JSGF, three-way agreement)"
    from companion.voice.whisper import WhisperRecognizer

    engine = WhisperRecognizer(model, lang=lang)
    engine.ready()  # load the model now: its loading is not a player's decode
    how = vb.describe_whisper(lang)
    if stand_ins is not None:
        engine = vb.with_stand_ins(engine, "momiji", lang, stand_ins)
        how += "; other voices' words beside it"
    return MomijiRecognizer(engine), engine, f"whisper {engine.path.parent.name}/" \
        f"{engine.path.name}{how}"


@dataclass
class Run:
    outcomes: list[vb.Outcome]
    kinds: Counter[str]
    dropped: Counter[str]


def run_lang(lang: str, args: argparse.Namespace, seeds: list[int], per_seed: int,
             voices: tuple[str, ...], recognizer: Any, engine: Any) -> Run:
    result = Run([], Counter(), Counter())
    for seed in seeds:
        rng = random.Random(seed)
        nrng = np.random.default_rng(seed)
        babble = vb.Babble(rng)
        maker = CaseMaker(lang, random.Random(f"{seed}-{lang}"), args.objectives_in_parts,
                          f"{seed}-{lang}", args.set_up_step)
        for index in range(per_seed):
            case = maker.make(index)
            result.kinds[case.kind] += 1
            voice = rng.choice(voices)
            rate, pitch = rng.randint(130, 190), rng.randint(25, 75)
            speech = vb.synth(case.spoken, voice, rate, pitch)
            parts = [vb.synth(p, voice, rate, pitch) for p in case.parts]
            frng = np.random.default_rng((seed, index))  # the parts' own noise draws
            for snr in vb.SNRS:
                for noise in vb.NOISES:
                    pcm = vb.mix(speech, noise, snr, nrng, babble)
                    said = [vb.mix(p, noise, snr, frng, babble) for p in parts]
                    if said:  # in parts: the first is decoded, the whole list is not
                        pcm, said = said[0], said[1:]
                    rest = functools.partial(
                        say_rest, lang=lang, tag=f"{seed}-{lang}-rest-{index}", voice=voice,
                        rate=rate, pitch=pitch, snr=snr, noise=noise, babble=babble)
                    result.outcomes.append(decode(recognizer, engine, pcm, case, snr, noise,
                                                  voice, args, said, rest))
        result.dropped += maker.dropped
    return result


def say_rest(names: tuple[Objective, ...], *, lang: str, tag: str, voice: str, rate: int,
             pitch: int, snr: int, noise: str, babble: vb.Babble) -> bytes:
    """The objectives not heard yet, said once the list so far is read back with how many
    are missing (speech and noise draws of their own, from `tag`)."""
    text = Speaker(lang, random.Random(tag)).say(Objectives(names))
    own = np.random.default_rng(list(f"{tag}-{snr}-{noise}".encode()))
    return vb.mix(vb.synth(text, voice, rate, pitch), noise, snr, own, babble)


def decode(recognizer: Any, engine: Any, pcm: bytes, case: MomijiCase, snr: int, noise: str,
           voice: str, args: argparse.Namespace, later: list[bytes] | None = None,
           rest: Callable[[tuple[Objective, ...]], bytes] | None = None) -> vb.Outcome:
    t0 = time.perf_counter()
    rec = recognizer.recognize(pcm, case.context)
    ms = 1000 * (time.perf_counter() - t0)
    decision = decide(rec, args.threshold, answering=case.context.kind == "confirm")
    # What the player meets: a command the policy refuses (too much noise) is a refusal.
    command = None if isinstance(decision, Refuse) else rec.command
    begun = command is not None and _part(command, case)
    outcome = vb.Outcome(snr, noise, "context", case.truth, command, rec.confidence,
                         isinstance(decision, Accept), rec.words, ms, rec.margin, voice,
                         getattr(engine, "evidence", None),
                         case.parts[0] if case.parts else case.spoken, case.kind,
                         begun=begun, then=_next_parts(recognizer, command, case, later or [],
                                                       args, rest) if begun else None)
    if args.verbose and command != case.truth:
        print(f"  [{snr:2} {noise:6} {case.context.kind:7}] {outcome.spoken!r} ({voice}) -> "
              f"{rec.words!r} -> {command} c={rec.confidence:.2f} (truth {case.truth})",
              file=sys.stderr)
    return outcome


def _part(command: str, case: MomijiCase) -> bool:
    """Whether `command` only begins a list of objectives (the session keeps it; heard,
    it was checked by the voice reading, so the rules do not refuse it here)."""
    state = case.context.state
    return (command.startswith("objectives ") and state is not None
            and begins_objectives(state, parse_action(command)))


def _next_parts(recognizer: Any, command: str, case: MomijiCase, later: list[bytes],
                args: argparse.Namespace,
                rest: Callable[[tuple[Objective, ...]], bytes] | None = None) -> str | None:
    """What the companion takes once the later parts are said, each in the context of the
    list so far, then (`rest`) the names still missing, said once (None: refused, or a
    part heard that was not said: the player cancels)."""
    assert case.truth is not None and case.context.state is not None
    said = parse_action(case.truth).objectives  # type: ignore[union-attr]
    for pcm in [*later, None]:
        so_far = parse_action(command).objectives  # type: ignore[union-attr]
        if not set(so_far) <= set(said):
            return None
        if pcm is None:  # every part said: the player is told how many are missing
            if rest is None:
                return None
            pcm = rest(tuple(o for o in said if o not in so_far))
        ctx = momiji_context(case.context.state, pending=Objectives(so_far))
        rec = recognizer.recognize(pcm, ctx)
        if isinstance(decide(rec, args.threshold), Refuse) or rec.command is None:
            return None
        command = rec.command
        if not _part(command, case):
            return command
    return None  # still short once the missing names were said


def report(lang: str, result: Run, describe: str, args: argparse.Namespace, seeds: list[int],
           per_seed: int, voices: tuple[str, ...], elapsed: float) -> str:
    ing = sum(n for k, n in result.kinds.items() if k != "oog")
    kinds = ", ".join(f"{k} {n}" for k, n in result.kinds.most_common())
    decodes = len(result.outcomes)
    header = (
        f"Momiji, commands in {lang}; recognizer {describe}; engine {args.engine}: seeds "
        f"{seeds}, {per_seed} utterances each ({ing} in grammar, {result.kinds['oog']} out of "
        f"grammar; {kinds}), {len(voices)} voices, SNRs {'/'.join(map(str, vb.SNRS))} dB x "
        f"{'/'.join(vb.NOISES)} noise, {decodes} decodes; confirmation threshold "
        f"{args.threshold}; one utterance at a time; "
        + (f"the objectives said {args.objectives_in_parts} at a time; "
           if args.objectives_in_parts else "")
        + (f"only the {args.set_up_step} set-up step; " if args.set_up_step else "")
        + f"{sum(result.dropped.values())} drawn "
        f"sentences dropped (the interpreter read them otherwise); "
        + f"run {elapsed:.0f} s.")
    return (header + "\n\n" + vb.table(result.outcomes, by_noise=False) + "\n\n"
            + vb.summary(result.outcomes)
            + "\n\nPer command said (a turn's verb, a set-up step; right / wrong %):\n\n"
            + vb.kinds_table(result.outcomes, KIND_LABELS) + "\n\nPer noise type:\n\n"
            + vb.table(result.outcomes))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seeds", type=int, nargs="+", default=[11, 22, 33],
                        help="11 is the tuning seed, 22 and 33 the reporting ones")
    parser.add_argument("--per-seed", type=int, default=20, help="utterances per seed")
    parser.add_argument("--quick", action="store_true", help="the first seed, 6 utterances")
    parser.add_argument("--lang", choices=LANGS, nargs="+", default=["en"],
                        help="the commands' language(s), each measured on its own")
    parser.add_argument("--engine", choices=["espeak", "flite", "mbrola", "pico", "neural"],
                        default="espeak",
                        help="the voices that speak the commands (flite and neural: English "
                             "only; MBROLA and Pico: no Ukrainian; babble is always espeak-ng)")
    parser.add_argument("--recognizer", choices=["whisper", "sphinx"], default="whisper",
                        help="the recognition engine (sphinx: English only)")
    parser.add_argument("--whisper-model", default=None, metavar="DIR",
                        help="a CTranslate2 Whisper model (default: the installed one for "
                             "the language, tiny.en or the multilingual base)")
    parser.add_argument("--stand-ins", type=Path, default=None, metavar="DIR",
                        help="whisper: other voices' words beside it, as in play for a player "
                             "who has not enrolled (kept in DIR)")
    parser.add_argument("--threshold", type=float, default=CONFIRM_THRESHOLD,
                        help="confirmation threshold (default: the policy's)")
    parser.add_argument("--verbose", action="store_true", help="print every miss on stderr")
    parser.add_argument("--objectives-in-parts", type=int, default=0, metavar="N",
                        help="the set-up objectives said N at a time, each part once the "
                             "list so far is read back (0: whole): the same utterances "
                             "otherwise")
    parser.add_argument("--set-up-step", choices=[p.value for p in SETUP_PHASES],
                        help="draw only that set-up step (a larger sample of a rare one)")
    parser.add_argument("--dump", type=Path, metavar="FILE",
                        help="write every outcome as a JSON line, with its language")
    args = parser.parse_args(argv)
    if set(args.lang) != {"en"} and args.recognizer == "sphinx":
        parser.error("pocketsphinx is English only")
    seeds, per_seed = (args.seeds[:1], 6) if args.quick else (args.seeds, args.per_seed)
    dump = open(args.dump, "w", encoding="utf-8") if args.dump else None  # noqa: SIM115
    try:
        for lang in args.lang:
            try:
                voices = vb.engine_voices(args.engine, lang)
            except ValueError as no_voice:
                parser.error(str(no_voice))
            t0 = time.perf_counter()
            recognizer, engine, describe = make_recognizer(args.recognizer, lang,
                                                           args.whisper_model, args.stand_ins)
            result = run_lang(lang, args, seeds, per_seed, voices, recognizer, engine)
            elapsed = time.perf_counter() - t0
            print(report(lang, result, describe, args, seeds, per_seed, voices, elapsed)
                  + "\n", flush=True)
            if args.verbose:
                for dropped, n in result.dropped.most_common():
                    print(f"{lang}: dropped {n}x {dropped}", file=sys.stderr)
            if dump:
                for o in result.outcomes:
                    dump.write(json.dumps({"lang": lang, **dataclasses.asdict(o)},
                                          ensure_ascii=False, default=str) + "\n")
    finally:
        if dump:
            dump.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
