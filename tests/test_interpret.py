"""The text interpreter: typed, keyed or spoken lines in English and French."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.errors import (
    AmbiguousCommand,
    CompanionError,
    IllegalAction,
    InvalidCommand,
    is_long,
)
from companion.games.hanamikoji.actions import (
    Competition,
    Discard,
    Gift,
    Reveal,
    Secret,
    TakeGift,
    TakePair,
)
from companion.games.hanamikoji.data import Item, Token
from companion.games.hanamikoji.interpret import Choose, Command, interpret, parse_command
from companion.games.hanamikoji.rules import Phase, State, new_game, replay
from companion.shared_commands import Ask, Query, Undo

F, N, S, U, H, T, W = (
    Item.FLUTE, Item.FAN, Item.SCROLL, Item.UMBRELLA, Item.SHAMISEN, Item.TEA, Item.FLOWER,
)

ACTION = new_game()  # table game, player 0 to act, every token available
GIFT = replay(new_game(), [Gift((N, T, W))])  # player 1 answers a gift fan, tea, flower
COMP = replay(new_game(), [Competition(((N, W), (N, T)))])  # pairs fan+flower / fan+tea
REVEAL = replay(
    new_game(),
    [
        Secret(), Secret(), Discard(), Discard(),
        Gift((F, N, S)), TakeGift(F), Gift((U, U, H)), TakeGift(H),
        Competition(((T, T), (W, W))), TakePair(0), Competition(((T, W), (W, S))), TakePair(1),
    ],
)
assert GIFT.phase is Phase.ANSWER and COMP.phase is Phase.ANSWER
assert REVEAL.phase is Phase.REVEAL and ACTION.phase is Phase.ACTION


def check(line: str, state: State, expected: Command, **kw) -> None:
    got = interpret(line, state, **kw)
    assert got == expected, line
    assert parse_command(got.text()) == got


def refused(line: str, state: State, error: type[CompanionError], key: str, **kw) -> None:
    with pytest.raises(error) as info:
        interpret(line, state, **kw)
    assert type(info.value) is error
    assert info.value.key == key, str(info.value)


# --- actions, EN and FR ------------------------------------------------------------------

ACTION_LINES = [
    ("secret", Secret()),
    ("Secret", Secret()),
    ("SECRET", Secret()),
    ("secret fan", Secret(N)),
    ("discard", Discard()),
    ("dépôt", Discard()),
    ("depot", Discard()),
    ("DÉPÔT", Discard()),
    ("discard fan flower", Discard((N, W))),
    ("dépôt éventail fleur", Discard((N, W))),
    ("gift fan tea flower", Gift((N, T, W))),
    ("GIFT Flower Fan Tea", Gift((N, T, W))),
    ("offre éventail thé fleur", Gift((N, T, W))),
    ("offre eventail the fleur", Gift((N, T, W))),  # "the" is tea in French
    ("Offre ÉVENTAIL THÉ Fleur", Gift((N, T, W))),
    ("competition fan fan / tea tea", Competition(((N, N), (T, T)))),
    ("competition fan fan tea tea", Competition(((N, N), (T, T)))),
    ("competition fan tea/fan tea", Competition(((N, T), (N, T)))),
    ("échange éventail éventail / thé thé", Competition(((N, N), (T, T)))),
    ("echange eventail eventail the the", Competition(((N, N), (T, T)))),
    ("échange éventail fleur puis thé rose", Competition(((N, W), (T, W)))),
    # what the voice reading takes, typed too (refused before)
    ("don éventail thé fleur", Gift((N, T, W))),
    ("je donne éventail, thé et fleur", Gift((N, T, W))),
    ("renuncio", Discard()),
]


@pytest.mark.parametrize(("line", "expected"), ACTION_LINES)
def test_actions(line: str, expected: Command) -> None:
    check(line, ACTION, expected, lang="fr")


@pytest.mark.parametrize(
    ("line", "expected"),
    [("1", Secret()), ("2", Discard()), ("3", Choose(Token.GIFT)),
     ("4", Choose(Token.COMPETITION))],
)
def test_token_numbers(line: str, expected: Command) -> None:
    check(line, ACTION, expected)


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("3125", Gift((F, N, H))),
        ("3 1 2 5", Gift((F, N, H))),
        ("3 125", Gift((F, N, H))),
        ("41267", Competition(((F, N), (T, W)))),
        ("4 1 2 6 7", Competition(((F, N), (T, W)))),
        ("4 1 2 / 6 7", Competition(((F, N), (T, W)))),
        ("4 12 67", Competition(((F, N), (T, W)))),
        ("27 7", Discard((W, W))),
        ("17", Secret(W)),
        ("3 2", Choose(Token.GIFT, (N,))),
    ],
)
def test_keypad_forms(line: str, expected: Command) -> None:
    check(line, ACTION, expected)


def test_keypad_over_several_lines() -> None:
    pending = interpret("3", ACTION)
    assert pending == Choose(Token.GIFT)
    pending = interpret("1", ACTION, pending=pending)
    assert pending == Choose(Token.GIFT, (F,))
    assert parse_command(pending.text()) == pending
    pending = interpret("fan", ACTION, pending=pending)  # a scanned card, by its word
    assert pending == Choose(Token.GIFT, (F, N))
    assert interpret("7", ACTION, pending=pending) == Gift((F, N, W))

    pending = interpret("4", ACTION)
    pending = interpret("6 6", ACTION, pending=pending)
    assert pending == Choose(Token.COMPETITION, (T, T))
    assert interpret("7 7", ACTION, pending=pending) == Competition(((T, T), (W, W)))


def test_too_many_cards_over_several_lines() -> None:
    refused("fan tea", ACTION, InvalidCommand, "card_count",
            pending=Choose(Token.GIFT, (F, F)))


def test_keypad_zero_cancels_a_pending_choice() -> None:
    from companion.shared_commands import Cancel

    assert interpret("0", ACTION, pending=Choose(Token.GIFT, (F,))) == Cancel()


# --- wrong number of cards ------------------------------------------------------------------


@pytest.mark.parametrize(
    "line",
    [
        "secret fan tea",
        "discard fan",
        "discard fan tea flower",
        "gift fan tea flower flute",
        "competition fan tea flower flute scroll",
        "dépôt éventail",
        "offre deux fleurs deux éventails",
        "3 1234",
        "1 12",
    ],
)
def test_wrong_number_of_cards(line: str) -> None:
    refused(line, ACTION, InvalidCommand, "card_count", lang="fr")


def test_competition_pairs_must_be_two_and_two() -> None:
    refused("competition fan / fan tea tea", ACTION, InvalidCommand, "pairs_of_two")


def test_incomplete_offer_is_a_choice_not_an_action() -> None:
    check("gift fan tea", ACTION, Choose(Token.GIFT, (N, T)))
    check("competition fan", ACTION, Choose(Token.COMPETITION, (N,)))


# --- answers ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("take fan", TakeGift(N)),
        ("Take FLOWER", TakeGift(W)),
        ("take the fan", TakeGift(N)),  # the English article
        ("take thé", TakeGift(T)),
        ("prendre éventail", TakeGift(N)),
        ("je prends le thé", TakeGift(T)),
        ("prendre fleur", TakeGift(W)),
        ("fan", TakeGift(N)),
        ("7", TakeGift(W)),  # a position digit
        ("take first", TakeGift(N)),  # the gift's first card in table order
        ("take third", TakeGift(W)),
    ],
)
def test_answers_to_a_gift(line: str, expected: Command) -> None:
    check(line, GIFT, expected, lang="en")


def test_answering_a_gift_with_a_card_not_in_it_is_refused_by_the_rules() -> None:
    from companion.games.hanamikoji.rules import apply

    answer = interpret("take flute", GIFT)
    assert answer == TakeGift(F)
    with pytest.raises(IllegalAction) as info:
        apply(GIFT, answer)
    assert info.value.key == "not_in_offer"


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("take 1", TakePair(0)),
        ("take 2", TakePair(1)),
        ("take first", TakePair(0)),
        ("take second", TakePair(1)),
        ("take one", TakePair(0)),
        ("1", TakePair(0)),
        ("2", TakePair(1)),
        ("prendre 1", TakePair(0)),
        ("prendre 2", TakePair(1)),
        ("prendre premier", TakePair(0)),
        ("prendre deuxième", TakePair(1)),
        ("prendre deuxieme", TakePair(1)),
        ("take fan flower", TakePair(0)),
        ("take flower fan", TakePair(0)),
        ("take tea fan", TakePair(1)),
        ("prendre éventail thé", TakePair(1)),
        ("prendre éventail fleur", TakePair(0)),
        ("take flower", TakePair(0)),  # only pair 1 has a flower
        ("prendre the", TakePair(1)),  # French "the" (unaccented) is tea
    ],
)
def test_answers_to_a_competition(line: str, expected: Command) -> None:
    lang = "fr" if line.startswith("prendre") else "en"
    check(line, COMP, expected, lang=lang)


@pytest.mark.parametrize("line", ["take fan", "prendre éventail", "take red"])
def test_take_fan_is_ambiguous_when_both_pairs_hold_one(line: str) -> None:
    with pytest.raises(AmbiguousCommand) as info:
        interpret(line, COMP)
    assert info.value.key == "which_pair"
    assert set(info.value.options) == {TakePair(0), TakePair(1)}


def test_identical_pairs_are_not_ambiguous() -> None:
    same = replay(new_game(), [Competition(((N, T), (N, T)))])
    assert interpret("take fan", same) in (TakePair(0), TakePair(1))


@pytest.mark.parametrize(
    ("line", "error", "key"),
    [
        ("take tea tea", IllegalAction, "not_a_pair"),
        ("take flute", IllegalAction, "not_a_pair"),
        ("take third", InvalidCommand, "bad_pair"),
        ("take fan flower tea", InvalidCommand, "take_a_pair"),
        ("take", InvalidCommand, "take_a_pair"),
    ],
)
def test_answers_that_match_no_pair(line: str, error: type[CompanionError], key: str) -> None:
    refused(line, COMP, error, key)


def test_gift_answer_takes_one_card() -> None:
    refused("take fan tea", GIFT, InvalidCommand, "take_one_card")


def test_keyed_digits_during_an_answer_are_card_positions() -> None:
    # "3125" is four positions, not the Gift token: too many cards for a pair.
    refused("3125", COMP, InvalidCommand, "take_a_pair")
    refused("take 8", COMP, InvalidCommand, "bad_position")


def test_french_plural_of_tea() -> None:
    check("offre deux thés fleur", ACTION, Gift((T, T, W)), lang="fr")


def test_take_without_an_offer() -> None:
    refused("take fan", ACTION, IllegalAction, "no_offer")


@pytest.mark.parametrize("line", ["secret", "offre fan tea flower", "2", "reveal fan"])
def test_acting_while_an_offer_is_unanswered(line: str) -> None:
    # "2" and "fan" answer the offer; an action word does not.
    state = replay(new_game(), [Competition(((N, W), (N, T)))])
    if line == "2":
        assert interpret(line, state) == TakePair(1)
        return
    with pytest.raises(IllegalAction) as info:
        interpret(line, state)
    assert info.value.key in ("offer_waiting", "reveal_later")


# --- the Secret at scoring -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("line", "lang"),
    [("flower", "en"), ("reveal flower", "en"), ("révéler fleur", "fr"), ("reveler fleur", "fr"),
     ("7", "en"), ("fleur", "fr"), ("secret flower", "en"), ("Ruri", "en"), ("pink", "en")],
)
def test_reveal_forms(line: str, lang: str) -> None:
    check(line, REVEAL, Reveal(W), lang=lang)


def test_reveal_before_all_actions() -> None:
    refused("reveal flower", ACTION, IllegalAction, "reveal_later")
    refused("reveal", REVEAL, InvalidCommand, "reveal_one")
    refused("reveal fan tea", REVEAL, InvalidCommand, "reveal_one")


# --- queries and keypad symbols --------------------------------------------------------------


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("score", Ask(Query.SCORE)),
        ("board", Ask(Query.BOARD)),
        ("actions", Ask(Query.ACTIONS)),
        ("repeat", Ask(Query.REPEAT)),
        ("help", Ask(Query.HELP)),
        ("Score", Ask(Query.SCORE)),
        ("plateau", Ask(Query.BOARD)),
        ("répéter", Ask(Query.REPEAT)),
        ("repeter", Ask(Query.REPEAT)),
        ("aide", Ask(Query.HELP)),
        ("AIDE", Ask(Query.HELP)),
        ("undo", Undo()),
        ("annuler", Undo()),
        ("*", Ask(Query.REPEAT)),
        ("/", Ask(Query.SCORE)),
        ("-", Undo()),
        ("+", Ask(Query.HELP)),
        ("", Ask(Query.WHAT)),
    ],
)
@pytest.mark.parametrize("state", [ACTION, GIFT, COMP, REVEAL], ids=["action", "gift",
                                                                       "comp", "reveal"])
def test_queries_in_every_phase(line: str, expected: Command, state: State) -> None:
    check(line, state, expected, lang="fr")


def test_keypad_dot_asks_for_the_board() -> None:
    assert interpret(".", ACTION) == Ask(Query.BOARD)


def test_a_query_must_be_alone() -> None:
    refused("gift fan tea score", ACTION, InvalidCommand, "one_at_a_time")


# --- card words ------------------------------------------------------------------------------

CARD_WORDS = {
    F: ["flute", "flûte", "purple", "violet", "grapes", "raisin", "Ayane", "1"],
    N: ["fan", "éventail", "eventail", "red", "rouge", "heart", "cœur", "coeur", "Iroha", "2"],
    S: ["scroll", "paper", "papier", "yellow", "jaune", "moon", "lune", "Tomoyo", "3"],
    U: ["umbrella", "parasol", "ombrelle", "blue", "bleu", "drop", "goutte", "Yoko", "4"],
    H: ["shamisen", "lute", "luth", "orange", "circle", "rond", "Chiharu", "5"],
    T: ["tea", "thé", "green", "vert", "clover", "trèfle", "trefle", "Anju", "6"],
    W: ["flower", "fleur", "pink", "rose", "Ruri", "7"],
}
CARD_CASES = [(word, item) for item, words in CARD_WORDS.items() for word in words]


@pytest.mark.parametrize(("word", "item"), CARD_CASES)
def test_card_words(word: str, item: Item) -> None:
    check(f"secret {word}", ACTION, Secret(item), lang="fr")
    check(f"SECRET {word.upper()}", ACTION, Secret(item), lang="en")
    check(word, REVEAL, Reveal(item))


@pytest.mark.parametrize(
    ("line", "lang", "expected"),
    [
        ("gift two flowers fan", "en", Gift((N, W, W))),
        ("gift 2 flowers fan", "en", Gift((N, W, W))),
        ("offre deux fleurs éventail", "fr", Gift((N, W, W))),
        ("offre une fleur deux éventails", "fr", Gift((N, N, W))),
        ("competition two fans / two teas", "en", Competition(((N, N), (T, T)))),
        ("discard two teas", "en", Discard((T, T))),
        ("gift the fan the tea the flower", "en", Gift((N, T, W))),  # articles
        ("gift fan the flower", "en", Choose(Token.GIFT, (N, W))),  # "the" is no card in EN
        ("gift fan the flower", "fr", Gift((N, T, W))),  # ... and tea in French
        ("gift fan thé flower", "en", Gift((N, T, W))),  # accented: tea in any language
        ("offre le thé la fleur l'éventail", "fr", Gift((N, T, W))),
        ("offre le service à thé la fleur l'éventail", "fr", Gift((N, T, W))),
        ("gift tea set fan flower", "en", Gift((N, T, W))),
    ],
)
def test_counts_and_articles(line: str, lang: str, expected: Command) -> None:
    check(line, ACTION, expected, lang=lang)


# --- junk ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "line", ["banana", "gift banana", "secret 9", "8", "9 fan", "/ /",
             "fan tea", "gift first", "3 0"],
)
def test_junk_is_invalid(line: str) -> None:
    with pytest.raises(InvalidCommand):
        interpret(line, ACTION)


def test_decomposed_accents_are_understood() -> None:
    assert interpret("de\u0301po\u0302t", ACTION) == Discard()


@pytest.mark.parametrize("line", ["²", "gift ² fans"])
def test_unicode_digits_are_invalid_commands(line: str) -> None:
    with pytest.raises(InvalidCommand):
        interpret(line, ACTION)


def test_a_huge_count_is_an_invalid_command() -> None:
    with pytest.raises(InvalidCommand):
        interpret("gift 100000000000000000000 fans", ACTION)


def test_a_zero_count_is_an_invalid_command() -> None:
    with pytest.raises(InvalidCommand):
        interpret("secret 0 fan", ACTION)


VOCABULARY = [
    "secret", "discard", "dépôt", "gift", "offre", "competition", "échange", "take",
    "prendre", "reveal", "révéler", "fan", "éventail", "tea", "thé", "the", "flower",
    "fleur", "flute", "red", "moon", "Ruri", "two", "deux", "first", "deuxième", "/",
    "puis", "score", "plateau", "undo", "annuler", "*", "-", "+", "1", "2", "3", "7", "12",
    "3125", "0", "9", "le", "a", "yes", "cancel", "faster",
]
STATES = [ACTION, GIFT, COMP, REVEAL]
lines = st.lists(st.sampled_from(VOCABULARY), max_size=6).map(" ".join)
junk_word = st.from_regex(r"qx[a-z]{1,6}", fullmatch=True)
ascii_text = st.text(
    alphabet=st.characters(min_codepoint=32, max_codepoint=126) | st.sampled_from("éèàçôœ"),
    max_size=30,
)


@given(line=st.one_of(lines, ascii_text), state=st.sampled_from(STATES),
       lang=st.sampled_from(["en", "fr"]),
       pending=st.sampled_from([None, Choose(Token.GIFT, (N,)), Choose(Token.COMPETITION)]))
@settings(max_examples=400, deadline=None)
def test_any_line_gives_a_command_or_a_companion_error(
    line: str, state: State, lang: str, pending: Choose | None
) -> None:
    try:
        command = interpret(line, state, pending=pending, lang=lang)
    except (InvalidCommand, IllegalAction, AmbiguousCommand):
        return
    assert parse_command(command.text()) == command


@given(before=lines, junk=junk_word, after=lines, state=st.sampled_from(STATES),
       lang=st.sampled_from(["en", "fr"]))
@settings(max_examples=200, deadline=None)
def test_a_line_with_an_unknown_word_is_invalid(
    before: str, junk: str, after: str, state: State, lang: str
) -> None:
    line = f"{before} {junk} {after}"
    with pytest.raises(InvalidCommand) as info:
        interpret(line, state, lang=lang)
    if is_long(line):  # longer than a sentence: said by its first words only
        assert info.value.key == "long_line"
        return
    assert info.value.key == "unknown_word"
    assert info.value.params["word"] == junk


def test_a_hyphen_between_letters_joins_words_and_alone_is_undo() -> None:
    """Names shown with hyphens ("green-brown-purple leaves") are words said together; the
    keypad's minus, alone or beside a digit, is still undo."""
    from companion.normalize import tokens

    assert [t.word for t in tokens("green-brown-purple")] == ["green", "brown", "purple"]
    assert [t.word for t in tokens("vert-marron-violet")] == ["vert", "marron", "violet"]
    assert [t.word for t in tokens("-")] == ["-"]
    assert [t.word for t in tokens("3-4 -")] == ["3", "-", "4", "-"]
    assert interpret("-", new_game()) == Undo()
