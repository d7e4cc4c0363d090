"""A whole game driven by scans (RDM6300 frames on a pseudo-terminal) and keypad keys ends
exactly like the same game typed: same final state, same scoring and game-over data."""

from __future__ import annotations

import os
from argparse import Namespace

import pytest
from ptys import FakeTty, TableClock

from companion.cards.payload import CardRef, all_cards
from companion.cards.registry import CardRegistry
from companion.games.registry import load_game
from companion.inputs.devices import attach_devices, handle_device_event
from companion.inputs.hub import InputHub, InputItem
from companion.narrate.catalogue import Catalogue
from companion.narrate.message import Message
from companion.session import Session
from hardware.events import ReaderEvent
from hardware.frames import rdm6300_frame

pytestmark = pytest.mark.skipif(not hasattr(os, "openpty"), reason="needs pseudo-terminals")

FAST = {"retry_initial": 0.02, "retry_max": 0.1, "read_timeout": 0.01, "repeat_gap": 0}
NAMES = ["Ana", "Ben"]
SETS = {"Ana": 1, "Ben": 2}  # each player's set of action tokens


def tag_of(ref: CardRef) -> str:
    return f"{0x0A00000000 + all_cards().index(ref):010X}"


def registry_for(path) -> CardRegistry:
    registry = CardRegistry(path)
    for ref in all_cards():
        registry.add(tag_of(ref), ref)
    registry.save()
    return CardRegistry.load(path)


# One round, written for its starter S and the other player O. Each step: the typed line,
# then the same thing at the table: ("scan", kind, name, copy) or ("keys", "42").
ROUND = [
    ("S", "gift flower flower tea",
     [("token", "gift"), ("item", "flower", 1), ("item", "flower", 2), ("item", "tea", 1)]),
    ("O", "take tea", [("item", "tea", 1)]),
    ("O", "secret scroll", [("token", "secret"), ("item", "scroll", 1)]),
    ("S", "competition flower tea / umbrella umbrella",
     [("keys", "4"), ("item", "flower", 3), ("item", "tea", 2), ("item", "umbrella", 1),
      ("item", "umbrella", 2)]),
    ("O", "take 2", [("keys", "2")]),
    ("O", "discard flute fan", [("token", "discard"), ("item", "flute", 1), ("keys", "2")]),
    ("S", "secret tea", [("token", "secret"), ("keys", "6")]),
    ("O", "gift shamisen shamisen scroll",
     [("token", "gift"), ("item", "shamisen", 1), ("item", "shamisen", 2),
      ("item", "scroll", 2)]),
    ("S", "take shamisen", [("item", "shamisen", 2)]),
    ("S", "discard flute fan", [("token", "discard"), ("item", "flute", 2), ("item", "fan", 2)]),
    ("O", "competition umbrella shamisen / flower tea",
     [("token", "competition"), ("item", "umbrella", 3), ("item", "shamisen", 3),
      ("item", "flower", 4), ("item", "tea", 4)]),
    ("S", "take 2", [("item", "tea", 4)]),  # that very copy was laid in pair 2
    ("S", "reveal tea", [("item", "tea", 3)]),
    ("O", "reveal scroll", [("item", "scroll", 1)]),
]
STARTERS = ["Ana", "Ben", "Ana"]  # the round's other player starts the next one


def outcome(messages: list[Message]) -> list[tuple[str, dict]]:
    return [(m.event, m.data) for m in messages if m.event in ("round_scored", "game_over")]


def new_session() -> Session:
    return Session(load_game("hanamikoji"), {"players": NAMES, "rules": "iello", "lang": "en"})


def typed_game() -> tuple[Session, list[Message]]:
    session = new_session()
    said = session.start()
    for _ in STARTERS:
        for _, line, _ in ROUND:
            said += session.handle(line)
    return session, said


def next_event(hub: InputHub, kind: str, timeout: float = 3.0) -> ReaderEvent:
    while True:
        item = hub.queue.get(timeout=timeout)
        if item.event is not None and item.event.kind == kind:
            return item.event


def test_scan_game_equals_typed_game(tmp_path):
    typed, typed_said = typed_game()
    assert typed.state.over and outcome(typed_said)[-1][1]["winners"] == ["Ana"]

    registry = registry_for(tmp_path / "cards.json")
    tty = FakeTty()
    hub = InputHub()
    session = new_session()
    said = session.start()
    notes: list[Message] = []
    clock = TableClock()  # one reader shared by both players, who take turns
    group = attach_devices(hub, Namespace(reader=[tty.path], reader_protocol="rdm6300",
                                          keypad=None), notes.extend, clock=clock, **FAST)
    try:
        said += handle_device_event(session, next_event(hub, "connected"), registry)
        for starter in STARTERS:
            role = {"S": starter, "O": NAMES[1 - NAMES.index(starter)]}
            for who, line, table in ROUND:
                steps = len(session.log)
                clock.advance(10)  # the player thinks before acting
                for step in table:
                    if step[0] == "keys":
                        for key in [*step[1], "ENTER"]:  # what KeypadReader would put
                            hub.queue.put(InputItem("keypad", event=ReaderEvent(
                                "keypad", "/dev/input/event9", "key", key)))
                            said += handle_device_event(session, next_event(hub, "key"),
                                                        registry)
                        continue
                    kind, name, *copy = step
                    ref = CardRef("hanamikoji", kind, name, copy[0] if copy else SETS[role[who]])
                    tty.write(rdm6300_frame(tag_of(ref)))
                    event = next_event(hub, "scan")
                    assert event.value == tag_of(ref)
                    got = handle_device_event(session, event, registry)
                    assert not [m for m in got if m.event == "error"], (line, step, got)
                    said += got
                assert len(session.log) == steps + 1, line  # one whole step, as typed
                assert session.log[-1][0].text() == typed.log[len(session.log) - 1][0].text()
    finally:
        hub.close()
        tty.close()
    assert group is not None and notes == []
    assert session.state == typed.state
    assert outcome(said) == outcome(typed_said)
    assert [m.event for m in said].count("reader_connected") == 1


def test_private_cards_never_public_in_the_scan_game(tmp_path):
    """Replays the first round through the same path and checks every public sentence."""
    registry = registry_for(tmp_path / "cards.json")
    session = new_session()
    catalogue = Catalogue("en")
    role = {"S": "Ana", "O": "Ben"}
    for row, (who, _line, table) in enumerate(ROUND[:7]):  # up to Ana's Secret (tea keyed 6)
        said: list[Message] = []
        at = 10.0 * row  # each player takes seconds to act
        for step in table:
            if step[0] == "keys":
                for key in [*step[1], "ENTER"]:
                    said += handle_device_event(session, ReaderEvent(
                        "keypad", "kbd", "key", key), registry)
                continue
            kind, name, *copy = step
            ref = CardRef("hanamikoji", kind, name, copy[0] if copy else SETS[role[who]])
            said += handle_device_event(session, ReaderEvent("reader 1", "x", "scan",
                                                             tag_of(ref), at), registry)
        if table[0] == ("token", "secret") or table[0] == ("token", "discard"):
            public = " ".join(catalogue.render(m) for m in said if m.private_to is None)
            private = " ".join(catalogue.render(m) for m in said if m.private_to is not None)
            secret_words = {"secret scroll": ["scroll"], "discard flute fan": ["flute", "fan"],
                            "secret tea": ["tea"]}[_line]
            for word in secret_words:
                assert word not in public.lower(), public
                assert word in private.lower(), private
            assert all(m.private_to == NAMES.index(role[who])
                       for m in said if m.private_to is not None)

