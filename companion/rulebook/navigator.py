"""Reading a rulebook by ear: a reader's lines become frozen commands, commands become
Messages (the core catalogue's `rules.*` sentences). Pure: no file, no device.

Keys, as on the play keypad where they exist: Enter or plus reads on, minus goes back,
star repeats, slash gives the contents, a number and Enter opens that section, the dot
says these keys; `/*+` quits, as in play. Any other line is a question by word.
"""

from __future__ import annotations

from dataclasses import dataclass

from companion.narrate.catalogue import Sentences
from companion.narrate.message import Message, Priority
from companion.normalize import fold
from companion.rulebook.book import RuleBook, Section

MOVES = ("next", "previous", "repeat", "contents", "help", "quit")

# Each move's words in the four languages (folded) and its keypad key.
WORDS: dict[str, tuple[str, ...]] = {
    "next": ("", "+", "next", "n", "more", "suivant", "suivante", "suite", "siguiente",
             "sigue", "далі", "наступний", "наступна", "наступне"),
    "previous": ("-", "previous", "back", "p", "precedent", "precedente", "retour", "anterior",
                 "atras", "назад", "попередній", "попередня", "попереднє"),
    "repeat": ("*", "repeat", "again", "r", "repeter", "repete", "encore", "repetir", "repite",
               "повтори", "повторити", "ще раз"),
    "contents": ("/", "contents", "table of contents", "toc", "sommaire", "table des matieres",
                 "indice", "contenido", "contenidos", "зміст"),
    "help": (".", "help", "aide", "ayuda", "довідка", "допомога"),
    "quit": ("/*+", "/ * +", "quit", "exit", "stop", "quitter", "salir", "вийти"),
}
# Words a reader may put before a question or a section ("rules gift", "section 3").
LEADING = ("rules", "rule", "regles", "regle", "reglas", "regla", "правила", "правило",
           "section", "chapitre", "seccion", "розділ")
_LOOKUP = {fold(w): move for move, words in WORDS.items() for w in words}


@dataclass(frozen=True)
class Move:
    """next, previous, repeat, contents, help or quit."""

    move: str

    def text(self) -> str:
        return self.move


@dataclass(frozen=True)
class Open:
    """A section by number."""

    number: int

    def text(self) -> str:
        return f"section {self.number}"


@dataclass(frozen=True)
class Question:
    """A question by word, answered with the section that says it."""

    words: str

    def text(self) -> str:
        return f"question {self.words}"


Command = Move | Open | Question


def parse(text: str) -> Command:
    """A command from its canonical text (`next`, `section 3`, `question gift`)."""
    text = text.strip()
    if text in MOVES:
        return Move(text)
    head, _, rest = text.partition(" ")
    if head == "section" and rest.isdigit():
        return Open(int(rest))
    if head == "question" and rest.strip():
        return Question(rest.strip())
    raise ValueError(f"not a rulebook command: {text!r}")


def read(line: str, book: RuleBook) -> Command:
    """What a reader's line means: a move, a section (by number, id or title), or a
    question by word."""
    plain = " ".join(fold(line).split())
    if plain in _LOOKUP:
        return Move(_LOOKUP[plain])
    words = plain.split()
    skipped = 0
    while skipped < len(words) and words[skipped] in LEADING:
        skipped += 1
    rest = " ".join(words[skipped:])
    if not rest:  # "rules" alone: the contents
        return Move("contents")
    if rest.isdigit():
        return Open(int(rest))
    found = book.section(rest)
    if found is not None:
        return Open(found.number)
    return Question(" ".join(line.split()[skipped:]))


class Navigator:
    """Where a reader is in one rulebook, and what each command says."""

    def __init__(self, book: RuleBook) -> None:
        self.book = book
        self.here: int | None = None  # the section last read (1-based), None at the start

    def opening(self) -> list[Message]:
        n = len(self.book.sections)
        return [Message("rules", "rules.opening", {"title": self.book.title, "n": n}),
                self._contents(), self._keys()]

    def handle(self, line: str) -> list[Message]:
        return self.execute(read(line, self.book))

    def execute(self, command: Command) -> list[Message]:
        if isinstance(command, Open):
            return self._open(command.number)
        if isinstance(command, Question):
            return self._answer(command.words)
        move = command.move
        if move == "quit":
            return [Message("quit", "rules.bye")]
        if move == "contents":
            return [self._contents()]
        if move == "help":
            return [self._keys()]
        if move == "repeat":
            return self._open(self.here) if self.here else [self._contents()]
        if move == "next":
            if self.here == len(self.book.sections):
                return [Message("info", "rules.last", {"n": self.here})]
            return self._open((self.here or 0) + 1)
        if not self.here or self.here == 1:  # previous
            return [Message("info", "rules.first")]
        return self._open(self.here - 1)

    def _open(self, number: int) -> list[Message]:
        section = self.book.section(number)
        if section is None:
            return [Message("error", "rules.no_section",
                            {"number": number, "n": len(self.book.sections)},
                            priority=Priority.REFUSAL)]
        self.here = number
        return [said(section, len(self.book.sections))]

    def _answer(self, words: str) -> list[Message]:
        section = self.book.search(words)
        if section is None:
            return [Message("error", "rules.not_found", {"words": words},
                            priority=Priority.REFUSAL), self._contents()]
        self.here = section.number
        return [said(section, len(self.book.sections), "rules.answer", words)]

    def _contents(self) -> Message:
        items = [Message("", "rules.contents_item", {"number": s.number, "title": s.title})
                 for s in self.book.sections]
        return Message("contents", "rules.contents", {"items": Sentences(items)})

    def _keys(self) -> Message:
        return Message("info", "rules.keys")


def said(section: Section, n: int, key: str = "rules.section", words: str = "") -> Message:
    """A section as one announcement."""
    return Message("rules", key, {"number": section.number, "n": n, "title": section.title,
                                  "text": section.text, "words": words},
                   {"section": section.id})
