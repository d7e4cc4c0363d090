"""A game against the computer at a table that says nothing, dealt and opened (its lines are
read from what the session and the table return), and the Whisper engines a test module
shares: for the tests of practice, learn and voice at such a table."""

from __future__ import annotations

import argparse
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from companion.cli_practice import practice_config
from companion.computer import Computer, computer_seats
from companion.games.registry import load_game
from companion.narrate.catalogue import Catalogue
from companion.session import Session
from companion.table import Table


class Quiet:
    """An output that says nothing and has no earpiece."""

    catalogue = None

    def emit(self, messages: object) -> None:
        pass

    def has_earpiece(self, seat: int) -> bool:
        return False


def practice_table(game: str, lang: str = "en", *, seed: int = 2, players: int | None = None,
                   learn: bool = False) -> Table:
    """A practice (or learn) game against the easy computer, dealt, the person to act."""
    loaded = load_game(game)
    hooks = loaded.practice()
    args = argparse.Namespace(rules=None, seed=seed, name=None, level="easy", players=players)
    config = practice_config(args, loaded, hooks, Catalogue(lang, games=(game,)))
    assert config is not None
    session = Session(loaded, {**config, "learn": True} if learn else config)
    table = Table(session, Quiet(), Computer(session, hooks, computer_seats(config), 0, False))
    table.open(False)
    return table


def whisper_engines(wrap: Callable[[Any], Any] = lambda engine: engine,
                    **options: Any) -> Iterator[Callable[[str], Any]]:
    """For a module-scoped fixture: `engine(lang)` gives the Whisper recognizer of `lang`
    (made once, wrapped by `wrap`; the test skipped when its model is missing), all closed
    at the end."""
    from companion.voice.whisper import WhisperRecognizer
    from companion.voice.whisper_model import ModelMissing

    made: dict[str, tuple[Any, Any]] = {}

    def engine(lang: str) -> Any:
        if lang not in made:
            try:
                whisper = WhisperRecognizer(None, lang, **options)
            except ModelMissing as missing:
                pytest.skip(f"no Whisper model for {lang}: {missing}")
            made[lang] = (whisper, wrap(whisper))
        return made[lang][1]
    yield engine
    for whisper, _ in made.values():
        whisper.close()
