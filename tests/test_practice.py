"""`companion practice`: a seeded game alone against the computer, and hints.

Golden transcripts (tests/golden/practice_{en,fr}.*): the same seed deals the same cards
and the computer answers the same way; `UPDATE_GOLDEN=1` rewrites them (review the diff).
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import random
from collections.abc import Callable
from pathlib import Path

import pytest

from companion.cli import main
from companion.games.hanamikoji import practice as practice_module
from companion.games.hanamikoji.opponent import determinise, observe
from companion.games.hanamikoji.practice import hint
from companion.games.hanamikoji.rules import Phase, RuleSet, new_game
from companion.games.hanamikoji.simulate import random_game

GOLDEN = Path(__file__).parent / "golden"


def practice(tmp_path: Path, capsys: pytest.CaptureFixture[str], *args: str) -> str:
    code = main(["practice", "--no-speech", "--db", str(tmp_path / "p.sqlite3"), *args])
    assert code == 0
    return capsys.readouterr().out


@pytest.fixture(scope="module")
def golden_game(tmp_path_factory: pytest.TempPathFactory) -> Callable[[str], str]:
    """The seeded game of a language's golden script, played once for the tests that read
    it (the transcript and undo's replies)."""
    played: dict[str, str] = {}

    def play(lang: str) -> str:
        if lang not in played:
            db = tmp_path_factory.mktemp(f"practice_{lang}") / "p.sqlite3"
            out = io.StringIO()
            with contextlib.redirect_stdout(out):
                code = main(["practice", "--no-speech", "--db", str(db), "--lang", lang,
                             "--seed", "7", "--level", "normal",
                             "--script", str(GOLDEN / f"practice_{lang}.script")])
            assert code == 0
            played[lang] = out.getvalue()
        return played[lang]

    return play


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_practice_transcript_matches_golden(golden_game, lang):
    out = golden_game(lang)
    path = GOLDEN / f"practice_{lang}.expected"
    if os.environ.get("UPDATE_GOLDEN"):
        path.write_text(out, "utf-8")
    assert out.splitlines() == path.read_text("utf-8").splitlines()


def test_undo_takes_back_the_players_move_and_the_replies(golden_game):
    lines = golden_game("en").splitlines()
    at = lines.index("Undone: Hana's gift of 3 umbrellas (blue, 3).")
    assert lines[at + 1] == "Undone: Hana taking pair 2."
    assert lines[at + 2] == "Undone: Alex's competition."
    assert lines[at + 3].startswith("You draw the")  # the draw and the hand, then the prompt
    assert lines[at + 5].startswith("Alex: your turn")  # heard before: the short prompt


def test_a_resumed_practice_game_goes_on_with_the_same_deals(tmp_path, capsys):
    script = tmp_path / "s.txt"
    script.write_text("secret card 7\n", "utf-8")
    practice(tmp_path, capsys, "--lang", "en", "--seed", "7", "--script", str(script))
    script.write_text("hand\n", "utf-8")
    resumed = practice(tmp_path, capsys, "--resume", "--script", str(script))
    whole = (GOLDEN / "practice_en.expected").read_text("utf-8")
    hand = [ln for ln in resumed.splitlines() if ln.startswith("Your hand:")][-1]
    assert hand in whole  # the same cards as in the seeded game played at one go


def test_the_computers_hidden_cards_never_reach_json(tmp_path, capsys):
    script = tmp_path / "s.txt"
    script.write_text("secret card 7\ngift card 1 card 2 card 3\nquit\n", "utf-8")
    out = practice(tmp_path, capsys, "--lang", "en", "--seed", "7", "--json",
                   "--script", str(script))
    events = [json.loads(line) for line in out.splitlines()]
    assert not any(str(e.get("command", "")).startswith("deal ") for e in events)
    hana_secret = [e for e in events if e.get("player") == "Hana" and e.get("action")]
    assert hana_secret and all("card" not in e for e in hana_secret)


def test_a_hint_is_the_same_whatever_the_other_players_hidden_cards(monkeypatch):
    # A smaller search budget than in play: what the hint depends on is the same at any
    # budget (the seat's observation), and 20 playouts still determinise the hidden cards
    # and play out every stage of the search (5 s of CPU at 50, 2.5 s at 20).
    monkeypatch.setattr(practice_module, "HINT_ITERATIONS", 20)
    for seed in range(6):
        for state, _ in random_game(seed)[:14:3]:
            if state.phase is Phase.DEAL or state.over:
                continue
            seat = state.to_move
            said = hint(state, seat)
            assert all(m.private_to == seat for m in said)
            for k in range(2):
                other = determinise(observe(state, seat), random.Random(k))
                assert hint(other, seat) == said


def test_at_a_table_a_hint_says_it_needs_the_hand():
    state = new_game(RuleSet.IELLO)  # a table game: hands are cards nobody told
    said = hint(state, 0)
    assert said[0].key == "hint_needs_hand" and said[0].private_to == 0


def test_keypad_lines_play_as_the_words_do(tmp_path, capsys, monkeypatch):
    """The table's keypad lines (token and geisha digits, symbols, plus-dot for a hint)."""
    monkeypatch.setattr(practice_module, "HINT_ITERATIONS", 50)  # the keys, not the search
    said = {}
    for name, lines in (("words", "secret flower\nhint\nscore\nboard\nundo\nhint\n"),
                        ("keys", "17\n+.\n/\n.\n-\n+ .\n")):
        script = tmp_path / f"{name}.txt"
        script.write_text(lines, "utf-8")
        said[name] = practice(tmp_path, capsys, "--lang", "en", "--seed", "7", "--db",
                              str(tmp_path / f"{name}.sqlite3"), "--script", str(script))
    assert said["keys"] == said["words"]
    assert "Your Secret: flower (pink, 5)." in said["keys"]
    assert said["keys"].count("Hint: ") == 2


def test_a_keypad_read_as_a_device_plays_through_the_games_key_hooks():
    import io

    from companion.computer import Computer
    from companion.games.registry import load_game
    from companion.inputs.hub import InputItem
    from companion.narrate.catalogue import Catalogue
    from companion.output import Output
    from companion.session import Session
    from companion.table import Table
    from hardware.events import ReaderEvent

    game = load_game("hanamikoji")
    session = Session(game, {"players": ["Ana", "Hana"], "lang": "en",
                             "full_information": True,
                             "practice": {"level": "normal", "seed": 7}})
    stream = io.StringIO()
    out = Output(Catalogue("en", games=("hanamikoji",)), stream=stream)
    table = Table(session, out, Computer(session, game.practice(), (1,), 0.0, False))
    table.open(resumed=False)
    keys = ["1", "7", "ENTER", "/"]  # Secret, the flower; the slash key acts at once
    table.play(InputItem("keypad", event=ReaderEvent("keypad", "/dev/input/x", "key", k))
               for k in keys)
    lines = stream.getvalue().splitlines()
    at = lines.index("Ana plays Secret: one card face down.")
    assert lines[at + 1] == "Your Secret: flower (pink, 5)."
    assert lines[-1].startswith("Round 1. Ana: 0 geishas")  # the score, after Hana's move


def test_the_companion_deals_says_each_drawn_card_and_teaches_card_n(tmp_path, capsys):
    script = tmp_path / "s.txt"
    script.write_text("help\nsecret card 7\n", "utf-8")
    out = practice(tmp_path, capsys, "--lang", "en", "--seed", "7", "--script", str(script))
    assert "Shuffle" not in out and "I shuffled the 21 item cards" in out
    assert out.count("You draw the ") == 2  # at each of the player's turns
    assert "You draw the flower (pink, 5)." in out
    assert "card 1, card 2, up to card 7" in out  # the help teaches the place form
