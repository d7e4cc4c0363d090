"""The `companion` command. Sub-commands import what they need only when they run, so
that starting a game stays fast."""

from __future__ import annotations

import argparse
import contextlib
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from companion.games import registry
from companion.games.registry import (
    GameUnavailable,
    default_game,
    game_names,
    load_game,
    save_choice,
)
from companion.language import default_language, player_language, system_language
from companion.narrate.catalogue import LANGUAGES

__all__ = ["default_language", "system_language", "main"]


def add_reading_options(parser: argparse.ArgumentParser) -> None:
    """Where the lines come from and how answers go out, for the spoken tools beside play
    (rules, the sticker quiz)."""
    parser.add_argument("--script", type=Path, help="read the lines from FILE, then end")
    parser.add_argument("--json", action="store_true", help="one JSON object per announcement")
    parser.add_argument("--no-speech", action="store_true", help="print only")
    parser.add_argument("--voice", nargs="?", const="push", choices=["push", "always"],
                        help="spoken commands: push-to-talk with the 00 key (default), or "
                             "always listening (needs the Whisper recognizer)")
    parser.add_argument("--whisper-model", metavar="DIR", default=None,
                        help="a CTranslate2 Whisper model directory (default: the installed "
                             "tiny.en for English, base for other languages)")


def reading_catalogue(args: argparse.Namespace) -> Any:
    """The catalogue of a spoken tool's game and language; None, once said, when
    `--script` names no file."""
    from companion.narrate.catalogue import Catalogue
    from companion.narrate.message import Message

    catalogue = Catalogue(args.lang or system_language(), games=(args.game,))
    if args.script is not None and not args.script.is_file():
        print(catalogue.render(Message("error", "no_script", {"path": str(args.script)})))
        return None
    return catalogue


def reading_outputs(args: argparse.Namespace, catalogue: Any) -> tuple[Any, Any]:
    """A spoken tool's printed (or --json) lines and, unless --no-speech, its speaker; why
    speech could not start is said first, as play says it."""
    from companion.output import Output
    from companion.setup_notices import speech_problems

    speaker = notice = None
    if not args.no_speech:
        from companion.speech import load_settings, open_speaker

        settings, _ = load_settings()
        speaker, notice = open_speaker(catalogue.lang, settings, enabled=True)
    out = Output(catalogue, json_mode=args.json, speaker=speaker)
    out.emit(speech_problems(notice, ()))
    return out, speaker


def add_game_options(parser: argparse.ArgumentParser) -> None:
    """The game (an installed one, by name) and the language, as `play` and `practice`
    take them."""
    default = default_game()
    parser.add_argument("game", nargs="?", default=default, choices=game_names(),
                        help=f"the game (default: {default or 'none installed'})")
    parser.add_argument("--lang", choices=LANGUAGES,
                        help="language (default: the one chosen at set-up, else the system's; "
                             "English for the C locale, French for a language not spoken)")
    parser.add_argument("--remember-game", action="store_true",
                        help="make this game the one played when none is named (saved)")


def remember_game(args: argparse.Namespace, catalogue: Any) -> None:
    """`--remember-game`: save the game as the default of `play` and `practice`, and say
    so (or why not)."""
    if not getattr(args, "remember_game", False):
        return
    from companion.narrate.message import Message

    params = {"game": args.game.capitalize()}
    try:
        save_choice(args.game)
    except OSError:
        print(catalogue.render(Message("error", "game_not_remembered", params)))
        return
    print(catalogue.render(Message("info", "game_remembered", params)))


def _say_skipped(name: str, reason: str) -> None:
    """An installed game that cannot be played, said once in one plain line (on standard
    error: with --json, standard output holds announcements only)."""
    from companion.narrate.catalogue import Catalogue
    from companion.narrate.message import Message

    catalogue = Catalogue(default_language(), games=())
    print(catalogue.render(Message("info", "game_skipped", {"game": name, "reason": reason})),
          file=sys.stderr)


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
    play.add_argument("--earbud", action="append", metavar="N=DEVICE", default=[],
                      help="player N's private audio output (ALSA device), e.g. 1=plughw:1")
    play.add_argument("--db", type=Path, help="the game log (default: user data folder)")
    play.add_argument("--resume", action="store_true", help="continue the last unfinished game")
    add_live_inputs(play)
    play.set_defaults(func=run_play)


def add_live_inputs(parser: argparse.ArgumentParser) -> None:
    """What every table may have, shared by `play` and `practice`: the keypad, card
    readers, voice, web pages, verbosity and speech files."""
    from companion.voice.options import add_engine_options

    parser.add_argument("--keypad", metavar="DEVICE",
                        help="an evdev keypad (Linux) by name or path")
    parser.add_argument("--voice", nargs="?", const="push", choices=["push", "always"],
                        help="voice commands: push-to-talk with the 00 key (default), or "
                             "always listening (table talk can then be heard as a command)")
    parser.add_argument("--voice-profile", metavar="NAME",
                        help="listen with NAME's voice profile (see companion voice-enroll)")
    parser.add_argument("--verbosity", choices=["brief", "normal", "detailed"],
                        help="how much is said (default: the saved setting, else normal)")
    parser.add_argument("--speech-out", type=Path, metavar="DIR",
                        help="write the speech as WAV files in DIR instead of playing it")
    parser.add_argument("--reader", action="append", metavar="URL",
                        help="a card reader by pyserial URL (repeatable), e.g. /dev/ttyUSB0")
    parser.add_argument("--reader-protocol", action="append",
                        choices=["line", "rdm6300", "uid-lines"], help="one per --reader")
    parser.add_argument("--registry", type=Path, help="the card registry file")
    parser.add_argument("--web", action="store_true",
                        help="also serve the game as a live page per seat and for watchers")
    parser.add_argument("--web-host", default="127.0.0.1", metavar="HOST",
                        help="where the pages are served (default: this computer only; "
                             "0.0.0.0: the local network)")
    parser.add_argument("--web-port", type=int, default=8765, metavar="PORT",
                        help="the pages' port (default 8765; 0: any free port)")
    parser.add_argument("--new-addresses", action="store_true",
                        help="with --resume --web: new page addresses (the old ones stop "
                             "working); by default a resumed game keeps its pages' addresses")
    add_engine_options(parser)


def run_play(args: argparse.Namespace) -> int:
    from companion.narrate.catalogue import Catalogue
    from companion.narrate.message import Message
    from companion.table import Seating, run_table

    game = load_game(args.game)
    catalogue = Catalogue(player_language(args.lang), games=(game.name,))
    remember_game(args, catalogue)
    # Everything that can refuse the command line is checked before a game is written.
    if args.script is not None and not args.script.is_file():
        print(catalogue.render(Message("error", "no_script", {"path": str(args.script)})))
        return 2
    earbuds = _earbuds(args.earbud)
    if earbuds is None:
        print(catalogue.render(Message("error", "bad_earbud")))
        return 2
    seating = Seating("play", lambda said_in: _new_config(args, game, said_in),
                      earbuds=earbuds)
    return run_table(args, game, catalogue, seating)


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


MAX_NAME = 40  # characters in a player's name


def _names_refusal(names: list[str]) -> Any:
    """Why these player names cannot be told apart (empty, or the same name twice, in any
    case: "Ana" and "ana" sound alike), or None."""
    from companion.narrate.message import Message

    seen: set[str] = set()
    for i, name in enumerate(names, start=1):
        if not name:
            return Message("error", "players_empty", {"i": i})
        if len(name) > MAX_NAME:  # said at every turn and shown on every web page
            return Message("error", "players_long", {"i": i, "n": len(name), "max": MAX_NAME})
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


# Sub-commands beside `play`, by name; each module registers itself with add_parser(sub).
REGISTRARS = {
    "stickers": "companion.cli_stickers", "cards": "companion.cli_cards",
    "readers": "hardware.cli", "listen": "companion.voice.cli",
    "voice-enroll": "companion.voice.enroll", "practice": "companion.cli_practice",
    "rules": "companion.cli_rules", "learn": "companion.cli_learn",
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
    registry.on_skip = _say_skipped
    parser = build_parser(words[0] if words else None)
    args = parser.parse_args(words)
    try:
        return int(args.func(args) or 0)
    except GameUnavailable:  # said when it was found
        return 2
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return _reader_gone()
    except Exception as error:  # never a traceback for a player; developers can ask for it
        if os.environ.get("TACTILE_COMPANION_DEBUG"):
            raise
        _stopped(args, error)
        return 1


SPOKEN_STOP_WAIT = 20  # seconds: the line is about ten seconds long at the usual rate


def _stopped(args: argparse.Namespace, error: Exception) -> None:
    """The last resort: the unexpected error said in one plain line, with its type and
    text (a volunteer reports them), in the player's language (--lang, else the one chosen
    on this machine, as play chooses) and, where the command speaks, aloud with its type
    alone: its text is the program's own words, which may hold a card of a player's hand,
    and the speaker is the whole table's. Whatever fails here leaves the English line: this
    must never raise."""
    try:
        details = " ".join(f"{type(error).__name__}: {error}".split())
    except Exception:  # an error whose text cannot be made
        details = type(error).__name__
    line, lang, english = _stop_line(args, details)
    try:
        print(line, flush=True)
    except Exception:  # a terminal that cannot show the language's letters
        with contextlib.suppress(Exception):
            print(english, flush=True)
    if getattr(args, "no_speech", True) is False:
        aloud, lang, _ = _stop_line(args, type(error).__name__)
        _say_stopped(lang, aloud, getattr(args, "speech_out", None))


def _stop_line(args: argparse.Namespace, details: str) -> tuple[str, str, str]:
    """(the stop with `details`, its language, the same in English): the player's language,
    or English when the catalogue fails or its sentence loses the details."""
    resumable = hasattr(args, "resume")  # play and practice keep every accepted step
    english = (f"The companion stopped on an unexpected error ({details}). "
               + ("Every accepted step is saved: run it again with --resume." if resumable
                  else "Run it again; if it stops again, report this line."))
    with contextlib.suppress(Exception):  # a broken catalogue or configuration: English
        from companion.narrate.catalogue import Catalogue
        from companion.narrate.message import Message

        catalogue = Catalogue(player_language(getattr(args, "lang", None)), games=())
        key = "unexpected_error" if resumable else "unexpected_error_again"
        said = " ".join(catalogue.render(Message("error", key, {"error": details})).split())
        if details in said:  # a sentence that lost the error is no report: keep English
            return said, catalogue.lang, english
    return english, "en", english


def _say_stopped(lang: str, line: str, out_dir: Any) -> None:
    """The stop said aloud, as the command would have spoken (its --speech-out too): a
    player who listens rather than reads must not be left with silence. The command's own
    speaker is closed by now, so a new one is opened; speech that cannot start is skipped
    (the line is printed), and what is said is waited for a bounded time."""
    # speech may be what failed, and Ctrl-C may cut it: either way the line is printed
    with contextlib.suppress(Exception, KeyboardInterrupt):
        from companion.speech import open_speaker

        speaker, _ = open_speaker(lang, out_dir=out_dir)
        try:
            speaker.say(line, kind=None)
            speaker.wait(timeout=SPOKEN_STOP_WAIT)
        finally:
            speaker.close()


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
