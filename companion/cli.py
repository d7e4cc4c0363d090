"""The `companion` command. Sub-commands import what they need only when they run, so
that starting a game stays fast."""

from __future__ import annotations

import argparse
import contextlib
import locale
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from companion.games.registry import default_game, game_names, load_game, resume_command
from companion.narrate.catalogue import LANGUAGES, available


def system_language() -> str:
    """The system's language if the companion speaks it, else French (the seeds' language;
    docs/playing.md says so)."""
    candidates = [os.environ.get(v, "") for v in ("LC_ALL", "LC_MESSAGES", "LANG", "LANGUAGE")]
    if not any(candidates):  # no locale in the environment (Windows, macOS apps): ask Python,
        # which would otherwise report the C locale of a Linux box as en_US
        with contextlib.suppress(ValueError):
            candidates.append(locale.getlocale()[0] or "")
    for value in candidates:
        code = value.split(":")[0][:2].lower()
        if code in LANGUAGES and available(code):
            return code
    return "fr"


def add_game_options(parser: argparse.ArgumentParser) -> None:
    """The game (an installed one, by name) and the language, as `play` and `practice`
    take them."""
    default = default_game()
    parser.add_argument("game", nargs="?", default=default, choices=game_names(),
                        help=f"the game (default: {default or 'none installed'})")
    parser.add_argument("--lang", choices=LANGUAGES,
                        help="language (default: the system's, else fr)")


def _add_play(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    play = sub.add_parser("play", help="play a game, spoken and printed")
    add_game_options(play)
    play.add_argument("--rules", metavar="NAME",
                      help="the game's rule set (default: the game's first; an unknown name "
                           "is refused with the list of the game's rule sets)")
    play.add_argument("--players", nargs="+", metavar="NAME", help="the first one starts")
    play.add_argument("--script", type=Path, help="read the lines from FILE, then end")
    play.add_argument("--json", action="store_true", help="one JSON object per announcement")
    play.add_argument("--no-speech", action="store_true", help="print only")
    play.add_argument("--verbosity", choices=["brief", "normal", "detailed"],
                      help="how much is said (default: the saved setting, else normal)")
    play.add_argument("--earbud", action="append", metavar="N=DEVICE", default=[],
                      help="player N's private audio output (ALSA device), e.g. 1=plughw:1")
    play.add_argument("--speech-out", type=Path, metavar="DIR",
                      help="write the speech as WAV files in DIR instead of playing it")
    play.add_argument("--db", type=Path, help="the game log (default: user data folder)")
    play.add_argument("--resume", action="store_true", help="continue the last unfinished game")
    play.add_argument("--reader", action="append", metavar="URL",
                      help="a card reader by pyserial URL (repeatable), e.g. /dev/ttyUSB0")
    play.add_argument("--reader-protocol", action="append",
                      choices=["line", "rdm6300", "uid-lines"], help="one per --reader")
    play.add_argument("--registry", type=Path, help="the card registry file")
    play.add_argument("--web", action="store_true",
                      help="also serve the game as a live page per seat and for watchers")
    play.add_argument("--web-host", default="127.0.0.1", metavar="HOST",
                      help="where the pages are served (default: this computer only; "
                           "0.0.0.0: the local network)")
    play.add_argument("--web-port", type=int, default=8765, metavar="PORT",
                      help="the pages' port (default 8765; 0: any free port)")
    add_live_inputs(play)
    play.set_defaults(func=run_play)


def add_live_inputs(parser: argparse.ArgumentParser) -> None:
    """The keypad and voice options, shared by `play` and `practice`."""
    from companion.voice.options import add_engine_options

    parser.add_argument("--keypad", metavar="DEVICE",
                        help="an evdev keypad (Linux) by name or path")
    parser.add_argument("--voice", nargs="?", const="push", choices=["push", "always"],
                        help="voice commands: push-to-talk with the 00 key (default), or "
                             "always listening (table talk can then be heard as a command)")
    parser.add_argument("--voice-profile", metavar="NAME",
                        help="listen with NAME's voice profile (see companion voice-enroll)")
    add_engine_options(parser)


def run_play(args: argparse.Namespace) -> int:
    from companion.inputs.hub import InputHub
    from companion.narrate.catalogue import Catalogue
    from companion.narrate.message import Message
    from companion.output import Output
    from companion.session import Session
    from companion.store import GameStore, default_path

    game = load_game(args.game)
    lang = args.lang or system_language()
    catalogue = Catalogue(lang, games=(game.name,))
    # Everything that can refuse the command line is checked before a game is written.
    if args.script is not None and not args.script.is_file():
        print(catalogue.render(Message("error", "no_script", {"path": str(args.script)})))
        return 2
    earbuds = _earbuds(args.earbud)
    if earbuds is None:
        print(catalogue.render(Message("error", "bad_earbud")))
        return 2
    # A log that cannot be written is opened read-only (or not at all): the session says
    # so once, and play goes on unsaved.
    store = GameStore(args.db or default_path())
    saved = store.last_unfinished(game.name) if args.resume else None
    resume = resume_command(game.name, str(args.db) if args.db else None)
    if saved is not None:
        config = dict(saved.config)
        if args.lang:
            config["lang"] = lang
        session = Session(game, config, store, saved.id, saved.steps, resume=resume)
        lang = config.get("lang", lang)
        catalogue = Catalogue(lang, games=(game.name,))
    else:
        config = _new_config(args, game, catalogue)
        if config is None:
            return 2
        session = Session(game, config, store, resume=resume)

    speaker = None
    notice = None
    verbosity = args.verbosity
    if not args.no_speech:
        from companion.speech import load_settings, open_speaker

        settings, _ = load_settings()
        if earbuds:
            from dataclasses import replace

            settings = replace(settings, private_outputs=tuple(earbuds.items()))
        verbosity = verbosity or settings.verbosity
        speaker, notice = open_speaker(lang, settings, enabled=True, out_dir=args.speech_out)
    catalogue.verbosity = verbosity or "normal"
    out = Output(catalogue, json_mode=args.json, speaker=speaker)
    if notice is not None:
        out.notice("notice", catalogue.word("messages", "speech_unavailable"))

    # Live play (keyboard, keypad, readers, voice): every new input silences the voice.
    # A script is heard to the end instead.
    interactive = args.script is None
    hub = InputHub()
    web = None
    if args.web:  # before the first announcement, so that the pages hear it too
        from companion.web.play import attach_web

        web = attach_web(hub, session, out, args.web_host, args.web_port)
    if args.resume and saved is None:
        out.emit([Message("info", "nothing_to_resume")])
    out.emit(session.resume() if saved is not None else session.start())
    source = open(args.script, encoding="utf-8") if args.script else sys.stdin  # noqa: SIM115
    hub.add_lines(source, "script" if args.script else "keyboard")
    registry = None
    if game.devices() is not None:
        from companion.cards.registry import open_registry
        from companion.inputs.devices import attach_devices

        registry, problem = open_registry(args.registry)
        if problem is not None:
            out.emit([Message("error", "cards.registry_unreadable", {"reason": problem})])
        attach_devices(hub, args, out.emit)
    voice = None
    if args.voice:
        from companion.inputs.voice import attach_voice

        voice = attach_voice(hub, session, args.voice, out.emit, args.voice_profile,
                             engine=args.engine, whisper_model=args.whisper_model,
                             private=out.has_earpiece)
    quitting = False  # `quit` said: the loop ends
    try:
        for item in hub:
            if speaker is not None and interactive:
                speaker.stop()  # a new input silences whatever is being said
            if voice is not None and voice.is_push_key(item):
                voice.push_to_talk()
                continue
            messages = _route(item, session, registry)
            for m in messages:
                if m.event == "setting":
                    if m.data["setting"] in Catalogue.VERBOSITIES:
                        catalogue.verbosity = m.data["setting"]
                    if speaker is not None:
                        _adjust(speaker, m.data["setting"])
            out.emit(messages)
            quitting = any(m.event == "quit" for m in messages)
            if quitting:
                break
            if voice is not None:
                voice.follow()
        if interactive and not quitting:  # Ctrl-D: the keyboard's input ended
            quitting = _say_quit(out, session)
    except KeyboardInterrupt:  # Ctrl-C
        quitting = _say_quit(out, session)
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
        if store is not None:
            store.close()
    return 0


def _say_quit(out: Any, session: Any) -> bool:
    """Play stops: say whether the game is saved and how to go on with it."""
    out.emit(session.quit())
    return True


def _route(item: Any, session: Any, registry: Any) -> list[Any]:
    """One input to its messages: heard, scanned or keyed on a device, or typed."""
    from companion.inputs.voice import PUSH_TO_TALK_LINE, handle_recognition

    if item.source == "voice":
        return handle_recognition(session, item.event)
    if (item.text or "").strip() == PUSH_TO_TALK_LINE:  # with voice on, it never comes here
        from companion.narrate.message import Message, Priority

        return [Message("error", "voice_off", priority=Priority.REFUSAL)]
    if session.game.devices() is None:  # a game that reads no devices: typed lines only
        return session.handle(item.text) if item.text is not None else []
    from companion.inputs.devices import handle_device_event, handle_line
    from companion.inputs.scan_echo import typed

    if item.event is not None:
        return handle_device_event(session, item.event, registry)
    origin = typed() if item.source == "keyboard" else None  # a wedge scanner types here
    return handle_line(session, item.text or "", registry, origin)


def _new_config(args: argparse.Namespace, game: Any, catalogue: Any) -> dict[str, Any] | None:
    """A new game's players, rules and language; None (after saying why) if refused."""
    from companion.narrate.message import Message

    low, high = game.players
    names = ([name.strip() for name in args.players] if args.players
             else [catalogue.word("words", f"player_{n}") for n in range(1, low + 1)])
    params = {"game": game.name.capitalize(), "low": low, "high": high, "n": len(names)}
    if not low <= len(names) <= high:
        key = "players_exact" if low == high else "players_count"
        print(catalogue.render(Message("error", key, params)))
        return None
    refusal = _names_refusal(names)
    if refusal is not None:
        print(catalogue.render(refusal))
        return None
    rules = args.rules or game.rule_sets[0]
    if rules not in game.rule_sets:
        print(catalogue.render(Message("error", "unknown_rules", {
            **params, "rules": rules, "known": ", ".join(game.rule_sets)})))
        return None
    return {"players": names, "rules": rules, "lang": catalogue.lang}


def _names_refusal(names: list[str]) -> Any:
    """Why these player names cannot be told apart (empty, or the same name twice, in any
    case: "Ana" and "ana" sound alike), or None."""
    from companion.narrate.message import Message

    seen: set[str] = set()
    for i, name in enumerate(names, start=1):
        if not name:
            return Message("error", "players_empty", {"i": i})
        if name.casefold() in seen:
            return Message("error", "players_duplicate", {"name": name})
        seen.add(name.casefold())
    return None


def _earbuds(specs: list[str]) -> dict[str, str] | None:
    """`--earbud 1=plughw:1` → {"player:0": "plughw:1"}; None if a spec is malformed."""
    out = {}
    for spec in specs:
        number, sep, device = spec.partition("=")
        if not sep or not number.strip().isdigit() or not device.strip():
            return None
        out[f"player:{int(number) - 1}"] = device.strip()
    return out


def _adjust(speaker: object, setting: str) -> None:
    """Apply a spoken settings change ("faster") to the voice and save it."""
    from companion import speech

    step = {"faster": speech.faster, "slower": speech.slower,
            "louder": speech.louder, "quieter": speech.quieter}.get(setting)
    settings = getattr(speaker, "settings", None)
    if settings is None:
        return
    if step is not None:
        settings, _ = step(settings)
    elif setting in ("brief", "normal", "detailed"):
        from dataclasses import replace

        settings = replace(settings, verbosity=setting)
    update = getattr(speaker, "update_settings", None)
    if update is not None:
        update(settings)
    with contextlib.suppress(OSError):  # a read-only config folder: it holds for this game
        speech.save_settings(settings)


# Sub-commands beside `play`, by name; each module registers itself with add_parser(sub).
REGISTRARS = {
    "stickers": "companion.cli_stickers", "cards": "companion.cli_cards",
    "readers": "hardware.cli", "listen": "companion.voice.cli",
    "voice-enroll": "companion.voice.enroll", "practice": "companion.cli_practice",
    "rules": "companion.cli_rules",
}


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The parser; given the sub-command about to run, only its module is imported, so
    `companion play` starts without loading the label sheets, readers or recognizer."""
    parser = argparse.ArgumentParser(
        prog="companion",
        description="An offline, spoken companion for tactile card games "
        f"(installed: {', '.join(game_names()) or 'none'}).",
    )
    sub = parser.add_subparsers(dest="command", required=True)
    _add_play(sub)
    for name, module in REGISTRARS.items():
        if command is not None and command in REGISTRARS and command != name:
            continue
        if command == "play":
            break
        try:
            registrar = __import__(module, fromlist=["add_parser"])
        except ImportError:
            continue  # an optional part that is not installed
        registrar.add_parser(sub)
    _describe(parser)
    return parser


def _describe(parser: argparse.ArgumentParser) -> None:
    """A sub-command without a description of its own is described by its one-line help, so
    that `companion X --help` always says what X does."""
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            helps = {a.dest: a.help for a in action._choices_actions}
            for name, child in action.choices.items():
                if not child.description and helps.get(name):
                    child.description = str(helps[name]).capitalize() + "."
                _describe(child)


def main(argv: Sequence[str] | None = None) -> int:
    words = list(sys.argv[1:] if argv is None else argv)
    parser = build_parser(words[0] if words else None)
    args = parser.parse_args(words)
    try:
        return int(args.func(args) or 0)
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return _reader_gone()
    except Exception as error:  # never a traceback for a player; developers can ask for it
        if os.environ.get("TACTILE_COMPANION_DEBUG"):
            raise
        print(f"The companion stopped on an unexpected error ({type(error).__name__}: {error}). "
              "Every accepted step is saved: run it again with --resume.")
        return 1


def _reader_gone() -> int:
    """Our output was piped into a program that stopped reading (`| head -1`): end quietly.
    Python would still flush stdout at exit and print a BrokenPipeError, so stdout now
    points at the null device (the recipe of the `signal` module's documentation)."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())
    os.close(devnull)
    return 1


if __name__ == "__main__":
    sys.exit(main())
