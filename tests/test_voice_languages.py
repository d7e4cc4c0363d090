"""Spanish and Ukrainian voice commands for Hanamikoji: the lexicons (words → canonical
commands, with the forms words take in a sentence), the mapper on Cyrillic transcripts, and
the multilingual Whisper model on espeak-ng speech made at test time."""

from __future__ import annotations

from pathlib import Path

import pytest
from espeak import ESPEAK, speak
from hypothesis import given, settings
from hypothesis import strategies as st
from reading import read_as

from companion.games.hanamikoji.data import GEISHAS, Item, Token
from companion.games.hanamikoji.voice.context import Context
from companion.games.hanamikoji.voice.grammar import phrase_list
from companion.games.hanamikoji.voice.lexicon import fold, lexicon
from companion.games.hanamikoji.voice.words import normalize
from companion.narrate.catalogue import Catalogue
from companion.voice.mapper import phrases_graph, words_of
from companion.voice.whisper_model import engine_available, tiny_en
from stickers.colours import COLOUR_NAMES, NAME_LANGS, SYMBOLS, Colour

GIFT = Context.answer_gift([Item.FAN, Item.TEA, Item.FLUTE])
PAIRS = Context.answer_competition([Item.FAN, Item.FLUTE], [Item.TEA, Item.FLOWER])


@pytest.mark.parametrize(("words", "context", "expected"), [
    ("Regalo: flauta, abanico y té.", None, "gift flute fan tea"),
    ("regalo morado rojo verde", None, "gift flute fan tea"),
    ("regalo uvas corazón trébol", None, "gift flute fan tea"),
    ("regalo Ayane, Iroha y Anju", None, "gift flute fan tea"),
    ("regalo uno dos seis", None, "gift flute fan tea"),
    ("regalo 1 2 6", None, "gift flute fan tea"),  # digits as a recognizer writes them
    ("ficha tres papel sombrilla juego de té", None, "gift scroll umbrella tea"),
    ("competición rojo azul, verde rosa", None, "competition fan umbrella / tea flower"),
    ("competición abanico y gota, círculo y flor", None,
     "competition fan umbrella / shamisen flower"),
    ("secreto", Context.action(), "secret"),
    ("ficha uno", None, "secret"),
    ("uno", None, None),  # a bare number is never an action
    ("renuncia", None, "discard"),
    ("tomo la primera pareja", None, "take 1"),
    ("la segunda pareja", PAIRS, "take 2"),
    ("me quedo con el abanico", GIFT, "take fan"),
    ("la roja", GIFT, "take fan"),  # the colour agrees with "la carta"
    ("cojo la morada", GIFT, "take flute"),
    ("el verde y la rosa", PAIRS, "take 2"),
    ("tomo la flor", GIFT, None),  # not offered
    ("revelo el pergamino", Context.reveal(), "reveal scroll"),
    ("mi secreto es la luna", None, "reveal scroll"),
    ("sí", Context.confirm(), "yes"),
    ("vale", Context.confirm(), "yes"),
    ("no", Context.confirm(), "no"),
    ("sí", Context.action(), None),
    ("puntuación", None, "score"),
    ("el tablero", None, "board"),
    ("deshacer", None, "undo"),
    ("más rápido", None, "faster"),
    ("pista", None, "hint"),
    ("regalo flauta abanico", None, None),  # a gift is three cards
    ("qué hora es", None, None),
    ("pásame las patatas por favor", None, None),
])
def test_spanish(words: str, context: Context | None, expected: str | None) -> None:
    assert normalize(words, "es", context) == expected


@pytest.mark.parametrize(("words", "context", "expected"), [
    ("Подарунок: флейта, віяло і чай.", None, "gift flute fan tea"),
    ("подарунок фіолетовий червоний зелений", None, "gift flute fan tea"),
    ("подарунок гроно серце конюшина", None, "gift flute fan tea"),
    ("подарунок Аяне, Іроха та Анджу", None, "gift flute fan tea"),
    ("подарунок один два шість", None, "gift flute fan tea"),
    ("подарунок п'ять один два", None, "gift flute fan shamisen"),  # the apostrophe
    ("подарунок п’ять 1 2", None, "gift flute fan shamisen"),  # typographic, and digits
    ("Подарунок: Йоко, Чіхару і Рурі", None, "gift umbrella shamisen flower"),  # й kept
    ("боротьба червоний синій, зелений рожевий", None,
     "competition fan umbrella / tea flower"),
    ("боротьба віяло і парасолька, сувій і квітка", None,
     "competition fan umbrella / scroll flower"),
    ("таємниця", Context.action(), "secret"),
    ("жетон один", None, "secret"),
    ("один", None, None),
    ("мотлох", None, "discard"),
    # cases after a verb: the accusative of feminine nouns, colours agreeing with "карту"
    ("беру флейту", GIFT, "take flute"),
    ("я беру червону", GIFT, "take fan"),
    ("беру зелену карту", GIFT, "take tea"),
    ("забираю віяло", GIFT, "take fan"),
    ("беру парасольку", GIFT, None),  # not offered
    ("беру першу пару", PAIRS, "take 1"),
    ("другу пару", PAIRS, "take 2"),
    ("пара два", PAIRS, "take 2"),
    ("віяло і флейту", PAIRS, "take 1"),
    ("відкриваю сувій", Context.reveal(), "reveal scroll"),
    ("відкриваю таємницю: квітку", None, "reveal flower"),
    ("моя таємниця — краплю", None, "reveal umbrella"),
    ("місяць", Context.reveal(), "reveal scroll"),
    ("так", Context.confirm(), "yes"),
    ("ні", Context.confirm(), "no"),
    ("так", Context.action(), None),
    ("рахунок", None, "score"),
    ("повтори", None, "repeat"),
    ("скасувати", None, "undo"),
    ("говори швидше", None, "faster"),
    ("підказка", None, "hint"),
    ("подарунок флейта віяло", None, None),
    ("котра година", None, None),
    ("передай мені чаю будь ласка", None, None),
])
def test_ukrainian(words: str, context: Context | None, expected: str | None) -> None:
    assert normalize(words, "uk", context) == expected


def test_cyrillic_letters_are_not_folded_into_others() -> None:
    # й and ї are letters of their own, not и and і with an accent; Latin accents go.
    assert fold("Йоко їде, Thé, ÉVENTAIL") == "йоко їде, the, eventail"
    assert words_of("Мій п'ять, їжак", english=False) == ["мій", "п", "ять", "їжак"]
    assert normalize("мии", "uk", Context.confirm()) is None


def test_names_come_from_the_catalogues_and_sticker_tables() -> None:
    for lang in ("es", "uk"):
        words = Catalogue(lang, games=("hanamikoji",))
        lex = lexicon(lang)
        for geisha in GEISHAS:
            item = geisha.item
            said = {words.word("items", item.word).lower(),
                    words.word("geishas", geisha.name.lower()).lower(),
                    words.word("colours", geisha.colour.value).lower()}
            assert all(lex.cards[w] is item for w in said), (lang, said)
        for token in Token:
            name = words.word("tokens", token.word).split(" (")[0].lower()
            assert lex.tokens[name] is token


@pytest.mark.parametrize("lang", ["es", "uk"])
def test_sticker_tables_say_what_the_catalogues_say(lang: str) -> None:
    words = Catalogue(lang)
    index = NAME_LANGS.index(lang)
    for colour in Colour:
        assert COLOUR_NAMES[colour][index] == words.word("colours", colour.value)
        assert SYMBOLS[colour][index] == words.word("messages", f"web.symbols.{colour.value}")


def mapped(transcript: str, ctx: Context, lang: str) -> str | None:
    command, confidence = read_as(transcript, ctx, lang)
    return command if confidence >= 0.4 else None


@pytest.mark.parametrize(("transcript", "ctx", "lang", "expected"), [
    (" renaloflauta, avanico, y te...", Context.action(), "es", None),  # too far: refused
    (" rellalo, flauta, avanico, y te...", Context.action(), "es", "gift flute fan tea"),
    (" la primer pareja,", PAIRS, "es", "take 1"),
    # "la" written as the article "una" (Pico es-ES at 10 dB, tuning), "une" in French alike
    (" una, primera, pareja,", PAIRS, "es", "take 1"),
    (" Une deuxième paire.", PAIRS, "fr", "take 2"),
    (" Regalo 3, 1, 7.", Context.action(), "es", "gift flute scroll flower"),
    (" Беру флейту.", GIFT, "uk", "take flute"),
    (" Квідка.", Context.reveal(), "uk", "reveal flower"),
    # The Secret named beside the card it was (words.py reads it as the reveal): the
    # reading held no Secret's word in the reveal context, so these were refused. Read so
    # by the free beam's reading (French, Spanish); Ukrainian's limited beam neither
    # writes nor reads these read-only words (whisper.recognize_phrases).
    (" mi secreto es ratino de uvas.", Context.reveal(), "es", "reveal flute"),
    (" Mon secret est l'éventail.", Context.reveal(), "fr", "reveal fan"),
    (" Відкриваю таємницю: квітку.", Context.reveal(), "uk", "reveal flower"),
    # The card called a card ("la carte verte" was read already).
    (" Tomo la carta verde.", GIFT, "es", "take tea"),
    (" Беру зелену карту.", GIFT, "uk", "take tea"),
    (" Подарунок: п’ять, один і два.", Context.action(), "uk", "gift flute fan shamisen"),
    (" Котири, хандіха.", Context.action(), "uk", None),
])
def test_base_transcripts_map_onto_the_commands_valid_now(
        transcript: str, ctx: Context, lang: str, expected: str | None) -> None:
    """Transcripts base really wrote for espeak-ng speech (docs/voice.md, Other languages)."""
    assert mapped(transcript, ctx, lang) == expected


READING_CONTEXTS = (Context.action(), Context.reveal(), GIFT, PAIRS, Context.confirm())


@pytest.mark.parametrize("lang", ["fr", "es", "uk"])
def test_words_only_the_reading_needs_are_neither_prompted_nor_spelled(lang: str) -> None:
    """The Secret's words at the reveal, "carta": the reading offers them, but no prompt
    holds them and the recognizers held to their words are not given them (Ukrainian's
    limited beam, given them, wrote "рожевий" as "карожевий" and lost two competitions
    held out)."""
    from companion.games.hanamikoji.voice.grammar import prompt_words, read_only_words

    for ctx in READING_CONTEXTS:
        only = read_only_words(ctx, lang)
        assert only <= set(phrase_list(ctx, lang))
        assert not only & set(prompt_words(ctx, lang))
    secret = {w for w, t in lexicon(lang).tokens.items() if t is Token.SECRET}
    assert secret <= read_only_words(Context.reveal(), lang)
    assert not read_only_words(Context.action(), lang) & secret


@pytest.mark.parametrize("ctx", READING_CONTEXTS, ids=lambda c: c.kind)
@pytest.mark.parametrize("lang", ["fr", "es", "uk"])
def test_what_words_py_reads_in_one_or_two_words_the_voice_reading_reads_alike(
        lang: str, ctx: Context) -> None:
    """Every sequence of one or two of the game's words (cards, tokens, numbers, takes,
    reveals, ordinals, pairs, the fillers offered) that words.py reads as a command in a
    context, written so by Whisper, is read as that command by the voice reading with a
    whole fit. It found "secreto amarillo" at the reveal and "carta verde" (the reading
    lacked the words). Left as measured: a token word alone outside an action ("Acción.",
    how Whisper writes "acciones"), which words.py takes as the actions question and the
    reading only near it; offered there, babble ("Дея, я, я…") was taken for it."""
    import itertools

    from companion.games.hanamikoji.voice.words import ACTION_ALONE

    lex = lexicon(lang)
    offered = set(phrase_list(ctx, lang))
    pool = sorted(set(lex.cards) | set(lex.tokens) | set(lex.token_words) | set(lex.numbers)
                  | set(lex.take) | set(lex.reveal) | set(lex.ordinals) | set(lex.pair)
                  | set(lex.yes) | set(lex.no) | (set(lex.fillers) & offered))
    missed = []
    for words in itertools.chain(((w,) for w in pool), itertools.product(pool, repeat=2)):
        text = " ".join(words)
        truth = normalize(text, lang, ctx)
        if truth is None or (truth == "actions" and ctx.kind != "action"
                             and any(fold(w) in ACTION_ALONE for w in words)):
            continue
        command, confidence = read_as(f" {text}.", ctx, lang)
        if command != truth or confidence < 0.9:
            missed.append((text, truth, command, round(confidence, 2)))
    assert not missed, missed[:5]


@pytest.mark.parametrize("lang", ["fr", "es", "uk"])
@settings(max_examples=150, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_every_phrasing_the_voice_benchmark_says_is_read_when_written_exactly(
        lang: str, seed: int) -> None:
    """What the voice benchmark's voices say (benchmarks/voice_bench.py's phrasings, the
    truth being what words.py reads), written by Whisper word for word, is read as that
    command with a whole fit. The reading's words lacked "secreto" at the reveal, so a
    clean " Mi secreto es amarillo." was refused (0.39)."""
    import random
    import sys

    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))
    import voice_bench

    case = voice_bench.make_case_in(random.Random(seed), lang)
    if case.truth is None:
        return  # table talk: refusing it is another test's concern
    written = f" {case.spoken[:1].upper()}{case.spoken[1:]}."
    command, confidence = read_as(written, case.context, lang)
    assert (command, confidence >= 0.9) == (case.truth, True), (case.spoken, confidence)


# What players say around a command (docs/voice.md, "Phrasings a player says around a
# command"): typed, words.py reads them; written so by Whisper, the voice reading too.
@pytest.mark.parametrize(("said", "ctx", "lang", "expected"), [
    ("conseil", Context.action(), "fr", "hint"),  # the hint had no French nor
    ("un conseil", GIFT, "fr", "hint"),            # Spanish word in the voice lexicon
    ("un indice", Context.reveal(), "fr", "hint"),
    ("consejo", Context.action(), "es", "hint"),
    ("una pista", GIFT, "es", "hint"),
    # with "give me": in an action, "donne" was the gift's "don" (refused); "dame una
    # pista" read at 0.32; English and Ukrainian read nothing
    ("donne-moi un conseil", Context.action(), "fr", "hint"),
    ("donne-moi un indice", PAIRS, "fr", "hint"),
    ("dame una pista", Context.action(), "es", "hint"),
    ("dame un consejo", Context.reveal(), "es", "hint"),
    ("give me a hint", GIFT, "en", "hint"),
    ("дай пораду", Context.action(), "uk", "hint"),
    ("дай підказку", GIFT, "uk", "hint"),
    ("donne-moi une seconde", Context.action(), "fr", None),
    ("give me a minute", GIFT, "en", None),
    ("dame la sal", PAIRS, "es", None),
    # a need said, and help asked as a person asks it (read before at 0.32-0.42, or not)
    ("i need a hint", Context.action(), "en", "hint"),
    ("j'ai besoin d'un conseil", Context.action(), "fr", "hint"),
    ("necesito una pista", GIFT, "es", "hint"),
    ("мені потрібна порада", Context.action(), "uk", "hint"),
    ("help me", GIFT, "en", "help"),
    ("aide-moi", Context.action(), "fr", "help"),
    ("ayúdale", Context.action(), "es", None),  # help him: "ayúdame" is not offered
    ("aide-le", Context.action(), "fr", None),  # help offered to a neighbour: "le" was
    ("aidez-les", Context.reveal(), "fr", None),  # dropped as an article and help read
    ("допоможи", GIFT, "uk", "help"),
    ("j'ai besoin d'une seconde", Context.action(), "fr", None),
    ("i need the tea", GIFT, "en", None),
    ("quel est le score", Context.action(), "fr", "score"),
    ("quelles sont les actions", Context.action(), "fr", "actions"),
    ("est-ce que tu peux répéter, s'il te plaît", GIFT, "fr", "repeat"),
    ("pouvez-vous parler plus fort", Context.action(), "fr", None),  # not a word it knows
    ("parle plus fort", Context.action(), "fr", "louder"),
    ("cuál es la puntuación", Context.action(), "es", "score"),
    ("puedes repetir", PAIRS, "es", "repeat"),
    ("cómo va el marcador", Context.action(), "es", "score"),
    ("habla más alto", Context.action(), "es", "louder"),
    ("який рахунок", Context.action(), "uk", "score"),
    ("можеш повторити", GIFT, "uk", "repeat"),
    ("повтори, будь ласка", Context.action(), "uk", "repeat"),
    ("le thé, s'il vous plaît", GIFT, "fr", "take tea"),
    ("la flauta, por favor", GIFT, "es", "take flute"),
    ("je garde l'éventail", GIFT, "fr", "take fan"),
    ("échange flûte et thé contre rose et lune", Context.action(), "fr",
     "competition flute tea / scroll flower"),
    ("competición flauta y té contra flor y luna", Context.action(), "es",
     "competition flute tea / scroll flower"),
    ("mon secret était l'éventail", Context.reveal(), "fr", "reveal fan"),
    ("mi secreto era la flauta", Context.reveal(), "es", "reveal flute"),
    ("oui oui", Context.confirm(), "fr", "yes"),
    ("так, підтверджую", Context.confirm(), "uk", "yes"),
    ("oui non", Context.confirm(), "fr", None),
    # A question's words around a move: table talk, never the move.
    ("tu peux prendre le thé", GIFT, "fr", None),
    ("quel thé", GIFT, "fr", None),
    ("puedes coger el té", GIFT, "es", None),
    ("можеш взяти флейту", GIFT, "uk", None),
    ("quelle heure est-il", Context.action(), "fr", None),
])
def test_what_players_say_around_a_command_is_read_typed_and_written(
        said: str, ctx: Context, lang: str, expected: str | None) -> None:
    assert normalize(said, lang, ctx) == expected
    if expected is not None and lang != "uk":  # Ukrainian's limited beam writes none of it
        assert read_as(f" {said[:1].upper()}{said[1:]}.", ctx, lang) == (expected, 1.0)


@pytest.mark.parametrize(("transcript", "ctx", "lang", "expected"), [
    # What Whisper base wrote for MBROLA and Pico voices (benchmarks/phrasing_bench.py):
    # all refused before, read now.
    (" Un conseil.", Context.action(), "fr", "hint"),
    (" la conseil", Context.action(), "fr", "hint"),
    (" Tu peux répéter.", Context.action(), "fr", "repeat"),
    (" répète, et s'il te plaît.", Context.action(), "fr", "repeat"),
    (" le score est s'il vous plaît", Context.action(), "fr", "score"),
    (" quels sont les actions", Context.action(), "fr", "actions"),
    (" quelle est le score", Context.action(), "fr", "score"),
    (" Qu'elle est le score ?", Context.action(), "fr", "score"),  # MBROLA fr1, 40 dB
    (" Cuál es la puntuación.", Context.action(), "es", "score"),
    (" Repite por favor.", Context.action(), "es", "repeat"),
    (" Una pista.", Context.action(), "es", "hint"),
    (" ¿Qué acciones?", Context.action(), "es", "actions"),  # read at 0.18 before
    # Babble written so at the reveal (held out, 10 dB): "c'est" is not offered there.
    (" C'est bon, c'est bon, c'est bon.", Context.reveal(), "fr", None),
])
def test_whisper_transcripts_of_phrasings_around_a_command(
        transcript: str, ctx: Context, lang: str, expected: str | None) -> None:
    assert mapped(transcript, ctx, lang) == expected


@pytest.mark.parametrize(("transcript", "command", "stands"), [
    # RHVoice anatol and natalia saying "можеш взяти флейту" to a neighbour, the limited
    # beam writing "взяти флейту" (phrasing_bench.py, tuning, 40 and 20 dB): asked about as
    # a take before
    (" Можешь взяти вплейту.", "take flute", False),
    (" Можеш ліляти флейту.", "take flute", False),
    (" Можешь взяти флейту.", "take flute", False),
    (" Можешь повторити.", "repeat", True),  # a question asked so stands
    (" Беру флейту.", "take flute", True),
    (" Який рахунок?", "score", True),
])
def test_a_move_whose_free_transcript_begins_as_a_question_is_refused(
        transcript: str, command: str, stands: bool) -> None:
    from companion.games.hanamikoji.voice.lexicon import lexicon
    from companion.voice.sphinx import Recognition
    from companion.voice.whisper import asked_first

    heard = Recognition(command, 0.5, command, transcript=transcript)
    assert asked_first(heard, lexicon("uk").asking).command == (command if stands else None)


@pytest.mark.parametrize("lang", ["fr", "es", "uk"])
@settings(max_examples=200, deadline=None)
@given(data=st.data())
def test_a_question_asked_as_a_question_is_that_question_and_a_move_never(
        lang: str, data: st.DataObject) -> None:
    """Any asking phrase before any question word, with courtesy or not, is that question,
    typed and written by Whisper; the same asking phrase before a move's words is refused,
    so "tu peux prendre le thé" said to a neighbour is not taken."""
    lex = lexicon(lang)
    ctx = data.draw(st.sampled_from(READING_CONTEXTS))
    ask = data.draw(st.sampled_from(sorted(lex.asking)))
    query = data.draw(st.sampled_from(sorted(lex.queries)))
    courtesy = data.draw(st.sampled_from(["", *sorted(
        w for w in lex.unprompted.get("", ()) if " " in w and w not in lex.queries)]))
    said = f"{ask} {query} {courtesy}".strip()
    assert normalize(said, lang, ctx) == lex.queries[query]
    if lang != "uk":
        assert read_as(f" {said[:1].upper()}{said[1:]}.", ctx, lang) == (
            lex.queries[query], 1.0), said
    move = data.draw(st.sampled_from(sorted(set(lex.cards) | set(lex.tokens) | set(lex.take)
                                            | set(lex.yes) | set(lex.no))))
    assert normalize(f"{ask} {move}", lang, ctx) is None


# -- the real multilingual model on espeak-ng speech ---------------------------------------
def _base_ready() -> bool:
    from companion.voice.whisper_model import base, engine_available

    return bool(engine_available() and base(join=False) and ESPEAK)


needs_base = pytest.mark.skipif(not _base_ready(), reason="needs the multilingual Whisper "
                                "model joined (scripts/setup.sh) and espeak-ng")


@pytest.fixture(scope="module")
def recognizers():  # type: ignore[no-untyped-def]
    from companion.games.hanamikoji.voice.hooks import HanamikojiRecognizer
    from companion.voice.whisper import WhisperRecognizer

    made: dict[str, HanamikojiRecognizer] = {}

    def get(lang: str) -> HanamikojiRecognizer:
        if lang not in made:
            made[lang] = HanamikojiRecognizer(WhisperRecognizer(lang=lang))
        return made[lang]
    yield get
    for recognizer in made.values():
        recognizer.close()


@needs_base
@pytest.mark.parametrize(("lang", "text", "ctx", "expected"), [
    ("es", "secreto", Context.action(), "secret"),
    ("es", "tomo la flauta", GIFT, "take flute"),
    ("es", "la segunda pareja", PAIRS, "take 2"),
    ("es", "renuncia", Context.action(), "discard"),
    ("uk", "беру флейту", GIFT, "take flute"),
    ("uk", "так", Context.confirm(), "yes"),
    ("uk", "ні", Context.confirm(), "no"),
])
def test_base_recognizes_spanish_and_ukrainian(recognizers, tmp_path: Path,  # type: ignore[no-untyped-def]
                                               lang: str, text: str, ctx: Context,
                                               expected: str) -> None:
    pcm = speak(tmp_path, text, lang)
    assert recognizers(lang).recognize(pcm, ctx).command == expected


@needs_base
@pytest.mark.parametrize(("lang", "text"), [("es", "qué hora es"), ("uk", "котра година")])
def test_base_refuses_chatter(recognizers, tmp_path: Path, lang: str, text: str) -> None:  # type: ignore[no-untyped-def]
    assert recognizers(lang).recognize(speak(tmp_path, text, lang),
                                       Context.action()).command is None


@pytest.mark.parametrize("lang", ["fr", "es", "uk"])
def test_without_whisper_a_player_of_another_language_is_told_english_only(lang: str) -> None:
    """pocketsphinx, the fallback, knows English only: a player speaking Spanish,
    Ukrainian or French must hear that, in their own language, not only that it is less
    accurate."""
    from companion.inputs.voice import fallback_message
    from companion.narrate.catalogue import Catalogue

    english = Catalogue(lang).render(fallback_message("en", "no model"))
    other = Catalogue(lang).render(fallback_message(lang, "no model"))
    examples = _quoted(other)
    assert examples and not _quoted(english)
    assert other != Catalogue("en").render(fallback_message(lang, "no model"))
    # The core speaks for every game: its examples are words every game reads (it once
    # quoted Hanamikoji's "take the fan" to a Momiji player).
    from companion import shared_words

    shared = {*shared_words.YES_WORDS, *shared_words.UNDO_WORDS, *shared_words.NO_WORDS}
    assert set(examples) <= shared, examples


def _quoted(text: str) -> list[str]:
    import re

    return re.findall(r'["“«]\s*([^"”»]+?)\s*["”»]', text)


@needs_base
def test_a_list_of_cards_is_asked_about_in_spanish_too(recognizers, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """Gifts and competitions are always read back and asked about ("Yes or no?"): the
    other languages' phrase path had no cap, and a Spanish competition was applied at once
    (measured: one with "rojo" heard as "rosa", a wrong one, at 0.81)."""
    from companion.voice.policy import Confirm, decide

    heard = recognizers("es").recognize(
        speak(tmp_path, "competición shamisen azul, sombrilla rojo", "es"), Context.action())
    assert heard.command == "competition umbrella shamisen / fan umbrella"
    assert isinstance(decide(heard), Confirm)


@needs_base
def test_without_a_calibrated_confidence_no_move_is_applied_unasked(
        recognizers, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """Spanish and French have the text mapper's share alone, which is sure of what the
    model wrote, not of what was said: with MBROLA's recorded voices Spanish applied 4% of
    wrong moves unasked ("flauta" written "Té": take tea, at 1.0). A move is read back and
    asked about there; questions are still answered at once, and a sure yes is still a yes."""
    from companion.voice.policy import Accept, Confirm, decide

    spanish = recognizers("es")
    heard = spanish.recognize(speak(tmp_path, "secreto", "es"), Context.action())
    assert heard.command == "secret" and isinstance(decide(heard), Confirm)
    query = spanish.recognize(speak(tmp_path, "acciones", "es"), Context.action())
    assert query.command == "actions" and isinstance(decide(query), Accept)
    yes = spanish.recognize(speak(tmp_path, "sí", "es"), Context.confirm())
    assert yes.command == "yes" and isinstance(decide(yes), Accept)


@needs_base
def test_a_yes_in_heavy_noise_is_refused_where_the_confidence_is_not_calibrated(
        recognizers, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """Measured with Pico's and MBROLA's voices, a "non" or "no" said in noise was heard as
    a sure yes, which would apply the move the player had just refused. Below a loudness
    margin (yesno.CHECKED_YES_MARGIN, where the audio itself is checked) a yes is refused,
    and the player hears that the noise is the reason; the same yes in a quieter room is
    taken, and so is one between that margin and sphinx.YES_MIN_MARGIN's 12 dB (refused
    before the audio check was counted on)."""
    import numpy as np

    from companion.speech.audio import samples
    from companion.voice.policy import TOO_NOISY, Accept, Refuse, decide
    from companion.voice.sphinx import YES_MIN_MARGIN, loudness_margin
    from companion.voice.yesno import CHECKED_YES_MARGIN

    said = np.frombuffer(speak(tmp_path, "sí", "es"), dtype=np.int16).astype(float)

    def in_noise(level: float) -> bytes:
        noise = np.random.default_rng(1).normal(0.0, level, said.size)
        return np.clip(said + noise, -32768, 32767).astype(np.int16).tobytes()

    spanish = recognizers("es")
    heard = spanish.recognize(in_noise(300.0), Context.confirm())
    assert heard.command == "yes" and isinstance(decide(heard), Accept)
    between = in_noise(1400.0)
    assert CHECKED_YES_MARGIN < loudness_margin(samples(between)) < YES_MIN_MARGIN
    heard = spanish.recognize(between, Context.confirm())
    assert heard.command == "yes" and isinstance(decide(heard), Accept)
    noisy = spanish.recognize(in_noise(2200.0), Context.confirm())
    assert noisy.command is None and noisy.margin is not None
    assert noisy.margin < CHECKED_YES_MARGIN
    assert decide(noisy) == Refuse(TOO_NOISY, "too_noisy")


@needs_base
def test_ukrainian_uses_the_limited_beam_spanish_and_french_the_free_one(
        recognizers, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """A language with a calibrated confidence (calibration.MODELS: Ukrainian, measured
    better there) has its beam limited to the tokens of the context's phrases, elisions and
    Cyrillic included, with a free transcript beside it; Spanish and French, where the
    limited beam measured no better at the same safety, keep the free beam."""
    import tokenizers

    from companion.voice import calibration
    from companion.voice.whisper import PUNCTUATION
    from companion.voice.whisper_model import base

    assert calibration.fitted("uk") and not calibration.fitted("es")
    tokenizer = tokenizers.Tokenizer.from_file(str(base(join=False) / "tokenizer.json"))
    ctx = Context.action()
    phrases = [p for p in phrase_list(ctx, "uk")]
    ukrainian = recognizers("uk")
    ukrainian.recognize(speak(tmp_path, "котра година, друже", "uk"), ctx)
    evidence = ukrainian.engine.evidence
    assert evidence["hyps"] and evidence["free"]
    for transcript, _ in evidence["hyps"]:
        for token in tokenizer.encode(transcript, add_special_tokens=False).ids:
            piece = tokenizer.decode([token]).strip().lower()
            assert not piece or piece in PUNCTUATION or any(
                piece in p.lower() for p in phrases), (transcript, piece)
    spanish = recognizers("es")
    spanish.recognize(speak(tmp_path, "secreto", "es"), ctx)
    assert "free" not in spanish.engine.evidence


@pytest.mark.parametrize("lang", ["fr", "es", "uk"])
def test_a_game_whose_voice_words_are_english_only_says_so_in_the_players_language(
        lang: str) -> None:
    """A game whose spoken words are English only (hooks without `languages`, as Momiji's
    were) tells a French, Spanish or Ukrainian player so in their own language (before,
    nothing was said, and their speech was simply not understood). Both games' words now
    exist in all four: nothing said."""
    from companion.games.hanamikoji.voice.hooks import VOICE as HANAMIKOJI
    from companion.games.momiji.voice import VOICE as MOMIJI
    from companion.inputs.voice import language_notice

    english_only = object()
    notice = language_notice(english_only, lang)
    assert notice is not None
    said = Catalogue(lang).render(notice)
    assert said and "\n" not in said and said != Catalogue("en").render(notice)
    assert "yes" in said and "undo" in said  # the English words to use
    assert language_notice(english_only, "en") is None
    assert language_notice(HANAMIKOJI, lang) is None
    assert language_notice(MOMIJI, lang) is None


@pytest.mark.parametrize("lang", ["fr", "es", "uk"])
def test_a_grammar_sentence_spelled_for_the_model_reads_back_as_its_words(lang: str) -> None:
    """Rescoring writes the folded grammar words as the language spells them (accents,
    elisions, Cyrillic); whatever words it writes, reading that text back gives the same
    words, or the model would be scoring another sentence than the one it is credited for."""
    from companion.voice.mapper import phrases_spelling
    from companion.voice.rescore import sentence

    phrases = tuple(p for p in phrase_list(Context.any(), lang) if p != "[unk]")
    spelling = phrases_spelling(phrases)
    graph_words = sorted(phrases_graph(phrases).words - {"unk"})

    @settings(max_examples=200, deadline=None)
    @given(st.lists(st.sampled_from(graph_words), min_size=1, max_size=6))
    def reads_back(words: list[str]) -> None:
        assert words_of(sentence(words, spelling), english=False) == words

    assert set(graph_words) <= set(spelling)
    reads_back()


@needs_base
def test_two_workers_of_two_threads_on_two_cores_in_every_language(recognizers) -> None:  # type: ignore[no-untyped-def]
    """Ukrainian's limited beam has a free transcript beside it and sentences to score;
    each worker has two threads where there are two cores: the encoder's pass runs on both
    (80 against 140 ms), once numpy's BLAS no longer spins on one of them (docs/voice.md)."""
    import os

    cores = os.cpu_count() or 1
    for lang in ("uk", "es"):
        engine = recognizers(lang).engine
        assert engine.workers == (2 if cores >= 2 else 1)
        assert engine.threads == (2 if cores in (2, 3) else max(1, min(4, cores // 2)))


@pytest.mark.skipif(not (engine_available() and tiny_en()), reason="needs tiny.en")
def test_english_keeps_one_thread_a_worker_on_two_cores() -> None:
    """tiny.en's encoder is small: two threads a worker made English decodes slower in 4 of
    6 interleaved runs (docs/voice.md); base's gain does not carry over to it."""
    import os

    from companion.voice.whisper import WhisperRecognizer

    cores = os.cpu_count() or 1
    engine = WhisperRecognizer(lang="en")
    try:
        assert engine.threads == max(1, min(4, cores // engine.workers))
    finally:
        engine.close()
