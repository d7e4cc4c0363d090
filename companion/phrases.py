"""Longest-match lookup of words and multi-word phrases, shared by every game's interpreter.

A game lists its phrases with their meanings (kind, value); a line becomes the list of
meanings in order. Digits stay digits (their meaning depends on the moment), fillers are
dropped, and an unknown word is refused with what was understood before it. A stray
character (no letter, digit, keypad key or sentence punctuation) refuses the whole line.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from functools import cache
from typing import Any

from rapidfuzz import fuzz, process
from rapidfuzz.distance import DamerauLevenshtein

from companion import shared_words
from companion.errors import InvalidCommand, is_long
from companion.normalize import Token, normal, sentence, stray, tokens
from companion.shared_commands import Adjust, Ask, Cancel, MetaCommand, NewGame, Quit, Reply, Undo

Word = tuple[str, object]
# A slip is guessed from a word of at least this many letters, when it is this similar
# (rapidfuzz's 0-100 Indel ratio: "secrte" / "secret" 83, "gfit" / "gift" 75).
MIN_GUESSED = 4
GUESS_SCORE = 74
# A game's own rule for one word before the table is consulted (e.g. "the" vs "thé").
Special = Callable[[Token], Word | None]
# Help offered at the table ("aide-le", "help yourself"): refused with its own reason.
OFFERED: Word = ("offered", None)


class PhraseTable:
    def __init__(self) -> None:
        self._late: list[tuple[list[str], Word]] = []
        self._table: dict[tuple[str, ...], Word] = {}
        self._longest = 1
        self._words: list[str] | None = None  # the one-word phrases, for guesses

    def put(self, phrases: Iterable[str], meaning: Word) -> None:
        """Add phrases (folded and cut as a line is: "donne-moi" is "donne moi", which
        was never matched as one word); a phrase already present keeps its first meaning."""
        for phrase in phrases:
            key = tuple(_cut(phrase).split())
            self._table.setdefault(key, meaning)
            self._words = None
            self._longest = max(self._longest, len(key))

    def closest(self, word: str) -> str | None:
        """The known word a slip most likely meant ("secrte": "secret"), or None: by
        rapidfuzz's normalized Indel similarity, against the words of every language the
        table holds; short words are not guessed (too many near neighbours)."""
        if len(word) < MIN_GUESSED or word.isdigit():
            return None
        self._settle()
        if self._words is None:
            self._words = sorted({key[0] for key in self._table if len(key) == 1
                                  and len(key[0]) >= MIN_GUESSED})
        found = process.extract(word, self._words, scorer=fuzz.ratio,
                                score_cutoff=GUESS_SCORE, limit=5)
        if not found:
            return None
        # Of the near words, the fewest edits counting a swap of two letters as one
        # ("secrte": "secret", not "secrete"), then the same length, then the most similar.
        best = min(found, key=lambda f: (DamerauLevenshtein.distance(word, f[0]),
                                         abs(len(f[0]) - len(word)), -f[1]))
        return str(best[0])

    def put_meta(self, lexicon: Any) -> None:
        """The words every game shares: questions, voice settings, undo, yes, no, cancel,
        quit, new game (a game's lexicon module names them QUERY_WORDS, UNDO_WORDS, ...)."""
        for query, words in lexicon.QUERY_WORDS.items():
            self.put(words, ("query", query))
        for setting, words in lexicon.SETTING_WORDS.items():
            self.put(words, ("setting", setting))
        self.put(lexicon.UNDO_WORDS, ("undo", None))
        self.put(lexicon.YES_WORDS, ("yes", None))
        self.put(lexicon.NO_WORDS, ("no", None))
        self.put(lexicon.CANCEL_WORDS, ("cancel", None))
        self.put(lexicon.QUIT_WORDS, ("quit", None))
        self.put(lexicon.NEW_GAME_WORDS, ("new_game", None))
        # Put at first use, after the game's own words, which win ("what is 3" explains
        # position 3).
        self._late = [([p for ps in shared_words.ASKING.values() for p in ps], ("ask", None)),
                      ([p for ps in shared_words.COURTESY.values() for p in ps],
                       ("filler", None)),
                      ([p for ps in shared_words.HELP_OFFERED.values() for p in ps],
                       OFFERED)]

    def _settle(self) -> None:
        for phrases, meaning in self._late:
            self.put(phrases, meaning)
        self._late = []

    def meanings(
        self, line: str, special: Special | None = None, drop: tuple[str, ...] = ("filler",)
    ) -> list[Word]:
        self._settle()
        line = sentence(normal(line))
        odd = stray(line)
        if odd is not None:
            shown = odd if odd.isprintable() else f"U+{ord(odd):04X}"
            raise InvalidCommand(
                "stray_character", f"'{shown}' is not part of a command", char=shown
            )
        toks = tokens(line)
        out = self._read(toks, line, special)
        if OFFERED in out:
            if all(m[0] == "filler" for m in out[out.index(OFFERED) + 1:]):
                raise InvalidCommand("help_offered", f"help offered to someone: '{line}'")
            # a word after it ("aide le thé"): "le" is that word's article, not a pronoun
            out = self._read(toks, line, special, offered=False)
        return _asked([m for m in out if m[0] not in drop], line)

    def _read(self, toks: list[Token], line: str, special: Special | None,
              offered: bool = True) -> list[Word]:
        """The meanings of a line's tokens, longest phrase first; `offered`: whether help
        offered ("aide le") is one of them."""
        out: list[Word] = []
        i = 0
        while i < len(toks):
            word = toks[i].word
            own = special(toks[i]) if special is not None else None
            if own is None and re.fullmatch("[0-9]+", word):  # ASCII only: "²" is no position
                own = ("digits", word)
            if own is not None:
                out.append(own)
                i += 1
                continue
            for size in range(min(self._longest, len(toks) - i), 0, -1):
                key = tuple(t.word for t in toks[i : i + size])
                if key in self._table and (offered or self._table[key] != OFFERED):
                    out.append(self._table[key])
                    i += size
                    break
            else:
                if is_long(line):  # a pasted paragraph: say so, with its first words only
                    raise InvalidCommand(
                        "long_line", f"a long line was not understood: '{line}'", start=line
                    )
                understood = " ".join(t.word for t in toks[:i])
                guess = self.closest(word)
                extra = {} if guess is None else {"corrected": " ".join(
                    guess if j == i else t.word for j, t in enumerate(toks))}
                raise InvalidCommand(
                    "unknown_word", f"I did not understand '{word}'", word=word,
                    understood=understood, **extra,
                )
        return out


def _cut(phrase: str) -> str:
    return " ".join(t.word for t in tokens(normal(phrase)))


def _asked(words: list[Word], line: str) -> list[Word]:
    """A question asked as one ("quel est le score", "can you repeat", "tu peux annuler"):
    its asking words drop where what is left is one question, setting or undo. Around
    anything else ("tu peux prendre le thé", said to a neighbour) the line is refused,
    never read as a move. (Hanamikoji's voice reader applies the same rule to its own
    words: its `words.interpret`.)"""
    rest = [w for w in words if w[0] != "ask"]
    if len(rest) == len(words):
        return words
    if not rest or len(rest) == 1 and rest[0][0] in ("query", "setting", "undo"):
        return rest  # asking alone ("can you") asks what now, as an empty line does
    raise InvalidCommand("asked_move", f"a question's words around a move: '{line}'")


def meta_command(word: Word) -> MetaCommand | None:
    """The shared command a word put by `put_meta` means, or None for a game's own word."""
    kind, value = word
    if kind == "query":
        return Ask(value)  # type: ignore[arg-type]
    if kind == "setting":
        return Adjust(value)  # type: ignore[arg-type]
    return {"undo": Undo(), "yes": Reply(True), "no": Reply(False), "cancel": Cancel(),
            "quit": Quit(), "new_game": NewGame()}.get(kind)


@cache
def _shared_table() -> PhraseTable:
    table = PhraseTable()
    table.put_meta(shared_words)
    return table


def shared_command(line: str) -> MetaCommand | None:
    """The shared command a whole line says in any language ("score", "annuler", "quit"),
    or None: a game's interpreter asks this first, then reads its own words."""
    try:
        words = _shared_table().meanings(line, drop=())
    except InvalidCommand:
        return None
    return meta_command(words[0]) if len(words) == 1 else None
