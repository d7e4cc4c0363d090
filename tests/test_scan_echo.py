"""A card read again just after it completed an action is not a move
(companion/inputs/scan_echo.py).

Real pyserial readers on pseudo-terminals (RDM6300 frames and the line protocol), with the
readers' clock injected so that "a few seconds later" costs no sleep.
"""

from __future__ import annotations

import os
from argparse import Namespace

import pytest
from ptys import FakeTty, TableClock

from companion.cards.payload import CardRef
from companion.cards.registry import CardRegistry
from companion.games.hanamikoji.rules import Phase
from companion.games.registry import load_game
from companion.inputs.devices import attach_devices, handle_device_event, handle_line
from companion.inputs.hub import InputHub
from companion.inputs.scan_echo import WINDOW, Origin
from companion.narrate.catalogue import Catalogue
from companion.session import Session
from hardware.events import ReaderEvent
from hardware.frames import rdm6300_frame

pytestmark = pytest.mark.skipif(not hasattr(os, "openpty"), reason="needs pseudo-terminals")

FAST = {"retry_initial": 0.02, "retry_max": 0.1, "read_timeout": 0.01, "repeat_gap": 0}
TAGS = {"0A00000001": CardRef("hanamikoji", "token", "gift", 1),
        "0A00000002": CardRef("hanamikoji", "item", "fan", 1),
        "0A00000003": CardRef("hanamikoji", "item", "flute", 1),
        "0A00000004": CardRef("hanamikoji", "item", "tea", 1)}
GIFT = ["0A00000001", "0A00000002", "0A00000003", "0A00000004"]  # the tea completes it


def next_event(hub: InputHub, kind: str, timeout: float = 5.0) -> ReaderEvent:
    while True:
        item = hub.queue.get(timeout=timeout)
        if item.event is not None and item.event.kind == kind:
            return item.event


class Table:
    """Two readers: reader 1 speaks RDM6300 (Ana's side), reader 2 the line protocol."""

    def __init__(self, game: str, players: list[str], registry: CardRegistry | None) -> None:
        self.session = Session(load_game(game), {"players": players, "lang": "en"})
        self.registry = registry
        self.clock = TableClock()
        self.ttys = [FakeTty(), FakeTty()]
        self.hub = InputHub()
        attach_devices(self.hub, Namespace(
            reader=[t.path for t in self.ttys], reader_protocol=["rdm6300", "line"],
            keypad=None), lambda m: None, clock=self.clock, **FAST)
        # a port flushes its input when opened: nothing is written before both are open
        connected = {next_event(self.hub, "connected").reader for _ in self.ttys}
        assert connected == {"reader 1", "reader 2"}

    def scan(self, reader: int, value: str) -> list:
        tty = self.ttys[reader - 1]
        tty.write(rdm6300_frame(value) if reader == 1 else value.encode() + b"\r\n")
        event = next_event(self.hub, "scan")
        assert (event.reader, event.value) == (f"reader {reader}", value)
        return handle_device_event(self.session, event, self.registry)

    def close(self) -> None:
        self.hub.close()
        for tty in self.ttys:
            tty.close()


@pytest.fixture
def registry(tmp_path) -> CardRegistry:
    registry = CardRegistry(tmp_path / "cards.json")
    for tag, ref in TAGS.items():
        registry.add(tag, ref)
    return registry


@pytest.fixture
def table(registry):
    table = Table("hanamikoji", ["Ana", "Ben"], registry)
    yield table
    table.close()


def lay_gift(table: Table) -> None:
    for tag in GIFT:
        table.scan(1, tag)
    assert table.session.state.phase is Phase.ANSWER
    assert table.session.log[-1][0].text() == "gift flute fan tea"


@pytest.mark.parametrize("tag", ["0A00000004", "0A00000002"])  # the last card, or another
def test_a_laid_card_read_again_by_its_reader_is_not_the_answer(table, tag):
    lay_gift(table)
    table.clock.advance(1.5)  # lifted and put back
    said = table.scan(1, tag)
    assert len(table.session.log) == 1 and table.session.state.phase is Phase.ANSWER
    assert [m.key for m in said] == ["cards.echo_offer"]
    card = "tea set (green, 4)" if tag == "0A00000004" else "fan (red, 2)"
    assert Catalogue("en").render(said[0]) == (
        f"This {card} was just scanned into the offer, so it is not taken as Ben's choice. "
        "Ben: to take it, scan it again in a few seconds, or say it.")
    assert Catalogue("fr").render(said[0]).startswith("Cette carte")
    table.clock.advance(WINDOW - 0.5)  # fumbled with again: the guard holds from the last read
    assert [m.key for m in table.scan(1, tag)] == ["cards.echo_offer"]
    table.clock.advance(WINDOW + 1)  # Ben has looked and chosen, on the same reader
    table.scan(1, tag)
    assert table.session.log[-1][0].text().startswith("take ")
    assert table.session.state.phase is Phase.ACTION


def test_the_other_players_reader_answers_at_once(table):
    lay_gift(table)
    table.clock.advance(0.5)
    table.scan(2, "0A00000004")  # Ben's own reader, line protocol
    assert table.session.log[-1][0].text() == "take tea"


def test_a_typed_answer_is_never_held(table):
    lay_gift(table)
    table.session.handle("take tea")
    assert table.session.log[-1][0].text() == "take tea"


def test_after_an_undo_the_card_is_an_answer_again(table):
    lay_gift(table)
    table.session.handle("undo")
    for tag in GIFT:  # laid again, this time keyed in by a wedge scanner on Ben's side
        handle_line(table.session, tag, table.registry, Origin("reader 2", table.clock()))
    assert table.session.state.phase is Phase.ANSWER
    said = table.scan(1, "0A00000004")  # Ana's reader did not lay this offer
    assert table.session.log[-1][0].text() == "take tea", said


def test_a_wedge_scanner_typing_lines_is_one_reader_too(registry):
    session = Session(load_game("hanamikoji"), {"players": ["Ana", "Ben"], "lang": "en"})
    for at, tag in enumerate([*GIFT, "0A00000004"]):
        said = handle_line(session, tag, registry, Origin("keyboard", 100.0 + at))
    assert [m.key for m in said] == ["cards.echo_offer"] and len(session.log) == 1
    handle_line(session, "0A00000004", registry, Origin("keyboard", 120.0))
    assert session.log[-1][0].text() == "take tea"


# -- Momiji ----------------------------------------------------------------------------------
# Every Momiji action a scan completes is followed by a state where a leaf read again is
# refused anyway (the pile question after the garden, "collect" after a reveal, the main
# action done after a play), so no wrong move can come of it; the echo gives the true reason
# instead of "not expected now".
MJ = "TC1:MJ:"
GARDEN = ["YELLOW:1", "GREEN:0", "VIOLET:0", "BROWN:0"]  # the 4th lays the garden


@pytest.fixture
def momiji():
    table = Table("momiji", ["Ana", "Ben", "Cy"], None)
    for line in ["without red", "cool acorns torii zero placed"]:
        handle_line(table.session, line, None)
    yield table
    table.close()


def test_momiji_a_garden_card_read_again_is_said_to_be_on_the_table(momiji):
    for leaf in GARDEN:
        momiji.scan(2, MJ + "LEAF:" + leaf)
    assert momiji.session.log[-1][0].text().startswith("garden ")
    momiji.clock.advance(1)
    said = momiji.scan(2, MJ + "LEAF:BROWN:0")
    assert [m.key for m in said] == ["momiji.scan.echo"] and len(momiji.session.log) == 3
    assert Catalogue("en").render(said[0]) == (
        "Brown 0 was just scanned and is on the table already: it is not added again. "
        "If you mean another card like it, scan it again in a few seconds.")
    for lang in ("fr", "es", "uk"):
        assert "{" not in Catalogue(lang).render(said[0])
    momiji.clock.advance(WINDOW + 1)  # a brown 0 now is not an echo: the pile comes first
    said = momiji.scan(2, MJ + "LEAF:BROWN:0")
    assert said[0].key == "momiji.scan.not_now"
