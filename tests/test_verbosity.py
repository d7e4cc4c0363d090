"""Brief, normal and detailed announcements; keypad voice keys; earbud options."""

from __future__ import annotations

import io

from companion.cli import _earbuds, main
from companion.games.hanamikoji import Hanamikoji
from companion.games.hanamikoji.interpret import interpret
from companion.games.hanamikoji.rules import new_game
from companion.games.hanamikoji.simulate import table_script
from companion.narrate.catalogue import Catalogue
from companion.output import Output
from companion.session import Session
from companion.shared_commands import Adjust, Setting

CONFIG = {"players": ["Ana", "Ben"], "rules": "iello", "lang": "en"}


def words_of_game(lang: str, verbosity: str) -> int:
    stream = io.StringIO()
    out = Output(Catalogue(lang, verbosity), stream=stream)
    session = Session(Hanamikoji(), dict(CONFIG, lang=lang))
    out.emit(session.start())
    for line in table_script(4, lang=lang):
        out.emit(session.handle(line))
    return len(stream.getvalue().split())


def test_brief_says_less_and_detailed_says_more_in_every_language():
    for lang in ("en", "fr", "es", "uk"):
        brief, normal, detailed = (words_of_game(lang, v) for v in
                                   ("brief", "normal", "detailed"))
        # normal says what the table heard before short (issue 28), brief still less
        assert brief < 0.9 * normal < normal < detailed, lang


def test_brief_keeps_item_colour_and_points():
    out = io.StringIO()
    output = Output(Catalogue("en", "brief"), stream=out)
    session = Session(Hanamikoji(), dict(CONFIG))
    session.start()
    output.emit(session.handle("gift flute fan tea"))
    assert out.getvalue().splitlines()[0] == (
        "Gift from Ana: flute (purple, 2), fan (red, 2) and tea set (green, 4).")


def test_detailed_says_the_sound_cues_in_words():
    out = io.StringIO()
    output = Output(Catalogue("en", "detailed"), stream=out)
    session = Session(Hanamikoji(), dict(CONFIG))
    session.start()
    output.emit(session.handle("banana"))
    assert out.getvalue().startswith("Refused. I did not understand banana.")


def test_verbosity_can_change_during_play(tmp_path, capsys):
    script = tmp_path / "s.txt"
    script.write_text("brief\nsecret\nnormal\ngift flute fan tea\n", "utf-8")
    main(["play", "--no-speech", "--lang", "en", "--players", "Ana", "Ben",
          "--db", str(tmp_path / "g.db"), "--script", str(script)])
    lines = capsys.readouterr().out.splitlines()
    assert "Ana: Secret." in lines
    assert "Ben offers a gift: flute (purple, 2), fan (red, 2) and tea set (green, 4)." in lines


def test_doubled_keypad_symbols_change_the_voice():
    state = new_game()
    assert interpret("**", state) == Adjust(Setting.FASTER)
    assert interpret("//", state) == Adjust(Setting.SLOWER)
    assert interpret("++", state) == Adjust(Setting.LOUDER)
    assert interpret("--", state) == Adjust(Setting.QUIETER)


def test_earbud_options():
    assert _earbuds(["1=plughw:1", "2=plughw:CARD=Device"]) == {
        "player:0": "plughw:1", "player:1": "plughw:CARD=Device"}
    assert _earbuds(["plughw:1"]) is None
    assert _earbuds(["x=plughw:1"]) is None


def test_the_board_names_empty_geishas_together():
    session = Session(Hanamikoji(), dict(CONFIG))
    session.start()
    session.handle("gift flute fan tea")
    session.handle("take fan")
    text = Catalogue("en").render(session.handle("board")[0])
    assert text.startswith("Ayane, flute (purple, 2): Ana 1, Ben 0, marker in the middle.")
    assert text.endswith(
        "No cards yet, markers in the middle: Tomoyo, Yoko, Chiharu and Ruri.")


def test_voice_settings_words_in_every_language():
    state = new_game()
    for line, setting in (("faster", Setting.FASTER), ("plus vite", Setting.FASTER),
                          ("más rápido", Setting.FASTER), ("швидше", Setting.FASTER),
                          ("más bajo", Setting.QUIETER), ("тихіше", Setting.QUIETER),
                          ("breve", Setting.BRIEF), ("докладно", Setting.DETAILED)):
        assert interpret(line, state) == Adjust(setting), line
