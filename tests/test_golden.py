"""Golden transcripts: seeded whole games, every announcement, checked line by line.

The scripts come from tests/golden/make_scripts.py (seeded simulated games with queries,
a mistake and an undo mixed in). To accept a deliberate change of wording, run
`UPDATE_GOLDEN=1 pytest tests/test_golden.py` and review the diff like code.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from goldens import GOLDEN, matches_golden

from companion.cli import main

CASES = [
    ("hanamikoji_en", ["--lang", "en", "--players", "Ana", "Ben"]),
    ("hanamikoji_fr", ["--lang", "fr", "--players", "Léa", "Hugo"]),
    ("hanamikoji_classic_en", ["--lang", "en", "--rules", "classic", "--players", "Ana", "Ben"]),
]


def play(tmp_path: Path, capsys: pytest.CaptureFixture[str], name: str, extra: list[str]) -> str:
    code = main(["play", "--no-speech", "--db", str(tmp_path / "g.sqlite3"),
                 "--script", str(GOLDEN / f"{name}.script"), *extra])
    assert code == 0
    return capsys.readouterr().out


@pytest.mark.parametrize(("name", "extra"), CASES, ids=[c[0] for c in CASES])
def test_transcript_matches_golden(tmp_path, capsys, name, extra):
    out = play(tmp_path, capsys, name, extra)
    matches_golden(name, out)


@pytest.mark.parametrize(("name", "extra"), CASES, ids=[c[0] for c in CASES])
def test_json_events_carry_scores_once(tmp_path, capsys, name, extra):
    out = play(tmp_path, capsys, name, [*extra, "--json"])
    records = [json.loads(line) for line in out.splitlines()]
    assert all("event" in r and isinstance(r["text"], str) and r["text"] for r in records)
    scored = [r for r in records if r["event"] == "round_scored"]
    over = [r for r in records if r["event"] == "game_over"]
    assert len(over) == 1 and over == [records[-2]] or over == [records[-1]]
    assert [r["round"] for r in scored] == list(range(1, len(scored) + 1))
    names = set(extra[extra.index("--players") + 1:][:2])
    for r in scored:
        assert set(r["points"]) == names and set(r["geishas"]) == names
        assert len(r["favors"]) == 7
        assert set(r["favors"].values()) <= names | {None}
        # points agree with the markers: each geisha's points go to her holder
        holders = {"violet": 2, "red": 2, "yellow": 2, "blue": 3, "orange": 3, "green": 4,
                   "pink": 5}
        for name_ in names:
            assert r["points"][name_] == sum(
                p for colour, p in holders.items() if r["favors"][colour] == name_)
    final = over[0]
    assert set(final["winners"]) <= names
    last = scored[-1]
    if len(final["winners"]) == 1:
        winner = final["winners"][0]
        other = (names - {winner}).pop()
        assert (last["points"][winner] >= 11 or last["geishas"][winner] >= 4
                or last["points"][winner] > last["points"][other]
                or last["geishas"][winner] > last["geishas"][other])
    errors = [r for r in records if r["event"] == "error"]
    assert all(r["code"] and r["reason"] for r in errors)
