"""The rulebook by ear (companion/rulebook, `companion rules`, `rules` during play): each
game's sections in four languages, navigation, questions by word, the moment's section
during a game without changing it, and no sentence taken from the rule documents."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from companion.games.registry import load_game
from companion.narrate.catalogue import LANGUAGES, Catalogue
from companion.normalize import fold
from companion.rulebook.book import load
from companion.rulebook.moment import question
from companion.rulebook.navigator import Move, Navigator, Open, Question, parse, read
from companion.session import Session

GAMES = ("hanamikoji", "momiji")
SEEDS = Path("/work/shared/seeds")
# What each rulebook must explain (the brief: goal, material and stickers, set-up, a turn,
# each action, scoring, the end, the rule sets' differences).
NEEDED = {
    "hanamikoji": {"goal", "material", "stickers", "setup", "deal", "turn", "secret", "discard",
                   "gift", "competition", "scoring", "end", "rulesets"},
    "momiji": {"goal", "material", "stickers", "setup", "turn", "collect", "play", "bonus",
               "objectives", "extras", "end", "scoring"},
}


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("lang", LANGUAGES)
def test_each_rulebook_has_the_same_sections_in_every_language(game: str, lang: str) -> None:
    book = load(game, lang)
    english = load(game, "en")
    assert [s.id for s in book.sections] == [s.id for s in english.sections]
    assert {s.id for s in book.sections} >= NEEDED[game]
    for s in book.sections:
        assert s.title and s.keywords and 80 < len(s.text) < 700, (lang, s.id)
        assert "\n" not in s.text  # one printed line each
    for key, section in book.moments:
        assert book.section(section) is not None, key


def _ngrams(text: str, n: int = 7) -> set[tuple[str, ...]]:
    words = re.findall(r"[^\W_]+", fold(text))
    return {tuple(words[i:i + n]) for i in range(len(words) - n + 1)}


@pytest.mark.skipif(not SEEDS.is_dir(), reason="the rule documents are not on this machine")
@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("lang", LANGUAGES)
def test_no_sentence_is_copied_from_the_rule_documents(game: str, lang: str) -> None:
    """Summarised and restructured: no run of seven words of a seed appears in a section."""
    seeds = set().union(*(_ngrams(p.read_text("utf-8")) for p in SEEDS.glob("*.txt")))
    for s in load(game, lang).sections:
        shared = _ngrams(s.text) & seeds
        assert not shared, (lang, s.id, sorted(shared)[:3])


def test_navigation_next_previous_repeat_contents_and_numbers() -> None:
    nav = Navigator(load("hanamikoji", "en"))
    opening = nav.opening()
    assert [m.key for m in opening] == ["rules.opening", "rules.contents", "rules.keys"]
    assert nav.handle("")[0].data["section"] == "goal"  # Enter reads on
    assert nav.handle("+")[0].data["section"] == "material"
    assert nav.handle("next")[0].data["section"] == "stickers"
    assert nav.handle("-")[0].data["section"] == "material"
    assert nav.handle("*")[0].data["section"] == "material"  # repeat
    assert nav.handle("repeat")[0].params["number"] == 2
    assert nav.handle("/")[0].key == "rules.contents"
    assert nav.handle("9")[0].data["section"] == "gift"
    assert nav.handle("section 10")[0].data["section"] == "competition"
    assert nav.handle("The Secret, token 1")[0].data["section"] == "secret"  # by title
    assert nav.handle("13")[0].data["section"] == "rulesets"
    assert nav.handle("next")[0].key == "rules.last"
    assert nav.here == 13
    assert nav.handle("99")[0].key == "rules.no_section"
    assert nav.here == 13  # a refusal moves nothing
    assert nav.handle("1")[0].data["section"] == "goal"
    assert nav.handle("-")[0].key == "rules.first"
    assert nav.handle("quit")[0].event == "quit"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_navigation_words_in_each_language(lang: str) -> None:
    words = {"fr": ("suivant", "précédent", "répéter", "sommaire", "quitter"),
             "en": ("next", "previous", "repeat", "contents", "quit"),
             "es": ("siguiente", "anterior", "repetir", "índice", "salir"),
             "uk": ("далі", "назад", "повтори", "зміст", "вийти")}[lang]
    book = load("momiji", lang)
    moves = [read(w, book) for w in words]
    assert moves == [Move("next"), Move("previous"), Move("repeat"), Move("contents"),
                     Move("quit")]


# Questions by word, in each language: (game, lang, question, the section answering).
QUESTIONS = [
    ("hanamikoji", "en", "rules gift", "gift"),
    ("hanamikoji", "en", "what is a competition", "competition"),
    ("hanamikoji", "en", "how does a geisha win", "scoring"),
    ("hanamikoji", "en", "what do the three dots mean", "stickers"),
    ("hanamikoji", "en", "what happens on a tie", "scoring"),
    ("hanamikoji", "en", "how do I start", "setup"),
    ("hanamikoji", "fr", "règles offre", "gift"),
    ("hanamikoji", "fr", "qu'est-ce qu'un échange", "competition"),
    ("hanamikoji", "fr", "comment une geisha est gagnée", "scoring"),
    ("hanamikoji", "fr", "EGALITE", "scoring"),
    ("hanamikoji", "fr", "Règles dépôt", "discard"),
    ("hanamikoji", "es", "reglas regalo", "gift"),
    ("hanamikoji", "es", "qué es una competición", "competition"),
    ("hanamikoji", "es", "cómo gana una geisha", "scoring"),
    ("hanamikoji", "es", "renuncia", "discard"),
    ("hanamikoji", "uk", "правила подарунок", "gift"),
    ("hanamikoji", "uk", "що таке боротьба", "competition"),
    ("hanamikoji", "uk", "як гейша переходить", "scoring"),
    ("hanamikoji", "uk", "нічия", "scoring"),
    ("momiji", "en", "what is a harvest bonus", "bonus"),
    ("momiji", "en", "how do I close a pile", "play"),
    ("momiji", "en", "landscape", "extras"),
    ("momiji", "fr", "bonus de récolte", "bonus"),
    ("momiji", "fr", "comment clôturer une pile", "play"),
    ("momiji", "es", "cómo se cierra una pila", "play"),
    ("momiji", "es", "paisaje", "extras"),
    ("momiji", "uk", "як закрити стос", "play"),
    ("momiji", "uk", "пейзаж", "extras"),
]


@pytest.mark.parametrize(("game", "lang", "words", "expected"), QUESTIONS)
def test_a_question_by_word_finds_the_section_that_says_it(game: str, lang: str, words: str,
                                                           expected: str) -> None:
    nav = Navigator(load(game, lang))
    answer = nav.handle(words)
    assert answer[0].data["section"] == expected
    assert nav.here == load(game, lang).section(expected).number  # next reads on from there


def test_a_question_nothing_answers_says_so_and_gives_the_contents() -> None:
    nav = Navigator(load("hanamikoji", "en"))
    answer = nav.handle("xylophone zebra")
    assert [m.key for m in answer] == ["rules.not_found", "rules.contents"]
    assert nav.here is None


@given(st.one_of(st.sampled_from([Move(m) for m in ("next", "previous", "repeat",
                                                      "contents", "help", "quit")]),
                 st.builds(Open, st.integers(1, 99)),
                 st.builds(Question, st.text("abcdéf gh", min_size=1).map(str.strip)
                           .filter(bool).map(lambda s: " ".join(s.split())))))
def test_commands_have_a_canonical_text_that_parses_back(command: object) -> None:
    assert parse(command.text()) == command  # type: ignore[attr-defined]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_announcement_renders_in_every_language(lang: str) -> None:
    catalogue = Catalogue(lang, games=("hanamikoji",))
    nav = Navigator(load("hanamikoji", lang))
    said = nav.opening() + nav.handle("") + nav.handle("-") + nav.handle("99") + \
        nav.handle("zzzz qqqq") + nav.handle("quit")
    for m in said:
        text = catalogue.render(m)
        assert text and "{" not in text and not text.startswith("rules."), text


def _prompt_keys(game_name: str, seed: int) -> set[str]:
    """Every prompt key a seeded simulated game asks, through a real session."""
    game = load_game(game_name)
    sim = game.simulator()
    players = game.players[0]
    config = {"players": [f"P{i}" for i in range(players)], "rules": game.rule_sets[0],
              "lang": "en"}
    session = Session(game, config)
    keys = {m.key for m in session.start() if m.event == "prompt"}
    for line in sim.table_script(seed, players, game.rule_sets[0]):
        keys |= {m.key for m in session.execute(game.parse(line)) if m.event == "prompt"}
    return keys


@pytest.mark.parametrize("game", GAMES)
def test_every_prompt_of_a_game_has_a_section_for_rules(game: str) -> None:
    book = load(game, "en")
    keys = _prompt_keys(game, 3) | _prompt_keys(game, 4)
    missing = {k for k in keys if book.for_moment([k]) is None}
    assert not missing


@pytest.mark.parametrize("lang", LANGUAGES)
def test_rules_during_play_explains_the_moment_and_changes_nothing(lang: str) -> None:
    game = load_game("hanamikoji")
    session = Session(game, {"players": ["Ana", "Ben"], "rules": "iello", "lang": lang})
    session.start()
    sim = game.simulator()
    lines = sim.table_script(5, 2, "iello")
    # play up to the first gift waiting for its answer
    for line in lines:
        session.execute(game.parse(line))
        if any(m.key == "answer_gift" for m in session.handle("what")):
            break
    before = (session.state, session.log, session.step)
    said = session.handle({"fr": "règles", "en": "rules", "es": "reglas",
                           "uk": "правила"}[lang])
    assert said[0].key == "rules.now" and said[0].data["section"] == "gift"
    assert said[-1].key == "answer_gift"  # then the prompt again
    asked = session.handle({"fr": "règles échange", "en": "rules competition",
                            "es": "reglas competición", "uk": "правила боротьба"}[lang])
    assert asked[0].data["section"] == "competition"
    assert (session.state, session.log, session.step) == before
    catalogue = Catalogue(lang, games=("hanamikoji",))
    assert all("{" not in catalogue.render(m) for m in said + asked)


def test_a_rules_word_alone_or_leading_is_read_as_such() -> None:
    assert question("rules gift") == "gift"
    assert question("Règles  dépôt") == "dépôt"
    assert question("rules") is None and question("gift rules") is None


def test_a_private_prompt_gives_no_moment_to_the_table() -> None:
    """Only the table's prompt chooses the section: a question put privately to one
    player would otherwise show through the public answer."""
    from companion.narrate.message import Message
    from companion.rulebook.moment import explain

    private = [Message("prompt", "answer_gift", private_to=1)]
    assert explain("hanamikoji", "en", private)[0].key == "rules.now_none"
    public = [Message("prompt", "answer_gift")]
    assert explain("hanamikoji", "en", public)[0].data["section"] == "gift"
