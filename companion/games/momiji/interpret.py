"""From a line a player typed, keyed or said to one command, in the game's context.

The phase decides what bare words mean: during set-up a list of colours, objectives,
cards or a number answers the question asked; during a turn a lone colour collects that
column and cards with values are played. On a keypad the first digit of a turn names the
action (1 collect ... 9 end) and a card is two digits: leaf type 1-6, value 0-3.
"""

from __future__ import annotations

from itertools import product

from companion.errors import AmbiguousCommand, CompanionError, InvalidCommand
from companion.games.momiji import lexicon as lx
from companion.games.momiji.actions import (
    Action,
    Activate,
    Bonus,
    Collect,
    Colours,
    Draw,
    Empty,
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
from companion.games.momiji.data import (
    COOL,
    LEAVES,
    MAX_VALUE,
    WARM,
    Leaf,
    Objective,
    tokens_for,
)
from companion.games.momiji.rules import Phase, State, check_objectives
from companion.narrate.catalogue import Alternatives
from companion.phrases import PhraseTable, Word, meta_command
from companion.shared_commands import Ask, MetaCommand, Query, parse_meta
from stickers.colours import Colour

Command = Action | MetaCommand


def parse_command(text: str) -> Command:
    """Parse any command's canonical text (the inverse of `.text()`)."""
    meta = parse_meta(text)
    return meta if meta is not None else parse_action(text)


def _phrase_table() -> PhraseTable:
    table = PhraseTable()
    table.put_meta(lx)
    for verb, words in lx.VERB_WORDS.items():
        table.put(words, ("verb", verb))
    for objective, words in lx.OBJECTIVE_WORDS.items():
        table.put(words, ("objective", objective))
    for objective, words in lx.GROUP_WORDS.items():
        table.put(words, ("group", objective))
    for colour, words in lx.COLOUR_WORDS.items():
        table.put(words, ("colour", colour))
    for word, n in lx.NUMBER_WORDS.items():
        table.put([word], ("num", n))
    table.put(lx.UNKNOWN_WORDS, ("unknown", None))
    table.put(lx.SEPARATORS, ("sep", None))
    table.put(lx.FILLERS, ("filler", None))
    return table


_TABLE = _phrase_table()


def meanings(line: str) -> list[Word]:
    return _TABLE.meanings(line, drop=("filler", "sep"))


def interpret(line: str, state: State, *, pending: object = None, lang: str = "en") -> Command:
    """The command a line means now; raises InvalidCommand (the rules check legality)."""
    words = meanings(line)
    if not words:
        return Ask(Query.WHAT)
    if len(words) == 1:
        meta = meta_command(words[0])
        if meta is not None:
            return meta
    if any(k in ("query", "setting", "undo", "yes", "no", "cancel") for k, _ in words):
        raise InvalidCommand("one_at_a_time", "say a question or undo on its own line")
    kind, value = words[0]
    verb, args = (str(value), words[1:]) if kind == "verb" else (None, words)
    phase = state.phase
    if verb is None and phase is Phase.COLOURS or verb in ("colours", "without"):
        return _colours(args, without=verb == "without")
    if phase is Phase.OBJECTIVES and verb in (None, "objective") or verb == "objectives":
        return Objectives(_one_reading(args, pending, state))
    if verb is None and phase is Phase.GARDEN or verb == "garden" and args:
        return Garden(_cards(args))
    if phase is Phase.PILE and verb in (None, "pile", "draw") or verb == "pile":
        if len(args) == 1 and args[0][0] == "unknown":
            return PileSize(None)
        n = _number(args, "pile")
        return PileSize(None if n == 0 else n)  # 0 on a keypad: not counted
    if verb == "garden":
        return Ask(Query.BOARD)
    if verb is None:
        return _bare_turn(args)
    return _verb(verb, args)


def _objectives_so_far(named: tuple[Objective, ...], pending: object, state: State
                       ) -> tuple[Objective, ...]:
    """The objectives named now, after those of a list begun before (adapter.pending): the
    next part of it, unless the names are a whole list by themselves (said again from the
    start). A name already in the list is not added twice: said again, it was heard."""
    if not isinstance(pending, Objectives) or len(named) >= tokens_for(state.count):
        return named
    return pending.objectives + tuple(o for o in named if o not in pending.objectives)


def _verb(verb: str, args: list[Word]) -> Command:
    if verb == "collect":
        return Collect(_colour(args))
    if verb in ("play", "place", "reveal"):
        return {"play": Play, "place": Place, "reveal": Reveal}[verb](_cards(args))
    if verb == "objective":
        found = _objectives(args)  # a group said by its colours is its one token here
        if len(found) != 1:
            raise InvalidCommand("momiji.one_objective", "name one objective")
        return Activate(found[0])
    if verb == "landscape":
        return Landscape(_number(args, "landscape"))
    if verb == "bonus":
        return Bonus(_number(args, "bonus"))
    if verb == "trade":
        return Trade(_cards(args) if args else None)
    if verb in ("gain", "lose"):
        n = _number(args, verb)
        return Gain(n if verb == "gain" else -n)
    if verb == "draw":
        return Draw(_number(args, "draw") if args else 1)
    if verb == "end" and args:
        return End(discard=_discards(args))
    if args:  # "8 green": a slip
        raise InvalidCommand(
            f"momiji.{verb}_alone", f"{verb} takes nothing after it", action=verb
        )
    return Empty() if verb == "empty" else End()


def _discards(args: list[Word]) -> tuple[Leaf, ...]:
    """The cards above the hand limit named after `end` ("end discard green 0 red 1",
    keys "9 5 1060"); anything else after `end` ("91", "9 green") is a slip, not an end."""
    if args[0] in (("verb", "trade"), ("digits", "5")):  # "discard", or its key
        args = args[1:]
    try:
        cards = _cards(args) if args else ()
    except InvalidCommand:
        cards = ()
    if not cards:
        raise InvalidCommand("momiji.end_alone", "end takes nothing after it", action="end")
    return cards


def _bare_turn(args: list[Word]) -> Command:
    """No verb: a keypad action number, a lone colour (collect) or cards (play)."""
    kind, value = args[0]
    if kind == "digits":
        digits = str(value)
        number = int(digits[0])
        if number not in lx.KEYPAD_ACTIONS:
            raise InvalidCommand("momiji.bad_action_number", "actions are numbered 1 to 9")
        rest: list[Word] = ([("digits", digits[1:])] if digits[1:] else []) + args[1:]
        return _verb(lx.KEYPAD_ACTIONS[number], rest)
    if kind == "colour" and len(args) == 1:
        return Collect(value)  # type: ignore[arg-type]
    if kind == "colour":
        return Play(_cards(args))
    raise InvalidCommand(
        "momiji.say_action_first", "say the action: collect, play, objective, or end"
    )


def _colour_of_digit(d: str) -> Colour:
    if not "1" <= d <= str(len(LEAVES)):
        raise InvalidCommand("momiji.bad_colour_digit", "leaf types are keyed 1 to 6", digit=d)
    return LEAVES[int(d) - 1]


def _colour(args: list[Word]) -> Colour:
    if len(args) == 1 and args[0][0] == "colour":
        return args[0][1]  # type: ignore[return-value]
    if len(args) == 1 and args[0][0] == "digits" and len(str(args[0][1])) == 1:
        return _colour_of_digit(str(args[0][1]))
    raise InvalidCommand("momiji.one_colour", "name one leaf type: its colour or symbol")


def _colours(args: list[Word], without: bool) -> Colours:
    if args and args[0] == ("verb", "without"):
        without, args = True, args[1:]
    named: list[Colour] = []
    for kind, value in args:
        if kind == "colour":
            named.append(value)  # type: ignore[arg-type]
        elif kind == "digits":
            named.extend(_colour_of_digit(d) for d in str(value))
        elif kind == "group":  # "green brown violet" names the cool token too: colours here
            group = COOL if value is Objective.COOL else WARM
            named.extend(c for c in LEAVES if c in group)
        else:
            raise InvalidCommand("momiji.colours_expected", "I expected leaf colours here")
    if without:
        named = [c for c in LEAVES if c not in named]
    return Colours(tuple(named))


def _leaves_of(group: Objective) -> tuple[Objective, ...]:
    """The three leaf objectives of the cool or warm token's colours, in keypad order."""
    colours = COOL if group is Objective.COOL else WARM
    return tuple(Objective(c.value) for c in LEAVES if c in colours)


def _one_reading(args: list[Word], pending: object, state: State) -> tuple[Objective, ...]:
    """The objectives a line names at set-up. Colours said in a row ("green brown violet")
    are the group's one token or three leaf objectives: a reading the rules cannot take is
    dropped; of those left, one that is the whole list by itself is the one meant (the
    canonical text names the leaves so); several otherwise are asked about."""
    groups = [i for i, (kind, _) in enumerate(args) if kind == "group"]
    readings: list[tuple[Objective, ...]] = []
    for leaves in product((False, True), repeat=len(groups)):
        words = list(args)
        for i, as_leaves in zip(groups, leaves, strict=True):
            if as_leaves:
                words[i] = ("leaves", args[i][1])
        readings.append(_objectives(words))
    if len(readings) == 1:
        return _objectives_so_far(readings[0], pending, state)
    wanted = tokens_for(state.count)
    whole = [r for r in readings if len(r) == wanted and _fits(state, r, whole=True)]
    if len(whole) == 1:
        return whole[0]
    lists = list(dict.fromkeys(_objectives_so_far(r, pending, state) for r in readings))
    fits = [r for r in lists if _fits(state, r, whole=False)]
    if len(fits) == 1:
        return fits[0]
    if not fits:
        return lists[0]  # the group's token: the rules say why it cannot be
    group = args[groups[0]][1]
    raise AmbiguousCommand(
        "momiji.group_or_leaves", "that names one token or three leaf objectives",
        options=tuple(Objectives(r) for r in fits),
        readings=Alternatives(((group,), _leaves_of(group))),  # type: ignore[arg-type]
    )


def _fits(state: State, objectives: tuple[Objective, ...], whole: bool) -> bool:
    try:
        check_objectives(state, objectives, whole=whole)
    except CompanionError:
        return False
    return True


def _objectives(args: list[Word]) -> tuple[Objective, ...]:
    found: list[Objective] = []
    for kind, value in args:
        if kind in ("objective", "group"):
            found.append(value)  # type: ignore[arg-type]
        elif kind == "leaves":
            found.extend(_leaves_of(value))  # type: ignore[arg-type]
        elif kind == "colour":
            found.append(Objective(value.value))  # type: ignore[attr-defined]
        elif kind in ("digits", "num"):
            n = int(value)  # type: ignore[call-overload]
            if n == 0:
                found.append(Objective.ZERO)  # the "0" token
            elif 1 <= n <= len(Objective):
                found.append(Objective.from_number(n))
            else:
                raise InvalidCommand(
                    "momiji.bad_objective_number", "objectives are numbered 1 to 16", number=n
                )
        else:
            raise InvalidCommand("momiji.objectives_expected", "I expected objectives here")
    return tuple(found)


def _value(n: int) -> int:
    if not 0 <= n <= MAX_VALUE:
        raise InvalidCommand("momiji.bad_value", "leaf values are 0 to 3", value=n)
    return n


def _cards(args: list[Word]) -> tuple[Leaf, ...]:
    """'green 1 2 red 0' (a value belongs to the type before it) or keypad pairs '1112 60'."""
    cards: list[Leaf] = []
    colour: Colour | None = None
    waiting = False  # a colour was named and no value has followed it yet
    for kind, value in args:
        if waiting and kind == "colour":
            raise InvalidCommand("momiji.value_missing", "say the value after the colour")
        waiting = kind == "colour"
        if kind == "colour":
            colour = value  # type: ignore[assignment]
        elif kind == "num" and colour is not None:
            cards.append(Leaf(colour, _value(int(value))))  # type: ignore[call-overload]
        elif kind == "digits" and colour is not None:
            cards.extend(Leaf(colour, _value(int(d))) for d in str(value))
        elif kind == "digits":
            digits = str(value)
            if len(digits) % 2:
                raise InvalidCommand(
                    "momiji.card_digits", "key each card as two digits: type then value"
                )
            for i in range(0, len(digits), 2):
                cards.append(Leaf(_colour_of_digit(digits[i]), _value(int(digits[i + 1]))))
        else:
            raise InvalidCommand("momiji.cards_expected", "I expected leaf cards here")
    if waiting:
        raise InvalidCommand("momiji.value_missing", "say the value after the colour")
    return tuple(cards)


def _number(args: list[Word], what: str) -> int:
    if len(args) == 1 and args[0][0] in ("digits", "num"):
        return int(args[0][1])  # type: ignore[call-overload]
    raise InvalidCommand("momiji.number_expected", f"{what} takes a number", action=what)
