"""Other voices' words, for a player who has not enrolled their own (issue 25; French).

Without enrolment Whisper alone listens, and at a noisy table it refuses most one-word
commands ("please repeat"). The game's enrolment words said by espeak-ng's voices of the
language (`VOICES`: six voices and variants, at two speeds; espeak-ng is what the companion
speaks with, so it is on the machine) stand in for the player's recordings. They are made
once per game and language in the user's data folder (`profile`, `prepare`), in the
background at the first game with voice (Whisper alone listens meanwhile), and compared
with what is heard as a player's own words are (enrolled_engine.EnrolledEngine).

They are not the player's voice, so they only agree with Whisper or fill in where it heard
nothing valid, and what they fill in is asked about (`enrolled.filled`):
measured on the benchmark's listener voices, never on espeak-ng's (benchmarks/
stand_in_words.py, docs/voice.md "Other voices' words in play").
"""

from __future__ import annotations

import subprocess
import wave
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from companion.speech.audio import read_wav
from companion.speech.synth import espeak_binary
from companion.voice.audio import TARGET_RATE as RATE
from companion.voice.profiles import ProfileError
from companion.voice.word_profiles import WordProfile

if TYPE_CHECKING:  # numpy comes with Whisper's extras; the folder is known without them
    import numpy as np

# espeak-ng's voices of each language and their variants (`espeak-ng --voices`, 1.51).
VOICES: dict[str, tuple[str, ...]] = {
    "en": ("en-us", "en-us+m3", "en-us+f2", "en-gb", "en-gb+m3", "en-gb+f2"),
    "fr": ("fr", "fr+m3", "fr+f2", "fr-be", "fr-be+f4", "fr-ch+m7"),
    "es": ("es", "es+m3", "es+f2", "es-419", "es-419+f4", "es+m7"),
    "uk": ("uk", "uk+m3", "uk+f2", "uk+f4", "uk+m7", "uk+klatt"),
}
# Where they listen in play: the languages measured to gain from them in context
# (voice_bench.py --stand-ins, reporting voices; docs/voice.md "Other voices' words in
# play"). French: right 70.4 / 35.2 / 14.8% -> 72.2 / 48.1 / 25.9% at 40 / 20 / 10 dB, no
# wrong command applied. Not Spanish: Pico's words are as far from espeak-ng's as its table
# talk (0.23-0.33 against 0.31-0.39): right unchanged, wrong questions and table talk asked
# about up. Not Ukrainian: espeak-ng's is far from RHVoice's (the match alone 33% right
# clean). Not English: tiny.en hears its one-word commands.
IN_PLAY = frozenset({"fr"})
# (words a minute, pitch 0-99): each word said twice by each voice, as the benchmarks'
# synthetic players enrol (realspeech_bench.SYNTH_ENROL).
SPEEDS: tuple[tuple[int, int], ...] = ((150, 50), (175, 40))
# The noisy copies made of each recording: the 10 dB ones of enrolled_engine.NOISY_COPIES,
# not the 6 dB ones a player's recordings also get. On the French tuning voices' one-word
# commands (benchmarks/stand_in_words.py --copies, one word in two, 132 a level): the same
# right within a clip (92.4 / 35.6 / 30.3% against 92.4 / 36.4 / 28.0% with all six), for
# 1056 templates instead of 1848, about half the match's time and memory. Written out:
# enrolled_engine needs numpy (it comes with Whisper), and `folder` is asked for without it.
COPIES: tuple[tuple[str, float], ...] = (("white", 10.0), ("pink", 10.0), ("babble", 10.0))
# The bank's name among the players' folders' names: made by the companion, never a
# player's (a player's folder is under voices/, this one beside it).
SPEAKER = "espeak-ng"


def folder(voices: Path | None = None) -> Path:
    """Where the banks are kept: beside the players' voices (`voices`, default the user data
    folder's, profiles.voices_dir)."""
    from companion.voice.profiles import voices_dir

    return (voices or voices_dir()).parent / "stand-in-words"


def profile(game: str, lang: str, base: Path | None = None) -> WordProfile:
    """The bank of `game`'s words in `lang` (made by `prepare`)."""
    return WordProfile.named(SPEAKER, game, lang, base or folder())


def resampled(samples: np.ndarray, rate_in: int) -> np.ndarray:
    """`samples` at RATE: band-limited in the frequency domain (below 0.475 of the new
    rate), then interpolated; enough for speech going 22.05 to 16 kHz. Not voice.audio's
    resample: pure Python, it would take about a minute for a bank, and the benchmarks'
    synthetic voices (the figures the bank was chosen on) are made with this one."""
    import numpy as np

    x = np.asarray(samples, dtype=np.float64)
    if rate_in == RATE or not len(x):
        return x
    spectrum = np.fft.rfft(x)
    spectrum[np.fft.rfftfreq(len(x), 1 / rate_in) > 0.475 * RATE] = 0
    x = np.fft.irfft(spectrum, len(x))
    n = int(len(x) * RATE / rate_in)
    return np.interp(np.arange(n) * rate_in / RATE, np.arange(len(x)), x)


def espeak_samples(text: str, voice: str, rate: int, pitch: int, binary: str = "espeak-ng"
                   ) -> np.ndarray:
    """`text` said by espeak-ng's `voice` at `rate` words a minute and `pitch` (0-99), as
    float samples at RATE (16-bit scale)."""
    import numpy as np

    pcm, fmt = read_wav(subprocess.run(
        [binary, "-v", voice, "-s", str(rate), "-p", str(pitch), "--stdout", text],
        capture_output=True, check=True, timeout=30).stdout)
    return resampled(np.frombuffer(pcm, dtype=np.int16).astype(np.float64), fmt.rate)


def espeak(text: str, voice: str, rate: int, pitch: int, binary: str = "espeak-ng"
           ) -> bytes:
    """`espeak_samples` as 16-bit PCM."""
    import numpy as np

    samples = espeak_samples(text, voice, rate, pitch, binary)
    return np.clip(np.round(samples), -32768, 32767).astype("<i2").tobytes()


def recordings(words: Sequence[str], voices: Sequence[str],
               speeds: Sequence[tuple[int, int]] = SPEEDS, binary: str = "espeak-ng",
               stopped: Callable[[], bool] = lambda: False) -> dict[str, list[bytes]]:
    """Each word said by each voice at each speed (NoBank when `stopped()` first)."""
    out: dict[str, list[bytes]] = {}
    for word in words:
        if stopped():
            raise NoBank("stopped")
        out[word] = [espeak(word, voice, rate, pitch, binary)
                     for voice in voices for rate, pitch in speeds]
    return out


class NoBank(RuntimeError):
    """The bank cannot be made here (no espeak-ng, or it refused a voice), or its making
    was stopped."""


def prepare(bank: WordProfile, words: Sequence[str], voices: Sequence[str],
            speeds: Sequence[tuple[int, int]] = SPEEDS,
            stopped: Callable[[], bool] = lambda: False) -> WordProfile:
    """`bank` holding each of `words` said by every voice at every speed: kept as it is when
    it holds exactly those, else made again (the game's words changed), unless `stopped()`
    (NoBank, nothing written)."""
    want = len(voices) * len(speeds)
    try:
        found = bank.recordings() if bank.ready() else {}
    except ProfileError:  # a recording cut short: made again
        found = {}
    if set(found) == set(words) and all(len(found[w]) == want for w in words):
        return bank
    binary = espeak_binary()
    if binary is None:
        raise NoBank("espeak-ng is not installed")
    try:
        made = recordings(words, voices, speeds, binary, stopped)
    except (OSError, subprocess.SubprocessError, wave.Error, EOFError) as failed:
        raise NoBank(f"espeak-ng could not say the words: {failed}") from failed
    if bank.root.is_dir():
        for old in (*bank.root.glob("*.wav"), *bank.root.glob("*.txt"),
                    *bank.root.glob("*.npz")):
            old.unlink()
    for word, takes in made.items():
        for pcm in takes:
            bank.save(pcm, word)
    return bank


def listening(engine: Any, game: str, lang: str, words: Sequence[str],
              base: Path | None = None) -> Any:
    """Whisper's `engine` with the stand-in words of `game` in `lang` beside it (made on the
    loading thread at the first game, kept in `base`, default `folder()`); `engine` itself
    where none listen in `lang` or the game has no words to enrol there."""
    if lang not in IN_PLAY or not words or not hasattr(engine, "encode"):
        return engine
    from companion.voice.enrolled_engine import EnrolledEngine

    bank = profile(game, lang, base)

    def made(stopped: Callable[[], bool]) -> WordProfile:
        return prepare(bank, words, VOICES[lang], stopped=stopped)

    # (`unusable` unset: where the words cannot be made, Whisper alone listens as without
    # them; nothing the player could do about it is worth a sentence.)
    return EnrolledEngine(engine, bank, own=False, prepare=made, copies=COPIES)
