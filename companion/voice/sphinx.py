"""Grammar-restricted English recognition with pocketsphinx 5, driven directly.

SpeechRecognition's `recognize_sphinx(grammar=...)` breaks on its second call with
pocketsphinx 5, so one `pocketsphinx.Decoder` is built here and reused: a JSGF search per
context is added once (and evicted when too many accumulate), then activated per utterance.

The recognizer knows no game: a game gives it the grammar of what is valid now, the wide
grammar of every form it accepts anywhere, and how decoded words read as its commands.
Confidence comes from agreement of independent decodes of the same audio: the context's
grammar forces every sound into one of a few valid commands, so the audio is decoded again
(1) against the wide grammar with other beams and language weight, and
(2) against the context grammar with a front end without noise subtraction. All three
agree: trusted (HIGH). The whole-grammar competitor agrees but not the other front end: only
offered for confirmation (LOW). The competitor disagrees: refused, because a confirmation
question about a wrong command is itself a wrong answer. Measured figures and the
alternatives (posterior, phone-loop score gap, garbage loop) are in docs/voice.md.

With two cores or more the competitor (the slowest decode: the whole command grammar) runs in
a worker process (`workers.py`) while the main decode and then the other front end run here:
the three take about the time of the competitor instead of their sum. Below the noise margin
only the main decode runs, since whatever it hears is refused unless it is a question.

Front-end settings (cmn, remove_noise, lowerf, upperf...) passed to `Decoder(**kwargs)` are
silently overridden by the model's `feat.params` (checked: `cmn="none"` still decodes with
batch CMN, which the en-us model already uses). The only way to change them is a model
directory with another `feat.params`; `model_dir()` builds one from links.
"""

from __future__ import annotations

import atexit
import contextlib
import math
import os
import random
import shutil
import struct
import tempfile
import threading
import zlib
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path

from companion.voice.decoders import Decoder, Search, import_pocketsphinx
from companion.voice.shared_words import CANCEL, PRACTICE_WORDS, QUERIES, SETTINGS
from companion.voice.workers import DecoderProcess, WorkerGone

SAMPLE_RATE = 16000
# Tighter beams (1e-30) were 20% faster but lost 10 points of accuracy at 40 dB: keep the
# default wide beams.
DECODER_OPTIONS: dict[str, float | str] = {"loglevel": "FATAL"}
# The competitor decoder: tight beams (it only has to agree, and the whole command grammar is
# slow in noise with wide beams) and a lower language weight, so its errors differ.
COMPETITOR_OPTIONS: dict[str, float] = {"beam": 1e-30, "wbeam": 1e-20, "pbeam": 1e-30,
                                        "lw": 2.0}
# The second opinion on the front end: no spectral noise subtraction. `remove_noise` keeps its
# noise estimate from one utterance to the next (the same audio decodes differently after
# other audio), and without it results differ on other utterances: a useful second opinion.
VERIFIER_FEATURES: dict[str, str] = {"remove_noise": "no"}
HIGH = 0.9  # every decode agrees
# Commands that change nothing in the game, answered without a question: the questions, the
# settings, and cancel (a list begun, dropped: asked about, its "no" would keep the list).
# The recognizers treat them all so (no rescue, no loop read once, no second opinion's
# reading made a question); only the policy asks about a setting, on its own confidence
# under the threshold (policy.decide: it changes every later sentence).
# Undo is not one: it takes back a step the table has played, and measured, an unsure "undo"
# was heard for "gift tea Anju Anju" at 40 dB (docs/voice.md); like a move, it is applied when
# sure and asked about when not, the question naming the step ("Undo Ana's Secret. Yes or
# no?").
ALWAYS_ANSWERED = (frozenset(QUERIES) - {"undo"} | frozenset(SETTINGS) | {CANCEL}
                   | frozenset(PRACTICE_WORDS))
ANSWERS = frozenset({"yes", "no"})  # a reply to a question: never itself asked about


def is_move(command: str) -> bool:
    """Whether `command` is read back and asked about when unsure (a move, an undo): no
    question, setting or answer, which are answered at once or cannot be asked about (a
    setting is asked about by the policy alone, when its own confidence is low)."""
    return command not in ALWAYS_ANSWERED and command not in ANSWERS


LOW = 0.5  # the whole-grammar competitor agrees, the other front end does not: ask for a yes
# Below this loudness margin (dB of the speech over the noise around it, `prepare`) a command
# the decoders agree on is as often wrong as right (measured on the benchmark: docs/voice.md):
# only questions, which change nothing, are still answered.
MIN_MARGIN = 17.0
NOISE_FLOOR = 6.0  # amplitude (16-bit units) of the floor added where the audio is silent
TRIM_MARGIN = 0.1  # seconds kept around the detected speech
TRIM_FRACTION = 0.3  # threshold position between the noise floor and the loud frames (dB)
TRIM_MIN_FRAMES = 3


@dataclass(frozen=True)
class Recognition:
    """One recognized utterance: canonical command (None = refused), confidence, raw words."""

    command: str | None
    confidence: float
    words: str
    margin: float | None = None  # loudness_margin of the audio (dB), None when not measured
    # The seat whose privately told cards the listening context held (`in_context`): an
    # unsure command is asked about on that seat's private channel only.
    private_to: int | None = None
    # What Whisper wrote freely (beside its limited beam, else its free beam's best; None:
    # not made): a second opinion's check (enrolled.combine).
    transcript: str | None = None


def in_context(recognition: Recognition, context: object) -> Recognition:
    """The recognition marked with the seat its context was private to, if any."""
    seat = getattr(context, "private_to", None)
    return recognition if seat is None else replace(recognition, private_to=seat)


def capped(command: str, confidence: float,
           settled: Callable[[str], float | None] | None) -> float:
    """`confidence`, no higher than what the game's `settled` gives `command` (a list of
    cards is always asked about): how the engines that score a confidence of their own
    (Whisper, Vosk) honour it."""
    cap = settled(command) if settled is not None else None
    return confidence if cap is None else min(confidence, cap)


# Below this loudness margin a "yes" heard where the confidence is not calibrated (Vosk;
# Whisper's French and Spanish, whose answers' audio is checked too, pass
# yesno.CHECKED_YES_MARGIN instead) is refused as too noisy: measured with Pico, MBROLA and
# espeak-ng voices (docs/voice.md), every "non"/"no" heard as yes (4 of 4) had a margin of
# 7.9 to 11.6 dB, and a yes applies the move the question was about. A misheard no costs
# only a repeat.
YES_MIN_MARGIN = 12.0


def noisy_yes(command: str, pcm: bytes, floor: float = YES_MIN_MARGIN) -> float | None:
    """The loudness margin (dB) of `pcm` when `command` is a yes too noisy to believe
    without a calibrated confidence (under `floor`); None when it stands."""
    if command != "yes" or not pcm:
        return None
    from companion.speech.audio import samples  # the speech package, only when a yes is heard

    margin = loudness_margin(samples(pcm))
    return margin if margin < floor else None


def uncalibrated(heard: Recognition, pcm: bytes, yes_floor: float = YES_MIN_MARGIN
                 ) -> Recognition:
    """A reading whose confidence has no calibration behind it: Whisper's free beam in
    French and Spanish (the text mapper's share of what the model wrote, not of what was
    said; with MBROLA's recorded voices Spanish applied 4% of wrong moves, "flauta" written
    "Té": take tea at 1.0), and Vosk, never measured here. No move is applied unasked: it is
    read back and asked about. A yes in heavy noise (`noisy_yes`, under `yes_floor`) is
    refused, its margin telling the policy that the noise is why. Questions, settings and a
    no keep theirs."""
    command = heard.command
    if command is None:
        return heard
    margin = noisy_yes(command, pcm, yes_floor)
    if margin is not None:
        return Recognition(None, 0.0, heard.words, margin)
    if not is_move(command):
        return heard
    return replace(heard, confidence=min(heard.confidence, LOW))


@dataclass(frozen=True)
class Grammar:
    """A game's grammar: JSGF text and a readable key.

    The decoder caches its search under the key plus a checksum of the text, so a key
    reused for another text never decodes against a stale grammar.
    """

    key: str
    jsgf: str

    @property
    def search(self) -> str:
        return f"{self.key}_{zlib.crc32(self.jsgf.encode()):08x}"


# A decode started (maybe in another process): call it for its words.
_Pending = Callable[[], str]


def _frame_levels(samples: Sequence[int], rate: int) -> list[float]:
    """Energy (dB) of each 10 ms frame."""
    hop = rate // 100
    levels = []
    for i in range(0, max(1, len(samples) - hop + 1), hop):
        frame = samples[i:i + hop]
        levels.append(10 * math.log10(1.0 + sum(s * s for s in frame) / max(1, len(frame))))
    return levels


def _floor_and_loud(levels: list[float]) -> tuple[float, float]:
    """The quiet floor (10th percentile of frame levels) and the loud frames (95th)."""
    ordered = sorted(levels)
    return ordered[len(ordered) // 10], ordered[min(len(ordered) - 1, (len(ordered) * 95) // 100)]


def speech_span(samples: Sequence[int], rate: int = SAMPLE_RATE,
                levels: list[float] | None = None) -> tuple[int, int]:
    """(start, end) sample indices of the speech in `samples`, by frame energy.

    The threshold sits between the quiet floor and the loud frames, so it adapts to the
    room's noise; a start needs a few loud frames in a row so a click does not count.
    """
    hop = rate // 100
    energies = levels if levels is not None else _frame_levels(samples, rate)
    floor, loud = _floor_and_loud(energies)
    threshold = floor + max(3.0, TRIM_FRACTION * (loud - floor))
    above = [e > threshold for e in energies]
    run = TRIM_MIN_FRAMES
    first = next((i for i in range(len(above) - run + 1) if all(above[i:i + run])), None)
    last = next((i for i in range(len(above) - 1, run - 2, -1) if all(above[i - run + 1:i + 1])),
                None)
    if first is None or last is None or last < first:
        return 0, len(samples)
    margin = int(TRIM_MARGIN * rate)
    return max(0, first * hop - margin), min(len(samples), (last + 1) * hop + margin)


def loudness_margin(samples: Sequence[int], rate: int = SAMPLE_RATE,
                    levels: list[float] | None = None) -> float:
    """How far (dB) the loudest speech frames stand above the quiet floor around them: a
    rough signal-to-noise ratio of the utterance (0 when there is no quiet part)."""
    floor, loud = _floor_and_loud(levels if levels is not None else _frame_levels(samples, rate))
    return max(0.0, loud - floor)


def condition(pcm: bytes, seed: int = 0, trim: bool = True) -> bytes:
    """Cut the audio to the speech (plus a margin) and fill digital silence with a floor."""
    return prepare(pcm, seed, trim)[0]


def prepare(pcm: bytes, seed: int = 0, trim: bool = True) -> tuple[bytes, float]:
    """(conditioned audio, loudness margin in dB) of one utterance.

    Measured here: every 0.1 s of non-speech around a command costs the grammar decoder
    accuracy (the edges get forced into words), and exact zeros (digital silence) give the
    front end log(0) energies. The floor is seeded so the same audio decodes the same way.
    """
    count = len(pcm) // 2
    samples: Sequence[int] = struct.unpack(f"<{count}h", pcm[: count * 2])
    margin = 0.0
    if count:
        levels = _frame_levels(samples, SAMPLE_RATE)
        margin = loudness_margin(samples, levels=levels)
        if trim:
            start, end = speech_span(samples, levels=levels)
            samples = samples[start:end]
    rng = random.Random(seed)
    out = [s if s != 0 else round(rng.gauss(0.0, NOISE_FLOOR)) for s in samples]
    return struct.pack(f"<{len(out)}h", *(max(-32768, min(32767, s)) for s in out)), margin


_MODEL_DIRS: dict[tuple[str, tuple[tuple[str, str], ...]], str] = {}


def model_dir(hmm: str, features: Mapping[str, str]) -> str:
    """A copy of the acoustic model `hmm` (links to its files) whose feat.params has
    `features` (e.g. {"remove_noise": "no"}) instead; made once per process, removed at exit."""
    key = (hmm, tuple(sorted(features.items())))
    if key in _MODEL_DIRS:
        return _MODEL_DIRS[key]
    dest = tempfile.mkdtemp(prefix="companion-hmm-")
    atexit.register(shutil.rmtree, dest, True)
    pending = dict(features)
    lines = []
    params = Path(hmm) / "feat.params"
    for line in params.read_text(encoding="ascii").splitlines():
        name, _, value = line.strip().partition(" ")
        if name.lstrip("-") in pending:
            value = pending.pop(name.lstrip("-"))
        if name:
            lines.append(f"{name} {value.strip()}")
    lines += [f"-{name} {value}" for name, value in pending.items()]
    for entry in os.listdir(hmm):
        if entry == "feat.params":
            continue
        try:
            os.symlink(os.path.join(hmm, entry), os.path.join(dest, entry))
        except OSError:  # pragma: no cover - file systems without links
            shutil.copy(os.path.join(hmm, entry), dest)
    Path(dest, "feat.params").write_text("\n".join(lines) + "\n", encoding="ascii")
    _MODEL_DIRS[key] = dest
    return dest


class _Role:
    """A second opinion (the competitor, the other front end): decoded in a worker process
    when `parallel`, else here, built on first use (and here again if the worker fails)."""

    def __init__(self, ps: object, options: dict[str, object],
                 extra: dict[str, tuple[str, ...]], parallel: bool) -> None:
        self._ps = ps
        self._options = options
        self._extra = extra  # the recognizer's, so a decoder built later has every word
        self._local: Decoder | None = None
        self._worker: DecoderProcess | None = None
        if parallel:
            self._worker = DecoderProcess(options, extra)

    @property
    def parallel(self) -> bool:
        return self._worker is not None and self._worker.dead is None

    def start(self, audio: bytes, search: Search) -> _Pending:
        """Start decoding (in the worker) and return what waits for the words."""
        if self.parallel:
            assert self._worker is not None
            name, text = search
            try:
                ident = self._worker.submit(audio, name, text())
            except WorkerGone:
                pass
            else:
                def wait() -> str:
                    try:
                        return self._worker.words(ident)  # type: ignore[union-attr]
                    except WorkerGone:
                        return self._here().decode(audio, search)
                return wait
        return lambda: self._here().decode(audio, search)

    def _here(self) -> Decoder:
        if self._local is None:
            self._local = Decoder(self._ps, self._options, self._extra)
        return self._local

    def add_words(self, pronunciations: Mapping[str, Sequence[str]]) -> None:
        if self.parallel:
            assert self._worker is not None
            with contextlib.suppress(WorkerGone):  # a lost worker: the local one learns them
                self._worker.add_words(pronunciations)
        if self._local is not None:
            self._local.add_words(pronunciations, pronunciations)

    def close(self) -> None:
        if self._worker is not None:
            self._worker.close()


class SphinxRecognizer:
    """Reusable grammar recognizer: `recognize_grammar(pcm, grammar, wide, read)` →
    Recognition, against grammars a game builds (it knows no game: words the en-us
    dictionary lacks are taught with `add_words`).

    Thread-safe (one utterance at a time). Takes 16 kHz mono 16-bit little-endian PCM.
    `parallel` (default: with two cores or more) decodes the competitor in a worker process;
    `close()` stops it (it also ends with the program). `words`: pronunciations (CMU phones)
    of the words a game's grammars use that the dictionary lacks (`add_words` adds more).
    """

    def __init__(self, hmm: str | None = None, dictionary: str | None = None,
                 verify: bool = True, mllr: str | None = None,
                 parallel: bool | None = None,
                 words: Mapping[str, Sequence[str]] | None = None) -> None:
        self._ps = import_pocketsphinx()
        options: dict[str, object] = dict(DECODER_OPTIONS)
        options["lm"] = None  # no n-gram model: grammars only (faster start, less memory)
        if hmm:
            options["hmm"] = hmm
        if dictionary:
            options["dict"] = dictionary
        if mllr:
            options["mllr"] = mllr
        self._options = options
        # Words the games' grammars need, given to every decoder (those built later too);
        # `words` given here reach the worker with its start, without a wait.
        self._extra: dict[str, tuple[str, ...]] = {w: tuple(p) for w, p in (words or {}).items()}
        self._main = Decoder(self._ps, options, self._extra)
        self._lock = threading.Lock()
        self.verify = verify
        if parallel is None:
            parallel = (os.cpu_count() or 1) >= 2
        hmm_dir = str(options.get("hmm") or self._main.decoder.config["hmm"])
        # The competitor (the slowest decode: the wide grammar) gets a worker; the other front
        # end is decoded here, after the main decode, while the competitor runs.
        self._second = _Role(self._ps, {**options, **COMPETITOR_OPTIONS}, self._extra,
                             parallel and verify)
        self._third = _Role(self._ps, {**options, "hmm": model_dir(hmm_dir, VERIFIER_FEATURES)},
                            self._extra, False)

    @property
    def parallel(self) -> bool:
        """Whether the competitor is decoded in a worker process now."""
        return self._second.parallel

    def close(self) -> None:
        """Stop the worker processes (decoding goes on here if used again)."""
        self._second.close()
        self._third.close()

    def add_words(self, pronunciations: Mapping[str, Sequence[str]]) -> None:
        """Teach every decoder these words (CMU phones) where its dictionary lacks them."""
        with self._lock:
            self._extra.update({w: tuple(p) for w, p in pronunciations.items()})
            self._main.add_words(pronunciations, pronunciations)
            self._second.add_words(pronunciations)
            self._third.add_words(pronunciations)

    def known(self, word: str) -> bool:
        """Whether the decoders can say `word` (in the dictionary, or added)."""
        return self._main.decoder.lookup_word(word) is not None

    def words(self, pcm: bytes, grammar: Grammar) -> str:
        """The raw words of the main decode only (diagnostics)."""
        with self._lock:
            return self._main.decode(condition(pcm), (grammar.search, lambda: grammar.jsgf))

    def recognize_grammar(self, pcm: bytes, grammar: Grammar, wide: Grammar,
                          read: Callable[[str], str | None],
                          settled: Callable[[str], float | None] | None = None,
                          asking: Collection[str] = ()) -> Recognition:
        """Recognize against a caller's grammar with the same three-way agreement.

        `wide` is the competitor's grammar (every form the caller accepts anywhere); `read`
        turns decoded words into a canonical command valid now, or None; `settled` gives the
        confidence of commands whose handling the third decode cannot change (None: decode).
        `asking` is Whisper's (pocketsphinx writes no free transcript to look at).
        """
        audio, margin = prepare(pcm)
        return self._agree(audio, (grammar.search, lambda: grammar.jsgf),
                           (wide.search, lambda: wide.jsgf), read, margin, settled)

    def _agree(self, audio: bytes, search: Search, wide: Search,
               read: Callable[[str], str | None], margin: float | None = None,
               settled: Callable[[str], float | None] | None = None) -> Recognition:
        noisy = margin is not None and margin < MIN_MARGIN
        with self._lock:
            # In parallel the competitor starts before the main decode and runs beside it
            # (then beside the other front end); when it is not needed its words are dropped.
            early = self.verify and not noisy and self.parallel
            competitor = self._second.start(audio, wide) if early else None
            words = self._main.decode(audio, search)
            command = read(words) if words else None
            if command is None or (noisy and command not in ALWAYS_ANSWERED):
                # No complete path, words that make no valid command, or too much noise to
                # trust anything but a question: refuse.
                return Recognition(None, 0.0, words, margin)
            fixed = settled(command) if settled is not None else None
            if not self.verify:
                return Recognition(command, HIGH if fixed is None else fixed, words, margin)
            third = None
            if competitor is not None and fixed is None:
                # Made while the competitor decodes in its worker: it costs no time there.
                third = self._third.start(audio, search)()
            other = (competitor or self._second.start(audio, wide))()
            if not other or read(other) != command:
                # Measured: alone, the context decode is wrong 20-35% of the time on synthetic
                # voices; when the whole grammar hears something else, refuse.
                return Recognition(None, 0.0, words, margin)
            if fixed is not None:  # the third decode would change nothing
                return Recognition(command, fixed, words, margin)
            if third is None:
                third = self._third.start(audio, search)()
        agrees = bool(third) and read(third) == command
        return Recognition(command, HIGH if agrees else LOW, words, margin)
