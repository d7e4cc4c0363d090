"""Adapt the acoustic model to one player's voice (and room) from a few dozen commands.

Measured (docs/voice.md): the bundled en-us model, adapted by MAP to a speaker with 60–150
of their own commands recorded in mixed noise, goes from 27% to 48–58% right at 20 dB for
that speaker; adapted to *other* voices it gets worse for everyone else, so adaptation is
only ever per player, never shipped as a new default.

The work is done by CMU Sphinxtrain's programs (`bw` collects statistics, `map_adapt`
updates the Gaussians and mixture weights, `mk_s2sendump` writes them back in pocketsphinx's
format), `sphinx_fe` (sphinxbase) for features and `pocketsphinx_mdef_convert` for the text
model definition `bw` reads. They are Debian/Ubuntu packages (sphinxtrain, sphinxbase-utils,
pocketsphinx); where they are missing, `AdaptationUnavailable` says so in one sentence.
pip's model has no `mixture_weights` file, only the quantized `sendump`: `sendump_to_mixw`
rebuilds the former (its weights are 1.0001^-(byte << shift)).
"""

from __future__ import annotations

import os
import re
import shutil
import struct
import subprocess
import tempfile
import time
from array import array
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from companion.speech.audio import AudioFormat, wav_bytes
from companion.voice.reasons import Explained, explained
from companion.voice.sphinx import SAMPLE_RATE, condition

# Front-end settings of the en-us model (its feat.params): the features `bw` trains on must
# be the ones the decoder computes.
FE_OPTIONS = ("-lowerf", "130", "-upperf", "6800", "-nfilt", "25", "-transform", "dct",
              "-lifter", "22", "-remove_noise", "yes", "-remove_silence", "no",
              "-samprate", str(SAMPLE_RATE), "-nfft", "512")
BW_OPTIONS = ("-ts2cbfn", ".ptm.", "-feat", "1s_c_d_dd", "-svspec", "0-12/13-25/26-38",
              "-cmn", "batch", "-agc", "none", "-varnorm", "no", "-timing", "no")
MODEL_FILES = ("mdef", "feat.params", "noisedict", "transition_matrices")
TOOL_DIRS = ("/usr/lib/sphinxtrain", "/usr/libexec/sphinxtrain", "/usr/local/lib/sphinxtrain",
             "/usr/lib/x86_64-linux-gnu/sphinxtrain", "/usr/lib/aarch64-linux-gnu/sphinxtrain")
MIN_UTTERANCES = 10
WORD = re.compile(r"[a-z']+")


class AdaptationUnavailable(Explained, RuntimeError):
    """Adaptation cannot run here or failed; the message is one sentence for the player,
    `message` that sentence in the catalogue (reasons.py)."""


@dataclass(frozen=True)
class Utterance:
    """One recorded command: 16 kHz mono 16-bit PCM and the words that were said."""

    pcm: bytes
    text: str

    def words(self) -> list[str]:
        return WORD.findall(self.text.lower())


@dataclass(frozen=True)
class AdaptReport:
    utterances: int
    aligned: int  # utterances bw could align to their words (the rest taught nothing)
    seconds: float


def find_tools() -> dict[str, str]:
    """Paths of the five programs, or AdaptationUnavailable naming what is missing."""
    found: dict[str, str] = {}
    for name in ("sphinx_fe", "pocketsphinx_mdef_convert"):
        path = shutil.which(name)
        if path:
            found[name] = path
    extra = os.environ.get("SPHINXTRAIN_BIN")
    for name in ("bw", "map_adapt", "mk_s2sendump"):
        for folder in ((extra,) if extra else ()) + TOOL_DIRS:
            candidate = Path(folder) / name
            if candidate.is_file() and os.access(candidate, os.X_OK):
                found[name] = str(candidate)
                break
    missing = [n for n in ("sphinx_fe", "pocketsphinx_mdef_convert", "bw", "map_adapt",
                           "mk_s2sendump") if n not in found]
    if missing:
        raise explained(AdaptationUnavailable, "tools_missing", missing=", ".join(missing))
    return found


def base_model() -> str:
    """The pip pocketsphinx en-us acoustic model directory."""
    import pocketsphinx

    return str(Path(pocketsphinx.get_model_path()) / "en-us" / "en-us")


def read_sendump(path: str | Path) -> tuple[int, int, int, array]:
    """(senones, features, codewords, weights) from a pocketsphinx `sendump`; the weights
    are ordered senone, feature, codeword, as `mixture_weights` stores them."""
    data = memoryview(Path(path).read_bytes())
    pos = 0

    def integer() -> int:
        nonlocal pos
        (value,) = struct.unpack_from("<I", data, pos)
        pos += 4
        return value

    def text() -> str | None:
        nonlocal pos
        size = integer()
        if size == 0:
            return None
        value = bytes(data[pos:pos + size - 1]).decode("ascii", "replace")
        pos += size
        return value

    text()  # the title
    header: dict[str, int] = {}
    while (line := text()) is not None:
        name, _, value = line.partition(" ")
        if value.strip().isdigit():
            header[name] = int(value)
    if header.get("cluster_count", 0) != 0:
        raise explained(AdaptationUnavailable, "clustered")
    codewords, senones = integer(), integer()
    features = header.get("feature_count", 1)
    shift = header.get("mixw_shift", 10)
    size = features * codewords * senones
    if len(data) - pos < size:
        raise explained(AdaptationUnavailable, "truncated")
    table = [1.0001 ** -(b << shift) for b in range(256)]
    # Stored codeword-major ([feature][codeword][senone]); a stride of `senones` from a
    # senone's first byte walks its weights in (feature, codeword) order.
    block = bytes(data[pos:pos + size])
    ordered = b"".join(block[s::senones] for s in range(senones))
    return senones, features, codewords, array("f", map(table.__getitem__, ordered))


def write_mixw(path: str | Path, shape: tuple[int, int, int], weights: array) -> None:
    """A Sphinx-III binary `mixture_weights` file (no checksum)."""
    head = b"s3\nversion 1.0\n"
    pad = (len(head) + len(b"endhdr\n")) % 4
    head += b" " * ((4 - pad) % 4) + b"endhdr\n"
    values = array("f", weights)
    if struct.pack("=I", 1) != struct.pack("<I", 1):  # pragma: no cover - big-endian hosts
        values.byteswap()
    with open(path, "wb") as out:
        out.write(head + struct.pack("<i", 0x11223344))
        out.write(struct.pack("<IIII", *shape, shape[0] * shape[1] * shape[2]))
        out.write(values.tobytes())


def _dictionary(utterances: Sequence[Utterance], pronunciations: Mapping[str, Sequence[str]],
                base_dict: Path) -> tuple[str, set[str]]:
    """The dictionary bw needs (every word said, with its alternates) and the unknown words."""
    wanted = {w for u in utterances for w in u.words()}
    entries: dict[str, list[str]] = {}
    with open(base_dict, encoding="utf-8") as handle:
        for line in handle:
            word, _, phones = line.strip().partition(" ")
            base = word.split("(")[0]
            if base in wanted:
                entries.setdefault(base, []).append(phones.strip())
    for word in wanted:
        if word in pronunciations:
            entries[word] = list(pronunciations[word])
    lines = [f"{w if n == 0 else f'{w}({n + 1})'} {p}"
             for w in sorted(entries) for n, p in enumerate(entries[w])]
    return "\n".join(lines) + "\n", wanted - set(entries)


def _run(tool: str, *args: str, cwd: Path) -> str:
    done = subprocess.run([tool, *args], cwd=cwd, capture_output=True, text=True)
    if done.returncode != 0:
        tail = (done.stderr or done.stdout).strip().splitlines()[-1:] or ["no output"]
        raise explained(AdaptationUnavailable, "tool_failed", tool=Path(tool).name,
                        detail=tail[0])
    return done.stderr + done.stdout


def adapt(utterances: Sequence[Utterance], dest: str | Path,
          pronunciations: Mapping[str, Sequence[str]] | None = None,
          base: str | None = None) -> AdaptReport:
    """Write to `dest` a copy of the model `base` adapted to these utterances (MAP).

    `dest` is replaced only once the new model is complete, so a failed adaptation leaves
    the previous profile working. `pronunciations`: CMU phones of the words read that the
    en-us dictionary lacks (a game's voice hooks give its own).
    """
    started = time.perf_counter()
    if len(utterances) < MIN_UTTERANCES:
        raise explained(AdaptationUnavailable, "too_few", n=MIN_UTTERANCES,
                        given=len(utterances))
    tools = find_tools()
    hmm = Path(base or base_model())
    dest = Path(dest)
    dest.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="companion-adapt-") as tmp:
        work = Path(tmp)
        _write_training_set(work, utterances, dict(pronunciations or {}), hmm)
        model = _trainable_model(work, hmm, tools)
        aligned = _accumulate(work, model, tools, len(utterances))
        _replace(dest, _map_adapt(work, model, hmm, tools))
    return AdaptReport(len(utterances), aligned, time.perf_counter() - started)


def _write_training_set(work: Path, utterances: Sequence[Utterance],
                        prons: Mapping[str, Sequence[str]], hmm: Path) -> None:
    """What bw reads about the recordings in `work`: their dictionary (AdaptationUnavailable
    naming a word without a pronunciation, before anything is written), the model's noise
    words, the audio as the decoder sees it, and the words said in each."""
    # The pip model's dictionary: any en-us model uses the same phone set.
    text, unknown = _dictionary(utterances, prons,
                                Path(base_model()).parent / "cmudict-en-us.dict")
    if unknown:
        raise explained(AdaptationUnavailable, "no_pronunciation",
                        words=", ".join(sorted(unknown)))
    (work / "train.dict").write_text(text, encoding="utf-8")
    shutil.copy(hmm / "noisedict", work / "noisedict")
    (work / "wav").mkdir()
    ids, lines = [], []
    for n, utt in enumerate(utterances):
        name = f"u{n:04d}"
        # The decoder sees trimmed audio (sphinx.condition): train on the same.
        (work / "wav" / f"{name}.wav").write_bytes(
            wav_bytes(condition(utt.pcm, seed=n), AudioFormat(SAMPLE_RATE)))
        ids.append(name)
        lines.append(f"<s> {' '.join(utt.words())} </s> ({name})")
    (work / "train.fileids").write_text("\n".join(ids) + "\n", encoding="ascii")
    (work / "train.transcription").write_text("\n".join(lines) + "\n", encoding="ascii")


def _trainable_model(work: Path, hmm: Path, tools: Mapping[str, str]) -> Path:
    """A copy of the base model in the form bw and map_adapt read: a text model definition
    and a `mixture_weights` file rebuilt from the quantized `sendump`."""
    model = work / "model"
    model.mkdir()
    for name in ("means", "variances", "transition_matrices", "noisedict"):
        shutil.copy(hmm / name, model / name)
    _run(tools["pocketsphinx_mdef_convert"], "-text", str(hmm / "mdef"),
         str(model / "mdef.txt"), cwd=work)
    senones, features, codewords, weights = read_sendump(hmm / "sendump")
    write_mixw(model / "mixture_weights", (senones, features, codewords), weights)
    return model


def _accumulate(work: Path, model: Path, tools: Mapping[str, str], count: int) -> int:
    """Features, then bw's statistics in `work/acc`; the number of recordings aligned to
    their words, or AdaptationUnavailable when too few were to teach anything."""
    (work / "mfc").mkdir()
    _run(tools["sphinx_fe"], "-c", "train.fileids", "-di", "wav", "-do", "mfc",
         "-ei", "wav", "-eo", "mfc", "-mswav", "yes", *FE_OPTIONS, cwd=work)
    (work / "acc").mkdir()
    log = _run(tools["bw"], "-hmmdir", str(model), "-moddeffn", str(model / "mdef.txt"),
               *BW_OPTIONS, "-dictfn", "train.dict", "-fdictfn", "noisedict",
               "-ctlfn", "train.fileids", "-lsnfn", "train.transcription",
               "-cepdir", "mfc", "-accumdir", "acc", cwd=work)
    aligned = count - log.count("Failed to align")
    if aligned < MIN_UTTERANCES:
        raise explained(AdaptationUnavailable, "unaligned", aligned=aligned, n=count)
    return aligned


def _map_adapt(work: Path, model: Path, hmm: Path, tools: Mapping[str, str]) -> Path:
    """The adapted model (MAP from bw's statistics), complete in `work/adapted`."""
    out = work / "adapted"
    out.mkdir()
    _run(tools["map_adapt"], "-moddeffn", str(model / "mdef.txt"), "-ts2cbfn", ".ptm.",
         "-meanfn", str(model / "means"), "-varfn", str(model / "variances"),
         "-mixwfn", str(model / "mixture_weights"),
         "-tmatfn", str(model / "transition_matrices"), "-accumdir", "acc",
         "-mapmeanfn", str(out / "means"), "-mapvarfn", str(out / "variances"),
         "-mapmixwfn", str(work / "mixw.adapted"),
         "-maptmatfn", str(out / "transition_matrices"), cwd=work)
    _run(tools["mk_s2sendump"], "-pocketsphinx", "yes",
         "-moddeffn", str(model / "mdef.txt"), "-mixwfn", str(work / "mixw.adapted"),
         "-sendumpfn", str(out / "sendump"), cwd=work)
    for name in ("mdef", "feat.params", "noisedict"):
        shutil.copy(hmm / name, out / name)
    return out


def _replace(dest: Path, new: Path) -> None:
    """`dest` becomes a copy of `new`, the previous model removed only once the new one is
    in place (staged beside it, then renamed)."""
    staged = dest.with_name(dest.name + ".new")
    shutil.rmtree(staged, ignore_errors=True)
    shutil.copytree(new, staged)
    old = dest.with_name(dest.name + ".old")
    shutil.rmtree(old, ignore_errors=True)
    if dest.exists():
        dest.rename(old)
    staged.rename(dest)
    shutil.rmtree(old, ignore_errors=True)
