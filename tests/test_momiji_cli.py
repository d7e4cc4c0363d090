"""`companion play momiji` end to end: --script, --json, --no-speech, --db, resume."""

from __future__ import annotations

import json
from pathlib import Path

from companion.cli import main

SCRIPT = """\
without violet orange
green acorns sum tallest
green 0 brown 0 yellow 1 red 0
4
play green 0 brown 0
bonus 1
end
objective acorns
end
reveal green 1 brown 1 red 1 yellow 0
collect green
end
play red 0 1
end
play green 1 yellow 0
end
"""


def run(tmp_path: Path, capsys, lines: str, players: list[str], *extra: str) -> list[dict]:
    script = tmp_path / "game.txt"
    script.write_text(lines, "utf-8")
    code = main(["play", "momiji", "--players", *players, "--script", str(script), "--json",
                 "--no-speech", "--db", str(tmp_path / "g.sqlite3"), "--lang", "en", *extra])
    assert code == 0
    return [json.loads(line) for line in capsys.readouterr().out.splitlines()]


def test_scripted_game_ends_with_points_and_winners(tmp_path, capsys):
    records = run(tmp_path, capsys, SCRIPT, ["Ana", "Ben"])
    assert all(r["text"] for r in records)
    assert not [r for r in records if r["event"] == "error"]
    over = [r for r in records if r["event"] == "game_over"]
    assert len(over) == 1
    final = over[0]
    # Ana: piles green 0 1 (2 x 1), brown 0 and yellow 0 (0); 5 acorns; 3 for having more
    # acorns than Ben, who owns that objective. Ben: red 0 1 (2 x 1), 2 acorns.
    assert set(final["points"]) == {"Ana", "Ben"}
    assert final["winners"] and set(final["winners"]) <= {"Ana", "Ben"}
    best = max(final["points"].values())
    assert all(final["points"][w] == best for w in final["winners"])
    assert final["points"] == {"Ana": 2 + 5 + 3, "Ben": 2 + 2}
    assert final["winners"] == ["Ana"]


def test_saved_game_resumes_where_it_stopped(tmp_path, capsys):
    first, rest = SCRIPT.split("reveal")
    run(tmp_path, capsys, first, ["Ana", "Ben"])
    records = run(tmp_path, capsys, "reveal" + rest, ["Ana", "Ben"], "--resume")
    assert records[0]["event"] == "resumed"
    assert records[-2]["event"] == "game_over" and records[-2]["winners"] == ["Ana"]


def test_three_players_from_the_command_line(tmp_path, capsys):
    script = (Path(__file__).parent / "golden" / "momiji_en.txt").read_text("utf-8")
    records = run(tmp_path, capsys, script, ["Ana", "Ben", "Cy"])
    over = [r for r in records if r["event"] == "game_over"]
    assert over and over[0]["winners"] == ["Ana"]
    assert over[0]["points"] == {"Ana": 17, "Ben": 8, "Cy": 9}
