"""A seat's own page acts for that seat only (issue 26, part 1): over random games of both
games, commands from any seat's page at any moment never change what another seat decided,
nor anything on that seat's private page; the seat deciding plays the whole game from its
page; a refusal is said on the refused page alone."""

from __future__ import annotations

import os
import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.games.hanamikoji.actions import Deal
from companion.games.hanamikoji.simulate import random_game, table_line
from companion.games.momiji.simulate import table_script
from companion.games.registry import load_game
from companion.narrate.catalogue import Catalogue
from companion.session import Session

PLAYERS = {"hanamikoji": ["Ana", "Ben"], "momiji": ["Ana", "Ben", "Cleo"]}
# What a page might send besides the next move: shared commands, questions, moves of its
# own, private statements (a Secret named for whoever), numbers, junk.
TRIES = ["undo", "yes", "no", "cancel", "hint", "new game", "slower", "brief", "score",
         "board", "back", "repeat", "secret tea", "discard flute fan", "gift flute fan fan",
         "competition fan fan tea tea", "3", "1", "take 2", "reveal tea", "end", "end anyway",
         "banana"]
# A canonical text a player says in two steps (Momiji's confirmed end of turn)
TYPED = {"end anyway": ["end", "yes"]}


CORRECTIONS = {"private_secret_dropped", "private_discard_dropped", "private_secret_revealed"}


def script(game: str, seed: int) -> list[str]:
    if game == "momiji":
        return table_script(seed, len(PLAYERS[game]))
    # Hanamikoji with every Secret and Discard named: there is something private to guard
    return [action.text() if type(action).__name__ in ("Secret", "Discard")
            else str(table_line(action))
            for _, action in random_game(seed) if not isinstance(action, Deal)]


def steps_of(session: Session, seat: int) -> list[str]:
    return [action.text() for action, actor in session.log if actor == seat]


def contained(after: dict[str, tuple[Any, ...]], before: dict[str, tuple[Any, ...]]) -> bool:
    for place, cards in after.items():
        left = list(before.get(place, ()))
        for card in cards:
            if card not in left:
                return False
            left.remove(card)
    return True


def _reads_back(session: Session, line: str) -> bool:
    """Whether the line typed now means its canonical value."""
    if line in TYPED:
        return True
    try:
        return bool(session.interpret(line) == session.game.parse(line))
    except ValueError:
        return False


def restore(session: Session, expected: list[str]) -> None:
    """Back to the script's position after a seat's own legal move (the table's terminal
    undoes or replays it): the property is about the other seats, the script goes on."""
    if session.awaiting_answer or session.pending is not None:
        session.handle("cancel")
    texts = [action.text() for action, _ in session.log]
    while texts != expected[:len(texts)]:
        session.handle("undo")
        texts = [action.text() for action, _ in session.log]
    for text in expected[len(texts):]:
        session.execute(session.game.parse(text))
    assert [action.text() for action, _ in session.log] == expected


@pytest.mark.parametrize("game", ["hanamikoji", "momiji"])
@settings(max_examples=int(os.environ.get("SEAT_EXAMPLES", 12)), deadline=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10_000), tries=st.randoms(use_true_random=False))
def test_no_command_from_a_seat_changes_another_seats_decisions_or_private_page(
        game: str, seed: int, tries: random.Random) -> None:
    names = PLAYERS[game]
    session = Session(load_game(game), {"players": names, "lang": "en"})
    session.start()
    lines = script(game, seed)
    done: list[str] = []
    # Each seat's told cards as they have stood: a seat's own undo may bring back an earlier
    # round, and with it what another seat told then, never anything that seat did not tell
    pages: dict[int, list[dict[str, tuple[Any, ...]]]] = {a: [{}] for a in range(len(names))}
    for line in lines:
        for _ in range(tries.randint(0, 3)):  # pages of any seat try something first
            seat = tries.randrange(len(names))
            attempt = tries.choice([line, line, *TRIES])
            before = {a: (steps_of(session, a), session.private_cards(a))
                      for a in range(len(names)) if a != seat}
            deciding = session.deciding()
            held = (session.pending, session.proposed)
            said = session.handle_from(seat, attempt)
            for other, (steps, private) in before.items():
                assert steps_of(session, other) == steps, (seat, attempt)
                now = session.private_cards(other)
                assert contained(now, private) or any(contained(now, earlier)
                                                      for earlier in pages[other]), (seat, attempt)
                # Only a correction of what `other` told may reach it: a public move shows
                # a card its told ones cannot hold (issue 26, part 2), said to it alone.
                assert not any(m.private_to == other and m.key not in CORRECTIONS
                               for m in said), (seat, attempt)
                if deciding == {other}:  # the half-entered move or question of the decider
                    assert (session.pending, session.proposed) == held, (seat, attempt)
            restore(session, done)
        # The move itself, from the page of a seat that decides now: accepted
        seat = min(session.deciding()) if len(session.deciding()) == 1 else \
            tries.choice(sorted(session.deciding()))
        if _reads_back(session, line):
            for typed in TYPED.get(line, [line]):
                said = session.handle_from(seat, typed)
                assert not any(m.event == "error" for m in said), (line, said)
        else:  # a canonical text typed reads otherwise (issue 26, part 4): as a value
            command = session.game.parse(line)
            assert session.refusal_for(seat, command) is None
            session.execute(command)
        done = [action.text() for action, _ in session.log]
        for a in pages:
            pages[a].append(session.private_cards(a))
    assert session.game.is_over(session.state)


def test_another_seats_page_cannot_play_undo_answer_or_name_a_secret() -> None:
    """Ben's page, while Ana decides: her move, her undo, a yes to her question, her
    Secret: each refused on Ben's page alone, in the page's language, nothing changed."""
    en = Catalogue("en", games=("hanamikoji",))
    session = Session(load_game("hanamikoji"), {"players": ["Ana", "Ben"], "lang": "en"})
    session.start()
    said = session.handle_from(1, "secret tea")
    assert [(m.private_to, en.render(m)) for m in said] == [
        (1, "Ana decides now: from your page you may ask questions, not act for Ana. "
            "Nothing changed.")]
    assert session.log == () and session.private_cards(0) == {}
    session.handle_from(0, "secret tea")  # Ana's own: her Secret on her own page
    assert session.private_cards(0) == {"secret": (session.log[0][0].card,)}
    said = session.handle_from(1, "undo")  # Ben's turn now, but the last step is Ana's
    assert [m.key for m in said] == ["error.seat_undo_other"] and len(session.log) == 1
    assert "only Ana may undo it" in en.render(said[0])
    assert session.handle_from(0, "undo")[0].key == "undone"  # Ana takes hers back
    assert session.log == ()
    said = session.handle_from(1, "hint")
    assert [(m.key, m.private_to) for m in said] == [("error.seat_hint_other", 1)]
    assert session.handle_from(1, "score")[0].private_to is None  # questions: always
    said = session.handle_from(1, "banana")  # not understood: said to that page only
    assert [m.private_to for m in said] == [1]
    fr = Catalogue("fr", games=("hanamikoji",))
    refusal = session.handle_from(1, "secret tea")[0]
    assert fr.render(refusal).startswith("C'est à Ana de décider")


def test_a_yes_from_another_seat_does_not_answer_the_deciders_question() -> None:
    """A question asked about Ana's move is answered by Ana only."""
    session = Session(load_game("hanamikoji"), {"players": ["Ana", "Ben"], "lang": "en"})
    session.start()
    session.propose(session.interpret("secret tea"))
    assert session.awaiting_answer
    said = session.handle_from(1, "yes")
    assert [m.key for m in said] == ["error.seat_not_deciding"]
    assert session.awaiting_answer and session.log == ()
    session.handle_from(0, "yes")
    assert len(session.log) == 1


def test_a_page_cannot_tell_another_seats_hidden_cards() -> None:
    """Even when the rules would take it (a deal in a full-information game, which the
    table decides), a step from one seat's device may not add to what another seat is
    told it holds."""
    from companion.games.hanamikoji.simulate import random_deal

    game = load_game("hanamikoji")
    state = game.new_state({"players": ["Ana", "Ben"], "full_information": True})
    session = Session(game, {"players": ["Ana", "Ben"], "lang": "en"}, state=state)
    assert session.deciding() == {0, 1}
    deal = random_deal(random.Random(1))
    refused = session.refusal_for(0, deal)
    assert refused is not None and refused.key == "seat_private_other"
    assert refused.params == {"player": "Ben"}
    assert session.refusal_for(0, session.interpret("score")) is None
