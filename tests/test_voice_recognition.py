"""End to end: speech synthesized with espeak-ng at test time → pocketsphinx → command."""

from __future__ import annotations

import json
import shutil
import subprocess
import wave
from pathlib import Path

import pytest

from companion.games.hanamikoji.data import Item
from companion.games.hanamikoji.voice.context import Context
from companion.voice.audio import read_wav
from companion.voice.policy import Accept, Confirm, Refuse, decide

pytest.importorskip("pocketsphinx")
if shutil.which("espeak-ng") is None:  # pragma: no cover - depends on the machine
    pytest.skip("espeak-ng is needed to synthesize test speech", allow_module_level=True)

from companion.games.hanamikoji.voice.hooks import HanamikojiRecognizer  # noqa: E402
from companion.voice.cli import main as cli_main  # noqa: E402


@pytest.fixture(scope="module")
def recognizer() -> HanamikojiRecognizer:
    return HanamikojiRecognizer()


@pytest.fixture(scope="module")
def speech(tmp_path_factory: pytest.TempPathFactory):  # type: ignore[no-untyped-def]
    folder = tmp_path_factory.mktemp("speech")

    def synthesize(text: str, voice: str = "en-us") -> Path:
        path = folder / f"{abs(hash((text, voice)))}.wav"
        if not path.exists():
            subprocess.run(["espeak-ng", "-v", voice, "-w", str(path), text], check=True)
        return path
    return synthesize


CASES = [
    ("the secret", Context.action(), "secret"),
    ("gift red blue green", Context.action({"gift", "discard"}), "gift fan umbrella tea"),
    ("competition red blue, green pink", Context.action(),
     "competition fan umbrella / tea flower"),
    ("take the tea", Context.answer_gift([Item.FAN, Item.TEA, Item.FLUTE]), "take tea"),
    ("take the first pair", Context.answer_competition([Item.FAN, Item.TEA],
                                                       [Item.FLUTE, Item.SCROLL]), "take 1"),
    ("my secret is the umbrella", Context.reveal(), "reveal umbrella"),
    ("yes", Context.confirm(), "yes"),
    ("no", Context.confirm(), "no"),
    ("show me the score", Context.any(), "score"),
]


@pytest.mark.parametrize(("text", "context", "expected"), CASES)
def test_each_context(recognizer, speech, text, context, expected) -> None:  # type: ignore[no-untyped-def]
    recognition = recognizer.recognize(read_wav(speech(text)), context)
    assert recognition.command == expected, recognition
    assert 0.0 < recognition.confidence <= 1.0


def test_decoder_reused_across_calls(recognizer, speech) -> None:  # type: ignore[no-untyped-def]
    # The same decoder, many searches, back and forth: results must not drift or raise.
    first = [recognizer.recognize(read_wav(speech(t)), c) for t, c, _ in CASES[:4]]
    again = [recognizer.recognize(read_wav(speech(t)), c) for t, c, _ in CASES[:4]]
    assert first == again
    assert [r.command for r in first] == [e for _, _, e in CASES[:4]]


def test_out_of_grammar_and_noise_are_refused(recognizer, speech, tmp_path) -> None:  # type: ignore[no-untyped-def]
    chatter = recognizer.recognize(read_wav(speech("the weather is lovely today")),
                                   Context.confirm())
    assert chatter.command is None and isinstance(decide(chatter), Refuse)
    noise = tmp_path / "noise.wav"
    subprocess.run(["sox", "-n", "-r", "16000", "-b", "16", "-c", "1", str(noise),
                    "synth", "1.5", "whitenoise", "vol", "0.05"], check=True)
    assert recognizer.recognize(read_wav(noise), Context.confirm()).command is None


def test_confirmation_path(recognizer, speech) -> None:  # type: ignore[no-untyped-def]
    # A state-changing command below the threshold is asked about; only a yes applies it.
    heard = recognizer.recognize(read_wav(speech("gift red blue green")), Context.action())
    decision = decide(heard, threshold=1.0)
    assert isinstance(decision, Confirm)
    assert decision.question == "Gift fan, umbrella and tea. Yes or no?"
    answer = recognizer.recognize(read_wav(speech("yes")), Context.confirm())
    assert decide(answer) == Accept("yes", "")


def test_listen_cli_json(speech, capsys) -> None:  # type: ignore[no-untyped-def]
    assert cli_main(["listen", "--file", str(speech("show me the board")), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["command"] == "board" and 0 < out["confidence"] <= 1
    code = cli_main(["listen", "--file", str(speech("the weather is lovely today")),
                     "--json", "--context", "confirm"])
    assert code == 1 and json.loads(capsys.readouterr().out)["command"] is None


def test_listen_cli_errors_are_one_line(tmp_path, capsys) -> None:  # type: ignore[no-untyped-def]
    assert cli_main(["listen", "--file", str(tmp_path / "missing.wav"), "--lang", "en"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "no such audio file" in err
    text = tmp_path / "notes.wav"
    text.write_text("not audio")
    assert cli_main(["listen", "--file", str(text), "--lang", "en"]) == 2
    assert "not a PCM WAV file" in capsys.readouterr().err


def test_listen_cli_french_without_model(speech, capsys) -> None:  # type: ignore[no-untyped-def]
    # Whisper base listens in French by default; pocketsphinx is English only, so without
    # Whisper French needs a Vosk model.
    assert cli_main(["listen", "--file", str(speech("oui")), "--lang", "fr",
                     "--engine", "sphinx"]) == 2
    err = capsys.readouterr().err
    # said in the language asked (it was English whatever --lang said)
    assert err == ("companion listen: aucun modèle Vosk n'est configuré pour la langue 'fr' ; on "
                   "continue sans la voix (docs/voice.md dit comment en obtenir un)\n")


def test_wav_conversion(tmp_path) -> None:  # type: ignore[no-untyped-def]
    path = tmp_path / "stereo8k.wav"
    with wave.open(str(path), "wb") as w:
        w.setnchannels(2)
        w.setsampwidth(2)
        w.setframerate(8000)
        w.writeframes(b"\x10\x00\xf0\xff" * 8000)  # one second, channels 16 and -16
    pcm = read_wav(path)
    assert len(pcm) == 2 * 16000 and set(pcm) == {0}  # mono average of 16 and -16


def test_front_end_settings_need_a_model_dir(tmp_path) -> None:  # type: ignore[no-untyped-def]
    # The trap: front-end keywords are overridden by the model's feat.params.
    import pocketsphinx

    from companion.voice.sphinx import VERIFIER_FEATURES, model_dir
    decoder = pocketsphinx.Decoder(lm=None, loglevel="FATAL", remove_noise=False)
    assert decoder.config["remove_noise"] is True and decoder.config["cmn"] == "batch"
    hmm = decoder.config["hmm"]
    copy = model_dir(hmm, VERIFIER_FEATURES)
    assert model_dir(hmm, VERIFIER_FEATURES) == copy  # made once
    params = (Path(copy) / "feat.params").read_text().splitlines()
    assert "-remove_noise no" in params and "-cmn batch" in params and "-upperf 6800" in params
    other = pocketsphinx.Decoder(lm=None, loglevel="FATAL", hmm=copy)
    assert other.config["remove_noise"] is False and other.config["cmn"] == "batch"


def test_verifier_front_end_has_no_memory(recognizer, speech) -> None:  # type: ignore[no-untyped-def]
    # Without noise subtraction the same audio decodes the same after other audio.
    from companion.games.hanamikoji.voice.grammar import build_grammar

    def third(audio: bytes, ctx: Context) -> str:
        return recognizer.engine._third.start(audio, (ctx.name, lambda: build_grammar(ctx)))()

    target = read_wav(speech("gift red blue green"))
    ctx = Context.action()
    first = third(target, ctx)
    for text, context, _ in CASES[:3]:
        third(read_wav(speech(text)), context)
    assert third(target, ctx) == first == "gift red blue green"


def test_chatter_and_noise_refused_in_a_turn(recognizer, speech, tmp_path) -> None:  # type: ignore[no-untyped-def]
    # In a turn the grammar is large: chatter must still not become an action.
    for text in ("what time is it", "I think it is your turn"):
        heard = recognizer.recognize(read_wav(speech(text)), Context.action())
        assert heard.command is None, heard
    noise = tmp_path / "pink.wav"
    subprocess.run(["sox", "-n", "-r", "16000", "-b", "16", "-c", "1", str(noise),
                    "synth", "1.5", "pinknoise", "vol", "0.1"], check=True)
    assert recognizer.recognize(read_wav(noise), Context.action()).command is None


def test_listen_says_which_context_to_name_when_any_refuses(speech, capsys) -> None:  # type: ignore[no-untyped-def]
    """`any`, the default, is where every command competes: a refusal there tells the
    person checking a recording how to name the game's moment, on one line of stderr (the
    answer on stdout stays as it was); a refusal in a named context says nothing more."""
    chatter = str(speech("the weather is lovely today"))
    assert cli_main(["listen", "--file", chatter, "--lang", "en"]) == 1
    captured = capsys.readouterr()
    assert captured.out.strip() == "I did not understand, please repeat."
    assert captured.err.count("\n") == 1 and "--context action" in captured.err
    assert cli_main(["listen", "--file", chatter, "--context", "action"]) == 1
    assert capsys.readouterr().err == ""
