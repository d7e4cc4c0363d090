"""`companion practice`: a game alone against the computer, for a game with a practice hook.

The session is the real one (rules, narration, undo, the game log, --resume, --json); this
loop adds what a table has and a lone player lacks: the dealer (the game's chance steps)
and the other player (the game's opponent), plus the word `hand` (`hint` is the
session's, as at a table). The player sits at seat 0. What is private to them is said on
their private channel when they have one, else on the speaker (nobody else is at the
table); what is private to the computer is never said. Undo takes back the player's last
move and everything after it.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Callable, Iterable
from concurrent.futures import ThreadPoolExecutor
from concurrent.futures import TimeoutError as Waiting
from dataclasses import replace
from functools import partial
from pathlib import Path
from typing import Any

from companion.games.registry import load_game
from companion.narrate.message import Message

PLAYER = 0  # the human's seat; the computers have the others
OPPONENTS = ("practice_opponent", "practice_opponent_2", "practice_opponent_3")  # their names
THINKING_AFTER = 0.5  # seconds before "thinking" is said


def add_parser(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    from companion.cli import add_game_options

    p = sub.add_parser("practice", help="play alone against the computer, by ear")
    add_game_options(p)
    p.add_argument("--rules", metavar="NAME", help="the game's rule set (default: its first)")
    p.add_argument("--level", default="normal", help="easy, normal or strong (default normal)")
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
    p.add_argument("--resume", action="store_true", help="continue the last practice game")
    from companion.cli import add_live_inputs

    add_live_inputs(p)  # the keypad and voice of `companion play`
    p.set_defaults(func=run_practice)


def run_practice(args: argparse.Namespace) -> int:
    from companion.cli import system_language
    from companion.narrate.catalogue import Catalogue
    from companion.output import Output
    from companion.session import Session
    from companion.store import GameStore, default_path

    game = load_game(args.game)
    lang = args.lang or system_language()
    catalogue = Catalogue(lang, games=(game.name,))
    hooks = game.practice()
    params = {"game": game.name.capitalize()}
    if hooks is None:
        print(catalogue.render(Message("error", "practice_unavailable", params)))
        return 2
    if args.level not in hooks.levels:
        print(catalogue.render(Message("error", "unknown_level", {
            "level": args.level, "known": ", ".join(hooks.levels)})))
        return 2
    if args.script is not None and not args.script.is_file():
        print(catalogue.render(Message("error", "no_script", {"path": str(args.script)})))
        return 2
    store = GameStore(args.db or default_path())
    saved = store.last_unfinished(game.name) if args.resume else None
    if saved is not None and "practice" not in saved.config:
        saved = None  # a table game is resumed by `companion play --resume`
    resume = "companion practice --resume" + (f" --db {args.db}" if args.db else "")
    if saved is not None:
        config = dict(saved.config)
        lang = config.get("lang", lang)
        catalogue = Catalogue(lang, games=(game.name,))
        session = Session(game, config, store, saved.id, saved.steps, resume=resume)
    else:
        rules = args.rules or game.rule_sets[0]
        if rules not in game.rule_sets:
            print(catalogue.render(Message("error", "unknown_rules", {
                **params, "rules": rules, "known": ", ".join(game.rule_sets)})))
            return 2
        low, high = game.players
        count = args.players or low
        if not low <= count <= high:
            print(catalogue.render(Message("error", "practice_players", {
                **params, "low": low, "high": high, "n": count})))
            return 2
        seed = args.seed if args.seed is not None else random.SystemRandom().randrange(10**6)
        name = args.name or catalogue.word("words", "player_1")
        computers = [catalogue.word("words", key) for key in OPPONENTS[:count - 1]]
        config = {"players": [name, *computers],
                  "rules": rules, "lang": lang, "full_information": True,
                  "practice": {"level": args.level, "seed": seed}}
        session = Session(game, config, store, resume=resume)

    speaker = None
    if not args.no_speech:
        from companion.speech import load_settings, open_speaker

        settings, _ = load_settings()
        if args.earbud:
            settings = replace(settings, private_outputs=((f"player:{PLAYER}", args.earbud),))
        speaker, _ = open_speaker(lang, settings, enabled=True)
    out = Output(catalogue, json_mode=args.json, speaker=speaker)
    interactive = args.script is None
    pause = args.pause if args.pause is not None else (1.0 if interactive else 0.0)
    table = Table(session, hooks, out, pause, interactive)
    if args.resume and saved is None:
        out.emit([Message("info", "nothing_to_resume")])
    if saved is not None:
        table.say(session.resume())
        table.say(hooks.hand(session.state, PLAYER))
    else:  # the prompt to deal is for a table's dealer: here the companion deals at once
        table.say(m for m in session.start() if m.event != "prompt")
    table.advance()
    source = open(args.script, encoding="utf-8") if args.script else sys.stdin  # noqa: SIM115
    hub, voice = _inputs(args, session, out, source)
    try:
        table.play(hub, voice)
        if interactive:
            out.emit(session.quit())
    except KeyboardInterrupt:
        out.emit(session.quit())
    finally:
        hub.close()
        if args.script:
            source.close()
        if speaker is not None:
            speaker.wait(timeout=600 if not interactive else 15)
            speaker.close()
        store.close()
    return 0


def _inputs(args: argparse.Namespace, session: Any, out: Any, source: Any
            ) -> tuple[Any, Any]:
    """The lines, and the keypad and voice as `companion play` attaches them (no card
    reader: there are no physical cards)."""
    from companion.inputs.hub import InputHub

    hub = InputHub()
    hub.add_lines(source, "script" if args.script else "keyboard")
    if session.game.devices() is not None and args.keypad:
        from companion.inputs.devices import attach_devices

        attach_devices(hub, argparse.Namespace(keypad=args.keypad), out.emit)
    voice = None
    if args.voice:
        from companion.inputs.voice import attach_voice

        # The player's own lines are theirs to hear, on the speaker when they have no earbud
        # (nobody else is at the table): listening may use their hand (Table.say).
        voice = attach_voice(hub, session, args.voice, out.emit, args.voice_profile,
                             engine=args.engine, whisper_model=args.whisper_model,
                             private=lambda seat: seat == PLAYER)
    return hub, voice


class Table:
    """The player's lines in; the dealer's and the computer's steps after each."""

    def __init__(self, session: Any, hooks: Any, out: Any, pause: float,
                 interactive: bool) -> None:
        self.session, self.hooks, self.out = session, hooks, out
        self.pause, self.interactive = pause, interactive
        self._told: int | None = None  # the step whose drawn card was said

    def say(self, messages: Iterable[Message]) -> None:
        """Emit, with the player's private lines public unless they have a channel of
        their own, and the computer's private lines dropped."""
        shown = []
        for m in map(self.hooks.reword, messages):
            if m.private_to is None or m.private_to == PLAYER and self.out.has_earpiece(PLAYER):
                shown.append(m)
            elif m.private_to == PLAYER:
                shown.append(replace(m, private_to=None))
        self.out.emit(shown)

    def play(self, inputs: Iterable[Any], voice: Any = None) -> None:
        """Each input (typed or scripted line, keypad key, heard command; InputItems) by the
        same route as at a table, "card N" read in the sorted hand first."""
        from companion.cli import _route

        for item in inputs:
            if voice is not None and voice.is_push_key(item):
                voice.push_to_talk()
                continue
            state = self.session.state
            if item.text is not None:
                if self.hooks.word(item.text) == "hand":
                    self.say(self.hooks.hand(state, PLAYER))
                    continue
                item = replace(item, text=self.hooks.resolve(item.text, state, PLAYER))
            before = self.session.log
            messages = _route(item, self.session, None)
            if len(self.session.log) < len(before) and before[-1][1] != PLAYER:
                messages = self._undo_to_player(messages)
            if any(m.event == "help" for m in messages):
                messages += self.hooks.help()
            self.say(messages)
            if any(m.event == "quit" for m in messages):
                return
            self.advance()
            if voice is not None:
                voice.follow()

    def _undo_to_player(self, first: list[Message]) -> list[Message]:
        """The computer's (and the dealer's) steps undone, then the player's last move."""
        from companion.shared_commands import Undo

        said = [m for m in first if m.event != "prompt"]
        log = self.session.log
        while log and log[-1][1] != PLAYER:
            said += [m for m in self.session.execute(Undo()) if m.event != "prompt"]
            log = self.session.log
        if not log:  # nothing of the player's to take back: the dealer deals again
            return said
        return said + self.session.execute(Undo())

    def advance(self) -> None:
        """Deal and play the computer's turns until the player is to act or the game ends."""
        game = self.session.game
        while not game.is_over(self.session.state) and game.actor(self.session.state) != PLAYER:
            state = self.session.state
            action = self.hooks.chance(state, self.session.config)
            dealt = action is not None
            if action is None:
                seat = game.actor(state)
                decide = partial(self.hooks.decide, state, seat, self.session.config,
                                 self.session.step)
                action = self._thinking(decide, seat)
                time.sleep(self.pause)
            messages = self.session.execute(action)
            if game.actor(self.session.state) < 0:  # the dealer's prompt: it deals at once
                messages = [m for m in messages if m.event != "prompt"]
            self.say(messages)
            if dealt:
                self.say(self.hooks.hand(self.session.state, PLAYER))
        self._tell_draw()

    def _tell_draw(self) -> None:
        """The card the player draws, said once at each of their turns (again after an
        undo back to that turn)."""
        if self._told != self.session.step:
            self._told = self.session.step
            self.say(self.hooks.drawn(self.session.state, PLAYER))

    def _thinking(self, decide: Callable[[], Any], seat: int) -> Any:
        """The decision; "thinking" is said if it takes longer than half a second (live
        play only: a script's transcript does not depend on the machine's speed)."""
        if not self.interactive:
            return decide()
        with ThreadPoolExecutor(1) as pool:
            future = pool.submit(decide)
            try:
                return future.result(THINKING_AFTER)
            except Waiting:
                self.say([Message("info", "thinking",
                                  {"player": self.session.names[seat]})])
                return future.result()
