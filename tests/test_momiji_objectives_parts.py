"""Momiji's set-up objectives named in parts: a list short of the tokens revealed is kept
and read back ("Objectives so far: …. 3 more tokens."), the next part adds to it, the last
reveals them. Typed, keyed or spoken; what the rules refuse changes nothing."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.games.momiji.actions import Objectives
from companion.games.momiji.data import LEAVES, TYPES_IN_PLAY, Objective, tokens_for
from companion.games.momiji.rules import Phase
from companion.games.momiji.voice import build_grammar, context_for, read
from companion.games.registry import load_game
from companion.inputs.voice import handle_recognition
from companion.narrate.catalogue import Catalogue
from companion.narrate.message import Message
from companion.session import Session
from companion.voice.sphinx import Recognition
from stickers.colours import Colour

EN = Catalogue("en")
WHOLE = "objectives cool acorns torii zero placed"  # three players reveal five
COLOURS_CHOSEN = 1  # the steps before the objectives (fewer than four players)


def at_objectives(lang: str = "en", players: int = 3) -> Session:
    session = Session(load_game("momiji"), {"players": ["Ana", "Ben", "Cy", "Dee"][:players],
                                            "lang": lang})
    session.start()
    # Three players leave red out (the tests name it as out of play); others keep the first.
    if session.state.phase is Phase.COLOURS:  # four players use every type
        kept = [c for c in LEAVES if c is not Colour.RED][:TYPES_IN_PLAY[players]]
        session.handle("colours " + " ".join(c.value for c in kept))
    assert session.state.phase is Phase.OBJECTIVES
    return session


def said(messages: list[Message]) -> list[str]:
    return [EN.render(m) for m in messages]


def test_a_list_typed_in_parts_is_read_back_then_revealed() -> None:
    session = at_objectives()
    assert said(session.handle("objectives cool acorns")) == [
        "Objectives so far: green-brown-purple leaves and acorns. 3 more tokens."]
    assert session.step == COLOURS_CHOSEN and session.state.phase is Phase.OBJECTIVES
    # The next part needs no verb; a name said again is not counted twice.
    assert said(session.handle("acorns torii")) == [
        "Objectives so far: green-brown-purple leaves, acorns and torii. 2 more tokens."]
    session.handle("zero placed")
    assert session.state.phase is Phase.GARDEN and session.pending is None
    assert session.log[-1][0] == Objectives((Objective.COOL, Objective.ACORNS, Objective.TORII,
                                             Objective.ZERO, Objective.PLACED))


def test_a_whole_list_said_again_replaces_the_part() -> None:
    session = at_objectives()
    session.handle("objectives green acorns")
    session.handle(WHOLE)
    assert session.log[-1][0].text() == WHOLE


def test_what_the_rules_refuse_changes_nothing() -> None:
    session = at_objectives()  # red is out of play
    messages = session.handle("objectives red acorns")
    assert messages[0].event == "error" and session.pending is None
    session.handle("objectives cool acorns")
    for line, key in (("red", "momiji.objective_out"),
                      ("torii zero placed green", "momiji.objective_count")):
        messages = session.handle(line)
        assert messages[0].event == "error" and messages[0].data["code"] == key, line
        assert session.pending == Objectives((Objective.COOL, Objective.ACORNS))  # kept
        assert "Objectives so far" in said(messages)[-1]  # and read back again
    assert session.step == COLOURS_CHOSEN
    session.handle("cancel")
    assert session.pending is None and session.state.phase is Phase.OBJECTIVES


def test_the_so_far_prompt_is_said_in_each_language() -> None:
    for lang in ("fr", "es", "uk"):
        session = at_objectives(lang)
        line = Catalogue(lang).render(session.handle("objectives cool acorns")[0])
        assert "3" in line and "{" not in line and "\n" not in line, (lang, line)


@settings(max_examples=60, deadline=None)
@given(st.data())
def test_any_split_reveals_what_the_whole_list_reveals(data: st.DataObject) -> None:
    """However a valid list is cut into parts (in any order), the last part reveals exactly
    the list typed whole, and no part before it is a step."""
    players = data.draw(st.integers(2, 4))
    session = at_objectives(players=players)
    start = session.step
    allowed = [o for o in Objective if o.leaf is None or o.leaf in session.state.colours]
    chosen = data.draw(st.permutations(allowed))[:tokens_for(players)]
    cuts = sorted(data.draw(st.sets(st.integers(1, len(chosen) - 1), max_size=3)))
    parts = [chosen[a:b] for a, b in zip([0, *cuts], [*cuts, len(chosen)], strict=True)]
    for index, part in enumerate(parts):
        # By number, as keyed: "green brown violet" by name is one token, the cool one.
        session.handle("objectives " + " ".join(str(o.number) for o in part))
        assert session.step == start + (index == len(parts) - 1)
    assert session.log[-1][0] == Objectives(tuple(chosen))


def test_voice_hears_the_next_part_as_the_whole_list() -> None:
    session = at_objectives()
    ctx = context_for(session)
    assert read("objectives cool acorns", ctx) == "objectives cool acorns"  # a part
    assert read("objectives red acorns", ctx) is None  # out of play: refused, not kept
    handle_recognition(session, Recognition("objectives cool acorns", 0.9, "cool acorns"))
    ctx = context_for(session)
    assert ctx.so_far == (Objective.COOL, Objective.ACORNS)
    # Only the names not said yet are listened for: one said was the likeliest rival of
    # the next ("orange piles" heard for "acorns, piles").
    assert Objective.COOL not in ctx.objectives and Objective.TORII in ctx.objectives
    assert read("torii zero placed", ctx) == WHOLE
    assert read("torii zero placed green", ctx) is None  # six: more than three players reveal
    # The whole list is a list of five: asked about, and revealed on "yes".
    messages = handle_recognition(session, Recognition(WHOLE, 0.5, "torii zero placed"))
    assert messages[0].event == "confirm" and session.step == COLOURS_CHOSEN
    handle_recognition(session, Recognition("yes", 0.9, "yes"))
    assert session.state.phase is Phase.GARDEN


def test_a_part_of_three_is_kept_without_a_question() -> None:
    """A list of three or more is asked about before it is applied; a part of one changes
    nothing in the game, so it is kept at once and read back (as a begun gift is)."""
    session = at_objectives()
    three = "objectives cool acorns torii"
    messages = handle_recognition(session, Recognition(three, 0.5, three))
    assert said(messages) == ["Objectives so far: green-brown-purple leaves, acorns and torii. "
                              "2 more tokens."]
    assert session.proposed is None and session.step == COLOURS_CHOSEN


@pytest.mark.skipif(shutil.which("espeak-ng") is None, reason="espeak-ng is not installed")
def test_whisper_hears_objectives_in_two_parts(tmp_path: Path) -> None:
    from companion.games.momiji.voice import MomijiRecognizer
    from companion.voice.audio import read_wav
    from companion.voice.whisper import WhisperRecognizer
    from companion.voice.whisper_model import ModelMissing

    try:
        recognizer = MomijiRecognizer(WhisperRecognizer())
    except ModelMissing as missing:
        pytest.skip(f"no Whisper model: {missing}")
    try:
        session = at_objectives()
        for n, text in enumerate(("objectives cool and acorns", "cancel",
                                  "objectives cool and acorns",
                                  "torii, zero cards and placed")):
            wav = tmp_path / f"{n}.wav"
            subprocess.run(["espeak-ng", "-v", "en-us", "-s", "150", "-w", str(wav), text],
                           check=True)
            heard = recognizer.recognize(read_wav(wav), context_for(session))
            handle_recognition(session, heard)
            if text == "cancel":
                assert session.pending is None, heard
        assert session.proposed is not None and session.proposed.text() == WHOLE
    finally:
        recognizer.recognizer.close()


def test_the_grammar_takes_a_part_or_the_whole_list() -> None:
    grammar = build_grammar(context_for(at_objectives()))
    assert "[objectives] <objective> [[and] <objective>" in grammar


@pytest.mark.parametrize(("lang", "first", "rest"), [
    ("fr", "objectifs froides et glands", "torii, zéro et posées"),
    ("es", "objetivos frías y bellotas", "torii, cero y colocadas"),
    ("uk", "цілі холодні і жолуді", "торії, нульові і викладені"),
])
def test_a_part_is_read_in_each_language(lang: str, first: str, rest: str) -> None:
    session = at_objectives(lang)
    assert read(first, context_for(session)) == "objectives cool acorns"
    session.handle(first)
    assert read(rest, context_for(session)) == WHOLE


def test_a_part_misheard_is_dropped_by_voice() -> None:
    """A part heard wrong is read back; the player says "cancel" (or "no") and names the
    list again, without touching the keys."""
    from companion.games.momiji.voice import phrase_list, settled

    session = at_objectives()
    assert read("cancel", context_for(session)) is None  # nothing to drop yet
    handle_recognition(session, Recognition("objectives cool acorns", 0.9, "cool acorns"))
    ctx = context_for(session)
    assert "cancel" in build_grammar(ctx) and "non" in phrase_list(ctx, "fr")
    assert read("cancel", ctx) == read("no", ctx) == "cancel"
    assert settled("cancel") is not None and settled("cancel") >= 0.8  # not asked about
    messages = handle_recognition(session, Recognition("cancel", settled("cancel"), "no"))
    assert session.pending is None and session.step == COLOURS_CHOSEN
    assert said(messages)[-1].startswith("Which 5 objective tokens are revealed?")


def test_scanned_typed_and_spoken_objectives_make_one_list() -> None:
    """A token the reader cannot read is said or typed instead: whatever the order, the
    names join the scanned ones in one list, read back whole (not two lists)."""
    from companion.inputs.devices import handle_line

    def line(text: str) -> list[str]:
        return said(handle_line(session, text, None))

    session = at_objectives()
    assert line("cool acorns") == [  # typed (as play reads the keyboard)
        "Objectives so far: green-brown-purple leaves and acorns. 3 more tokens."]
    assert line("TC1:MJ:OBJECTIVE:TORII:1") == [  # then a token scanned
        "Objectives so far: green-brown-purple leaves, acorns and torii. 2 more tokens."]
    assert line("-") == [  # keypad minus: the last scan taken back, not the colours
        "Taken back: torii.",
        "Objectives so far: green-brown-purple leaves and acorns. 3 more tokens."]
    # Said next: the voice context listens after the three names so far.
    assert context_for(session).so_far == (Objective.COOL, Objective.ACORNS)
    heard = "objectives cool acorns zero"
    assert said(handle_recognition(session, Recognition(heard, 0.9, "zero"))) == [
        "Objectives so far: green-brown-purple leaves, acorns and zero cards. 2 more tokens."]
    assert line("torii") == [  # typed again: one list still
        "Objectives so far: green-brown-purple leaves, acorns, zero cards and torii. "
        "1 more token."]
    line("TC1:MJ:OBJECTIVE:PLACED:1")
    assert session.log[-1][0].text() == WHOLE and session.pending is None


@settings(max_examples=80, deadline=None)
@given(st.data())
def test_every_objective_list_reads_back_from_its_canonical_text(data: st.DataObject) -> None:
    """A whole list's canonical text means that list, read as a step (parse) or typed
    (interpret), even with green, brown and violet among the leaf objectives."""
    players = data.draw(st.integers(2, 4))
    session = at_objectives(players=players)
    allowed = [o for o in Objective if o.leaf is None or o.leaf in session.state.colours]
    chosen = Objectives(tuple(data.draw(st.permutations(allowed))[:tokens_for(players)]))
    assert session.game.parse(chosen.text()) == chosen
    assert session.interpret(chosen.text()) == chosen


def test_the_colours_of_a_group_token_are_one_reading_or_a_question() -> None:
    four = at_objectives(players=4)
    # Both readings fit a list begun: asked, nothing kept.
    messages = four.handle("green brown violet")
    assert messages[0].key == "error.momiji.group_or_leaves" and four.pending is None
    assert said(messages)[0].startswith(
        "That can be read as green-brown-purple leaves or green leaves, brown leaves and "
        "purple leaves. Which one?")
    # "and" between them: three leaf objectives; the group's word: its one token.
    assert four.interpret("green and brown and violet") == Objectives(
        (Objective.GREEN, Objective.BROWN, Objective.VIOLET))
    assert four.interpret("cool") == Objectives((Objective.COOL,))
    # Only one reading the rules can take: that one, without a question. Three players
    # play without red here, so the warm token's colours can only be the warm token.
    three = at_objectives(players=3)
    assert three.interpret("yellow orange red acorns") == Objectives(
        (Objective.WARM, Objective.ACORNS))
    # Six names, the whole list for four players: the leaves, not the group.
    assert four.interpret("green brown violet yellow orange red") == Objectives(
        tuple(Objective(c.value) for c in LEAVES))


@pytest.mark.parametrize("line", ["zero", "ZERO", "0"])
def test_zero_alone_names_the_zero_objective_not_cancel(line: str) -> None:
    # Momiji reads "zero" itself (Game.own_words): a card value and an objective, while it
    # is the shared word for cancel in other games. Read as cancel, the part was dropped.
    session = at_objectives()
    session.handle("objectives cool acorns torii")
    assert said(session.handle(line)) == [
        "Objectives so far: green-brown-purple leaves, acorns, torii and zero cards. 1 more token."]
    session.handle("placed")
    assert session.log[-1][0] == Objectives((Objective.COOL, Objective.ACORNS, Objective.TORII,
                                             Objective.ZERO, Objective.PLACED))


def test_cancel_still_drops_a_part() -> None:
    session = at_objectives()
    session.handle("objectives cool acorns")
    session.handle("cancel")
    assert session.pending is None and session.step == COLOURS_CHOSEN
