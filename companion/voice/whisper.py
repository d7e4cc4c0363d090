"""The Whisper recognizer (CTranslate2), held to the game's grammar.

It offers what the Sphinx engine offers a game (`recognize_grammar(pcm, grammar, wide, read,
settled)`, `known`, `add_words`, `words`, `close`) and what the Vosk one offers
(`recognize_phrases(pcm, phrases, read)`, `lang`), so a game's recognizer drives it
unchanged. One utterance: Whisper's log-mel features in a short window (`WINDOW` s, not
30 s: measured in docs/voice.md), the grammar's words as the prompt, `BEAMS` hypotheses with
a capped length (`MAX_TOKENS`: one decode looped for 1.8 s without a cap); each hypothesis
aligned to the grammar (mapper.py) and read by the game; one confidence from the
hypotheses' probabilities and how far each was from the grammar. In a language with a
calibrated confidence (calibration.py: English, Ukrainian) the beam may write only the
tokens that spell the context's words (`CONSTRAIN`), the valid commands are
rescored with the model's likelihood (rescore.py) against a free greedy transcript, and the
confidence is calibration.py's. Below `REFUSE_BELOW` refused (with the free beam, a move from
`ASK_MOVES_FROM` is asked about); the policy asks about the rest below its threshold.

The model loads in a background thread from the constructor (`ready()` waits for it), so a
game's first prompt is not delayed. On two cores or more it runs as two workers sharing the
weights (`WORKERS`), and a decode's independent passes run two at a time (`together`): the
free transcript beside the limited beam, the rescored sentences in two halves.
`cancel()` abandons the decode in flight: it stops between its stages (features, encoder,
decoder, mapping) and raises `Cancelled`; no thread outlives its decode.
"""

from __future__ import annotations

import math
import os
import threading
from collections import OrderedDict
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from companion.voice import calibration, yesno
from companion.voice.decoders import Cancelled
from companion.voice.mapper import (
    Graph,
    align,
    collapse_repeats,
    join_splits,
    jsgf_graph,
    phrases_graph,
    phrases_spelling,
    said_once,
    split_runs,
    vocabulary,
    words_of,
)
from companion.voice.policy import CONFIRM_THRESHOLD
from companion.voice.reasons import explained
from companion.voice.rescore import TEMPERATURE, Scorer, Scores, candidates, score
from companion.voice.shared_words import CANCEL, QUIT, help_offered, said_otherwise
from companion.voice.sphinx import (
    ALWAYS_ANSWERED,
    Grammar,
    Recognition,
    capped,
    is_move,
    uncalibrated,
)
from companion.voice.whisper_model import ModelMissing, find_model, log_mel

WINDOW = 10.0  # seconds of audio the encoder sees (padded): 30 s costs twice the time
BEAMS = 5
# A command is a dozen tokens in English (twenty with stutters): past that a decode loops
# (one looped for 1.8 s uncapped; on chatter the limited beam loops to the cap, the slowest
# decodes). Other languages spell their words in more tokens (Cyrillic most).
MAX_TOKENS = 24
MAX_TOKENS_OTHER = 40
MAX_PROMPT_TOKENS = 120
# The other languages spell their words in more tokens: cut at 120, the prompt of the
# French action context lost the questions and about 17 words ("compétition", "don",
# "défausse", "bleu", "anju"...). 223 is the longest prompt Whisper takes (half its
# 448-token context, less one): French and Spanish contexts fit whole. For the languages
# with the free beam: the calibrated ones (English, Ukrainian) keep 120.
MAX_PROMPT_TOKENS_OTHER = 223
# A free-beam prompt longer than this loses the words said whole inside another of its
# words (`lean_prompt`): every decoding step attends to the whole prompt, so the French
# action context's decodes took about 15 ms less (docs/voice.md). A short prompt is left
# as it is: any change to a prompt moves some decodes (the quiz's "sept" flipped).
LEAN_ABOVE = 160
COST_SCALE = 2.0  # confidence lost per unit of alignment cost per word
# The worst single step of a mapping (a word replaced, skipped or missing): free up to
# WORST_FREE, no confidence left at WORST_LIMIT.
WORST_FREE = 0.3
WORST_LIMIT = 0.8
REFUSE_BELOW = 0.4
# With the free beam (French, Spanish) every move is asked about (sphinx.uncalibrated), so
# a move read from ASK_MOVES_FROM up to REFUSE_BELOW is asked rather than refused. Replayed
# on the three tuning runs (French voices seeds 11 and 77, 44 and 55; Spanish Pico 11 and
# 77; 612 commands): 11 more right, none more wrong; from 0.25, 14 more right and 4 more
# wrong asked about (docs/voice.md).
ASK_MOVES_FROM = 0.3
# A text mapper this unsure of the limited beam's words does not veto rescoring (`agree`).
MAPPER_UNSURE = 0.2
# A reading one word short (a list with a card not heard: `begun`) is taken when the
# hypotheses point to it this surely (the text mapper's share); it changes nothing in a
# game: the player is asked for the word.
BEGUN_FLOOR = 0.5
RESCORE = True  # rescore the valid commands with the model's likelihood (rescore.py)
RESCORE_BELOW = 0.9  # ... when the text mapper's confidence is below this
# In the languages that keep the free beam (no calibrated confidence: French, Spanish) the
# right command read by one hypothesis in five ("le dépôt" among four "le dipoule") was
# refused at the mapper's share. Such a reading is rescued (`rescue`) when the model's own
# likelihood agrees: every hypothesis that reads as a command reads as this one, it is the
# best of the scored grammar sentences by RESCUE_SHARE of their likelihood (per token, at
# calibration's temperature), and the likeliest free hypothesis is at most RESCUE_LEAD nats
# per token above it (speech the grammar does not hold is far likelier free). A rescued
# command is always asked about (RESCUED, under the policy's threshold). The settings were
# replayed on the French tuning voices and seeds (mb-fr1, fr3, fr5; 11 and 77) among
# shares 0.3-0.9, leads 0-2 and floors -0.5 to none: none applied a wrong command unasked;
# looser ones were right a little more often and asked about more wrong commands
# (docs/voice.md, "French, Spanish and Ukrainian with voices a listener accepts").
RESCUE = True
RESCUE_SHARE = 0.5
RESCUE_LEAD = 0.5
RESCUE_FLOOR = -3.0  # ... and that sentence at least this likely (nats per token)
# The sentences scored: the hypotheses' readings and their neighbours, and (RESCUE_SHORT)
# every command of one phrase valid now (`short_commands`): "dépôt" written "du poule" by
# every hypothesis reads as nothing, so no neighbour of a reading holds it.
RESCUE_SHORT = True
RESCUED = 0.6
# The beam may only write tokens that spell the context's words (and punctuation), in the
# languages calibration.py has a model for. Its hypotheses then always read as grammar
# sentences, so chatter is measured against a free greedy transcript and the confidence is
# calibration.py's model of both decodes (docs/voice.md: fitted on tuning seeds, reported
# on others).
CONSTRAIN = True
PUNCTUATION = (",", ".", "?", "!", "...")
LOOP = 3  # a transcript of one word this many times or more is a loop, not speech
# The limited beam loops on chatter ("The, the, the, …") to MAX_TOKENS, the slowest decodes:
# no run of this many tokens twice. Four cards alike said alike ("anju, anju, anju, anju":
# a unit of up to three tokens, four times) need more than three units: ten.
NO_REPEAT = 10
# Scoring (teacher forcing through `align`) in batches of this many sentences: a larger batch
# costs more than linearly here (24 at once: 3.4 times the time of three batches of 8).
SCORE_BATCH = 8
# Each context's list of forbidden tokens is about 50,000 numbers (2 MB); every offer and
# every pair of pairs is a context of its own, so a long game kept hundreds (measured: 17
# gift offers held 35 MB). A miss costs 3 ms: keep the few most recent (and as many
# prompts, a few hundred tokens each, which cost 0.7 ms to make again).
LIMITS_KEPT = 8
# Scoring sees the encoder's frames of the speech plus this margin, not the padded window:
# the same log-likelihoods to about 0.3 nats, two to three times faster (docs/voice.md).
SCORE_MARGIN = 1.0
FRAMES_PER_SECOND = 50  # Whisper's encoder output
# An answer is scored (yesno.heard_as) on at least this much speech's frames (plus the
# margin): cut to a short word's 0.7 s and its margin, espeak-ng's clear "так" scored
# " Так." at -4.9 nats per token, -0.7 with one second more (the settings were measured on
# clips of a second or more).
ANSWER_SECONDS = 1.0
WORKERS = 2  # passes of one decode run at once (the model's replicas), on 2 cores or more
# A BLAS thread count the player set stands (one_blas_thread).
BLAS_THREAD_VARIABLES = ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS")
LARGE_MODEL_BYTES = 100_000_000  # `large`: between tiny.en's weights and base's
# How CTranslate2 computes (the weights quantized at load): "int8" (measured against
# "float32" in docs/voice.md, "Computing in full precision").
COMPUTE_TYPE = "int8"
SILENCE_RMS = 60.0  # 16-bit units: quieter than this is no speech at all

# (command or None, confidence, the grammar words it was read from): one reading's verdict.
Mapped = tuple[str | None, float, str]


@dataclass(frozen=True)
class _Utterance:
    """One utterance as decoded: what every stage of `_recognize` after the decodes reads."""

    pcm: bytes
    generation: int
    seconds: float
    hyps: list[tuple[str, float]]
    encoded: Any
    free_text: str | None
    reading: Callable[[str], tuple[float, str, str] | None]
    english: bool
    constrained: bool

    @property
    def calibrated(self) -> bool:
        """English, or a language whose limited beam has a calibrated confidence."""
        return self.english or self.constrained

    @property
    def written(self) -> str | None:
        """What Whisper wrote freely: beside a limited beam its free transcript, else (a
        free beam: French, Spanish, Ukrainian) the beam's own best hypothesis."""
        if self.free_text is not None:
            return self.free_text
        return self.hyps[0][0] if self.hyps else None

    def words(self, text: str) -> list[str]:
        return words_of(text, self.english)


# What the free transcript beside a limited beam may say for itself (`_asked_freely`): a
# question or setting (answered, a sentence's cost), and quit, which the beam is not given
# in play and the policy always asks about. Not cancel: a free " No." while a list is
# begun would drop it.
FREELY_TAKEN = ALWAYS_ANSWERED - {CANCEL} | {QUIT}
# How near the phrases read only from it a free transcript must be (read_hypothesis's fit)
# to be read as one of them (`_asked_freely`): Ukrainian's questions and quit written a
# letter off fitted 0.39 to 0.90 (" В що мені робити?", " Скажі ще раз."), table talk
# at most 0.21 (" Допоможемо." near "допоможи"; " Як справи?" near "як грати" 0.13).
FREELY_FIT = 0.3


def written_only(bag: Sequence[str], read_only: Collection[str],
                 read: Callable[[str], str | None], lang: str) -> tuple[str, ...]:
    """The phrases of `bag` taken only from what Whisper wrote, never rescued by the
    model's likelihood: quit read only (in play), whose prior favours a sign-off (subtitles
    end "Adiós.", "Au revoir."; offered to the rescue it outscored a right "trébol" and
    took a French " voilà." for quit: voice_bench, in context), and a question said another
    way ("combien de points": `said_otherwise`)."""
    otherwise = said_otherwise(lang)
    return tuple(p for p in bag if p in read_only and (p in otherwise or read(p) == QUIT))


def read_near(written: str, freely: Sequence[str], read: Callable[[str], str | None],
              english: bool, lang: str) -> str | None:
    """The command of the phrase of `freely` that `written` (a free transcript's words) is
    near, aligned as every reading aligns (`read_hypothesis`, `lang`'s sound keys) and
    fitting by FREELY_FIT, two words that spell one of theirs joined first (" Хто ви
    грає?"); None where none is."""
    if not freely:
        return None
    graph = phrases_graph(tuple(freely))
    joined = " ".join(join_splits(written.split(), graph.words))
    near = max((r for text in {written, joined}
                if (r := read_hypothesis(text, graph, read, english, lang=lang)) is not None),
               default=None)
    return near[1] if near is not None and near[0] >= FREELY_FIT else None


def asked_first(heard: Recognition, asking: Collection[str],
                offered: Collection[str] = ()) -> Recognition:
    """`heard`, refused when it is a move and the free transcript begins with how the
    language asks: "можеш взяти флейту", said to a neighbour, was written " Можешь взяти
    флейту." freely and "взяти флейту" by the limited beam, which cannot spell "можеш",
    and asked about as a take (a free beam's reading refuses it already: the asking words
    around a move). A question asked so ("можеш повторити") stands. And refused when it is
    help and the free transcript offers help instead (`offered`, help_offered: " Help
    yourself.", " допоможемо" were answered with the help)."""
    if heard.command is None or not heard.transcript:
        return heard
    said = words_of(heard.transcript, english=False)
    if heard.command == "help":
        # two written words spelling one of theirs joined, as the near reading joins them
        # (" До поможемо.")
        phrases = [words_of(phrase, english=False) for phrase in offered]
        joined = join_splits(said, frozenset(w for words in phrases for w in words))
        return replace(heard, command=None) if any(
            _holds(said, words) or _holds(joined, words) for words in phrases) else heard
    if heard.command in ALWAYS_ANSWERED:
        return heard
    for phrase in asking:
        words = words_of(phrase, english=False)
        if words and said[:len(words)] == words:
            return replace(heard, command=None)
    return heard


def _holds(said: Sequence[str], words: Sequence[str]) -> bool:
    """Whether `words` come in a row in `said`."""
    n = len(words)
    return n > 0 and any(list(said[i:i + n]) == list(words) for i in range(len(said) - n + 1))


class WhisperRecognizer:
    """A CTranslate2 Whisper model, loaded in the background; decodes one utterance at a
    time (a second call waits for the first)."""

    reads_begun = True  # its recognize_* take `begun`: a second reading of a refused utterance

    def __init__(self, model: str | os.PathLike[str] | None = None, lang: str = "en",
                 threads: int | None = None, window: float | None = None,
                 beams: int | None = None,
                 rescore: bool = RESCORE, constrain: bool = CONSTRAIN,
                 workers: int | None = None) -> None:
        self.path: Path = find_model(model, lang)  # ModelMissing: said by the caller
        self.lang = lang.lower()[:2]
        # None: the constants as they are now, so a benchmark's --whisper-set reaches them.
        self.window = window or WINDOW
        self.beams = beams or BEAMS
        self.rescore = rescore
        self.constrain = constrain
        # Per context's words, the last LIMITS_KEPT of each: what the beam may not write
        # (`_limit`) and the prompt's tokens (`_prompt`); made once, not at every utterance.
        self._suppressed: OrderedDict[tuple[str, ...], list[int]] = OrderedDict()
        self._prompts: OrderedDict[tuple[str, ...], list[int]] = OrderedDict()
        self.evidence: dict = {}  # the last decode's scored sentences (the benchmark's dump)
        self._last_encoded: tuple[bytes, Any] | None = None
        # Told of each encoder pass as it ends, before the beam: (pcm, its frames). The
        # enrolled recognizer begins its match then, while the beam decodes.
        self.on_encoded: Callable[[bytes, Any], None] | None = None
        cores = os.cpu_count() or 1
        # Two workers (CTranslate2 replicas sharing the weights) run a decode's independent
        # passes at once: the free transcript beside the limited beam, the scored sentences
        # in two halves. With base (the other languages' model) each has two threads where
        # there are two cores: its encoder takes 80 ms on two against 140 ms on one, and an
        # idle 2-core machine decoded French and Spanish 0 to 44 ms faster (median 28) in 7
        # interleaved runs, about 10% slower under a load of 5 to 9. tiny.en's encoder is
        # small: English was slower with two threads a worker in 4 of 6 runs (by 26 and 55 ms
        # in the two runs on the quietest machine; docs/voice.md, "Latency").
        self.workers = workers or (WORKERS if cores >= WORKERS else 1)
        shared = max(1, min(4, cores // self.workers))
        self.threads = threads or (max(shared, min(2, cores)) if large(self.path) else shared)
        self._model: Any = None
        self._tokenizer: Any = None
        self._failure: BaseException | None = None
        self._loaded = threading.Event()
        self._lock = threading.Lock()
        self._generation = 0
        self.load_seconds: float | None = None
        self._loader = threading.Thread(target=self._load, name="whisper-load", daemon=True)
        self._loader.start()

    # -- loading -----------------------------------------------------------------------------
    def _load(self) -> None:
        import time

        started = time.perf_counter()
        # OpenMP's worker threads spin while they wait by default: on a machine whose cores
        # are busy with anything else a decode then took up to 18 s instead of 0.2 s
        # (docs/voice.md). Passive waiting must be asked before the library starts.
        os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")
        try:
            import ctranslate2
            import tokenizers

            one_blas_thread()

            self._model = ctranslate2.models.Whisper(
                str(self.path), device="cpu", compute_type=COMPUTE_TYPE, inter_threads=self.workers,
                intra_threads=self.threads)
            self._tokenizer = tokenizers.Tokenizer.from_file(str(self.path / "tokenizer.json"))
        except Exception as exc:  # a broken model directory: said at the first decode
            self._failure = exc
        self.load_seconds = time.perf_counter() - started
        self._loaded.set()

    def ready(self, timeout: float | None = None) -> bool:
        """Wait for the model (True once loaded; ModelMissing if it could not load)."""
        if not self._loaded.wait(timeout):
            return False
        if self._failure is not None:
            raise explained(ModelMissing, "whisper_not_loaded", folder=str(self.path),
                            detail=str(self._failure))
        return True

    # -- the engine interface the games' recognizers use -------------------------------------
    def known(self, word: str) -> bool:
        return True  # Whisper writes any word; the grammar holds it to the game's

    def add_words(self, pronunciations: Mapping[str, Sequence[str]]) -> None:
        """Nothing to teach: pronunciations are the Sphinx dictionary's concern."""

    def close(self) -> None:
        self.cancel()
        self._loader.join()

    def cancel(self) -> None:
        """Abandon the decode in flight, if any (it raises Cancelled)."""
        self._generation += 1

    def words(self, pcm: bytes, grammar: Grammar) -> str:
        """The best transcript as it came (diagnostics)."""
        hyps = self.transcripts(pcm, vocabulary(jsgf_graph(grammar.jsgf)))
        return hyps[0][0] if hyps else ""

    def recognize_grammar(self, pcm: bytes, grammar: Grammar, wide: Grammar | None,
                          read: Callable[[str], str | None],
                          settled: Callable[[str], float | None] | None = None,
                          begun: tuple[Grammar, Callable[[str], str | None]] | None = None,
                          asking: Collection[str] = ()) -> Recognition:
        """One utterance held to a JSGF grammar (`wide` is the Sphinx competitor's and is
        not needed here); `settled` caps the confidence of commands always asked about;
        `begun`: a grammar and reader of commands that only begin one (a list one card
        short), tried on the same hypotheses when nothing whole was heard; `asking` as for
        phrases ("can you take the tea", to a neighbour: not a take)."""
        second = None if begun is None else (jsgf_graph(begun[0].jsgf), begun[1])
        return self._recognize(pcm, jsgf_graph(grammar.jsgf), read, settled, begun=second,
                               asking=asking)

    def recognize_phrases(self, pcm: bytes, phrases: Sequence[str],
                          read: Callable[[str], str | None],
                          prompt: Sequence[str] | None = None,
                          settled: Callable[[str], float | None] | None = None,
                          begun: Callable[[str], str | None] | None = None,
                          read_only: Collection[str] = (),
                          asking: Collection[str] = ()) -> Recognition:
        """One utterance held to a bag of phrases (the grammar of other languages); `prompt`:
        the words to prompt with, as spelled (default: the phrases' words); `settled` and
        `begun` (its reader, on the same bag) as for a grammar; `read_only`: phrases the
        reading takes (the free beam writes them unprompted) that a limited beam may not
        spell (a word more to spell moved its other decodes: docs/voice.md); `asking`: how
        the language asks ("можеш"), a move's free transcript beginning so is refused
        (`asked_first`)."""
        bag = tuple(phrases)
        spelling = phrases_spelling(bag)
        spelled = tuple(p for p in bag if p not in read_only)
        # A limited beam never writes a read-only word: its reading does without them (with
        # them, Ukrainian's "Я вару сімі." was read as another card).
        graph = phrases_graph(spelled if self._constrained() else bag)
        # The limited beam may write each phrase's words as spelled, elisions included.
        allowed = [*dict.fromkeys(c for p in spelled for c in p.split()),
                   *phrases_spelling(spelled).values()]
        freely = written_only(bag, read_only, read, self.lang)
        rescuable = tuple(p for p in bag if p not in freely)
        return self._recognize(pcm, graph, read, settled, prompt, allowed, spelling,
                               None if begun is None else (graph, begun), rescuable, asking,
                               freely)

    # -- decoding ----------------------------------------------------------------------------
    def _recognize(self, pcm: bytes, graph: Graph, read: Callable[[str], str | None],
                   settled: Callable[[str], float | None] | None,
                   prompt: Sequence[str] | None = None, allowed: Sequence[str] | None = None,
                   spelling: Mapping[str, str] | None = None,
                   begun: tuple[Graph, Callable[[str], str | None]] | None = None,
                   bag: Sequence[str] = (), asking: Collection[str] = (),
                   freely: Sequence[str] = ()) -> Recognition:
        """`allowed`: the words the limited beam may spell (default: the prompt's);
        `spelling`: the grammar's folded words as the model should read them; `begun`:
        the graph and reader of a second, text-only reading when nothing whole is heard;
        `bag`: the phrases of a bag grammar (their short commands may be rescued);
        `asking`: how the language asks (`asked_first`); `freely`: the phrases read only
        from what Whisper wrote (`_asked_freely`).

        The stages: the decodes, the text mapper's reading, rescoring (or a rescue of a
        refused reading), the confidence, the yes/no screen, then a begun command when
        nothing whole stands; beside a limited beam, a move its free transcript asks as a
        question is refused."""
        generation = self._generation
        self.evidence = {}
        said = self._decoded(pcm, graph, read, generation, prompt, allowed)
        heard = replace(self._read(said, graph, read, settled, spelling, begun, bag, freely),
                        transcript=said.written)
        # Help offered ("Aide-le.") is refused whatever the beam: a free beam's reading
        # took French " Aide-le." for help at 1.0 ("le" an article) and read
        # " Ayúdale." near "ayuda" at 0.58. The asking words only beside a limited beam: a
        # free beam's reading refuses them around a move already.
        return asked_first(heard, asking if said.constrained else (), help_offered(self.lang))

    def _read(self, said: _Utterance, graph: Graph, read: Callable[[str], str | None],
              settled: Callable[[str], float | None] | None,
              spelling: Mapping[str, str] | None,
              begun: tuple[Graph, Callable[[str], str | None]] | None,
              bag: Sequence[str], freely: Sequence[str] = ()) -> Recognition:
        """The stages after the decodes (`_recognize`)."""
        mapped = map_hypotheses(said.hyps, graph, read, said.english, said.reading)
        self.evidence.update(hyps=said.hyps, mapper=mapped)
        if self._rescores(said, mapped):
            command, confidence, words = self._rescored(said, graph, read, mapped, spelling)
        else:
            command, confidence, words = self._rescued(said, graph, read, mapped, spelling,
                                                       bag)
        heard = self._screened(said, self._confidence(said, command, confidence, words,
                                                      settled))
        heard = self._asked_freely(said, read, heard, freely, self.lang, graph.words)
        if heard.command is None or heard.confidence < REFUSE_BELOW:
            short = self._begun(said, begun, settled, heard.margin)
            if short is not None:
                return short
            if asked_low(heard, said.calibrated):
                return heard
            return Recognition(None, heard.confidence, words, heard.margin)
        return heard

    def _decoded(self, pcm: bytes, graph: Graph, read: Callable[[str], str | None],
                 generation: int, prompt: Sequence[str] | None,
                 allowed: Sequence[str] | None) -> _Utterance:
        """The decodes (the beam, and the free transcript beside a limited one) and the
        reader every later stage shares, so each word sequence is read once."""
        prompt = vocabulary(graph) if prompt is None else prompt
        hyps, encoded, free_text = self._decode(pcm, prompt, generation, allowed,
                                                free=self.rescore)
        seconds = len(pcm) / 2 / 16000
        self._check(generation)
        english = self.lang == "en"
        constrained = self._constrained()
        # A word said over and over is Whisper's loop on noise with a free beam; the limited
        # beam loops on one clean word too, and its calibrated confidence weighs chatter.
        reading = reader(graph, read, english, loops=not constrained, lang=self.lang)
        return _Utterance(pcm, generation, seconds, hyps, encoded, free_text, reading,
                          english, constrained)

    def _rescores(self, said: _Utterance, mapped: Mapped) -> bool:
        """Whether the model's likelihood decides. With a free beam, rescoring runs when the
        text mapper is unsure: above RESCORE_BELOW it never overruled the mapper in 1,080
        measured decodes (docs/voice.md; English only). With the limited beam the mapper is
        always sure: it always runs."""
        return bool(self.rescore and said.hyps and (
            said.constrained or said.english and mapped[1] < RESCORE_BELOW))

    def _rescored(self, said: _Utterance, graph: Graph, read: Callable[[str], str | None],
                  mapped: Mapped, spelling: Mapping[str, str] | None) -> Mapped:
        """The valid commands rescored with the model's likelihood, held to the text
        mapper's reading (`agree`); with the limited beam, the calibrated confidence."""
        free = ([said.free_text] if said.constrained and said.free_text is not None
                else None)
        scores = rescore_hypotheses(
            said.hyps, graph, read,
            lambda texts: self._score(said.encoded, texts, said.generation, said.seconds,
                                      said.constrained),
            said.english, said.reading, free, spelling)
        self.evidence.update(scores.evidence())
        command, confidence, words = scores.decide(
            calibration.SHARE_TEMPERATURE if said.constrained else TEMPERATURE)
        command, confidence = agree(mapped, command, confidence, said.constrained)
        if said.constrained and command is not None:
            confidence = self._calibrated(said, command, mapped, scores)
        return command, confidence, words

    def _calibrated(self, said: _Utterance, command: str, mapped: Mapped,
                    scores: Scores) -> float:
        """calibration.py's confidence from both decodes, raised for an answer they write
        alike (yesno.raised)."""
        return yesno.raised(
            command, calibration.confidence(calibration.features(
                command, mapped[1], said.hyps[0][1], scores), self.lang),
            calibration.ceiling(self.lang), said.free_text, said.hyps[0][0], said.reading,
            said.words, said.pcm)

    def _rescued(self, said: _Utterance, graph: Graph, read: Callable[[str], str | None],
                 mapped: Mapped, spelling: Mapping[str, str] | None,
                 bag: Sequence[str]) -> Mapped:
        """The text mapper's reading or, in a free-beam language where it would be refused,
        the command the model's likelihood rescues (`rescue`, asked about at RESCUED) among
        `bag`'s phrases (all of `graph`'s when none is given)."""
        command, confidence, words = mapped
        if not (RESCUE and self.rescore and not said.english and said.hyps
                and confidence < REFUSE_BELOW):
            return command, confidence, words
        readings = [said.reading(text) for text, _ in said.hyps]
        # The neighbours proposed come from the phrases that may be rescued (`bag`), not
        # from every phrase read: "repítelo" (a question said another way) took a slot of
        # the nearest sentences from "cojo trébol", and a right "trébol" was lost.
        scores = rescore_hypotheses(
            said.hyps, phrases_graph(tuple(bag)) if bag else graph, read,
            lambda texts: self._score(said.encoded, texts, said.generation, said.seconds,
                                      True),
            said.english, said.reading, None, spelling,
            more=short_commands(bag, said.hyps, read) if RESCUE_SHORT else ())
        self.evidence.update(scores.evidence(), rescue=[
            None if r is None else r[1] for r in readings])
        found = rescue(scores, readings)
        if found is not None:
            command, confidence, words = found, RESCUED, scores.decide(
                calibration.SHARE_TEMPERATURE, gap_free=math.inf, gap_scale=1.0)[2]
        return command, confidence, words

    @staticmethod
    def _confidence(said: _Utterance, command: str | None, confidence: float, words: str,
                    settled: Callable[[str], float | None] | None) -> Recognition:
        """The reading as a Recognition: capped for commands always asked about, and
        uncalibrated (sphinx.uncalibrated) in a free-beam language other than English,
        where a yes's audio is checked too (`_screened`): its loudness floor is yesno's."""
        if command is not None:
            confidence = capped(command, confidence, settled)
        heard = Recognition(command, confidence, words)
        if not said.calibrated:
            heard = uncalibrated(heard, said.pcm, yesno.CHECKED_YES_MARGIN)
        return heard

    @staticmethod
    def _asked_freely(said: _Utterance, read: Callable[[str], str | None],
                      heard: Recognition, freely: Sequence[str] = (),
                      lang: str = "en", spelled: Collection[str] = ()) -> Recognition:
        """A question the free transcript beside the limited beam says, read as it is
        (asking words and all), taken at the floor (answered) where the beam's reading
        would be refused: the beam cannot spell how it was asked (" What is the score?"
        written "the score" at 0.14, its calibrated confidence weighing the difference, or
        "the tea"). A question heard wrongly costs a sentence; a beam's reading above the
        floor stands. Quit alike (asked, never applied): in play the beam cannot spell it.
        Refused is also no command at any confidence: rescoring's reading vetoed by the text
        mapper's (`agree`; " Give me a hint." was refused so at 0.54). A step the beam
        reads but is unsure of gives way too, to a question asked as a sentence, written
        exactly in words it cannot all spell (`spelled`: the beam's words).

        Written not quite as said, it is read near `freely` (the phrases read only from
        what Whisper wrote: a question said another way, quit; words compared with
        `lang`'s sound keys), aligned as every reading aligns and taken where it fits by
        FREELY_FIT, a word written in two joined (" Хто ви грає?"): Ukrainian's " Скажі ще
        раз.", " Скільки болів?", " Як гграти?", " Вийте." were refused."""
        if not (said.constrained and said.free_text):
            return heard
        refused = heard.command is None or heard.confidence < REFUSE_BELOW
        unsure = heard.command not in ALWAYS_ANSWERED and heard.confidence < CONFIRM_THRESHOLD
        if not (refused or unsure):
            return heard  # a sure reading, or a question answered: the free text not read
        # Its words, as every reading takes them: written as it came, Momiji read " And."
        # as the keypad's "." (board).
        written = " ".join(words_of(said.free_text, said.english))
        asked = read(written)
        if not refused:
            # A step the beam is unsure of (it would be asked about) gives way to a question
            # asked as a sentence, written exactly, in words the beam cannot all spell
            # (" How do I play?" was asked about as undo, 0.48). Not a word alone: Momiji's
            # free " again" in babble, beside a beam that wrote " The end." five times
            # (0.67), was no question; nor what the beam could have written itself.
            # Quit near the phrases written only (not a goodbye: Whisper's sign-off on
            # noise) the same, asked as the step was: " Вийте." beside a beam unsure of
            # "take 2" (0.47).
            words = written.split()
            sentence = len(words) > 1 and not set(words).issubset(spelled)
            if not (sentence and asked in FREELY_TAKEN and asked != QUIT):
                asked = QUIT if read_near(written, freely, read, said.english,
                                          lang) == QUIT else None
            if asked is None:
                return heard
            return replace(heard, command=asked, confidence=REFUSE_BELOW, words=said.free_text)
        if asked not in FREELY_TAKEN:
            asked = read_near(written, freely, read, said.english, lang)
        if asked not in FREELY_TAKEN:
            return heard
        words = heard.words if asked == heard.command else said.free_text
        return replace(heard, command=asked, confidence=REFUSE_BELOW, words=words)

    def _screened(self, said: _Utterance, heard: Recognition) -> Recognition:
        """A yes or no stands only where the transcript written freely says it (yesno.py):
        the free greedy one beside the limited beam, else the free beam's best; and where
        the audio itself says it (the model's likelihood of the answer's own word)."""
        def likelihood(texts: Sequence[str]) -> list[float]:
            logs = self._score(said.encoded, texts, said.generation,
                               max(said.seconds, ANSWER_SECONDS), True)
            self.evidence.update(answer=dict(zip(texts, logs, strict=True)))
            return logs
        return yesno.screened(heard, said.written, said.reading, said.words, self.lang,
                              likelihood)

    def _begun(self, said: _Utterance,
               begun: tuple[Graph, Callable[[str], str | None]] | None,
               settled: Callable[[str], float | None] | None,
               margin: float | None) -> Recognition | None:
        """When nothing whole was heard: a command that only begins one (a list one card
        short), read from the same hypotheses and taken at BEGUN_FLOOR; else None."""
        if begun is None or not said.hyps:
            return None
        short = map_hypotheses(said.hyps, begun[0], begun[1], said.english,
                               reader(begun[0], begun[1], said.english, lang=self.lang))
        self.evidence.update(begun=short)
        if short[0] is not None and short[1] >= BEGUN_FLOOR:
            return Recognition(short[0], capped(short[0], short[1], settled), short[2],
                               margin)
        return None

    def _check(self, generation: int) -> None:
        if generation != self._generation:
            raise Cancelled()

    def _prompt(self, words: Sequence[str]) -> list[int]:
        return kept(self._prompts, tuple(words), lambda: self._prompt_tokens(words))

    def _prompt_tokens(self, words: Sequence[str]) -> list[int]:
        tok = self._tokenizer
        # (A calibrated language keeps the prompt its confidence was fitted with.)
        calibrated = self._calibrated_language()
        ids = tok.encode(" " + ", ".join(words) + ".", add_special_tokens=False).ids
        if not calibrated and len(ids) > LEAN_ABOVE:
            ids = tok.encode(" " + ", ".join(lean_prompt(words)) + ".",
                             add_special_tokens=False).ids
        cut = MAX_PROMPT_TOKENS if calibrated else MAX_PROMPT_TOKENS_OTHER
        start = [tok.token_to_id("<|startofprev|>")] + ids[-cut:]
        start.append(tok.token_to_id("<|startoftranscript|>"))
        if self._model.is_multilingual:
            start += [tok.token_to_id(f"<|{self.lang}|>"), tok.token_to_id("<|transcribe|>")]
        return start + [tok.token_to_id("<|notimestamps|>")]

    def transcripts(self, pcm: bytes, prompt_words: Sequence[str],
                    generation: int | None = None) -> list[tuple[str, float]]:
        """The model's hypotheses for one utterance: (text, mean log-probability per token),
        best first; [] for silence."""
        generation = self._generation if generation is None else generation
        return self._decode(pcm, prompt_words, generation)[0]

    def _decode(self, pcm: bytes, prompt_words: Sequence[str], generation: int,
                allowed: Sequence[str] | None = None, free: bool = False
                ) -> tuple[list[tuple[str, float]], Any, str | None]:
        """The hypotheses, the encoder's output (None for silence) and, with `free` and the
        limited beam, the free transcript (decoded beside the beam); with the limited beam,
        only the tokens spelling `allowed` (default: the prompt's words)."""
        import ctranslate2
        import numpy as np

        self.ready()
        audio = np.frombuffer(pcm, dtype=np.int16).astype(np.float32)
        if audio.size == 0 or float(np.sqrt(np.mean(audio ** 2))) < SILENCE_RMS:
            return [], None, None
        features = self.features(pcm)
        with self._lock:
            self._check(generation)
            encoded = self._model.encode(
                ctranslate2.StorageView.from_array(features[None]), to_cpu=False)
            self._check(generation)
            self._last_encoded = (pcm, encoded)  # for `encode` (the enrolled recognizer)
            if self.on_encoded is not None:
                self.on_encoded(pcm, encoded)
            prompt = self._prompt(prompt_words)
            # The prompt counts in max_length: the cap is on the answer's tokens.
            constrained = self._constrained()
            limit = (self._limit(prompt_words if allowed is None else allowed)
                     if constrained else [-1])

            def beam() -> Any:
                return self._model.generate(
                    encoded, [prompt], beam_size=self.beams, num_hypotheses=self.beams,
                    return_scores=True, max_length=len(prompt) + self._max_tokens(),
                    suppress_blank=True, suppress_tokens=limit,
                    no_repeat_ngram_size=NO_REPEAT if constrained else 0)[0]
            if free and constrained:
                result, free_text = together(beam, lambda: self._free(encoded))
            else:
                result, free_text = beam(), None
        tok = self._tokenizer
        return [(tok.decode(ids), score) for ids, score in zip(
            result.sequences_ids, result.scores, strict=True)], encoded, free_text

    def encode(self, pcm: bytes) -> Any:
        """The encoder's frames (numpy, frames x width, 50 a second) of `pcm` in the decode's
        window; the last decode's own when it was of this audio (no second pass). What the
        enrolled recognizer compares (enrolled_engine.py)."""
        import ctranslate2
        import numpy as np

        last = self._last_encoded
        if last is not None and last[0] is pcm:
            return np.asarray(last[1])[0]
        features = self.features(pcm)
        with self._lock:
            encoded = self._model.encode(ctranslate2.StorageView.from_array(features[None]),
                                         to_cpu=True)
        return np.asarray(encoded)[0]

    def features(self, pcm: bytes, shortest: float | None = None) -> Any:
        """Whisper's input (log-mel, mels x frames) for `pcm`: a window of whole seconds as
        long as the sound (30 at most), and at least `shortest` (default: the decode's
        window). What the decode and `encode` encode, and what another encoder of the same
        model may (enrolled_engine's middle layer, over a shorter window)."""
        import numpy as np

        self.ready()
        audio = np.frombuffer(pcm, dtype=np.int16).astype(np.float32) / 32768.0
        window = max(shortest or self.window, min(30.0, math.ceil(audio.size / 16000)))
        return log_mel(audio, window,
                       self._model.n_mels if hasattr(self._model, "n_mels") else 80)

    def _max_tokens(self) -> int:
        return MAX_TOKENS if self.lang == "en" else MAX_TOKENS_OTHER

    def _calibrated_language(self) -> bool:
        """English, or a language whose limited beam has a calibrated confidence (as
        `_Utterance.calibrated` says of one decode)."""
        return self.lang == "en" or self._constrained()

    def _constrained(self) -> bool:
        # The limited beam needs a confidence calibrated in the language (calibration.py).
        return self.constrain and calibration.fitted(self.lang)

    def _limit(self, words: Sequence[str]) -> list[int]:
        """Every text token that spells none of `words` (in any case, with or without a
        leading space) and is no punctuation mark: what the beam may not write."""
        return kept(self._suppressed, tuple(words), lambda: self._suppressed_tokens(words))

    def _suppressed_tokens(self, words: Sequence[str]) -> list[int]:
        tok = self._tokenizer
        allowed: set[int] = set()
        for word in words:
            for form in (word, word[:1].upper() + word[1:]):
                for text in (form, " " + form):
                    allowed.update(tok.encode(text, add_special_tokens=False).ids)
        for mark in PUNCTUATION:
            allowed.update(tok.encode(mark, add_special_tokens=False).ids)
        end = tok.token_to_id("<|endoftext|>")
        return [t for t in range(end) if t not in allowed]

    def _free(self, encoded: Any) -> str:
        """A greedy transcript with no prompt and no limit: what chatter is measured against
        when the beam was limited to the grammar's tokens (the caller holds the model)."""
        start = self._start()
        result = self._model.generate(encoded, [start], beam_size=1,
                                      max_length=len(start) + self._max_tokens())[0]
        return str(self._tokenizer.decode(result.sequences_ids[0]))

    def _start(self) -> list[int]:
        """The tokens a transcript follows (no vocabulary prompt: scoring a sentence with it
        would cost a decoder pass over a hundred tokens)."""
        tok = self._tokenizer
        start = [tok.token_to_id("<|startoftranscript|>")]
        if self._model.is_multilingual:
            start += [tok.token_to_id(f"<|{self.lang}|>"), tok.token_to_id("<|transcribe|>")]
        return start + [tok.token_to_id("<|notimestamps|>")]

    @staticmethod
    def _speech_frames(encoded: Any, seconds: float | None) -> Any:
        """The encoder's frames of `seconds` of speech and a margin (all when None)."""
        import numpy as np

        frames = np.asarray(encoded)
        if seconds is None:
            return frames
        keep = math.ceil((seconds + SCORE_MARGIN) * FRAMES_PER_SECOND)
        return np.ascontiguousarray(frames[:, :min(frames.shape[1], keep)])

    def _score(self, encoded: Any, texts: Sequence[str], generation: int,
               seconds: float | None = None, per_token: bool = False) -> list[float]:
        """Each text's summed token log-probability given the audio (teacher forcing,
        through the model's alignment pass), or its mean per token (`per_token`: a sum
        favours short sentences, " Actions." outscored " Gift tea tea tea.")."""
        import ctranslate2
        import numpy as np

        frames = self._speech_frames(encoded, seconds)
        ids = [self._tokenizer.encode(t, add_special_tokens=False).ids for t in texts]

        def scored(sentences: Sequence[list[int]]) -> list[float]:
            out: list[float] = []
            for first in range(0, len(sentences), SCORE_BATCH):
                batch = sentences[first:first + SCORE_BATCH]
                results = self._model.align(
                    ctranslate2.StorageView.from_array(np.repeat(frames, len(batch), axis=0)),
                    self._start(), batch, [frames.shape[1] * 2] * len(batch))
                for r in results:
                    logs = np.log(np.maximum(np.asarray(r.text_token_probs), 1e-12))
                    out.append(float(np.mean(logs) if per_token else np.sum(logs)))
            return out
        with self._lock:
            self._check(generation)
            if self.workers < 2 or len(ids) < 2:
                return scored(ids)
            # Half the sentences here, half on the second worker: a pass costs about the
            # same per sentence whatever the batch (6 ms with tiny.en), so halves, not batches.
            half = (len(ids) + 1) // 2
            first, rest = together(lambda: scored(ids[:half]), lambda: scored(ids[half:]))
        return first + rest


def kept(cache: OrderedDict[tuple[str, ...], list[int]], key: tuple[str, ...],
         make: Callable[[], list[int]]) -> list[int]:
    """`cache[key]`, made by `make` the first time; the LIMITS_KEPT used last are kept."""
    if key in cache:
        cache.move_to_end(key)
    else:
        cache[key] = make()
        if len(cache) > LIMITS_KEPT:
            cache.popitem(last=False)
    return cache[key]


def lean_prompt(words: Sequence[str]) -> list[str]:
    """The prompt's words less those said whole inside another of them ("goutte" and
    "goutte d'eau": the longer alone). Every decoding step attends to the whole prompt: in
    French a step cost 20 ms of CPU after the action context's 222-token prompt and 8 ms
    after none (docs/voice.md), and the word is still spelled in the prompt."""
    phrases = [f" {w} " for w in words]
    return [w for w in words
            if not any(f" {w} " in p and p != f" {w} " for p in phrases)]


def large(path: Path) -> bool:
    """Whether the model's encoder gains from a second thread a worker: base (145 MB of
    weights) does, tiny.en (76 MB) does not."""
    weights = path / "model.bin"
    return weights.is_file() and weights.stat().st_size >= LARGE_MODEL_BYTES


def one_blas_thread() -> None:
    """numpy's BLAS (OpenBLAS) on one thread in this process. Its threads spin for a while
    after each product (the log-mel's filter bank, the enrolled frames' distances) and took
    a core from the encoder that followed: a French decode spent about 120 ms more CPU and
    the encoder on two threads ran as slowly as on one (docs/voice.md, "Latency"). A limit
    the player set (OPENBLAS_NUM_THREADS and the like) is kept."""
    if any(os.environ.get(name) for name in BLAS_THREAD_VARIABLES):
        return
    import numpy  # noqa: F401 - its BLAS must be loaded for the limit to reach it
    from threadpoolctl import threadpool_limits

    threadpool_limits(limits=1, user_api="blas")


def together(here: Callable[[], Any], beside: Callable[[], Any]) -> tuple[Any, Any]:
    """(here(), beside()), `beside` run on a thread of its own meanwhile: CTranslate2 frees
    the interpreter while it computes, and its second worker takes the second pass. The
    thread is joined before this returns, so none outlives a decode."""
    box: dict[str, Any] = {}

    def run() -> None:
        try:
            box["value"] = beside()
        except BaseException as exc:  # raised again here, in the decode's thread
            box["error"] = exc
    thread = threading.Thread(target=run, name="whisper-beside", daemon=True)
    thread.start()
    try:
        value = here()
    finally:
        thread.join()
    if "error" in box:
        raise box["error"]
    return value, box["value"]


def asked_low(heard: Recognition, calibrated: bool) -> bool:
    """Whether `heard`, below REFUSE_BELOW, is a move to ask about (ASK_MOVES_FROM): only
    with the free beam, never an answer (it cannot be asked about), a question or a
    setting (answered at once)."""
    return (not calibrated and heard.command is not None and is_move(heard.command)
            and heard.confidence >= ASK_MOVES_FROM)


def rescue(scores: Scores, readings: Sequence[tuple[float, str, str] | None]) -> str | None:
    """The command the model's likelihood confirms where the text mapper was unsure
    (RESCUE), or None: the best of the scored grammar sentences (means per token) by
    RESCUE_SHARE of their likelihood, at least RESCUE_FLOOR likely, no free hypothesis
    more than RESCUE_LEAD nats per token likelier, and no hypothesis reading as another
    command; never a question or setting (answered at once, not asked about)."""
    if not scores.logs:
        return None
    best, share, _ = scores.decide(calibration.SHARE_TEMPERATURE, gap_free=math.inf,
                                   gap_scale=1.0)
    top = max(scores.logs)
    lead = max(scores.free_logs, default=top) - top
    if any(r is not None and r[1] != best for r in readings):
        return None
    if best is None or share < RESCUE_SHARE or lead > RESCUE_LEAD or top < RESCUE_FLOOR:
        return None
    # A question or setting is answered at once, whatever its confidence: one rescued on
    # a guess was applied wrongly (Spanish "secreto" in babble written "y tal vez", read as
    # "otra vez"). Replayed, leaving them out cost no right answer (docs/voice.md).
    return None if best in ALWAYS_ANSWERED else best


def short_commands(bag: Sequence[str], hyps: Sequence[tuple[str, float]],
                   read: Callable[[str], str | None]) -> list[tuple[str, ...]]:
    """The grammar sentences of one phrase that are commands now ("dépôt", "plateau", a
    card offered), as folded words, and each after a word a hypothesis begins with that
    reads as nothing alone ("le dépôt"): what a short command that the hypotheses misspelt
    ("du poule", "et là-tu") may have been. Lists of cards are not among them."""
    phrases = [tuple(words_of(p, english=False)) for p in bag]
    alone = [p for p in dict.fromkeys(phrases) if p and read(" ".join(p)) is not None]
    firsts = {w[0] for text, _ in hyps if (w := words_of(text, english=False))}
    lead_words = [(w,) for w in sorted(firsts) if (w,) in phrases and read(w) is None]
    return alone + [f + p for f in lead_words for p in alone
                    if read(" ".join(f + p)) == read(" ".join(p))]


def agree(mapper: tuple[str | None, float, str], command: str | None, confidence: float,
          calibrated: bool = False) -> tuple[str | None, float]:
    """Rescoring held to the text mapper's reading (measured in docs/voice.md: alone it
    applied wrong commands and took chatter for commands). Where both read the same
    command, the surer of the two confidences. With a `calibrated` confidence to follow,
    a mapper that is itself unsure (MAPPER_UNSURE: the limited beam wrote " and," for a
    clear "hint") does not veto: the calibration weighs its doubt (replayed on six voice
    sets, 0 to 3 points more right, nothing more applied or accepted wrongly)."""
    if command is None:
        return None, confidence
    if command != mapper[0]:
        unsure = calibrated and mapper[1] <= MAPPER_UNSURE
        return (command if unsure else None), confidence
    return command, max(confidence, mapper[1])


def read_hypothesis(text: str, graph: Graph, read: Callable[[str], str | None],
                    english: bool = True, loops: bool | None = None, lang: str | None = None
                    ) -> tuple[float, str, str] | None:
    """(fit, command, grammar words) of one transcript (again with stutters folded or, with
    a free beam, a whole move written twice read once, if that reads better), or None
    when it reads as nothing valid, or, with `loops` (a free beam; default: the languages
    other than English), is one word said over and over:
    Whisper's loop on noise ("no, no, no, no" from table talk was applied as a "no" in
    Spanish, measured). Not with the limited beam: it loops on one clean word too
    ("secret, secret, …"), and the calibrated confidence weighs chatter."""
    heard = words_of(text, english)
    free = not english if loops is None else loops
    if free and len(heard) >= LOOP and len(set(heard)) == 1:
        return None
    key = lang or ("en" if english else "")
    attempts = {tuple(heard), tuple(collapse_repeats(heard)),
                tuple(split_runs(heard, graph.words, key))}
    readings = [_reading(attempt, graph, read, key) for attempt in attempts]
    # A whole move looped, read once: free beam only (the limited beam's calibrated
    # confidence was fitted on its readings as they were), and only a move, which is asked
    # about; babble written "plus fort, plus fort" is a loop, not a louder.
    once = said_once(heard) if free else None
    if once is not None:
        looped = _reading(tuple(once), graph, read, key)
        if looped is not None and is_move(looped[1]):
            readings.append(looped)
    return max((r for r in readings if r is not None), default=None)


def reader(graph: Graph, read: Callable[[str], str | None], english: bool = True,
           loops: bool | None = None, lang: str | None = None
           ) -> Callable[[str], tuple[float, str, str] | None]:
    """read_hypothesis, once per word sequence: the hypotheses often differ only in
    punctuation or case, and both readings (text mapper, rescoring) ask the same."""
    seen: dict[tuple[str, ...], tuple[float, str, str] | None] = {}

    def reading(text: str) -> tuple[float, str, str] | None:
        key = tuple(words_of(text, english))
        if key not in seen:
            seen[key] = read_hypothesis(text, graph, read, english, loops, lang)
        return seen[key]
    return reading


def map_hypotheses(hyps: Sequence[tuple[str, float]], graph: Graph,
                   read: Callable[[str], str | None], english: bool = True,
                   reading: Callable[[str], tuple[float, str, str] | None] | None = None
                   ) -> tuple[str | None, float, str]:
    """The command the hypotheses point to, its confidence and the words it was read from
    (the text mapper alone: no rescoring).

    Each hypothesis is aligned to the grammar and read by the game; its weight is its
    probability among the hypotheses times how closely it fitted the grammar. The
    confidence is the winning command's share.
    """
    if not hyps:
        return None, 0.0, ""
    top = max(score for _, score in hyps)
    weights = [math.exp(score - top) for _, score in hyps]
    total = sum(weights)
    votes: dict[str, float] = {}
    said: dict[str, str] = {}
    reading = reading or reader(graph, read, english)
    for (text, _), weight in zip(hyps, weights, strict=True):
        found = reading(text)
        if found is not None:
            fit, command, words = found
            votes[command] = votes.get(command, 0.0) + weight * fit
            said.setdefault(command, words)
    if not votes:
        return None, 0.0, hyps[0][0].strip()
    command = max(votes, key=lambda c: votes[c])
    return command, votes[command] / total, said[command]


def rescore_hypotheses(hyps: Sequence[tuple[str, float]], graph: Graph,
                       read: Callable[[str], str | None], scorer: Scorer,
                       english: bool = True,
                       reading: Callable[[str], tuple[float, str, str] | None] | None = None,
                       free_texts: Sequence[str] | None = None,
                       spelling: Mapping[str, str] | None = None,
                       more: Sequence[tuple[str, ...]] = ()) -> Scores:
    """The commands valid now, to be rescored with the model's own likelihood (rescore.py):
    the hypotheses' grammar sentences and their neighbours, and `more` sentences (folded
    words), scored. Speech the grammar does not hold is measured against `free_texts`
    (default: the hypotheses themselves)."""
    reading = reading or reader(graph, read, english)
    heard = [(text, reading(text)) for text, _ in hyps]
    mapped = list(dict.fromkeys(tuple(r[2].split()) for _, r in heard if r is not None))
    free = heard if free_texts is None else [(t, reading(t)) for t in free_texts]
    grammar = candidates(mapped, graph, read)
    for words in more:
        command = grammar.get(words) or read(" ".join(words))
        if command is not None:
            grammar[words] = command
    return score(free, grammar, scorer, spelling)


def _reading(heard: Sequence[str], graph: Graph, read: Callable[[str], str | None],
             lang: str = "en") -> tuple[float, str, str] | None:
    """(fit 0..1, command, grammar words) of one hypothesis, or None when it reads as
    nothing valid; words compared with `lang`'s sound keys (mapper.distance)."""
    mapped = align(list(heard), graph, lang) if heard else None
    command = read(" ".join(mapped.words)) if mapped else None
    if mapped is None or command is None:
        return None
    spread = max(len(heard), len(mapped.words), 1)
    fit = max(0.0, 1.0 - COST_SCALE * mapped.cost / spread) * min(1.0, max(
        0.0, (WORST_LIMIT - mapped.worst) / (WORST_LIMIT - WORST_FREE)))
    return fit, command, " ".join(mapped.words)
