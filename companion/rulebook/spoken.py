"""The rulebook by voice (`companion rules --voice`): what a reader says, per language,
spelled as the language writes it (for the Whisper prompt and its limited beam), and the
bag of phrases a rulebook listens for: the moves, the section numbers and titles, each
section's keywords and the words a question starts with.

What a phrase means is navigator.read's business (the same reading as typed lines); a
test reads every phrase back through it, so a phrase listed under the wrong move fails.
"""

from __future__ import annotations

import re

from companion.inputs.reading_voice import Phrases
from companion.normalize import fold
from companion.rulebook.book import RuleBook
from companion.rulebook.navigator import Open, Question, read
from companion.voice.numbers import as_digits, said

# Each move as a reader says it, in the language's spelling (navigator.WORDS folds them).
MOVES: dict[str, dict[str, tuple[str, ...]]] = {
    "en": {"next": ("next", "more"), "previous": ("previous", "back"),
           "repeat": ("repeat", "again"), "contents": ("contents", "table of contents"),
           "help": ("help",), "quit": ("quit", "stop")},
    "fr": {"next": ("suivant", "suite"), "previous": ("précédent", "retour"),
           "repeat": ("répète", "encore"), "contents": ("sommaire", "table des matières"),
           "help": ("aide",), "quit": ("quitter",)},
    "es": {"next": ("siguiente", "sigue"), "previous": ("anterior", "atrás"),
           "repeat": ("repite", "repetir"), "contents": ("índice", "contenido"),
           "help": ("ayuda",), "quit": ("salir",)},
    "uk": {"next": ("далі", "наступний"), "previous": ("назад", "попередній"),
           "repeat": ("повтори", "ще раз"), "contents": ("зміст",),
           "help": ("допомога", "довідка"), "quit": ("вийти",)},
}
# Said before a section or a question ("section 3", "rules gift"): navigator.LEADING.
LEADING = {"en": ("rules", "section"), "fr": ("règles", "section", "chapitre"),
           "es": ("reglas", "sección"), "uk": ("правила", "розділ")}
# What a question starts with; book.py leaves these words out of the search.
ASKING = {"en": ("what is", "what is a", "how do I", "how does", "when", "can I"),
          "fr": ("qu'est-ce que", "c'est quoi", "comment", "quand", "est-ce que"),
          "es": ("qué es", "cómo", "cuándo", "puedo"),
          "uk": ("що таке", "як", "коли", "чи можна")}


def _lang(lang: str) -> str:
    return lang if lang in MOVES else "en"


def reader(book: RuleBook, lang: str):  # type: ignore[no-untyped-def]
    """A transcript → the canonical text of the command it means, or None. Held closer
    than a typed line: a question by voice is a section's title or one of its keywords,
    after the words a question starts with ("what is a gift"), so that a word misheard
    among many ("a gift" as "again") does not make another question the rules answer."""
    lang = _lang(lang)
    # Each topic as heard (as written, or with its numbers as digits) → as written.
    topics = {_plain(form): t for s in book.sections for t in (s.title, *s.keywords)
              for form in (t, as_digits(t, lang))}
    asking = sorted({_plain(a) for a in ASKING[lang]}, key=len, reverse=True)

    def heard(text: str) -> str | None:
        if not _plain(text):
            return None  # Enter reads on when typed; silence does not
        command = read(text, book)
        if isinstance(command, Question):  # "section three": numbers said in words
            command = read(as_digits(text, lang), book)
        if isinstance(command, Open) and book.section(command.number) is None:
            return None
        if isinstance(command, Question):
            topic = _plain(command.words)
            for lead in asking:
                if topic.startswith(lead + " "):
                    topic = topic[len(lead) + 1:]
                    break
            if topic not in topics:
                return None
            return Question(topics[topic]).text()  # answered as the keyword asks it
        return command.text()

    return heard


def _plain(text: str) -> str:
    return " ".join(re.sub(r"[-'?!.,]", " ", fold(text)).split())


def phrases(book: RuleBook, lang: str) -> Phrases:
    """What a rulebook listens for in `lang`."""
    lang = _lang(lang)
    moves = [w for words in MOVES[lang].values() for w in words]
    numbers = [w for n in range(1, len(book.sections) + 1)
               for w in (*said(n, lang), str(n))]
    titles = [s.title for s in book.sections]
    keywords = [k for s in book.sections for k in s.keywords]
    bag = tuple(dict.fromkeys([*moves, *LEADING[lang], *numbers, *titles, *keywords,
                               *ASKING[lang]]))
    # A prompt too long loses its beginning: the moves, said most, come last.
    prompt = tuple(dict.fromkeys([*keywords, *titles, *LEADING[lang], *moves]))
    return Phrases(f"rules_{book.game}_{lang}", bag, reader(book, lang), prompt)
