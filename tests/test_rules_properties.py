"""Random legal games: invariants of the engine, table replay, text forms, a perft count.

The sides, hands and endings are tracked here independently of the engine (from the
actions alone) and compared with what the engine reports.
"""

from __future__ import annotations

from collections import Counter
from itertools import combinations_with_replacement

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.games.hanamikoji.actions import (
    Action,
    Competition,
    Deal,
    Discard,
    Gift,
    Reveal,
    Secret,
    TakeGift,
    TakePair,
    parse_action,
)
from companion.games.hanamikoji.data import ITEMS, Item, full_deck
from companion.games.hanamikoji.rules import (
    GameOver,
    Phase,
    RoundScored,
    RuleSet,
    State,
    apply,
    game_result,
    legal_actions,
    new_game,
    offer_cards,
)

MAX_ROUNDS_PLAYED = 8  # classic games could in principle go on; random ones end quickly
CARDS = {Secret: 1, Discard: 2, Gift: 3, Competition: 4}
PROPS = settings(
    max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)


def deal_from(perm: list[Item]) -> Deal:
    return Deal(perm[0], (tuple(perm[1:7]), tuple(perm[7:13])), tuple(perm[13:]))


def accounted(state: State) -> Counter[Item]:
    """Every card of the round wherever it lies (full information)."""
    where: Counter[Item] = Counter()
    for p in state.players:
        where.update(p.hand.known)
        where.update(p.discard)
        if p.secret is not None:
            where[p.secret] += 1
        for item, n in zip(ITEMS, p.side, strict=True):
            where[item] += n
    where.update(c for c in state.pile if c is not None)
    if state.removed is not None:
        where[state.removed] += 1
    if state.offer is not None:
        where.update(offer_cards(state.offer))
    return where


def oracle_end(rules: RuleSet, rnd: int, geishas: tuple[int, int], points: tuple[int, int]):
    """Whether the game is over, from the rules text (not from the engine)."""
    if any(g >= 4 or p >= 11 for g, p in zip(geishas, points, strict=True)):
        return True
    return rules is not RuleSet.CLASSIC and rnd >= 3


def play_random(data: st.DataObject, rules: RuleSet, starter: int) -> tuple[State, list[Action]]:
    """A random full-information game, checking invariants after every step."""
    state = new_game(rules, full_information=True, starter=starter)
    log: list[Action] = []
    sides = [[0] * 7, [0] * 7]
    used: list[list[type]] = [[], []]
    while not state.over and state.round <= MAX_ROUNDS_PLAYED:
        if state.phase is Phase.DEAL:
            perm = data.draw(st.permutations(full_deck()), label="deal")
            action: Action = deal_from(perm)
            sides = [[0] * 7, [0] * 7]
            used = [[], []]
        else:
            options = list(legal_actions(state))
            assert options, f"no legal action in {state.phase}"
            texts = [a.text() for a in options]
            assert len(set(texts)) == len(texts), "two legal actions share a text"
            for a in options:
                assert parse_action(a.text()) == a
            action = data.draw(st.sampled_from(options), label="action")
        mover = state.to_move
        offer = state.offer
        round_before, favours_before = state.round, state.favours
        new, events = apply(state, action)
        log.append(action)
        assert parse_action(action.text()) == action

        # independent bookkeeping of the sides and the tokens
        if type(action) in CARDS:
            assert type(action) not in used[mover], "a token used twice in a round"
            used[mover].append(type(action))
        if isinstance(action, (TakeGift, TakePair)):
            assert offer is not None
            if isinstance(action, TakeGift):
                rest = list(offer_cards(offer))
                rest.remove(action.card)
                got, kept = [action.card], rest
            else:
                assert isinstance(offer, Competition)
                got, kept = list(offer.pairs[action.index]), list(offer.pairs[1 - action.index])
            for c in got:
                sides[mover][c - 1] += 1
            for c in kept:
                sides[1 - mover][c - 1] += 1
        if isinstance(action, Reveal):
            sides[mover][action.card - 1] += 1

        scored = [e for e in events if isinstance(e, RoundScored)]
        if scored:
            check_scoring(scored[0], sides, favours_before, rules, round_before, new)
        else:
            assert new.round == round_before
            check_round_state(new, sides, used)
        state = new
    return state, log


def check_round_state(state: State, sides: list[list[int]], used: list[list[type]]) -> None:
    if state.phase is Phase.DEAL:
        return
    assert accounted(state) == Counter(full_deck())  # all 21 cards, each once
    for p, me in enumerate(state.players):
        assert list(me.side) == sides[p]
        assert me.hand.unknown == 0
        assert len(me.tokens) + len(used[p]) == 4
        played = sum(CARDS[t] for t in used[p])
        assert me.hand.size == 6 + len(used[p]) - played  # one draw per action
    assert len(state.pile) == 8 - len(used[0]) - len(used[1])
    if state.phase is Phase.REVEAL:
        assert [p.hand.size for p in state.players] == [0, 0]


def check_scoring(
    event: RoundScored,
    sides: list[list[int]],
    before: tuple[int | None, ...],
    rules: RuleSet,
    rnd: int,
    new: State,
) -> None:
    assert [list(s) for s in event.sides] == sides
    assert event.before == before
    for g in range(7):
        a, b = sides[0][g], sides[1][g]
        expected = 0 if a > b else 1 if b > a else before[g]  # strict majority only
        assert event.favours[g] == expected
    geishas = (event.favours.count(0), event.favours.count(1))
    points = tuple(
        sum(item.points for item, f in zip(ITEMS, event.favours, strict=True) if f == p)
        for p in (0, 1)
    )
    assert event.geishas == geishas and event.points == points
    assert sum(points) <= 21 and sum(geishas) <= 7
    result = game_result(rules, rnd, geishas, points)  # type: ignore[arg-type]
    assert (result is not None) == oracle_end(rules, rnd, geishas, points)  # type: ignore[arg-type]
    assert new.over == (result is not None)
    assert new.favours == event.favours
    if result is None:
        assert new.round == rnd + 1 and new.phase is Phase.DEAL
    else:
        assert new.winners == result[0]


def table_view(log: list[Action]) -> list[Action]:
    """The same game as a table sees it: no Deal, Secret and Discard cards hidden."""
    out: list[Action] = []
    for action in log:
        if isinstance(action, Deal):
            continue
        if isinstance(action, Secret):
            action = Secret()
        elif isinstance(action, Discard):
            action = Discard()
        out.append(action)
    return out


@PROPS
@given(data=st.data(), rules=st.sampled_from(list(RuleSet)), starter=st.sampled_from([0, 1]))
def test_random_games_keep_invariants_and_replay_at_the_table(
    data: st.DataObject, rules: RuleSet, starter: int
) -> None:
    full, log = play_random(data, rules, starter)

    table = new_game(rules, full_information=False, starter=starter)
    events: list[object] = []
    for action in table_view(log):
        table, new = apply(table, action)
        events.extend(new)
    assert table.favours == full.favours
    assert table.points() == full.points() and table.geishas() == full.geishas()
    assert table.round == full.round and table.over == full.over
    assert table.winners == full.winners
    if full.over:
        over = [e for e in events if isinstance(e, GameOver)]
        assert len(over) == 1 and over[0].winners == full.winners


# --- perft: legal actions at the first turn, counted from the hand multiset ------------------


def multisets(counts: Counter[Item], k: int) -> list[tuple[Item, ...]]:
    """Distinct sub-multisets of size k (sorted tuples) of a multiset."""
    return [
        combo
        for combo in combinations_with_replacement(sorted(counts), k)
        if all(combo.count(c) <= counts[c] for c in set(combo))
    ]


def size_k_submultisets(counts: Counter[Item], k: int) -> int:
    """Coefficient of x^k in prod (1 + x + ... + x^c): the generating function count."""
    poly = [1]
    for c in counts.values():
        new = [0] * (len(poly) + c)
        for i, v in enumerate(poly):
            for j in range(c + 1):
                new[i + j] += v
        poly = new
    return poly[k] if k < len(poly) else 0


def expected_first_turn(hand: Counter[Item]) -> int:
    secret = size_k_submultisets(hand, 1)
    discard = size_k_submultisets(hand, 2)
    gift = size_k_submultisets(hand, 3)
    # A competition is an ordered pair of pairs (the answer names pair 1 or pair 2).
    competition = 0
    for first in multisets(hand, 2):
        rest = hand - Counter(first)
        competition += size_k_submultisets(rest, 2)
    return secret + discard + gift + competition


@given(perm=st.permutations(full_deck()))
@settings(max_examples=40, deadline=None)
def test_perft_first_turn_random_deals(perm: list[Item]) -> None:
    deal = deal_from(perm)
    state, _ = apply(new_game(full_information=True), deal)
    hand = Counter(deal.hands[0]) + Counter([deal.pile[0]])
    actions = list(legal_actions(state))
    assert len(actions) == expected_first_turn(hand)
    assert len(set(actions)) == len(actions)
    # and every one of them is accepted
    for action in actions:
        apply(state, action)


def test_perft_first_turn_fixed_deal() -> None:
    F, N, T, W = Item.FLUTE, Item.FAN, Item.TEA, Item.FLOWER
    rest = Counter(full_deck()) - Counter([F, N, N, T, T, T, W])
    others = sorted(rest.elements())  # 14 cards: removed, player 1's hand, 7 more draws
    deal = Deal(others[0], ((F, N, N, T, T, T), tuple(others[1:7])), (W, *others[7:]))
    state, _ = apply(new_game(full_information=True), deal)
    # hand with the draw: flute, 2 fans, 3 teas, flower (4 kinds)
    # Secret 4; Discard: 6 pairs of kinds + 2 doubles = 8;
    # Gift: [x^3] (1+x)^2 (1+x+x^2)(1+x+x^2+x^3) = 3 + 6 + 2 = 11.
    hand = Counter([F, N, N, T, T, T, W])
    assert size_k_submultisets(hand, 1) == 4
    assert size_k_submultisets(hand, 2) == 8
    assert size_k_submultisets(hand, 3) == 11
    by_kind = Counter(type(a) for a in legal_actions(state))
    assert by_kind[Secret] == 4 and by_kind[Discard] == 8 and by_kind[Gift] == 11
    assert sum(by_kind.values()) == expected_first_turn(hand)
