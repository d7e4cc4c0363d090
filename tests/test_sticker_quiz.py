"""The sticker code trainer: scoring by key and by scan (a real reader on a
pseudo-terminal), missed pieces coming back, descriptions read in four languages, every
sentence in four languages."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from companion.cards.feel import Feel, read_feel
from companion.cards.payload import format_payload
from companion.narrate.catalogue import LANGUAGES, Catalogue
from companion.sticker_quiz import Describe, Key, Quiz, Scan, Word, parse, pieces, read

ROOT = Path(__file__).resolve().parents[1]
GAMES = ("hanamikoji", "momiji")


def test_the_pieces_have_distinct_feels_and_keys_within_a_kind() -> None:
    for game in GAMES:
        found = pieces(game)
        assert len({p.feel for p in found}) == len(found), game
        for kind in {p.ref.kind for p in found}:
            keys = [p.key for p in found if p.ref.kind == kind]
            assert len(set(keys)) == len(keys)
    assert len(pieces("hanamikoji")) == 18 and len(pieces("momiji")) == 24


@pytest.mark.parametrize("game", GAMES)
def test_keyed_right_answers_are_all_counted(game: str) -> None:
    quiz = Quiz(pieces(game), seed=4, rounds=6)
    said = quiz.start()
    while not quiz.over:
        said += quiz.handle(Key(quiz.current.key))
    assert quiz.right == quiz.asked == 6 and quiz.missed == []
    assert said[-1].key == "quiz.summary_all" and said[-1].params["right"] == 6


def test_missed_pieces_come_back_and_the_summary_names_them() -> None:
    quiz = Quiz(pieces("hanamikoji"), seed=2, rounds=4)
    quiz.start()
    first = quiz.current
    wrong = next(p for p in quiz.pieces if p.ident != first.ident and p.key != first.key
                 and p.ref.kind == first.ref.kind)
    said = quiz.handle(Key(wrong.key))
    assert said[0].key == "quiz.wrong" and said[0].params["given"] == wrong.name
    skipped = quiz.current
    assert quiz.handle(read("0"))[0].key == "quiz.skipped"
    seen = []
    while not quiz.over:
        seen.append(quiz.current)
        quiz.handle(Key(quiz.current.key))
    assert first in seen and skipped in seen  # both asked again, then answered
    assert quiz.right == quiz.asked - 2
    assert quiz.missed == [first, skipped]
    summary = quiz.finish()[0]
    assert summary.key == "quiz.summary" and summary.params["missed"] == [first.name,
                                                                         skipped.name]


def test_quitting_before_any_answer_counts_nothing() -> None:
    quiz = Quiz(pieces("hanamikoji"), seed=1, rounds=5)
    quiz.start()
    assert [m.key for m in quiz.handle(read("quit"))] == ["quiz.bye"]


def test_a_player_who_keeps_missing_is_not_held_forever() -> None:
    quiz = Quiz(pieces("momiji"), seed=1, rounds=5)
    quiz.start()
    while not quiz.over:
        quiz.handle(Word("skip"))
    assert quiz.asked == 10 and quiz.right == 0


def test_a_scanned_piece_is_an_answer_and_any_copy_will_do() -> None:
    quiz = Quiz(pieces("hanamikoji"), seed=9, rounds=3)
    quiz.start()
    while not quiz.over:
        ref = quiz.current.ref
        other_copy = type(ref)(ref.game, ref.kind, ref.name, 2) if ref.kind != "geisha" else ref
        quiz.handle(Scan(other_copy))
    assert quiz.right == 3


def test_describing_what_is_felt_names_the_piece_unscored() -> None:
    quiz = Quiz(pieces("hanamikoji"), seed=9, rounds=3)
    quiz.start()
    asked = quiz.current
    said = quiz.handle(read("what three dots"))
    assert said[0].key == "quiz.it_is" and [str(m.params) for m in said[0].params["pieces"]] \
        == [str(p.name.params) for p in quiz.pieces if p.feel == Feel(None, 3)]
    assert quiz.current is asked and quiz.asked == 0  # the question waits
    said = quiz.handle(read("what a heart"))  # the fan card; Iroha has two dots as well
    assert said[0].key == "quiz.it_is"
    assert quiz.handle(read("what a thick cross"))[0].key == "quiz.nothing_feels"


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_feel_said_in_a_language_reads_back(game: str, lang: str) -> None:
    catalogue = Catalogue(lang)
    for piece in pieces(game):
        text = catalogue.value(piece.feel)
        assert read_feel(text) == piece.feel, (lang, text)


@pytest.mark.parametrize(("text", "feel"), [
    ("three dots", Feel(None, 3)),
    ("trois points", Feel(None, 3)),
    ("tres puntos", Feel(None, 3)),
    ("три крапки", Feel(None, 3)),
    ("a heart and two dots", Feel(stickers_colour := __import__("stickers").Colour.RED, 2)),
    ("un cœur et deux points", Feel(stickers_colour, 2)),
    ("corazón y dos puntos", Feel(stickers_colour, 2)),
    ("серце і дві крапки", Feel(stickers_colour, 2)),
    ("rond pointé", Feel(None, 5)),
    ("коло з крапкою", Feel(None, 5)),
    ("quatre carreaux, un point", Feel(__import__("stickers").Colour.BROWN, 1)),
    ("banana", None),
])
def test_descriptions_in_four_languages(text: str, feel: Feel | None) -> None:
    assert read_feel(text) == feel


@given(st.one_of(st.builds(Key, st.from_regex(r"[0-9]{1,3}", fullmatch=True)),
                 st.sampled_from([Word(w) for w in ("skip", "repeat", "help", "quit")]),
                 st.sampled_from([Describe("three dots"), Describe("a heart")]),
                 st.sampled_from([Scan(p.ref) for p in pieces("hanamikoji")])))
def test_commands_have_a_canonical_text_that_parses_back(command: object) -> None:
    assert parse(command.text()) == command  # type: ignore[attr-defined]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_quiz_sentence_renders_in_each_language(lang: str) -> None:
    catalogue = Catalogue(lang)
    quiz = Quiz(pieces("hanamikoji"), seed=3, rounds=3)
    said = quiz.start() + quiz.handle(read("99")) + quiz.handle(read("banana"), "banana")
    said += quiz.handle(read(".")) + quiz.handle(read("what a drop"))
    said += quiz.handle(read("what a thick cross")) + quiz.handle(read("0"))
    said += quiz.handle(Key(quiz.current.key))
    while not quiz.over:
        said += quiz.handle(read("0"))
    for m in said:
        text = catalogue.render(m)
        assert "{" not in text and "quiz." not in text and "None" not in text, text


def _run_cli(args: list[str], stdin: str) -> str:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run([sys.executable, "-m", "companion", "stickers", "quiz", *args,
                           "--no-speech"], input=stdin, capture_output=True, text=True,
                          env=env, cwd=ROOT, timeout=60)
    assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr
    return done.stdout


def test_cli_keyed_answers_are_scored() -> None:
    quiz = Quiz(pieces("hanamikoji"), seed=7, rounds=3)  # the same seed: the same questions
    quiz.start()
    keys = []
    while not quiz.over:
        keys.append(quiz.current.key)
        quiz.handle(Key(quiz.current.key))
    out = _run_cli(["hanamikoji", "--lang", "en", "--seed", "7", "--rounds", "3"],
                   "\n".join(keys) + "\n")
    assert out.count("Right: ") == 3
    assert out.splitlines()[-1] == "Quiz over: 3 right out of 3. Nothing missed."


@pytest.mark.skipif(not hasattr(os, "openpty"), reason="needs pseudo-terminals")
def test_cli_scans_from_a_reader_on_a_pseudo_terminal_are_scored(tmp_path: Path) -> None:
    from tests.ptys import FakeTty

    quiz = Quiz(pieces("hanamikoji"), seed=11, rounds=3)
    quiz.start()
    labels = []
    while not quiz.over:
        labels.append(format_payload(quiz.current.ref))
        quiz.handle(Scan(quiz.current.ref))
    tty = FakeTty()
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    proc = subprocess.Popen(
        [sys.executable, "-m", "companion", "stickers", "quiz", "hanamikoji", "--lang", "fr",
         "--seed", "11", "--rounds", "3", "--no-speech", "--reader", tty.path,
         "--reader-protocol", "line", "--registry", str(tmp_path / "cards.json")],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        env=env, cwd=ROOT)
    try:
        head = []
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:  # the reader opens the port, then scans count
            head.append(proc.stdout.readline())
            if "connecté" in head[-1] or not head[-1]:
                break
        for label in labels:
            tty.write(label.encode() + b"\r\n")
            time.sleep(0.5)
        out, err = proc.communicate("quitter\n", timeout=30)
        out = "".join(head) + out
    finally:
        tty.close()
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 0 and "Traceback" not in err, err
    assert out.count("Juste : ") == 3, out
    assert "Fin du quiz : 3 justes sur 3. Rien de manqué." in out
