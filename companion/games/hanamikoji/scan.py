"""A scanned card or token → what the session should do now (Hanamikoji).

A scan carries no verb: the same fan means "add it to the gift" while a gift is being
laid, "I take it" while a gift waits for an answer, "my Secret was this" at scoring. So a
scan is read in the session's context, then handed to `Session.execute` like any other
command, and the rules engine stays the only judge of legality.

Two things only scans make possible live here:

* Copies. A registry tag names one physical card (the 2nd fan). A copy seen face up this
  round (in an offer, in front of a geisha, a revealed Secret) cannot be scanned again
  until the next round. Sightings are tied to positions in the session log, so an undo
  forgets them and a new round (a new round number) ignores them; a resumed game starts
  with none (copies are not in the game log), which can only miss a mistake, never refuse
  a good scan.
* Privacy. After a Secret or Discard token, the next card scans are said only on the
  acting player's private channel; a player without one (no earbud) is told the cards are
  kept unsaid, and the shared speaker then hears only "card 1 of 2 read". The action is
  applied as Secret(card) / Discard(cards), whose engine message is private too.
"""

from __future__ import annotations

from dataclasses import dataclass, field
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
from companion.inputs.scan_echo import EchoGuard, Origin
from companion.narrate.message import Message, Priority
from companion.session import per_session
from companion.shared_commands import Ask, Query

P = "cards."  # catalogue prefix of this feature's sentences (companion/locales/cards.*.toml)


def refusal(key: str, params: dict[str, Any] | None = None, private_to: int | None = None,
            **data: Any) -> Message:
    return Message("error", P + key, params or {}, {"code": key, **data}, Priority.REFUSAL,
                   private_to)


@dataclass
class Sighting:
    """A copy laid face up by the accepted action at `step` of the session log."""

    ref: CardRef
    round: int
    step: int
    text: str  # that action's text: an undo then another action at the same step drops it
    slot: int = 0  # order within the offer (a competition's pair is slot // 2)


@dataclass
class PrivateChoice:
    """A Secret or Discard whose cards are being scanned; valid for one session state."""

    token: Token
    player: int
    state: Any
    token_ref: CardRef | None
    cards: list[tuple[Item, CardRef | None]] = field(default_factory=list)

    @property
    def missing(self) -> int:
        return int(self.token) - len(self.cards)


@dataclass
class ScanContext:
    """What scans have taught about the current session, beyond its log."""

    sightings: list[Sighting] = field(default_factory=list)
    picks: dict[int, tuple[CardRef, str]] = field(default_factory=dict)  # answer step → copy
    tokens: list[Sighting] = field(default_factory=list)  # token sets, to know whose is whose
    building: list[tuple[int, CardRef]] = field(default_factory=list)  # (slot, copy) of Choose
    building_for: Any = None  # the session.pending the building list belongs to
    building_token: CardRef | None = None
    private: PrivateChoice | None = None
    answer_first: tuple[Item, CardRef, Any] | None = None  # competition card, then its pair
    keys: dict[str, list[str]] = field(default_factory=dict)  # keypad line per device
    echo: EchoGuard = field(default_factory=EchoGuard)  # the laid offer's copies read again

    # -- log-derived bookkeeping ------------------------------------------------------
    def prune(self, session: Any) -> None:
        """Forget what an undo (or a typed step after an undo) has taken back."""
        log = session.log

        def alive(step: int, text: str) -> bool:
            return step < len(log) and log[step][0].text() == text

        self.sightings = [s for s in self.sightings if alive(s.step, s.text)]
        self.tokens = [s for s in self.tokens if alive(s.step, s.text)]
        self.picks = {k: v for k, v in self.picks.items() if alive(k, v[1])}
        if self.building_for is None or self.building_for is not session.pending:
            self.building, self.building_for, self.building_token = [], None, None
        if self.private is not None and self.private.state is not session.state:
            self.private = None
        if self.answer_first is not None and self.answer_first[2] is not session.state:
            self.answer_first = None

    def where(self, sighting: Sighting, session: Any) -> tuple[str, int | None]:
        """("side", player) for a copy in front of a geisha, ("offer", None) if on offer."""
        log = session.log
        action, actor = log[sighting.step]
        if isinstance(action, Reveal):
            return "side", actor
        if sighting.step + 1 >= len(log):
            return "offer", None
        answer, chooser = log[sighting.step + 1]
        if isinstance(answer, TakePair):
            return "side", chooser if sighting.slot // 2 == answer.index else actor
        assert isinstance(answer, TakeGift)
        if sighting.ref.name != answer.card.word:
            return "side", actor
        pick = self.picks.get(sighting.step + 1)
        if pick is not None:
            return "side", chooser if pick[0] == sighting.ref else actor
        same = [s for s in self.sightings
                if s.step == sighting.step and s.ref.name == sighting.ref.name]
        first = min(same, key=lambda s: s.slot)  # typed answer: any copy of that item will do
        return "side", chooser if first is sighting else actor

    def face_up(self, ref: CardRef, session: Any) -> Sighting | None:
        for s in self.sightings:
            if s.ref == ref and s.round == session.state.round:
                return s
        return None

    def copy_refusal(self, ref: CardRef, session: Any, private_to: int | None = None
                     ) -> Message | None:
        """Why this copy cannot be scanned now, if it is already face up or being offered."""
        item = Item[ref.name.upper()]
        seen = self.face_up(ref, session)
        if seen is not None:
            place, player = self.where(seen, session)
            if place == "offer":
                return refusal("copy_on_offer", {"card": item}, private_to)
            return refusal("copy_on_side", {"card": item, "geisha": item.geisha,
                                            "player": session.names[player]}, private_to)
        if any(r == ref for _, r in self.building) and session.pending is not None:
            return refusal("copy_in_choice", {"card": item, "token": session.pending.token},
                           private_to)
        return None

    def token_owner(self, copy: int, session: Any) -> int | None:
        for s in self.tokens:
            if s.ref.copy == copy:
                return session.log[s.step][1]
        return None

    def record(self, session: Any, refs: list[tuple[int, CardRef]], round_: int) -> None:
        step = session.step - 1
        text = session.log[step][0].text()
        self.sightings.extend(Sighting(ref, round_, step, text, slot) for slot, ref in refs)

    def record_token(self, session: Any, ref: CardRef | None) -> None:
        if ref is not None and session.log:
            step = session.step - 1
            self.tokens.append(Sighting(ref, session.state.round, step,
                                        session.log[step][0].text()))


context_for = per_session(ScanContext)  # the scan state kept beside each session


# -- the entry point ----------------------------------------------------------------------
def handle_scan(session: Any, value: str, registry: CardRegistry | None,
                origin: Origin | None = None) -> list[Message]:
    """Messages for one scanned value (a tag id, a barcode or a printed-label payload);
    `origin` (reader and time) lets a card read again after laying an offer be set aside."""
    ctx = context_for(session)
    ctx.prune(session)
    try:
        ref = resolve(value, registry)
    except PayloadError as error:
        return [refusal("bad_label", {"reason": str(error)}, value=value)]
    if ref is None:
        return [refusal("unknown_tag", value=value)]
    if ref.game != session.game.name:
        return [refusal("other_game", value=value)]
    if ref.kind == "geisha":
        return [_geisha_line(session, ref)]
    if ref.kind == "token":
        return _token(session, ctx, ref)
    return _item(session, ctx, ref, origin)


def _geisha_line(session: Any, ref: CardRef) -> Message:
    """A geisha card scanned: where her items and her marker stand (a board question)."""
    state, names = session.state, session.names
    geisha = next(g for g in GEISHAS if g.name.lower() == ref.name)
    item = geisha.item
    holder = state.favours[item - 1]
    marker = (Message("", "marker_centre") if holder is None
              else Message("", "marker_with", {"player": names[holder]}))
    return Message("board", "board_geisha", {
        "geisha": geisha, "card": item, "a": names[0],
        "na": state.players[0].side[item - 1], "b": names[1],
        "nb": state.players[1].side[item - 1], "marker": marker}, {"geisha": geisha.name})


def _token(session: Any, ctx: ScanContext, ref: CardRef) -> list[Message]:
    token = Token[ref.name.upper()]
    state = session.state
    ctx.private = None
    ctx.answer_first = None
    if state.phase is not Phase.ACTION:
        if state.phase is Phase.REVEAL and token is Token.SECRET:
            return session.execute(Ask(Query.WHAT))  # the Secret token turned over: "reveal"
        return session.execute(Choose(token))  # the session says why not now
    player = state.to_move
    owner = ctx.token_owner(ref.copy, session)
    if owner is not None and owner != player:
        return [refusal("other_players_token", {"player": session.names[owner], "token": token})]
    if token in (Token.SECRET, Token.DISCARD):
        if token not in state.players[player].tokens:
            return session.execute(Choose(token))  # "already used this round"
        session.abandon_pending()  # a half-laid offer is abandoned for this action
        ctx.private = PrivateChoice(token, player, state, ref)
        return [_private_prompt(session, ctx.private)]
    messages = session.execute(Choose(token))
    if isinstance(session.pending, Choose) and session.pending.token is token:
        ctx.building, ctx.building_for, ctx.building_token = [], session.pending, ref
    return messages


def _private_prompt(session: Any, choice: PrivateChoice) -> Message:
    """"Scan the card": read back in the player's earpiece, or, without one, kept unsaid."""
    key = P + ("scan_secret" if choice.token is Token.SECRET else "scan_discard")
    player = {"player": session.names[choice.player]}
    kept = Message("prompt", key + "_kept", player, player, Priority.PROMPT)
    return Message("prompt", key, player, player, Priority.PROMPT,
                   earpiece=choice.player, otherwise=kept)


def _item(session: Any, ctx: ScanContext, ref: CardRef, origin: Origin | None
          ) -> list[Message]:
    item = Item[ref.name.upper()]
    state = session.state
    if ctx.private is not None:
        return add_private(session, ctx, item, ref)
    if state.phase is Phase.ACTION:
        if not isinstance(session.pending, Choose):
            return [refusal("token_first")]
        why = ctx.copy_refusal(ref, session)
        return [why] if why is not None else _add_to_offer(session, ctx, item, ref, origin)
    if state.phase is Phase.ANSWER:
        if ctx.echo.repeats(session, ref, origin):
            return [_echo(session, item)]
        return _answer(session, ctx, item, ref)
    why = ctx.copy_refusal(ref, session)
    if why is not None:
        return [why]
    round_, steps = state.round, session.step
    messages = session.execute(Reveal(item))  # at scoring; after the game: "the game is over"
    if session.step > steps:
        ctx.record(session, [(0, ref)], round_)
    return messages


def _add_to_offer(session: Any, ctx: ScanContext, item: Item, ref: CardRef,
                  origin: Origin | None) -> list[Message]:
    choice: Choose = session.pending
    cards = (*choice.cards, item)
    slot = len(choice.cards)
    command: Any
    if len(cards) < choice.token.cards:
        command = Choose(choice.token, cards)
    elif choice.token is Token.GIFT:
        command = Gift(cards)  # type: ignore[arg-type]
    else:
        command = Competition(((cards[0], cards[1]), (cards[2], cards[3])))
    round_, steps, token_ref = session.state.round, session.step, ctx.building_token
    building = [*ctx.building, (slot, ref)]
    messages = session.execute(command)
    if session.step > steps:  # the offer is on the table: its copies are face up
        ctx.record(session, building, round_)
        ctx.record_token(session, token_ref)
        ctx.echo.remember(session, [r for _, r in building], origin)
        ctx.building, ctx.building_for, ctx.building_token = [], None, None
    elif isinstance(session.pending, Choose) and len(session.pending.cards) == len(cards):
        ctx.building, ctx.building_for = building, session.pending
    return messages


def _echo(session: Any, item: Item) -> Message:
    """An offered copy read again by the reader that laid it: not the opponent's choice."""
    chooser = session.names[session.state.to_move]
    return refusal("echo_offer", {"card": item, "player": chooser}, card=item.word)


def _answer(session: Any, ctx: ScanContext, item: Item, ref: CardRef) -> list[Message]:
    state = session.state
    offer = state.offer
    offered = [s for s in ctx.sightings if s.step == session.step - 1]
    if not any(s.ref == ref for s in offered):
        why = ctx.copy_refusal(ref, session)  # a copy already in front of a geisha
        if why is not None:
            return [why]
    count = 3 if isinstance(offer, Gift) else 4
    if len(offered) == count and all(s.ref != ref for s in offered):
        return [refusal("copy_not_offered", {"card": item})]  # every offered copy is known
    steps = session.step
    if isinstance(offer, Gift):
        messages = session.execute(TakeGift(item))
        if session.step > steps:
            ctx.picks[steps] = (ref, session.log[steps][0].text())
        return messages
    assert isinstance(offer, Competition)
    known = next((s for s in offered if s.ref == ref), None)
    holding = [i for i, pair in enumerate(offer.pairs) if item in pair]
    if known is not None:
        pair = known.slot // 2  # this very copy was scanned into a pair
    elif ctx.answer_first is not None:
        first = ctx.answer_first[0]
        both = [i for i in holding if sorted(offer.pairs[i]) == sorted((first, item))]
        pair = both[0] if both else -1
    elif len(holding) == 2 and offer.pairs[0] != offer.pairs[1]:
        ctx.answer_first = (item, ref, state)
        return [Message("prompt", P + "which_pair", {"card": item}, priority=Priority.PROMPT)]
    else:
        pair = holding[0] if holding else -1
    ctx.answer_first = None
    if pair < 0:  # the rules' own words: no pair holds that card
        return session.refuse(IllegalAction(
            "not_a_pair", "no pair of the competition holds those cards", cards=(item,),
            offer=offer))
    return session.execute(TakePair(pair))


# -- Secret and Discard: private scans --------------------------------------------------------
def add_private(session: Any, ctx: ScanContext, item: Item, ref: CardRef | None) -> list[Message]:
    """One card of a Secret/Discard: read back only to its player; applied when complete."""
    choice = ctx.private
    assert choice is not None
    player = choice.player
    if ref is not None:
        why = ctx.copy_refusal(ref, session, private_to=player)
        if why is None and any(r == ref for _, r in choice.cards):
            why = refusal("copy_private", {"card": item}, player)
        if why is not None:
            return [why, _private_refused(session, player)]
    choice.cards.append((item, ref))
    if choice.missing > 0:
        # Read back in the earpiece; only a player without one hears, with the table, that
        # a card was read (never which): with one, the table hears what an unnamed Discard
        # makes it hear.
        read = Message("scan", P + "card_read", {"i": len(choice.cards), "n": int(choice.token)})
        return [Message("private", P + "private_card_discard",
                        {"cards": tuple(c for c, _ in choice.cards), "n": choice.missing},
                        private_to=player, otherwise=read)]
    return apply_private(session, ctx)


def apply_private(session: Any, ctx: ScanContext, unnamed: bool = False) -> list[Message]:
    """Play the Secret/Discard now, with its cards (or unnamed), checking privately first."""
    choice = ctx.private
    assert choice is not None
    cards = tuple(c for c, _ in choice.cards)
    action: Secret | Discard
    if choice.token is Token.SECRET:
        action = Secret(None if unnamed else cards[0])
    else:
        action = Discard(None if unnamed else (cards[0], cards[1]))
    try:
        messages = session.attempt(action)  # a public refusal would name the cards
    except CompanionError as error:
        choice.cards.pop()
        reason = Message("error", f"error.{error.key}", dict(error.params),
                         {"code": error.key}, Priority.REFUSAL, choice.player)
        return [reason, _private_refused(session, choice.player)]
    ctx.private = None
    ctx.record_token(session, choice.token_ref)
    return messages


def _private_refused(session: Any, player: int) -> Message:
    return refusal("private_refused", {"player": session.names[player]})


def private_prompt(session: Any) -> list[Message] | None:
    """The Secret/Discard prompt again (keypad star), or None when none is waiting."""
    ctx = context_for(session)
    ctx.prune(session)
    return None if ctx.private is None else [_private_prompt(session, ctx.private)]


def private_keys(session: Any, line: str) -> list[Message] | None:
    """A keypad line during a scanned Secret/Discard: card positions, or Enter to keep them
    unnamed. None when no Secret/Discard is waiting (the line goes to the session)."""
    ctx = context_for(session)
    ctx.prune(session)
    if ctx.private is None:
        return None
    if not line:
        return apply_private(session, ctx, unnamed=True)
    out: list[Message] = []
    for digit in line:
        if not "1" <= digit <= "7":
            return out + [Message("error", "error.bad_position", {"digit": digit},
                                  {"code": "bad_position"}, Priority.REFUSAL)]
        out = add_private(session, ctx, Item(int(digit)), None)
        if ctx.private is None:
            break
    return out


def cancel_private(session: Any) -> bool:
    """Drop a waiting Secret/Discard (keypad 0 or minus); True if there was one."""
    ctx = context_for(session)
    ctx.prune(session)
    had = ctx.private is not None or ctx.answer_first is not None
    ctx.private = None
    ctx.answer_first = None
    return had
