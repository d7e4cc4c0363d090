"""Voice in Hanamikoji: what to listen for at each moment, how its grammars are decoded by
the voice engine, and what a player reads to enrol (companion/inputs/voice.py applies what
was heard, with the same policy for every game)."""

from __future__ import annotations

import dataclasses
import functools
import random
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from companion.games.hanamikoji.interpret import Choose, parse_command
from companion.games.hanamikoji.interpret import begun as begun_by
from companion.games.hanamikoji.voice.context import Context
from companion.games.hanamikoji.voice.grammar import (
    build_grammar,
    grammar_words,
    phrase_list,
    prompt_words,
    read_only_words,
)
from companion.games.hanamikoji.voice.lexicon import (
    EN_NUMBERS,
    ENGLISH,
    LANGS,
    PRONUNCIATIONS,
    RIVALS,
    lexicon,
)
from companion.games.hanamikoji.voice.words import normalize
from companion.voice.decoders import VoiceUnavailable
from companion.voice.reasons import explained
from companion.voice.sphinx import ALWAYS_ANSWERED, HIGH, LOW, Grammar, Recognition

ASK_ABOUT = frozenset({"gift", "competition"})  # lists of cards: always "Yes or no?"
# The contexts `companion listen --context` can build without a game in progress.
STATELESS = ("any", "action", "reveal", "confirm", "over")


def settled(command: str) -> float | None:
    """A command's confidence when the third decode cannot change what is done with it:
    lists are always asked about (measured: 11 of the 13 wrong commands all decodes agreed
    on, above the noise margin, were gifts or competitions with one card misheard),
    questions are always answered. None: decode again. Every engine takes it, on the
    grammar path and the phrase path alike (a Spanish competition with "rojo" heard as
    "rosa" was applied unasked at 0.81 when the phrase path had no cap)."""
    if command.split()[0] in ASK_ABOUT:
        return LOW
    return HIGH if command in ALWAYS_ANSWERED else None


@functools.cache
def _wide() -> Grammar:
    """The competitor's grammar: every form some context accepts, with any card."""
    return Grammar("wide", build_grammar(Context.any(), wide=True))


@functools.cache
def _grammar_words() -> frozenset[str]:
    return frozenset(grammar_words(Context.any()) | grammar_words(Context.over()))


def teach(engine: Any) -> None:
    """Teach the Sphinx engine the grammar words its dictionary lacks (VoiceUnavailable if
    one has no pronunciation here)."""
    missing = sorted(w for w in _grammar_words() if not engine.known(w))
    unknown = [w for w in missing if w not in PRONUNCIATIONS]
    if unknown:
        # the decoder's own sentence (core catalogue), said where voice is off
        raise explained(VoiceUnavailable, "no_grammar_pronunciation", word=unknown[0])
    if missing:
        engine.add_words({w: PRONUNCIATIONS[w] for w in missing})


def rival_checked(rec: Recognition, read: Any) -> Recognition:
    """The recognition, asked about (confidence capped to LOW) when one of its words has a
    known rival (RIVALS: flute and blue...) that reads as another valid command now."""
    if rec.command is None or rec.confidence <= LOW:
        return rec
    words = rec.words.split()
    for i, word in enumerate(words):
        for rival in RIVALS.get(word, ()):
            other = read(" ".join([*words[:i], rival, *words[i + 1:]]))
            if other is not None and other != rec.command:
                return dataclasses.replace(rec, confidence=LOW)
    return rec


def _begun(text: str, lang: str, context: Context) -> str | None:
    """A begun offer the words read as in a one-short context, else None."""
    command = normalize(text, lang, context)
    return command if command is not None and isinstance(parse_command(command), Choose) \
        else None


class HanamikojiRecognizer:
    """`recognize(pcm, context)` as companion/voice/listen.py expects, in Hanamikoji
    contexts, with the Sphinx or Whisper engine (English: the JSGF grammar), or a Vosk or
    multilingual Whisper one (other languages: the context's phrases)."""

    def __init__(self, engine: Any = None) -> None:
        from companion.voice.vosk_backend import VoskRecognizer

        if engine is None:
            from companion.voice.sphinx import SphinxRecognizer

            engine = SphinxRecognizer(words=PRONUNCIATIONS)
        self.engine = engine
        # Other languages are a bag of phrases (Vosk's grammar mode, or Whisper's mapping).
        self._vosk = isinstance(engine, VoskRecognizer) or getattr(engine, "lang", "en") != "en"
        if not self._vosk:
            teach(engine)

    def recognize(self, pcm: bytes, context: Context | None = None) -> Recognition:
        """Recognize one utterance against the context's grammar (default: any command)."""
        ctx = context or Context.any()
        lang = getattr(self.engine, "lang", "en") if self._vosk else "en"
        short = ctx.one_short() if getattr(self.engine, "reads_begun", False) else None
        # A gift or competition heard one card short begins it (the card is asked for).
        begun = None if short is None else functools.partial(_begun, lang=lang, context=short)
        if self._vosk:
            extra = {} if begun is None else {"begun": begun}
            return self.engine.recognize_phrases(  # type: ignore[no-any-return]
                pcm, phrase_list(ctx, lang), lambda text: normalize(text, lang, ctx),
                prompt=prompt_words(ctx, lang), settled=settled,
                read_only=read_only_words(ctx, lang), asking=lexicon(lang).asking, **extra)
        read = functools.partial(normalize, lang="en", context=ctx)
        extra = {} if short is None else {
            "begun": (Grammar(short.name, build_grammar(short)), begun)}
        return rival_checked(self.engine.recognize_grammar(
            pcm, Grammar(ctx.name, build_grammar(ctx)), _wide(), read, settled,
            asking=ENGLISH.asking, **extra), read)

    def words(self, pcm: bytes, context: Context | None = None) -> str:
        """The raw grammar words only (diagnostics)."""
        ctx = context or Context.any()
        return self.engine.words(pcm, Grammar(ctx.name, build_grammar(ctx)))  # type: ignore[no-any-return]

    def close(self) -> None:
        close = getattr(self.engine, "close", None)
        if close is not None:
            close()


def context_for(session: Any, private: Callable[[int], bool] | None = None) -> Context:
    """The voice Context of `_state_context`, listening for the practice word (`hand`) at
    a table with a computer."""
    from companion.computer import computer_seats

    ctx = _state_context(session, private)
    return dataclasses.replace(ctx, practice=True) if computer_seats(session.config) else ctx


def _state_context(session: Any, private: Callable[[int], bool] | None = None) -> Context:
    """The voice Context matching the session's state. An action's context holds the acting
    player's hand when the companion was told all of it and `private(seat)` says the player
    has a private channel: a misheard list is then read back from their own cards, which
    the table must not hear (the question goes to that channel: `private_to`)."""
    from companion.games.hanamikoji.actions import Gift
    from companion.games.hanamikoji.data import Token
    from companion.games.hanamikoji.rules import Phase

    state = session.state
    if session.awaiting_answer:
        return Context.confirm()
    begun = begun_by(session.pending)  # a scanned Secret or a pair's first card: none
    if begun is not None and state.phase is Phase.ACTION and begun.token in (
            Token.GIFT, Token.COMPETITION):
        # An offer begun (its last card not heard, or keyed, or scanned so far): its cards.
        return Context.complete(begun.token, begun.cards, *_told_hand(state, private))
    if state.phase is Phase.OVER:
        return Context.over()
    if begun is not None or state.phase is Phase.DEAL:
        return Context.any()
    if state.phase is Phase.ANSWER:
        if isinstance(state.offer, Gift):
            return Context.answer_gift(state.offer.cards)
        first, second = state.offer.pairs
        return Context.answer_competition(first, second)
    if state.phase is Phase.REVEAL:
        # Any card: the card shown stands even when another was told (a told Secret may be
        # wrong; the rules correct it privately), so what was told never narrows what the
        # table's reveal can be heard as.
        return Context.reveal()
    return Context.action(state.players[state.to_move].tokens, *_told_hand(state, private))


def _asked_privately(state: Any, private: Callable[[int], bool] | None) -> int | None:
    """The acting seat, when it has a private channel: only then may what it told privately
    shape what is heard (a question about it goes there)."""
    seat: int = state.to_move
    return seat if private is not None and private(seat) else None


def _told_hand(state: Any, private: Callable[[int], bool] | None
               ) -> tuple[tuple[Any, ...] | None, int | None]:
    """(hand, seat): the acting player's whole hand as they told it (their draw included:
    the view a hint is given from) and their seat, or (None, None) if a card of it is
    unknown or they have no private channel to be asked on."""
    from companion.games.hanamikoji.opponent import observe

    seat = _asked_privately(state, private)
    if seat is None:  # nothing to observe: listening uses nothing told privately
        return None, None
    seen = observe(state, seat)
    return (seen.hand, seat) if seen.complete else (None, None)


def listen_context(kind: str) -> Context:
    """A context by name, for recognizing a file outside a game (`companion listen`)."""
    if kind in STATELESS:
        return getattr(Context, kind)()  # type: ignore[no-any-return]
    raise ValueError(f"the {kind} context needs the game's offer; use it through the session"
                     if kind in ("answer_gift", "answer_competition") else
                     f"unknown voice context {kind!r}; known here: {', '.join(STATELESS)}")


# -- enrolment (`companion voice-enroll`) ---------------------------------------------------
def card_names() -> list[str]:
    """Every way the grammar lets a card be named aloud: the lexicon's item, colour, sticker
    symbol and geisha words, and the position numbers."""
    heard = grammar_words(Context.any())
    return [w for w in ENGLISH.cards if set(w.split()) <= heard] + list(EN_NUMBERS)


def prompts(count: int, seed: int = 0) -> list[str]:
    """`count` commands to read: every card word and every other command word early on,
    then more of the commands a game is made of, in a seeded order."""
    rng = random.Random(seed)
    names = card_names()
    rng.shuffle(names)
    fixed = ["secret", "discard", "take the first pair", "take the second pair", "score",
             "board", "repeat", "undo", "yes", "no", "speak faster", "help"]
    out: list[str] = []
    # Gifts and competitions go through the card words three and four at a time.
    pending = list(names)
    while pending:
        if len(pending) >= 4 and len(out) % 4 == 2:
            a, b, c, d = (pending.pop() for _ in range(4))
            out.append(f"competition {a} {b}, {c} {d}")
        else:
            group = [pending.pop() for _ in range(min(3, len(pending)))]
            group += rng.sample([n for n in names if n not in group], 3 - len(group))
            out.append(f"gift {group[0]}, {group[1]} and {group[2]}")
        if fixed:
            out.append(fixed.pop(0))
    out += fixed
    while len(out) < count:
        kind = rng.choice(("gift", "competition", "take", "reveal", "pair", "query"))
        if kind == "gift":
            a, b, c = rng.sample(names, 3)
            out.append(f"gift {a}, {b} and {c}")
        elif kind == "competition":
            a, b, c, d = rng.sample(names, 4)
            out.append(f"competition {a} {b}, {c} {d}")
        elif kind in ("take", "reveal"):
            # A position number names a card only inside a gift or competition.
            out.append(f"{kind} the {rng.choice([n for n in names if n not in EN_NUMBERS])}")
        elif kind == "pair":
            out.append(rng.choice(("take the first pair", "take the second pair", "secret",
                                   "discard", "yes", "no")))
        else:
            out.append(rng.choice(("score", "board", "actions", "repeat", "unseen", "undo")))
    return out[:count]


# The answer words first asked for in each language (the lexicon holds several).
_ANSWER_WORDS = {"yes": ("yes", "oui", "sí", "так"), "no": ("no", "non", "ні")}


def enrolment_words(lang: str) -> list[str]:
    """What a player says alone in a context, each enrolled two or three times: a card by
    its item (an answer to a gift, a reveal), the numbers one to seven (a card by its
    position), the Secret and the discard (actions said alone), yes and no, and the most
    asked questions; in `lang`, one word per meaning (the lexicon's first)."""
    lex = lexicon(lang)
    firsts: dict[Any, str] = {}
    from companion.games.hanamikoji.data import Token

    alone = {w: t for w, t in lex.tokens.items() if t in (Token.SECRET, Token.DISCARD)}
    for kind, table in enumerate((lex.cards, lex.numbers, alone)):
        for word, meaning in table.items():
            if not word.isdigit():
                firsts.setdefault((kind, meaning), word)
    answers = [next((w for w in _ANSWER_WORDS[a] if w in words), min(words))
               for a, words in (("yes", lex.yes), ("no", lex.no))]
    queries = {}
    for word, meaning in lex.queries.items():
        if meaning in ("score", "board", "repeat", "undo") and " " not in word:
            queries.setdefault(meaning, word)
    return [*firsts.values(), *answers, *queries.values()]


class HanamikojiVoice:
    """Hanamikoji's voice hooks (companion.games.protocol.VoiceHooks)."""

    pronunciations: Mapping[str, Sequence[str]] = PRONUNCIATIONS
    languages: tuple[str, ...] = LANGS

    def context_for(self, session: Any,
                    private: Callable[[int], bool] | None = None) -> Context:
        return context_for(session, private)

    def make_recognizer(self, engine: Any) -> HanamikojiRecognizer:
        return HanamikojiRecognizer(engine)

    def parse_command(self, text: str) -> Any:
        return parse_command(text)

    listen_contexts = STATELESS

    def listen_context(self, kind: str) -> Context:
        return listen_context(kind)

    def enrolment_prompts(self, count: int, seed: int = 0) -> list[str]:
        return prompts(count, seed)

    def enrolment_words(self, lang: str) -> list[str]:
        return enrolment_words(lang)


VOICE = HanamikojiVoice()

__all__ = ["VOICE", "HanamikojiRecognizer", "context_for", "parse_command", "prompts"]
