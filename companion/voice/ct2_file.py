"""A CTranslate2 model file (model.bin) read and written, to make an encoder of fewer layers.

The enrolled recognizer (enrolled.py) compares the player's recordings with what is heard
frame by frame; the encoder's middle layer, beside its last, tells a word apart better in
babble (docs/voice.md "The player's own voice"). CTranslate2 returns only the last layer's
frames, so a copy of the model is made once, in the user cache, with the first layers of
its encoder alone: its last layer is then the middle one. The decoder is kept only as far
as CTranslate2 needs to load the model (its first layer, an embedding of a few rows): the
copy is never decoded with, only `encode`d.

The format is CTranslate2's own (`ctranslate2.specs.model_spec`, binary version 6): the
version, the spec's name and revision, each variable (name, shape, type, bytes), then the
aliases. A file of another version is refused (`ModelFormat`), never guessed.
"""

from __future__ import annotations

import re
import struct
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO

VERSION = 6
KEPT_EMBEDDING_ROWS = 8


class ModelFormat(ValueError):
    """A model file this module does not read (another version, or cut short)."""


@dataclass(frozen=True)
class Variable:
    name: str
    shape: tuple[int, ...]
    dtype: int  # CTranslate2's type id
    data: bytes


@dataclass(frozen=True)
class ModelFile:
    spec: str
    revision: int
    variables: tuple[Variable, ...]
    aliases: tuple[tuple[str, str], ...]


def _read(f: BinaryIO, fmt: str) -> tuple[int, ...]:
    size = struct.calcsize(fmt)
    raw = f.read(size)
    if len(raw) != size:
        raise ModelFormat("the model file is cut short")
    return struct.unpack("<" + fmt, raw)


def _string(f: BinaryIO) -> str:
    (n,) = _read(f, "H")
    raw = f.read(n)
    if len(raw) != n or not raw.endswith(b"\0"):
        raise ModelFormat("the model file is cut short")
    return raw[:-1].decode("utf-8")


def read(path: Path) -> ModelFile:
    with path.open("rb") as f:
        (version,) = _read(f, "I")
        if version != VERSION:
            raise ModelFormat(f"model file version {version}, not {VERSION}")
        spec = _string(f)
        (revision,) = _read(f, "I")
        (count,) = _read(f, "I")
        variables = []
        for _ in range(count):
            name = _string(f)
            (rank,) = _read(f, "B")
            shape = _read(f, "I" * rank)
            (dtype,) = _read(f, "B")
            (size,) = _read(f, "I")
            data = f.read(size)
            if len(data) != size:
                raise ModelFormat("the model file is cut short")
            variables.append(Variable(name, tuple(shape), dtype, data))
        (count,) = _read(f, "I")
        aliases = tuple((_string(f), _string(f)) for _ in range(count))
    return ModelFile(spec, revision, tuple(variables), aliases)


def _write_string(f: BinaryIO, text: str) -> None:
    raw = text.encode("utf-8") + b"\0"
    f.write(struct.pack("<H", len(raw)))
    f.write(raw)


def write(model: ModelFile, path: Path) -> None:
    with path.open("wb") as f:
        f.write(struct.pack("<I", VERSION))
        _write_string(f, model.spec)
        f.write(struct.pack("<II", model.revision, len(model.variables)))
        for v in model.variables:
            _write_string(f, v.name)
            f.write(struct.pack("<B", len(v.shape)))
            f.write(struct.pack("<" + "I" * len(v.shape), *v.shape))
            f.write(struct.pack("<BI", v.dtype, len(v.data)))
            f.write(v.data)
        f.write(struct.pack("<I", len(model.aliases)))
        for alias, target in model.aliases:
            _write_string(f, alias)
            _write_string(f, target)


def encoder_layers(model: ModelFile) -> int:
    return len({m.group(1) for v in model.variables
                if (m := re.match(r"encoder/layer_(\d+)/", v.name))})


def first_layers(model: ModelFile, layers: int) -> ModelFile:
    """`model` with the first `layers` of its encoder (and its final norm), a decoder of
    one layer and an embedding of a few rows: an encoder to `encode` with, never to
    decode with."""
    if model.spec != "WhisperSpec":
        raise ModelFormat(f"a {model.spec}, not a Whisper model")
    if not 0 < layers <= encoder_layers(model):
        raise ModelFormat(f"the encoder has {encoder_layers(model)} layers, not {layers}")

    def kept(name: str) -> bool:
        encoder = re.match(r"encoder/layer_(\d+)/", name)
        decoder = re.match(r"decoder/layer_(\d+)/", name)
        return ((encoder is None or int(encoder.group(1)) < layers)
                and (decoder is None or decoder.group(1) == "0"))

    variables = []
    for v in model.variables:
        if not kept(v.name):
            continue
        if v.name == "decoder/embeddings/weight" and len(v.shape) == 2:
            rows = min(v.shape[0], KEPT_EMBEDDING_ROWS)
            row_bytes = len(v.data) // v.shape[0]
            v = Variable(v.name, (rows, v.shape[1]), v.dtype, v.data[:rows * row_bytes])
        variables.append(v)
    aliases = tuple((a, t) for a, t in model.aliases if kept(a) and kept(t))
    return ModelFile(model.spec, model.revision, tuple(variables), aliases)
