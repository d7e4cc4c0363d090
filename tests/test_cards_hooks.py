"""Each game's CardHooks, as companion/cards/ uses them without knowing any game."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from companion.cards.enroll import enrolled_cards, enrolling_games
from companion.cards.labels import caption
from companion.cards.payload import all_cards, card_games, format_payload, hooks
from companion.games.registry import game_names
from companion.narrate.catalogue import LANGUAGES, Catalogue

ROOT = Path(__file__).resolve().parent.parent
GAMES = card_games()


def test_every_installed_game_has_cards_with_its_own_code() -> None:
    assert game_names() == GAMES and len(GAMES) >= 2
    codes = [hooks(game).code for game in GAMES]
    assert len(set(codes)) == len(codes)


@pytest.mark.parametrize("game", GAMES)
def test_tables_name_only_known_kinds(game: str) -> None:
    tables = hooks(game)
    kinds = set(tables.pieces)
    assert set(tables.valued) <= kinds and set(tables.enrolment) <= kinds
    assert tables.sheets, "a game with labels has at least one sheet"
    for sheet in tables.sheets.values():
        assert sheet.kinds and set(sheet.kinds) <= kinds
    on_sheets = {k for sheet in tables.sheets.values() for k in sheet.kinds}
    assert on_sheets == kinds, "every kind of piece can be printed"


@pytest.mark.parametrize("game", GAMES)
def test_every_card_has_a_caption_in_each_label_language(game: str) -> None:
    for ref in all_cards(game):
        for lang in ("en", "fr"):
            lines = caption(ref, lang)  # type: ignore[arg-type]
            assert len(lines) == 3 and lines[0], (ref, lang)


@pytest.mark.parametrize("game", enrolling_games())
@pytest.mark.parametrize("lang", LANGUAGES)
def test_enrolled_cards_are_said_and_asked_for_in_every_language(game: str, lang: str) -> None:
    catalogue = Catalogue(lang)
    cards = enrolled_cards(game)
    assert cards
    for ref in cards:
        for message in (hooks(game).said(ref), hooks(game).ask(ref),
                        hooks(game).said_copies([ref])):
            text = catalogue.render(message)
            assert text and "{" not in text, (ref, text)


@pytest.mark.parametrize("game", GAMES)
def test_reading_a_label_during_play_imports_no_other_game(game: str) -> None:
    """Payload codes are matched against the game being played first: a scan must not
    load every other installed game (tens of milliseconds each)."""
    payload = format_payload(all_cards(game)[-1])
    code = (
        "import sys\n"
        "from importlib.metadata import entry_points\n"
        "from companion.games.registry import load_game\n"
        "from companion.cards.payload import parse_payload\n"
        f"load_game({game!r})\n"
        "before = set(sys.modules)\n"
        f"ref = parse_payload({payload!r})\n"
        f"assert ref.game == {game!r}, ref\n"
        "others = [ep.module.rsplit('.', 1)[0] for ep in entry_points(group='companion.games')"
        f" if ep.name != {game!r}]\n"
        "print([m for m in set(sys.modules) - before if any(m.startswith(o) for o in others)])\n"
    )
    result = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True,
                            text=True, timeout=60, check=True)
    assert result.stdout.strip() == "[]", result.stdout
