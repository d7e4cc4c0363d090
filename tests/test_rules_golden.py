"""Golden transcripts of `companion rules` sessions: every line read, checked line by line.
After a deliberate change of wording: `UPDATE_GOLDEN=1 pytest tests/test_rules_golden.py`,
then review the diff."""

from __future__ import annotations

import pytest
from goldens import GOLDEN, matches_golden

from companion.cli import main

CASES = [("rules_hanamikoji_en", ["hanamikoji", "--lang", "en"]),
         ("rules_momiji_uk", ["momiji", "--lang", "uk"])]


@pytest.mark.parametrize(("name", "extra"), CASES, ids=[c[0] for c in CASES])
def test_rules_session_matches_golden(capsys: pytest.CaptureFixture[str], name: str,
                                      extra: list[str]) -> None:
    code = main(["rules", *extra, "--no-speech", "--script", str(GOLDEN / f"{name}.script")])
    assert code == 0
    out = capsys.readouterr().out
    matches_golden(name, out)


def test_a_game_without_rules_in_a_language_is_refused_plainly(capsys, tmp_path) -> None:
    code = main(["rules", "hanamikoji", "--lang", "en", "--no-speech",
                 "--script", str(tmp_path / "missing.txt")])
    assert code == 2
    assert "missing.txt" in capsys.readouterr().out
