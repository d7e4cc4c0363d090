"""A scanned card or token → what the session should do now (Hanamikoji).

A scan carries no verb: the same fan means "add it to the gift" while a gift is being
laid, "I take it" while a gift waits for an answer, "my Secret was this" at scoring. So a
scanned card is a part (`Scanned`) the game folds (`fold`) into the session's pending
action, in the session's context, into the command it completes; the session carries it
out like any other, and the rules engine stays the only judge of legality. What is being
laid is a pending value like a typed one (`Laying`, a `Choose` with its copies;
`Private`, a scanned Secret or Discard; `AnswerFirst`, one card of a competition's pair),
so that any step, undo or cancel drops it.

Two things only scans make possible live here:

* Copies. A registry tag names one physical card (the 2nd fan). A copy seen face up this
  round (in an offer, in front of a geisha, a revealed Secret) cannot be scanned again
  until the next round. The copies a step laid are its trace in the session (`Copies`),
  so an undo takes them away with the step and a new round (a new round number) ignores
  them; a resumed game starts with none (copies are not in the game log), which can only
  miss a mistake, never refuse a good scan.
* Privacy. After a Secret or Discard token, the next card scans are said only on the
  acting player's private channel; a player without one (no earbud) is told the cards are
  kept unsaid, and the shared speaker then hears only "card 1 of 2 read". The action is
  checked first (a refusal would name the cards) and applied as Secret(card) /
  Discard(cards), whose engine message is private too.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from companion.cards.payload import CardRef, PayloadError
from companion.cards.registry import CardRegistry, resolve
from companion.errors import CompanionError, IllegalAction
from companion.games.hanamikoji.actions import (
    Competition,
    Discard,
    Gift,
    Reveal,
    Secret,
    TakeGift,
    TakePair,
)
from companion.games.hanamikoji.data import GEISHAS, Item, Token
from companion.games.hanamikoji.interpret import Choose
from companion.games.hanamikoji.rules import Phase
from companion.games.protocol import Fold, Moment
from companion.inputs.scan_echo import Echo, Origin, laid, repeats
from companion.narrate.message import Message, Priority
from companion.shared_commands import Ask, Query

P = "cards."  # catalogue prefix of this feature's sentences (companion/locales/cards.*.toml)


def refusal(key: str, params: dict[str, Any] | None = None, private_to: int | None = None,
            **data: Any) -> Message:
    return Message("error", P + key, params or {}, {"code": key, **data}, Priority.REFUSAL,
                   private_to)


# -- the parts a reader or keypad gives, the pending values and the traces they make ---------
@dataclass(frozen=True)
class Scanned:
    """A scanned card or token, with the reader and time it came from."""

    ref: CardRef
    origin: Origin | None = None


@dataclass(frozen=True)
class Keyed:
    """A keypad line during a scanned Secret or Discard: card positions, or "" (Enter) to
    keep its cards unnamed."""

    digits: str


@dataclass(frozen=True)
class Laying(Choose):
    """An offer begun with scans: the copies scanned into it, by slot, and its token's."""

    copies: tuple[tuple[int, CardRef], ...] = ()
    token_copy: CardRef | None = None


@dataclass(frozen=True)
class Private:
    """A Secret or Discard whose cards are being scanned (or keyed), told privately."""

    token: Token
    player: int
    token_copy: CardRef | None
    cards: tuple[tuple[Item, CardRef | None], ...] = ()

    @property
    def missing(self) -> int:
        return int(self.token) - len(self.cards)


@dataclass(frozen=True)
class AnswerFirst:
    """A competition's answer begun with one card that two pairs hold."""

    item: Item
    ref: CardRef


@dataclass(frozen=True)
class Copies:
    """A scanned step's trace: the copies it laid face up (by slot; a competition's pair
    is slot // 2), the round, its token's copy, the copy taken, its echo."""

    laid: tuple[tuple[int, CardRef], ...] = ()
    round: int = 0
    token: CardRef | None = None
    pick: CardRef | None = None
    echo: Echo | None = None


@dataclass(frozen=True)
class Sighting:
    """A copy laid face up by the accepted step `step`."""

    ref: CardRef
    round: int
    step: int
    slot: int = 0


# -- what the steps' traces say of the copies ------------------------------------------------
def _sightings(now: Moment) -> list[Sighting]:
    return [Sighting(ref, trace.round, step, slot)
            for step, (_, _, trace) in enumerate(now.steps) if isinstance(trace, Copies)
            for slot, ref in trace.laid]


def _where(now: Moment, sighting: Sighting) -> tuple[str, int | None]:
    """("side", player) for a copy in front of a geisha, ("offer", None) if on offer."""
    steps = now.steps
    action, actor, _ = steps[sighting.step]
    if isinstance(action, Reveal):
        return "side", actor
    if sighting.step + 1 >= len(steps):
        return "offer", None
    answer, chooser, trace = steps[sighting.step + 1]
    if isinstance(answer, TakePair):
        return "side", chooser if sighting.slot // 2 == answer.index else actor
    assert isinstance(answer, TakeGift)
    if sighting.ref.name != answer.card.word:
        return "side", actor
    if isinstance(trace, Copies) and trace.pick is not None:
        return "side", chooser if trace.pick == sighting.ref else actor
    same = [s for s in _sightings(now)
            if s.step == sighting.step and s.ref.name == sighting.ref.name]
    first = min(same, key=lambda s: s.slot)  # typed answer: any copy of that item will do
    return "side", chooser if first == sighting else actor


def copy_refusal(now: Moment, ref: CardRef, private_to: int | None = None) -> Message | None:
    """Why this copy cannot be scanned now, if it is already face up or being offered."""
    item = Item[ref.name.upper()]
    seen = next((s for s in _sightings(now)
                 if s.ref == ref and s.round == now.state.round), None)
    if seen is not None:
        place, player = _where(now, seen)
        if place == "offer":
            return refusal("copy_on_offer", {"card": item}, private_to)
        return refusal("copy_on_side", {"card": item, "geisha": item.geisha,
                                        "player": now.names[player]}, private_to)
    pending = now.pending
    if isinstance(pending, Laying) and any(r == ref for _, r in pending.copies):
        return refusal("copy_in_choice", {"card": item, "token": pending.token}, private_to)
    return None


def _token_owner(now: Moment, copy: int) -> int | None:
    for _, actor, trace in now.steps:
        if isinstance(trace, Copies) and trace.token is not None and trace.token.copy == copy:
            return actor
    return None


# -- the edge: a scanned value becomes a part ----------------------------------------------
def handle_scan(session: Any, value: str, registry: CardRegistry | None,
                origin: Origin | None = None) -> list[Message]:
    """Messages for one scanned value (a tag id, a barcode or a printed-label payload);
    `origin` (reader and time) lets a card read again after laying an offer be set aside."""
    try:
        ref = resolve(value, registry)
    except PayloadError as error:
        return [refusal("bad_label", {"reason": str(error)}, value=value)]
    if ref is None:
        return [refusal("unknown_tag", value=value)]
    if ref.game != session.game.name:
        return [refusal("other_game", value=value)]
    if ref.kind == "geisha":
        return [_geisha_line(session.state, session.names, ref)]
    return session.enter(Scanned(ref, origin))


def _geisha_line(state: Any, names: tuple[str, ...], ref: CardRef) -> Message:
    """A geisha card scanned: where her items and her marker stand (a board question)."""
    geisha = next(g for g in GEISHAS if g.name.lower() == ref.name)
    item = geisha.item
    holder = state.favours[item - 1]
    marker = (Message("", "marker_centre") if holder is None
              else Message("", "marker_with", {"player": names[holder]}))
    return Message("board", "board_geisha", {
        "geisha": geisha, "card": item, "a": names[0],
        "na": state.players[0].side[item - 1], "b": names[1],
        "nb": state.players[1].side[item - 1], "marker": marker}, {"geisha": geisha.name})


# -- the fold: a part and the pending action ----------------------------------------------------
def fold(game: Any, now: Moment, part: Any) -> Fold:
    """A scanned card or token, or keyed positions of a scanned Secret or Discard, folded
    into the pending action; any other part is a command as typed."""
    if isinstance(part, Keyed) and isinstance(now.pending, Private):
        return _keyed(game, now, now.pending, part.digits)
    if not isinstance(part, Scanned):
        return Fold(command=part)
    if part.ref.kind == "token":
        return _token(now, part.ref)
    return _item(game, now, part.ref, part.origin)


def _token(now: Moment, ref: CardRef) -> Fold:
    token = Token[ref.name.upper()]
    state = now.state
    # A scanned Secret or Discard, or a pair begun, is set aside for this token.
    clear = None if isinstance(now.pending, (Private, AnswerFirst)) else now.pending
    if state.phase is not Phase.ACTION:
        if state.phase is Phase.REVEAL and token is Token.SECRET:
            return Fold(pending=clear, command=Ask(Query.WHAT))  # turned over: "reveal"
        return Fold(pending=clear, command=Choose(token))  # the session says why not now
    player = state.to_move
    owner = _token_owner(now, ref.copy)
    if owner is not None and owner != player:
        return Fold(pending=clear, said=(refusal("other_players_token", {
            "player": now.names[owner], "token": token}),))
    if token in (Token.SECRET, Token.DISCARD):
        if token not in state.players[player].tokens:
            return Fold(pending=clear, command=Choose(token))  # "already used this round"
        choice = Private(token, player, ref)  # a half-laid offer is abandoned for it
        return Fold(pending=choice, said=(private_prompt(now.names, choice),))
    return Fold(pending=clear, command=Laying(token, token_copy=ref))


def private_prompt(names: tuple[str, ...], choice: Private) -> Message:
    """"Scan the card": read back in the player's earpiece, or, without one, kept unsaid."""
    key = P + ("scan_secret" if choice.token is Token.SECRET else "scan_discard")
    player = {"player": names[choice.player]}
    kept = Message("prompt", key + "_kept", player, player, Priority.PROMPT)
    return Message("prompt", key, player, player, Priority.PROMPT,
                   earpiece=choice.player, otherwise=kept)


def _item(game: Any, now: Moment, ref: CardRef, origin: Origin | None) -> Fold:
    item = Item[ref.name.upper()]
    state, pending = now.state, now.pending
    if isinstance(pending, Private):
        return _add_private(game, now, pending, item, ref)
    if state.phase is Phase.ACTION:
        if not isinstance(pending, Choose):
            return Fold(said=(refusal("token_first"),))
        why = copy_refusal(now, ref)
        return Fold(said=(why,)) if why is not None else _add_to_offer(
            now, pending, item, ref, origin)
    if state.phase is Phase.ANSWER:
        trace = now.steps[-1][2] if now.steps else None
        held = repeats(trace.echo if isinstance(trace, Copies) else None, ref, origin)
        if held is not None:  # an offered copy read again by the reader that laid it
            chooser = now.names[state.to_move]
            return Fold(said=(refusal("echo_offer", {"card": item, "player": chooser},
                                      card=item.word),), trace=replace(trace, echo=held))
        return _answer(now, item, ref)
    why = copy_refusal(now, ref)
    if why is not None:
        return Fold(said=(why,))
    # at scoring; after the game: "the game is over"
    return Fold(command=Reveal(item), trace=Copies(((0, ref),), state.round))


def _add_to_offer(now: Moment, choice: Choose, item: Item, ref: CardRef,
                  origin: Origin | None) -> Fold:
    cards = (*choice.cards, item)
    begun = choice if isinstance(choice, Laying) else Laying(choice.token, choice.cards)
    copies = (*begun.copies, (len(choice.cards), ref))
    if len(cards) < choice.token.cards:
        return Fold(command=Laying(choice.token, cards, copies, begun.token_copy))
    command: Any
    if choice.token is Token.GIFT:
        command = Gift(cards)  # type: ignore[arg-type]
    else:
        command = Competition(((cards[0], cards[1]), (cards[2], cards[3])))
    # On the table, its copies are face up; read again by this reader, an echo.
    trace = Copies(copies, now.state.round, begun.token_copy,
                   echo=laid([r for _, r in copies], origin))
    return Fold(command=command, trace=trace)


def _answer(now: Moment, item: Item, ref: CardRef) -> Fold:
    state = now.state
    offer = state.offer
    offered = [s for s in _sightings(now) if s.step == len(now.steps) - 1]
    if not any(s.ref == ref for s in offered):
        why = copy_refusal(now, ref)  # a copy already in front of a geisha
        if why is not None:
            return Fold(said=(why,))
    count = 3 if isinstance(offer, Gift) else 4
    if len(offered) == count and all(s.ref != ref for s in offered):
        return Fold(said=(refusal("copy_not_offered", {"card": item}),))  # all are known
    if isinstance(offer, Gift):
        return Fold(command=TakeGift(item), trace=Copies(pick=ref))
    assert isinstance(offer, Competition)
    known = next((s for s in offered if s.ref == ref), None)
    holding = [i for i, pair in enumerate(offer.pairs) if item in pair]
    first = now.pending if isinstance(now.pending, AnswerFirst) else None
    if known is not None:
        pair = known.slot // 2  # this very copy was scanned into a pair
    elif first is not None:
        both = [i for i in holding if sorted(offer.pairs[i]) == sorted((first.item, item))]
        pair = both[0] if both else -1
    elif len(holding) == 2 and offer.pairs[0] != offer.pairs[1]:
        return Fold(pending=AnswerFirst(item, ref), said=(Message(
            "prompt", P + "which_pair", {"card": item}, priority=Priority.PROMPT),))
    else:
        pair = holding[0] if holding else -1
    if pair < 0:  # the rules' own words: no pair holds that card
        error = IllegalAction("not_a_pair", "no pair of the competition holds those cards",
                              cards=(item,), offer=offer)
        return Fold(said=(_public_refusal(error),), pending=None, prompt=True)
    return Fold(pending=None, command=TakePair(pair))


def _public_refusal(error: CompanionError, private_to: int | None = None) -> Message:
    """A refusal in the rules' words, as the session says one."""
    return Message("error", f"error.{error.key}", dict(error.params),
                   {"code": error.key, "reason": str(error)}, Priority.REFUSAL, private_to)


# -- Secret and Discard: private scans --------------------------------------------------------
def _add_private(game: Any, now: Moment, choice: Private, item: Item, ref: CardRef | None
                 ) -> Fold:
    """One card of a Secret/Discard: read back only to its player; applied when complete."""
    player = choice.player
    if ref is not None:
        why = copy_refusal(now, ref, private_to=player)
        if why is None and any(r == ref for _, r in choice.cards):
            why = refusal("copy_private", {"card": item}, player)
        if why is not None:
            return Fold(said=(why, _private_refused(now, player)))
    choice = replace(choice, cards=(*choice.cards, (item, ref)))
    if choice.missing > 0:
        # Read back in the earpiece; only a player without one hears, with the table, that
        # a card was read (never which): with one, the table hears what an unnamed Discard
        # makes it hear.
        read = Message("scan", P + "card_read", {"i": len(choice.cards), "n": int(choice.token)})
        return Fold(pending=choice, said=(Message(
            "private", P + "private_card_discard",
            {"cards": tuple(c for c, _ in choice.cards), "n": choice.missing},
            private_to=player, otherwise=read),))
    return _apply_private(game, now, choice)


def _apply_private(game: Any, now: Moment, choice: Private, unnamed: bool = False) -> Fold:
    """Play the Secret/Discard now, with its cards (or unnamed), checked privately first:
    a refusal said to the table would name the cards."""
    cards = tuple(c for c, _ in choice.cards)
    action: Secret | Discard
    if choice.token is Token.SECRET:
        action = Secret(None if unnamed else cards[0])
    else:
        action = Discard(None if unnamed else (cards[0], cards[1]))
    try:
        game.apply(now.state, action)
    except CompanionError as error:
        reason = Message("error", f"error.{error.key}", dict(error.params),
                         {"code": error.key}, Priority.REFUSAL, choice.player)
        return Fold(said=(reason, _private_refused(now, choice.player)),
                    pending=replace(choice, cards=choice.cards[:-1]))
    return Fold(pending=None, command=action, trace=Copies(token=choice.token_copy))


def _private_refused(now: Moment, player: int) -> Message:
    return refusal("private_refused", {"player": now.names[player]})


def _keyed(game: Any, now: Moment, choice: Private, digits: str) -> Fold:
    """Card positions keyed during a scanned Secret/Discard, or Enter: its cards unnamed."""
    if not digits:
        return _apply_private(game, now, choice, unnamed=True)
    said: tuple[Message, ...] = ()
    for digit in digits:
        if not "1" <= digit <= "7":
            return Fold(said=(*said, Message("error", "error.bad_position", {"digit": digit},
                                             {"code": "bad_position"}, Priority.REFUSAL)),
                        pending=choice)
        out = _add_private(game, replace(now, pending=choice), choice, Item(int(digit)), None)
        if out.command is not None:
            return out  # complete: played
        choice, said = out.pending, out.said  # read back, or refused with a card fewer
    return Fold(said=said, pending=choice)
