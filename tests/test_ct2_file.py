"""A CTranslate2 model file read and written (ct2_file.py), and the encoder of fewer layers
made from it once into the cache (whisper_model.middle_encoder): what the enrolled words
compare beside the last layer (enrolled_engine.Frames)."""

from __future__ import annotations

import os
import shutil
import struct
import time
from pathlib import Path

import numpy as np
import pytest

from companion.voice import ct2_file
from companion.voice.whisper_model import engine_available, tiny_en

needs_whisper = pytest.mark.skipif(not (engine_available() and tiny_en()),
                                   reason="needs the whisper extra (scripts/setup.sh)")


def _beside(model: ct2_file.ModelFile, src: Path, dest: Path) -> Path:
    dest.mkdir()
    ct2_file.write(model, dest / "model.bin")
    for f in src.iterdir():
        if f.name != "model.bin":
            shutil.copyfile(f, dest / f.name)
    return dest


def _encode(folder: Path, mel: np.ndarray) -> np.ndarray:
    import ctranslate2

    model = ctranslate2.models.Whisper(str(folder), device="cpu", compute_type="int8")
    return np.asarray(model.encode(ctranslate2.StorageView.from_array(mel[None]),
                                   to_cpu=True))[0]


def _speechlike() -> np.ndarray:
    """Whisper's input for two seconds of a rising tone with its harmonics (10 s window)."""
    from companion.voice.whisper_model import log_mel

    t = np.arange(32000) / 16000
    tone = sum(np.sin(2 * np.pi * k * (180 + 40 * t) * t) / k for k in range(1, 6))
    return log_mel((0.1 * tone).astype(np.float32), 10.0)


@needs_whisper
def test_a_model_file_read_and_written_is_the_same_bytes(tmp_path: Path) -> None:
    src = tiny_en()
    assert src is not None
    model = ct2_file.read(src / "model.bin")
    assert model.spec == "WhisperSpec" and ct2_file.encoder_layers(model) == 4
    ct2_file.write(model, tmp_path / "model.bin")
    assert (tmp_path / "model.bin").read_bytes() == (src / "model.bin").read_bytes()


@needs_whisper
def test_the_encoder_copied_whole_encodes_as_the_model_and_its_half_otherwise(
        tmp_path: Path) -> None:
    """The copy keeps the encoder's layers it names, the final norm and what CTranslate2
    needs to load (a decoder of one layer, an embedding of a few rows): whole, it gives the
    model's own frames; with two layers, other frames of the same shape."""
    src = tiny_en()
    assert src is not None
    model = ct2_file.read(src / "model.bin")
    mel = _speechlike()
    own = _encode(src, mel)
    whole = _encode(_beside(ct2_file.first_layers(model, 4), src, tmp_path / "whole"), mel)
    np.testing.assert_allclose(whole, own, atol=1e-5)
    half = ct2_file.first_layers(model, 2)
    assert ct2_file.encoder_layers(half) == 2
    folder = _beside(half, src, tmp_path / "half")
    assert (folder / "model.bin").stat().st_size < (src / "model.bin").stat().st_size / 4
    middle = _encode(folder, mel)
    assert middle.shape == own.shape
    assert not np.allclose(middle, own, atol=0.1)


@needs_whisper
def test_the_middle_encoder_is_made_once_into_the_cache(tmp_path: Path,
                                                        monkeypatch) -> None:  # type: ignore[no-untyped-def]
    from companion.voice.whisper_model import middle_encoder

    monkeypatch.setenv("COMPANION_WHISPER_CACHE", str(tmp_path))
    src = tiny_en()
    assert src is not None
    # What a copy stopped long ago left, and one another process is writing now.
    folder = tmp_path / f"{src.name}-{(src / 'model.bin').stat().st_size}-middle"
    folder.mkdir()
    stopped, writing = folder / "model.bin.123.partial", folder / "model.bin.456.partial"
    stopped.write_bytes(b"cut")
    writing.write_bytes(b"busy")
    os.utime(stopped, (time.time() - 3600, time.time() - 3600))
    made = middle_encoder(src)
    assert made == folder and (made / "tokenizer.json").is_file()
    assert ct2_file.encoder_layers(ct2_file.read(made / "model.bin")) == 2
    assert list(made.glob("*.partial")) == [writing]
    stamp = (made / "model.bin").stat().st_mtime_ns
    assert middle_encoder(src) == made
    assert (made / "model.bin").stat().st_mtime_ns == stamp  # not made again


def test_a_file_of_another_version_or_cut_short_is_refused(tmp_path: Path) -> None:
    model = ct2_file.ModelFile("WhisperSpec", 3, (
        ct2_file.Variable("encoder/layer_0/ffn/linear_0/bias", (4,), 0, bytes(16)),
        ct2_file.Variable("encoder/layer_1/ffn/linear_0/bias", (4,), 0, bytes(16)),
        ct2_file.Variable("decoder/embeddings/weight", (100, 4), 0, bytes(1600))),
        (("decoder/projection/weight", "decoder/embeddings/weight"),))
    path = tmp_path / "model.bin"
    ct2_file.write(model, path)
    assert ct2_file.read(path) == model
    half = ct2_file.first_layers(model, 1)
    assert [v.name for v in half.variables] == ["encoder/layer_0/ffn/linear_0/bias",
                                                "decoder/embeddings/weight"]
    assert half.variables[1].shape == (ct2_file.KEPT_EMBEDDING_ROWS, 4)
    assert len(half.variables[1].data) == ct2_file.KEPT_EMBEDDING_ROWS * 4 * 4
    data = path.read_bytes()
    path.write_bytes(data[:-30])
    with pytest.raises(ct2_file.ModelFormat, match="cut short"):
        ct2_file.read(path)
    path.write_bytes(struct.pack("<I", 5) + data[4:])
    with pytest.raises(ct2_file.ModelFormat, match="version 5"):
        ct2_file.read(path)
    with pytest.raises(ct2_file.ModelFormat, match="not 3"):
        ct2_file.first_layers(model, 3)
    with pytest.raises(ct2_file.ModelFormat, match="not a Whisper"):
        ct2_file.first_layers(ct2_file.ModelFile("TransformerSpec", 1, (), ()), 1)
