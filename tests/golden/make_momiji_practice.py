"""Writes tests/golden/momiji_practice_{en,fr}.script: a whole 2-player practice game.

The player's moves are the `normal` level's (seeded by the step), said with the
language's words, with questions, a hint, an undo and refused lines put in on the way, as
a player would. Run once after a change of the rules or the computer players, then
regenerate the transcripts (UPDATE_GOLDEN=1 pytest tests/test_momiji_practice.py) and
review the diff.
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from companion.games.momiji import opponent  # noqa: E402
from companion.games.momiji.actions import Activate, Collect, End, Play, Reveal, Trade  # noqa: E402
from companion.games.registry import load_game  # noqa: E402
from companion.session import Session  # noqa: E402

SEED, LEVEL = 11, "normal"
WORDS = {
    "en": {"collect": "collect", "play": "play", "reveal": "reveal", "trade": "trade",
           "end": "end", "discard": "discard", "objective": "objective", "hand": "hand",
           "hint": "hint", "board": "board", "undo": "undo", "score": "score",
           "help": "help", "landscape": "landscape 1", "card": "card",
           "colours": {}},
    "fr": {"collect": "prends", "play": "pose", "reveal": "révéler", "trade": "défausse",
           "end": "fin", "discard": "défausse", "objective": "objectif", "hand": "main",
           "hint": "conseil", "board": "plateau", "undo": "annuler", "score": "score",
           "help": "aide", "landscape": "paysage 1", "card": "carte",
           "colours": {"green": "vert", "brown": "marron", "violet": "violet",
                       "yellow": "jaune", "orange": "orange", "red": "rouge"}},
}


def cards(said, lang: str) -> str:
    names = WORDS[lang]["colours"]
    return " ".join(f"{names.get(c.colour.value, c.colour.value)} {c.value}" for c in said)


def line(action, lang: str, hand=None) -> str:
    w = WORDS[lang]
    if isinstance(action, Collect):
        return f"{w['collect']} {w['colours'].get(action.colour.value, action.colour.value)}"
    if isinstance(action, Reveal):
        return w["reveal"]
    if isinstance(action, Play):
        if hand is not None:  # by place in the sorted hand ("card 2")
            places, left = [], list(hand)
            for card in action.cards:
                i = left.index(card)
                places.append(f"{w['card']} {i + 1}")
                left[i] = None
            return f"{w['play']} " + " ".join(places)
        return f"{w['play']} {cards(action.cards, lang)}"
    if isinstance(action, Activate):
        return f"{w['objective']} {action.objective.number}"
    if isinstance(action, Trade):
        return f"{w['trade']} {cards(action.cards, lang)}"
    assert isinstance(action, End)
    if action.discard:
        return f"{w['end']} {w['discard']} {cards(action.discard, lang)}"
    return w["end"]


def script(lang: str) -> list[str]:
    game = load_game("momiji")
    hooks = game.practice()
    config = {"players": ["A", "B"], "lang": lang,
              "practice": {"level": LEVEL, "seed": SEED}}
    session = Session(game, config)
    out: list[str] = []
    turns = 0
    refused_end = by_place = False
    while not game.is_over(session.state):
        state = session.state
        if game.actor(state) != 0:
            action = hooks.chance(state, config) or hooks.decide(
                state, game.actor(state), config, session.step)
            session.execute(action)
            continue
        w = WORDS[lang]
        if state.turn.main is None:
            turns += 1
            extra = {1: ["hand", "hint"], 2: ["board"], 3: [w["landscape"], "score"],
                     4: ["help"], 6: ["hint"], 9: ["hint"]}.get(turns, [])
            out += [w.get(e, e) for e in extra]
        action = opponent.decide(opponent.observe(state, 0), LEVEL,
                                 random.Random(f"player:{session.step}"))
        if isinstance(action, End) and action.discard and not refused_end:
            out.append(w["end"])  # refused: the discards are named
            refused_end = True
        place = isinstance(action, Play) and not by_place
        by_place = by_place or place
        out.append(line(action, lang, state.players[0].hand.known if place else None))
        session.execute(action)
        if turns == 2 and isinstance(action, End):
            out += [w["undo"], line(action, lang)]
    return out


if __name__ == "__main__":
    for lang in WORDS:
        path = Path(__file__).parent / f"momiji_practice_{lang}.script"
        path.write_text("\n".join(script(lang)) + "\n", "utf-8")
        print(path, len(path.read_text("utf-8").splitlines()), "lines")
