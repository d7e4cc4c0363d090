"""Why a hint suggests its move, in words about this move's geishas.

Each geisha the move touches is judged from what the asking seat may know (its
Observation: the public table, its own hand, Secret and Discard): already won (the other
side cannot reach her any more, even with every card of hers not yet placed), already lost
(the same, the other way), or still open, with who leads and by how much, or tied and
where her marker is. The seat's own Secret counts for it: it will be revealed on its side.
Nothing hidden from the seat reaches a judgement, so the same knowledge gives the same
words (tests/test_practice.py's privacy property).
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from companion.games.hanamikoji import opponent
from companion.games.hanamikoji.actions import (
    Action,
    Competition,
    Discard,
    Gift,
    Reveal,
    Secret,
    TakeGift,
    TakePair,
)
from companion.games.hanamikoji.data import GEISHAS, Item
from companion.games.hanamikoji.rules import offer_cards
from companion.narrate.message import Message

# the judgements, by message key (the catalogues' hint_* sentences)
WON, LOST, LEAD, BEHIND, TIED, OPEN = (
    "hint_won", "hint_lost", "hint_lead", "hint_behind", "hint_tied", "hint_open")
DECIDED = (WON, LOST)
GROUPED = (WON, LOST, OPEN)  # said of several geishas at once (no counts of their own)


def judge(item: Item, obs: opponent.Observation) -> Message:
    """Where geisha `item` stands for `obs.seat`, as one judged part of a sentence."""
    me, other = obs.seat, 1 - obs.seat
    i = item - 1
    mine = obs.sides[me][i] + (obs.secret == item)
    theirs = obs.sides[other][i]
    # her cards not yet placed, that could still reach either side: unseen (the other
    # hand, Secret and Discard, the pile, the removed card), in the seat's hand, offered
    free = (Counter(opponent.unseen_cards(obs))[item] + obs.hand.count(item)
            + (offer_cards(obs.offer).count(item) if obs.offer is not None else 0))
    marker = obs.favours[i]
    geisha = Message("", "hint_geisha", {"geisha": GEISHAS[i], "points": GEISHAS[i].points})
    if mine > theirs + free or (mine == theirs + free and marker == me):
        return Message("", WON, {"geisha": (geisha,), "n": 1})
    if theirs > mine + free or (theirs == mine + free and marker == other):
        return Message("", LOST, {"geisha": (geisha,), "n": 1})
    if mine == theirs == 0 and marker is None:
        return Message("", OPEN, {"geisha": (geisha,), "n": 1})
    key = LEAD if mine > theirs else BEHIND if mine < theirs else TIED
    if key == TIED and marker is not None:
        key = "hint_tied_yours" if marker == me else "hint_tied_theirs"
    return Message("", key, {"geisha": geisha, "mine": mine, "theirs": theirs})


def judged(cards: tuple[Item, ...], obs: opponent.Observation) -> tuple[Message, ...]:
    """The judgement of each geisha of `cards`, in the geishas' order; geishas already
    won, already lost or still open are said together ("Iroha and Tomoyo are still
    open"), where the first of them comes."""
    parts: list[Message] = []
    for item in sorted(set(cards)):
        part = judge(item, obs)
        same = next((k for k, p in enumerate(parts)
                     if part.key in GROUPED and p.key == part.key), None)
        if same is None:
            parts.append(part)
            continue
        geishas = parts[same].params["geisha"] + part.params["geisha"]
        parts[same] = Message("", part.key, {"geisha": geishas, "n": len(geishas)})
    return tuple(parts)


def kept(spent: tuple[Item, ...], obs: opponent.Observation) -> Message | str:
    """What the seat keeps in hand for later and why: the cards of the geisha still open
    that is worth most among those left after `spent` (another geisha than the move's,
    when there is one); "" when none is left open."""
    left = Counter(obs.hand)
    left.subtract(spent)
    open_ = [(item, j) for item in sorted(set(left.elements()))
             for j in (judge(item, obs),) if j.key not in DECIDED]
    open_ = [(item, j) for item, j in open_ if item not in spent] or open_
    if not open_:
        return ""
    item, judgement = max(open_, key=lambda pair: (pair[0].points, left[pair[0]]))
    return Message("", "hint_keep", {"cards": (item,) * left[item], "why": (judgement,)})


def given(cards: tuple[Item, ...], taken: tuple[Item, ...],
          obs: opponent.Observation) -> Message:
    """What the other seat gets when this seat takes `taken`, judged for the geishas not
    judged already (the cards alone when all were)."""
    others = tuple(sorted(set(cards) - set(taken)))
    if not others:
        return Message("", "hint_others_bare", {"cards": cards})
    return Message("", "hint_others", {"cards": cards, "why": judged(others, obs)})


def reason(action: Action, obs: opponent.Observation) -> tuple[str, dict[str, Any]]:
    """The hint's key and its words: the move, and why, about this move's geishas."""
    if isinstance(action, Secret):
        assert action.card is not None
        return "hint_secret", {"card": action.card, "why": judged((action.card,), obs)}
    if isinstance(action, Discard):
        assert action.cards is not None
        return "hint_discard", {"cards": action.cards, "why": judged(action.cards, obs),
                                "keep": kept(action.cards, obs)}
    if isinstance(action, Gift):
        return "hint_gift", {"cards": action.cards, "why": judged(action.cards, obs),
                             "keep": kept(action.cards, obs)}
    if isinstance(action, Competition):
        cards = offer_cards(action)
        return "hint_competition", {"first": action.pairs[0], "second": action.pairs[1],
                                    "why": judged(cards, obs), "keep": kept(cards, obs)}
    if isinstance(action, TakeGift):
        assert isinstance(obs.offer, Gift)
        rest = list(obs.offer.cards)
        rest.remove(action.card)
        return "hint_take", {"card": action.card, "why": judged((action.card,), obs),
                             "others": given(tuple(rest), (action.card,), obs)}
    if isinstance(action, TakePair):
        assert isinstance(obs.offer, Competition)
        pair, rest = obs.offer.pairs[action.index], obs.offer.pairs[1 - action.index]
        return "hint_take_pair", {"pair": action.index + 1, "cards": pair,
                                  "why": judged(pair, obs), "others": given(rest, pair, obs)}
    assert isinstance(action, Reveal)
    return "hint_reveal", {"card": action.card}
