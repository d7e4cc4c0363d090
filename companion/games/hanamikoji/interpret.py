"""From a line a player typed, keyed or said to one command, in the game's context.

The same words mean different things at different moments ("2" is the Discard token when
choosing an action, the fan when answering a gift, the second pair after a competition),
so interpretation reads the state. What comes out is context-free: a value whose canonical
text means the same thing anywhere.

Cards can be read more than one way: "2 flowers" is two flowers or the fan and a flower,
"pink flower" one card named twice or two flowers. Every reading is tried; the one whose
number of cards fits what is expected now is taken, the usual one first; if none fits,
the usual reading's reason is said; if equally usual readings fit, the player is asked.
"""

from __future__ import annotations

import contextlib
import itertools
from collections.abc import Callable
from dataclasses import dataclass
from typing import TypeVar

from companion.errors import AmbiguousCommand, CompanionError, IllegalAction, InvalidCommand
from companion.games.hanamikoji import lexicon as lx
from companion.games.hanamikoji.actions import (
    Action,
    Competition,
    Discard,
    Gift,
    Reveal,
    Secret,
    TakeGift,
    TakePair,
    parse_action,
)
from companion.games.hanamikoji.data import Item, Token
from companion.games.hanamikoji.rules import Phase, State, apply
from companion.narrate.catalogue import Alternatives
from companion.normalize import Token as NormalToken
from companion.normalize import normal
from companion.phrases import PhraseTable, Word, meta_command
from companion.shared_commands import (
    Adjust,
    Ask,
    Explain,
    MetaCommand,
    Query,
    Setting,
    parse_meta,
)


@dataclass(frozen=True)
class Choose:
    """An offer begun but not complete: its token, and the cards named so far.

    A keypad user keys "3", then the cards; a scanner user scans the cards one by one.
    Its text is the action word with the cards so far ("gift fan").
    """

    token: Token
    cards: tuple[Item, ...] = ()

    def text(self) -> str:
        words = [self.token.word, *(c.word for c in self.cards)]
        if self.token in (Token.SECRET, Token.DISCARD):  # "secret" alone is an action
            words.insert(0, "begin")
        return " ".join(words)

    @property
    def missing(self) -> int:
        return self.token.cards - len(self.cards)


Command = Action | Choose | MetaCommand


def begun(pending: object) -> Choose | None:
    """The offer, Secret or Discard a session's pending action begins (typed, keyed or
    scanned: a Choose), or None: a scanned Secret or Discard and a competition's first
    card scanned are pending too, with their own prompts (companion/games/hanamikoji/scan.py)."""
    return pending if isinstance(pending, Choose) else None


def parse_command(text: str) -> Command:
    """Parse any command's canonical text (the inverse of `.text()`)."""
    meta = parse_meta(text)
    if meta is not None:
        return meta
    verb, *words = text.split()
    if verb == "begin":
        verb, *words = words
        return Choose(Token[verb.upper()], tuple(Item[w.upper()] for w in words))
    if verb in ("gift", "competition") and len(words) < Token[verb.upper()].cards:
        return Choose(Token[verb.upper()], tuple(Item[w.upper()] for w in words))
    return parse_action(text)


# Doubled keypad symbols change the voice: no word needed, and no clash with single keys.
KEYPAD_SETTINGS = {
    "**": Setting.FASTER, "//": Setting.SLOWER, "++": Setting.LOUDER, "--": Setting.QUIETER,
}

@dataclass(frozen=True)
class Name:
    """A card word as said: the card, and which of its names was used ("pink", "fleur")."""

    item: Item
    word: str


def _phrase_table() -> PhraseTable:
    table = PhraseTable()
    table.put(["/"], ("sep", None))
    table.put_meta(lx)
    for token, words in lx.TOKEN_WORDS.items():
        table.put(words, ("token", token))
    table.put(lx.TAKE_WORDS, ("take", None))
    table.put(lx.REVEAL_WORDS, ("reveal", None))
    table.put(lx.EXPLAIN_WORDS, ("explain", None))
    for word, n in lx.NUMBER_WORDS.items():
        table.put([word], ("num", n))
    for word, n in lx.ORDINAL_WORDS.items():
        table.put([word], ("ord", n))
    table.put(lx.PAIR_SEPARATORS, ("sep", None))
    for item, words in lx.CARD_WORDS.items():
        for word in words:
            if word != "the":
                table.put([word], ("card", Name(item, word)))
    table.put(lx.FILLERS, ("filler", None))
    return table


_TABLE = _phrase_table()


def _meanings(line: str, lang: str) -> list[Word]:
    def special(tok: NormalToken) -> Word | None:
        if tok.word == "0":
            return ("cancel", None)  # the keypad's 0 drops a half-keyed action
        if tok.word == "the":
            # French "thé" is tea; English "the" is an article, unless typed accented.
            tea = ("card", Name(Item.TEA, "the"))
            return tea if tok.accented or lang == "fr" else ("filler", None)
        return None

    return _TABLE.meanings(line, special)


def interpret(
    line: str, state: State, *, pending: Choose | None = None, lang: str = "en"
) -> Command:
    """The command a line means now; raises InvalidCommand, IllegalAction, AmbiguousCommand."""
    keyed = KEYPAD_SETTINGS.get(normal(line).strip())
    if keyed is not None:
        return Adjust(keyed)
    words = _meanings(line, lang)
    if not words:
        return Ask(Query.WHAT)
    if words == [("sep", None)]:
        return Ask(Query.SCORE)  # the keypad's "/" key
    kinds = [k for k, _ in words]
    if kinds[0] == "explain":
        asked = meta_command(words[1]) if len(words) == 2 else None
        # "what is the score", "cuál es la puntuación": the question, asked as one
        return asked if isinstance(asked, Ask | Adjust) else _explain(words[1:])
    if len(words) == 1 or (len(words) == 2 and kinds[0] == "take" and kinds[1] == "undo"):
        meta = meta_command(words[-1])
        if meta is not None:
            return meta
    if any(k in ("query", "setting", "undo", "yes", "no", "cancel") for k in kinds):
        raise InvalidCommand("one_at_a_time", "say a question or undo on its own line")

    verb_kind, verb = words[0]
    if verb_kind in ("token", "take", "reveal"):
        args = words[1:]
    else:
        verb_kind, verb, args = "", None, words
    if verb_kind == "token":
        return _action(verb, args, state)  # type: ignore[arg-type]
    if verb_kind == "take" or (not verb_kind and state.phase is Phase.ANSWER):
        return _answer(args, state, said_take=verb_kind == "take")
    if verb_kind == "reveal" or (not verb_kind and state.phase is Phase.REVEAL):
        return _reveal(args, state)
    if pending is not None:
        return _action(pending.token, args, state, pending.cards)
    if state.phase is Phase.ACTION and args[0][0] in ("digits", "num"):
        return _numbered_action(args, state)
    raise InvalidCommand(
        "say_action_first", "say the action first: secret, discard, gift or competition"
    )


def _explain(args: list[Word]) -> Explain:
    """"position 3", "what is 3": the card a position number names."""
    if len(args) == 1 and args[0][0] in ("digits", "num") and len(str(args[0][1])) == 1:
        _positions(args[0][1])  # 1 to 7, or the reason
        return Explain(str(args[0][1]))
    raise InvalidCommand("bad_position", "card positions are 1 to 7", digit=_said(args))


def _said(args: list[Word]) -> str:
    return " ".join(str(v) for _, v in args if v is not None)


def _numbered_action(args: list[Word], state: State) -> Command:
    """Keypad form: the token number first, then card positions ("3125" or "3 1 2 5")."""
    kind, value = args[0]
    if kind == "digits":
        digits = str(value)
        number, rest_digits = int(digits[0]), digits[1:]
        rest: list[Word] = ([("digits", rest_digits)] if rest_digits else []) + args[1:]
    else:
        number, rest = int(value), args[1:]  # type: ignore[call-overload]
    if not 1 <= number <= 4:
        raise InvalidCommand("bad_token_number", "action tokens are numbered 1 to 4", number=number)
    return _action(Token(number), rest, state)


@dataclass(frozen=True)
class Reading:
    """One way to read the cards of a line: the cards, where a pair separator stood, and
    how many of its words it reads against their usual sense (a number before a card as a
    position rather than a count, one card named twice as two cards)."""

    cards: tuple[Item, ...]
    breaks: tuple[int, ...]
    unusual: int


# One way to read one part of a line: its cards, whether it is a pair separator, and how
# unusual that way is. A part's usual way comes first.
_Option = tuple[tuple[Item, ...], bool, int]
MOST_CARDS = 4  # no command names more: a line needing more has only its usual reading
MOST_READINGS = 256
T = TypeVar("T")


def _positions(value: object) -> tuple[Item, ...]:
    """Keyed digits or a said number as card positions (each digit one card)."""
    digits = str(value)
    for d in digits:
        if not "1" <= d <= "7":
            raise InvalidCommand("bad_position", "card positions are 1 to 7", digit=d)
    return tuple(Item(int(d)) for d in digits)


def _run_end(args: list[Word], start: int) -> int:
    """Where the card words from `start` stop naming one card: a card said with several of
    its names ("the pink flower", "Ruri fleur") is one card, if that reading fits."""
    end = start + 1
    first: Name = args[start][1]  # type: ignore[assignment]
    said = {first.word}
    while end < len(args) and args[end][0] == "card":
        name: Name = args[end][1]  # type: ignore[assignment]
        if name.item is not first.item or name.word in said:
            break
        said.add(name.word)
        end += 1
    return end


def _named(item: Item, names: int) -> list[_Option]:
    """A card said with `names` names: one card (usual), or as many cards (unusual)."""
    options: list[_Option] = [((item,), False, 0)]
    if names > 1:
        options.append(((item,) * names, False, 1))
    return options


def _segments(args: list[Word]) -> tuple[list[list[_Option]], CompanionError | None]:
    """The ways to read each part of a line's cards (raises for a part that has none), and
    why the usual reading is impossible, if it is ("5 fans" cannot be a count)."""
    segments: list[list[_Option]] = []
    usual_error: CompanionError | None = None
    i = 0
    while i < len(args):
        kind, value = args[i]
        if kind == "sep":
            segments.append([((), True, 0)])
            i += 1
        elif kind == "card":
            end = _run_end(args, i)
            segments.append(_named(value.item, end - i))  # type: ignore[attr-defined]
            i = end
        elif kind in ("num", "digits") and i + 1 < len(args) and args[i + 1][0] == "card":
            end = _run_end(args, i + 1)
            item: Item = args[i + 1][1].item  # type: ignore[attr-defined]
            options, error = _counted(value, item, end - i - 1)
            segments.append(options)
            usual_error = usual_error or error
            i = end
        elif kind in ("num", "digits"):
            segments.append([(_positions(value), False, 0)])
            i += 1
        else:
            raise InvalidCommand("cards_expected", "I expected cards here")
    return segments, usual_error


def _counted(
    value: object, item: Item, names: int
) -> tuple[list[_Option], CompanionError | None]:
    """A number before a card: usually a count ("two flowers"), else a position ("flower 5
    tomoyo": the shamisen); and why it cannot be a count. Several keyed digits are
    positions ("4 12 fan")."""
    digits = str(value)
    if len(digits) > 1:
        return _after(_positions(value), item, names, 0), None
    if not "1" <= digits <= str(MOST_CARDS):
        bad = InvalidCommand("bad_count", "a count of cards is 1 to 4", count=value)
        try:
            return _after(_positions(value), item, names, 1), bad
        except InvalidCommand:
            raise bad from None
    counted = _after((item,) * (int(digits) - 1), item, names, 0)
    return counted + _after(_positions(value), item, names, 1), None


def _after(before: tuple[Item, ...], item: Item, names: int, cost: int) -> list[_Option]:
    """The ways to read a card's names, with `before` cards first and `cost` added."""
    return [(before + cards, False, c + cost) for cards, _, c in _named(item, names)]


def _readings(args: list[Word]) -> tuple[list[Reading], CompanionError | None]:
    """Every reading of a line's cards, the usual one first, and why the usual one is
    impossible, if it is."""
    segments, usual_error = _segments(args)
    fewest = sum(min(len(cards) for cards, _, _ in seg) for seg in segments)
    ways = 1
    for seg in segments:
        ways *= len(seg)
    if fewest > MOST_CARDS or ways > MOST_READINGS:
        combos: list[tuple[_Option, ...]] = [tuple(seg[0] for seg in segments)]
    else:
        combos = list(itertools.product(*segments))
    readings = []
    for combo in combos:
        cards: list[Item] = []
        breaks: list[int] = []
        for part, is_break, _ in combo:
            if is_break:
                breaks.append(len(cards))
            cards.extend(part)
        readings.append(Reading(tuple(cards), tuple(breaks), sum(c for _, _, c in combo)))
    return readings, usual_error


def _best(args: list[Word], build: Callable[[Reading], T]) -> T:
    """What the reading of `args` that fits the moment means (`build` raises for a reading
    that does not fit). Of several that fit, the most usual; if equally usual readings mean
    different things, the player is asked; if none fits, the usual reading's reason."""
    readings, reason = _readings(args)
    found: dict[int, dict[T, Reading]] = {}
    for reading in readings:
        try:
            result = build(reading)
        except CompanionError as error:
            reason = reason or error  # the first reading is the most usual possible one
            continue
        found.setdefault(reading.unusual, {}).setdefault(result, reading)
    if not found:
        assert reason is not None
        raise reason
    best = found[min(found)]
    if len(best) > 1:
        options = tuple(best)
        raise AmbiguousCommand(
            "several_readings", "that line can be read several ways: say each card once",
            options=options, readings=Alternatives(r.cards for r in best.values()),
        )
    return next(iter(best))


def _count(cards: tuple[Item, ...], expected: int, token: Token) -> None:
    if len(cards) != expected:
        raise InvalidCommand(
            "card_count", f"{token.word} takes {expected} cards, not {len(cards)}",
            token=token, expected=expected, got=len(cards),
        )


def _action(
    token: Token, args: list[Word], state: State, before: tuple[Item, ...] = ()
) -> Command:
    if state.phase is Phase.ANSWER:
        raise IllegalAction("offer_waiting", "an offer is waiting for an answer", offer=state.offer)
    if state.phase is Phase.REVEAL and token is Token.SECRET:
        return _reveal(args, state)
    if token in (Token.GIFT, Token.COMPETITION):
        # A line that is a whole offer under one reading and only its start under another
        # ("gift flower pink umbrella": two flowers and the umbrella, or "pink flower,
        # umbrella" so far) is the whole offer when the rules allow it; its announcement
        # reads the cards back. The begun reading is for lines that cannot be whole.
        with contextlib.suppress(CompanionError):
            return _best(args, lambda reading: _whole(token, reading, before, state))
    if not args and token in (Token.SECRET, Token.DISCARD) and state.full_information:
        return Choose(token, before)  # the companion knows the hand: it asks which cards
    return _best(args, lambda reading: _offer(token, reading, before, state.full_information))


def _whole(token: Token, reading: Reading, before: tuple[Item, ...], state: State) -> Command:
    """The offer of one reading if it is complete and legal now; else CompanionError."""
    offer = _offer(token, reading, before)
    if isinstance(offer, Choose):
        raise InvalidCommand("card_count", "not a whole offer")
    apply(state, offer)  # raises the rules' reason
    return offer


def _offer(token: Token, reading: Reading, before: tuple[Item, ...],
           known: bool = False) -> Command:
    """The action `token` with the cards of one reading, if their number fits it (`known`:
    the companion knows the hands, so a Discard named in part is asked to go on)."""
    cards = (*before, *reading.cards)
    breaks = () if before else reading.breaks
    if token is Token.SECRET:
        if cards:
            _count(cards, 1, token)
        return Secret(cards[0] if cards else None)
    if token is Token.DISCARD:
        if known and len(cards) == 1:
            return Choose(token, cards)
        if cards:
            _count(cards, 2, token)
        return Discard((cards[0], cards[1]) if cards else None)
    if len(cards) < token.cards:
        return Choose(token, cards)
    if token is Token.GIFT:
        _count(cards, 3, token)
        return Gift((cards[0], cards[1], cards[2]))
    _count(cards, 4, token)
    if breaks and breaks != (2,):
        raise InvalidCommand("pairs_of_two", "a competition is two pairs of two cards")
    return Competition(((cards[0], cards[1]), (cards[2], cards[3])))


def _one_card(key: str, english: str) -> Callable[[Reading], Item]:
    def build(reading: Reading) -> Item:
        if len(reading.cards) != 1:
            raise InvalidCommand(key, english)
        return reading.cards[0]

    return build


def _pair_cards(reading: Reading) -> tuple[Item, ...]:
    if not 1 <= len(reading.cards) <= 2:
        raise InvalidCommand("take_a_pair", "a competition is answered by taking a pair")
    return reading.cards


def _one_number(args: list[Word]) -> int | None:
    """The number a line says alone ("2", "two"), or None."""
    if len(args) == 1 and args[0][0] in ("digits", "num") and len(str(args[0][1])) == 1:
        return int(args[0][1])  # type: ignore[call-overload]
    return None


def _gift_by_number(n: int, offer: Gift, said_take: bool) -> Command | None:
    """"take 2" answering a gift: the card at position 2, or the second card offered.
    Keyed alone ("2") it is a position, as the keypad help says; said with "take" (or as
    a word, "two") by someone who may mean the order of the offer, the two readings are
    weighed: a position whose card is not offered is the order; two different offered
    cards are a question. None: the usual reading (a position) decides."""
    if not (said_take and 1 <= n <= len(offer.cards)):
        return None
    by_position, by_order = Item(n), offer.cards[n - 1]
    if by_position not in offer.cards:
        return TakeGift(by_order)
    if by_position is not by_order:
        raise AmbiguousCommand(
            "position_or_order", "the position's card or the card offered in that place?",
            options=(TakeGift(by_position), TakeGift(by_order)), n=n,
            by_position=by_position, by_order=by_order,
        )
    return None


def _answer(args: list[Word], state: State, said_take: bool = False) -> Command:
    offer = state.offer
    if state.phase is not Phase.ANSWER or offer is None:
        raise IllegalAction("no_offer", "there is no offer to answer")
    number = _one_number(args)
    if isinstance(offer, Gift):
        if len(args) == 1 and args[0][0] == "ord":
            n = int(args[0][1])  # type: ignore[call-overload]
            if not 1 <= n <= 3:
                raise InvalidCommand("bad_choice", "choose the first, second or third card")
            return TakeGift(offer.cards[n - 1])
        if number is not None:
            chosen = _gift_by_number(number, offer, said_take or args[0][0] == "num")
            if chosen is not None:
                return chosen
        taken = _best(args, _one_card("take_one_card", "a gift is answered by taking one card"))
        return TakeGift(taken)
    # A competition: a pair number, an ordinal, a position (the pair holding its card), or
    # the cards of one pair.
    if len(args) == 1 and args[0][0] == "ord" or number in (1, 2):
        n = int(args[0][1])  # type: ignore[call-overload]
        if n not in (1, 2):
            raise InvalidCommand("bad_pair", "choose pair 1 or pair 2", pair=n)
        return TakePair(n - 1)
    cards = list(_best(args, _pair_cards))
    matches = [
        i for i, pair in enumerate(offer.pairs)
        if all(pair.count(c) >= cards.count(c) for c in cards)
    ]
    if len(matches) == 2 and offer.pairs[0] != offer.pairs[1]:
        raise AmbiguousCommand(
            "which_pair", "both pairs hold that card: pair 1 or pair 2?",
            options=(TakePair(0), TakePair(1)), cards=tuple(cards),
        )
    if not matches:
        raise IllegalAction(
            "not_a_pair", "no pair of the competition holds those cards", cards=tuple(cards),
            offer=offer,
        )
    return TakePair(matches[0])


def _reveal(args: list[Word], state: State) -> Command:
    if state.phase is not Phase.REVEAL:
        raise IllegalAction("reveal_later", "Secrets are revealed once every action is played")
    known = state.players[state.to_move].secret
    if not args and known is not None:  # the companion knows it: "reveal" is enough
        return Reveal(known)
    card = _best(args, _one_card(
        "reveal_one", "reveal one card: the one under your Secret token"
    ))
    return Reveal(card)
