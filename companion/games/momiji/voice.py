"""Voice commands for Momiji: listening contexts, JSGF grammars (English) and phrase lists
(French, Spanish, Ukrainian: spoken.py), reading the words.

The same recognizer as Hanamikoji (`SphinxRecognizer`, three-way agreement) decodes against
grammars built here from the Momiji state, so only what the rules could accept now is
offered to the decoder: the colours in play, the values a player's piles can take, the
objectives still available, a reveal of exactly the cards the pile holds, `end` only once
the turn may end. The decoded words go through the Momiji interpreter (the same one as typed
lines) and the rules engine; anything they refuse is refused, never guessed at.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from companion.errors import CompanionError
from companion.games.momiji.actions import Action, Objectives
from companion.games.momiji.data import (
    HAND_LIMIT,
    LANDSCAPES,
    LEAVES,
    MAX_VALUE,
    OBJECTIVE_COST,
    TYPES_IN_PLAY,
    Leaf,
    Objective,
    tokens_for,
)
from companion.games.momiji.interpret import Command, interpret, parse_command
from companion.games.momiji.rules import Phase, State, apply, begins_objectives, main_possible
from companion.games.momiji.spoken import LANGS, Spoken, spoken
from companion.normalize import fold
from companion.shared_commands import Adjust, Ask, Cancel, NewGame, Query, Quit, Reply, Undo
from companion.shared_words import ASKING, COURTESY, HINT_ASKED, QUERY_WORDS, UNDO_WORDS
from companion.voice.policy import QUERY_COMMANDS
from companion.voice.shared_words import (
    CANCEL,
    CANCEL_WORDS,
    ENDING_DECOYS,
    ENDING_RULE,
    PRACTICE_RULE,
    QUERIES,
    SETTINGS,
    ending_phrases,
    ending_read,
    ending_unprompted,
    practice_phrases,
    practice_word,
    quit_unprompted,
    said_otherwise,
)
from companion.voice.sphinx import HIGH, LOW, Grammar, Recognition, SphinxRecognizer
from companion.voice.vosk_backend import UNKNOWN
from stickers.colours import Colour

KINDS: tuple[str, ...] = ("colours", "objectives", "garden", "pile", "turn", "after",
                          "reveal", "confirm", "over")

# CMU phones for grammar words the en-us dictionary lacks (checked with lookup_word).
MOMIJI_PRONUNCIATIONS: dict[str, tuple[str, ...]] = {
    "torii": ("T AO R IY IY", "T AO R IY"),
    "momiji": ("M OW M IY JH IY",),
}

# Spoken leaf types: the colour, then the tactile symbol a player feels on the sticker.
# "purple" is how many say violet; multi-word symbols are one JSGF sequence.
COLOUR_SPOKEN: dict[Colour, tuple[str, ...]] = {
    Colour.GREEN: ("green", "clover"),
    Colour.BROWN: ("brown", "four squares"),
    Colour.VIOLET: ("violet", "purple", "grapes"),
    Colour.YELLOW: ("yellow", "moon"),
    Colour.ORANGE: ("orange", "filled circle"),
    Colour.RED: ("red", "heart"),
}
# Objectives by the names the command language uses, and by the names the board says
# ("sum of the top cards"); a leaf objective is its colour name, "leaves" optional (a
# symbol there would add paths and no player reads objectives by symbol).
OBJECTIVE_SPOKEN: dict[Objective, tuple[str, ...]] = {
    **{Objective(c.value): (f"{c.value} [leaves]",) for c in LEAVES},
    Objective.VIOLET: ("violet [leaves]", "purple [leaves]"),
    Objective.COOL: ("cool",), Objective.WARM: ("warm",), Objective.ACORNS: ("acorns",),
    Objective.TORII: ("torii",), Objective.ZERO: ("zero [cards]",),
    Objective.PLACED: ("placed", "fewest [cards] placed"), Objective.HAND: ("[cards in] hand",),
    Objective.PILES: ("piles [and unused landscapes]",), Objective.SUM: ("sum [of the top cards]",),
    Objective.TALLEST: ("tallest", "tallest pile"),
}
VALUES: tuple[str, ...] = ("zero", "one", "two", "three")
SMALL: tuple[str, ...] = ("one", "two", "three", "four", "five", "six")  # bonus, gain, draw
_UNITS = ("one", "two", "three", "four", "five", "six", "seven", "eight", "nine")
_TEENS = ("ten", "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen",
          "seventeen", "eighteen", "nineteen")
_TENS = ("twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety")
_YES = ("yes", "yeah", "correct")
_NO = ("no", "nope")
# The spoken queries and settings every game offers ("speak faster"): the policy applies
# them at once.
_QUERY_RULE = f"[the] {'(' + ' | '.join(QUERIES) + ')'} | speak {'(' + ' | '.join(SETTINGS) + ')'}"
# Commands naming this many things (cards, colours, objectives) are always asked about: in a
# list one misheard value is likely, and all three decodes agreed on "reveal ... orange 3"
# for a synthesized "orange 0" (docs/voice.md).
ASK_FROM_ITEMS = 3
CARD_VERBS = frozenset({"garden", "reveal", "play", "place", "trade"})
MAX_PLAY = len(LEAVES)  # several types: at most one card of each


@dataclass(frozen=True)
class MomijiContext:
    """What can be said now, derived from the state (build it with `momiji_context`).

    `values` maps each colour a play may use to the values its pile can take next;
    `reveal` is the (fewest, most) cards a reveal names, (0, 0) when it is not possible.
    In a game the companion deals (practice: `dealt`) a reveal names no card (`reveal`
    alone: the companion turns the pile's top over), and the cards a trade gives and those
    discarded above the hand limit (`discard` of them: `end discard green 0 red 1`) are
    named from `hand`, the player's cards when the companion knows all of them. The hand
    stays inside recognition: nothing said or printed names it.
    """

    kind: str
    colours: tuple[Colour, ...] = ()
    want: int = 0  # colours, objectives or garden cards to name at set-up
    objectives: tuple[Objective, ...] = ()  # nameable now (set-up, or available to activate)
    so_far: tuple[Objective, ...] = ()  # set-up objectives named in an earlier part
    collect: tuple[Colour, ...] = ()
    values: tuple[tuple[Colour, tuple[int, ...]], ...] = ()
    reveal: tuple[int, int] = (0, 0)
    landscapes: tuple[int, ...] = ()
    trade: bool = False
    bonus: bool = False
    effects: bool = False  # a landscape was used: gain, lose, draw, place
    empty: bool = False
    end: bool = False
    dealt: bool = False
    discard: int = 0  # cards above the hand limit the end of the turn names
    hand: tuple[Leaf, ...] | None = None
    practice: bool = False  # a table with a computer: its practice word (`hand`) is heard
    state: State | None = field(default=None, compare=False, repr=False)

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise ValueError(f"unknown Momiji voice context {self.kind!r}")


def _pile_values(pile: tuple[int, ...]) -> tuple[int, ...]:
    """Values a play of up to two cards of one type may put on `pile` (ascending order)."""
    if not pile:
        return (0, 1)
    top = pile[-1]
    return () if top == MAX_VALUE else tuple(range(top, min(MAX_VALUE, top + 2) + 1))


def momiji_context(state: State, confirming: bool = False, pending: Any = None
                   ) -> MomijiContext:
    """The listening context for a Momiji state (`confirming`: a yes or no is awaited;
    `pending`: the session's half-entered command, objectives named in part)."""
    if confirming:
        return MomijiContext("confirm", state=state)
    if state.phase is Phase.TURN:
        return _turn_context(state)
    return _setup_context(state, pending)


def _setup_context(state: State, pending: Any) -> MomijiContext:
    """A set-up phase's context: what it asks to name (or the game over)."""
    phase = state.phase
    count = state.count
    if phase is Phase.COLOURS:
        return MomijiContext("colours", colours=LEAVES, want=TYPES_IN_PLAY[count], state=state)
    if phase is Phase.OBJECTIVES:
        allowed = tuple(o for o in Objective if o.leaf is None or o.leaf in state.colours)
        # Named in parts: the next part names only objectives not named yet (one named
        # already was the likeliest rival of the one said: "orange piles" for "acorns, piles").
        so_far = pending.objectives if isinstance(pending, Objectives) else ()
        return MomijiContext("objectives", colours=state.colours, want=tokens_for(count),
                             objectives=tuple(o for o in allowed if o not in so_far),
                             so_far=so_far, state=state)
    if phase is Phase.GARDEN:
        return MomijiContext("garden", colours=state.colours, want=4, state=state)
    if phase is Phase.PILE:
        return MomijiContext("pile", state=state)
    return MomijiContext("over", state=state)  # Phase.OVER, the last one


def _turn_context(state: State) -> MomijiContext:
    """A turn's context: what the player to move may still do, by how far the turn has gone."""
    turn = state.turn
    me = state.players[state.to_move]
    main = turn.main
    free = turn.optional is None
    dealt = state.virtual  # no landscapes nor harvest bonus there (docs/practice.md)
    hand = me.hand.known if me.hand.unknown == 0 else None
    end = main not in (None, "reveal") or (main is None and main_possible(state) is not True)
    return MomijiContext(
        "turn" if main is None else "reveal" if main == "reveal" else "after",
        colours=state.colours, collect=_collectable(state), values=_playable(state),
        reveal=_reveal_range(state),
        objectives=state.available if main is None and me.acorns >= OBJECTIVE_COST else (),
        landscapes=tuple(n for n in range(1, LANDSCAPES + 1) if n not in me.landscapes)
        if free and me.acorns >= 1 and not dealt else (),
        trade=free and me.hand.size >= 2,
        bonus=main == "play" and turn.several and not turn.bonus and not dealt,
        effects=turn.optional == "landscape", empty=state.pile != 0,
        # with unnamed cards in hand, "end" is heard and the player asked to confirm
        end=end, dealt=dealt, hand=hand,
        discard=max(0, me.hand.size - HAND_LIMIT) if end and hand is not None else 0,
        state=state,
    )


def _collectable(state: State) -> tuple[Colour, ...]:
    """The garden's columns a collect may name: before the main action or once revealed."""
    if state.turn.main not in (None, "reveal"):
        return ()
    return tuple(c for c in state.colours if state.column(c))


def _playable(state: State) -> tuple[tuple[Colour, tuple[int, ...]], ...]:
    """Each colour a play may use now, with the values its pile can take next."""
    turn = state.turn
    if turn.main is not None and turn.optional != "landscape":  # neither a play nor a placing
        return ()
    me = state.players[state.to_move]
    return tuple((c, v) for c in state.colours if (v := _pile_values(me.pile(c))))


def _reveal_range(state: State) -> tuple[int, int]:
    """The (fewest, most) cards a reveal names; (0, 0) when no reveal is possible."""
    me = state.players[state.to_move]
    if state.turn.main is not None or me.acorns < 1 or state.pile == 0:
        return (0, 0)
    most = 4 if state.pile is None else min(4, state.pile)
    return (1 if state.pile is None else most, most)  # an uncounted pile may run out


# -- grammars ------------------------------------------------------------------------------
def _alt(words: Iterable[str]) -> str:
    return "(" + " | ".join(words) + ")"


def _colour(colours: Iterable[Colour]) -> str:
    return _alt(w for c in colours for w in COLOUR_SPOKEN[c])


def _card(values: Iterable[tuple[Colour, Iterable[int]]]) -> str:
    """One leaf: a colour word then one of its values."""
    return _alt(f"{_colour([c])} {_alt(VALUES[v] for v in vs)}" for c, vs in values)


def _repeat(item: str, fewest: int, most: int) -> str:
    """`item` said fewest..most times, "and" optional between: JSGF has no counted repeats."""
    tail = ""
    for _ in range(most - fewest):
        tail = f" [[and] {item}{tail}]"
    return " [and] ".join([item] * fewest) + tail


def _number_rule() -> str:
    """1 to 99 as said: "thirty one", "twelve", "seven" (a counted draw pile)."""
    return _alt([*_UNITS, *_TEENS, f"{_alt(_TENS)} [{_alt(_UNITS)}]"])


def _objective(objectives: Iterable[Objective]) -> str:
    return _alt(w for o in objectives for w in OBJECTIVE_SPOKEN[o])


def body_rules(ctx: MomijiContext) -> list[str]:
    """The alternatives of the command rule for a context (JSGF right-hand sides)."""
    alts = [_QUERY_RULE, PRACTICE_RULE] if ctx.practice else [_QUERY_RULE]
    kind = ctx.kind
    if kind == "confirm":
        return [*alts, _alt(_YES), _alt(_NO)]
    if kind == "colours":
        alts.append(f"[colours] {_repeat('<colour>', ctx.want, ctx.want)}")
        gone = len(LEAVES) - ctx.want
        alts.append(f"without {_repeat('<colour>', gone, gone)}")
    elif kind == "objectives":  # a part of the list, or all of it (adapter.pending)
        alts.append(f"[objectives] {_repeat('<objective>', 1, ctx.want - len(ctx.so_far))}")
        if ctx.so_far:  # a part misheard is dropped by voice too
            alts.append(_alt(CANCEL_WORDS))
    elif kind == "garden":
        alts.append(f"[garden] {_repeat('<card>', ctx.want, ctx.want)}")
    elif kind == "pile":
        alts.append(f"[pile] ({_number_rule()} | unknown)")
    elif kind in ("turn", "after", "reveal"):
        alts += _turn_rules(ctx)
    elif kind == "over":
        alts += [ENDING_RULE, ENDING_DECOYS]
    return alts


def _most(ctx: MomijiContext) -> int:
    # One card of each playable type, or two of one type.
    return min(MAX_PLAY, max(2, len(ctx.values)))


def _turn_offers(ctx: MomijiContext) -> list[str]:
    """What a turn context offers, in grammar order: lexicon.VERB_WORDS keys, "effects"
    standing for a landscape's gain, lose and draw. The English grammar and the other
    languages' phrases are both made from it, so they offer the same moves."""
    offered = {
        "collect": bool(ctx.collect), "play": bool(ctx.values) and ctx.kind == "turn",
        "reveal": bool(ctx.reveal[1]), "objective": bool(ctx.objectives),
        "landscape": bool(ctx.landscapes), "trade": ctx.trade, "bonus": ctx.bonus,
        "effects": ctx.effects, "place": ctx.effects and bool(ctx.values),
        "empty": ctx.empty, "end": ctx.end,
    }
    return [offer for offer, now in offered.items() if now]


def _held(ctx: MomijiContext) -> tuple[tuple[Colour, tuple[int, ...]], ...]:
    """The values of each colour in the player's hand (every value when it is not known)."""
    if ctx.hand is None:
        return tuple((c, tuple(range(MAX_VALUE + 1))) for c in ctx.colours or LEAVES)
    held: dict[Colour, set[int]] = {}
    for leaf in ctx.hand:
        held.setdefault(leaf.colour, set()).add(leaf.value)
    return tuple((c, tuple(sorted(vs))) for c, vs in held.items())


def _turn_rules(ctx: MomijiContext) -> list[str]:
    plays = _repeat("<play>", 1, _most(ctx))
    trade = "trade | discard two"
    if ctx.hand is not None and len(ctx.hand) >= 2:  # its two cards named (practice)
        trade = f"{trade} | (trade | discard) <held> [and] <held>"
    end = "end [turn] | done"
    if ctx.discard:  # above the hand limit: the cards discarded named
        end = f"{end} | (end [turn] | done) [discard] {_repeat('<held>', ctx.discard, ctx.discard)}"
    rules = {
        "collect": f"(collect | take) [the] {_colour(ctx.collect)}",
        "play": f"play {plays}",
        "reveal": "reveal" if ctx.dealt else f"reveal {_repeat('<card>', *ctx.reveal)}",
        "objective": f"(objective | activate) [the] {_objective(ctx.objectives)}",
        "landscape": f"landscape {_alt(VALUES[n] for n in ctx.landscapes)}",
        "trade": trade,
        "bonus": f"(bonus | connections) {_alt(SMALL)}",
        "effects": f"(gain | lose | draw) {_alt(SMALL)}",
        "place": f"place {plays}",
        "empty": "[pile] empty",
        "end": end,
    }
    return [rules[offer] for offer in _turn_offers(ctx)]


def _all_values() -> tuple[tuple[Colour, tuple[int, ...]], ...]:
    return tuple((c, tuple(range(MAX_VALUE + 1))) for c in LEAVES)


def _rules_text(ctx: MomijiContext) -> dict[str, str]:
    colours = ctx.colours or LEAVES
    return {
        "colour": _colour(LEAVES if ctx.kind == "colours" else colours),
        "objective": _objective(ctx.objectives or list(Objective)),
        "card": _card((c, range(MAX_VALUE + 1)) for c in colours),
        "play": _card(ctx.values or _all_values()),
        "held": _card(_held(ctx)),
    }


def _jsgf(name: str, rules: dict[str, str], alternatives: Sequence[str]) -> str:
    used = {r: body for r, body in rules.items()
            if any(f"<{r}>" in a for a in alternatives)}
    lines = ["#JSGF V1.0;", f"grammar {name};"]
    lines += [f"<{r}> = {body};" for r, body in used.items()]
    lines.append("<command> = " + " | ".join(f"({a})" for a in alternatives) + ";")
    lines.append("public <utterance> = <command>;")
    return "\n".join(lines) + "\n"


def build_grammar(ctx: MomijiContext) -> str:
    """The JSGF text for a Momiji context."""
    return _jsgf(f"momiji_{ctx.kind}", _rules_text(ctx), body_rules(ctx))


# The competitor's grammar: every form any Momiji context accepts, with every colour, value,
# objective and count, so a right answer said as its context allows is not refused for the
# mere reason that this grammar lacks the form.
WIDE_RULES: tuple[str, ...] = (
    _QUERY_RULE, _alt(_YES), _alt(_NO),
    "[colours] <colour>+", "without <colour>+", "[objectives] <objective>+",
    "[garden] <card>+", f"[pile] ({_number_rule()} | unknown)",
    "(collect | take) [the] <colour>", "(play | place | reveal) <card>+",
    "(objective | activate) [the] <objective>", f"landscape {_alt(VALUES[1:])}",
    "trade | discard two", f"(bonus | connections | gain | lose | draw) {_alt(SMALL)}",
    "[pile] empty", "end [turn] | done", "(trade | discard) <card> [and] <card>",
    "(end [turn] | done) [discard] <card>+", "reveal", ENDING_RULE,
)


def build_wide_grammar() -> str:
    rules = {"colour": _colour(LEAVES), "objective": _objective(list(Objective)),
             "card": _card(_all_values())}
    return _jsgf("momiji_wide", rules, WIDE_RULES)


WIDE_GRAMMAR = Grammar("momiji_wide", build_wide_grammar())


def grammar_words(text: str) -> set[str]:
    """Every word a JSGF text may produce (for dictionary checks)."""
    body = text.split("\n", 2)[2]
    for ch in "()[]|;=+*":
        body = body.replace(ch, " ")
    return {w for w in body.split() if not w.startswith("<") and not w.startswith("/")}


# -- words to a command ----------------------------------------------------------------------
def _digits(tokens: list[str]) -> list[str]:
    """Spoken numbers as digits ("thirty one" → "31"): the interpreter knows only 0 to 6."""
    out: list[str] = []
    for word in tokens:
        if word in _TENS:
            out.append(str(20 + 10 * _TENS.index(word)))
        elif word in _TEENS:
            out.append(str(10 + _TEENS.index(word)))
        elif word in _UNITS:
            unit = _UNITS.index(word) + 1
            if out and out[-1].isdigit() and out[-1].endswith("0") and len(out[-1]) == 2:
                out[-1] = str(int(out[-1]) + unit)
            else:
                out.append(str(unit))
        else:
            out.append(word)
    return out


def read(words: str, ctx: MomijiContext) -> str | None:
    """Decoded words → the canonical text of a command valid now, or None (refuse)."""
    state = ctx.state
    if state is None:
        raise ValueError("a Momiji voice context needs the state it was built from")
    if ctx.practice and practice_word(words):
        return practice_word(words)
    # "speak faster": the Momiji interpreter knows the setting word alone.
    tokens = [w for w in words.split() if w != "speak"]
    if ctx.kind == "pile":
        tokens = _digits(tokens)
    so_far = Objectives(ctx.so_far) if ctx.so_far else None
    try:
        command: Command = interpret(" ".join(tokens), state, pending=so_far)
    except (CompanionError, ValueError):
        return None
    text = command.text()
    if ctx.so_far and (isinstance(command, Cancel) or command == Reply(False)):
        return CANCEL  # the objectives named so far dropped: say them again
    if isinstance(command, Undo):
        return text  # takes a step back: the policy asks when unsure, naming the step
    if isinstance(command, Ask | Adjust):
        return text if text in QUERY_COMMANDS else None
    if isinstance(command, Reply):
        return text if ctx.kind == "confirm" else None
    if isinstance(command, NewGame | Quit):  # the policy always asks
        return text if ending_read(text, ctx.kind) else None
    if ctx.kind in ("confirm", "over") or not isinstance(command, Action):
        return None  # settings, cancel: not offered by voice
    try:
        # A misheard command is far likelier than a player asking for an illegal move: what
        # the rules refuse is refused here, not offered for a yes.
        if not begins_objectives(state, command):  # a part of the objectives is kept
            apply(state, command)  # type: ignore[arg-type]
    except CompanionError:
        return None
    return text


# -- other languages: a bag of phrases -------------------------------------------------------
def phrase_list(ctx: MomijiContext, lang: str) -> list[str]:
    """The phrases a recognizer listens for in a context in another language than English,
    spelled as the language writes them: a bag (Vosk's grammar mode, Whisper's mapping), in
    which `read` checks the order. Offered as the English grammar offers them: what the
    rules could accept now, numbers only where they mean something."""
    words = spoken(lang)
    practice = practice_phrases(lang) if ctx.practice else ()
    out = [*words.queries, *practice, *read_only_words(lang, ctx.kind)]  # (`_prompt`)
    kind = ctx.kind
    if kind == "confirm":
        return list(dict.fromkeys([*out, *words.yes, *words.no, UNKNOWN]))
    if kind == "colours":
        out += [*words.verbs["colours"], *words.verbs["without"], *_colours(words, LEAVES)]
    elif kind == "objectives":
        out += [*words.verbs["objectives"], *_objectives(words, ctx.objectives)]
        out += words.no if ctx.so_far else []  # "non": the names so far dropped
    elif kind == "garden":
        out += [*words.verbs["garden"], *_colours(words, ctx.colours),
                *_numbers(words, range(MAX_VALUE + 1))]
    elif kind == "pile":
        # A count said in words past six comes out of Whisper as digits.
        out += [*words.verbs["pile"], *words.unknown, *_numbers(words, range(1, 7)),
                *(str(n) for n in range(7, 100))]
    elif kind in ("turn", "after", "reveal"):
        out += _turn_phrases(words, ctx)
    elif kind == "over":
        out += ending_phrases(lang)
    return list(dict.fromkeys([*out, *words.joiners, UNKNOWN]))


def read_only_words(lang: str, kind: str = "") -> tuple[str, ...]:
    """Phrases of `phrase_list` only the reading needs: how a question is asked ("quel est
    le score", "puedes repetir"), courtesy ("s'il te plaît"), the hint with its article
    ("un conseil"), help and questions asked as a newcomer asks them ("aide-moi",
    "combien de points"), at game over an ending said otherwise ("une nouvelle partie"),
    and quit in play, which Whisper writes unprompted. No prompt holds them and a beam held
    to its words is not given them: every decode stays as it was measured."""
    over = ending_unprompted(lang) if kind == "over" else ()  # the endings: there alone
    return (*ASKING.get(lang, ()), *COURTESY.get(lang, ()), *HINT_ASKED.get(lang, ()),
            *said_otherwise(lang), *over, *quit_unprompted(lang, kind))


def _colours(words: Spoken, colours: Iterable[Colour]) -> list[str]:
    return [w for c in colours for w in words.colours[c]]


def _numbers(words: Spoken, numbers: Iterable[int]) -> list[str]:
    """Numbers as words and as digits: a recognizer may write either."""
    return [w for n in numbers for w in (*words.numbers[n], str(n))]


def _objectives(words: Spoken, objectives: Iterable[Objective]) -> list[str]:
    """A leaf objective is named by its colour, as in English; the others by their names."""
    return [w for o in objectives
            for w in (words.colours[o.leaf] if o.leaf is not None else words.objectives[o])]


def _turn_phrases(words: Spoken, ctx: MomijiContext) -> list[str]:
    """The turn's phrases: each offer's verbs, then the words it takes."""
    playable = [c for c, _ in ctx.values]
    values = sorted({v for _, vs in ctx.values for v in vs})
    cards = [*_colours(words, playable), *_numbers(words, values)]
    small = _numbers(words, range(1, len(SMALL) + 1))
    held = _held(ctx)
    named = [*_colours(words, [c for c, _ in held]),
             *_numbers(words, sorted({v for _, vs in held for v in vs}))]
    takes = {
        "collect": _colours(words, ctx.collect), "play": cards, "place": cards,
        "reveal": [] if ctx.dealt else [*_colours(words, ctx.colours),
                                        *_numbers(words, range(MAX_VALUE + 1))],
        "objective": _objectives(words, ctx.objectives),
        "landscape": _numbers(words, ctx.landscapes), "bonus": small, "effects": small,
        # a trade's two cards, or those discarded above the limit, named from the hand
        "trade": named if ctx.hand is not None and len(ctx.hand) >= 2 else [],
        "end": [*words.verbs["trade"], *named] if ctx.discard else [],
    }
    out: list[str] = []
    for offer in _turn_offers(ctx):
        for verb in ("gain", "lose", "draw") if offer == "effects" else (offer,):
            out += words.verbs[verb]
        out += takes.get(offer, [])
    return out


def prompt_words(ctx: MomijiContext, lang: str) -> list[str]:
    """What a recognizer that takes a prompt (Whisper) is told to expect: the context's
    phrases less digits and the small words between them, questions first (a prompt too
    long loses its beginning, and the questions are the same in every context)."""
    return _prompt(phrase_list(ctx, lang), spoken(lang), ctx.kind)


# The practice phrases of two words are prompted last (they stay in a prompt that loses its
# beginning), the one-word ones not at all (measured: prompted with the questions, espeak-ng's
# "ma main" was written "maman"; "main" last cost its French "règles").
_PRACTICE_SAID = frozenset(w for lang in LANGS for w in practice_phrases(lang))


def _prompt(phrases: Sequence[str], words: Spoken, kind: str) -> list[str]:
    joiners, queries = set(words.joiners), set(words.queries)
    unprompted = set(read_only_words(words.lang, kind))
    said = [p for p in phrases if p != UNKNOWN and not p.isdigit() and p not in joiners
            and p not in _PRACTICE_SAID and p not in unprompted]
    return [*sorted(said, key=lambda p: p not in queries),
            *(p for p in phrases if p in _PRACTICE_SAID and " " in p)]


# -- recognition -----------------------------------------------------------------------------
def prepare(recognizer: SphinxRecognizer) -> None:
    """Teach the recognizer Momiji's words (once; cheap to call again)."""
    if not all(recognizer.known(w) for w in MOMIJI_PRONUNCIATIONS):
        recognizer.add_words(MOMIJI_PRONUNCIATIONS)


def settled(command: str) -> float | None:
    """Lists are always asked about: the "Yes or no?" confidence (None: decide as usual)."""
    if command == CANCEL:
        return HIGH  # changes nothing: pocketsphinx need not decode it a third time
    return LOW if items(command) >= ASK_FROM_ITEMS else None


def recognize_in(recognizer: Any, pcm: bytes, ctx: MomijiContext) -> Recognition:
    """Recognize one utterance (16 kHz mono 16-bit PCM) in a Momiji context: English with
    the context's JSGF grammar, another language with its phrases (an engine's `lang`)."""
    lang = getattr(recognizer, "lang", "en")
    if lang != "en":
        phrases = phrase_list(ctx, lang)
        return recognizer.recognize_phrases(  # type: ignore[no-any-return]
            pcm, phrases, lambda words: read(words, ctx),
            prompt=_prompt(phrases, spoken(lang), ctx.kind), settled=settled,
            read_only=read_only_words(lang, ctx.kind), asking=ASKING.get(lang, ()))
    prepare(recognizer)
    grammar = Grammar(f"momiji_{ctx.kind}", build_grammar(ctx))
    return recognizer.recognize_grammar(  # type: ignore[no-any-return]
        pcm, grammar, WIDE_GRAMMAR, lambda words: read(words, ctx), settled,
        asking=ASKING["en"])


def items(command: str) -> int:
    """How many things a canonical command names: cards count once (colour and value)."""
    verb, *rest = command.split()
    if verb in ("colours", "objectives"):
        return len(rest)
    return sum(1 for w in rest if w.isdigit()) if verb in CARD_VERBS else 0


def recognize_momiji(recognizer: SphinxRecognizer, pcm: bytes, session: Any) -> Recognition:
    """Recognize one utterance in the context the Momiji session is in now."""
    return recognize_in(recognizer, pcm, context_for(session))


# -- hooks for companion/inputs/voice.py ---------------------------------------------------------
def context_for(session: Any, private: Callable[[int], bool] | None = None) -> MomijiContext:
    """The Momiji voice context matching the session's state (it uses nothing a player told
    privately, so `private` changes nothing); at set-up, after the objectives named so far,
    scanned or said (the session's pending Objectives, however they came); at a table with
    a computer, listening for the practice word (`hand`) too."""
    from companion.computer import computer_seats

    ctx = momiji_context(session.state, confirming=session.awaiting_answer,
                         pending=session.pending)
    return replace(ctx, practice=True) if computer_seats(session.config) else ctx


class MomijiRecognizer:
    """`recognize(pcm, context)` as companion/voice/listen.py expects, in Momiji contexts."""

    def __init__(self, recognizer: SphinxRecognizer | None = None) -> None:
        self.recognizer = recognizer or SphinxRecognizer(words=MOMIJI_PRONUNCIATIONS)

    def recognize(self, pcm: bytes, context: Any = None) -> Recognition:
        if not isinstance(context, MomijiContext):
            raise TypeError("a Momiji recognition needs a MomijiContext (see context_for)")
        return recognize_in(self.recognizer, pcm, context)


def listen_context(kind: str) -> MomijiContext:
    """Momiji's contexts are made from a game in progress: none can be named alone."""
    raise ValueError(f"Momiji's {kind} context needs a game in progress; "
                     "use voice through companion play")


class MomijiVoice:
    """Momiji's voice hooks (companion.games.protocol.VoiceHooks)."""

    pronunciations: Mapping[str, Sequence[str]] = MOMIJI_PRONUNCIATIONS
    languages: tuple[str, ...] = LANGS

    def context_for(self, session: Any,
                    private: Callable[[int], bool] | None = None) -> MomijiContext:
        return context_for(session, private)

    def make_recognizer(self, engine: Any) -> MomijiRecognizer:
        return MomijiRecognizer(engine)

    def parse_command(self, text: str) -> Any:
        return parse_command(text)

    listen_contexts: tuple[str, ...] = ()  # each is made from a game in progress

    def listen_context(self, kind: str) -> MomijiContext:
        return listen_context(kind)

    def enrolment_prompts(self, count: int, seed: int = 0) -> list[str]:
        """None yet: Momiji has no commands of its own to read for a voice profile."""
        return []

    def enrolment_words(self, lang: str) -> list[str]:
        return enrolment_words(lang)


# The questions a player asks most, enrolled with the game's words (as Hanamikoji's are).
_ENROLLED_QUERIES = (Query.SCORE, Query.BOARD, Query.REPEAT)


def enrolment_words(lang: str) -> list[str]:
    """What a player says alone in a Momiji context, each enrolled two or three times
    (`companion voice-enroll --words`): a leaf type by its colour (a collect, an
    objective), the numbers zero to six (a pile's count, a value), yes and no, end, and the
    most asked questions and undo; in `lang`, one word per meaning (the first the language
    gives)."""
    if lang == "en":
        colours = [COLOUR_SPOKEN[c][0] for c in LEAVES]
        numbers, answers, end = ["zero", *SMALL], [_YES[0], _NO[0]], "end"
        queries = [q.value for q in _ENROLLED_QUERIES] + ["undo"]
    else:
        words = spoken(lang)
        colours = [words.colours[c][0] for c in LEAVES]
        numbers = [words.numbers[n][0] for n in range(len(SMALL) + 1)]
        answers, end = [words.yes[0], words.no[0]], words.verbs["end"][0]
        meanings = [QUERY_WORDS[q] for q in _ENROLLED_QUERIES] + [UNDO_WORDS]
        queries = [next(w for w in words.queries if fold(w) in folded)
                   for folded in meanings]
    return list(dict.fromkeys([*colours, *numbers, *answers, end, *queries]))


VOICE = MomijiVoice()

__all__ = ["VOICE", "MomijiRecognizer", "context_for", "parse_command"]
