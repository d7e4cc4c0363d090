"""Why voice cannot start, or stopped, is said with its real reason: a package to install
(PyAudio, SpeechRecognition) is named, not "plug in a microphone"; a microphone that will
not open or stops says so. One plain line in the player's language, from the play loop,
the reading tools and both enrolments; play goes on with the keys."""

from __future__ import annotations

import sys

import pytest
from failing_mic import FailingMicrophone, silent_wav

from companion.cli import main
from companion.games.hanamikoji import Hanamikoji
from companion.inputs.hub import InputHub
from companion.inputs.reading_voice import attach_reading_voice, yes_no
from companion.inputs.voice import attach_voice
from companion.narrate.catalogue import Catalogue
from companion.narrate.message import Message
from companion.session import Session
from companion.voice import listen as listen_module
from companion.voice.reasons import reason

pytest.importorskip("speech_recognition")

LANGUAGES = ("fr", "en", "es", "uk")
MICROPHONE = ("microphone_not_opened", "needs_speech_recognition", "needs_pyaudio",
              "microphone_stopped")
PACKAGES = ("needs_speech_recognition", "needs_pyaudio")


def render(lang: str, message: Message) -> str:
    return Catalogue(lang).render(message)


def voice_off(lang: str, key: str) -> str:
    return render(lang, Message("voice_unavailable", "voice_off_why", {"reason": reason(key)}))


def no_microphone(lang: str) -> str:
    """The one sentence said before, whatever the cause."""
    return render(lang, Message("voice_unavailable", "voice_unavailable",
                                {"reason": Message("", "no_microphone")}))


@pytest.fixture
def cause(tmp_path, monkeypatch):
    """Make voice fail to start for the reason `key`: a package made unimportable (as when
    it is not installed), or a microphone that refuses to open or fails at once."""

    def make(key: str) -> None:
        if key == "needs_speech_recognition":
            monkeypatch.setitem(sys.modules, "speech_recognition", None)
        elif key == "needs_pyaudio":
            monkeypatch.setitem(sys.modules, "pyaudio", None)
        else:
            path = silent_wav(tmp_path / "room.wav", 1.0)
            room = FailingMicrophone(
                path, "open" if key == "microphone_not_opened" else "read")
            monkeypatch.setattr(listen_module, "open_microphone",
                                lambda device_index=None: (
                                    listen_module.speech_recognition_module(), room))

    return make


def _one_line(text: str, lang: str, key: str) -> None:
    assert "\n" not in text and "{" not in text and "Errno" not in text
    assert text == voice_off(lang, key)
    if key in PACKAGES:  # the package to install is named, no microphone is blamed
        assert text != no_microphone(lang) and "pip install" in text


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("key", MICROPHONE)
def test_play_says_why_voice_is_off_and_goes_on(tmp_path, capsys, cause, key, lang):
    cause(key)
    script = tmp_path / "lines.txt"
    script.write_text("secret\n", "utf-8")
    code = main(["play", "--players", "Ana", "Ben", "--script", str(script), "--no-speech",
                 "--db", str(tmp_path / "g.sqlite3"), "--lang", lang, "--voice"])
    assert code == 0
    lines = capsys.readouterr().out.splitlines()
    _one_line(lines[0], lang, key)
    assert sum(voice_off(lang, key) in line for line in lines) == 1
    assert no_microphone(lang) not in lines
    session = Session(Hanamikoji(), {"players": ["Ana", "Ben"], "rules": "iello", "lang": lang})
    session.start()
    played = render(lang, session.handle("secret")[0])
    assert played in lines  # the script's move was played after it


@pytest.mark.parametrize("mode", ["push", "always"])
@pytest.mark.parametrize("key", MICROPHONE)
def test_attach_voice_in_either_mode_says_the_reason(cause, key, mode):
    cause(key)
    said: list[Message] = []
    session = Session(Hanamikoji(), {"players": ["Ana", "Ben"], "rules": "iello", "lang": "en"})
    session.start()
    assert attach_voice(InputHub(), session, mode, said.extend) is None
    assert [m.event for m in said] == ["voice_unavailable"]
    assert said[0].params["reason"] == reason(key)
    assert said[0].data["reason"].endswith("; continuing without voice.")  # English, for logs
    _one_line(render("en", said[0]), "en", key)
    assert session.handle("secret")[0].event == "played"


@pytest.mark.parametrize("mode", ["push", "always"])
@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("key", MICROPHONE)
def test_a_reading_tool_says_why_voice_is_off(cause, key, lang, mode):
    cause(key)
    said: list[Message] = []
    hub = InputHub()
    assert attach_reading_voice(hub, lambda: yes_no(lang), lang, mode, said.extend) is None
    assert len(said) == 1
    _one_line(render(lang, said[0]), lang, key)


@pytest.mark.parametrize("words", [True, False])
@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("key", MICROPHONE)
def test_an_enrolment_says_why_nothing_can_be_recorded(tmp_path, monkeypatch, capsys, cause,
                                                       key, lang, words):
    """No microphone keeps its sentence ("Plug one in"); a missing package is named."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    cause(key)
    args = ["voice-enroll", "--name", "Ana", "--no-speech", "--lang", lang]
    args += ["--words"] if words else ["--count", "3"]
    assert main(args) == 2
    out = capsys.readouterr().out.strip().splitlines()
    table = "voice_words" if words else "voice_profile"
    plug_in = render(lang, Message("voice_enroll", f"{table}.no_microphone"))
    if key == "microphone_not_opened":
        assert out == [plug_in]
    else:
        assert out == [render(lang, Message("voice_enroll", f"{table}.cannot_record",
                                            {"reason": reason(key)}))]
        assert render(lang, reason(key)) in out[0] and out[0] != plug_in
    assert not list((tmp_path / "tactile-companion").rglob("*.wav"))  # nothing recorded


def test_a_word_the_recognizer_cannot_say_turns_voice_off_saying_which(tmp_path, capsys,
                                                                       monkeypatch):
    """A voice word with no pronunciation (here one taken out of the game's lexicon) is said
    in the player's language on the voice-off line, not blamed on the microphone; the
    game goes on with the keys."""
    pytest.importorskip("pocketsphinx")
    from companion.games.hanamikoji.voice import hooks

    partial = {w: p for w, p in hooks.PRONUNCIATIONS.items() if w != "ayane"}
    monkeypatch.setattr(hooks, "PRONUNCIATIONS", partial)
    monkeypatch.setattr(hooks.HanamikojiVoice, "pronunciations", partial)
    room = FailingMicrophone(silent_wav(tmp_path / "room.wav", 1.0), "open", fail_from=99)
    monkeypatch.setattr(listen_module, "open_microphone", lambda device_index=None: (
        listen_module.speech_recognition_module(), room))  # a microphone that works
    script = tmp_path / "lines.txt"
    script.write_text("secret\n", "utf-8")
    code = main(["play", "--players", "Ana", "Ben", "--script", str(script), "--no-speech",
                 "--db", str(tmp_path / "g.sqlite3"), "--lang", "fr", "--voice",
                 "--engine", "sphinx"])
    assert code == 0
    lines = capsys.readouterr().out.splitlines()
    off = ("Commandes vocales désactivées : aucune prononciation n'est connue pour « ayane », "
           "un mot des commandes vocales. Les touches continuent de fonctionner.")
    assert [line for line in lines if line.startswith("Commandes vocales")] == [off]
    assert no_microphone("fr") not in lines


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_decoder_says_which_word_it_cannot_say_in_every_language(lang):
    """pocketsphinx's own decoder, taught a word it has no pronunciation for."""
    from companion.inputs.voice import voice_off as voice_off_line
    from companion.voice.decoders import Decoder, VoiceUnavailable, import_pocketsphinx
    from companion.voice.sphinx import DECODER_OPTIONS

    pytest.importorskip("pocketsphinx")
    decoder = Decoder(import_pocketsphinx(), {**DECODER_OPTIONS, "lm": None})
    with pytest.raises(VoiceUnavailable) as raised:
        decoder.add_words(["zyxwvq"], {})
    assert str(raised.value) == ("no pronunciation is known for 'zyxwvq', a word of the "
                                 "voice commands")
    said = render(lang, voice_off_line(raised.value))
    assert said == render(lang, Message("voice_unavailable", "voice_off_why", {
        "reason": reason("no_grammar_pronunciation", word="zyxwvq")}))
    assert "zyxwvq" in said and "{" not in said and "\n" not in said
    if lang == "fr":
        assert said.startswith("Commandes vocales désactivées : aucune prononciation")
