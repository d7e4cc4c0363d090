"""`companion practice`: a game alone against the computer, for a game with a practice hook.

It is `companion play` (companion/table.py: the same session, inputs and outputs) with the
other seats filled by the game's opponent (companion/computer.py): this module only makes
a new practice game's settings. The player sits at seat 0.
"""

from __future__ import annotations

import argparse
import random
from pathlib import Path
from typing import Any

from companion.games.registry import load_game
from companion.narrate.message import Message

PLAYER = 0  # the player's seat; the computer has the others
OPPONENTS = ("practice_opponent", "practice_opponent_2", "practice_opponent_3")  # their names


def add_seated_options(p: argparse.ArgumentParser, *, level: str, level_help: str,
                       resume_help: str) -> None:
    """The options of a game against the computer (practice, learn): the seats, the
    computer's level and seed, the outputs, the log, and what `companion play` has
    (keypad, readers, voice, web pages)."""
    from companion.cli import add_live_inputs

    p.add_argument("--rules", metavar="NAME", help="the game's rule set (default: its first)")
    p.add_argument("--level", default=level, help=level_help)
    p.add_argument("--seed", type=int, help="the deals and the computer's choices (default: "
                   "random; the same seed plays the same game)")
    p.add_argument("--pause", type=float, metavar="S", help="seconds before the computer "
                   "plays (default 1, 0 with --script)")
    p.add_argument("--name", help="your name (default: the language's 'Player 1')")
    p.add_argument("--players", type=int, metavar="N", help="players at the table, you "
                   "included (default: the fewest the game takes)")
    p.add_argument("--script", type=Path, help="read the lines from FILE, then end")
    p.add_argument("--json", action="store_true", help="one JSON object per announcement")
    p.add_argument("--no-speech", action="store_true", help="print only")
    p.add_argument("--earbud", metavar="DEVICE", help="your private audio output (ALSA)")
    p.add_argument("--db", type=Path, help="the game log (default: user data folder)")
    p.add_argument("--resume", action="store_true", help=resume_help)
    add_live_inputs(p)


def add_parser(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    from companion.cli import add_game_options

    p = sub.add_parser("practice", help="play alone against the computer, by ear")
    add_game_options(p)
    add_seated_options(p, level="normal",
                       level_help="easy, normal or strong (default normal)",
                       resume_help="continue the last practice game")
    p.set_defaults(func=run_practice)


def run_practice(args: argparse.Namespace) -> int:
    from companion.cli import remember_game
    from companion.language import player_language
    from companion.narrate.catalogue import Catalogue
    from companion.table import Seating, run_table

    game = load_game(args.game)
    catalogue = Catalogue(player_language(args.lang), games=(game.name,))
    remember_game(args, catalogue)
    hooks = game.practice()
    refused = seated_refusal(args, game, hooks)
    if refused is not None:
        print(catalogue.render(refused))
        return 2
    seating = Seating("practice", lambda said_in: practice_config(args, game, hooks, said_in),
                      resumes=lambda config: "practice" in config,
                      earbuds={f"player:{PLAYER}": args.earbud} if args.earbud else {})
    return run_table(args, game, catalogue, seating)


def seated_refusal(args: argparse.Namespace, game: Any, hooks: Any) -> Message | None:
    """Why a game against the computer (practice, learn) cannot start with these options,
    or None: the game has no computer opponent, the level is unknown, the script missing."""
    if hooks is None:
        return Message("error", "practice_unavailable", {"game": game.name.capitalize()})
    if args.level not in hooks.levels:
        return Message("error", "unknown_level", {"level": args.level,
                                                  "known": ", ".join(hooks.levels)})
    if args.script is not None and not args.script.is_file():
        return Message("error", "no_script", {"path": str(args.script)})
    return None


def practice_config(args: argparse.Namespace, game: Any, hooks: Any, catalogue: Any
                ) -> dict[str, Any] | None:
    """A new practice game's settings: the player and the computer, the rules, the level
    and seed, and what the game itself needs to be dealt by the companion."""
    rules = args.rules or game.rule_sets[0]
    if rules not in game.rule_sets:
        print(catalogue.render(Message("error", "unknown_rules", {
            "game": game.name.capitalize(), "rules": rules,
            "known": ", ".join(game.rule_sets)})))
        return None
    low, high = game.players
    count = getattr(args, "players", None) or low  # `companion learn` has no --players
    if not low <= count <= high:
        print(catalogue.render(Message("error", "practice_players", {
            "game": game.name.capitalize(), "low": low, "high": high, "n": count})))
        return None
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(10**6)
    name = args.name or catalogue.word("words", "player_1")
    computers = [catalogue.word("words", key) for key in OPPONENTS[:count - 1]]
    return {"players": [name, *computers],
            "rules": rules, "lang": catalogue.lang, **hooks.config(),
            "practice": {"level": args.level, "seed": seed}}
