"""The English commands every game's grammar offers, whatever the game: its questions and the
speech settings. All but undo change nothing in a game, so the policy answers them at once;
undo takes back a step, so it is asked about when unsure (sphinx.ALWAYS_ANSWERED)."""

from __future__ import annotations

import functools
from collections.abc import Mapping
from types import MappingProxyType

QUERIES: tuple[str, ...] = ("score", "board", "actions", "repeat", "help", "undo", "unseen",
                           "hint", "rules")  # rules: the rulebook on what is asked now
# Voice settings need their carrier word: a bare "slower" was heard for "score".
SETTINGS: tuple[str, ...] = ("faster", "slower", "louder", "quieter")
SETTING_PHRASES: dict[str, str] = {f"speak {s}": s for s in SETTINGS}
# While a list is begun (an offer one card short, objectives named in part): it is dropped.
CANCEL = "cancel"
CANCEL_WORDS: tuple[str, ...] = (CANCEL, "no")
# Said in practice only (a table with a computer): it changes nothing, so it is answered.
PRACTICE_WORDS: tuple[str, ...] = ("hand",)
PRACTICE_RULE = "[my] hand"  # the English grammar's alternative


def practice_phrases(lang: str) -> tuple[str, ...]:
    """The practice words a phrase recognizer listens for in `lang` (companion.shared_words)."""
    from companion.shared_words import HAND_WORDS

    return HAND_WORDS.get(lang, ())


def practice_word(words: str) -> str | None:
    """"hand" when the recognized words (any case, punctuation aside) say it, else None."""
    from companion.shared_words import HAND_WORDS

    said = " ".join("".join(c if c.isalnum() else " " for c in words.lower()).split())
    return "hand" if any(said in sayings for sayings in HAND_WORDS.values()) else None


# Ending a game: offered by voice at game over, where the game-over line names them, and
# always asked about (a stray "quitter" must not stop play, nor "rejouer" deal again).
# Quit is heard in play too, read only (no prompt, no word spelled for a limited beam):
# mid-game the companion says "to stop playing, say quit", and by voice it could not be.
# Never while a yes or no is awaited: an ending is refused then.
ENDINGS: tuple[str, ...] = ("new game", "quit")
QUIT = "quit"


def ending_read(command: str, kind: str) -> bool:
    """Whether an ending heard in a context of `kind` is read: at game over both; quit
    anywhere but where a yes or no is awaited."""
    return kind == "over" or (command == QUIT and kind != "confirm")


def quit_unprompted(lang: str, kind: str) -> tuple[str, ...]:
    """The quit phrases the reading offers in a context of `kind`, unprompted (at game over
    the endings are prompted; where an answer is awaited, none). In play, not the goodbyes
    (SIGN_OFFS): offered, "au revoir" drew a French " voilà." to it, and "adiós" the
    "latino" of a misheard "racimo" (a tie, then read as nothing); a goodbye written
    exactly is still read."""
    from companion.shared_words import ENDING_SAID, SIGN_OFFS

    if kind == "over" or not ending_read(QUIT, kind):
        return ()
    return tuple(p for p in ENDING_SAID[QUIT].get(lang, ()) if p not in SIGN_OFFS.get(lang, ()))


# Help asked as a person asks it ("aide-moi", companion.shared_words.HELP_ASKED), read by
# voice too, but not Spanish "ayúdame": one letter from "ayúdale" (help him), which was
# then answered as help (Pico es-ES, 1 to 4 of 9 decodes a level), while Whisper's
# "ayúdame" was read already, near "ayuda" (0.41 to 0.81).
HELP_UNHEARD = frozenset({"es"})


def help_heard(lang: str) -> tuple[str, ...]:
    """The ways of asking for help the voice reading takes in `lang`, read only."""
    from companion.shared_words import HELP_ASKED

    return () if lang in HELP_UNHEARD else HELP_ASKED.get(lang, ())


def help_offered(lang: str) -> tuple[str, ...]:
    """The ways `lang` offers help rather than asks for it (companion.shared_words
    .HELP_OFFERED): a limited beam, which cannot spell the rest, wrote "help" for "help
    yourself" and it was answered (phrasing_bench --part need); its free transcript says
    it, and a free beam's transcript too (`whisper.asked_first`)."""
    from companion.shared_words import HELP_OFFERED

    return HELP_OFFERED.get(lang, ())


def questions_heard(lang: str) -> dict[str, str]:
    """The questions as a newcomer says them ("combien de points", companion.shared_words
    .QUESTIONS_SAID) that the voice reading takes in `lang`, read only: phrase → the query's
    command, for the queries every grammar offers (QUERIES: not "turn")."""
    from companion.shared_words import QUESTIONS_SAID

    return {phrase: query.value for query, said in QUESTIONS_SAID.items()
            if query.value in QUERIES for phrase in said.get(lang, ())}


@functools.cache
def said_otherwise(lang: str) -> Mapping[str, str]:
    """The phrases that ask a question the grammar offers by its own word, said another way
    (`questions_heard`, `help_heard`) → the question's command: what the voice readings of
    both games take read only, never rescued by the model's likelihood. The question's word
    is a rescue candidate already; offered too, "qui gagne" and "redis" took a share from
    right Momiji moves (" je prends le triple," no longer rescued as "collect green";
    voice_bench, in context). Made once a language: a decode asks it."""
    return MappingProxyType(dict.fromkeys(help_heard(lang), "help") | questions_heard(lang))


def ending_phrases(lang: str) -> dict[str, str]:
    """Phrase → ending command, as `lang` spells them (companion.shared_words.ENDING_SAID)."""
    from companion.shared_words import ENDING_SAID

    return {phrase: command for command in ENDINGS
            for phrase in ENDING_SAID[command].get(lang, ())}


# The ending phrases a prompt leaves out (the reading takes them: Whisper writes them
# unprompted). Prompted, French's were written for table talk ("C'était une nouvelle
# partie." for "c'était une belle partie", 6 of 27 tuning decodes); Ukrainian's limited beam
# writes no word left out ("до побачення": 14 of 18 right prompted, none left out), and
# Spanish lost nothing prompted.
ENDING_UNPROMPTED: dict[str, tuple[str, ...]] = {
    "fr": ("une nouvelle partie", "rejouer", "on rejoue")}


def ending_unprompted(lang: str) -> tuple[str, ...]:
    return ENDING_UNPROMPTED.get(lang, ())


# The English grammars' alternative ("new game | another game | ... | quit | exit") and, at
# game over beside it, what a table says then that is no command: the limited beam, given
# only the endings to spell, wrote "new game" for "good game" (" Good game." freely) and
# asked about it; given these, it writes them, and they read as nothing.
ENDING_RULE = " | ".join(ending_phrases("en"))
ENDING_DECOYS = "good game | well played"
