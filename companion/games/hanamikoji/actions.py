"""Hanamikoji actions: frozen values, each with a canonical text form that parses back.

The acting player is never part of an action: the state says whose decision it is, so a
game log is just the sequence of texts. Card lists of a gift and of each competition pair
are kept sorted, so one move has exactly one text.
"""

from __future__ import annotations

from dataclasses import dataclass

from companion.errors import InvalidCommand
from companion.games.hanamikoji.data import HAND_SIZE, PILE_SIZE, Item

Pair = tuple[Item, Item]


def _sorted(cards: tuple[Item, ...]) -> tuple[Item, ...]:
    return tuple(sorted(cards))


def _words(cards: tuple[Item, ...]) -> str:
    return " ".join(card.word for card in cards)


@dataclass(frozen=True)
class Secret:
    """One card face down under the Secret token; `card` is None when kept hidden."""

    card: Item | None = None

    def text(self) -> str:
        return "secret" if self.card is None else f"secret {self.card.word}"


@dataclass(frozen=True)
class Discard:
    """Two cards face down under the Discard token; `cards` is None when kept hidden."""

    cards: Pair | None = None

    def __post_init__(self) -> None:
        if self.cards is not None:
            object.__setattr__(self, "cards", _sorted(self.cards))

    def text(self) -> str:
        return "discard" if self.cards is None else f"discard {_words(self.cards)}"


@dataclass(frozen=True)
class Gift:
    """Three cards offered face up; the opponent takes one."""

    cards: tuple[Item, Item, Item]

    def __post_init__(self) -> None:
        object.__setattr__(self, "cards", _sorted(self.cards))

    def text(self) -> str:
        return f"gift {_words(self.cards)}"


@dataclass(frozen=True)
class Competition:
    """Four cards face up in two pairs; the opponent takes a pair."""

    pairs: tuple[Pair, Pair]

    def __post_init__(self) -> None:
        object.__setattr__(self, "pairs", tuple(_sorted(p) for p in self.pairs))

    def text(self) -> str:
        first, second = self.pairs
        return f"competition {_words(first)} / {_words(second)}"


@dataclass(frozen=True)
class TakeGift:
    """The opponent's choice of one card of a gift."""

    card: Item

    def text(self) -> str:
        return f"take {self.card.word}"


@dataclass(frozen=True)
class TakePair:
    """The opponent's choice of a competition pair: 0 for the first, 1 for the second."""

    index: int

    def __post_init__(self) -> None:
        if self.index not in (0, 1):
            raise InvalidCommand("bad_pair", "a pair is 1 or 2", pair=self.index + 1)

    def text(self) -> str:
        return f"take {self.index + 1}"


@dataclass(frozen=True)
class Reveal:
    """The Secret turned face up at scoring."""

    card: Item

    def text(self) -> str:
        return f"reveal {self.card.word}"


@dataclass(frozen=True)
class Deal:
    """Chance's move in a full-information game: the removed card, both hands, the pile.

    The pile is in drawing order. At a real table nobody knows these, so table games
    never contain a Deal: each round starts with hands of unknown cards.
    """

    removed: Item
    hands: tuple[tuple[Item, ...], tuple[Item, ...]]
    pile: tuple[Item, ...]

    def __post_init__(self) -> None:
        object.__setattr__(self, "hands", tuple(_sorted(h) for h in self.hands))

    def text(self) -> str:
        a, b = self.hands
        return (
            f"deal {self.removed.word} / {_words(a)} / {_words(b)} / {_words(self.pile)}"
        )


Action = Secret | Discard | Gift | Competition | TakeGift | TakePair | Reveal | Deal
OFFERS = (Gift, Competition)


def item_from_word(word: str) -> Item:
    """The item whose canonical word is `word` (canonical text only: see interpret)."""
    try:
        return Item[word.upper()]
    except KeyError:
        raise InvalidCommand("unknown_card", f"'{word}' is not a card", word=word) from None


def _items(words: list[str], count: int, what: str) -> tuple[Item, ...]:
    if len(words) != count:
        raise InvalidCommand(
            "card_count", f"{what} takes {count} cards, not {len(words)}",
            action=what, expected=count, got=len(words),
        )
    return tuple(item_from_word(w) for w in words)


def parse_action(text: str) -> Action:
    """Parse the canonical text of an action (as written by `.text()`)."""
    verb, _, rest = text.strip().partition(" ")
    parts = [p.split() for p in rest.split("/")] if rest else []
    words = rest.replace("/", " ").split()
    if verb == "secret":
        return Secret(_items(words, 1, "secret")[0] if words else None)
    if verb == "discard":
        return Discard(_items(words, 2, "discard") if words else None)  # type: ignore[arg-type]
    if verb == "gift":
        return Gift(_items(words, 3, "gift"))  # type: ignore[arg-type]
    if verb == "competition":
        if len(parts) == 2:
            first, second = (_items(p, 2, "competition pair") for p in parts)
        else:
            cards = _items(words, 4, "competition")
            first, second = cards[:2], cards[2:]
        return Competition((first, second))  # type: ignore[arg-type]
    if verb == "take":
        if words in (["1"], ["2"]):
            return TakePair(int(words[0]) - 1)
        return TakeGift(_items(words, 1, "take")[0])
    if verb == "reveal":
        return Reveal(_items(words, 1, "reveal")[0])
    if verb == "deal" and len(parts) == 4:
        removed = _items(parts[0], 1, "deal")[0]
        hand_a = _items(parts[1], HAND_SIZE, "deal")
        hand_b = _items(parts[2], HAND_SIZE, "deal")
        pile = _items(parts[3], PILE_SIZE, "deal")
        return Deal(removed, (hand_a, hand_b), pile)
    raise InvalidCommand("unknown_action", f"'{text}' is not an action", text=text)
