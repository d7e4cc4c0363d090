"""What the companion may ask of Pebbles (companion.games.protocol.Game)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from companion.errors import InvalidCommand
from companion.games.base import GameBase
from companion.games.protocol import DeviceHooks, Sheet
from companion.narrate.message import Message, Priority
from companion.shared_commands import Query
from pebbles import rules
from pebbles.rules import State, Take, Took, Won

TAKE_WORDS = ("take", "prends", "prendre", "toma", "tomar", "бери", "беру")
KEYPAD_TAKE = {"1": 1, "2": 2, "3": 3}
SCAN_CODE = "PB"  # label payloads TC1:PB:TAKE:<ONE|TWO|THREE>:1
NUMBERS = {"one": 1, "two": 2, "three": 3}


class Pebbles(GameBase):
    """Only what Pebbles owns: GameBase gives the rest (nothing hidden, nothing half
    entered, catalogues in pebbles/locales/, no voice, web board, simulator or practice),
    and the session reads the shared commands (undo, quit, questions) before `interpret`."""

    name = "pebbles"
    players = (2, 2)
    rule_sets = tuple(rules.RULE_SETS)

    # -- rules ----------------------------------------------------------------------------
    def new_state(self, config: Mapping[str, Any]) -> State:
        return State(pile=rules.RULE_SETS[config.get("rules") or self.rule_sets[0]])

    def parse(self, text: str) -> Take:
        return rules.parse_action(text)

    def legal_actions(self, state: State) -> list[Take]:
        return rules.legal_actions(state)

    def apply(self, state: State, action: Take) -> tuple[State, tuple[object, ...]]:
        return rules.apply(state, action)

    def is_over(self, state: State) -> bool:
        return state.over

    def actor(self, state: State) -> int:
        return state.to_move

    # -- words in -------------------------------------------------------------------------
    def interpret(self, line: str, state: State, pending: Any, lang: str) -> Any:
        words = line.strip().lower().split()
        if words and words[0] in TAKE_WORDS:
            words = words[1:]
        if len(words) == 1 and words[0].isdigit():
            return Take(int(words[0]))
        raise InvalidCommand("pebbles.not_a_move", f"'{line}' is not a move", text=line)

    # -- words out ------------------------------------------------------------------------
    def start(self, state: State, names: Sequence[str]) -> list[Message]:
        return [Message("game_start", "pebbles.start", {"n": state.pile, "a": names[0],
                                                        "b": names[1]})]

    def prompt(self, state: State, names: Sequence[str], pending: Any) -> list[Message]:
        if state.over:
            return []
        return [Message("prompt", "pebbles.prompt", {"player": names[state.to_move],
                                                     "most": min(rules.MOST, state.pile)},
                        priority=Priority.PROMPT)]

    def narrate(self, events: Sequence[Any], state: State,
                names: Sequence[str]) -> list[Message]:
        out = []
        for ev in events:
            if isinstance(ev, Took):
                out.append(Message("took", "pebbles.took", {
                    "player": names[ev.player], "n": ev.n, "left": ev.left}))
            elif isinstance(ev, Won):
                out.append(Message("game_over", "pebbles.won", {"player": names[ev.player]}))
        return out

    def query(self, q: Query, state: State, names: Sequence[str]) -> list[Message]:
        if q is Query.HELP:
            return [Message("help", "pebbles.help")]
        return [Message("board", "pebbles.pile", {"n": state.pile})]

    def describe(self, action: Take, actor: int, names: Sequence[str]) -> Message:
        return Message("", "pebbles.describe", {"player": names[actor], "n": action.n})

    def status(self, state: State, names: Sequence[str]) -> list[Message]:
        return [Message("board", "pebbles.pile", {"n": state.pile})]

    # -- hooks ----------------------------------------------------------------------------
    def devices(self) -> DeviceHooks:
        """Keypad digits 1 to 3 take that many; a scanned take token takes its number; the
        keypad's symbols are the core's."""
        return DeviceHooks(scan=_scan, line=_line)

    def cards(self) -> Tokens:
        return Tokens()


def _scan(session: Any, value: str, registry: Any, origin: Any = None) -> list[Message]:
    from companion.cards.payload import PayloadError, parse_payload

    try:
        ref = parse_payload(value)
    except PayloadError:
        return session.handle(value)  # not one of ours: the session says why
    return session.execute(Take(NUMBERS[ref.name]))


def _line(session: Any, line: str, registry: Any, origin: Any = None) -> list[Message]:
    from companion.cards.registry import is_payload

    text = line.strip()
    if is_payload(text):
        return _scan(session, text, registry)
    if text in KEYPAD_TAKE:
        return session.execute(Take(KEYPAD_TAKE[text]))
    return session.handle(line)


class Tokens:
    """One printed label per move: TC1:PB:TAKE:TWO:1 (companion.games.protocol.CardHooks)."""

    code = SCAN_CODE
    pieces: Mapping[str, Mapping[str, int]] = {"take": {name: 1 for name in NUMBERS}}
    valued: Mapping[str, range] = {}
    sheets = {"moves": Sheet(kinds=("take",))}
    enrolment: tuple[str, ...] = ()
    sticker_plan = None

    def caption(self, ref: Any, lang: str) -> tuple[str, str, str]:
        return (f"Take {NUMBERS[ref.name]}", "", "")

    def said(self, ref: Any) -> Message:
        return Message("", "pebbles.describe", {"player": "", "n": NUMBERS[ref.name]})

    def ask(self, ref: Any) -> Message:
        raise ValueError("Pebbles enrols no tags: its labels are printed")

    def said_copies(self, refs: Sequence[Any]) -> Message:
        return self.said(refs[0])
