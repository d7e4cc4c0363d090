"""The Hanamikoji rules engine against the rules in the seeds (000 IELLO FR, 001 UK,
002 ES with its optional rule, 003 FR FAQ).

Rounds are played for real through `apply`: a scripted round is described by the eight
face-up cards each player should end with (their side, Secret included) and the five
cards nobody sees (two Discards and the removed card); the script turns that into the
round's actions, in both full-information mode (with a Deal) and table mode (hidden hands).
"""

from __future__ import annotations

import copy
from collections import Counter
from collections.abc import Sequence

import pytest

from companion.errors import IllegalAction, InvalidCommand
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
from companion.games.hanamikoji.data import (
    COPIES,
    DECK_SIZE,
    HAND_SIZE,
    PILE_SIZE,
    Item,
    Token,
    full_deck,
)
from companion.games.hanamikoji.rules import (
    GameOver,
    Phase,
    PrivateDropped,
    RoundScored,
    RoundStarted,
    RuleSet,
    State,
    apply,
    game_result,
    new_game,
    replay,
)

F, N, S, U, H, T, W = (
    Item.FLUTE, Item.FAN, Item.SCROLL, Item.UMBRELLA, Item.SHAMISEN, Item.TEA, Item.FLOWER,
)
AYANE, IROHA, TOMOYO, YOKO, CHIHARU, ANJU, RURI = range(7)  # indexes into State.favours


def items(words: str) -> list[Item]:
    return [Item[w.upper()] for w in words.split()]


# --- scripted rounds ---------------------------------------------------------------------


def round_actions(
    state: State,
    side0: str,
    side1: str,
    unseen: str,
    *,
    tell: bool = False,
) -> list[Action]:
    """The actions of one round that leave `side0`/`side1` face up (8 cards each).

    Side layout: [secret, gift kept x2, taken from the other's gift, competition pair
    kept x2, pair taken from the other's competition x2]. `unseen` is 5 cards: player 0's
    Discard, player 1's Discard, the removed card. Each player plays Secret, Discard,
    Gift, Competition in that order; the round's starter comes first.
    """
    a, b = items(side0), items(side1)
    hidden = items(unseen)
    assert len(a) == len(b) == 8 and len(hidden) == 5
    discards = ((hidden[0], hidden[1]), (hidden[2], hidden[3]))
    sides = (a, b)
    full = state.full_information

    def secret(p: int) -> Secret:
        return Secret(sides[p][0] if full or tell else None)

    def discard(p: int) -> Discard:
        return Discard(discards[p] if full or tell else None)

    def gift(p: int) -> Gift:
        me, other = sides[p], sides[1 - p]
        return Gift((me[1], me[2], other[3]))

    def competition(p: int) -> Competition:
        me, other = sides[p], sides[1 - p]
        return Competition(((me[4], me[5]), (other[6], other[7])))

    s, o = state.starter, 1 - state.starter
    out: list[Action] = []
    if full:
        assert Counter(a + b + hidden) == Counter(full_deck())
        hands = []
        draws = []
        for p in (0, 1):
            gift_cards = gift(p).cards
            comp = competition(p).pairs
            hands.append((sides[p][0], *discards[p], *gift_cards))
            draws.append(comp[0] + comp[1])
        pile = tuple(card for turn in zip(draws[s], draws[o], strict=True) for card in turn)
        out.append(Deal(hidden[4], (hands[0], hands[1]), pile))
    out += [secret(s), secret(o), discard(s), discard(o)]
    out += [gift(s), TakeGift(sides[o][3]), gift(o), TakeGift(sides[s][3])]
    out += [competition(s), TakePair(1), competition(o), TakePair(1)]
    out += [Reveal(sides[s][0]), Reveal(sides[o][0])]
    return out


def play(state: State, actions: Sequence[Action]) -> tuple[State, list[object]]:
    events: list[object] = []
    for action in actions:
        state, new = apply(state, action)
        events.extend(new)
    return state, events


def play_round(state: State, side0: str, side1: str, unseen: str, **kw: bool):
    return play(state, round_actions(state, side0, side1, unseen, **kw))


MODES = pytest.mark.parametrize("full", [True, False], ids=["full", "table"])

# Seed 000's Ayane example, as three rounds. Side 0 is the top player, side 1 the bottom.
# Round 1: only the top player gives Ayane a card (it is their Secret); Iroha goes bottom.
R1 = ("flute tea tea flower flower umbrella shamisen scroll",
      "fan tea tea flower flower umbrella shamisen scroll",
      "flute fan umbrella shamisen flower")
# Round 2: nobody gives Ayane a card (0-0), Iroha 1-1: every geisha tied.
R2 = ("fan tea tea flower flower umbrella shamisen scroll",
      "fan tea tea flower flower umbrella shamisen scroll",
      "flute flute umbrella shamisen flower")
# Round 3: only the bottom player gives Ayane a card (their Secret); Iroha goes top.
R3 = ("fan tea tea flower flower umbrella shamisen scroll",
      "flute tea tea flower flower umbrella shamisen scroll",
      "flute fan umbrella shamisen flower")


# --- seed 000: the Ayane marker across three rounds -----------------------------------------


@MODES
def test_ayane_marker_moves_top_stays_then_moves_bottom(full: bool) -> None:
    state = new_game(RuleSet.IELLO, full_information=full, starter=0)
    state, _ = play_round(state, *R1)
    assert state.round == 2
    assert state.favours[AYANE] == 0  # only the top player gave Ayane a card
    assert state.favours[IROHA] == 1
    assert all(f is None for i, f in enumerate(state.favours) if i not in (AYANE, IROHA))

    state, _ = play_round(state, *R2)
    assert state.round == 3
    assert state.favours[AYANE] == 0  # nobody gave her a card: her marker stays
    assert state.favours[IROHA] == 1  # 1-1 tie: stays too

    state, events = play_round(state, *R3)
    assert state.favours[AYANE] == 1  # only the bottom player: moves to the bottom
    assert state.favours[IROHA] == 0
    scored = [e for e in events if isinstance(e, RoundScored)]
    assert len(scored) == 1
    assert scored[0].before[AYANE] == 0 and scored[0].favours[AYANE] == 1


@MODES
def test_markers_carry_across_rounds_and_stay_on_ties(full: bool) -> None:
    state = new_game(RuleSet.CLASSIC, full_information=full)
    state, _ = play_round(state, *R1)
    after_one = state.favours
    state, events = play_round(state, *R2)
    scored = next(e for e in events if isinstance(e, RoundScored))
    assert scored.sides[0] == scored.sides[1]  # every geisha tied, including Ayane at 0-0
    assert scored.sides[0][AYANE] == 0
    assert scored.before == after_one
    assert state.favours == after_one


# --- three rule sets at the end of round 3 ---------------------------------------------------


@MODES
def test_iello_after_three_rounds_equal_points_no_winner(full: bool) -> None:
    state = new_game(RuleSet.IELLO, full_information=full)
    for script in (R1, R2, R3):
        state, events = play_round(state, *script)
    assert state.points() == (2, 2) and state.geishas() == (1, 1)
    assert state.over and state.phase is Phase.OVER
    assert state.winners == ()
    assert [e for e in events if isinstance(e, GameOver)] == [GameOver((), "after_rounds_tie")]


@MODES
def test_es_optional_after_three_rounds_all_equal_both_win(full: bool) -> None:
    state = new_game(RuleSet.ES_OPTIONAL, full_information=full)
    for script in (R1, R2, R3):
        state, _ = play_round(state, *script)
    assert state.over
    assert set(state.winners or ()) == {0, 1}


@MODES
def test_classic_goes_on_to_round_four(full: bool) -> None:
    state = new_game(RuleSet.CLASSIC, full_information=full)
    for script in (R1, R2, R3):
        state, events = play_round(state, *script)
    assert not state.over and state.winners is None
    assert state.round == 4
    assert RoundStarted(4, 1) in events  # rounds started by 0, 1, 0, then 1
    assert state.starter == 1
    # Round 4 is really playable, with the markers of round 3 still in place.
    state, _ = play_round(state, *R2)
    assert state.round == 5 and state.favours[AYANE] == 1


@pytest.mark.parametrize("rules", list(RuleSet))
def test_rounds_one_and_two_never_end_without_a_win(rules: RuleSet) -> None:
    for rnd in (1, 2):
        assert game_result(rules, rnd, (3, 2), (7, 9)) is None
        assert game_result(rules, rnd, (0, 0), (0, 0)) is None


def test_after_round_three_each_rule_set() -> None:
    # 3 geishas / 7 points against 2 geishas / 9 points, nobody has won.
    assert game_result(RuleSet.IELLO, 3, (3, 2), (7, 9)) == ((1,), "after_rounds_points")
    assert game_result(RuleSet.CLASSIC, 3, (3, 2), (7, 9)) is None
    assert game_result(RuleSet.CLASSIC, 9, (3, 2), (7, 9)) is None
    es = game_result(RuleSet.ES_OPTIONAL, 3, (3, 2), (7, 9))
    assert es is not None and es[0] == (0,)  # most geishas first
    es = game_result(RuleSet.ES_OPTIONAL, 3, (2, 2), (4, 6))
    assert es is not None and es[0] == (1,)  # equal geishas: most points
    es = game_result(RuleSet.ES_OPTIONAL, 3, (2, 2), (5, 5))
    assert es is not None and set(es[0]) == {0, 1}
    assert game_result(RuleSet.IELLO, 3, (2, 2), (5, 5)) == ((), "after_rounds_tie")
    assert game_result(RuleSet.IELLO, 3, (1, 3), (8, 6)) == ((0,), "after_rounds_points")


# --- victory conditions ------------------------------------------------------------------


@pytest.mark.parametrize("rules", list(RuleSet))
def test_victory_conditions_by_game_result(rules: RuleSet) -> None:
    # Seed 000's example: Ayane+Yoko+Chiharu = 8 against Iroha+Anju+Ruri = 11.
    assert 2 + 3 + 3 == 8 and 2 + 4 + 5 == 11
    assert game_result(rules, 1, (3, 3), (8, 11)) == ((1,), "points")
    assert game_result(rules, 1, (3, 3), (11, 8)) == ((0,), "points")
    # The top player had also Tomoyo (4 geishas, 10 points): 11 points still wins.
    assert game_result(rules, 1, (4, 3), (10, 11)) == ((1,), "points_over_geishas")
    assert game_result(rules, 2, (3, 4), (11, 10)) == ((0,), "points_over_geishas")
    assert game_result(rules, 1, (4, 2), (9, 8)) == ((0,), "geishas")
    assert game_result(rules, 2, (1, 4), (5, 8)) == ((1,), "geishas")
    assert game_result(rules, 1, (2, 1), (11, 2)) == ((0,), "points")
    assert game_result(rules, 1, (3, 2), (10, 4)) is None  # 10 points and 3 geishas: not yet


@MODES
def test_seed_example_11_points_beats_4_geishas_played(full: bool) -> None:
    state = new_game(RuleSet.IELLO, full_information=full)
    state, events = play_round(
        state,
        "flute flute scroll scroll umbrella umbrella shamisen shamisen",
        "fan fan tea tea tea flower flower flower",
        "umbrella shamisen tea flower flower",
    )
    top = [state.favours[g] for g in (AYANE, TOMOYO, YOKO, CHIHARU)]
    bottom = [state.favours[g] for g in (IROHA, ANJU, RURI)]
    assert top == [0, 0, 0, 0] and bottom == [1, 1, 1]
    assert state.geishas() == (4, 3) and state.points() == (10, 11)
    assert state.over and state.winners == (1,)
    assert GameOver((1,), "points_over_geishas") in events


@MODES
def test_seed_example_8_against_11_points_played(full: bool) -> None:
    state = new_game(RuleSet.IELLO, full_information=full)
    state, events = play_round(
        state,
        "flute flute umbrella umbrella shamisen shamisen scroll tea",
        "fan fan tea tea flower flower flower scroll",
        "umbrella shamisen tea flower flower",
    )
    assert state.favours[TOMOYO] is None  # scroll 1-1
    assert state.geishas() == (3, 3) and state.points() == (8, 11)
    assert state.over and state.winners == (1,)
    assert GameOver((1,), "points") in events


@MODES
def test_four_geishas_win_played(full: bool) -> None:
    state = new_game(RuleSet.CLASSIC, full_information=full, starter=1)
    state, events = play_round(
        state,
        "flute fan scroll umbrella tea tea flower flower",
        "tea tea flower flower flower shamisen shamisen shamisen",
        "flute fan scroll umbrella umbrella",
    )
    assert state.geishas() == (4, 2) and state.points() == (9, 8)
    assert state.over and state.winners == (0,)
    assert GameOver((0,), "geishas") in events


# --- Secret counted, Discard never -----------------------------------------------------


@MODES
def test_secret_is_counted_at_scoring(full: bool) -> None:
    state = new_game(RuleSet.IELLO, full_information=full)
    actions = round_actions(state, *R1)
    before_reveal, _ = play(state, actions[:-2])
    assert before_reveal.phase is Phase.REVEAL
    # Player 0's only flute is the Secret: face down, not on the side yet.
    assert before_reveal.players[0].side[AYANE] == 0
    after, _ = play(before_reveal, actions[-2:])
    assert after.favours[AYANE] == 0


@pytest.mark.parametrize("tell", [True, False])
def test_discard_is_never_counted(tell: bool) -> None:
    # Every geisha tied on the sides; player 0 discards both flutes.
    for full in (True, False):
        state = new_game(RuleSet.IELLO, full_information=full)
        actions = round_actions(state, *R2, tell=tell)
        assert Discard((F, F)) in actions or not (full or tell)
        state, events = play(state, actions)
        assert state.favours == (None,) * 7
        scored = next(e for e in events if isinstance(e, RoundScored))
        assert scored.sides[0][AYANE] == 0


# --- who starts ----------------------------------------------------------------------------


@MODES
@pytest.mark.parametrize("first", [0, 1])
def test_other_player_starts_next_round(full: bool, first: int) -> None:
    state = new_game(RuleSet.CLASSIC, full_information=full, starter=first)
    assert state.round == 1 and state.starter == first
    if full:
        assert state.phase is Phase.DEAL
        dealt, _ = apply(state, round_actions(state, *R1)[0])
        assert dealt.to_move == first
    else:
        assert state.to_move == first
    state, events = play_round(state, *R1)
    assert state.starter == 1 - first
    assert RoundStarted(2, 1 - first) in events
    if not full:
        assert state.to_move == 1 - first
    state, _ = play_round(state, *R2)
    assert state.starter == first


def test_turns_alternate_and_offers_are_answered_by_the_other() -> None:
    state = new_game(RuleSet.IELLO, starter=1)
    actions = round_actions(state, *R1)
    expected_movers = [1, 0, 1, 0, 1, 0, 0, 1, 1, 0, 0, 1, 1, 0]
    movers = []
    for action in actions:
        movers.append(state.to_move)
        state, _ = apply(state, action)
    assert movers == expected_movers


# --- hand arithmetic -----------------------------------------------------------------------


def test_hand_arithmetic_full_information() -> None:
    assert (DECK_SIZE, HAND_SIZE, PILE_SIZE) == (21, 6, 8)
    state = new_game(RuleSet.IELLO, full_information=True)
    actions = round_actions(state, *R1)
    state, _ = apply(state, actions[0])
    assert [p.hand.size for p in state.players] == [6, 6]
    assert len(state.pile) == 8 and state.removed is not None
    used = [0, 0]
    draws = [0, 0]
    for action in actions[1:-2]:
        actor = state.to_move
        if isinstance(action, (Secret, Discard, Gift, Competition)):
            draws[actor] += 1
            used[actor] += {Secret: 1, Discard: 2, Gift: 3, Competition: 4}[type(action)]
        state, _ = apply(state, action)
        for p in (0, 1):
            assert state.players[p].hand.size == 6 + draws[p] - used[p]
            assert state.players[p].hand.unknown == 0
        assert len(state.pile) == 8 - sum(draws)
    assert state.phase is Phase.REVEAL
    assert [p.hand.size for p in state.players] == [0, 0]
    assert state.pile == ()


def test_hand_arithmetic_table_unknown_counts() -> None:
    state = new_game(RuleSet.IELLO)
    assert [p.hand.unknown for p in state.players] == [6, 6]
    assert [p.hand.known for p in state.players] == [(), ()]
    used = [0, 0]
    for action in round_actions(state, *R1)[:-2]:
        actor = state.to_move
        if isinstance(action, (Secret, Discard, Gift, Competition)):
            used[actor] += 1
            # the turn draws one, then the action takes its cards
            expected = state.players[actor].hand.unknown + 1 - _cards_of(action)
        else:
            expected = None
        state, _ = apply(state, action)
        if expected is not None:
            assert state.players[actor].hand.unknown == expected
    assert used == [4, 4]
    assert [p.hand.unknown for p in state.players] == [0, 0]
    assert len(state.pile) == 0


def _cards_of(action: Action) -> int:
    return {Secret: 1, Discard: 2, Gift: 3, Competition: 4}[type(action)]


# --- refusals --------------------------------------------------------------------------------


def refused(state: State, action: Action, key: str) -> IllegalAction:
    """Assert `action` is refused with `key` and leaves the state as it was."""
    before = copy.deepcopy(state)
    with pytest.raises(IllegalAction) as info:
        apply(state, action)
    assert info.value.key == key, str(info.value)
    assert state == before
    return info.value


def at(state: State, actions: Sequence[Action], n: int) -> State:
    return replay(state, actions[:n])


@MODES
def test_token_already_used_this_round(full: bool) -> None:
    start = new_game(full_information=full)
    actions = round_actions(start, *R1)
    offset = 1 if full else 0
    state = at(start, actions, offset + 2)  # both played their Secret
    assert Token.SECRET not in state.players[state.to_move].tokens
    refused(state, Secret(state.players[state.to_move].hand.known[0]) if full else Secret(),
            "token_used")
    # ...and again in the same round after the gifts
    state = at(start, actions, offset + 8)
    hand = state.players[state.to_move].hand.known
    refused(state, Gift(hand[:3]) if full else Gift((T, T, W)), "token_used")


def test_token_is_available_again_next_round() -> None:
    state = new_game(RuleSet.CLASSIC)
    state, _ = play_round(state, *R1)
    assert state.players[0].tokens == frozenset(Token)
    state, _ = apply(state, Secret())
    assert Token.SECRET not in state.players[1].tokens


def test_too_many_copies_face_up_on_both_sides() -> None:
    state = new_game()
    state = replay(state, [Gift((W, W, W)), TakeGift(W), Gift((W, W, N))])
    assert state.unseen()[W] == 0  # 3 flowers on the sides, 2 in the pending offer
    state = replay(state, [TakeGift(N)])
    # A Secret named as a sixth flower: the token is played, the naming dropped, and only
    # its player is told (the table's refusals count what the table has seen).
    told, events = apply(state, Secret(W))
    assert told.players[0].secret is None and told.players[0].tokens == (
        state.players[0].tokens - {Token.SECRET})
    assert PrivateDropped(0, "secret", W) in events
    refused(state, Competition(((W, T), (T, T))), "too_many_copies")
    state, _ = apply(state, Competition(((S, T), (T, T))))  # no flower: accepted


def test_too_many_copies_within_one_offer() -> None:
    state = new_game()
    refused(state, Gift((N, N, N)), "too_many_copies")  # the game has 2 fans
    refused(state, Competition(((F, F), (F, T))), "too_many_copies")
    state, _ = apply(state, Gift((N, N, W)))
    assert state.unseen()[N] == 0  # the pending offer counts as seen


def test_too_many_copies_counts_revealed_secrets() -> None:
    start = new_game()
    # Side 1 shows one flute face up (slot 3, given by player 0's gift); player 0's
    # Secret is a flute too, revealed first.
    actions = round_actions(
        start,
        "flute tea tea flower flower umbrella shamisen scroll",
        "tea tea flower flower flute umbrella shamisen scroll",
        "fan fan umbrella shamisen flower",
    )
    actions[-1] = Reveal(F)  # player 1 claims a third flute
    state = at(start, actions, len(actions) - 1)
    assert state.players[0].side[AYANE] == 1 and state.players[1].side[AYANE] == 1
    refused(state, Reveal(F), "too_many_copies")


def test_a_secret_told_privately_never_refuses_a_public_offer() -> None:
    """Both players told a flute as their Secret (the game has 2): a third flute offered is
    a public move the table saw, and is accepted; each told Secret on its own fits what
    the table has seen, so neither player is told anything (that would tell one the
    other's Secret)."""
    state = replay(new_game(), [Secret(F), Secret(F)])
    new, events = apply(state, Gift((F, N, T)))
    assert new.offer == Gift((F, N, T)) and not any(
        isinstance(e, PrivateDropped) for e in events)
    # A second flute shown: Ana's told flute cannot be any more, and she alone is told.
    new, _ = apply(new, TakeGift(N))
    new, events = apply(new, Gift((F, T, T)))
    assert [e for e in events if isinstance(e, PrivateDropped)] == [
        PrivateDropped(0, "secret", F), PrivateDropped(1, "secret", F)]
    assert new.players[0].secret is None and new.players[1].secret is None


def test_answering_a_gift_with_a_card_not_in_it() -> None:
    state = replay(new_game(), [Gift((N, T, W))])
    refused(state, TakeGift(F), "not_in_offer")
    refused(state, TakePair(0), "take_one_card")


def test_answering_a_competition_with_a_pair_that_does_not_exist() -> None:
    state = replay(new_game(), [Competition(((N, W), (N, T)))])
    refused(state, TakeGift(N), "take_a_pair")
    with pytest.raises(InvalidCommand) as info:
        TakePair(2)  # a third pair cannot even be written
    assert info.value.key == "bad_pair"
    with pytest.raises(InvalidCommand):
        parse_action("take 3")  # and is not a card either


@pytest.mark.parametrize(
    "action", [Secret(), Discard(), Gift((F, N, S)), Competition(((F, N), (S, U))), Reveal(F)]
)
def test_acting_while_an_offer_is_unanswered(action: Action) -> None:
    state = replay(new_game(), [Secret(), Gift((T, T, W))])
    assert state.phase is Phase.ANSWER and state.to_move == 0
    refused(state, action, "offer_waiting")


def test_answering_when_there_is_no_offer() -> None:
    refused(new_game(), TakeGift(F), "no_offer")
    refused(new_game(), TakePair(0), "no_offer")


@MODES
def test_revealing_before_all_actions(full: bool) -> None:
    start = new_game(full_information=full)
    actions = round_actions(start, *R1)
    for n in range(1 if full else 0, len(actions) - 2):
        state = at(start, actions, n)
        if state.phase is Phase.ACTION:
            refused(state, Reveal(F), "reveal_later")


@MODES
def test_playing_a_token_at_reveal_time(full: bool) -> None:
    start = new_game(full_information=full)
    actions = round_actions(start, *R1)
    state = at(start, actions, len(actions) - 2)
    refused(state, Secret(), "reveal_now")
    refused(state, TakeGift(F), "no_offer")


@MODES
def test_acting_after_the_game_is_over(full: bool) -> None:
    state = new_game(full_information=full)
    for script in (R1, R2, R3):
        state, _ = play_round(state, *script)
    assert state.over
    for action in [Secret(), Reveal(F), TakePair(0), Deal(F, ((), ()), ())]:
        refused(state, action, "game_over")


def _deal(removed: Item, a: Sequence[Item], b: Sequence[Item], pile: Sequence[Item]) -> Deal:
    return Deal(removed, (tuple(a), tuple(b)), tuple(pile))


def test_deal_must_use_the_21_cards() -> None:
    state = new_game(full_information=True)
    deck = full_deck()
    good = _deal(deck[0], deck[1:7], deck[7:13], deck[13:])
    apply(state, good)  # accepted
    refused(state, _deal(W, deck[1:7], deck[7:13], deck[13:]), "bad_deal")  # a sixth flower
    refused(state, _deal(deck[0], deck[1:7], deck[7:13], deck[13:20]), "bad_deal")  # 20
    refused(state, _deal(deck[0], deck[1:7], deck[7:13], (*deck[13:], W)), "bad_deal")


def test_deal_hands_must_hold_six_cards_each() -> None:
    state = new_game(full_information=True)
    deck = full_deck()
    refused(state, _deal(deck[0], deck[1:6], deck[6:13], deck[13:]), "bad_deal")


def test_deal_only_at_the_start_of_a_round() -> None:
    state = new_game(full_information=True)
    deck = full_deck()
    deal = _deal(deck[0], deck[1:7], deck[7:13], deck[13:])
    refused(state, Secret(deck[1]), "deal_first")
    dealt, _ = apply(state, deal)
    refused(dealt, deal, "no_deal_now")
    refused(new_game(), deal, "no_deal_now")  # table games are never dealt


def test_full_information_card_not_in_hand() -> None:
    state = new_game(full_information=True)
    deck = full_deck()  # player 0: 2 flutes, 2 fans, 2 scrolls; draws a tea first
    state, _ = apply(state, _deal(W, deck[0:6], deck[6:12], deck[12:20]))
    assert state.players[0].hand.known == (F, F, N, N, S, S)
    assert state.pile[0] is T
    refused(state, Secret(W), "not_in_hand")
    refused(state, Gift((F, F, F)), "not_in_hand")
    refused(state, Discard((T, T)), "not_in_hand")  # only one tea is drawn
    refused(state, Secret(), "hand_empty")  # nothing is unknown in full information
    new, _ = apply(state, Secret(state.pile[0]))  # the drawn card can be played at once
    assert new.players[0].secret == state.pile[0]


def test_revealed_card_must_match_the_secret_told() -> None:
    start = new_game()
    actions = round_actions(start, *R1, tell=True)
    assert actions[0] == Secret(F)
    state = at(start, actions, len(actions) - 2)
    # The card shown stands; what was told is corrected, said to that player alone.
    shown, events = apply(state, Reveal(W))
    assert PrivateDropped(0, "secret", F, revealed=W) in events
    assert shown.players[0].revealed is W
    state, _ = apply(state, Reveal(F))
    assert state.players[0].side[AYANE] == 1


def test_full_information_reveal_must_match() -> None:
    start = new_game(full_information=True)
    actions = round_actions(start, *R1)
    state = at(start, actions, len(actions) - 2)
    refused(state, Reveal(T), "secret_differs")


def test_copies_table_matches_points() -> None:
    assert COPIES == {F: 2, N: 2, S: 2, U: 3, H: 3, T: 4, W: 5}
    assert sum(COPIES.values()) == 21
