"""The rules, pure: a pile, whose turn, who won."""

from __future__ import annotations

from dataclasses import dataclass, replace

from companion.errors import IllegalAction, InvalidCommand

RULE_SETS = {"fifteen": 15, "seven": 7}
MOST = 3  # pebbles one turn may take


@dataclass(frozen=True)
class Take:
    n: int

    def text(self) -> str:
        return f"take {self.n}"


@dataclass(frozen=True)
class State:
    pile: int
    to_move: int = 0
    winner: int | None = None

    @property
    def over(self) -> bool:
        return self.winner is not None


@dataclass(frozen=True)
class Took:
    player: int
    n: int
    left: int


@dataclass(frozen=True)
class Won:
    player: int


def parse_action(text: str) -> Take:
    word, _, number = text.strip().partition(" ")
    if word != "take" or not number.isdigit():
        raise InvalidCommand("pebbles.not_a_move", f"'{text}' is not a move", text=text)
    return Take(int(number))


def legal_actions(state: State) -> list[Take]:
    return [] if state.over else [Take(n) for n in range(1, min(MOST, state.pile) + 1)]


def apply(state: State, action: Take) -> tuple[State, tuple[object, ...]]:
    if state.over:
        raise IllegalAction("pebbles.over", "the game is over")
    if not 1 <= action.n <= min(MOST, state.pile):
        raise IllegalAction("pebbles.too_many", f"take 1 to {min(MOST, state.pile)}",
                            most=min(MOST, state.pile))
    left = state.pile - action.n
    events: tuple[object, ...] = (Took(state.to_move, action.n, left),)
    if left == 0:
        return replace(state, pile=0, winner=state.to_move), events + (Won(state.to_move),)
    return replace(state, pile=left, to_move=1 - state.to_move), events
