"""Forgiving words (issue 28, part 3): a slip gets a suggestion that only a yes applies;
newcomers' phrasings; punctuation between words; grammar that follows the numbers."""

from __future__ import annotations

import glob
import re
import string
import sys
from pathlib import Path

import pytest

from companion.games.hanamikoji import Hanamikoji
from companion.games.hanamikoji.actions import Gift, Secret, TakeGift, TakePair
from companion.games.hanamikoji.data import Item
from companion.games.momiji import Momiji
from companion.narrate.catalogue import LANGUAGES, Catalogue, plural_form
from companion.narrate.message import Message
from companion.session import Session
from companion.shared_commands import Adjust, Ask, Query, Setting

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

COUNTS = (0, 1, 2, 5, 21)


def session(lang: str = "en") -> Session:
    return Session(Hanamikoji(), {"players": ["Ana", "Ben"], "lang": lang})


def test_a_slip_is_a_question_and_only_yes_applies_it():
    s = session()
    out = s.handle("secrte")
    assert [m.key for m in out] == ["did_you_mean"]
    assert Catalogue("en").render(out[0]) == (
        "I did not understand secrte. Did you mean secret? Yes or no.")
    assert s.step == 0  # nothing applied yet
    assert s.handle("yes")[0].event == "played"
    assert s.log[-1][0] == Secret(None)


def test_no_leaves_the_game_as_it_was_and_several_slips_are_guessed():
    s = session()
    out = s.handle("gfit fan flte tea")
    assert Catalogue("en").render(out[0]).endswith("Did you mean gift fan flute tea? Yes or no.")
    assert s.handle("no")[0].key == "not_applied" and s.step == 0
    s.handle("gfit fan flte tea")
    s.handle("yes")
    assert s.log[-1][0] == Gift((Item.FLUTE, Item.FAN, Item.TEA))


def test_a_suggested_secret_does_not_say_its_card():
    s = session()
    out = s.handle("secrte flwoer")
    text = Catalogue("en").render(out[0])
    assert "flower" not in text and "Did you mean secret?" in text


def test_nonsense_is_refused_as_before():
    s = session()
    out = s.handle("xyzzy")
    assert out[0].key == "error.unknown_word" and s.step == 0


@pytest.mark.parametrize("game", [Hanamikoji(), Momiji()], ids=["hanamikoji", "momiji"])
@pytest.mark.parametrize(("line", "command"), [
    ("what can I do", Ask(Query.ACTIONS)),
    ("que puis-je faire", Ask(Query.ACTIONS)),
    ("qué puedo hacer", Ask(Query.ACTIONS)),
    ("verbosity brief", Adjust(Setting.BRIEF)),
    ("verbosité détaillé", Adjust(Setting.DETAILED)),
    ("verbosity normal", Adjust(Setting.NORMAL)),
    # back and forward in each language (Spanish and Ukrainian were not understood)
    ("atrás", Ask(Query.BACK)), ("anterior", Ask(Query.BACK)), ("назад", Ask(Query.BACK)),
    ("adelante", Ask(Query.FORWARD)), ("siguiente", Ask(Query.FORWARD)),
    ("вперед", Ask(Query.FORWARD)),
])
def test_newcomers_phrasings(game, line, command):
    state = game.new_state({"players": ["Ana", "Ben"], "rules": game.rule_sets[0]})
    assert game.interpret(line, state, None, "en") == command


def test_spanish_par_and_punctuation_between_words():
    s = session("es")
    s.handle("Gift: fan, flute, tea")
    assert s.log[-1][0] == Gift((Item.FLUTE, Item.FAN, Item.TEA))
    s = session("es")
    s.handle("competición flauta abanico / pergamino té")
    s.handle("par 2")
    assert s.step == 2 and s.log[-1][0] == TakePair(1)


# --- grammar that follows the numbers -----------------------------------------------------


def _catalogue_files(lang: str) -> list[str]:
    return ([f"companion/locales/{lang}.toml", f"companion/locales/cards.{lang}.toml"]
            + sorted(glob.glob(f"companion/games/*/locales/{lang}.toml")))


PLURALS = {"zero", "one", "two", "few", "many", "other"}


def _templates(data: dict, prefix: str = ""):
    for key, value in data.items():
        if isinstance(value, dict) and set(value) <= PLURALS:
            yield prefix + key, value
        elif isinstance(value, dict):
            yield from _templates(value, prefix + key + ".")
        elif isinstance(value, str):
            yield prefix + key, value


def _counted_sentences(lang: str):
    """Every sentence that says a number with a plural rule: a plural table (chosen by n)
    or a placeholder with a plural form (`{seen:seen_already}`); with the tables it uses."""
    catalogue = Catalogue(lang)
    forms = catalogue.section("forms")
    plural_forms = {k: v for k, v in forms.items()
                    if isinstance(v, dict) and set(v) <= PLURALS}
    for path in _catalogue_files(lang):
        with open(path, "rb") as f:
            data = tomllib.load(f)
        for key, value in _templates(data.get("messages", {})):
            texts = value.values() if isinstance(value, dict) else [value]
            fields = {(name, spec) for text in texts
                      for _, name, spec, _ in string.Formatter().parse(text) if name}
            tables = {name: plural_forms[spec] for name, spec in fields if spec in plural_forms}
            if isinstance(value, dict):
                tables["n"] = value
            if tables:
                yield key, fields, tables


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_count_bearing_sentence_follows_0_1_2_5_21(lang):
    """Said with 0, 1, 2, 5 and 21 (between them every CLDR category these languages
    use), every count-bearing sentence of the catalogues is said whole, and each plural
    table it uses has the wording of the number's category: none falls back to `other`
    for a category the language has (Ukrainian 21 is "one", 2 "few", 5 "many")."""
    catalogue = Catalogue(lang)
    checked = 0
    for key, fields, tables in _counted_sentences(lang):
        for n in COUNTS:
            params = {name: (n if name in tables else f"<{name}>") for name, _ in fields}
            params.setdefault("n", n)
            text = catalogue.render(Message("x", key, params))
            assert "{" not in text and text != key, (lang, key, n, text)
            category = plural_form(lang, n)
            for name, table in tables.items():
                assert category in table or category == "other", (lang, key, name, n)
        checked += 1
    assert checked > 20


# Counts said bare before a noun or a verb that agrees with them (the fixed family).
BARE = {
    "en": r"\{(?!n\})(?P<name>\w+)\} (are|is|cards?|acorns?)\b",
    "fr": r"\{(?!n\})(?P<name>\w+)(:card)?\} (sur \{\w+\} )?(sont|est|enregistrées)\b",
    "es": r"(se han visto|han) \{(?!n\})(?P<name>\w+)\}",
    "uk": r"(?P<name>(?!))",  # Ukrainian says its counts through plural tables only
}
# Placeholders that are no counts, and `total` (a whole set of cards: 7, 8 or 21, never 1).
ALLOWED_BARE = {"game", "path", "word", "companion", "player", "players", "device", "name",
                "reader", "card", "cards", "token", "geisha", "colour", "command", "line",
                "what", "a", "b", "other", "objective", "total", "item", "items", "start",
                "char", "reason", "why", "url", "chooser", "offerer", "rules", "known",
                "host", "port"}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_no_count_is_said_bare_before_a_word_that_agrees_with_it(lang):
    for path in _catalogue_files(lang):
        if "momiji" in path:
            continue  # Momiji's hand counts are chosen by n in its tables
        with open(path, "rb") as f:
            data = tomllib.load(f)
        for key, value in _templates(data.get("messages", {})):
            for text in (value.values() if isinstance(value, dict) else [value]):
                for m in re.finditer(BARE[lang], text):
                    assert m.group("name") in ALLOWED_BARE, (lang, key, text)


@pytest.mark.parametrize(("lang", "n", "said"), [
    ("en", 1, "and 1 is already seen this round"), ("en", 2, "and 2 are already seen"),
    ("es", 1, "ya se ha visto 1 en"), ("es", 5, "ya se han visto 5 en"),
])
def test_the_seen_copies_follow_their_number(lang, n, said):
    text = Catalogue(lang, games=("hanamikoji",)).render(Message(
        "error", "error.too_many_copies", {"copies": 2, "card": Item.FAN, "seen": n}))
    assert said in text, text


@pytest.mark.parametrize("done", COUNTS)
def test_french_enrolment_counts_agree(done):
    catalogue = Catalogue("fr")
    text = catalogue.render(Message("info", "cards.check_missing",
                                    {"done": done, "total": 21, "n": 21 - done,
                                     "cards": "x"}))
    assert f"Cartes enregistrées : {done} sur 21." in text
    assert "sont enregistrées" not in text


def _verbs(lang: str) -> set[str]:
    """The verb each answer prompt (normal, brief, detailed) and each take hint asks the
    player to say: the word after "{player}, " or after the hint's "Hint: "."""
    path = Path(sys.modules["companion.games.hanamikoji"].__file__ or "").parent
    data = tomllib.loads((path / "locales" / f"{lang}.toml").read_text("utf-8"))["messages"]
    verbs = set()
    for section in (data, data.get("brief", {}), data.get("short", {}),
                    data.get("detailed", {})):
        for key in ("answer_gift", "answer_competition"):
            found = re.match(r"\{player\}, ([^\W\d]+)", section.get(key, ""))
            if found and found.group(1) not in ("pair", "paire", "grupo", "набір"):
                verbs.add(found.group(1))
    for key in ("hint_take", "hint_take_pair"):
        verbs.add(re.match(r"[^:]+ ?: (\w+)", data[key]).group(1))
    return verbs


@pytest.mark.parametrize(("lang", "gift", "card", "competition"), [
    ("en", "gift flute fan tea", "flute", "competition flute fan scroll umbrella"),
    ("fr", "offre flûte éventail thé", "la flûte", "échange flûte éventail papier ombrelle"),
    ("es", "regalo flauta abanico té", "la flauta",
     "competición flauta abanico pergamino sombrilla"),
    ("uk", "подарунок флейта віяло чай", "флейту", "боротьба флейта віяло сувій парасолька"),
])
def test_the_companions_own_words_answer_an_offer(lang, gift, card, competition):
    """The verb a prompt or a hint says ("prenez", "coge", "toma", "візьміть") answers the
    offer when a player says it back: it was refused as not understood."""
    verbs = _verbs(lang)
    assert len(verbs) >= 2, verbs
    pair = {"en": "pair", "fr": "la paire", "es": "la pareja", "uk": "набір"}[lang]
    for verb in sorted(verbs):
        s = session(lang)
        s.handle(gift)
        out = s.handle(f"{verb} {card}")
        assert s.step == 2 and s.log[-1][0] == TakeGift(Item.FLUTE), (verb, out)
        s = session(lang)
        s.handle(competition)
        out = s.handle(f"{verb} {pair} 2")
        assert s.step == 2 and s.log[-1][0] == TakePair(1), (verb, out)


@pytest.mark.parametrize(("lang", "cards"), [
    ("en", ("flute", "fan", "scroll", "umbrella")),
    ("fr", ("flûte", "éventail", "papier", "ombrelle")),
    ("es", ("flauta", "abanico", "pergamino", "sombrilla")),
    ("uk", ("флейта", "віяло", "сувій", "парасолька")),
])
def test_a_hint_names_its_action_with_a_word_that_plays_it(lang, cards):
    """A hint says the action by a word the player can say back to play it (the game's
    names: Renuncia, Мотлох, Таємниця, not "descarte", "скидання", "секрет")."""
    path = Path(sys.modules["companion.games.hanamikoji"].__file__ or "").parent
    data = tomllib.loads((path / "locales" / f"{lang}.toml").read_text("utf-8"))["messages"]
    for key, n, action in (("hint_secret", 1, "Secret"), ("hint_discard", 2, "Discard"),
                           ("hint_gift", 3, "Gift"), ("hint_competition", 4, "Competition")):
        word = re.match(r"[^:]+ ?: (\w+)", data[key]).group(1)
        s = session(lang)
        s.handle(f"{word} {' '.join(cards[:n])}")
        assert s.step == 1 and type(s.log[-1][0]).__name__ == action, (key, word)


MOMIJI_SAID = {  # the verbs Momiji's prompts and hints say, and the action each names
    "en": {"collect the {c} column": "Collect", "reveal": "Reveal", "play {c} 0": "Play",
           "trade {c} 0 {c} 1": "Trade", "end your turn": "End"},
    "fr": {"prenez la colonne de type {c}": "Collect", "révélez": "Reveal",
           "posez {c} 0": "Play", "défaussez {c} 0 {c} 1": "Trade",
           "finissez votre tour": "End"},
    "es": {"coge la columna de color {c}": "Collect", "revela": "Reveal",
           "juega {c} 0": "Play", "descarta {c} 0 {c} 1": "Trade",
           "termina tu turno": "End"},
    "uk": {"візьміть {c} стовпець": "Collect", "відкрийте": "Reveal",
           "зіграйте {c} 0": "Play", "обміняйте {c} 0 {c} 1": "Trade",
           "завершіть хід": "End"},
}


@pytest.mark.parametrize("lang", sorted(MOMIJI_SAID))
def test_momiji_understands_the_verbs_its_prompts_and_hints_say(lang):
    """A Momiji player who says back the companion's own words is understood: the French
    prompt's "prenez une colonne" and the hints' "révélez", "finissez votre tour",
    "завершіть хід" were refused as not understood."""
    from companion.games.momiji import narrate
    from companion.games.momiji.rules import Phase
    from companion.games.registry import load_game

    game = load_game("momiji")
    hooks = game.practice()
    config = {"players": ["Ana", "Ben"], "lang": lang,
              "practice": {"level": "easy", "seed": 3}}
    s = Session(game, config)
    while s.state.phase is not Phase.TURN:
        s.execute(hooks.chance(s.state, config))
    catalogue = Catalogue(lang)
    said = " ".join(catalogue.render(Message("", key, {}))
                    for key in ("momiji.main", "momiji.hint_reveal", "momiji.hint_end",
                                "momiji.hint_trade", "momiji.hint_play"))
    colour = catalogue.value(narrate.colour(s.state.colours[0]))
    for line, action in MOMIJI_SAID[lang].items():
        verb = line.split()[0]
        assert verb.lower() in said.lower(), (verb, said)  # a word the companion says
        command = game.interpret(line.format(c=colour), s.state, None, lang)
        assert type(command).__name__ == action, (line, command)
