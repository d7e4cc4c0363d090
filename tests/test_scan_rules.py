"""What a scan means in context: copies, privacy, refusals, keypad lines (no threads)."""

from __future__ import annotations

import io

import pytest

from companion.cards.payload import CardRef, format_payload
from companion.cards.registry import CardRegistry
from companion.games.hanamikoji.scan import handle_scan
from companion.games.registry import load_game
from companion.inputs.devices import handle_device_event, handle_line
from companion.narrate.catalogue import Catalogue
from companion.narrate.message import Message
from companion.output import Output
from companion.session import Session
from hardware.events import ReaderEvent

EN = Catalogue("en")


def label(kind: str, name: str, copy: int) -> str:
    return format_payload(CardRef("hanamikoji", kind, name, copy))


def item(name: str, copy: int = 1) -> str:
    return label("item", name, copy)


def token(name: str, copy: int = 1) -> str:
    return label("token", name, copy)


def public(messages: list[Message]) -> str:
    return " ".join(EN.render(m) for m in messages if m.private_to is None)


def private(messages: list[Message]) -> str:
    return " ".join(EN.render(m) for m in messages if m.private_to is not None)


def errors(messages: list[Message]) -> list[str]:
    return [m.key for m in messages if m.event == "error"]


@pytest.fixture
def session() -> Session:
    return Session(load_game("hanamikoji"), {"players": ["Ana", "Ben"], "lang": "en"})


def scan_all(session: Session, *values: str, registry: CardRegistry | None = None
             ) -> list[Message]:
    out: list[Message] = []
    for value in values:
        out += handle_scan(session, value, registry)
    return out


def gift_taken(session: Session) -> None:
    """Ana's gift of flower 1, flower 2, tea 1; Ben takes the tea (copy 1)."""
    said = scan_all(session, token("gift"), item("flower", 1), item("flower", 2),
                    item("tea", 1), item("tea", 1))
    assert not errors(said), said
    assert session.log[-1][0].text() == "take tea"


def test_same_copy_twice_in_a_round_is_refused_with_where_it_is(session):
    gift_taken(session)
    state, log = session.state, session.log
    said = scan_all(session, token("competition", 2), item("tea", 1))
    assert errors(said) == ["cards.copy_on_side"]
    assert public(said[-1:]) == (
        "This tea set (green, 4) is already on the table, in front of Anju, on Ben's side.")
    assert session.log == log and session.pending is not None  # the competition goes on
    said = scan_all(session, item("flower", 2))
    assert "in front of Ruri, on Ana's side" in public(said)
    assert session.state == state and session.pending.cards == ()
    said = scan_all(session, item("tea", 2), item("tea", 2))
    assert errors(said) == ["cards.copy_in_choice"]
    assert "already scanned for this Competition (4)" in public(said)


def test_a_copy_on_offer_is_taken_not_refused_and_another_copy_is(session):
    scan_all(session, token("gift"), item("flower", 1), item("flower", 2), item("tea", 1))
    said = scan_all(session, item("tea", 2))
    assert errors(said) == ["cards.copy_not_offered"]
    said = scan_all(session, item("flower", 2))
    assert not errors(said) and session.log[-1][0].text() == "take flower"
    # Ben took flower copy 2; copy 1 stayed with Ana.
    said = scan_all(session, token("gift", 2), item("flower", 2))
    assert "on Ben's side" in public(said)
    said = scan_all(session, item("flower", 1))
    assert "on Ana's side" in public(said)


def test_copies_are_free_again_next_round_and_after_undo(session):
    gift_taken(session)
    assert session.handle("undo")[0].key == "undone"  # Ben's take is undone
    said = scan_all(session, item("flower", 1))  # back on offer: Ben may take it
    assert not errors(said) and session.log[-1][0].text() == "take flower"
    session.handle("undo")
    session.handle("undo")  # the gift itself: its copies are no longer on the table
    said = scan_all(session, token("gift"), item("tea", 1), item("flower", 1), item("flower", 2))
    assert not errors(said) and session.log[-1][0].text() == "gift tea flower flower"
    for line in ["take tea", "secret", "competition fan fan / flute flute", "take 1",
                 "discard", "secret", "gift scroll scroll umbrella", "take scroll",
                 "discard", "competition umbrella umbrella / shamisen shamisen", "take 1",
                 "reveal tea", "reveal tea"]:
        assert not errors(session.handle(line)), line
    assert session.state.round == 2
    said = scan_all(session, token("gift", 2), item("tea", 1), item("flower", 1),
                    item("flower", 2))
    assert not errors(said), public(said)


def test_unknown_tag_and_bad_label_change_nothing(session, tmp_path):
    registry = CardRegistry(tmp_path / "cards.json")
    scan_all(session, token("gift"), item("fan"))
    before = (session.state, session.log, session.pending)
    said = handle_scan(session, "0A0B0C0D0E", registry)
    assert [m.key for m in said] == ["cards.unknown_tag"]
    from companion.launcher import command

    # the command that works in this shell (`companion` once the set-up put it on the PATH)
    assert EN.render(said[0]) == f"Unknown card: enrol it with {command()} cards enroll."
    said = handle_scan(session, "TC1:HK:ITEM:FAN:7", None)
    assert errors(said) == ["cards.bad_label"] and "copy 1 to 2" in public(said)
    assert (session.state, session.log, session.pending) == before


def test_enrolled_tag_is_understood(session, tmp_path):
    registry = CardRegistry(tmp_path / "cards.json")
    registry.add("0a 0b 0c 0d 0e", CardRef("hanamikoji", "token", "gift", 1))
    said = handle_scan(session, "0A0B0C0D0E", registry)
    assert session.pending is not None and "Gift" in public(said)


def test_secret_scan_is_private_and_refusals_about_it_too(session):
    gift_taken(session)
    said = scan_all(session, token("secret", 2))
    assert "Ben plays Secret: scan the card" in public(said)
    said = scan_all(session, item("tea", 1))  # already face up: said only to Ben
    assert "tea" not in public(said).lower() and "Not accepted, Ben" in public(said)
    assert "on Ben's side" in private(said)
    assert len(session.log) == 2
    said = scan_all(session, item("scroll", 2))
    assert session.log[-1][0].text() == "secret scroll"
    assert "scroll" not in public(said).lower() and "scroll" in private(said).lower()
    assert all(m.private_to == 1 for m in said if m.private_to is not None)


def test_discard_cards_read_back_privately_and_counted_publicly(session):
    said = scan_all(session, token("discard"))
    assert public(said).startswith("Ana plays Discard: scan the two cards")
    said = scan_all(session, item("fan", 1))
    assert public(said) == ""  # the Output alone knows whether Ana has an earbud
    # Without one (no speaker here), the table hears that a card was read, never which.
    printed = io.StringIO()
    Output(EN, stream=printed).emit(said)
    assert printed.getvalue() == "Card 1 of 2 read.\n"
    assert private(said) == "Your Discard so far: fan (red, 2). One more card."
    said = scan_all(session, item("fan", 1))
    assert "already scanned" in private(said) and "fan" not in public(said)
    said = scan_all(session, item("fan", 2))
    assert session.log[-1][0].text() == "discard fan fan"
    assert "fan" not in public(said)


def test_another_players_told_cards_never_decide_a_private_scan(session):
    """Ana told her Discard as both fans; Ben's Secret scanned as a fan is his to name:
    checked against what the table has seen and what he told, never what Ana told (a
    refusal would tell Ben her Discard). Nothing of it reaches the table."""
    session.handle("discard fan fan")
    said = scan_all(session, token("secret", 2), item("fan", 1))
    assert "fan" not in public(said) and "Your Secret: fan" in private(said)
    assert "copies" not in private(said) and session.log[-1][0].text() == "secret fan"


def test_keypad_digits_and_enter_during_a_scanned_secret(session):
    scan_all(session, token("secret"))
    said = handle_line(session, "7", None)
    assert session.log[-1][0].text() == "secret flower" and "flower" not in public(said)
    scan_all(session, token("discard", 2))
    said = handle_line(session, "", None)  # Enter alone: kept unnamed
    assert session.log[-1][0].text() == "discard"


def test_competition_answer_by_scans_and_ambiguity(session):
    session.handle("competition fan tea / tea flower")  # typed: copies unknown
    said = scan_all(session, item("tea", 3))
    assert [m.key for m in said] == ["cards.which_pair"]
    said = scan_all(session, item("flower", 1))
    assert session.log[-1][0].text() == "take 2"


def test_other_players_token_is_refused_once_known(session):
    gift_taken(session)  # Ana used set 1
    said = scan_all(session, token("secret", 1))
    assert public(said) == "That is Ana's Secret (1) token."
    assert session.log[-1][0].text() == "take tea"


def test_item_before_token_and_geisha_card(session):
    said = scan_all(session, item("fan"))
    assert errors(said) == ["cards.token_first"]
    gift_taken(session)
    said = scan_all(session, label("geisha", "anju", 1))
    assert public(said) == "Anju, tea set (green, 4): Ana 0, Ben 1, marker in the middle."


def test_scoring_reveal_by_scan_and_face_up_copy_refused(session):
    for line in ["gift tea flower flower", "take tea", "secret", "competition fan fan / flute "
                 "flute", "take 1", "discard", "secret", "gift scroll scroll umbrella",
                 "take scroll", "discard", "competition umbrella umbrella / shamisen shamisen",
                 "take 1"]:
        assert not errors(session.handle(line)), line
    said = scan_all(session, item("tea", 1))
    assert session.log[-1][0].text() == "reveal tea"
    said = scan_all(session, item("tea", 1))
    assert errors(said) == ["cards.copy_on_side"] and "on Ana's side" in public(said)
    said = scan_all(session, item("tea", 2))
    assert any(m.event == "round_scored" for m in said)


def test_keypad_keys_build_lines_and_symbols_act_at_once(session):
    def keys(*values: str) -> list[Message]:
        out: list[Message] = []
        for v in values:
            out += handle_device_event(session, ReaderEvent("keypad", "kbd", "key", v), None)
        return out

    assert keys("3") == []
    said = keys("ENTER")
    assert session.pending is not None and "Gift" in public(said)
    said = keys("0")  # cancel
    assert session.pending is None and said[0].key == "cancelled"
    said = keys("/")
    assert said[0].key == "score"
    said = keys("3", "1", "2", "BACKSPACE", "7", "7", "ENTER")
    assert session.log[-1][0].text() == "gift flute flower flower"
    said = keys("+")
    assert said[0].key == "help_answer"
    said = keys("*")
    assert said[0].event == "repeat"
    keys("-")
    assert session.log == ()
    keys("4", "1", "2", "/", "3", "4", "ENTER")
    assert session.log[-1][0].text() == "competition flute fan / scroll umbrella"
    said = keys("9", "ESCAPE")
    assert said[0].key == "cards.typed_cancelled"


def test_typed_line_can_be_a_wedge_scan(session, tmp_path):
    registry = CardRegistry(tmp_path / "c.json")
    registry.add("5901234123457", CardRef("hanamikoji", "token", "gift", 1))
    said = handle_line(session, "5901234123457", registry)
    assert session.pending is not None and "Gift" in public(said)
    said = handle_line(session, "tc1:hk:item:fan:1", registry)
    assert session.pending.cards and "fan" in public(said)
    handle_line(session, "0", registry)
    assert session.pending is None
