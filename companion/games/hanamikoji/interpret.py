"""From a line a player typed, keyed or said to one command, in the game's context.

The same words mean different things at different moments ("2" is the Discard token when
choosing an action, the fan when answering a gift, the second pair after a competition),
so interpretation reads the state. What comes out is context-free: a value whose canonical
text means the same thing anywhere.
"""

from __future__ import annotations

from dataclasses import dataclass

from companion.commands import Adjust, Ask, MetaCommand, Query, Setting, parse_meta
from companion.errors import AmbiguousCommand, IllegalAction, InvalidCommand
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
from companion.games.hanamikoji.rules import Phase, State
from companion.normalize import Token as NormalToken
from companion.phrases import PhraseTable, Word, meta_command


@dataclass(frozen=True)
class Choose:
    """An offer begun but not complete: its token, and the cards named so far.

    A keypad user keys "3", then the cards; a scanner user scans the cards one by one.
    Its text is the action word with the cards so far ("gift fan").
    """

    token: Token
    cards: tuple[Item, ...] = ()

    def text(self) -> str:
        return " ".join([self.token.word, *(c.word for c in self.cards)])

    @property
    def missing(self) -> int:
        return self.token.cards - len(self.cards)


Command = Action | Choose | MetaCommand


def parse_command(text: str) -> Command:
    """Parse any command's canonical text (the inverse of `.text()`)."""
    meta = parse_meta(text)
    if meta is not None:
        return meta
    verb, *words = text.split()
    if verb in ("gift", "competition") and len(words) < Token[verb.upper()].cards:
        return Choose(Token[verb.upper()], tuple(Item[w.upper()] for w in words))
    return parse_action(text)


# Doubled keypad symbols change the voice: no word needed, and no clash with single keys.
KEYPAD_SETTINGS = {
    "**": Setting.FASTER, "//": Setting.SLOWER, "++": Setting.LOUDER, "--": Setting.QUIETER,
}

def _phrase_table() -> PhraseTable:
    table = PhraseTable()
    table.put(["/"], ("sep", None))
    table.put_meta(lx)
    for token, words in lx.TOKEN_WORDS.items():
        table.put(words, ("token", token))
    table.put(lx.TAKE_WORDS, ("take", None))
    table.put(lx.REVEAL_WORDS, ("reveal", None))
    for word, n in lx.NUMBER_WORDS.items():
        table.put([word], ("num", n))
    for word, n in lx.ORDINAL_WORDS.items():
        table.put([word], ("ord", n))
    table.put(lx.PAIR_SEPARATORS, ("sep", None))
    for item, words in lx.CARD_WORDS.items():
        table.put([w for w in words if w != "the"], ("card", item))
    table.put(lx.FILLERS, ("filler", None))
    return table


_TABLE = _phrase_table()


def _meanings(line: str, lang: str) -> list[Word]:
    def special(tok: NormalToken) -> Word | None:
        if tok.word == "0":
            return ("cancel", None)  # the keypad's 0 drops a half-keyed action
        if tok.word == "the":
            # French "thé" is tea; English "the" is an article, unless typed accented.
            return ("card", Item.TEA) if tok.accented or lang == "fr" else ("filler", None)
        return None

    return _TABLE.meanings(line, special)


def interpret(
    line: str, state: State, *, pending: Choose | None = None, lang: str = "en"
) -> Command:
    """The command a line means now; raises InvalidCommand, IllegalAction, AmbiguousCommand."""
    keyed = KEYPAD_SETTINGS.get(line.strip())
    if keyed is not None:
        return Adjust(keyed)
    words = _meanings(line, lang)
    if not words:
        return Ask(Query.WHAT)
    if words == [("sep", None)]:
        return Ask(Query.SCORE)  # the keypad's "/" key
    kinds = [k for k, _ in words]
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
        return _answer(args, state)
    if verb_kind == "reveal" or (not verb_kind and state.phase is Phase.REVEAL):
        return _reveal(args, state)
    if pending is not None:
        return _action(pending.token, args, state, pending.cards)
    if state.phase is Phase.ACTION and args[0][0] in ("digits", "num"):
        return _numbered_action(args, state)
    raise InvalidCommand(
        "say_action_first", "say the action first: secret, discard, gift or competition"
    )


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


def _cards(args: list[Word]) -> tuple[list[Item], list[int]]:
    """Cards named in order, and the indexes where a pair separator stood."""
    cards: list[Item] = []
    breaks: list[int] = []
    i = 0
    while i < len(args):
        kind, value = args[i]
        nxt = args[i + 1] if i + 1 < len(args) else None
        if kind in ("num", "digits") and nxt is not None and nxt[0] == "card":
            if not 1 <= int(value) <= 4:  # type: ignore[call-overload]
                raise InvalidCommand("bad_count", "a count of cards is 1 to 4", count=value)
            cards.extend([nxt[1]] * int(value))  # "two flowers": a count  # type: ignore[list-item]
            i += 2
            continue
        if kind == "card":
            cards.append(value)  # type: ignore[arg-type]
        elif kind == "digits":
            for d in str(value):
                if not "1" <= d <= "7":
                    raise InvalidCommand("bad_position", "card positions are 1 to 7", digit=d)
                cards.append(Item(int(d)))
        elif kind == "num":
            if not 1 <= int(value) <= 7:  # type: ignore[call-overload]
                raise InvalidCommand("bad_position", "card positions are 1 to 7", digit=value)
            cards.append(Item(int(value)))  # type: ignore[call-overload]
        elif kind == "sep":
            breaks.append(len(cards))
        else:
            raise InvalidCommand("cards_expected", "I expected cards here")
        i += 1
    return cards, breaks


def _count(cards: list[Item], expected: int, token: Token) -> None:
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
    cards, breaks = _cards(args)
    if before:
        cards = [*before, *cards]
        breaks = []
    if token is Token.SECRET:
        if cards:
            _count(cards, 1, token)
        return Secret(cards[0] if cards else None)
    if token is Token.DISCARD:
        if cards:
            _count(cards, 2, token)
        return Discard((cards[0], cards[1]) if cards else None)
    if len(cards) < token.cards:
        return Choose(token, tuple(cards))
    if token is Token.GIFT:
        _count(cards, 3, token)
        return Gift((cards[0], cards[1], cards[2]))
    _count(cards, 4, token)
    if breaks and breaks != [2]:
        raise InvalidCommand("pairs_of_two", "a competition is two pairs of two cards")
    return Competition(((cards[0], cards[1]), (cards[2], cards[3])))


def _answer(args: list[Word], state: State) -> Command:
    offer = state.offer
    if state.phase is not Phase.ANSWER or offer is None:
        raise IllegalAction("no_offer", "there is no offer to answer")
    if isinstance(offer, Gift):
        if len(args) == 1 and args[0][0] == "ord":
            n = int(args[0][1])  # type: ignore[call-overload]
            if not 1 <= n <= 3:
                raise InvalidCommand("bad_choice", "choose the first, second or third card")
            return TakeGift(offer.cards[n - 1])
        cards, _ = _cards(args)
        if len(cards) != 1:
            raise InvalidCommand("take_one_card", "a gift is answered by taking one card")
        return TakeGift(cards[0])
    # A competition: a pair number, an ordinal, or the cards of one pair.
    if len(args) == 1 and args[0][0] in ("ord", "num") or args and args[0][0] == "digits" and (
        len(args) == 1 and args[0][1] in ("1", "2")
    ):
        n = int(args[0][1])  # type: ignore[call-overload]
        if n not in (1, 2):
            raise InvalidCommand("bad_pair", "choose pair 1 or pair 2", pair=n)
        return TakePair(n - 1)
    cards, _ = _cards(args)
    if not 1 <= len(cards) <= 2:
        raise InvalidCommand("take_a_pair", "a competition is answered by taking a pair")
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
    cards, _ = _cards(args)
    if len(cards) != 1:
        raise InvalidCommand("reveal_one", "reveal one card: the one under your Secret token")
    return Reveal(cards[0])
