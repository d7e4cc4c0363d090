"""The push-to-talk key `00` with voice off says that voice is off and how to turn it on."""

from __future__ import annotations

import pytest

from companion.cli import main
from companion.launcher import command


@pytest.mark.parametrize("game", ["hanamikoji", "momiji"])
def test_double_zero_without_voice_says_how_to_turn_it_on(tmp_path, capsys, game):
    script = tmp_path / "lines.txt"
    script.write_text("00\n", "utf-8")
    code = main(["play", game, "--players", "Ana", "Ben", "--script", str(script),
                 "--no-speech", "--db", str(tmp_path / "g.sqlite3"), "--lang", "en"])
    assert code == 0
    lines = capsys.readouterr().out.splitlines()
    assert ("Voice commands are off: 00 starts listening when the game is started with "
            f"{command()} play --voice.") in lines
    assert not any("numbered" in line or "keyed" in line for line in lines)
