"""`board` says an offer that waits for the other player's choice."""

from __future__ import annotations

from companion.games.registry import load_game
from companion.narrate.catalogue import Catalogue
from companion.session import Session


def board_after(*lines: str, lang: str = "en") -> str:
    session = Session(load_game("hanamikoji"), {"players": ["Ana", "Ben"], "rules": "iello",
                                                "lang": lang})
    for line in lines:
        session.handle(line)
    return " ".join(Catalogue(lang).render(m) for m in session.handle("board"))


def test_board_says_the_gift_waiting_and_who_chooses():
    text = board_after("gift shamisen flower flower")
    assert text.endswith("Offer waiting: Ana's gift of shamisen (orange, 3) and 2 flowers "
                         "(pink, 5); Ben takes one card."), text


def test_board_says_the_competition_waiting():
    text = board_after("gift shamisen flower flower", "take shamisen", "secret",
                       "competition scroll shamisen / scroll tea")
    assert "Offer waiting: Ana's competition, pair 1: scroll (yellow, 2) and shamisen " \
           "(orange, 3), pair 2: scroll (yellow, 2) and tea set (green, 4); Ben takes a pair." \
           in text, text


def test_no_offer_no_mention():
    assert "waiting" not in board_after("gift shamisen flower flower", "take shamisen")
    assert "Offre en attente : l'offre d'Ana" in board_after("gift shamisen flower flower",
                                                            lang="fr")
