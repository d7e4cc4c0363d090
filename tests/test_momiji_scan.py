"""Momiji scans in play: what a scanned leaf or objective token means at each moment,
the keys that act on scanned cards, and refusals that change nothing."""

from __future__ import annotations

import pytest

from companion.cards.payload import CardRef
from companion.cards.registry import CardRegistry
from companion.games.momiji.cards import leaf_ref
from companion.games.momiji.keys import DEVICES
from companion.games.momiji.keys import handle_line as momiji_line
from companion.games.momiji.scan import handle_scan
from companion.games.registry import load_game
from companion.inputs.devices import device_event, handle_device_event, handle_line
from companion.narrate.catalogue import Catalogue
from companion.narrate.message import Message
from companion.session import Session
from hardware.events import ReaderEvent

EN = Catalogue("en")
SETUP = ["without red", "cool acorns torii zero placed", "green 0 brown 0 violet 0 yellow 1",
         "8"]


def leaf(colour_value: str) -> str:
    return f"TC1:MJ:LEAF:{colour_value.upper().replace(' ', ':')}"


def new_session(setup: list[str] = SETUP, lang: str = "en") -> Session:
    session = Session(load_game("momiji"), {"players": ["Ana", "Ben", "Cy"], "lang": lang})
    for line in setup:
        session.handle(line)
    return session


def said(messages: list[Message], catalogue: Catalogue = EN) -> list[str]:
    return [catalogue.render(m) for m in messages if m.private_to is None]


def scan(session: Session, *values: str, registry: CardRegistry | None = None
         ) -> list[Message]:
    out: list[Message] = []
    for value in values:
        out = handle_line(session, value, registry)
    return out


def key(session: Session, *keys: str) -> list[Message]:
    out: list[Message] = []
    for k in keys:
        out = handle_device_event(session, ReaderEvent("keypad", "k", "key", k), None)
    return out


def unchanged(session: Session, steps: int) -> bool:
    return len(session.log) == steps


# --- dispatch -------------------------------------------------------------------------------


def test_dispatch_chooses_the_game_module():
    assert all(load_game(g).devices() is not None for g in ("momiji", "hanamikoji"))
    hk = Session(load_game("hanamikoji"), {"players": ["Ana", "Ben"], "lang": "en"})
    out = handle_line(hk, "TC1:HK:TOKEN:GIFT:1", None)
    assert hk.pending is not None and "Gift" in said(out)[0]
    mj = new_session()
    assert said(handle_line(mj, leaf("green 0"), None))[0].startswith("Play so far: green 0")


# --- a play -----------------------------------------------------------------------------------


def test_scanned_leaves_are_read_back_then_played_with_enter():
    session = new_session()
    out = scan(session, leaf("green 0"))
    assert said(out) == ["Play so far: green 0. Scan more leaves, or press Enter to play them."]
    assert out[0].data == {"purpose": "play", "cards": ["green 0"], "missing": 0}
    out = scan(session, leaf("brown 0"))
    assert said(out)[0].startswith("Play so far: green 0 and brown 0.")
    assert session.log[-1][0].text() == "pile 8"  # nothing applied yet
    out = key(session, "ENTER")
    assert session.log[-1][0].text() == "play green 0 brown 0"
    assert said(out)[0] == "Ana plays green 0 and brown 0."
    assert "Harvest bonus" in said(out)[-1]
    assert session.pending is None


def test_minus_takes_back_the_last_scan_and_cancel_drops_them_all():
    session = new_session()
    scan(session, leaf("green 0"), leaf("brown 0"))
    out = key(session, "-")
    assert said(out) == ["Taken back: brown 0.",
                         "Play so far: green 0. Scan more leaves, or press Enter to play them."]
    out = key(session, "-")  # the last one: nothing is waiting any more
    assert said(out)[:2] == ["Taken back: green 0.", "No card scanned now."]
    assert session.pending is None
    out = key(session, "-")  # now minus is the ordinary undo again
    assert said(out)[0].startswith("Undone: a draw pile of 8 cards")
    session.handle("8")
    scan(session, leaf("green 0"), leaf("yellow 0"))
    out = handle_line(session, "cancel", None)
    assert said(out)[0] == "Scanned cards set aside, not applied: green 0 and yellow 0."
    assert session.pending is None and len(session.log) == 4


def test_star_repeats_and_end_is_refused_while_leaves_wait():
    session = new_session()
    scan(session, leaf("green 0"))
    assert said(key(session, "*")) == [
        "Play so far: green 0. Scan more leaves, or press Enter to play them."]
    out = key(session, "9", "ENTER")
    assert out[0].key == "momiji.scan.finish_first"
    assert len(session.log) == 4 and session.pending is not None
    assert said(handle_line(session, "board", None))[0].startswith("Garden:")  # questions pass
    assert session.pending is not None


def test_a_typed_action_sets_the_scanned_leaves_aside_and_says_so():
    session = new_session()
    scan(session, leaf("yellow 0"))
    out = handle_line(session, "collect green", None)
    assert said(out)[:2] == ["Scanned cards set aside, not applied: yellow 0.",
                             "Ana collects the green column: green 0. 7 cards in hand."]
    assert session.pending is None


def test_an_undo_said_elsewhere_drops_the_scans_first():
    """The scanned cards are the session's pending action: an undo that reaches the
    session (said, or typed on a seat's page) drops them, as it drops any half-entered
    action, and takes nothing else back; the next undo takes back the last step."""
    session = new_session()
    scan(session, leaf("green 0"))
    steps = session.step
    assert [m.key for m in session.handle("undo")][0] == "cancelled"
    assert session.pending is None and session.step == steps
    assert handle_line(session, "", None)[0].key == "momiji.prompt.main"
    session.handle("undo")
    assert session.step == steps - 1
    assert handle_line(session, "", None)[0].key == "momiji.prompt.pile"


@pytest.mark.parametrize(
    ("scans", "key_"),
    [
        (["green 0", "green 0", "brown 0"], "error.momiji.play_mix"),  # 3 cards, 2 of a type
        (["red 0"], "error.momiji.colour_out"),  # red is out of this 3-player game
    ],
)
def test_a_scan_no_later_scan_could_mend_is_refused_at_once(scans: list[str], key_: str):
    session = new_session()
    out = scan(session, *[leaf(s) for s in scans])
    assert out[0].key == key_
    kept = session.pending
    assert len(kept.items if kept else []) == len(scans) - 1  # the refused one is not added
    assert len(session.log) == 4


def test_pile_order_is_judged_at_enter_so_scan_order_does_not_matter():
    session = new_session(SETUP + ["collect green", "end", "end", "end"])  # Ana: a green 0 in hand
    scan(session, leaf("green 1"))  # alone it could not start a pile; green 0 comes next
    scan(session, leaf("green 0"))
    key(session, "ENTER")
    assert session.log[-1][0].text() == "play green 0 green 1"


def test_a_refused_play_is_explained_and_scanned_again():
    session = new_session()
    scan(session, leaf("green 2"))
    out = key(session, "ENTER")
    assert said(out)[:2] == [
        "A pile starts with a 0, so green 2 cannot start one.",
        "Nothing was applied: scan the cards again. Scanned: green 2."]
    assert out[-1].event == "prompt"
    assert len(session.log) == 4 and session.pending is None


def test_main_action_done_refuses_a_scan_at_once():
    session = new_session(SETUP + ["collect green"])
    out = scan(session, leaf("green 0"))
    assert out[0].key == "error.momiji.main_done"


def test_after_a_landscape_leaves_are_placed():
    session = new_session(SETUP + ["collect green", "landscape 1"])
    out = scan(session, leaf("green 0"))
    assert said(out)[0].startswith("To place with the landscape: green 0.")
    key(session, "ENTER")
    assert session.log[-1][0].text() == "place green 0"


# --- set-up and reveal ------------------------------------------------------------------------


def test_the_garden_is_scanned_and_laid_at_the_fourth_card():
    session = new_session(SETUP[:2])
    out = scan(session, leaf("yellow 1"))
    assert said(out) == ["Garden so far: yellow 1. 3 more cards."]
    assert said(key(session, "ENTER")) == ["Garden so far: yellow 1. 3 more cards."]  # 4 needed
    out = scan(session, leaf("green 0"), leaf("brown 0"), leaf("violet 0"))
    assert session.log[-1][0].text() == "garden green 0 brown 0 violet 0 yellow 1"
    assert said(out)[0].startswith("Garden laid out.")


def test_objective_tokens_are_scanned_at_set_up_and_activate_during_a_turn():
    session = new_session(SETUP[:1])
    out = scan(session, "TC1:MJ:OBJECTIVE:TALLEST:1", "TC1:MJ:OBJECTIVE:TALLEST:1")
    assert out[0].key == "error.momiji.objective_twice"
    out = scan(session, "TC1:MJ:OBJECTIVE:RED:1")  # red leaves are out of this game
    assert out[0].key == "error.momiji.objective_out"
    assert scan(session, leaf("green 0"))[0].key == "momiji.scan.objective_expected"
    for name in ("ACORNS", "ZERO", "HAND", "SUM"):
        out = scan(session, f"TC1:MJ:OBJECTIVE:{name}:1")
    assert session.log[-1][0].text() == "objectives acorns zero hand sum tallest"
    session.handle("green 0 brown 0 violet 0 yellow 1")
    session.handle("8")
    out = scan(session, "TC1:MJ:OBJECTIVE:SUM:1")
    assert session.log[-1][0].text() == "objective sum"
    scan(session, leaf("green 0"))  # main done: refused, nothing waits
    session.handle("end")
    scan(session, leaf("green 0"))
    assert scan(session, "TC1:MJ:OBJECTIVE:HAND:1")[0].key == "momiji.scan.finish_first"


def test_reveal_alone_then_four_scans_reveal():
    session = new_session()
    out = key(session, "7", "ENTER")
    assert said(out) == ["Ana reveals: scan the 4 new cards."]
    scan(session, leaf("green 1"), leaf("orange 0"), leaf("green 2"))
    assert len(session.log) == 4
    out = scan(session, leaf("violet 1"))
    assert session.log[-1][0].text() == "reveal green 1 green 2 violet 1 orange 0"
    assert said(out)[0] == ("Ana pays an acorn, 3 left, and reveals green 1, green 2, purple 1 "
                            "and orange 0.")


def test_an_uncounted_pile_may_run_out_mid_reveal():
    session = new_session(SETUP[:3] + ["unknown"])
    out = handle_line(session, "reveal", None)
    assert said(out)[0].endswith("if the pile runs out first, press Enter.")
    scan(session, leaf("green 1"))
    out = handle_line(session, "", None)
    assert session.log[-1][0].text() == "reveal green 1"
    assert session.state.pile == 0


def test_reveal_refused_when_not_possible():
    session = new_session(SETUP + ["collect green"])
    out = handle_line(session, "reveal", None)
    assert out[0].key == "error.momiji.reveal_first"
    assert session.pending is None


# --- refusals that change nothing -------------------------------------------------------------


@pytest.mark.parametrize(
    ("value", "key_"),
    [
        ("TC1:MJ:LEAF:GREEN:4", "cards.bad_label"),
        ("TC1:XX:LEAF:GREEN:1", "cards.bad_label"),
        ("TC1:HK:ITEM:FAN:1", "cards.other_game"),
        ("04A31F", "momiji.scan.unknown_tag"),
    ],
)
def test_unknown_and_other_game_labels_are_refused_with_a_reason(value: str, key_: str):
    session = new_session()
    scan(session, leaf("green 0"))
    out = handle_scan(session, value, None)
    assert [m.key for m in out] == [key_]
    assert len(session.log) == 4
    assert session.pending.items  # the waiting play is untouched
    assert EN.render(out[0])


def test_enrolled_tags_name_momiji_leaves(tmp_path):
    registry = CardRegistry(tmp_path / "cards.json")
    registry.add("04A31F", leaf_ref("green", 0))
    registry.save()
    registry = CardRegistry.load(tmp_path / "cards.json")
    assert registry.lookup("04 a3 1f") == CardRef("momiji", "leaf", "green", 1, 0)
    session = new_session()
    assert said(scan(session, "04a31f", registry=registry))[0].startswith("Play so far: green 0")


def test_leaves_before_set_up_asks_for_them_are_refused():
    session = new_session([])
    out = scan(session, leaf("green 0"))
    assert [m.key for m in out] == ["momiji.scan.not_now", "momiji.prompt.colours"]
    session = new_session(SETUP[:3])  # the pile count is a number, not a card
    assert scan(session, leaf("green 0"))[0].key == "momiji.scan.not_now"
    assert len(session.log) == 3


def test_zero_is_a_digit_on_the_momiji_keypad():
    session = new_session(SETUP[:3])
    key(session, "0", "ENTER")  # 0: "pile unknown", not cancel
    assert session.log[-1][0].text() == "pile unknown"
    key(session, "2", "1", "0", "2", "0", "ENTER")  # play green 0 brown 0
    assert session.log[-1][0].text() == "play green 0 brown 0"


def test_device_events_and_a_bug_never_raise():
    session = new_session()
    for kind, k in [("connected", "cards.reader_connected"),
                    ("disconnected", "cards.reader_disconnected"),
                    ("error", "cards.reader_unavailable")]:
        out = device_event(DEVICES, session, ReaderEvent("reader 1", "loop://", kind), None)
        assert out[0].key == k
        # a problem is followed by the prompt, which stays the last thing heard
        assert [m.event for m in out[1:]] == ([] if kind == "connected" else ["prompt"])

    class Broken:
        names = ["Ana", "Ben"]

    assert [m.key for m in momiji_line(Broken(), "x", None)] == ["cards.input_failed"]
    out = device_event(DEVICES, Broken(), ReaderEvent("keypad", "k", "key", "ENTER"), None)
    assert [m.key for m in out] == ["cards.input_failed"]


@pytest.mark.parametrize("lang", ["fr", "es", "uk"])
def test_read_backs_in_every_language(lang: str):
    catalogue = Catalogue(lang)
    session = new_session(lang=lang)
    out = scan(session, leaf("green 0"), leaf("brown 0"))
    text = said(out, catalogue)[0]
    assert "{" not in text and "momiji." not in text
    out = handle_line(session, "-", None)
    assert all("{" not in t and "momiji." not in t for t in said(out, catalogue))
