"""The one play loop: a game at a table, for `companion play` and `companion practice`.

`run_table` opens what surrounds a session (the game log, the speaker and printed lines,
the input hub with the keyboard or a script, the web pages, the keypad and card readers,
voice) the same way for every command, then reads one input at a time until the input
ends or a player quits. A command differs only by its `Seating`: how a new game's
settings are made, which saved game it resumes, the resume command it teaches. A seat
the computer plays (companion/computer.py) is filled by the game's opponent after each
input, so everything a table has works in a game against the computer too.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, replace
from typing import Any

from companion.narrate.message import Message, Priority
from companion.voice.shared_words import PRACTICE_WORDS


@dataclass(frozen=True)
class Seating:
    """What a command brings to the table. `command` is the sub-command that resumes its
    games (`companion practice --resume`); `new_config` makes a new game's settings in the
    catalogue's language, or says why not and gives None; `resumes` tells which saved
    games it continues; `earbuds` maps "player:N" to an audio device; `annotate`, when
    given, rewrites what the table says before it is said (the guide of `companion learn`
    adds its lessons); `attach`, when given, is handed the session and its game log once
    the game is open, before anything is said (the guide reads there the lessons a resumed
    game said, and keeps there those it says)."""

    command: str
    new_config: Callable[[Any], dict[str, Any] | None]
    resumes: Callable[[dict[str, Any]], bool] = lambda config: True
    earbuds: dict[str, str] = field(default_factory=dict)
    annotate: Callable[[list[Message]], list[Message]] | None = None
    attach: Callable[[Any, Any], None] | None = None


def route(item: Any, session: Any, registry: Any) -> list[Message]:
    """One input to its messages: heard, scanned or keyed on a device, or typed."""
    from companion.inputs.voice import PUSH_TO_TALK_LINE, handle_recognition

    if item.source == "voice":
        return handle_recognition(session, item.event)
    if getattr(item, "seat", None) is not None:  # a seat's own page: it acts for it only
        return session.handle_from(item.seat, item.text or "")
    if (item.text or "").strip() == PUSH_TO_TALK_LINE:  # with voice on, it never comes here
        return [Message("error", "voice_off", priority=Priority.REFUSAL)]
    if session.game.devices() is None:  # a game that reads no devices: typed lines only
        return session.handle(item.text) if item.text is not None else []
    from companion.inputs.devices import handle_device_event, handle_line
    from companion.inputs.scan_echo import typed

    if item.event is not None:
        return handle_device_event(session, item.event, registry)
    origin = typed() if item.source == "keyboard" else None  # a wedge scanner types here
    return handle_line(session, item.text or "", registry, origin)


class Table:
    """One session's loop: each input routed, said, then the computer's seats played."""

    def __init__(self, session: Any, out: Any, computer: Any = None,
                 interactive: bool = False,
                 annotate: Callable[[list[Message]], list[Message]] | None = None) -> None:
        self.session, self.out, self.computer = session, out, computer
        self.interactive = interactive
        self.annotate = annotate
        self.registry: Any = None  # the card registry, when the game reads cards

    def say(self, messages: Iterable[Message]) -> None:
        """Emit, as this table's seats hear it (see Computer.shown)."""
        said = list(messages) if self.computer is None else list(
            self.computer.shown(messages, self.out.has_earpiece))
        self.out.emit(self.annotate(said) if self.annotate is not None else said)

    def heard_privately(self, seat: int) -> bool:
        """Whether what is private to `seat` reaches that player alone (voice may then use
        the cards they told)."""
        if self.computer is None:
            return bool(self.out.has_earpiece(seat))
        return bool(self.computer.heard_privately(seat, self.out.has_earpiece))

    def open(self, resumed: bool, before: Iterable[Message] = ()) -> None:
        """The game started, or where a resumed one stands (after `before`: what could
        not start, so that the prompt stays the last thing heard); then the computer's
        turns."""
        messages = self.session.resume() if resumed else self.session.start()
        if self.computer is not None:
            messages = self.computer.opening(messages, resumed)
        self.say([*before, *messages])
        self.advance()

    def advance(self) -> None:
        if self.computer is not None:
            self.computer.advance(self.say)

    def handle(self, item: Any) -> list[Message]:
        """One input's messages (a practice word typed or heard answered, "card N" read, an
        undo taken back to the player's own move when the computer plays)."""
        if self.computer is None:
            return route(item, self.session, self.registry)
        heard = getattr(item.event, "command", None) if item.source == "voice" else None
        text = heard if heard in PRACTICE_WORDS else item.text  # "hand" heard: as if typed
        if text is not None:
            read = self.computer.before(text)
            if not isinstance(read, str):
                return read
            item = replace(item, text=read)
        before = self.session.log
        return self.computer.after(route(item, self.session, self.registry), before)

    def play(self, inputs: Iterable[Any], voice: Any = None, speaker: Any = None) -> bool:
        """Read inputs until they end (False) or a player quits (True)."""
        for item in inputs:
            if speaker is not None and self.interactive:
                speaker.stop()  # a new input silences whatever is being said
            if voice is not None and voice.is_push_key(item):
                voice.push_to_talk()
                continue
            messages = self.handle(item)
            if voice is not None and item.source == "voice":
                messages = voice.after(messages)  # how to enrol, when voice keeps missing
            for m in messages:
                if m.event == "setting":
                    _adjust(self.out, speaker, m.data["setting"])
            self.say(messages)
            if any(m.event == "quit" for m in messages):
                return True
            self.advance()
            if voice is not None:
                voice.follow()
        return False


def run_table(args: argparse.Namespace, game: Any, catalogue: Any, seating: Seating) -> int:
    """Open the game log and the session (a new game, or the saved one to resume), then
    play it at a table with every input and output the command line asks for."""
    from companion.games.registry import resume_command
    from companion.session import Session
    from companion.store import GameStore, default_path

    listener = None
    if getattr(args, "web", False):  # the pages' port first: a busy one refuses the start
        from companion.web.play import reserve

        listener = reserve(args.web_host, args.web_port, catalogue,
                           not getattr(args, "no_speech", False), args.speech_out)
        if listener is None:
            return 2
    # A log that cannot be written is opened read-only (or not at all): the session says
    # so once, and play goes on unsaved.
    store = GameStore(args.db or default_path())
    saved = store.last_unfinished(game.name) if args.resume else None
    if saved is not None and not seating.resumes(saved.config):
        saved = None  # another command's game (a table's, or practice's)
    resume = resume_command(game.name, str(args.db) if args.db else None, seating.command)
    if saved is not None:
        config = dict(saved.config)
        if args.lang:
            config["lang"] = catalogue.lang
        session = Session(game, config, store, saved.id, saved.steps, resume=resume)
        if config.get("lang", catalogue.lang) != catalogue.lang:
            from companion.narrate.catalogue import Catalogue

            catalogue = Catalogue(config["lang"], games=(game.name,))
    else:
        config = seating.new_config(catalogue)
        if config is None:
            store.close()
            if listener is not None:
                listener.close()
            return 2
        session = Session(game, config, store, resume=resume)
    if seating.attach is not None:
        seating.attach(session, store)
    try:
        _play_session(args, session, catalogue, seating, resumed=saved is not None,
                      web=(listener, store))
    finally:
        store.close()
    return 0


def _play_session(args: argparse.Namespace, session: Any, catalogue: Any, seating: Seating,
                  resumed: bool, web: tuple[Any, Any] = (None, None)) -> None:
    """The session at a table: outputs, inputs, the loop, and a clean end."""
    from companion.inputs.hub import InputHub
    from companion.setup_notices import SetupNotices, speech_problems

    out, speaker, notice = _outputs(args, catalogue, seating)
    interactive = args.script is None  # live play: every new input silences the voice
    table = Table(session, out, _computer(args, session, interactive), interactive,
                  seating.annotate)
    listener, store = web
    hub, web, quitting = InputHub(), None, False
    # What could not start (speech, an earbud, a keypad, the microphone) is said before
    # the game's first announcement, so that its prompt stays the last thing heard.
    early: list[Message] = speech_problems(notice, session.names)
    source = open(args.script, encoding="utf-8") if args.script else sys.stdin  # noqa: SIM115
    try:
        if getattr(args, "web", False):  # before the first announcement: the pages hear it
            from companion.web.play import attach_web

            web = attach_web(hub, session, out, args.web_host, args.web_port,
                             seats=_people(table), sock=listener, store=store,
                             new_addresses=getattr(args, "new_addresses", False))
        if args.resume and not resumed:
            early.append(Message("info", "nothing_to_resume"))
        notices = SetupNotices(out, early)
        voice = _attach_inputs(args, table, hub, notices.emit)
        table.open(resumed, notices.held())
        hub.add_lines(source, "script" if args.script else "keyboard")
        quitting = table.play(hub, voice, speaker)
        if interactive and not quitting:  # Ctrl-D: the keyboard's input ended
            out.emit(session.quit())
            quitting = True
    except KeyboardInterrupt:  # Ctrl-C
        out.emit(session.quit())
        quitting = True
    finally:
        hub.close()
        if web is not None:
            web.close()
        if args.script:
            source.close()
        if speaker is not None:
            if not interactive or quitting:
                speaker.wait(timeout=600 if not interactive else 15)
            speaker.close()


def _outputs(args: argparse.Namespace, catalogue: Any, seating: Seating
             ) -> tuple[Any, Any, Any]:
    """The printed lines and, unless --no-speech, the speaker (with the earbuds); and why
    speech or an earbud could not start (open_speaker's notice), or None."""
    from companion.output import Output

    speaker = notice = None
    verbosity = getattr(args, "verbosity", None)
    if not args.no_speech:
        from companion.speech import load_settings, open_speaker

        settings, _ = load_settings()
        if seating.earbuds:
            settings = replace(settings, private_outputs=tuple(seating.earbuds.items()))
        verbosity = verbosity or settings.verbosity
        speaker, notice = open_speaker(catalogue.lang, settings, enabled=True,
                                       out_dir=getattr(args, "speech_out", None))
    catalogue.verbosity = verbosity or "normal"
    out = Output(catalogue, json_mode=args.json, speaker=speaker)
    return out, speaker, notice


def _computer(args: argparse.Namespace, session: Any, interactive: bool) -> Any:
    """The computer's seats of this game (from its saved settings), or None."""
    from companion.computer import Computer, computer_seats

    seats = computer_seats(session.config)
    hooks = session.game.practice()
    if not seats or hooks is None:
        return None
    pause = getattr(args, "pause", None)
    pause = pause if pause is not None else (1.0 if interactive else 0.0)
    return Computer(session, hooks, seats, pause, interactive)


def _people(table: Table) -> list[int]:
    """The seats people sit at (the web pages are theirs)."""
    every = range(len(table.session.names))
    return [s for s in every if table.computer is None or s in table.computer.people]


def _attach_inputs(args: argparse.Namespace, table: Table, hub: Any,
                   announce: Callable[[list[Message]], None]) -> Any:
    """The card readers and keypad (for a game that reads them) and voice; the Voice or
    None. What cannot start is given to `announce`."""
    session = table.session
    if session.game.devices() is not None:
        from companion.cards.registry import open_registry
        from companion.inputs.devices import attach_devices

        table.registry, problem = open_registry(getattr(args, "registry", None))
        if problem is not None:
            announce([Message("error", "cards.registry_unreadable", {"reason": problem})])
        attach_devices(hub, args, announce)
    if not args.voice:
        return None
    from companion.inputs.voice import attach_voice

    return attach_voice(hub, session, args.voice, announce, args.voice_profile,
                        engine=args.engine, whisper_model=args.whisper_model,
                        private=table.heard_privately)


def _adjust(out: Any, speaker: Any, setting: str) -> None:
    """A spoken settings change: the verbosity of what is said, the voice's speed and
    volume (saved for the next game)."""
    from companion.narrate.catalogue import Catalogue

    if setting in Catalogue.VERBOSITIES:
        out.catalogue.verbosity = setting
    if speaker is not None:
        _adjust_speaker(speaker, setting)


def _adjust_speaker(speaker: object, setting: str) -> None:
    """Apply a spoken settings change ("faster") to the voice and save it."""
    import contextlib

    from companion import speech

    step = {"faster": speech.faster, "slower": speech.slower,
            "louder": speech.louder, "quieter": speech.quieter}.get(setting)
    settings = getattr(speaker, "settings", None)
    if settings is None:
        return
    if step is not None:
        settings, _ = step(settings)
    elif setting in ("brief", "normal", "detailed"):
        settings = replace(settings, verbosity=setting)
    update = getattr(speaker, "update_settings", None)
    if update is not None:
        update(settings)
    with contextlib.suppress(OSError):  # a read-only config folder: it holds for this game
        speech.save_settings(settings)
