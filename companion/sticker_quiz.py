"""The sticker code trainer (`companion stickers quiz`): pure, no device, no file.

The companion names a piece ("find: Gift token") or describes its stickers ("which piece
has three dots?"); the player finds it by touch and scans it, or keys its number as in
play. A right answer is counted; a missed piece comes back later in the quiz. At any
moment the player may describe what they feel ("what: a heart and two dots") or, in
explore mode, scan a piece, and the companion says what it is, unscored.

Inputs become frozen commands with a canonical text (`scan TC1:HK:TOKEN:GIFT:1`,
`key 3`, `what three dots`, `skip`, `repeat`, `help`, `quit`); the pieces, their
stickers, keys and names come from the game's CardHooks (`feel`, `key`, `named`).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from companion.cards.feel import Feel, read_feel
from companion.cards.payload import CardRef
from companion.narrate.catalogue import Alternatives
from companion.narrate.message import Message, Priority
from companion.normalize import fold

MODES = ("find", "which")


@dataclass(frozen=True)
class Piece:
    """A piece the quiz asks about: one of each kind and name (copies feel the same)."""

    ref: CardRef
    feel: Feel
    key: str | None
    name: Message  # without its copy number

    @property
    def ident(self) -> tuple[str, str, int | None]:
        return (self.ref.kind, self.ref.name, self.ref.value)


@dataclass(frozen=True)
class Scan:
    ref: CardRef

    def text(self) -> str:
        from companion.cards.payload import format_payload

        return f"scan {format_payload(self.ref)}"


@dataclass(frozen=True)
class Key:
    digits: str

    def text(self) -> str:
        return f"key {self.digits}"


@dataclass(frozen=True)
class Describe:
    words: str

    def text(self) -> str:
        return f"what {self.words}"


@dataclass(frozen=True)
class Word:
    """skip, repeat, help or quit."""

    word: str

    def text(self) -> str:
        return self.word


Command = Scan | Key | Describe | Word
WORDS = {
    "skip": ("skip", "pass", "0", "passer", "je ne sais pas", "saltar", "paso", "no se",
             "пропустити", "далі", "не знаю"),
    "repeat": ("*", "repeat", "again", "repeter", "encore", "repetir", "повтори", "повторити"),
    "help": (".", "+", "help", "aide", "ayuda", "довідка", "допомога"),
    "quit": ("/*+", "/ * +", "quit", "exit", "stop", "quitter", "salir", "вийти"),
}
_LOOKUP = {fold(w): word for word, ws in WORDS.items() for w in ws}
ASKING = ("what", "what is", "quoi", "qu est ce", "c est quoi", "que es", "que", "що",
          "що це", "?")


def parse(text: str) -> Command:
    """A command from its canonical text."""
    from companion.cards.payload import parse_payload

    head, _, rest = text.strip().partition(" ")
    if head == "scan":
        return Scan(parse_payload(rest))
    if head == "key" and rest.isdigit():
        return Key(rest)
    if head == "what" and rest:
        return Describe(rest)
    if text.strip() in WORDS:
        return Word(text.strip())
    raise ValueError(f"not a quiz command: {text!r}")


def read(line: str) -> Command | None:
    """A typed or keyed line (scans are resolved by the caller, which holds the card
    registry): a word, digits, or a description of what is felt; None if none."""
    plain = " ".join(fold(line).replace("'", " ").split())
    if plain in _LOOKUP:
        return Word(_LOOKUP[plain])
    if plain.replace(" ", "").isdigit():
        return Key(plain.replace(" ", ""))
    words = line.strip()
    for lead in sorted(ASKING, key=len, reverse=True):
        if plain.startswith(lead + " ") or plain.startswith(lead + "?"):
            words = line.strip()[len(lead):].lstrip(" ?:")
            break
    return Describe(" ".join(words.split())) if read_feel(words) is not None else None


class Quiz:
    """One quiz: the questions, the score, the pieces missed (asked again)."""

    def __init__(self, pieces: Sequence[Piece], seed: int, rounds: int = 10,
                 explore: bool = False) -> None:
        self.pieces = list(pieces)
        self.rng = random.Random(seed)
        self.rounds = rounds
        self.explore = explore
        self.asked = 0
        self.right = 0
        self.missed: list[Piece] = []  # in the order missed, each once
        self._queue: list[Piece] = []
        self._again: list[Piece] = []  # missed, to come back
        self.current: Piece | None = None
        self.mode = "find"
        self.over = False

    # -- what is said ------------------------------------------------------------------
    def start(self) -> list[Message]:
        if self.explore:
            return [Message("info", "quiz.explore_intro")]
        return [Message("info", "quiz.intro", {"n": self.rounds})] + self._next()

    def handle(self, command: Command | None, line: str = "") -> list[Message]:
        if command is None:
            return [Message("error", "quiz.not_understood", {"line": line.strip()},
                            priority=Priority.REFUSAL)] + self._question()
        if isinstance(command, Describe):
            return self._describe(command.words) + self._question()
        if isinstance(command, Word):
            if command.word == "quit":
                return self.finish()
            if command.word == "help":
                return [Message("info", "quiz.help")] + self._question()
            if command.word == "repeat":
                return self._question()
        if self.explore:
            if isinstance(command, Scan):
                return self._what_it_is(command.ref)
            return [Message("info", "quiz.explore_intro")]
        if self.current is None:
            return []
        if isinstance(command, Word):  # skip
            return self._answered(None, command)
        return self._answered(self._given(command), command)

    def finish(self) -> list[Message]:
        self.over = True
        if self.explore or not self.asked:  # nothing answered: nothing to count
            return [Message("quit", "quiz.bye")]
        missed = [p.name for p in self.missed]
        key = "quiz.summary" if missed else "quiz.summary_all"
        return [Message("quit", key, {"right": self.right, "n": self.asked, "missed": missed})]

    # -- inside ------------------------------------------------------------------------
    def _given(self, command: Command) -> Piece | None:
        """The piece the player gave: scanned, or keyed (a key is read among the pieces
        of the asked piece's kind first, as play reads it by what is expected)."""
        assert self.current is not None
        if isinstance(command, Scan):
            return self._find(lambda p: p.ident == (command.ref.kind, command.ref.name,
                                                    command.ref.value))
        if isinstance(command, Key):
            kind = self.current.ref.kind
            return (self._find(lambda p: p.ref.kind == kind and p.key == command.digits)
                    or self._find(lambda p: p.key == command.digits))
        return None

    def _find(self, test: Callable[[Piece], bool]) -> Piece | None:
        return next((p for p in self.pieces if test(p)), None)

    def _answered(self, given: Piece | None, command: Command) -> list[Message]:
        piece = self.current
        assert piece is not None
        self.asked += 1
        if given is not None and given.ident == piece.ident:
            self.right += 1
            out = [Message("right", "quiz.right", {"piece": piece.name, "feel": piece.feel},
                           {"right": True})]
        else:
            if piece not in self._again:
                self._again.append(piece)
            if piece not in self.missed:
                self.missed.append(piece)
            if given is None and isinstance(command, Word):
                out = [Message("wrong", "quiz.skipped", {"piece": piece.name,
                                                          "feel": piece.feel, "key": piece.key},
                               {"right": False})]
            elif given is None:
                out = [Message("wrong", "quiz.no_such_key", {"digits": getattr(command, "digits",
                                                                                 ""),
                                                              "piece": piece.name,
                                                              "feel": piece.feel,
                                                              "key": piece.key},
                               {"right": False})]
            else:
                out = [Message("wrong", "quiz.wrong", {
                    "given": given.name, "given_feel": given.feel, "piece": piece.name,
                    "feel": piece.feel, "key": piece.key}, {"right": False})]
        return out + self._next()

    def _next(self) -> list[Message]:
        # After the rounds, the pieces missed come back, up to as many questions again.
        if (self.asked >= self.rounds and not self._again) or self.asked >= 2 * self.rounds:
            return self.finish()
        if self.asked >= self.rounds or (self._again and self.rng.random() < 0.5):
            piece = self._again.pop(0)  # a missed piece comes back
        else:
            if not self._queue:
                self._queue = self.rng.sample(self.pieces, len(self.pieces))
            piece = self._queue.pop()
        if piece is self.current and len(self.pieces) > 1 and not self._again:
            self._queue.insert(0, piece)  # never the same piece twice in a row
            piece = self._queue.pop()
        self.current = piece
        self.mode = self.rng.choice(MODES)
        return self._question()

    def _question(self) -> list[Message]:
        if self.over or self.current is None:
            return []
        n = self.asked + 1
        piece = self.current
        if self.mode == "which" and not piece.feel.empty:
            return [Message("prompt", "quiz.which", {"number": n, "feel": piece.feel},
                            {"question": n, "mode": "which"}, Priority.PROMPT)]
        return [Message("prompt", "quiz.find", {"number": n, "piece": Bare(piece.name)},
                        {"question": n, "mode": "find"}, Priority.PROMPT)]

    def _describe(self, words: str) -> list[Message]:
        feel = read_feel(words)
        if feel is None:
            return [Message("error", "quiz.not_understood", {"line": words},
                            priority=Priority.REFUSAL)]
        exact = [p for p in self.pieces if p.feel == feel]
        if exact:
            return [Message("info", "quiz.it_is",
                            {"feel": feel, "pieces": [p.name for p in exact]})]
        near = [p for p in self.pieces
                if (feel.colour is None or p.feel.colour == feel.colour)
                and (feel.number is None or p.feel.number == feel.number)]
        if near:
            return [Message("info", "quiz.it_may_be",
                            {"feel": feel, "pieces": Alternatives(p.name for p in near)})]
        return [Message("info", "quiz.nothing_feels", {"feel": feel})]

    def _what_it_is(self, ref: CardRef) -> list[Message]:
        piece = self._find(lambda p: p.ident == (ref.kind, ref.name, ref.value))
        if piece is None:
            return [Message("info", "quiz.not_in_quiz")]
        return [Message("info", "quiz.scanned", {"piece": piece.name, "feel": piece.feel,
                                                  "key": piece.key})]


@dataclass(frozen=True)
class Bare:
    """A piece's name without what its parentheses give away ("fan (red, 2) card" is asked
    as "fan card", "Gift (3) token" as "Gift token"): the player finds it by its stickers."""

    name: Message

    def worded(self, words: object) -> str:
        import re

        text = words.value(self.name)  # type: ignore[attr-defined]
        return " ".join(re.sub(r"\s*\([^)]*\)", "", text).split())


def pieces(game: str) -> list[Piece]:
    """The quiz pieces of a game: one per kind and name (and value), those with stickers
    the rules describe."""
    from companion.cards.payload import all_cards, hooks

    tables = hooks(game)
    feel = getattr(tables, "feel", None)
    key = getattr(tables, "key", None)
    named = getattr(tables, "named", tables.said)
    out: dict[tuple[str, str, int | None], Piece] = {}
    for ref in all_cards(game):
        felt = feel(ref) if feel is not None else None
        if felt is None or felt.empty or (ref.kind, ref.name, ref.value) in out:
            continue
        out[(ref.kind, ref.name, ref.value)] = Piece(ref, felt, key(ref) if key else None,
                                                     named(ref))
    return list(out.values())
