"""The language the companion speaks when none is given: the one chosen once on this
machine (asked by the first `scripts/play.sh`), else the system's, else French.

A `C`, `C.UTF-8` or `POSIX` locale (servers, containers, fresh installs) names no language:
it means English, the language of the README a newcomer has just read.
The choice is kept in the settings file (companion.speech.settings.config_path), in a
`[companion]` table beside the others.
"""

from __future__ import annotations

import contextlib
import locale
import os
import sys
from typing import Any, TextIO

from companion.narrate.catalogue import LANGUAGES, available

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

TABLE = "companion"
# The choices as asked: each language named in its own words, by keypad digit.
CHOICES = ("en", "fr", "es", "uk")
ENV_VARS = ("LC_ALL", "LC_MESSAGES", "LANG", "LANGUAGE")


def _neutral(value: str) -> bool:
    """A locale that names no language (the C / POSIX locale, with or without encoding)."""
    base = value.split(".")[0].split("@")[0]
    return base in ("C", "POSIX")


def system_language() -> str:
    """The system's language if the companion speaks it; English for the C / POSIX locale;
    else French (the seeds' language; docs/playing.md says so)."""
    candidates = [os.environ.get(v, "") for v in ENV_VARS]
    if not any(candidates):  # no locale in the environment (Windows, macOS apps): ask Python,
        # which would otherwise report the C locale of a Linux box as en_US
        with contextlib.suppress(ValueError):
            candidates.append(locale.getlocale()[0] or "")
    for value in candidates:
        if not value:
            continue
        if _neutral(value.split(":")[0]):
            return "en"
        code = value.split(":")[0][:2].lower()
        if code in LANGUAGES and available(code):
            return code
    return "fr"


def saved_language() -> str | None:
    """The language chosen once on this machine, or None."""
    from companion.speech.settings import config_path

    try:
        data = tomllib.loads(config_path().read_text("utf-8"))
    except (OSError, ValueError):
        return None
    lang = data.get(TABLE, {}).get("language")
    return lang if lang in LANGUAGES else None


def save_language(lang: str) -> None:
    """Remember `lang` for the next games (the file's other tables are kept)."""
    import tomli_w

    from companion.speech.settings import config_path

    path = config_path()
    try:
        data = tomllib.loads(path.read_text("utf-8"))
    except (OSError, ValueError):
        data = {}
    data.setdefault(TABLE, {})["language"] = lang
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(tomli_w.dumps(data), "utf-8")


def default_language() -> str:
    """The language of a game started without --lang."""
    return saved_language() or system_language()


def player_language(asked: str | None) -> str:
    """The language a command speaks: the one asked for (--lang, "fr-FR" read as "fr"),
    else `default_language()`. Every command chooses so: a player who chose French once
    hears French from play, listen, enrolment and the last-resort error line alike."""
    return asked.lower()[:2] if asked else default_language()


def read_choice(answer: str, default: str) -> str | None:
    """A typed or keyed answer to the language question: a digit (1 to 4), a language's
    code or its own name; Enter alone keeps `default`. None: not understood."""
    from companion.narrate.catalogue import Catalogue

    text = answer.strip().casefold()
    if not text:
        return default
    if text.isdigit() and 1 <= int(text) <= len(CHOICES):
        return CHOICES[int(text) - 1]
    for code in CHOICES:
        names = {code, Catalogue(code, games=()).word("words", "language_name").casefold()}
        if text in names:
            return code
    return None


TRIES = 3  # answers not understood before giving up: nothing kept, asked again next time


def ask_once(stdin: TextIO = sys.stdin, stdout: TextIO = sys.stdout,
             speak: bool = True, speech_out: str | os.PathLike[str] | None = None,
             ) -> str | None:
    """The first `scripts/play.sh` on a machine asks the language once (printed and
    spoken; a keypad digit answers), says the choice in the language chosen and remembers
    it. Nothing is asked when a language is saved already, or when nobody can answer
    (input that is not a terminal). `speech_out`: a folder the speech is written to as
    WAV files instead of the sound device (`--speech-out`, as in play)."""
    if saved_language() is not None or not stdin.isatty():
        return None
    default = system_language()
    question, spoken = _question(default)
    speaker = _speaker(default, speech_out) if speak else None
    chosen = _ask(question, spoken, default, stdin, stdout, speaker)
    if chosen is not None:
        _keep(chosen, stdout, speaker)
    if speaker is not None and hasattr(speaker, "close"):
        speaker.close()
    return chosen


def _question(default: str) -> tuple[str, list[tuple[str, str]]]:
    """The question as printed, and as spoken: (text, language) parts."""
    from companion.narrate.catalogue import Catalogue
    from companion.narrate.message import Message

    catalogue = Catalogue(default, games=())
    names = {f"l{i}": Catalogue(code, games=()).word("words", "language_name")
             for i, code in enumerate(CHOICES, start=1)}
    kept = names[f"l{CHOICES.index(default) + 1}"]
    ask = Message("", "choose_language_ask")
    how = Message("", "choose_language_how", {"default": kept})
    question = catalogue.render(Message("setup", "choose_language",
                                        {**names, "ask": ask, "how": how}))
    # heard in parts: each language's name (and its digit) in that language's own voice,
    # which says "українська" as a Ukrainian does (an English voice spells it out)
    spoken = [(catalogue.render(ask), default),
              *((f"{i}, {names[f'l{i}']}", code) for i, code in enumerate(CHOICES, start=1)),
              (catalogue.render(how), default)]
    return question, spoken


def _ask(question: str, spoken: list[tuple[str, str]], default: str, stdin: TextIO,
         stdout: TextIO, speaker: Any) -> str | None:
    """The question printed and said until an answer is understood (TRIES at most); None
    when none is, or when the input ends."""
    for _ in range(TRIES):
        stdout.write(question + "\n")
        stdout.flush()
        if speaker is not None:
            for text, lang in spoken:  # kind None: queued one after the other
                speaker.say(text, kind=None, lang=lang)
        line = stdin.readline()
        if speaker is not None:
            speaker.stop()
        if not line:  # input ended: nothing remembered
            return None
        chosen = read_choice(line, default)
        if chosen is not None:
            return chosen
    return None


def _keep(chosen: str, stdout: TextIO, speaker: Any) -> None:
    """The choice remembered, then said back in the language chosen."""
    from companion.narrate.catalogue import Catalogue
    from companion.narrate.message import Message

    with contextlib.suppress(OSError):  # a read-only config folder: asked next time
        save_language(chosen)
    said = Catalogue(chosen, games=()).render(Message("setup", "language_chosen"))
    stdout.write(said + "\n")
    stdout.flush()
    if speaker is not None:  # heard too, in the language chosen, before the game starts
        speaker.set_language(chosen)
        speaker.say(said)
        speaker.wait(timeout=30)


def _speaker(lang: str, out_dir: str | os.PathLike[str] | None = None):  # type: ignore[no-untyped-def]
    """A voice for the question, or None when the machine has none (printing only)."""
    try:
        from companion.speech import open_speaker

        return open_speaker(lang, out_dir=out_dir)[0]
    except Exception:  # never a traceback before the first game
        return None


def main(argv: list[str] | None = None) -> None:
    """scripts/play.sh: `python -m companion.language [play's arguments]`. Of play's
    arguments, `--no-speech` and `--speech-out DIR` apply to the question too; the
    others are the game's."""
    import argparse

    parser = argparse.ArgumentParser(add_help=False)
    parser.add_argument("--no-speech", action="store_true")
    parser.add_argument("--speech-out")
    args, _ = parser.parse_known_args(argv)
    ask_once(speak=not args.no_speech, speech_out=args.speech_out)


if __name__ == "__main__":
    main()
