"""`companion voice-enroll` (companion/voice/enroll.py) refusing before anything is
recorded: a game it does not know, a game with no commands to read, no microphone, nothing
to learn from; each said in the player's language (--lang, else the system's) from the
catalogue. The recording and adapting paths are in tests/test_voice_adapt.py."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest

from companion.cli import main
from companion.narrate.catalogue import LANGUAGES, Catalogue, merged
from companion.voice.adapt import MIN_UTTERANCES
from companion.voice.enrol_speech import speak, spoken
from companion.voice.enroll import Enrollment, said
from companion.voice.profiles import Profile
from companion.voice.reasons import reason

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture
def data(tmp_path, monkeypatch):
    """An empty user data folder, no language chosen on this machine, and a C locale
    (English) unless a test sets one."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    monkeypatch.setenv("TACTILE_COMPANION_CONFIG", str(tmp_path / "config"))
    monkeypatch.setenv("LANG", "C.UTF-8")
    for var in ("LC_ALL", "LC_MESSAGES", "LANGUAGE"):
        monkeypatch.delenv(var, raising=False)
    return tmp_path


def test_an_unknown_game_is_one_plain_line(data, capsys):
    assert main(["voice-enroll", "--name", "Ana", "--game", "chess", "--no-speech"]) == 2
    captured = capsys.readouterr()
    err = captured.err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("companion voice-enroll: no game called chess")
    assert captured.out == ""


UNKNOWN_GAME = {"fr": "companion voice-enroll: aucun jeu ne s'appelle chess ; installés : ",
                "uk": "companion voice-enroll: немає гри chess; встановлено: ",
                "es": "companion voice-enroll: ningún juego se llama chess; instalados: "}


@pytest.mark.parametrize("lang", sorted(UNKNOWN_GAME))
def test_an_unknown_game_is_said_in_the_language_asked(data, capsys, lang):
    assert main(["voice-enroll", "--name", "Ana", "--game", "chess", "--no-speech",
                 "--lang", lang]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith(UNKNOWN_GAME[lang]), err
    assert "hanamikoji" in err[0]


def test_a_game_with_no_commands_to_read_says_so_before_the_microphone(data, capsys):
    """Momiji's voice has no enrolment prompts (its players use `--words`): refused at once,
    nothing recorded, no profile said made."""
    assert main(["voice-enroll", "--name", "Ana", "--game", "momiji", "--count", "3",
                 "--no-speech"]) == 2
    lines = capsys.readouterr().out.strip().splitlines()
    assert lines[-1] == ("This game has no commands to read for a voice profile; choose "
                         "another with --game.")
    assert not any(line.startswith(("Voice profile for", "The voice profile", "Learning"))
                   for line in lines)
    assert not list(data.rglob("*.wav"))


NO_COMMANDS = {
    "fr": "Ce jeu n'a pas de commandes à lire pour un profil vocal ; choisissez-en un autre "
          "avec --game.",
    "uk": "У цієї гри немає команд для читання для голосового профілю; виберіть іншу через "
          "--game."}


@pytest.mark.parametrize("lang", sorted(NO_COMMANDS))
def test_a_game_with_no_commands_is_said_in_the_systems_language(data, monkeypatch, capsys,
                                                                  lang):
    """No --lang: the system's language, as the --words enrolment and play choose it."""
    monkeypatch.setenv("LANG", {"fr": "fr_FR.UTF-8", "uk": "uk_UA.UTF-8"}[lang])
    assert main(["voice-enroll", "--name", "Ana", "--game", "momiji", "--count", "3",
                 "--no-speech"]) == 2
    assert capsys.readouterr().out.strip().splitlines() == [NO_COMMANDS[lang]]


NOTHING_TO_LEARN = {
    "en": f"The voice profile was not made: at least {MIN_UTTERANCES} recorded commands are "
          "needed, 0 given.",
    "fr": f"Le profil vocal n'a pas été fait : il faut au moins {MIN_UTTERANCES} commandes "
          "enregistrées, il y en a 0.",
    "uk": f"Голосовий профіль не створено: потрібно щонайменше {MIN_UTTERANCES} записаних "
          "команд, є 0."}


@pytest.mark.parametrize("lang", sorted(NOTHING_TO_LEARN))
def test_no_model_without_recordings_is_said_in_the_language_asked(data, capsys, lang):
    assert main(["voice-enroll", "--name", "Ana", "--count", "0", "--no-speech",
                 "--lang", lang]) == 2
    assert capsys.readouterr().out.strip().splitlines() == [NOTHING_TO_LEARN[lang]]
    assert not (data / "tactile-companion" / "voices" / "ana" / "model").exists()


def test_a_missing_folder_is_said_in_the_language_asked(data, capsys):
    missing = data / "none"
    assert main(["voice-enroll", "--name", "Ana", "--from-dir", str(missing), "--no-speech",
                 "--lang", "uk"]) == 2
    assert capsys.readouterr().out.strip().splitlines() == [
        f"Голосовий профіль не створено: немає теки {missing}."]


def _no_microphone() -> bool:
    """No input device here (as on CI); PyAudio itself says so."""
    pyaudio = pytest.importorskip("pyaudio")
    audio = pyaudio.PyAudio()
    try:
        audio.get_default_input_device_info()
    except OSError:
        return True
    finally:
        audio.terminate()
    return False


@pytest.mark.skipif(not _no_microphone(), reason="a microphone is plugged in here")
def test_no_microphone_is_one_line_in_the_language_asked(data, capsys):
    """SpeechRecognition hides PyAudio's refusal (it returns a microphone without a
    stream): that is no microphone, said, not a crash."""
    pytest.importorskip("speech_recognition")
    assert main(["voice-enroll", "--name", "Ana", "--count", "3", "--no-speech",
                 "--lang", "fr"]) == 2
    assert capsys.readouterr().out.strip().splitlines() == [
        "Aucun micro n'a pu être ouvert, rien ne peut être enregistré. Branchez-en un et "
        "relancez, ou donnez des enregistrements faits ailleurs avec --from-dir."]
    assert not list(data.rglob("*.wav"))


def test_the_prompts_are_the_players_language_around_the_english_command(tmp_path):
    """What is printed is one line in the player's language; the command inside stays
    English (the model's) and the English voice says it."""
    ukrainian = Catalogue("uk", games=())
    lines: list[str] = []
    answers = iter([b"\1\0" * 16000, None, None])
    profile = Profile.named("Ana", tmp_path)
    Enrollment(profile, lambda m: lines.append(ukrainian.render(m)),
               lambda: next(answers)).run(["score", "board"])
    assert lines == ["1 з 2. Скажіть: score.", "2 з 2. Скажіть: board.",
                     "Я нічого не почув. Ще раз, скажіть: board.", "Пропущено."]
    french = Catalogue("fr", games=())
    assert spoken(french, said("say", n=3, total=40, command="gift flute, fan and tea")) == [
        ("3 sur 40. Dites : ", "fr"), ("gift flute, fan and tea", "en")]
    english = Catalogue("en", games=())
    assert spoken(english, said("again", command="score")) == [
        ("I heard nothing. Again, say: score.", "en")]
    assert spoken(french, said("skipped")) == [("Commande passée.", "fr")]


@pytest.mark.skipif(shutil.which("espeak-ng") is None, reason="espeak-ng is not installed")
def test_the_french_voice_and_the_english_one_both_say_their_part(tmp_path):
    """Real espeak-ng into WAV files: the sentence's French part, then the command in
    English, neither dropping the other."""
    from companion.speech import open_speaker

    speaker, notice = open_speaker("fr", out_dir=tmp_path)
    assert notice is None
    try:
        speak(speaker, Catalogue("fr", games=()),
              said("say", n=1, total=40, command="gift flute, fan and tea"))
    finally:
        speaker.close()
    index = [json.loads(line) for line in (tmp_path / "index.jsonl").read_text().splitlines()]
    assert [(u["text"], u["lang"]) for u in index] == [
        ("1 sur 40. Dites : ", "fr"), ("gift flute, fan and tea", "en")]
    assert all((tmp_path / u["file"]).stat().st_size > 1000 for u in index)


def test_counts_take_the_languages_plural_forms():
    uk = Catalogue("uk", games=())
    ready = {n: uk.render(said("ready", name="Ana", aligned=n - 1, n=n)) for n in (21, 22, 25)}
    assert "20 з 21 команди." in ready[21]
    assert "21 з 22 команд." in ready[22] and "24 з 25 команд." in ready[25]
    assert uk.render(said("kept", n=22, name="Ana")).startswith("22 записи збережено")
    assert uk.render(said("kept", n=25, name="Ana")).startswith("25 записів збережено")
    fr = Catalogue("fr", games=())
    assert fr.render(said("ready", name="Ana", aligned=38, n=40)).startswith(
        "Le profil vocal d'Ana est prêt : 38 sur 40 commandes retenues.")


def test_every_sentence_enroll_says_is_in_every_language():
    """The keys voice-enroll and its errors use (said(...), explained(..., key)) exist in
    the four catalogues."""
    voice = ROOT / "companion" / "voice"
    source = "\n".join((voice / name).read_text("utf-8")
                       for name in ("enroll.py", "adapt.py", "profiles.py", "cli.py"))
    sentences = set(re.findall(r'\bsaid\(\s*"(\w+)"', source))
    reasons = set(re.findall(r'\bexplained\(\s*\w+,\s*"(\w+)"', source))
    assert {"say", "again", "skipped", "ready", "not_made", "kept"} <= sentences
    assert {"too_few", "tools_missing", "no_game", "no_folder"} <= reasons
    for lang in LANGUAGES:
        messages = merged(lang, ())["messages"]
        assert sentences <= set(messages["voice_profile"]), (lang, sentences)
        assert reasons <= set(messages["voice_why"]), (lang, reasons)


@pytest.mark.parametrize("lang", ["fr", "uk"])
def test_the_words_enrolment_says_a_bad_name_in_the_language_asked(data, capsys, lang):
    """`--words` said its refusals in English whatever the player's language: now the same
    catalogue reason as the profile enrolment's, in the language asked."""
    assert main(["voice-enroll", "--words", "--name", "..", "--no-speech",
                 "--lang", lang]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    catalogue = Catalogue(lang, games=())
    expected = catalogue.render(reason("bad_name", name=repr("..")))
    assert err == [f"companion voice-enroll: {expected}"]
    assert expected != Catalogue("en", games=()).render(reason("bad_name", name=repr("..")))


@pytest.mark.parametrize("lang", ["fr", "es"])
def test_the_words_enrolment_says_an_unknown_game_in_the_language_asked(data, capsys, lang):
    assert main(["voice-enroll", "--words", "--name", "Ana", "--game", "chess",
                 "--no-speech", "--lang", lang]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith(UNKNOWN_GAME[lang]), err


@pytest.mark.parametrize("words", [True, False])
def test_an_enrolment_speaks_the_language_chosen_on_this_machine(data, capsys, words):
    """Without --lang, the language the player chose once (as `companion play` and
    `companion listen` take it), not the system's: it was English on an English system."""
    from companion.language import save_language

    save_language("fr")
    assert main(["voice-enroll", *(["--words"] if words else []), "--name", "Ana",
                 "--game", "chess", "--no-speech"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith(UNKNOWN_GAME["fr"]), err


def test_the_words_enrolment_says_a_missing_folder_in_the_language_asked(data, capsys):
    missing = data / "none"
    assert main(["voice-enroll", "--words", "--name", "Ana", "--from-dir", str(missing),
                 "--no-speech", "--lang", "uk"]) == 2
    assert capsys.readouterr().out.strip().splitlines()[-1] == (
        f"Голосовий профіль не створено: немає теки {missing}.")
