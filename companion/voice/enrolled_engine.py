"""Whisper with a player's enrolled words beside it (issue 25, part 2).

`EnrolledEngine` offers a game's recognizer what the Whisper engine offers
(`recognize_grammar`, `recognize_phrases`, …) and passes each utterance to Whisper;
as soon as Whisper has encoded it, while its beam decodes, the encoder's frames of the
speech (its last layer, the decode's own pass, beside its middle layer: `Frames`) are
compared with the player's recordings (enrolled.py), and the two readings are combined
(`enrolled.combine`: agreement applies, disagreement asks).

Templates: each recording's frames, and noisy copies of it (white and pink noise, and
babble made of the player's own other recordings, at 10 and 6 dB), so that speech heard
at a noisy table meets recordings that were noisy too; every copy cut to the frames of
the word itself, and every frame weighted by how loud it was in the clean recording
(`frame_weights`) (where the clean recording has speech: the noise around it is not part of
the word, and what is heard is searched for the word, enrolled.py); made once per profile
and model and kept beside the recordings (`features_path`).
"""

from __future__ import annotations

import threading
import zipfile
import zlib
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path
from typing import Any

import numpy as np

from companion.voice.enrolled import EnrolledVoice, Match, beside, unit_rows
from companion.voice.sphinx import Grammar, Recognition, speech_span
from companion.voice.word_profiles import WordProfile

RATE = 16000
FRAME_SAMPLES = 320  # Whisper's encoder: 50 frames a second
PAD_SECONDS = 0.4
# Noisy copies of each recording: (kind, SNR dB). Measured on the free spoken digit dataset
# (docs/voice.md "The player's own voice").
NOISY_COPIES: tuple[tuple[str, float], ...] = (
    ("white", 10.0), ("pink", 10.0), ("babble", 10.0),
    ("white", 6.0), ("pink", 6.0), ("babble", 6.0))
Encode = Callable[[bytes], np.ndarray]


def _samples(pcm: bytes) -> np.ndarray:
    return np.frombuffer(pcm, dtype=np.int16).astype(np.float64)


# The templates' form: features files of another form are made again.
FORM = "word4"
# A frame is the encoder's last layer and its middle layer side by side, each of unit
# length and weighted so that the cosine distance of two frames is this mix of the two
# layers' own (`Frames`). The middle layer's distances are about half the last's: with
# these weights a frame's distance is 0.6 of the last layer's and 0.8 of the middle's,
# over 1.4. Measured on the tuning speakers (docs/voice.md "The player's own voice").
LAST_WEIGHT = 3 / 7
MIDDLE_WEIGHT = 4 / 7
# The middle layer's shortest window (`Frames.middle`): the same figures as over the
# decode's 10 s on the tuning speakers, for a third to a fifth of the time.
MIDDLE_SECONDS = 2.0


def _span(pcm: bytes) -> tuple[int, int]:
    return speech_span(np.frombuffer(pcm, dtype=np.int16).tolist())


def span_frames(frames: np.ndarray, start: int, end: int) -> np.ndarray:
    """The encoder frames of the samples from `start` to `end` (at least three)."""
    first = start // FRAME_SAMPLES
    last = max(first + 3, -(-end // FRAME_SAMPLES))
    return np.asarray(frames[first:min(last, len(frames))])


def speech_frames(frames: np.ndarray, pcm: bytes) -> np.ndarray:
    """The encoder frames of the speech in `pcm` (by the energy span sphinx.speech_span
    finds)."""
    return span_frames(frames, *_span(pcm))


class Frames:
    """What the enrolled words compare, per 20 ms of sound (an `Encode`): the Whisper
    encoder's last layer (the decode's own pass, `engine.encode`) beside its middle layer,
    from a copy of the model whose encoder stops there (whisper_model.middle_encoder, made
    once). In babble the last layer alone lost the word more often: the middle one keeps
    more of how the player said it (docs/voice.md)."""

    def __init__(self, engine: Any) -> None:
        import ctranslate2

        from companion.voice.reasons import explained
        from companion.voice.whisper_model import ModelMissing, middle_encoder

        self.engine = engine
        engine.ready()
        try:
            self._middle = ctranslate2.models.Whisper(
                str(middle_encoder(engine.path)), device="cpu", compute_type="int8",
                intra_threads=1)
        except (OSError, ValueError, RuntimeError) as failed:  # ct2_file.ModelFormat too
            raise explained(ModelMissing, "whisper_not_loaded", folder=str(engine.path),
                            detail=str(failed)) from failed

    def middle(self, pcm: bytes) -> np.ndarray:
        """The middle layer's frames of `pcm`, over a window as long as the sound (whole
        seconds, at least MIDDLE_SECONDS): the cost is about proportional to the window
        (base's middle encoder, one thread: 93 ms over the decode's 10 s, 17 ms over 2 s)."""
        import ctranslate2

        features = self.engine.features(pcm, MIDDLE_SECONDS)
        return np.asarray(self._middle.encode(ctranslate2.StorageView.from_array(
            features[None]), to_cpu=True))[0]

    def __call__(self, pcm: bytes, last: np.ndarray | None = None) -> np.ndarray:
        """Both layers of `pcm`, as far as both reach (the middle's window may be shorter:
        it still holds all the sound); `last` when already made (`EnrolledEngine` is given
        it as Whisper encodes)."""
        if last is None:
            last = self.engine.encode(pcm)
        middle = self.middle(pcm)
        n = min(len(last), len(middle))
        return np.concatenate([np.sqrt(LAST_WEIGHT) * unit_rows(last[:n]),
                               np.sqrt(MIDDLE_WEIGHT) * unit_rows(middle[:n])], axis=1)


def _pink(n: int, rng: np.random.Generator) -> np.ndarray:
    spectrum = np.fft.rfft(rng.standard_normal(n))
    f = np.arange(len(spectrum), dtype=np.float64)
    f[0] = 1.0
    return np.fft.irfft(spectrum / np.sqrt(f), n)


def noisy_copy(pcm: bytes, kind: str, snr: float, others: Sequence[bytes],
               seed: int) -> bytes:
    """`pcm` padded with PAD_SECONDS each side and `kind` noise added at `snr` dB against
    its loud part; babble is three of `others` (the player's other recordings) at once."""
    rng = np.random.default_rng(seed)
    speech = _samples(pcm)
    pad = np.zeros(int(PAD_SECONDS * RATE))
    x = np.concatenate([pad, speech, pad])
    if kind == "white":
        noise = rng.standard_normal(len(x))
    elif kind == "pink":
        noise = _pink(len(x), rng)
    else:
        noise = np.zeros(len(x))
        for i in rng.choice(len(others), min(3, len(others)), replace=False):
            src = _samples(others[int(i)])
            src = np.tile(src, len(x) // max(1, len(src)) + 2)
            start = int(rng.integers(len(src) - len(x)))
            noise += src[start:start + len(x)]
    loud = np.abs(speech) > 0.05 * max(1.0, float(np.abs(speech).max()))
    power = float(np.mean(speech[loud] ** 2)) if loud.any() else 1.0
    noise *= np.sqrt(power / (max(1e-9, float(np.mean(noise ** 2))) * 10 ** (snr / 10)))
    return np.clip(np.round(x + noise), -32768, 32767).astype("<i2").tobytes()


# A recorded frame's weight in the alignment (enrolled._aligned): 1 for the word's loud
# frames (its 95th percentile of power), falling linearly to WEIGHT_FLOOR at WEIGHT_RANGE dB
# below them. Noise covers a word's quiet onsets and endings first; counted as much as its
# vowels, they made the nearest word a wrong one in noise. Chosen on the tuning sets (the
# synthetic French, Spanish and Ukrainian stand-ins and the real digit speakers; 10, 15 and
# 20 dB ranges within half a point of each other): nearest word right 88.4 -> 90.8% at
# 10 dB, 78.8 -> 81.7% at 6 dB, clean unchanged (docs/voice.md "Loud frames count more").
WEIGHT_RANGE = 10.0
WEIGHT_FLOOR = 0.15


def frame_weights(pcm: bytes) -> np.ndarray:
    """The weight of each encoder frame of the speech in `pcm` (the frames `speech_frames`
    keeps), by its loudness (WEIGHT_RANGE, WEIGHT_FLOOR)."""
    samples = _samples(pcm)
    start, end = _span(pcm)
    first = start // FRAME_SAMPLES
    last = max(first + 3, -(-end // FRAME_SAMPLES))
    power = np.array([float(np.mean(samples[f * FRAME_SAMPLES:(f + 1) * FRAME_SAMPLES] ** 2))
                      if f * FRAME_SAMPLES < len(samples) else 0.0
                      for f in range(first, last)])
    level = 10 * np.log10(power + 1.0)
    loud = float(np.percentile(level, 95))
    return np.clip((level - (loud - WEIGHT_RANGE)) / WEIGHT_RANGE, WEIGHT_FLOOR, 1.0)


def template_weights(recordings: Mapping[str, Sequence[bytes]],
                     copies: Sequence[tuple[str, float]] = NOISY_COPIES
                     ) -> dict[str, list[np.ndarray]]:
    """Each template's frame weights, in `templates`' order: a noisy copy counts its frames
    as the clean recording's (it is cut to the same speech)."""
    return {word: [w for pcm in takes for w in [frame_weights(pcm)] * (1 + len(copies))]
            for word, takes in recordings.items()}


def enrolled_voice(made: Mapping[str, Sequence[np.ndarray]],
                   recordings: Mapping[str, Sequence[bytes]],
                   copies: Sequence[tuple[str, float]] = NOISY_COPIES) -> EnrolledVoice:
    """The voice of `made` templates (`templates` of `recordings` with `copies`), each
    frame weighted."""
    return EnrolledVoice(made, len(copies), template_weights(recordings, copies))


def templates(recordings: Mapping[str, Sequence[bytes]], encode: Encode,
              copies: Sequence[tuple[str, float]] = NOISY_COPIES
              ) -> dict[str, list[np.ndarray]]:
    """Each word's templates: every recording's speech frames and its noisy copies' frames
    of the same speech (the copies are padded: the span moves by the pad)."""
    out: dict[str, list[np.ndarray]] = {}
    pad = int(PAD_SECONDS * RATE)
    for word, takes in recordings.items():
        others = [p for w, ps in recordings.items() if w != word for p in ps] or list(takes)
        found = []
        for n, pcm in enumerate(takes):
            start, end = _span(pcm)
            found.append(span_frames(encode(pcm), start, end))
            for k, (kind, snr) in enumerate(copies):
                noisy = noisy_copy(pcm, kind, snr, others, seed=1000 * n + k)
                found.append(span_frames(encode(noisy), start + pad, end + pad))
        out[word] = found
    return out


def features_path(profile: WordProfile, model: str,
                  copies: Sequence[tuple[str, float]] = NOISY_COPIES) -> Path:
    """Where the templates of `profile` for `model` (with `copies`) are kept."""
    form = FORM if tuple(copies) == NOISY_COPIES else "-".join(
        [FORM, *(f"{kind}{snr:g}" for kind, snr in copies)] if copies else [FORM, "clean"])
    return profile.features_file(f"{model}-{form}")


def load_voice(profile: WordProfile, encode: Encode, model: str,
               copies: Sequence[tuple[str, float]] = NOISY_COPIES) -> EnrolledVoice:
    """The profile's enrolled voice for one model: its templates (each recording and its
    noisy `copies`) from the features file, or made from the recordings (and kept) when
    that file is missing or older."""
    path = features_path(profile, model, copies)
    recordings = profile.recordings()
    newest = max((p.stat().st_mtime for p in profile.root.glob("*.wav")), default=0.0)
    if path.is_file() and path.stat().st_mtime >= newest:
        found = _kept(path)
        if set(found) == set(recordings):
            return enrolled_voice(found, recordings, copies)
    # Kept as half floats, and used as kept (a file read later gives the same voice): a
    # frame's distances move by about 1e-4, and the file is a quarter of float64's (other
    # voices' words, 1848 templates: 398 MB before).
    made = {w: [np.asarray(t, dtype=np.float16) for t in ts]
            for w, ts in templates(recordings, encode, copies).items()}
    arrays = {f"{w}#{i}": t for w, ts in made.items() for i, t in enumerate(ts)}
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("wb") as out:
        np.savez_compressed(out, **arrays)  # type: ignore[arg-type]
    return enrolled_voice(made, recordings, copies)


def _kept(path: Path) -> dict[str, list[np.ndarray]]:
    """The templates kept in a features file; none when it cannot be read (cut short by a
    full disk or a stopped copy): they are made again from the recordings."""
    found: dict[str, list[np.ndarray]] = {}
    try:
        with np.load(path) as kept:
            for key in kept.files:
                found.setdefault(key.rsplit("#", 1)[0], []).append(kept[key])
    except (OSError, ValueError, EOFError, zipfile.BadZipFile, zlib.error):
        return {}
    return found


class Closed(RuntimeError):
    """The engine was closed while its templates were being made (none are kept)."""


class EnrolledEngine:
    """A Whisper engine and a player's enrolled words: what a game's recognizer drives."""

    def __init__(self, engine: Any, profile: WordProfile,
                 unusable: Callable[[Exception], None] | None = None, *, own: bool = True,
                 prepare: Callable[[Callable[[], bool]], object] | None = None,
                 copies: Sequence[tuple[str, float]] = NOISY_COPIES) -> None:
        """`unusable(error)`: called once, from the loading thread, when the words cannot
        be used (a recording that cannot be read, no middle encoder); Whisper alone then
        listens, and the caller says why. `own`: the words are the player's own (else
        other voices', stand_ins.py: they only agree or fill in, `enrolled.filled`);
        `prepare(stopped)`: run first on the loading thread (making the recordings; to end
        early when `stopped()`); `copies`: the noisy copies made of each recording."""
        self.engine = engine
        self.profile = profile
        self.own = own
        self._prepare = prepare
        self._copies = tuple(copies)
        self._unusable = unusable
        self.voice: EnrolledVoice | None = None
        self.frames: Frames | None = None
        self.last_match: Match | None = None
        self.last_heard: Recognition | None = None  # Whisper's own, before the match's say
        # The utterance being decoded, and its match (the middle layer first) begun as soon
        # as Whisper has encoded it (`_encoded`), while its beam decodes.
        self._expected: bytes | None = None
        self._early: tuple[bytes, Future[Match | None]] | None = None
        self._loaded = threading.Event()
        # Templates are made between the player's utterances (`_idle`), never while one is
        # decoded: made at a first game (other voices' words take minutes), they would slow
        # every decode meanwhile. Closing ends the making at the next recording.
        self._idle = threading.Event()
        self._idle.set()
        self._closing = threading.Event()
        self._loader = threading.Thread(target=self._load, name="enrolled-load", daemon=True)
        self._loader.start()
        # The middle layer and the match are made while Whisper's beam decodes (their own
        # thread: 20-40 ms a decode that the player would otherwise wait for after Whisper's).
        self._beside = ThreadPoolExecutor(max_workers=1, thread_name_prefix="enrolled-match")

    def _load(self) -> None:
        try:
            if self._prepare is not None:
                self._prepare(self._closing.is_set)
            self.frames = Frames(self.engine)
            self.voice = load_voice(self.profile, self._between(self.frames),
                                    self.engine.path.name, self._copies)
        except Exception as error:  # a broken profile, or no middle encoder: Whisper alone
            self.voice = None
            if self._unusable is not None and not self._closing.is_set():  # (not play's end)
                self._unusable(error)
        finally:
            self._loaded.set()

    def _between(self, encode: Encode) -> Encode:
        """`encode`, waiting while an utterance is decoded; Closed once closing."""
        def patient(pcm: bytes) -> np.ndarray:
            self._idle.wait()  # (closing sets it too)
            if self._closing.is_set():
                raise Closed("the recognizer was closed while its words were made")
            return encode(pcm)
        return patient

    def ready(self, timeout: float | None = None) -> bool:
        return self._loaded.wait(timeout) and self.engine.ready(timeout)

    def __getattr__(self, name: str) -> Any:  # lang, reads_begun, known, add_words, words…
        return getattr(self.engine, name)

    def close(self) -> None:
        self._closing.set()
        self._idle.set()
        self._expected = None
        if getattr(self.engine, "on_encoded", None) == self._encoded:
            self.engine.on_encoded = None
        self.engine.close()
        self._loader.join()
        self._beside.shutdown(wait=True)

    def _begin(self, pcm: bytes) -> None:
        """The match of `pcm` to begin once Whisper has encoded it (the engine may be shared:
        only this utterance's encoding begins it; none before the voice is loaded)."""
        self._idle.clear()
        self._early = None
        self._expected = pcm if self.voice is not None and self.frames is not None else None
        self.engine.on_encoded = self._encoded

    def _encoded(self, pcm: bytes, encoded: Any) -> None:
        """Whisper's encoder has made `pcm`'s last layer (called in its decode, before the
        beam): the middle layer and the match are made beside the beam, which leaves a core
        partly idle (a decode's CPU is about 1.5 times its wall). Begun with the decode,
        the middle layer took a core from Whisper's encoder, which uses both."""
        if pcm is not self._expected or self._early is not None:
            return
        last = np.asarray(encoded)[0]
        try:
            self._early = (pcm, self._beside.submit(self._match_now, pcm, last))
        except RuntimeError:  # closed meanwhile: Whisper's decode goes on, no match
            return

    def _match_now(self, pcm: bytes, last: np.ndarray) -> Match | None:
        voice, frames = self.voice, self.frames
        if voice is None or frames is None:
            return None
        return voice.match(speech_frames(frames(pcm, last=last), pcm))

    def _match(self, pcm: bytes) -> Match | None:
        early, self._early, self._expected = self._early, None, None
        if early is not None and early[0] is pcm:
            self.last_match = early[1].result()
            return self.last_match
        # Whisper never encoded it (silence) or is another engine: made now, the products
        # shared with the idle thread.
        if not self._loaded.is_set():
            if not self.own:
                return None  # other voices' words still being made: Whisper alone
            self._idle.set()  # the player's own words are made while this waits for them
            self._loaded.wait()
        if self.voice is None or self.frames is None or not pcm:
            return None
        frames = speech_frames(self.frames(pcm), pcm)
        self.last_match = self.voice.match(frames, self._beside)
        return self.last_match

    def recognize_grammar(self, pcm: bytes, grammar: Grammar, wide: Grammar | None,
                          read: Callable[[str], str | None],
                          settled: Callable[[str], float | None] | None = None,
                          **more: Any) -> Recognition:
        self._begin(pcm)
        try:
            heard = self.engine.recognize_grammar(pcm, grammar, wide, read, settled, **more)
            return self._combined(heard, pcm, read, settled)
        finally:
            self._idle.set()

    def recognize_phrases(self, pcm: bytes, phrases: Sequence[str],
                          read: Callable[[str], str | None], **more: Any) -> Recognition:
        self._begin(pcm)
        try:
            heard = self.engine.recognize_phrases(pcm, phrases, read, **more)
            return self._combined(heard, pcm, read, more.get("settled"))
        finally:
            self._idle.set()

    def _combined(self, heard: Recognition, pcm: bytes, read: Callable[[str], str | None],
                  settled: Callable[[str], float | None] | None) -> Recognition:
        self.last_heard = heard
        match = self._match(pcm)
        voice = self.voice
        return beside(heard, match, read, self.engine.lang,
                      None if voice is None else voice.words, settled, own=self.own)
