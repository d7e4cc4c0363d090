"""`hint` at a real table: the shared word and keypad line, said to the deciding player
only, never depending on (nor revealing) the other player's hidden cards."""

from __future__ import annotations

import io
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.games.hanamikoji import practice
from companion.games.hanamikoji.opponent import determinise, observe
from companion.games.hanamikoji.rules import Phase
from companion.games.hanamikoji.simulate import random_game
from companion.games.registry import load_game
from companion.narrate.catalogue import Catalogue
from companion.narrate.message import Message
from companion.output import Output
from companion.session import Session

GAME = load_game("hanamikoji")
NAMES = ["Ana", "Ben"]


def table(state=None, lang: str = "en") -> Session:
    return Session(GAME, {"players": NAMES, "lang": lang}, state=state)


def heard(session: Session, line: str, channels: set[str]) -> tuple[str, list[Message]]:
    """What the shared outputs print for `line`, and what reaches private channels."""
    stream = io.StringIO()
    out = Output(Catalogue(session.lang, games=("hanamikoji",)), stream=stream)
    out.channels = channels
    private: list[Message] = []
    out.listeners.append(lambda said: private.extend(
        m for m, _ in said if m.private_to is not None))
    out.emit(session.handle(line))
    return stream.getvalue(), private


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10_000), at=st.integers(0, 40), line=st.sampled_from(
    ["hint", "+.", "conseil", "pista", "підказка"]))
def test_a_hint_goes_to_the_deciding_seat_only_and_ignores_the_others_cards(seed, at, line):
    with pytest.MonkeyPatch.context() as patch:  # a smaller budget: see test_practice.py
        patch.setattr(practice, "HINT_ITERATIONS", 50)
        _hint_is_private_and_ignores_hidden_cards(seed, at, line)


def _hint_is_private_and_ignores_hidden_cards(seed: int, at: int, line: str) -> None:
    steps = [s for s, _ in random_game(seed) if s.phase is not Phase.DEAL and not s.over]
    state = steps[at % len(steps)]
    seat = state.to_move  # the one to act, or to answer an offer
    printed, private = heard(table(state), line, {f"player:{seat}"})
    assert printed == ""  # nothing on the speaker, the printed lines or --json
    assert private and all(m.private_to == seat and m.key.startswith("hint_") for m in private)
    # the same hint whatever the other's hand, Secret, Discard, removed card and pile
    for k in range(2):
        other = determinise(observe(state, seat), random.Random(k))
        assert heard(table(other), line, {f"player:{seat}"}) == (printed, private)


def test_without_an_earbud_the_table_hears_only_where_hints_go():
    state = next(s for s, _ in random_game(3) if s.phase is Phase.ANSWER)
    seat = state.to_move
    session = table(state)
    printed, private = heard(session, "hint", set())
    assert printed == f"Hints are said only on the player's own earbud, and {NAMES[seat]} " \
                      "has none (--earbud).\n"
    assert private == []
    assert all(m.private_to is None for m in session.handle("repeat"))


def test_at_a_table_without_a_told_hand_the_hint_says_what_it_needs():
    session = table()  # a table game: the hands are cards nobody told the companion
    said = session.handle("+.")
    assert [(m.key, m.private_to, m.params) for m in said] == [("hint_needs_hand", 0, {"n": 7})]


def test_a_game_without_hints_says_so_publicly():
    import sys
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).parent / "plugins" / "pebbles"))
    from pebbles.adapter import Pebbles  # a game with no practice hook

    said = Session(Pebbles(), {"players": NAMES, "lang": "fr"}).handle("conseil")
    assert [(m.key, m.private_to) for m in said] == [("hint_unavailable", None)]


def test_a_momiji_table_hint_says_it_needs_a_dealt_game():
    """At a table the companion never sees the hands: Momiji hints only in practice."""
    from companion.games.momiji.rules import Phase

    session = Session(load_game("momiji"), {"players": NAMES, "lang": "fr"})
    for line in ("sans jaune orange", "objectifs froides glands torii zero",
                 "jardin vert 0 rouge 2 3 marron 1", "pioche 20"):
        session.handle(line)
    assert session.state.phase is Phase.TURN
    said = session.handle("conseil")
    assert [(m.key, m.private_to) for m in said] == [("momiji.hint_table", 0)]


def test_hint_is_a_voice_command_too():
    from companion.games.hanamikoji.voice.hooks import VOICE
    from companion.shared_commands import Ask, Query

    assert VOICE.parse_command("hint") == Ask(Query.HINT)


def test_a_hint_at_a_table_asks_for_untold_face_down_cards_instead_of_failing() -> None:
    """Found by test_session's junk property: at a table, with the hand used up but the
    player's own Secret and Discard laid untold, `hint` stopped the game (the unseen cards
    could not be placed). It now says, privately, what it needs."""
    from test_session import CONFIG, table_script

    session = Session(load_game("hanamikoji"), dict(CONFIG))
    session.start()
    for line in table_script(4)[:11]:
        session.handle(line)
    said = session.handle("hint")
    assert [(m.key, m.private_to, m.params) for m in said] == [
        ("hint_needs_face_down", 0, {"n": 3})]
    for lang in ("fr", "en", "es", "uk"):
        assert "{" not in Catalogue(lang, games=("hanamikoji",)).render(said[0])
