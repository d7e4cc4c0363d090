"""One half-entered action, whatever the input: typed words, keypad keys and scanned
cards are folded into the session's pending action (Game.fold), which the session
applies when it is whole and drops with any undo, cancel or step: no part is kept
anywhere else, so none can outlive it."""

from __future__ import annotations

from collections import Counter

from hypothesis import assume, given, settings
from hypothesis import strategies as st

from companion.cards.payload import CardRef, format_payload
from companion.games.hanamikoji.actions import Competition, Gift
from companion.games.hanamikoji.data import COPIES, Item, Token
from companion.games.momiji.actions import Objectives
from companion.games.momiji.data import Objective, tokens_for
from companion.games.registry import load_game
from companion.inputs.devices import handle_device_event, handle_line
from companion.session import Session
from hardware.events import ReaderEvent
from tests.test_momiji_objectives_parts import at_objectives

WAYS = ("typed", "keyed", "scanned")


def new_session() -> Session:
    return Session(load_game("hanamikoji"), {"players": ["Ana", "Ben"], "lang": "en"})


def label(kind: str, name: str, copy: int) -> str:
    return format_payload(CardRef("hanamikoji", kind, name, copy))


def keyed(session: Session, digits: str) -> None:
    for key in [*digits, "ENTER"]:
        handle_device_event(session, ReaderEvent("keypad", "k", "key", key), None)


def enter_token(session: Session, token: Token, way: str) -> None:
    if way == "typed":
        handle_line(session, token.word, None)
    elif way == "keyed":
        keyed(session, str(int(token)))
    else:
        handle_line(session, label("token", token.word, 1), None)


def enter_card(session: Session, card: Item, way: str, copy: int) -> None:
    if way == "typed":
        handle_line(session, card.word, None)
    elif way == "keyed":
        keyed(session, str(int(card)))
    else:
        handle_line(session, label("item", card.word, copy), None)


@st.composite
def offers(draw: st.DrawFn) -> tuple[Token, tuple[Item, ...], list[str], list[int]]:
    """An offer, how each of its parts is entered (token first), and which copy of its
    card each scan reads (a copy once: two scans of one copy are one card)."""
    token = draw(st.sampled_from([Token.GIFT, Token.COMPETITION]))
    cards = tuple(draw(st.lists(st.sampled_from(list(Item)), min_size=token.cards,
                                max_size=token.cards)))
    assume(all(n <= COPIES[item] for item, n in Counter(cards).items()))
    ways = draw(st.lists(st.sampled_from(WAYS), min_size=token.cards + 1,
                         max_size=token.cards + 1))
    seen: Counter[Item] = Counter()
    copies = []
    for card in cards:
        seen[card] += 1
        copies.append(seen[card])
    return token, cards, ways, copies


def whole(token: Token, cards: tuple[Item, ...]) -> Gift | Competition:
    if token is Token.GIFT:
        return Gift(cards)  # type: ignore[arg-type]
    return Competition(((cards[0], cards[1]), (cards[2], cards[3])))


@settings(max_examples=60, deadline=None)
@given(offers())
def test_any_mix_of_inputs_applies_what_the_whole_typed_line_applies(offer) -> None:
    token, cards, ways, copies = offer
    typed = new_session()
    typed.handle(whole(token, cards).text())
    mixed = new_session()
    enter_token(mixed, token, ways[0])
    for card, way, copy in zip(cards, ways[1:], copies, strict=True):
        assert mixed.step == 0 and mixed.pending is not None  # half-entered until whole
        enter_card(mixed, card, way, copy)
    assert mixed.log == typed.log and len(mixed.log) == 1
    assert mixed.pending is None


@settings(max_examples=60, deadline=None)
@given(offers(), st.integers(0, 3), st.sampled_from(["undo", "cancel", "-", "0", "secret"]))
def test_an_undo_a_cancel_or_a_step_leaves_no_part_behind(offer, begun, drop) -> None:
    """Part of an offer entered, then dropped (typed undo or cancel, keypad minus or 0)
    or overtaken by another action: nothing of it is pending, and the same copies are
    scanned into the same offer again as if never scanned (no copy "already in it")."""
    token, cards, ways, copies = offer
    session = new_session()
    enter_token(session, token, ways[0])
    begun = min(begun, token.cards - 1)  # its last card would complete it
    for card, way, copy in list(zip(cards, ways[1:], copies, strict=True))[:begun]:
        enter_card(session, card, way, copy)
    if drop in ("-", "0"):
        handle_device_event(session, ReaderEvent("keypad", "k", "key", drop), None)
    else:
        handle_line(session, drop, None)
    assert session.pending is None
    steps = session.step
    assert steps == (1 if drop == "secret" else 0)
    enter_token(session, token, "scanned")
    for card, copy in zip(cards, copies, strict=True):
        enter_card(session, card, "scanned", copy)
    assert session.step == steps + 1 and session.log[-1][0] == whole(token, cards)
    assert session.pending is None


def test_undoing_a_scanned_offer_takes_its_copies_back_with_it() -> None:
    """The copies an offer laid face up are that step's trace: undone, they are in hand
    again, and scanned into the next offer as any card."""
    session = new_session()
    gift = [label("token", "gift", 1), label("item", "fan", 1), label("item", "fan", 2),
            label("item", "tea", 1)]
    for value in gift:
        handle_line(session, value, None)
    assert session.step == 1
    session.handle("undo")
    assert session.step == 0 and session.pending is None
    for value in gift:
        handle_line(session, value, None)
    assert session.step == 1 and session.log[0][0] == Gift((Item.FAN, Item.FAN, Item.TEA))


def test_an_undo_while_a_secret_is_scanned_drops_it_and_nothing_else() -> None:
    """A scanned Secret waiting for its card is the pending action too: an undo said or
    typed drops it (the step before stays), as it drops a keyed "1"."""
    session = new_session()
    session.handle("gift fan fan tea")
    session.handle("take tea")
    handle_line(session, label("token", "secret", 2), None)  # Ana's second turn
    assert session.pending is not None and session.step == 2
    assert [m.key for m in session.handle("undo")][0] == "cancelled"
    assert session.pending is None and session.step == 2
    handle_line(session, label("item", "flute", 1), None)  # a card now: no Secret waits
    assert session.step == 2 and session.pending is None


@settings(max_examples=40, deadline=None)
@given(st.data())
def test_momiji_objectives_named_and_scanned_in_any_order_make_one_list(data) -> None:
    """At set-up, objective tokens scanned and names typed join one pending list, in any
    order, and reveal what the whole typed list reveals."""
    session = at_objectives()
    allowed = [o for o in Objective if o.leaf is None or o.leaf in session.state.colours]
    chosen = data.draw(st.permutations(allowed))[:tokens_for(session.state.count)]
    steps = session.step
    for objective in chosen:
        assert session.step == steps
        if data.draw(st.booleans()):
            # with its verb: "zero" alone is the shared word for cancel (the keypad's 0)
            handle_line(session, "objectives " + objective.value, None)
        else:
            handle_line(session, format_payload(
                CardRef("momiji", "objective", objective.value, 1)), None)
    assert session.step == steps + 1 and session.pending is None
    assert session.log[-1][0] == Objectives(tuple(chosen))
