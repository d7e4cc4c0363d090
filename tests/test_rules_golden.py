"""Golden transcripts of `companion rules` sessions: every line read, checked line by line.
After a deliberate change of wording: `UPDATE_GOLDEN=1 pytest tests/test_rules_golden.py`,
then review the diff."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from companion.cli import main

GOLDEN = Path(__file__).parent / "golden"
CASES = [("rules_hanamikoji_en", ["hanamikoji", "--lang", "en"]),
         ("rules_momiji_uk", ["momiji", "--lang", "uk"])]


@pytest.mark.parametrize(("name", "extra"), CASES, ids=[c[0] for c in CASES])
def test_rules_session_matches_golden(capsys: pytest.CaptureFixture[str], name: str,
                                      extra: list[str]) -> None:
    code = main(["rules", *extra, "--no-speech", "--script", str(GOLDEN / f"{name}.script")])
    assert code == 0
    out = capsys.readouterr().out
    expected_path = GOLDEN / f"{name}.expected"
    if os.environ.get("UPDATE_GOLDEN"):
        expected_path.write_text(out, "utf-8")
    expected = expected_path.read_text("utf-8").splitlines()
    actual = out.splitlines()
    for number, (want, got) in enumerate(zip(expected, actual, strict=False), start=1):
        assert got == want, f"{name}.expected line {number}"
    assert len(actual) == len(expected)


def test_a_game_without_rules_in_a_language_is_refused_plainly(capsys, tmp_path) -> None:
    code = main(["rules", "hanamikoji", "--lang", "en", "--no-speech",
                 "--script", str(tmp_path / "missing.txt")])
    assert code == 2
    assert "missing.txt" in capsys.readouterr().out
