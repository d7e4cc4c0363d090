"""What the game expects at the moment a player speaks: it decides which commands are valid.

Restricting recognition to what is valid now is the single biggest gain in accuracy: an
answer after a gift can only name one of the three offered cards, and a gift or competition
only cards of the player's hand when the companion was told all of it.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable
from dataclasses import dataclass

from companion.games.hanamikoji.data import Item, Token

KINDS: tuple[str, ...] = ("action", "complete", "answer_gift", "answer_competition", "reveal",
                          "confirm", "over", "any")


@dataclass(frozen=True)
class Context:
    """One listening situation. Build it with the class methods, not the constructor."""

    kind: str
    allowed: frozenset[Token] = frozenset(Token)
    offered: tuple[Item, ...] = ()
    pairs: tuple[tuple[Item, Item], ...] = ()
    # The acting player's whole hand (sorted), when the companion was told every card of it;
    # None when any is unknown. It stays inside recognition: nothing spoken or printed names
    # it (a gift names its cards aloud anyway; the hand's other cards stay private).
    hand: tuple[Item, ...] | None = None
    private_to: int | None = None  # the seat whose hand it holds: asked on their channel
    # A gift or competition one card short (the card not heard): a begun offer, the card
    # then asked for. Read only where no whole command was (`one_short`).
    short: bool = False
    secret: Item | None = None  # a reveal's Secret, when its player told it (privately)
    practice: bool = False  # a table with a computer: its practice word (`hand`) is heard

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise ValueError(f"unknown voice context {self.kind!r}; known: {', '.join(KINDS)}")

    @classmethod
    def action(cls, allowed: Iterable[Token | str] | None = None,
               hand: Iterable[Item] | None = None, private_to: int | None = None) -> Context:
        """The active player's turn; `allowed` are the tokens still unplayed (all by default);
        `hand` the player's whole hand, if the companion knows every card of it, and
        `private_to` that player's seat."""
        known = None if hand is None else tuple(sorted(hand))
        if allowed is None:
            return cls("action", hand=known, private_to=private_to)
        tokens = frozenset(t if isinstance(t, Token) else Token[str(t).upper()] for t in allowed)
        if not tokens:
            raise ValueError("an action context needs at least one available token")
        return cls("action", allowed=tokens, hand=known, private_to=private_to)

    @classmethod
    def complete(cls, token: Token, cards: Iterable[Item], hand: Iterable[Item] | None = None,
                 private_to: int | None = None) -> Context:
        """A gift or competition begun (`cards` named so far, in order): the cards it lacks
        are awaited, as after a list heard with one card missing."""
        if token not in (Token.GIFT, Token.COMPETITION):
            raise ValueError(f"only a gift or a competition is completed, not {token.word}")
        so_far = tuple(cards)
        if len(so_far) >= token.cards:
            raise ValueError(f"a {token.word} with {len(so_far)} cards lacks none")
        return cls("complete", allowed=frozenset({token}), offered=so_far,
                   hand=None if hand is None else tuple(sorted(hand)), private_to=private_to)

    def one_short(self) -> Context | None:
        """This action context reading lists one card short, if it allows a list."""
        if self.kind != "action" or not self.allowed & {Token.GIFT, Token.COMPETITION}:
            return None
        return dataclasses.replace(self, short=True, practice=False)  # lists only

    @property
    def token(self) -> Token:
        """The action a `complete` context completes."""
        (token,) = self.allowed
        return token

    @property
    def cards(self) -> tuple[Item, ...]:
        """The items a card word may name here: the offer's after a gift, the hand's when it is
        known (each once), else every item."""
        if self.kind == "answer_gift":
            return self.offered
        if self.kind == "reveal" and self.secret is not None:
            return (self.secret,)
        if self.kind in ("action", "complete") and self.hand is not None:
            return tuple(sorted(set(self.hand)))  # (the whole list may be said again)
        return tuple(Item)

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
    def reveal(cls, secret: Item | None = None, private_to: int | None = None) -> Context:
        """The Secrets revealed; `secret`: the revealing player's, if they told it (then
        it is the only card a reveal may name)."""
        return cls("reveal", secret=secret, private_to=private_to)

    @classmethod
    def confirm(cls) -> Context:
        return cls("confirm")

    @classmethod
    def over(cls) -> Context:
        """The game over: its questions, undo, a new game and quit."""
        return cls("over")

    @classmethod
    def any(cls) -> Context:
        return cls("any")

    @property
    def name(self) -> str:
        """A stable key for caching the decoder search built for this context."""
        parts = [self.kind]
        if self.kind in ("action", "complete"):
            parts.append("".join(str(int(t)) for t in sorted(self.allowed)))
        parts += [str(int(i)) for i in self.offered]
        parts += [f"{int(a)}{int(b)}" for a, b in self.pairs]
        if self.hand is not None:
            parts.append("h" + "".join(str(int(i)) for i in self.hand))
        if self.short:
            parts.append("short")
        if self.secret is not None:
            parts.append(f"s{int(self.secret)}")
        return "_".join(parts)
