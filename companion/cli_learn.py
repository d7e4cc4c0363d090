"""`companion learn [game]`: a guided first game against the computer.

It is `companion practice` (the one play loop of companion/table.py, the computer in the
other seat) with a guide (companion/learn/guide.py) that adds, the first time each step
happens, the game's lesson for it, and at the end a summary of what was met. `rules`
pauses on the rulebook at any moment, as in any game. The lessons said are kept in the
game log (its `notes`), so that `--resume` does not say them again. See docs/learning.md.
"""

from __future__ import annotations

import argparse
import contextlib
from typing import Any

from companion.games.registry import load_game
from companion.narrate.message import Message


def add_parser(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    from companion.cli import add_game_options
    from companion.cli_practice import add_seated_options

    p = sub.add_parser("learn", help="a guided first game against the computer: each step "
                                     "explained the first time it comes")
    add_game_options(p)
    add_seated_options(p, level="easy",
                       level_help="the computer: easy, normal or strong (default easy)",
                       resume_help="continue the last guided game (the lessons said "
                                   "before are not said again)")
    p.set_defaults(func=run_learn)


def run_learn(args: argparse.Namespace) -> int:
    from companion.cli import system_language
    from companion.cli_practice import PLAYER, practice_config, seated_refusal
    from companion.learn.guide import Guide, LessonsMissing, load_lessons
    from companion.narrate.catalogue import Catalogue
    from companion.table import Seating, run_table

    game = load_game(args.game)
    catalogue = Catalogue(args.lang or system_language(), games=(game.name,))
    hooks = game.practice()
    try:
        lessons = load_lessons(game.name, catalogue.lang)
    except LessonsMissing:
        lessons = ()
    refused = seated_refusal(args, game, hooks)
    if refused is None and not lessons:
        refused = Message("error", "learn.missing", {"game": game.name})
    if refused is not None:
        print(catalogue.render(refused))
        return 2

    def new_config(said_in: Catalogue) -> dict | None:
        config = practice_config(args, game, hooks, said_in)
        return None if config is None else {**config, "learn": True}

    guide = Guide(lessons)
    seating = Seating("learn", new_config, resumes=lambda config: "learn" in config,
                      earbuds={f"player:{PLAYER}": args.earbud} if args.earbud else {},
                      annotate=guide.annotate,
                      attach=lambda session, store: remember(guide, session, store))
    return run_table(args, game, catalogue, seating)


LESSON = "lesson"  # the kind of the game log's notes the guide keeps


def remember(guide: Any, session: Any, store: Any) -> None:
    """The guide's lessons kept in the game log: a resumed game's said ones taken back,
    each new one written before it is said (a log that cannot be written says so at the
    next step; the lesson is said all the same)."""
    from companion.store import StorageError

    if session.game_id is not None:  # a resumed game
        guide.resume(store.notes(session.game_id, LESSON))

    def keep(lesson: str) -> None:
        game_id = session.game_id
        if game_id is not None:
            with contextlib.suppress(StorageError):
                store.keep_note(game_id, LESSON, lesson)

    guide.keep = keep
