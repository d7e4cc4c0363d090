"""What the game expects at the moment a player speaks: it decides which commands are valid.

Restricting recognition to what is valid now is the single biggest gain in accuracy: an
answer after a gift can only name one of the three offered cards.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from companion.games.hanamikoji.data import Item, Token

KINDS: tuple[str, ...] = ("action", "answer_gift", "answer_competition", "reveal", "confirm",
                          "any")


@dataclass(frozen=True)
class Context:
    """One listening situation. Build it with the class methods, not the constructor."""

    kind: str
    allowed: frozenset[Token] = frozenset(Token)
    offered: tuple[Item, ...] = ()
    pairs: tuple[tuple[Item, Item], ...] = ()

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise ValueError(f"unknown voice context {self.kind!r}; known: {', '.join(KINDS)}")

    @classmethod
    def action(cls, allowed: Iterable[Token | str] | None = None) -> Context:
        """The active player's turn; `allowed` are the tokens still unplayed (all by default)."""
        if allowed is None:
            return cls("action")
        tokens = frozenset(t if isinstance(t, Token) else Token[str(t).upper()] for t in allowed)
        if not tokens:
            raise ValueError("an action context needs at least one available token")
        return cls("action", allowed=tokens)

    @classmethod
    def answer_gift(cls, cards: Iterable[Item]) -> Context:
        offered = tuple(cards)
        if len(offered) != 3:
            raise ValueError(f"a gift offers 3 cards, not {len(offered)}")
        return cls("answer_gift", offered=offered)

    @classmethod
    def answer_competition(cls, first: Iterable[Item], second: Iterable[Item]) -> Context:
        a, b = tuple(first), tuple(second)
        if len(a) != 2 or len(b) != 2:
            raise ValueError("a competition offers two pairs of 2 cards")
        return cls("answer_competition", pairs=((a[0], a[1]), (b[0], b[1])))

    @classmethod
    def reveal(cls) -> Context:
        return cls("reveal")

    @classmethod
    def confirm(cls) -> Context:
        return cls("confirm")

    @classmethod
    def any(cls) -> Context:
        return cls("any")

    @property
    def name(self) -> str:
        """A stable key for caching the decoder search built for this context."""
        parts = [self.kind]
        if self.kind == "action":
            parts.append("".join(str(int(t)) for t in sorted(self.allowed)))
        parts += [str(int(i)) for i in self.offered]
        parts += [f"{int(a)}{int(b)}" for a, b in self.pairs]
        return "_".join(parts)
