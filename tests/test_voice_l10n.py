"""The voice edges speak the player's language: `companion listen`'s refusals and notes, and
a microphone that cannot be opened or stops, come from the catalogues (fr, en, es, uk), one
plain line each, never a traceback, never the English text of the error."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from functools import partial
from pathlib import Path

import pytest
from failing_mic import FailingMicrophone, silent_wav

from companion.games.hanamikoji import Hanamikoji
from companion.inputs.reading_voice import Listening
from companion.inputs.voice import handle_recognition
from companion.narrate.catalogue import Catalogue, merged
from companion.narrate.message import Message
from companion.session import Session
from companion.voice.listen import MicrophoneUnavailable
from companion.voice.reasons import reason
from companion.voice.whisper_model import MODEL_FILES

ROOT = Path(__file__).resolve().parents[1]
LANGUAGES = ("fr", "en", "es", "uk")
MICROPHONE = ("microphone_not_opened", "needs_speech_recognition", "needs_pyaudio",
              "microphone_stopped")


def said(lang: str, message: Message) -> str:
    return Catalogue(lang, games=()).render(message)


def english(message: Message) -> str:
    return said("en", message)


def listen(tmp_path: Path, *args: str, locale: str = "C.UTF-8") -> subprocess.CompletedProcess:
    """The real command, in a process of its own whose machine language is `locale` and
    that has no language saved; this worktree's code (PYTHONPATH set here, not inherited)."""
    env = {k: v for k, v in os.environ.items() if k not in ("LC_ALL", "LC_MESSAGES", "LANGUAGE")}
    env.update(PYTHONPATH=str(ROOT), LANG=locale,
               TACTILE_COMPANION_CONFIG=str(tmp_path / "config"))
    return subprocess.run([sys.executable, "-m", "companion", "listen", *args],
                          capture_output=True, text=True, timeout=300, env=env, cwd=tmp_path)


def refusals(tmp_path: Path) -> dict[str, tuple[list[str], Message]]:
    """Three ways `companion listen` refuses, with the reason the catalogue gives."""
    missing = tmp_path / "missing.wav"
    garbage = tmp_path / "notes.wav"
    garbage.write_text("not audio")
    quiet = silent_wav(tmp_path / "quiet.wav")
    return {
        "missing file": (["--file", str(missing)], reason("no_audio_file", path=str(missing))),
        "not a WAV": (["--file", str(garbage)], reason("not_wav", path=str(garbage))),
        "bad context": (["--file", str(quiet), "--context", "lunch"],
                        reason("bad_context", context="'lunch'",
                               known="any, action, reveal, confirm, over")),
    }


@pytest.mark.parametrize("lang", LANGUAGES)
def test_listen_refuses_in_the_language_asked(tmp_path, lang):
    for case, (args, why) in refusals(tmp_path).items():
        done = listen(tmp_path, *args, "--lang", lang)
        assert done.returncode == 2, (case, done.stderr)
        assert done.stdout == ""
        assert "Traceback" not in done.stderr
        assert done.stderr.splitlines() == [f"companion listen: {said(lang, why)}"], case
        if lang != "en":
            assert said(lang, why) != english(why), case
            assert english(why) not in done.stderr, case


@pytest.mark.parametrize(("locale", "lang"), [("fr_FR.UTF-8", "fr"), ("es_ES.UTF-8", "es"),
                                              ("uk_UA.UTF-8", "uk"), ("C.UTF-8", "en")])
def test_listen_without_lang_speaks_the_machines_language(tmp_path, locale, lang):
    """No --lang: English is listened for, as before, but the notes and the answer are in
    the machine's language: Whisper cannot run from an empty folder, so pocketsphinx
    listens (said), hears nothing in silence (said), and `any` names the contexts (said)."""
    done = listen(tmp_path, "--file", str(silent_wav(tmp_path / "quiet.wav")), "--engine",
                  "whisper", "--whisper-model", str(tmp_path), locale=locale)
    assert done.returncode == 1, done.stderr
    assert "Traceback" not in done.stderr
    assert done.stdout == said(lang, Message("", "error.not_understood")) + "\n"
    catalogue = Catalogue(lang, games=())
    fallback = Message("", "voice_listen.fallback", {"reason": reason(
        "not_whisper_model", folder=str(tmp_path), files=", ".join(MODEL_FILES))})
    note = Message("", "voice_listen.any_refused",
                   {"choices": catalogue.join(["action", "reveal", "confirm", "over"], "or_sep")})
    assert done.stderr.splitlines() == [f"companion listen: {said(lang, fallback)}",
                                        f"companion listen: {said(lang, note)}"]
    if lang != "en":
        assert said(lang, note) != english(note)
        assert "nothing recognized" not in done.stderr and "I did not" not in done.stdout


def test_listen_a_saved_language_is_the_one_spoken(tmp_path):
    """The language chosen once on this machine (scripts/play.sh asks it) wins over the
    system's, as in `companion play`."""
    (tmp_path / "config").mkdir()
    (tmp_path / "config" / "config.toml").write_text('[companion]\nlanguage = "uk"\n')
    done = listen(tmp_path, "--file", str(tmp_path / "none.wav"), locale="fr_FR.UTF-8")
    why = reason("no_audio_file", path=str(tmp_path / "none.wav"))
    assert done.stderr.splitlines() == [f"companion listen: {said('uk', why)}"]


@pytest.mark.parametrize("lang", ["fr", "es", "uk"])
def test_listen_in_another_language_without_whisper_says_why_in_it(tmp_path, lang):
    """pocketsphinx is English only: the reason Whisper cannot run and what to do, in the
    language asked."""
    done = listen(tmp_path, "--file", str(silent_wav(tmp_path / "quiet.wav")), "--lang", lang,
                  "--engine", "whisper", "--whisper-model", str(tmp_path))
    why = reason("english_only", reason=reason(
        "not_whisper_model", folder=str(tmp_path), files=", ".join(MODEL_FILES)))
    assert done.returncode == 2
    assert done.stderr.splitlines() == [f"companion listen: {said(lang, why)}"]
    assert said(lang, why) != english(why)


# -- a microphone that cannot be opened or stops ------------------------------------------
@pytest.mark.parametrize("key", MICROPHONE)
def test_each_microphone_reason_is_english_for_logs_and_said_in_every_language(key):
    lost = MicrophoneUnavailable(key, "[Errno -9996] Invalid input device")
    assert str(lost).endswith("; continuing without voice.") and str(lost)[0].isupper()
    assert lost.message == reason(key) and lost.key == key
    for lang in ("fr", "es", "uk"):
        text = said(lang, lost.message)
        assert text and "{" not in text and text != english(lost.message), (lang, key)


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("key", MICROPHONE)
def test_a_microphone_lost_in_play_or_a_tool_is_said_in_the_players_language(key, lang):
    """The play loop (its on_lost path and push-to-talk) and the reading tools say one
    sentence of the catalogue with the exception's reason (it was one fixed "no microphone"
    sentence whatever the cause); the English text stays in the data (--json, logs)."""
    lost = MicrophoneUnavailable(key, "[Errno -9988] Stream closed")
    session = Session(Hanamikoji(), {"players": ["Ana", "Ben"], "rules": "iello",
                                     "lang": lang})
    session.start()
    catalogue = Catalogue(lang)
    play = handle_recognition(session, lost)[0]
    tool = Listening(lang).heard(lost, None, str).said[0]  # type: ignore[arg-type]
    for message in (play, tool):
        assert message.event == "voice_unavailable" and message.data["reason"] == str(lost)
        text = catalogue.render(message)
        assert text == catalogue.render(Message("voice_unavailable", "voice_off_why",
                                                {"reason": reason(key)}))
        assert catalogue.render(reason(key)) in text and "\n" not in text
        assert "Errno" not in text
        if lang != "en":
            assert text != Catalogue("en").render(message)


@pytest.mark.parametrize(("on", "key"), [("open", "microphone_not_opened"),
                                         ("read", "microphone_stopped")])
@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("words", [True, False])
def test_a_microphone_lost_while_enrolling_is_said_in_the_language_asked(
        tmp_path, monkeypatch, capsys, lang, on, key, words):
    """It stopped the enrolment with the English text of an unexpected error; now the
    catalogue's sentence, with the reason, and what was recorded is kept."""
    pytest.importorskip("speech_recognition")
    from companion.cli import main
    from companion.voice import listen as listen_module

    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    noise = tmp_path / "room.wav"
    subprocess.run(["sox", "-n", "-r", "16000", "-b", "16", "-c", "1", str(noise), "synth",
                    "2", "pinknoise", "vol", "0.01"], check=True)
    real = listen_module.Recorder
    monkeypatch.setattr(listen_module, "Recorder",
                        partial(real, source=FailingMicrophone(noise, on, fail_from=2)))
    args = ["voice-enroll", "--name", "Ana", "--no-speech", "--lang", lang]
    args += ["--words"] if words else ["--count", "3"]
    assert main(args) == 2
    out = capsys.readouterr().out.strip().splitlines()
    table = "voice_words" if words else "voice_profile"
    expected = said(lang, Message("voice_enroll", f"{table}.lost", {"reason": reason(key)}))
    assert out[-1] == expected
    if lang != "en":
        assert expected != english(Message("voice_enroll", f"{table}.lost",
                                           {"reason": reason(key)}))


def test_every_reason_the_voice_edges_give_is_in_every_language():
    """The keys raised with a reason (explained(...), MicrophoneUnavailable(...)) and the
    notes of `companion listen` exist in the four catalogues."""
    source = "\n".join(p.read_text("utf-8") for p in (ROOT / "companion").rglob("*.py"))
    reasons = set(re.findall(r'\bexplained\(\s*\w+,\s*"(\w+)"', source))
    reasons |= set(re.findall(r'\bMicrophoneUnavailable\(\s*"(\w+)"', source))
    notes = set(re.findall(r'"voice_listen\.(\w+)"', source))
    assert set(MICROPHONE) <= reasons and {"bad_context", "no_audio_file"} <= reasons
    assert notes == {"fallback", "any_refused"}
    for lang in LANGUAGES:
        messages = merged(lang, ())["messages"]
        assert reasons <= set(messages["voice_why"]), (lang, reasons - set(messages["voice_why"]))
        assert notes <= set(messages["voice_listen"]), lang
