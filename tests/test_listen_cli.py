"""`companion listen` on the WAV files people actually have: 24-bit, 32-bit and float
samples (as sox and most recorders write them), and every context its help offers."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from companion.cli import main
from companion.voice.audio import read_wav

pytest.importorskip("pocketsphinx")
needs_tools = pytest.mark.skipif(not (shutil.which("espeak-ng") and shutil.which("sox")),
                                 reason="needs espeak-ng and sox")

# sox options → the sample format they write
FORMATS = {"24-bit": ["-b", "24"], "32-bit": ["-b", "32"],
           "float": ["-e", "floating-point", "-b", "32"],
           "double": ["-e", "floating-point", "-b", "64"],
           "stereo 44.1 kHz 24-bit": ["-c", "2", "-r", "44100", "-b", "24"]}
SAID = {"any": "secret", "action": "secret", "reveal": "reveal tea set", "confirm": "yes",
        "over": "quit"}


def spoken(tmp_path: Path, text: str, *sox: str) -> Path:
    base = tmp_path / "espeak.wav"
    subprocess.run(["espeak-ng", "-w", str(base), text], check=True)
    if not sox:
        return base
    out = tmp_path / "converted.wav"
    subprocess.run(["sox", str(base), *sox, str(out)], check=True)
    return out


def listen(capsys, path: Path, context: str) -> tuple[int, str]:
    code = main(["listen", "--file", str(path), "--context", context])
    captured = capsys.readouterr()
    assert "companion listen:" not in captured.err, captured.err
    return code, captured.out.strip()


@needs_tools
@pytest.mark.parametrize("name", sorted(FORMATS))
def test_every_common_sample_format_is_converted(tmp_path, capsys, name):
    path = spoken(tmp_path, "secret", *FORMATS[name])
    reference = read_wav(spoken(tmp_path, "secret"))
    pcm = read_wav(path)
    assert abs(len(pcm) - len(reference)) <= 4  # same duration at 16 kHz 16-bit
    assert listen(capsys, path, "any") == (0, "secret")


def context_choices() -> list[str]:
    """The contexts `companion listen` offers for the default game (its help says so)."""
    from companion.games.registry import default_game, load_game

    return list(load_game(default_game()).voice().listen_contexts)


def test_the_contexts_offered_are_the_ones_heard_here():
    assert sorted(context_choices()) == sorted(SAID)


@needs_tools
@pytest.mark.parametrize("context", context_choices())
def test_every_offered_context_is_accepted(tmp_path, capsys, context):
    code, out = listen(capsys, spoken(tmp_path, SAID[context]), context)
    assert (code, out) == (0, SAID[context].removesuffix(" set"))
