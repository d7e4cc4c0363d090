"""Every Momiji event is narrated: one handler per event kind (narrate._EVENTS), so an
event kind without one would pass in silence. Dealt, Drew and PileEmptied are said in no
golden transcript, so their sentences are checked here, rendered in English."""

from __future__ import annotations

from typing import get_args

from companion.games.momiji.data import Leaf, Objective
from companion.games.momiji.narrate import events
from companion.games.momiji.rules import (
    Activated,
    BonusTaken,
    Collected,
    ColoursChosen,
    Dealt,
    Drew,
    EndTriggered,
    Event,
    Gained,
    GameOver,
    GardenLaid,
    LandscapeUsed,
    ObjectivesRevealed,
    Phase,
    PileCounted,
    PileEmptied,
    Placed,
    Revealed,
    State,
    Traded,
    TurnEnded,
    TurnStarted,
    final_scores,
)
from companion.games.momiji.simulate import random_steps
from companion.narrate.catalogue import Catalogue
from stickers.colours import Colour

NAMES = ["Ana", "Ben", "Cy"]
G = Colour.GREEN


def mid_game() -> State:
    return next(s for s, _ in random_steps(0, 3) if s.phase is Phase.TURN)


def one_of_each(state: State) -> list[Event]:
    leaf = Leaf(G, 1)
    return [
        ColoursChosen(state.colours), ObjectivesRevealed((Objective.GREEN,)), Dealt(24, 6),
        GardenLaid((leaf,)), PileCounted(20), TurnStarted(1, False),
        Revealed(1, (leaf,), (), 19), Collected(1, G, (leaf,), 5),
        Placed(1, (leaf,), (), 0, False), BonusTaken(1, 1, 6), Activated(1, Objective.GREEN, 2),
        LandscapeUsed(1, 2, 3), Traded(1, None, 4), Gained(1, 2, 6), Drew(1, 2, 7),
        PileEmptied(1), EndTriggered(1, "pile"), TurnEnded(1, 0, 5, 6),
        GameOver(final_scores(state)),
    ]


def test_every_event_kind_is_narrated():
    state = mid_game()
    examples = one_of_each(state)
    assert {type(ev) for ev in examples} == set(get_args(Event))  # a new kind needs one here
    for ev in examples:
        assert events([ev], state, NAMES), f"{type(ev).__name__} is said by nothing"


def test_the_deal_the_draw_and_the_empty_pile_are_said():
    state = mid_game()
    en = Catalogue("en", games=("momiji",))
    said = [en.render(m) for m in events([Dealt(24, 6), Drew(1, 2, 7), PileEmptied(1)],
                                         state, NAMES)]
    assert said == [
        "I shuffled the 24 leaves, dealt 6 to each player and laid out the garden.",
        "Ben draws 2 cards: 7 in hand.",
        "The draw pile is empty.",
    ]
