"""Momiji actions: frozen values, each with a canonical English text that parses back.

As in Hanamikoji, the acting player is never part of an action (the state knows whose
turn it is), so a saved game is the list of these texts. Card lists are kept sorted (leaf
type order, then value), so one step has exactly one text.
"""

from __future__ import annotations

from dataclasses import dataclass

from companion.errors import InvalidCommand
from companion.games.momiji.data import LANDSCAPES, LEAVES, Leaf, Objective, sort_leaves
from stickers.colours import Colour


def _cards_text(cards: tuple[Leaf, ...]) -> str:
    return " ".join(card.text() for card in cards)


def _sorted_colours(colours: tuple[Colour, ...]) -> tuple[Colour, ...]:
    return tuple(c for c in LEAVES if c in colours)


# -- set-up ------------------------------------------------------------------------------
@dataclass(frozen=True)
class Colours:
    """The leaf types in play (4 at two players, 5 at three; all six at four)."""

    colours: tuple[Colour, ...]

    def __post_init__(self) -> None:
        object.__setattr__(self, "colours", _sorted_colours(self.colours))

    def text(self) -> str:
        return "colours " + " ".join(c.value for c in self.colours)


@dataclass(frozen=True)
class Objectives:
    """The objective tokens revealed at set-up (players + 2)."""

    objectives: tuple[Objective, ...]

    def __post_init__(self) -> None:
        order = list(Objective)
        object.__setattr__(self, "objectives", tuple(sorted(self.objectives, key=order.index)))

    def text(self) -> str:
        return "objectives " + " ".join(o.value for o in self.objectives)


@dataclass(frozen=True)
class Garden:
    """The four cards revealed at set-up to start the garden."""

    cards: tuple[Leaf, ...]

    def __post_init__(self) -> None:
        object.__setattr__(self, "cards", sort_leaves(self.cards))

    def text(self) -> str:
        return f"garden {_cards_text(self.cards)}"


@dataclass(frozen=True)
class PileSize:
    """Cards left in the draw pile after set-up; None when nobody counted them."""

    count: int | None

    def text(self) -> str:
        return "pile unknown" if self.count is None else f"pile {self.count}"


# -- a turn --------------------------------------------------------------------------------
@dataclass(frozen=True)
class Reveal:
    """Pay an acorn to reveal new garden cards (4, or what the pile still holds) first."""

    cards: tuple[Leaf, ...]

    def __post_init__(self) -> None:
        object.__setattr__(self, "cards", sort_leaves(self.cards))

    def text(self) -> str:
        # no cards: a practice game's reveal, whose cards the companion takes from its deck
        return f"reveal {_cards_text(self.cards)}" if self.cards else "reveal"


@dataclass(frozen=True)
class Collect:
    """Main action A: take a whole garden column into the hand."""

    colour: Colour

    def text(self) -> str:
        return f"collect {self.colour.value}"


@dataclass(frozen=True)
class Play:
    """Main action B: leaves from the hand onto one's piles."""

    cards: tuple[Leaf, ...]

    def __post_init__(self) -> None:
        object.__setattr__(self, "cards", sort_leaves(self.cards))

    def text(self) -> str:
        return f"play {_cards_text(self.cards)}"


@dataclass(frozen=True)
class Bonus:
    """The harvest bonus after playing several types: connections told by the player."""

    connections: int

    def text(self) -> str:
        return f"bonus {self.connections}"


@dataclass(frozen=True)
class Activate:
    """Main action C: activate an objective for 3 acorns."""

    objective: Objective

    def text(self) -> str:
        return f"objective {self.objective.value}"


@dataclass(frozen=True)
class Landscape:
    """Optional: an acorn onto one of one's landscape cards (1 to 3), once per game each."""

    card: int

    def __post_init__(self) -> None:
        if not 1 <= self.card <= LANDSCAPES:
            raise InvalidCommand(
                "momiji.bad_landscape", f"landscapes are numbered 1 to {LANDSCAPES}",
                card=self.card,
            )

    def text(self) -> str:
        return f"landscape {self.card}"


@dataclass(frozen=True)
class Trade:
    """Optional: two cards from the hand to the discard for an acorn (named if known)."""

    cards: tuple[Leaf, ...] | None = None

    def __post_init__(self) -> None:
        if self.cards is not None:
            object.__setattr__(self, "cards", sort_leaves(self.cards))

    def text(self) -> str:
        return "trade" if self.cards is None else f"trade {_cards_text(self.cards)}"


@dataclass(frozen=True)
class Gain:
    """A landscape's effect on acorns, as told: positive gains, negative pays."""

    acorns: int

    def text(self) -> str:
        return f"gain {self.acorns}" if self.acorns >= 0 else f"lose {-self.acorns}"


@dataclass(frozen=True)
class Draw:
    """A landscape's effect: cards from the draw pile into the hand."""

    count: int

    def text(self) -> str:
        return f"draw {self.count}"


@dataclass(frozen=True)
class Place:
    """A landscape's effect: leaves placed outside the main action (pile rules apply)."""

    cards: tuple[Leaf, ...]

    def __post_init__(self) -> None:
        object.__setattr__(self, "cards", sort_leaves(self.cards))

    def text(self) -> str:
        return f"place {_cards_text(self.cards)}"


@dataclass(frozen=True)
class Empty:
    """The draw pile is empty (told when its size is unknown)."""

    def text(self) -> str:
        return "empty"


@dataclass(frozen=True)
class End:
    """The end of the turn; cards above the hand limit are discarded. `anyway`: the player
    confirmed that no main action was possible, which the companion could not tell (cards
    it has not seen might have been played)."""

    anyway: bool = False
    discard: tuple[Leaf, ...] = ()  # the cards above the limit, when named

    def __post_init__(self) -> None:
        object.__setattr__(self, "discard", sort_leaves(self.discard))

    def text(self) -> str:
        words = "end anyway" if self.anyway else "end"
        return f"{words} discard {_cards_text(self.discard)}" if self.discard else words


@dataclass(frozen=True)
class Deal:
    """A practice game's deal by the companion: each hand, then the deck in order (the four
    garden cards first, then the draw pile from the top). Never said at a table."""

    hands: tuple[tuple[Leaf, ...], ...]
    deck: tuple[Leaf, ...]

    def __post_init__(self) -> None:
        object.__setattr__(self, "hands", tuple(sort_leaves(h) for h in self.hands))

    def text(self) -> str:
        parts = [_cards_text(h) for h in self.hands] + [_cards_text(self.deck)]
        return "deal " + " / ".join(parts)


SetupAction = Colours | Objectives | Garden | PileSize | Deal
TurnAction = (
    Reveal | Collect | Play | Bonus | Activate | Landscape | Trade | Gain | Draw | Place | Empty
    | End
)
Action = SetupAction | TurnAction


# -- canonical text back to values ---------------------------------------------------------
def colour_from_word(word: str) -> Colour:
    for colour in LEAVES:
        if colour.value == word:
            return colour
    raise InvalidCommand("momiji.unknown_colour", f"'{word}' is not a leaf type", word=word)


def objective_from_word(word: str) -> Objective:
    try:
        return Objective(word)
    except ValueError:
        raise InvalidCommand(
            "momiji.unknown_objective", f"'{word}' is not an objective", word=word
        ) from None


def _int(word: str, what: str) -> int:
    try:
        return int(word)
    except ValueError:
        raise InvalidCommand(
            "momiji.number_expected", f"{what} takes a number, not '{word}'", word=word
        ) from None


def cards_from_words(words: list[str]) -> tuple[Leaf, ...]:
    """'green 0 red 2 3' -> green 0, red 2, red 3: a value belongs to the last type named."""
    cards: list[Leaf] = []
    colour: Colour | None = None
    for word in words:
        if word.isdigit():
            if colour is None:
                raise InvalidCommand("momiji.colour_first", "name the leaf type before its value")
            value = int(word)
            if value > 3:
                raise InvalidCommand("momiji.bad_value", "leaf values are 0 to 3", value=value)
            cards.append(Leaf(colour, value))
        else:
            colour = colour_from_word(word)
    return tuple(cards)


def parse_action(text: str) -> Action:
    """Parse the canonical text of an action (as written by `.text()`)."""
    verb, *words = text.split()
    if verb == "colours":
        return Colours(tuple(colour_from_word(w) for w in words))
    if verb == "objectives":
        return Objectives(tuple(objective_from_word(w) for w in words))
    if verb in ("garden", "reveal", "play", "place"):
        cards = cards_from_words(words)
        return {"garden": Garden, "reveal": Reveal, "play": Play, "place": Place}[verb](cards)
    if verb == "pile" and len(words) == 1:
        return PileSize(None if words[0] == "unknown" else _int(words[0], "pile"))
    if verb == "collect" and len(words) == 1:
        return Collect(colour_from_word(words[0]))
    if verb == "bonus" and len(words) == 1:
        return Bonus(_int(words[0], "bonus"))
    if verb == "objective" and len(words) == 1:
        return Activate(objective_from_word(words[0]))
    if verb == "landscape" and len(words) == 1:
        return Landscape(_int(words[0], "landscape"))
    if verb == "trade":
        return Trade(cards_from_words(words) if words else None)
    if verb in ("gain", "lose") and len(words) == 1:
        n = _int(words[0], verb)
        return Gain(n if verb == "gain" else -n)
    if verb == "draw" and len(words) == 1:
        return Draw(_int(words[0], "draw"))
    if verb == "empty" and not words:
        return Empty()
    if verb == "end":
        anyway = words[:1] == ["anyway"]
        rest = words[1:] if anyway else words
        if not rest:
            return End(anyway=anyway)
        if rest[0] == "discard" and len(rest) > 1:
            return End(anyway=anyway, discard=cards_from_words(rest[1:]))
    if verb == "deal" and words:
        *hands, deck = (part.split() for part in " ".join(words).split(" / "))
        return Deal(tuple(cards_from_words(h) for h in hands), cards_from_words(deck))
    raise InvalidCommand("momiji.unknown_action", f"'{text}' is not an action", text=text)
