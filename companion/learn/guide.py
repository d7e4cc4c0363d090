"""The guide of a first game: it watches what the table says and adds, the first time a
step happens, that step's lesson (what it is, and what the player should feel on the
cards), then at the end a summary of what was learnt.

A game ships its lessons as `learn/{lang}.toml` in its locales folder:

    [[lesson]]
    id = "gift"
    after = ["offer_gift"]        # message keys (or their beginnings) that bring it
    title = "the Gift"            # as the summary lists it
    text = "..."                  # one or two short sentences

A lesson brought by a prompt is said before the prompt (the prompt stays the last thing
heard); one brought by narration is said after it. Each lesson is said once per game, a
resumed one included: `keep` is given each lesson's id before it is said (the command
writes it to the game log), and `resume` takes back the ids kept before.
Pure: the caller gives the lessons and the messages, and gets messages back.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from functools import cache
from importlib.resources.abc import Traversable

from companion.narrate.message import Message

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib


@dataclass(frozen=True)
class Lesson:
    id: str
    after: tuple[str, ...]
    title: str
    text: str

    def brought_by(self, key: str) -> bool:
        return any(key == k or key.startswith((k + ".", k + "_")) for k in self.after)


class LessonsMissing(LookupError):
    """The game has no lessons in that language."""


def parse_lessons(text: str) -> tuple[Lesson, ...]:
    data = tomllib.loads(text)
    return tuple(Lesson(str(e["id"]), tuple(str(k) for k in e.get("after", ())),
                        str(e["title"]), " ".join(str(e["text"]).split()))
                 for e in data.get("lesson", []))


def read_lessons(game: str, folder: Traversable | None, lang: str) -> tuple[Lesson, ...]:
    learn = folder.joinpath("learn") if folder is not None else None
    if learn is None or not learn.joinpath(f"{lang}.toml").is_file():
        raise LessonsMissing(f"{game} has no lessons in {lang}")
    return parse_lessons(learn.joinpath(f"{lang}.toml").read_text("utf-8"))


@cache
def load_lessons(game: str, lang: str) -> tuple[Lesson, ...]:
    from companion.games.registry import load_game

    return read_lessons(game, load_game(game).locales(), lang)


class Guide:
    """Which lessons were said; each message list as the learner hears it."""

    def __init__(self, lessons: Sequence[Lesson],
                 keep: Callable[[str], None] | None = None) -> None:
        self.lessons = tuple(lessons)
        self.said: list[Lesson] = []
        self.started = False
        self.summarised = False
        self.keep = keep  # told each lesson's id before it is said

    def resume(self, said: Iterable[str]) -> None:
        """A resumed game: the lessons said before (by id, in order) are not said again
        and count in the summary; the introduction was heard already."""
        ids = list(said)
        self.said = sorted((lesson for lesson in self.lessons if lesson.id in ids),
                           key=lambda lesson: ids.index(lesson.id))
        self.started = self.started or bool(ids)

    def annotate(self, messages: Sequence[Message]) -> list[Message]:
        """The messages with each new lesson they bring: the guide's introduction before
        the first ones, the summary when the game is over or the learner quits."""
        out: list[Message] = []
        if not self.started:
            self.started = True
            out.append(Message("lesson", "learn.intro"))
        for m in messages:
            if m.event == "quit" and not self.summarised:
                out += self.summary()
            said = [_said(lesson) for lesson in self._brought(m.key)]
            out += said + [m] if m.event == "prompt" else [m] + said
            if m.event == "game_over" and not self.summarised:
                out += self.summary()
        return out

    def summary(self) -> list[Message]:
        """What was learnt, and what did not come up this time."""
        self.summarised = True
        learnt = [lesson.title for lesson in self.said]
        missing = [lesson.title for lesson in self.lessons if lesson not in self.said]
        out = [Message("lesson", "learn.summary", {"lessons": learnt, "n": len(learnt)},
                       {"lessons": [lesson.id for lesson in self.said]})]
        if missing:
            out.append(Message("lesson", "learn.not_met", {"lessons": missing,
                                                           "n": len(missing)}))
        return out

    def _brought(self, key: str) -> list[Lesson]:
        new = [lesson for lesson in self.lessons
               if lesson not in self.said and lesson.brought_by(key)]
        for lesson in new:
            if self.keep is not None:
                self.keep(lesson.id)
        self.said += new
        return new


def _said(lesson: Lesson) -> Message:
    return Message("lesson", "learn.lesson", {"title": lesson.title, "text": lesson.text},
                   {"lesson": lesson.id})
