"""`companion rules [game]`: a game's rulebook read aloud, section by section.

Lines come from standard input (typed, or a keypad that types: Enter or plus reads on,
minus goes back, star repeats, slash gives the contents, a number opens a section) or
from `--script`; any other line is a question by word ("what is a gift"). With `--voice`
the same are said (push-to-talk with 00, or always listening: companion/rulebook/spoken.py
lists what is listened for in each language). Each answer is one printed line, and spoken
unless `--no-speech`. See docs/learning.md.
"""

from __future__ import annotations

import argparse
from typing import Any

from companion.narrate.message import Message


def add_parser(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    from companion.cli import add_game_options, add_reading_options

    p = sub.add_parser("rules", help="a game's rules read aloud: sections, contents, "
                                     "questions by word")
    add_game_options(p)
    add_reading_options(p)
    p.set_defaults(func=run_rules)


def run_rules(args: argparse.Namespace) -> int:
    from companion.cli import reading_catalogue, reading_outputs
    from companion.inputs.hub import InputHub
    from companion.reading_loop import answer_each, close_reading, open_lines
    from companion.rulebook.navigator import Navigator

    catalogue = reading_catalogue(args)
    book = _rulebook(args, catalogue) if catalogue is not None else None
    if book is None:
        return 2
    out, speaker = reading_outputs(args, catalogue)
    navigator = Navigator(book)
    hub = InputHub()  # lines (bounded, never ended by a bad byte) and what is heard
    source = open_lines(args)
    # before the opening: why voice cannot start is said first
    voice = _listen(args, hub, book, catalogue, out) if args.voice else None

    def respond(item: Any) -> bool:
        messages = answer(navigator, item, voice and voice.heard)
        out.emit(messages)
        return any(m.event == "quit" for m in messages)

    try:
        out.emit(navigator.opening())
        hub.add_lines(source, "script" if args.script else "keyboard")
        answer_each(hub, speaker, voice, args.script is None, respond)
    except KeyboardInterrupt:
        pass
    finally:
        close_reading(args, hub, source, speaker)
    return 0


def _rulebook(args: argparse.Namespace, catalogue: Any) -> Any:
    """The game's rulebook in the catalogue's language; None, once said, when it has none."""
    from companion.rulebook.book import RulebookMissing, load

    try:
        return load(args.game, catalogue.lang)
    except RulebookMissing:
        print(catalogue.render(Message("error", "rules.missing",
                                       {"game": args.game.capitalize()})))
        return None


def _listen(args: argparse.Namespace, hub: Any, book: Any, catalogue: Any, out: Any) -> Any:
    """The voice listening for the rulebook's phrases, or None once said why it cannot."""
    from companion.inputs.reading_voice import attach_reading_voice
    from companion.rulebook.spoken import phrases

    listened = phrases(book, catalogue.lang)
    return attach_reading_voice(hub, lambda: listened, catalogue.lang, args.voice,
                                out.emit, args.whisper_model)


def answer(navigator: Any, item: Any, heard_by: Any = None) -> list[Message]:
    """One input's answer: a line read by the navigator, or what was heard (`heard_by`:
    the voice's policy, ReadingVoice.heard: a command read back from the rulebook's
    phrases, or why it was not taken)."""
    from companion.rulebook.navigator import parse

    if item.source == "voice" and heard_by is not None:
        heard = heard_by(item.event)
        return list(heard.said) + (navigator.execute(parse(heard.command))
                                   if heard.command is not None else [])
    return navigator.handle(item.text or "")
