"""Voice profiles: the model adapted to one voice with Sphinxtrain, on real synthesized speech.

The adaptation runs the real programs (sphinx_fe, bw, map_adapt, mk_s2sendump); CI installs
them (scripts/setup.sh). Speech is synthesized with flite when present (voices recorded
from people), else espeak-ng.
"""

from __future__ import annotations

import json
import shutil
import struct
import subprocess
import tempfile
import wave
from pathlib import Path

import pytest

from companion.games.hanamikoji.voice.context import Context
from companion.games.hanamikoji.voice.hooks import card_names, prompts
from companion.games.hanamikoji.voice.lexicon import PRONUNCIATIONS
from companion.games.hanamikoji.voice.words import normalize
from companion.voice.adapt import (
    MIN_UTTERANCES,
    AdaptationUnavailable,
    Utterance,
    adapt,
    base_model,
    find_tools,
    read_sendump,
    write_mixw,
)
from companion.voice.audio import read_wav
from companion.voice.enroll import Enrollment
from companion.voice.profiles import Profile, ProfileError, load_recordings, slug

pytest.importorskip("pocketsphinx")


def _tools_present() -> bool:
    try:
        find_tools()
    except AdaptationUnavailable:
        return False
    return True


needs_tools = pytest.mark.skipif(not _tools_present(),
                                 reason="Sphinxtrain is not installed (apt install sphinxtrain "
                                        "sphinxbase-utils pocketsphinx)")
needs_synth = pytest.mark.skipif(shutil.which("flite") is None and
                                 shutil.which("espeak-ng") is None, reason="no synthesizer")


def synthesize(text: str, voice: str = "slt") -> bytes:
    with tempfile.TemporaryDirectory() as tmp:
        wav = Path(tmp) / "u.wav"
        if shutil.which("flite"):
            subprocess.run(["flite", "-voice", voice, "-t", text, "-o", str(wav)], check=True)
        else:
            subprocess.run(["espeak-ng", "-v", "en-us", "-w", str(wav), text], check=True)
        return read_wav(wav)


# ------------------------------------------------------------------ the model's weights
def test_sendump_gives_one_distribution_per_senone_and_stream():
    senones, features, codewords, weights = read_sendump(Path(base_model()) / "sendump")
    assert (features, codewords) == (3, 128) and senones > 1000
    assert len(weights) == senones * features * codewords
    for s in (0, senones // 2, senones - 1):
        for f in range(features):
            start = (s * features + f) * codewords
            total = sum(weights[start:start + codewords])
            # 8-bit log quantization loses a little mass; a wrong layout would be far off.
            assert 0.85 < total <= 1.01, (s, f, total)


def test_mixture_weights_file_has_the_sphinx_header_and_shape(tmp_path):
    from array import array

    path = tmp_path / "mixw"
    write_mixw(path, (2, 1, 3), array("f", [0.5, 0.25, 0.25, 1.0, 0.0, 0.0]))
    data = path.read_bytes()
    head, _, body = data.partition(b"endhdr\n")
    assert head.startswith(b"s3\n") and len(head + b"endhdr\n") % 4 == 0
    assert struct.unpack("<iIIII", body[:20]) == (0x11223344, 2, 1, 3, 6)
    assert struct.unpack("<6f", body[20:]) == (0.5, 0.25, 0.25, 1.0, 0.0, 0.0)


# ------------------------------------------------------------------ refusals
def test_too_few_recordings_are_refused_before_any_work(tmp_path):
    with pytest.raises(AdaptationUnavailable, match=f"at least {MIN_UTTERANCES}"):
        adapt([Utterance(b"\0\0" * 8000, "score")] * 3, tmp_path / "model")
    assert not (tmp_path / "model").exists()


def test_missing_programs_are_named(monkeypatch):
    monkeypatch.setenv("PATH", "/nonexistent")
    monkeypatch.setattr("companion.voice.adapt.TOOL_DIRS", ())
    monkeypatch.delenv("SPHINXTRAIN_BIN", raising=False)
    with pytest.raises(AdaptationUnavailable, match="apt install sphinxtrain.*missing: sphinx_fe"):
        find_tools()


@needs_tools
def test_a_word_without_pronunciation_is_refused(tmp_path):
    utterances = [Utterance(b"\0\0" * 8000, "gift flute fan zzyzxq")] * MIN_UTTERANCES
    with pytest.raises(AdaptationUnavailable, match="zzyzxq"):
        adapt(utterances, tmp_path / "model")


@needs_tools
def test_recordings_that_match_no_words_are_refused_and_the_previous_model_kept(tmp_path):
    """Noise read as commands: bw aligns none of them; adapt refuses, the profile's
    previous model stays as it was."""
    import random

    rng = random.Random(1)
    noise = b"".join(struct.pack("<h", rng.randint(-3000, 3000)) for _ in range(16000))
    dest = tmp_path / "model"
    dest.mkdir()
    (dest / "marker").write_text("previous model")
    utterances = [Utterance(noise, "gift flute fan and tea")] * MIN_UTTERANCES
    with pytest.raises(AdaptationUnavailable,
                       match=f"only 0 of {MIN_UTTERANCES} recordings matched their words"):
        adapt(utterances, dest)
    assert (dest / "marker").read_text() == "previous model"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["model"]


def test_a_new_model_replaces_the_old_one_and_leaves_nothing_beside_it(tmp_path):
    from companion.voice.adapt import _replace

    new = tmp_path / "work" / "adapted"
    new.mkdir(parents=True)
    (new / "sendump").write_text("new")
    dest = tmp_path / "voices" / "model"
    for folder in (dest, dest.with_name("model.new"), dest.with_name("model.old")):
        folder.mkdir(parents=True)  # an earlier run stopped half way left the last two
        (folder / "sendump").write_text("stale")
    _replace(dest, new)
    assert (dest / "sendump").read_text() == "new" and (new / "sendump").is_file()
    assert sorted(p.name for p in dest.parent.iterdir()) == ["model"]


# ------------------------------------------------------------------ profiles
def test_profile_names_become_safe_folder_names():
    assert slug("Anne-Marie D.") == "anne-marie_d"
    assert slug("../../etc") == "etc"
    with pytest.raises(ProfileError):
        slug("  ../ ")


def test_recordings_are_kept_as_wav_and_words(tmp_path):
    profile = Profile.named("Ana", tmp_path)
    pcm = struct.pack("<4h", 0, 1000, -1000, 0) * 4000
    profile.save(profile.next_index(), pcm, "gift flute, fan and tea")
    profile.save(profile.next_index(), pcm, "score")
    assert sorted(p.name for p in profile.recordings.iterdir()) == [
        "0001.txt", "0001.wav", "0002.txt", "0002.wav"]
    with wave.open(str(profile.recordings / "0001.wav")) as w:
        assert (w.getframerate(), w.getnchannels(), w.getsampwidth()) == (16000, 1, 2)
    loaded = load_recordings(profile.recordings)
    assert [u.text for u in loaded] == ["gift flute, fan and tea", "score"]
    assert loaded[0].pcm == pcm and loaded[0].words() == ["gift", "flute", "fan", "and", "tea"]


def test_a_profile_without_model_says_how_to_make_one(tmp_path):
    with pytest.raises(ProfileError, match="companion voice-enroll --name Ben"):
        Profile.named("Ben", tmp_path).require_model()


# ------------------------------------------------------------------ prompts
def test_prompts_name_every_card_word_early_and_all_are_commands():
    first = " ".join(prompts(24))
    for name in card_names():
        assert name in first, name
    for seed in range(5):
        texts = prompts(60, seed)
        assert len(texts) == 60
        for text in texts:
            assert (normalize(text, "en", Context.any()) or
                    normalize(text, "en", Context.confirm())), text
    assert prompts(30, 1) == prompts(30, 1) != prompts(30, 2)


def test_enrollment_keeps_each_recording_and_asks_again_after_silence(tmp_path):
    from companion.narrate.catalogue import Catalogue

    said: list[str] = []
    english = Catalogue("en", games=())
    pcm = struct.pack("<h", 500) * 16000
    answers = iter([pcm, None, pcm, None, None, pcm])
    profile = Profile.named("Ana", tmp_path)
    recorded = Enrollment(profile, lambda m: said.append(english.render(m)),
                          lambda: next(answers)).run(["score", "board", "secret", "discard"])
    assert recorded == 3
    assert said[:4] == ["1 of 4. Say: score.", "2 of 4. Say: board.",
                        "I heard nothing. Again, say: board.", "3 of 4. Say: secret."]
    assert "Skipped." in said
    assert [u.text for u in load_recordings(profile.recordings)] == ["score", "board", "discard"]


# ------------------------------------------------------------------ the real adaptation
@needs_tools
@needs_synth
def test_adapted_model_is_written_loads_and_recognizes(tmp_path):
    texts = prompts(16, seed=3)
    utterances = [Utterance(synthesize(t.replace(",", "")), t) for t in texts]
    profile = Profile.named("Slt", tmp_path)
    old = profile.model
    old.mkdir(parents=True)
    (old / "marker").write_text("previous model")
    report = adapt(utterances, profile.model, PRONUNCIATIONS)
    assert report.utterances == 16 and report.aligned >= 12
    assert profile.ready() and not (profile.model / "marker").exists()
    assert (profile.model / "sendump").read_bytes() != (Path(base_model()) / "sendump").read_bytes()
    from companion.games.hanamikoji.voice.hooks import HanamikojiRecognizer
    from companion.voice.sphinx import SphinxRecognizer

    recognizer = HanamikojiRecognizer(SphinxRecognizer(hmm=profile.require_model()))
    heard = recognizer.recognize(synthesize("show me the score"), Context.any())
    assert heard.command in ("score", None)  # never another command
    heard = recognizer.recognize(synthesize("discard"), Context.action())
    assert heard.command in ("discard", None)


@needs_tools
@needs_synth
def test_voice_enroll_from_a_folder_makes_a_profile_play_and_listen_use(tmp_path, monkeypatch,
                                                                         capsys):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    folder = tmp_path / "rec"
    folder.mkdir()
    for n, text in enumerate(prompts(12, seed=5)):
        with wave.open(str(folder / f"{n:02d}.wav"), "wb") as out:
            out.setnchannels(1)
            out.setsampwidth(2)
            out.setframerate(16000)
            out.writeframes(synthesize(text.replace(",", "")))
        (folder / f"{n:02d}.txt").write_text(text)
    from companion.cli import main

    assert main(["voice-enroll", "--name", "Slt", "--from-dir", str(folder),
                 "--no-speech"]) == 0
    printed = capsys.readouterr().out
    assert "Voice profile for Slt is ready" in printed
    profile = Profile.named("Slt", tmp_path / "data" / "tactile-companion" / "voices")
    assert profile.ready()
    info = json.loads((profile.root / "profile.json").read_text())
    assert info["utterances"] == 12 and len(list(profile.recordings.glob("*.wav"))) == 12
    wav = folder / "00.wav"
    assert main(["listen", "--file", str(wav), "--profile", "Slt", "--json"]) in (0, 1)
    assert "command" in json.loads(capsys.readouterr().out.strip().splitlines()[-1])


def test_listen_with_an_unknown_profile_is_one_plain_line(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    wav = tmp_path / "u.wav"
    with wave.open(str(wav), "wb") as out:
        out.setnchannels(1)
        out.setsampwidth(2)
        out.setframerate(16000)
        out.writeframes(b"\0\0" * 8000)
    from companion.cli import main

    assert main(["listen", "--file", str(wav), "--profile", "Nobody", "--lang", "en"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "no voice profile for Nobody" in err[0]


def test_play_with_an_unknown_profile_says_so_and_plays_on(tmp_path, monkeypatch):
    from companion.inputs.voice import profile_model

    said = []
    assert profile_model("Nobody", said.extend, tmp_path) is None
    assert [m.event for m in said] == ["voice_profile_missing"]
    assert said[0].params == {"name": "Nobody"}
    assert profile_model(None, said.extend, tmp_path) is None and len(said) == 1


def test_voice_enroll_with_nothing_recorded_says_what_is_needed(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    from companion.cli import main

    assert main(["voice-enroll", "--name", "Ana", "--count", "0", "--no-speech"]) == 2
    lines = capsys.readouterr().out.strip().splitlines()
    assert lines == [f"The voice profile was not made: at least {MIN_UTTERANCES} recorded "
                     "commands are needed, 0 given."]
    assert main(["voice-enroll", "--name", "Ana", "--from-dir", str(tmp_path / "none"),
                 "--no-speech"]) == 2
    assert "there is no folder" in capsys.readouterr().out


def test_a_failed_adaptation_keeps_the_recordings_and_says_how_to_retry(tmp_path, monkeypatch,
                                                                         capsys):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.setenv("PATH", "/nonexistent")
    monkeypatch.setattr("companion.voice.adapt.TOOL_DIRS", ())
    monkeypatch.delenv("SPHINXTRAIN_BIN", raising=False)
    folder = tmp_path / "rec"
    folder.mkdir()
    for n in range(MIN_UTTERANCES + 2):
        Profile("x", folder).save(n, struct.pack("<h", 300) * 16000, "score")
    for wav in (folder / "recordings").iterdir():
        wav.rename(folder / wav.name)
    from companion.cli import main

    assert main(["voice-enroll", "--name", "Ana", "--from-dir", str(folder),
                 "--no-speech"]) == 2
    lines = capsys.readouterr().out.strip().splitlines()
    assert lines[-2].startswith("The voice profile was not made: Adapting to a voice needs")
    assert not any(line.startswith("Learning your voice") for line in lines)
    from companion.launcher import command  # the companion as this PATH runs it

    assert lines[-1] == (f"The {MIN_UTTERANCES + 2} recordings are kept; once that is fixed, "
                        f"learn from them with: {command()} voice-enroll --name Ana --count 0")
