"""Momiji's rules engine: set-up, the three main actions, optional actions, refusals,
the end trigger and final scoring (a worked example with every objective kind)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from companion.errors import IllegalAction
from companion.games.momiji.actions import (
    Activate,
    Bonus,
    Collect,
    Colours,
    Draw,
    Empty,
    End,
    Gain,
    Garden,
    Landscape,
    Objectives,
    PileSize,
    Place,
    Play,
    Reveal,
    Trade,
)
from companion.games.momiji.data import LEAVES, Leaf, Objective
from companion.games.momiji.rules import (
    EndTriggered,
    GameOver,
    Hand,
    Phase,
    Player,
    State,
    apply,
    final_scores,
    new_game,
    objective_result,
    replay,
)
from stickers.colours import Colour

G, B, V, Y, O, R = LEAVES  # noqa: E741
OBJS = (Objective.COOL, Objective.ACORNS, Objective.TORII, Objective.ZERO, Objective.PLACED)


def L(colour: Colour, value: int) -> Leaf:  # noqa: N802
    return Leaf(colour, value)


def started(players: int = 3, pile: int | None = 20, objectives=OBJS) -> State:
    state = new_game(players)
    steps = []
    if state.phase is Phase.COLOURS:
        steps.append(Colours(LEAVES[: {2: 4, 3: 5}[players]]))
    steps += [
        Objectives(objectives[: players + 2]),
        Garden((L(G, 0), L(B, 0), L(V, 0), L(Y, 1))),
        PileSize(pile),
    ]
    return replay(state, steps)


def refused(state: State, action, key: str) -> None:
    with pytest.raises(IllegalAction) as caught:
        apply(state, action)
    assert caught.value.key == f"momiji.{key}" or caught.value.key == key


# -- set-up ------------------------------------------------------------------------------
def test_setup_acorns_tokens_and_types_by_player_count():
    for players, types in ((2, 4), (3, 5), (4, 6)):
        state = new_game(players)
        assert [p.acorns for p in state.players] == [4] + [5] * (players - 1)
        assert state.torii == players + 2
        assert all(p.hand.size == 6 for p in state.players)
        if players == 4:
            assert state.phase is Phase.OBJECTIVES and state.colours == LEAVES
        else:
            assert state.phase is Phase.COLOURS
            refused(state, Colours(LEAVES[: types - 1]), "colour_count")
    with pytest.raises(IllegalAction):
        new_game(5)


def test_setup_refusals():
    state = apply(new_game(3), Colours((G, B, V, Y, O)))[0]
    refused(state, Objectives(OBJS[:4]), "objective_count")
    refused(state, Objectives((Objective.RED, *OBJS[:4])), "objective_out")
    refused(state, Collect(G), "setup_objectives")
    state = apply(state, Objectives(OBJS))[0]
    refused(state, Garden((L(G, 0), L(B, 0), L(V, 0))), "garden_count")
    refused(state, Garden((L(G, 0), L(B, 0), L(V, 0), L(R, 1))), "colour_out")
    state = apply(state, Garden((L(G, 0), L(G, 2), L(V, 0), L(Y, 1))))[0]
    assert state.column(G) == (0, 2)
    refused(state, PileSize(0), "pile_size")
    state, events = apply(state, PileSize(None))
    assert state.phase is Phase.TURN and state.to_move == 0 and state.pile is None
    refused(state, Colours(LEAVES[:5]), "setup_done")


# -- main actions ---------------------------------------------------------------------------
def test_collect_takes_the_whole_column_into_a_known_hand():
    state, _ = apply(started(), Collect(V))
    me = state.players[0]
    assert me.hand.size == 7 and me.hand.known == (L(V, 0),)
    assert state.column(V) == ()
    refused(state, Collect(G), "main_done")
    refused(state, Play((L(G, 0),)), "main_done")


def test_collect_refusals():
    state = started()
    refused(state, Collect(O), "column_empty")
    refused(state, Collect(R), "colour_out")


def test_reveal_costs_an_acorn_discards_over_six_and_commits_to_collecting():
    state = started()
    garden = list(state.garden)
    garden[0] = (0, 0, 1, 1, 2, 2)
    state = replace(state, garden=tuple(garden))
    state, events = apply(state, Reveal((L(G, 3), L(O, 0), L(O, 1), L(Y, 2))))
    assert state.players[0].acorns == 3
    assert state.column(G) == (0, 0, 1, 1, 2, 2) and state.discard == 1
    assert events[0].discarded == (L(G, 3),)
    assert state.pile == 16
    refused(state, Play((L(G, 0),)), "collect_now")
    refused(state, End(), "collect_now")
    refused(state, Reveal((L(G, 3), L(O, 0), L(O, 1), L(Y, 2))), "reveal_first")
    state, _ = apply(state, Collect(O))
    assert state.players[0].hand.size == 8


def test_reveal_needs_an_acorn_and_the_right_count():
    state = started(pile=3)
    refused(state, Reveal((L(G, 3), L(O, 0), L(O, 1), L(Y, 2))), "reveal_count")
    state2, events = apply(state, Reveal((L(G, 3), L(O, 0), L(O, 1))))
    assert state2.pile == 0 and isinstance(events[-1], EndTriggered)
    poor = replace(state, players=(replace(state.players[0], acorns=0), *state.players[1:]))
    refused(poor, Reveal((L(G, 3), L(O, 0), L(O, 1))), "no_acorns")
    # An uncounted pile that gives fewer than 4 cards has run out.
    unknown = started(pile=None)
    after, events = apply(unknown, Reveal((L(G, 3), L(O, 0))))
    assert after.pile == 0 and isinstance(events[-1], EndTriggered)


def test_pile_rules():
    state = started()
    refused(state, Play((L(G, 1),)), "pile_starts_at_0")
    state, _ = apply(state, Play((L(G, 0), L(G, 1))))
    me = state.players[0]
    assert me.pile(G) == (0, 1)
    state = replace(state, turn=replace(state.turn, main=None))
    refused(state, Play((L(G, 3),)), "pile_order")  # a 2 cannot be skipped
    refused(state, Play((L(G, 0),)), "pile_order")  # never lower than the top
    state, _ = apply(state, Play((L(G, 1), L(G, 2))))
    state = replace(state, turn=replace(state.turn, main=None))
    state, events = apply(state, Play((L(G, 3),)))
    assert events[0].closed == (G,) and events[0].torii == 1
    assert state.players[0].torii == 1 and state.torii == 4
    state = replace(state, turn=replace(state.turn, main=None))
    refused(state, Play((L(G, 3),)), "pile_closed")


def test_two_ways_of_playing():
    state = started()
    refused(state, Play((L(G, 0), L(G, 0), L(G, 1))), "play_mix")  # three of a type
    refused(state, Play((L(G, 0), L(G, 0), L(B, 0))), "play_mix")  # mixed
    one_type, _ = apply(state, Play((L(G, 0), L(G, 0))))
    assert not one_type.turn.several
    refused(one_type, Bonus(1), "no_bonus")
    several, _ = apply(state, Play((L(G, 0), L(B, 0), L(V, 0), L(Y, 0))))
    assert several.turn.several
    refused(several, Bonus(0), "bad_bonus")
    with_bonus, _ = apply(several, Bonus(2))
    assert with_bonus.players[0].acorns == 4 + 4
    refused(with_bonus, Bonus(1), "bonus_told")


def test_known_hand_cards_are_checked():
    state, _ = apply(started(), Collect(V))
    state = replace(state, players=(
        replace(state.players[0], hand=Hand(0, (L(V, 0),))), *state.players[1:]))
    state = replace(state, turn=replace(state.turn, main=None))
    refused(state, Play((L(G, 0),)), "not_in_hand")
    assert apply(state, Play((L(V, 0),)))[0].players[0].hand.size == 0


def test_objective_activation():
    state = started()
    refused(state, Activate(Objective.SUM), "objective_unavailable")
    state, _ = apply(state, Activate(Objective.TORII))
    assert state.players[0].acorns == 1 and state.players[0].objectives == (Objective.TORII,)
    assert Objective.TORII not in state.available
    state, _ = apply(state, End())
    state, _ = apply(state, Activate(Objective.ACORNS))
    state, _ = apply(state, End())
    refused(state, Activate(Objective.TORII), "objective_unavailable")
    poor = replace(state, players=(*state.players[:2], replace(state.players[2], acorns=2)))
    refused(poor, Activate(Objective.ZERO), "no_acorns")


# -- optional actions -----------------------------------------------------------------------
def test_landscape_once_a_game_each_and_one_optional_a_turn():
    state = started()
    state, _ = apply(state, Landscape(2))
    assert state.players[0].acorns == 3 and state.players[0].landscapes == {2}
    refused(state, Trade(), "optional_done")
    refused(state, Landscape(1), "optional_done")
    state, _ = apply(state, Gain(2))
    state, _ = apply(state, Draw(1))
    assert state.players[0].hand.size == 7 and state.pile == 19
    state, events = apply(state, Place((L(G, 0),)))
    assert events[0].extra and state.turn.main is None  # the main action is still to play
    refused(state, Gain(-9), "bad_gain")
    state, _ = apply(state, Collect(G))
    state, _ = apply(state, End())
    for _ in range(2):
        state, _ = apply(state, Collect(B) if state.column(B) else Collect(Y))
        state, _ = apply(state, End())
    refused(state, Landscape(2), "landscape_used")
    refused(state, Gain(1), "after_landscape")


def test_a_landscape_awaits_its_effect_until_the_next_step():
    """The rules know the effect is awaited (the prompt asks for it) until anything else
    is told: the effect, or the turn going on without it."""
    state, _ = apply(started(), Landscape(2))
    assert state.turn.effect == 2
    told, _ = apply(state, Gain(2))
    assert told.turn.effect is None and told.turn.optional == "landscape"
    moved_on, _ = apply(state, Collect(G))
    assert moved_on.turn.effect is None
    assert apply(started(), Trade())[0].turn.effect is None


def test_trade_two_cards_for_an_acorn():
    state, _ = apply(started(), Trade())
    assert state.players[0].acorns == 5 and state.players[0].hand.size == 4
    assert state.discard == 2
    empty_hand = replace(state, players=(
        replace(state.players[0], hand=Hand(1)), *state.players[1:]), turn=replace(
        state.turn, optional=None))
    refused(empty_hand, Trade(), "hand_too_small")


def test_end_needs_a_main_action_and_applies_the_hand_limit():
    state = started()
    refused(state, End(), "main_first")
    state, _ = apply(state, Reveal((L(G, 1), L(G, 2), L(G, 3), L(B, 1))))
    state, _ = apply(state, Collect(G))
    assert state.players[0].hand.size == 10
    state, events = apply(state, End())
    assert events[0].discarded == 2 and state.players[0].hand.size == 8
    assert state.discard == 2 and state.to_move == 1
    # A player who can do nothing may end the turn.
    stuck = replace(state, garden=((),) * 6, pile=0, players=(
        state.players[0], replace(state.players[1], hand=Hand(0), acorns=0),
        state.players[2]))
    assert apply(stuck, End())[0].to_move == 2


# -- the end ------------------------------------------------------------------------------
def test_end_torii_gone_gives_everyone_one_last_turn_including_the_trigger():
    state = started()
    state = replace(state, torii=1, players=(
        replace(state.players[0], piles=((0, 1, 2),) + ((),) * 5), *state.players[1:]))
    state, events = apply(state, Play((L(G, 3),)))
    assert isinstance(events[-1], EndTriggered) and events[-1].reason == "torii"
    order = []
    for _ in range(3):
        state, events = apply(state, End())
        order.append(state.to_move)
        assert events[-1].last
        state, _ = apply(state, Collect(next(c for c in LEAVES if state.column(c))))
    assert order == [1, 2, 0]
    # Closing a pile with no torii left still closes it.
    state = replace(state, players=(
        replace(state.players[0], piles=((), (0, 1, 2)) + ((),) * 4), *state.players[1:]),
        turn=replace(state.turn, main=None))
    state, events = apply(state, Play((L(B, 3),)))
    assert events[0].closed == (B,) and events[0].torii == 0
    state, events = apply(state, End())
    assert state.over and isinstance(events[-1], GameOver)
    refused(state, End(), "game_over")


def test_pile_told_empty():
    state = started(pile=None)
    state, events = apply(state, Empty())
    assert state.pile == 0 and isinstance(events[-1], EndTriggered)
    refused(state, Empty(), "pile_empty")
    refused(state, Reveal((L(G, 1),)), "pile_empty")


# -- scoring -----------------------------------------------------------------------------
def scoring_state() -> State:
    """The worked example of docs/momiji.md: three players, every objective activated."""
    e: tuple[int, ...] = ()
    ana = Player(acorns=6, hand=Hand(3), piles=((0, 1, 2, 3), (0, 0), e, (0, 1), e, (0,)),
                 torii=1, landscapes=frozenset({1}),
                 objectives=(Objective.GREEN, Objective.WARM, Objective.ZERO, Objective.PILES))
    ben = Player(acorns=6, hand=Hand(5),
                 piles=((0, 1), (0, 1, 1, 2, 3), (0, 1, 2), e, (0, 0, 1), e),
                 torii=1, objectives=(Objective.COOL, Objective.ACORNS, Objective.HAND,
                                      Objective.TALLEST))
    cy = Player(acorns=2, hand=Hand(5), piles=(e, (0,), (0, 0), (0, 1, 2, 2), e, (0, 1, 1)),
                landscapes=frozenset({1, 2}),
                objectives=(Objective.BROWN, Objective.TORII, Objective.PLACED, Objective.SUM))
    return State(players=(ana, ben, cy), phase=Phase.TURN, to_move=0, colours=LEAVES)


def test_worked_final_scoring_with_every_objective_kind():
    state = scoring_state()
    scores = final_scores(state)
    by_objective = {r.objective: r for r in scores.objectives}
    expected = {  # objective: (each player's measure, points)
        Objective.GREEN: ((4, 2, 0), (10, 0, 0)),  # owner Ana has the most
        Objective.BROWN: ((2, 5, 1), (0, 3, 0)),  # owner Cy does not: Ben 3
        Objective.COOL: ((6, 10, 3), (0, 10, 0)),
        Objective.WARM: ((3, 3, 7), (0, 0, 3)),
        Objective.ACORNS: ((6, 6, 2), (3, 10, 0)),  # a tie: owner 10, the other 3
        Objective.TORII: ((1, 1, 0), (3, 3, 0)),
        Objective.ZERO: ((5, 5, 5), (10, 3, 3)),
        Objective.PLACED: ((9, 13, 10), (3, 0, 0)),  # the fewest wins
        Objective.HAND: ((3, 5, 5), (0, 10, 3)),
        Objective.PILES: ((6, 7, 5), (0, 3, 0)),  # piles + unused landscapes
        Objective.SUM: ((4, 7, 3), (0, 3, 0)),
        Objective.TALLEST: ((4, 5, 4), (0, 10, 0)),
    }
    for objective, (values, points) in expected.items():
        assert by_objective[objective].values == values, objective
        assert by_objective[objective].points == points, objective
    assert scores.piles == (14, 26, 11)
    assert scores.acorns == (6, 6, 2)
    assert scores.totals == (14 + 6 + 29, 26 + 6 + 55, 11 + 2 + 9)
    assert scores.winners == (1,) and scores.reason == "points"


def test_nobody_meets_a_most_objective_with_none():
    state = scoring_state()
    result = objective_result(Objective.ORANGE, 0, replace(state, players=tuple(
        replace(p, piles=p.piles[:4] + ((),) + p.piles[5:]) for p in state.players)))
    assert result.achievers == () and result.points == (0, 0, 0)


def test_ties_go_to_most_cards_in_hand_then_are_shared():
    e: tuple[int, ...] = ()
    a = Player(acorns=5, hand=Hand(2), piles=((0, 1),) + (e,) * 5)
    b = Player(acorns=7, hand=Hand(4))
    state = State(players=(a, b), phase=Phase.TURN, to_move=0, colours=LEAVES[:4])
    scores = final_scores(state)
    assert scores.totals == (7, 7) and scores.winners == (1,) and scores.reason == "hand"
    state = replace(state, players=(a, replace(b, hand=Hand(2))))
    scores = final_scores(state)
    assert scores.winners == (0, 1) and scores.reason == "shared"


# -- a turn without a possible main action (issue 11) --------------------------------------
def _stuck(hand: Hand, piles=((),) * 6, acorns: int = 0) -> State:
    """Player 1 to move, nothing in the garden, the pile out, no acorn to spend."""
    state = started()
    state, _ = apply(state, Collect(G))
    state, _ = apply(state, End())
    me = replace(state.players[1], hand=hand, piles=piles, acorns=acorns)
    return replace(state, garden=((),) * 6, pile=0,
                   players=(state.players[0], me, *state.players[2:]))


def test_end_is_accepted_when_every_known_card_is_unplayable():
    # green 2 and brown 1 fit no pile (piles start at 0); nothing else is possible
    state = _stuck(Hand(0, (L(G, 2), L(B, 1))))
    assert apply(state, End())[0].to_move == 2


def test_end_is_refused_when_a_known_card_is_playable():
    refused(_stuck(Hand(0, (L(G, 0),))), End(), "main_first")
    refused(_stuck(Hand(0, (L(G, 0),))), End(anyway=True), "main_first")


def test_end_with_unseen_cards_is_asked_about_and_a_yes_applies():
    from companion.errors import ConfirmFirst

    state = _stuck(Hand(2, (L(G, 2),)))
    with pytest.raises(ConfirmFirst) as caught:
        apply(state, End())
    assert caught.value.key == "momiji.end_anyway"
    assert caught.value.command == End(anyway=True)
    assert apply(state, End(anyway=True))[0].to_move == 2


def test_unseen_cards_cannot_fit_closed_piles():
    closed = tuple((0, 1, 2, 3) for _ in range(6))
    assert apply(_stuck(Hand(3), piles=closed), End())[0].to_move == 2


def test_empty_while_a_counted_pile_holds_cards_is_refused_with_the_count():
    state = started(pile=20)
    with pytest.raises(IllegalAction) as caught:
        apply(state, Empty())
    assert caught.value.key == "momiji.pile_counted" and caught.value.params["n"] == 20
    assert apply(started(pile=None), Empty())[0].pile == 0


@pytest.mark.parametrize("lang", ["en", "fr", "es", "uk"])
def test_the_session_asks_once_and_a_yes_ends_the_turn(lang):
    from companion.games.momiji import Momiji
    from companion.narrate.catalogue import Catalogue
    from companion.session import Session

    session = Session(Momiji(), {"players": ["Ana", "Ben", "Cy"], "lang": lang},
                      state=_stuck(Hand(2)))
    asked = session.handle("9")
    assert [m.event for m in asked] == ["confirm"]
    said = Catalogue(lang).render(asked[0])
    assert said != asked[0].key and "?" in said
    assert session.state.to_move == 1  # nothing applied yet
    done = session.handle({"en": "yes", "fr": "oui", "es": "si", "uk": "так"}[lang])
    assert session.state.to_move == 2 and session.log[-1][0] == End(anyway=True)
    assert any(m.event != "error" for m in done)


def test_a_keypad_player_confirms_by_pressing_end_again_and_another_key_drops_the_question():
    from companion.games.momiji import Momiji
    from companion.session import Session

    session = Session(Momiji(), {"players": ["Ana", "Ben", "Cy"], "lang": "en"},
                      state=_stuck(Hand(2)))
    assert [m.event for m in session.handle("9")] == ["confirm"]
    session.handle("9")  # the keypad has no yes: the same key again is one
    assert session.state.to_move == 2 and session.log[-1][0] == End(anyway=True)

    session = Session(Momiji(), {"players": ["Ana", "Ben", "Cy"], "lang": "en"},
                      state=_stuck(Hand(2)))
    session.handle("9")
    session.handle("score")  # a question leaves the question standing
    session.handle("9")
    assert session.state.to_move == 2
