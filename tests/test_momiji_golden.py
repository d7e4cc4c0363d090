"""Golden transcripts of a scripted 3-player Momiji game, in English and in French.

Each script line is fed to a Session and every Message is rendered by the Catalogue, as
the printed output would show it; the input lines are echoed after "> ". To accept a
deliberate change of wording, run `UPDATE_GOLDEN=1 pytest tests/test_momiji_golden.py`
and review the diff like code.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from goldens import GOLDEN, matches_golden

from companion.games.momiji import Momiji
from companion.narrate.catalogue import Catalogue
from companion.session import Session
from companion.store import GameStore

CASES = [("momiji_en", "en", ["Ana", "Ben", "Cy"]), ("momiji_fr", "fr", ["Léa", "Hugo", "Zoé"])]


def transcript(script: Path, lang: str, names: list[str], store: GameStore | None) -> list[str]:
    catalogue = Catalogue(lang, games=("momiji",))  # its own words and the core's only
    session = Session(Momiji(), {"players": names, "lang": lang}, store)
    out = [catalogue.render(m) for m in session.start()]
    for line in script.read_text("utf-8").splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        out.append(f"> {line}")
        out.extend(catalogue.render(m) for m in session.handle(line) if m.private_to is None)
    return out


@pytest.mark.parametrize(("name", "lang", "names"), CASES, ids=[c[0] for c in CASES])
def test_transcript_matches_golden(tmp_path, name, lang, names):
    store = GameStore(tmp_path / "g.sqlite3")
    actual = transcript(GOLDEN / f"{name}.txt", lang, names, store)
    matches_golden(name, "\n".join(actual) + "\n")
    # The game is saved as it went: it is finished, and its steps replay to the same end.
    saved = store.load(1)
    assert saved.finished
    replayed = Session(Momiji(), saved.config, None, saved.id, saved.steps)
    assert replayed.state.over


def test_both_languages_play_the_same_game(tmp_path):
    steps = []
    for name, lang, names in CASES:
        store = GameStore(tmp_path / f"{name}.sqlite3")
        transcript(GOLDEN / f"{name}.txt", lang, names, store)
        steps.append(store.load(1).steps)
    assert steps[0] == steps[1]
