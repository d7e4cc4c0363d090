"""The player's own voice: what is heard compared with their own recordings of the words.

A player enrols by saying each of the game's context words two or three times
(`companion voice-enroll --words`, enroll_words.py); this module keeps nothing on disk
(word_profiles.py does) and knows no game. An utterance and every recording become frame
features (the Whisper encoder's frames, its last and middle layers:
enrolled_engine.Frames), each frame of unit length; each enrolled word's recordings are
searched for within what is heard by dynamic time warping (cosine distance per frame,
every recorded frame counted by its weight, what is heard free to begin and end anywhere,
so the noise around a word in a noisy room is not counted and the weighted mean over the
recorded frames is comparable between words) and the nearest word wins. A recorded frame's
weight follows how loud it was (enrolled_engine.frame_weights): the quiet ends of a word
are the first that noise covers, its loud middle the last.

A word's distance is the mean over the player's recordings of it of the nearest of each
recording and its noisy copies (`nearest`): near every take, not one.

Rejection: the winner must be near (`MAX_DISTANCE`), not tied with another word
(`MIN_MARGIN`), and what is heard about as long as the word (`Match.fits`); every
enrolled word competes, also the ones not valid now, so "eight" said where only one
to seven name a card is taken as "eight" and refused, not forced onto "three". What is
said that was never enrolled is far from everything.

In play (`combine`) the match is a second opinion beside Whisper: both read the same
command: it is surer (applied); they differ: the enrolled reading is asked about ("… Yes
or no?"), never applied unasked; Whisper heard nothing valid: the enrolled reading is
applied when it is sure (`sure`: near, well ahead of the next word, both with the frames
weighted and counted alike) and neither Whisper's free transcript nor its beam's own words
say another number, else asked about; an answer (yes, no) or a question ("board": the policy
answers it at once) cannot be asked about, so it is then refused unless it is the player's
own, sure (an answer) or near (a question, in the languages Whisper base hears). The
match knows only the enrolled words: a word the player never enrolled ("help", "the
rules") that both of Whisper's readings agree on stands unless the match is near.

Other voices' words (stand_ins.py, for a player who has not enrolled) are weaker evidence:
beside them (`filled`) Whisper's valid reading always stands, made surer when they agree,
and where Whisper heard nothing valid their move is only asked about.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Collection, Mapping, Sequence
from concurrent.futures import Executor
from dataclasses import dataclass, replace

import numpy as np

from companion.voice.numbers import as_digits
from companion.voice.sphinx import ANSWERS, Recognition, capped, is_move

# Chosen on the tuning speakers of the free spoken digit dataset (george, jackson;
# docs/voice.md "The player's own voice"): the mean cosine distance per recorded frame of
# the best alignment (`nearest`), frames being the encoder's last and middle layers
# (enrolled_engine.Frames). Clean speech matches near 0.1; in noise the right word's
# distance grows towards 0.3, where the wrong words are. A nearest word within 0.35 and
# not tied with another (two words found alike are two words heard: a sentence) is an
# opinion however small its lead: it is asked about, never applied unasked (`combine`)
# unless `sure`; in noise the near ties were the right word more often than not.
MAX_DISTANCE = 0.35
MIN_MARGIN = 0.001
# Agreement of both recognizers: at least this sure (the policy applies from 0.8).
AGREED = 0.9
# Only a match this far ahead of the player's next nearest word agrees; nearer, it has no
# opinion. A Spanish "bueno", never enrolled, was nearest the player's "uno" by 0.010
# and 0.012 (far, at 0.29), which Whisper's limited beam read too though its free
# transcript wrote "bueno": raised from 0.37, it was applied as a card (benchmarks/
# enrolled_answers.py --context reveal, tuning voices). Those two were the tuning voices'
# only agreements below 0.02 that the raise applied; the right ones led by 0.025 and more.
# The cost: one right digit of the tuning speakers at 6 dB asked about instead, and held
# out one French command at 10 and at 6 dB (docs/voice.md "An agreement by a hair").
AGREE_MARGIN = 0.02
# A match this clearly nearer than any other word, and this near, is applied alone when
# Whisper heard nothing valid: on the tuning speakers none such was wrong, clean or at 10
# and 6 dB, and none was a word the player never enrolled (zero, eight, nine when one to
# seven are: at 0.22, two of 48 clean were; benchmarks/enrolled_strays.py, docs/voice.md).
# Since a recorded frame counts by its loudness (enrolled_engine.frame_weights) distances
# are smaller: at 0.18 two of the tuning speakers' strays at 10 dB were sure (0.175 and
# 0.180), none at 0.17.
SURE_MARGIN = 0.06
SURE_DISTANCE = 0.17
# ... and sure with every frame counted alike too (the thresholds of before the weights):
# the weights make the words that share a loud vowel nearer ("unseen" and the player's
# "repeat", "hint" and "fan", "nine" and "five"), and on the English tuning voices a
# question never enrolled was applied as the player's rhyme 11 times in 624 in noise;
# sure both ways (0.18 and 0.06 on the plain distance), once (docs/voice.md "Loud frames
# count more").
PLAIN_SURE_DISTANCE = 0.18
# The player's own yes or no, sure, is taken where Whisper heard no valid answer (its
# answers are weak in noise, and in Ukrainian even clean: the tuning voice's "так" refused
# 4 times in 8, written "Рад!", "Гад!"). On the tuning voices' confirm context
# (benchmarks/enrolled_answers.py): answers applied 44 -> 56 of 96 over the three levels in
# French, Spanish and Ukrainian, none of 744 stray words or table talk taken for one. In
# English the tuning voices found one answer more for three strays (Piper's "cat" sure of
# its "yes", written "Yeah."), the held-out ones 55 -> 67 of 96 for none; a third set
# settled it (--voice-set decide: 72 -> 78 of 96, strays 1 -> 1 of 744).
ENROLLED_ANSWERS = frozenset({"fr", "es", "uk", "en"})
# A question the player enrolled (score, board, repeat), near and ahead of every other word
# though not sure, is answered in French, Spanish and Ukrainian where Whisper heard
# nothing valid and its free transcript reads as no other command (its beam writes the
# grammar's words into noise: "et papier" for a player's "plateau"). A question cannot
# be asked about, so such a match was refused: the synthetic stand-ins as in play lost
# French questions 50 -> 23 of 60 at 10 dB. On the tuning voices' reveal context
# (benchmarks/enrolled_answers.py --context reveal, with ONE_WORD_NEAR) applied right +8
# French (of 208 a level), +3 Spanish, +6 Ukrainian (of 108) at 10 and 6 dB, no wrong
# command or stray word added. The lead keeps out the questions and settings never
# enrolled, nearest an enrolled one by a hair: "plus vite" and "plus fort" nearest
# "plateau" (0.12-0.15) led by 0.031 at most, the right ones by 0.04 and more. Not in
# English: tiny.en hears its questions, and a Pico "unseen" nearest its "repeat"
# (0.09-0.11, a lead of 0.07) would be answered.
NEAR_QUESTIONS = frozenset({"fr", "es", "uk"})
# 0.19, not 0.20: a never-enrolled "moins fort" came at 0.198 of "plateau" (by 0.046) and
# was answered as the board twice at 6 dB (the French tuning questions at 1.56%); 0.19
# answered the same right ones on the three languages' tuning reveal contexts.
QUESTION_DISTANCE = 0.19
QUESTION_MARGIN = 0.04
# Whisper's reading said in one word beside a filler ("de score": "score") is no longer
# than the match's word: a match this near of another word then disagrees with it (Pico's
# "dépôt", 0.065 from its own, read "de score", answered the score). Not farther: a
# never-enrolled "the rules" read as such had a far nearest word ("no" at 0.27).
ONE_WORD_NEAR = SURE_DISTANCE
# Other voices' words (`filled`, stand_ins.py) fill in where Whisper heard nothing valid
# with a match at least FILL_MARGIN ahead of the next word, and agree with Whisper's reading
# by OTHERS_AGREE_MARGIN when Whisper's free transcript reads the same, else by
# OTHERS_ALONE_MARGIN. Chosen on the French tuning voices (MBROLA fr1, Pico fr-FR, the reveal
# context: 208 commands, 60 stray words and table talk a level; benchmarks/
# enrolled_answers.py --stand-ins, docs/voice.md "Other voices' words in play"): filling in
# at any lead asked about 16 of 60 strays at 10 dB (Whisper alone 6) and 56 wrong
# commands (20); at 0.02, 6 and 26 for 43 right of 208 (Whisper alone 34, any lead 49).
# Agreeing by 0.02 applied two stray words at 10 dB ("zut" heard "six" and "une", nearest
# the bank's six and flûte by 0.039 and 0.021) and a "six" as the flute at 6 dB; at 0.03
# and 0.04, none more than Whisper alone.
FILL_MARGIN = 0.02
OTHERS_AGREE_MARGIN = 0.03
OTHERS_ALONE_MARGIN = 0.04
# Disagreement: asked about (the policy asks below 0.8, refuses below 0.4).
ASKED = 0.6
# A word is found within what is heard (subsequence alignment): what is heard may begin
# and end anywhere, so the noise the energy span could not trim around a word in a noisy
# room is not counted; each recorded frame is matched once, what is heard advances by at
# most MAX_ADVANCE frames a recorded frame (a word said up to twice as slowly) or dwells.
MAX_ADVANCE = 2
# What is heard may be this much longer than the recording it is nearest to, plus the
# noise around the word (NOISE_FRAMES: the span of speech found by energy takes in up to
# 0.4 s of noise each side at 10 dB); longer is not that word alone ("gift flute fan and
# tea" is not "gift"): no opinion. No shorter than half the recording either.
MAX_STRETCH = 2.0
NOISE_FRAMES = 40


def unit_rows(frames: np.ndarray) -> np.ndarray:
    """Each frame scaled to unit length (a cosine distance is then one product)."""
    frames = np.asarray(frames, dtype=np.float32)
    return frames / (np.linalg.norm(frames, axis=1, keepdims=True) + 1e-9)


def _aligned(rows: np.ndarray, bank: np.ndarray, lengths: np.ndarray,
             weights: np.ndarray | None = None) -> np.ndarray:
    """The mean cosine distance per recorded frame, each frame counted by its weight, of
    the best alignment of each recording of `bank` (recordings x frames x width, unit rows,
    zero-padded to `lengths`) within `rows` (what is heard, unit rows); `weights`
    (recordings x frames, zero past each length) default to one."""
    if weights is None:
        weights = (np.arange(bank.shape[1])[None, :] < lengths[:, None]).astype(np.float32)
    cost = _costs(rows, bank)
    cost *= weights[:, :, None]
    return _best_paths(cost, lengths, weights)


def _costs(rows: np.ndarray, bank: np.ndarray) -> np.ndarray:
    """The cosine distance of every recorded frame of `bank` to every frame of `rows`
    (recordings x frames x heard): most of an alignment's time."""
    return 1.0 - np.einsum("kmw,nw->kmn", bank, rows, optimize=True)


def _best_paths(cost: np.ndarray, lengths: np.ndarray, weights: np.ndarray) -> np.ndarray:
    """`_aligned` over `cost`, each recorded frame's row already multiplied by its weight
    (frames past a recording's length are never read)."""
    longest = cost.shape[1]
    row = cost[:, 0, :].copy()
    done = np.where(lengths == 1, row.min(axis=1), np.inf)
    for m in range(1, longest):
        best = row.copy()
        for step in range(1, min(MAX_ADVANCE, cost.shape[2] - 1) + 1):
            np.minimum(best[:, step:], row[:, :-step], out=best[:, step:])
        row = cost[:, m, :] + best
        ends = lengths == m + 1
        if ends.any():
            done[ends] = row[ends].min(axis=1)
    return done / np.maximum(weights.sum(axis=1), 1e-6)


def dtw_distance(heard: np.ndarray, template: np.ndarray,
                 weights: np.ndarray | None = None) -> float:
    """The mean cosine distance per frame of `template` (each counted by its weight, default
    one) along its best alignment within `heard` (both unit rows)."""
    w = None if weights is None else fitted(weights, len(template))[None]
    return float(_aligned(heard, template[None], np.array([len(template)]), w)[0])


def _weight(weights: Mapping[str, Sequence[np.ndarray]] | None, word: str,
            k: int) -> np.ndarray | None:
    found = None if weights is None else weights.get(word, ())
    return found[k] if found is not None and k < len(found) else None


def fitted(weights: np.ndarray, length: int) -> np.ndarray:
    """`weights` cut or carried on (its last value) to `length` frames: a recording's
    frames and its weights are counted from the same sound, and may differ by a frame at
    the window's end."""
    weights = np.asarray(weights, dtype=np.float32)[:length]
    if len(weights) < length:
        weights = np.concatenate([weights, np.full(length - len(weights),
                                                   weights[-1] if len(weights) else 1.0,
                                                   dtype=np.float32)])
    return weights


@dataclass(frozen=True)
class Match:
    """The nearest enrolled word (or words) of one utterance: `distance` per recorded
    frame, `margin` to the nearest other word, the frames heard and those of the nearest
    recording (0: not known); `accepted` when all pass the rejection."""

    words: str
    distance: float
    margin: float
    heard: int = 0
    recorded: int = 0
    # The same word's distance and lead with every recorded frame counted alike (None:
    # not measured, the frames were not weighted).
    plain: float | None = None
    plain_margin: float | None = None

    @property
    def fits(self) -> bool:
        """What is heard is about as long as the word (not a sentence, not a click)."""
        return not self.recorded or (
            self.recorded / MAX_STRETCH <= self.heard
            <= MAX_STRETCH * self.recorded + NOISE_FRAMES)

    @property
    def accepted(self) -> bool:
        return self.distance <= MAX_DISTANCE and self.margin >= MIN_MARGIN and self.fits


class EnrolledVoice:
    """One player's enrolled words: each word's recordings as unit feature frames, stacked
    so that one alignment pass runs against all of them at once (a loop per recording cost
    about 2 ms each in Python, and a word has a dozen with its noisy copies).

    `copies`: each recording of a word is followed in its list by this many noisy copies
    of it (enrolled_engine.templates); a word's distance is the mean over its recordings
    of the nearest of each recording and its copies (`nearest`)."""

    def __init__(self, templates: Mapping[str, Sequence[np.ndarray]], copies: int = 0,
                 weights: Mapping[str, Sequence[np.ndarray]] | None = None) -> None:
        """`weights`: each template's frames' weights, in the same lists (default one)."""
        self.copies = copies
        flat = [(w, unit_rows(t), _weight(weights, w, k))
                for w, ts in templates.items() for k, t in enumerate(ts) if len(t)]
        self._owner = [w for w, _, _ in flat]
        self._lengths = np.array([len(t) for _, t, _ in flat], dtype=np.int64)
        self._longest = longest = int(self._lengths.max()) if flat else 0
        # The recorded frames one after another, each recording's a view of them: padded to
        # the longest (about twice their mean) they were twice the products and the memory.
        self._packed = (np.concatenate([t for _, t, _ in flat]) if flat
                        else np.zeros((0, 0), dtype=np.float32))
        self.templates: dict[str, list[np.ndarray]] = {}
        views = np.split(self._packed, np.cumsum(self._lengths)[:-1]) if flat else []
        for (w, _, _), t in zip(flat, views, strict=True):
            self.templates.setdefault(w, []).append(t)
        self._weights = np.zeros((len(flat), longest), dtype=np.float32)
        for k, (_, t, wt) in enumerate(flat):
            self._weights[k, :len(t)] = 1.0 if wt is None else fitted(wt, len(t))
        self._mask = (np.arange(longest)[None, :] < self._lengths[:, None]).astype(np.float32)
        self._where = np.nonzero(self._mask)  # the packed frames' places, padded
        self._weighted = any(wt is not None for _, _, wt in flat)

    @property
    def words(self) -> frozenset[str]:
        return frozenset(self.templates)

    def recordings(self, heard: np.ndarray, beside: Executor | None = None
                   ) -> tuple[np.ndarray, np.ndarray]:
        """Each recording's `dtw_distance` to `heard`, its frames weighted, and the same with
        every recorded frame counted alike (the same array when none was weighted), in one
        batched pass; half of the products on `beside`'s thread when given."""
        cost = self._costs(unit_rows(heard), beside)
        # Counted alike first: the weights are then applied to the same costs in place.
        alike = _best_paths(cost, self._lengths, self._mask) if self._weighted else None
        cost *= self._weights[:, :, None]
        weighted = _best_paths(cost, self._lengths, self._weights)
        return weighted, weighted if alike is None else alike

    def _costs(self, rows: np.ndarray, beside: Executor | None = None) -> np.ndarray:
        """The module's `_costs` for every recording, padded to the longest: the recorded
        frames' products made alone (a padded frame's cost is 1, and never read), half of
        them on `beside`'s thread when given (numpy's BLAS is held to one thread:
        whisper.one_blas_thread)."""
        if beside is None:
            products = self._packed @ rows.T
        else:
            products = np.empty((len(self._packed), len(rows)), dtype=np.float32)
            half = len(self._packed) // 2
            rest = beside.submit(np.matmul, self._packed[half:], rows.T, out=products[half:])
            np.matmul(self._packed[:half], rows.T, out=products[:half])
            rest.result()
        cost = np.ones((*self._mask.shape, len(rows)), dtype=np.float32)
        cost[self._where] = 1.0 - products
        return cost

    def distances(self, heard: np.ndarray) -> dict[str, tuple[float, int]]:
        """Each enrolled word's distance to `heard` (`nearest`) and the length in frames of
        its nearest recording."""
        return nearest(self._owner, self.recordings(heard)[0], self._lengths, self.copies)

    def match(self, heard: np.ndarray, beside: Executor | None = None) -> Match | None:
        """The nearest enrolled word; None when nothing is enrolled, `heard` is empty, or
        it is too long to be any one word (`Match.fits` would refuse every word: the
        match, whose time grows with what is heard, is not made: other voices' words,
        1848 templates, took 276 ms for 160 frames). `beside`: a thread that may take half
        of the products (the same result)."""
        if not self.templates or len(heard) == 0:
            return None
        if len(heard) > MAX_STRETCH * self._longest + NOISE_FRAMES:
            return None
        weighted, alike_all = self.recordings(heard, beside)
        found = nearest(self._owner, weighted, self._lengths, self.copies)
        ranked = sorted(found, key=lambda w: found[w][0])
        best, (distance, length) = ranked[0], found[ranked[0]]
        rival = found[ranked[1]][0] if len(ranked) > 1 else np.inf
        plain = plain_margin = None
        if self._weighted:
            alike = nearest(self._owner, alike_all, self._lengths, self.copies)
            plain = alike[best][0]
            plain_margin = float(min((d for w, (d, _) in alike.items() if w != best),
                                     default=np.inf) - plain)
        return Match(best, distance, float(rival - distance), len(heard), length, plain,
                     plain_margin)


def nearest(owners: Sequence[str], distances: np.ndarray, lengths: np.ndarray,
            copies: int = 0) -> dict[str, tuple[float, int]]:
    """Each word's distance: the mean over its recordings of the nearest of the recording
    and its `copies` noisy copies (the recordings of a word are consecutive in `owners`,
    each followed by its copies), and the length of its nearest template. A word must be
    near every recording the player made, not one: in babble at 10 dB one noisy copy of
    a wrong word was often nearest (on the tuning speakers 145 of 160 right with the
    nearest template alone, 152 with the mean over the two takes)."""
    group = copies + 1
    spans: dict[str, list[int]] = {}
    for k, word in enumerate(owners):
        spans.setdefault(word, []).append(k)
    out: dict[str, tuple[float, int]] = {}
    for word, ks in spans.items():
        found = np.asarray(distances)[ks]
        per_take = [float(found[i:i + group].min()) for i in range(0, len(ks), group)]
        best = ks[int(np.argmin(found))]
        out[word] = (float(np.mean(per_take)), int(lengths[best]))
    return out


def sure(match: Match) -> bool:
    """A match sure enough to apply when Whisper heard nothing valid (SURE_*), with its
    frames weighted and, when they were, counted alike (PLAIN_SURE_DISTANCE)."""
    if match.plain is not None and match.plain_margin is not None and not (
            match.plain <= PLAIN_SURE_DISTANCE and match.plain_margin >= SURE_MARGIN):
        return False
    return match.accepted and match.margin >= SURE_MARGIN and match.distance <= SURE_DISTANCE


def reads_only(command: str, read: Callable[[str], str | None], *texts: str | None) -> bool:
    """Whether none of `texts` (what Whisper wrote: its beam's words, its free transcript)
    reads as a command other than `command`."""
    return all(read(text or "") in (None, command) for text in texts)


def near_question(heard: Recognition, match: Match, command: str,
                  read: Callable[[str], str | None], lang: str) -> bool:
    """Whether the match's question (`command`, no move) is answered though not sure: near
    and well ahead (QUESTION_*), Whisper hearing nothing valid and its free transcript
    reading as no other command, in NEAR_QUESTIONS' languages."""
    return (heard.command is None and lang in NEAR_QUESTIONS and match.accepted
            and match.distance <= QUESTION_DISTANCE and match.margin >= QUESTION_MARGIN
            and reads_only(command, read, heard.transcript))


def beside(heard: Recognition, match: Match | None, read: Callable[[str], str | None],
           lang: str = "en", enrolled: Collection[str] | None = None,
           settled: Callable[[str], float | None] | None = None, *,
           own: bool = True) -> Recognition:
    """What play takes from Whisper's recognition beside the enrolled match: `combine`
    (`filled` when the words are other voices', not the player's `own`), then the
    confidence capped as the grammar's `settled` words say (`sphinx.capped`), as for
    Whisper alone. The engine and the benchmarks that replay it share this."""
    out = (combine(heard, match, read, lang, enrolled) if own
           else filled(heard, match, read, lang))
    if out.command is None:
        return out
    return replace(out, confidence=capped(out.command, out.confidence, settled))


def names_another_number(text: str | None, words: str, lang: str) -> bool:
    """Whether `text` (Whisper's free transcript, or its limited beam's words) says a number
    that the enrolled `words` do not ("8." where the player's "six" was nearest). Where
    its limited beam heard nothing valid and a match was sure, the numbers Whisper wrote
    freely were right in 9 of 10 on the free spoken digit speakers ("6.", "Six.", "7.",
    "5", "3", "8."; "One." for a "four" at 10 dB the one wrong one): a number written is
    the player's word, a match that says another is asked about (docs/voice.md "A
    player's own stray words"). In noise the free transcript often writes none ("Hey.")
    where the beam still read one, refused for its confidence ("three" for an "eight"
    nearest "six")."""
    if not text:
        return False
    written = set(re.findall(r"\d+", as_digits(text, lang)))
    return bool(written) and written != set(re.findall(r"\d+", as_digits(words, lang)))


def unknown_to(words: str, enrolled: Collection[str]) -> bool:
    """Whether none of `words` is a word of the `enrolled` words (of "service à thé":
    "service", "à", "thé"): the match has no recording of what Whisper read."""
    known = {w for phrase in enrolled for w in phrase.split()}
    return not known.intersection(words.split())


def whisper_agrees(heard: Recognition, read: Callable[[str], str | None]) -> bool:
    """Whether Whisper's free transcript, read by the game, is the command Whisper's reading
    gave (its limited beam's; with a free beam, the vote over its hypotheses, the
    transcript being the best of them): the decodes of the same sound agree."""
    return heard.command is not None and read(heard.transcript or "") == heard.command


def combine(heard: Recognition, match: Match | None,
            read: Callable[[str], str | None], lang: str = "en",
            enrolled: Collection[str] | None = None) -> Recognition:
    """Whisper's recognition with the enrolled match beside it (pure). The match's words
    are read by the game as a command now (`read`: None when not valid here); `lang`
    reads the numbers of Whisper's free transcript (`heard.transcript`); `enrolled`: the
    words the player enrolled (None: not known).

    - no match, or one rejected, or Whisper read a valid command from more words than
      the match has, the match's among them or the match not sure: Whisper's recognition
      unchanged (no opinion: the enrolled words are words alone, and one of them is found
      within a longer command); a sure match outside Whisper's longer reading disagrees
      with it (a player's "zero" read "the rules", a query applied unasked before); a
      reading said in one of Whisper's words beside a filler ("de score") is not longer
      than a near match's word (ONE_WORD_NEAR);
    - Whisper read a command of words the player never enrolled ("help", "unseen") and its
      free transcript reads the same, and the match is not near (within SURE_DISTANCE):
      Whisper's recognition unchanged. The nearest enrolled word is then no evidence:
      synthetic players' clear "help", "rules", "unseen" were refused or taken as another
      word ("yes", a card, "repeat"); English questions said as recorded were heard 204
      times in 312 before, 261 now (docs/voice.md "Words the player never enrolled");
    - both read the same command: confidence raised to AGREED (the engine then caps it as
      before: a list of cards the game always asks about keeps its lower confidence),
      unless the match is ahead of the player's next nearest word by less than
      AGREE_MARGIN (no opinion: a never-enrolled "bueno" nearest the player's "uno");
    - Whisper heard nothing valid: the enrolled reading, applied when it is sure (`sure`)
      and neither Whisper's free transcript nor its beam's own words (refused for their
      confidence) say another number (a player's own "eight", never enrolled, was nearest
      to their "six", and written "8." or read "three": `names_another_number`), else
      asked about (ASKED);
    - they differ: the enrolled reading, asked about (ASKED), never applied unasked (on
      the tuning speakers it was the right one in 23 of 25 disagreements, Whisper's in 1);
    - an answer (yes, no) cannot be asked about: the player's own, sure where Whisper
      heard no valid answer and nothing it wrote reads as another command or says a
      number, is applied in
      ENROLLED_ANSWERS' languages, else refused; a word enrolled but not valid now
      ("eight" where one to seven name a card) is no command: refused; nor can a question
      ("repeat", "board": the policy answers them at once), so the enrolled reading of
      one is refused unless it would be applied alone or is near and well ahead where
      Whisper heard nothing valid (`near_question`; a French "plus fort" nearest the
      player's "plateau", far and by a hair, read the board aloud before).
    """
    if match is None or not match.accepted:
        return heard
    if (enrolled is not None and match.distance > SURE_DISTANCE and whisper_agrees(heard, read)
            and unknown_to(heard.words, enrolled)):
        return heard
    command = read(match.words)
    if command is not None and command == heard.command:
        if match.margin < AGREE_MARGIN:
            return heard  # a hair between two of the player's words
        return replace(heard, confidence=max(heard.confidence, AGREED))
    # A longer command than any word enrolled ("take flute"): no opinion, unless the player
    # said a word clearly that Whisper's reading does not hold (their own "zero" read "the
    # rules"): then they disagree.
    longer = heard.command is not None and len(heard.words.split()) > len(match.words.split())
    if longer and match.distance <= ONE_WORD_NEAR and any(
            read(word) == heard.command for word in heard.words.split()):
        longer = False  # one of Whisper's words beside a filler ("de score") is the reading
    if longer and (not sure(match) or set(match.words.split()) <= set(heard.words.split())):
        return heard
    refused = replace(heard, command=None, confidence=min(heard.confidence, ASKED))
    alone = (heard.command is None and sure(match)
             and not names_another_number(heard.transcript, match.words, lang)
             and not names_another_number(heard.words, match.words, lang))
    if (command in ANSWERS and lang in ENROLLED_ANSWERS and alone
            and reads_only(command, read, heard.words, heard.transcript)):
        # The player's own yes or no, sure, and nothing Whisper wrote reads otherwise (a
        # number it wrote, "8.", is a stray word said, not a yes).
        return replace(heard, command=command, confidence=AGREED, words=match.words)
    if command is None or command in ANSWERS or heard.command in ANSWERS:
        return refused
    if not is_move(command) and not alone:
        if near_question(heard, match, command, read, lang):
            return replace(heard, command=command, confidence=AGREED, words=match.words)
        return refused  # answered at once, so never asked about on the match's word alone
    confidence = AGREED if alone else ASKED
    return replace(heard, command=command, confidence=confidence, words=match.words)


def filled(heard: Recognition, match: Match | None, read: Callable[[str], str | None],
           lang: str = "en") -> Recognition:
    """Whisper's recognition beside a match of other voices' words (stand_ins.py: not the
    player's own, so weaker evidence), pure: they only agree or fill in, and never make an
    answer or a question.

    - no match, or one rejected: Whisper's recognition unchanged;
    - Whisper read a valid move or question and the match reads the same, ahead of its
      next nearest word by OTHERS_AGREE_MARGIN (OTHERS_ALONE_MARGIN where Whisper's free
      transcript does not read the same): confidence raised to AGREED (the engine then caps
      it as the grammar says); any other reading of Whisper's stands unchanged (a
      disagreement is no evidence against it); an answer (yes, no) is never raised: a
      stray word heard as one must stay refused or asked;
    - Whisper heard nothing valid: the match's move, ahead by FILL_MARGIN, is asked about
      (ASKED), never applied unasked, unless what Whisper wrote says another number
      (`names_another_number`); an answer or a question (answered at once, it cannot be
      asked about) is not taken.
    """
    if match is None or not match.accepted:
        return heard
    command = read(match.words)
    if heard.command is not None:
        lead = OTHERS_AGREE_MARGIN if whisper_agrees(heard, read) else OTHERS_ALONE_MARGIN
        if command == heard.command and command not in ANSWERS and match.margin >= lead:
            return replace(heard, confidence=max(heard.confidence, AGREED))
        return heard
    if (command is None or command in ANSWERS or not is_move(command)
            or match.margin < FILL_MARGIN
            or names_another_number(heard.transcript, match.words, lang)
            or names_another_number(heard.words, match.words, lang)):
        return heard
    return replace(heard, command=command, confidence=ASKED, words=match.words)
