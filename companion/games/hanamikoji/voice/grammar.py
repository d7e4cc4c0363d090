"""JSGF grammars per listening context, built from the lexicon.

Each grammar holds only what is valid at that moment (plus the queries and undo), because
every alternative the decoder may choose is a chance to choose wrongly: an answer after a
gift names one of three cards, not one of forty card words.

An optional "garbage" competitor lets out-of-grammar speech escape: a loop of single-phone
pseudo-words (`GARBAGE_WORDS`) that matches any sound, weighted so that real commands still
win when they fit. A hypothesis that goes through the loop is a refusal.
"""

from __future__ import annotations

from collections.abc import Iterable

from companion.games.hanamikoji.data import Item, Token
from companion.games.hanamikoji.voice.context import Context
from companion.games.hanamikoji.voice.lexicon import EN_NUMBERS, ENGLISH, Lexicon, lexicon
from companion.voice.shared_words import (
    CANCEL_WORDS,
    ENDING_DECOYS,
    ENDING_RULE,
    PRACTICE_RULE,
    QUERIES,
    SETTINGS,
    ending_phrases,
    ending_unprompted,
    practice_phrases,
    quit_unprompted,
)
from companion.voice.vosk_backend import UNKNOWN

# The context-independent phones of the en-us acoustic model; one pseudo-word each.
PHONES: tuple[str, ...] = (
    "AA", "AE", "AH", "AO", "AW", "AY", "B", "CH", "D", "DH", "EH", "ER", "EY", "F", "G", "HH",
    "IH", "IY", "JH", "K", "L", "M", "N", "NG", "OW", "OY", "P", "R", "S", "SH", "T", "TH",
    "UH", "UW", "V", "W", "Y", "Z", "ZH",
)
GARBAGE_PREFIX = "gbg_"
GARBAGE_WORDS: dict[str, str] = {GARBAGE_PREFIX + p.lower(): p for p in PHONES}

# Words the lexicon knows but the English grammar leaves out: "lute" differs from "flute" by
# one initial phone and was heard for it in every voice we measured, a wrong card each time.
GRAMMAR_EXCLUDE = frozenset({"lute"})
_YES = ("yes", "yeah", "yep", "correct")
_NO = ("no", "nope", "cancel")


def _alt(words: Iterable[str]) -> str:
    return "(" + " | ".join(words) + ")"


def card_words(items: Iterable[Item], numbers: bool = True) -> list[str]:
    """Grammar words for the given cards: item, synonyms, colour, symbol, geisha, position."""
    wanted = set(items)
    words = sorted(w for w, item in ENGLISH.cards.items()
                   if item in wanted and w not in GRAMMAR_EXCLUDE)
    if numbers:
        words += [EN_NUMBERS[item - 1] for item in sorted(wanted)]
    return words


def _card_rule(items: Iterable[Item], numbers: bool = True) -> str:
    # "tea set" is two dictionary words; JSGF takes the sequence as one alternative.
    return _alt(card_words(items, numbers))


def _query_rule() -> str:
    # "show me the score", "the board", "undo": fillers only where people put them.
    return f"[show me] [the] {_alt(QUERIES)} | speak {_alt(SETTINGS)}"


def _action_rules(allowed: frozenset[Token], short: bool = False) -> list[str]:
    alts = []
    if Token.SECRET in allowed:
        # A bare "one" is a magnet for short out-of-grammar speech: the token word is required.
        alts.append("[i play] [the] secret | (token | number) one")
    if Token.DISCARD in allowed:
        alts.append("[i] [the] discard | (token | number) two")
    # `short`: a list one card short, read only when no whole list was (`Context.one_short`):
    # offered with the whole lists, it took their place (measured, docs/voice.md).
    last = "" if short else " [and] <card>"
    if Token.GIFT in allowed:
        alts.append(f"(gift | [token] three) <card> [and] <card>{last}")
    if Token.COMPETITION in allowed:
        alts.append(f"(competition | [token] four) <card> [and] <card> [and] <card>{last}")
    return alts


def _complete_rules(ctx: Context) -> list[str]:
    """The cards a begun offer lacks (or the whole offer said again), or cancel."""
    lacking = ctx.token.cards - len(ctx.offered)
    return [" [and] ".join(["[the] <card>"] * lacking), *_action_rules(ctx.allowed),
            _alt(CANCEL_WORDS)]


def _pair_rule() -> str:
    return "[the] (first | second) [pair | one] | pair (one | two)"


def _competition_answer_rules(pairs: tuple[tuple[Item, Item], ...]) -> list[str]:
    alts = [f"[i] [take] ({_pair_rule()})"]
    named: list[str] = []
    for n, pair in enumerate(pairs):
        other = pairs[1 - n]
        # A card is a usable answer only if it is in this pair and not in the other one.
        own = [i for i in set(pair) if i not in other]
        if own:
            named.append(f"[the] {_card_rule(own, numbers=False)}")
        a, b = pair
        if (b, a) != other and (a, b) != other:
            named.append(f"[the] {_card_rule([a], False)} [and] [the] {_card_rule([b], False)}")
    if named:
        alts.append("[i] [take] (" + " | ".join(named) + ")")
    return alts


def body_rules(ctx: Context) -> list[str]:
    """The alternatives of the command rule (JSGF right-hand sides) for a context."""
    alts = [_query_rule()]
    if ctx.practice:
        alts.append(PRACTICE_RULE)
    if ctx.kind == "action":
        alts += _action_rules(ctx.allowed, ctx.short)
    elif ctx.kind == "complete":
        alts += _complete_rules(ctx)
    elif ctx.kind == "answer_gift":
        alts.append(f"[i] [take] [the] {_card_rule(ctx.offered)}")
    elif ctx.kind == "answer_competition":
        alts += _competition_answer_rules(ctx.pairs)
    elif ctx.kind == "reveal":
        alts.append("[reveal | my secret is] [the] <card>")
    elif ctx.kind == "confirm":
        alts += [_alt(_YES), _alt(_NO)]
    elif ctx.kind == "over":
        alts += [ENDING_RULE, ENDING_DECOYS]
    else:  # any
        alts += _action_rules(frozenset(Token))
        alts.append(f"[i] take ({_pair_rule()} | [the] <card>)")
        alts.append("reveal [the] <card>")
        alts += [_alt(_YES), _alt(_NO)]
    return alts


# Every way of speaking that some context accepts, with any card: the verifier decodes against
# this, so an answer said the way its context allows ("the red", "my secret is the tea") is
# not refused for the mere reason that the `any` grammar lacks that form.
WIDE_RULES: tuple[str, ...] = (
    "[i] [take] [the] <card> [[and] [the] <card>] [pair]",
    "[reveal | my secret is] [the] <card>", ENDING_RULE,
)


def build_grammar(ctx: Context, garbage: float | None = None, wide: bool = False) -> str:
    """The JSGF text for a context.

    `garbage` is the weight of the out-of-grammar competitor relative to the commands
    (e.g. 1e-3), or None for no competitor. `wide`: the union of every context's forms
    (the verifier's grammar; `ctx` is then ignored).
    """
    if wide:
        ctx = Context.any()
    cards = ctx.cards
    alternatives = body_rules(ctx) + (list(WIDE_RULES) if wide else [])
    lines = [
        "#JSGF V1.0;",
        f"grammar {'wide' if wide else ctx.kind};",
        "<card> = " + _card_rule(cards) + ";",
        "<command> = " + " | ".join(f"({a})" for a in alternatives) + ";",
    ]
    if garbage is None:
        lines.append("public <utterance> = <command>;")
    else:
        lines.append("<garbage> = " + _alt(GARBAGE_WORDS) + "+;")
        lines.append(f"public <utterance> = /1/ <command> | /{garbage:g}/ <garbage>;")
    return "\n".join(lines) + "\n"


def grammar_words(ctx: Context) -> set[str]:
    """Every word a context's grammar may produce (for dictionary checks)."""
    text = build_grammar(ctx)
    body = text.split("\n", 2)[2]
    return {w for w in body.replace("(", " ").replace(")", " ").replace("[", " ")
            .replace("]", " ").replace("|", " ").replace(";", " ").replace("=", " ").split()
            if not w.startswith("<") and not w.startswith("/")}


# -- Vosk (French, or any language with a model): a bag of phrases per context -------------
def _cards(lex: Lexicon, items: Iterable[Item]) -> list[str]:
    wanted = set(items)
    return sorted(w for w, i in lex.cards.items() if i in wanted)


# The fillers a bag of phrases offers: those said inside commands ("je prends l'éventail",
# "tomo la flauta", "я беру", "мою таємницю"); the rest are chatter.
_SAID_FILLERS = frozenset({"je", "la", "le", "l", "et", "the", "i", "and",
                           # "je joue le secret", "je mets au dépôt", "mon secret est…"
                           "joue", "les", "mon", "ma", "moi", "du", "de", "à", "au", "est",
                           "carte", "mets", "ai",
                           # "je veux le secret", "euh"; "le" written "ne" ("Ne dépôt.":
                           # MBROLA fr3, every hypothesis at 20 dB)
                           "veux", "ne", "euh",
                           "el", "los", "las", "y", "del", "mi", "me", "es", "con",
                           "я", "і", "та", "моя", "мою", "мій"})


def read_only_words(ctx: Context, lang: str) -> frozenset[str]:
    """The words of `phrase_list` that only the reading needs (`_unprompted`): no prompt
    holds them, and a recognizer held to its words (Whisper's limited beam, Vosk) is not
    given them."""
    return frozenset(_unprompted(lexicon(lang), ctx))


def _unprompted(lex: Lexicon, ctx: Context) -> set[str]:
    """Words words.py reads in this context that the reading must offer but the prompt
    need not (Whisper writes them unprompted, and a word more in a prompt, or for a limited
    beam to spell, moves other decodes: docs/voice.md, "The Secret named at the reveal").
    The lexicon's own (`Lexicon.unprompted`: the hint, courtesy, the card called a card
    anywhere; "contre" in an action, "je garde" in an answer...) and the asking words
    ("quel est le score"); at the reveal, the Secret's words: the player may name it
    beside the card it was ("mi secreto es racimo de uvas", "mon secret est l'éventail");
    at game over, the endings said otherwise ("une nouvelle partie": `ending_unprompted`);
    in play, quit (`quit_unprompted`). Without them all these were refused."""
    kinds = lex.unprompted if ctx.kind == "any" else ("", ctx.kind)  # "any": every kind's
    words = {w for kind in kinds for w in lex.unprompted.get(kind, ())} | set(lex.asking)
    if ctx.kind == "reveal":
        words |= {w for w, t in lex.tokens.items() if t is Token.SECRET}
    if ctx.kind == "over":
        words |= set(ending_unprompted(lex.lang))
    return words | set(quit_unprompted(lex.lang, ctx.kind))


def _numbers(lex: Lexicon, values: Iterable[int]) -> set[str]:
    wanted = set(values)
    return {w for w, n in lex.numbers.items() if n in wanted}


def phrase_list(ctx: Context, lang: str = "fr") -> list[str]:
    """The words and phrases Vosk may output in a context (its grammar is a bag of phrases;
    sequences are checked afterwards by `normalize`). Numbers only where they mean something
    now: a token (with its token word), a card's position in a gift or a competition or an
    answer, a pair."""
    lex = lexicon(lang)
    phrases: set[str] = set(lex.queries)
    if ctx.practice:
        phrases |= set(practice_phrases(lex.lang))
    if ctx.kind in ("action", "complete", "any"):
        allowed = frozenset(Token) if ctx.kind == "any" else ctx.allowed
        phrases |= {w for w, t in lex.tokens.items() if t in allowed}
        phrases |= set(lex.token_words) | _numbers(lex, allowed)
        if allowed & {Token.GIFT, Token.COMPETITION} or ctx.kind == "any":
            phrases |= set(_cards(lex, ctx.cards)) | _numbers(lex, ctx.cards)
    if ctx.kind == "answer_gift":
        phrases |= set(_cards(lex, ctx.offered)) | set(lex.take)
        phrases |= _numbers(lex, ctx.offered)
    if ctx.kind in ("answer_competition", "any"):
        phrases |= set(lex.ordinals) | set(lex.pair) | set(lex.take) | _numbers(lex, (1, 2))
        phrases |= set(_cards(lex, {i for p in ctx.pairs for i in p}))
    if ctx.kind in ("reveal", "any"):
        phrases |= set(_cards(lex, ctx.cards)) | set(lex.reveal) | _numbers(lex, ctx.cards)
    if ctx.kind in ("confirm", "any"):
        phrases |= set(lex.yes) | set(lex.no)
    if ctx.kind == "complete":
        phrases |= set(lex.no)  # the begun offer dropped
    if ctx.kind == "over":
        phrases |= set(ending_phrases(lex.lang))
    # A few fillers players really say; elisions ("l'éventail") come out as separate words.
    phrases |= set(lex.fillers) & _SAID_FILLERS
    phrases |= _unprompted(lex, ctx)
    # The lexicon keeps accented spellings, which is what Vosk's vocabulary holds.
    return sorted(phrases) + [UNKNOWN]


def prompt_words(ctx: Context, lang: str) -> list[str]:
    """What a recognizer that takes a prompt (Whisper) is told to expect in a context: the
    context's phrases as spelled, less the forms words take in a sentence, digits and
    fillers (a prompt has little room: these would push out the words themselves). The
    questions come first: a prompt too long loses its beginning."""
    lex = lexicon(lang)
    # Nor the words the reading alone needs (`_unprompted`).
    unprompted = _unprompted(lex, ctx)
    words = [p for p in phrase_list(ctx, lang) if p != UNKNOWN and not p.isdigit()
             and p not in lex.forms and p not in lex.fillers and p not in unprompted]
    # The practice words last: they stay in a prompt that loses its beginning.
    practice = set(practice_phrases(lex.lang)) if ctx.practice else set()
    return sorted(words, key=lambda w: (w in practice, w not in lex.queries))
