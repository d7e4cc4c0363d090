"""A free transcript → the nearest word sequence a game's grammar allows.

Whisper writes what it heard in plain text ("Gift, flute, fan and tea.", "uh take 3"); the
game only reads its grammar's words. The grammar (JSGF, as the game gives it to every
engine, or a bag of phrases) becomes a word graph; the transcript is aligned to the
cheapest path through it: a grammar word in place of a heard one costs their distance
(0 when equal, 1 when nothing alike), a heard word left out costs `SKIP` (`FILLER` for the
words people put anywhere), a grammar word not heard costs `DROP`. The path's words go to
the game's reader, which refuses anything not valid now. Pure: no audio, no model.
"""

from __future__ import annotations

import functools
import heapq
import re
import unicodedata
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType

SKIP = 0.7  # a heard word the grammar has no place for
SKIP_WORST = 0.5  # ... as a worst step: one stray word ("but tea") is asked about, not refused
FILLER = 0.15  # ... when it is one of the words people put anywhere
DROP = 0.9  # a grammar word that was not heard (optional words cost nothing: [ ] in JSGF)
BEAM = 1.5  # partial paths this much costlier than the best are dropped (docs/voice.md)
FILLERS = frozenset({"uh", "um", "er", "erm", "ah", "hmm", "mm", "okay", "ok", "so", "please",
                     "the", "a", "an", "i", "and", "then", "now", "well", "let", "lets",
                     "me", "my", "will", "ll", "want", "to", "oh", "like"})
_UNITS = ("zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine",
          "ten", "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen",
          "seventeen", "eighteen", "nineteen")
_TENS = ("", "", "twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety")
_ORDINALS = {"1st": "first", "2nd": "second", "3rd": "third", "4th": "fourth"}
# A word heard as a lone letter ("T" for "tea"): the letter's name.
_LETTERS = {"b": "bee", "c": "see", "d": "dee", "g": "gee", "j": "jay", "k": "kay",
            "p": "pee", "q": "queue", "t": "tee", "u": "you", "y": "why", "o": "oh"}


def fold(text: str) -> str:
    """Lower case without accents on Latin letters ("Thé" → "the"); Cyrillic letters are kept
    whole: й, ї and ё are letters of their own, not accented и, і and е."""
    out: list[str] = []
    for c in unicodedata.normalize("NFD", text.lower()):
        if unicodedata.combining(c) and not (out and _cyrillic(out[-1])):
            continue
        out.append(c)
    return unicodedata.normalize("NFC", "".join(out))


def _cyrillic(c: str) -> bool:
    return "\u0400" <= c <= "\u04ff"


def _number_words(n: int) -> list[str]:
    if n < 20:
        return [_UNITS[n]]
    if n < 100:
        return [_TENS[n // 10]] + ([_UNITS[n % 10]] if n % 10 else [])
    return [str(n)]


# Apostrophes inside a word: English drops them ("what's" → whats); other languages split
# there, as their readers do ("l'éventail" → l éventail, "п'ять" → п ять).
_APOSTROPHES = re.compile(r"['’ʼ‘`]")


def words_of(transcript: str, english: bool = True) -> list[str]:
    """Plain words: punctuation dropped, hyphens split, English digits and ordinals spelt."""
    out: list[str] = []
    for chunk in re.split(r"[\s\-–—/]+", fold(transcript)):
        for raw in [chunk] if english else _APOSTROPHES.split(chunk):
            word = re.sub(r"[^\w']+", "", raw).strip("'").replace("'", "")
            if not word:
                continue
            if english and word in _ORDINALS:
                out.append(_ORDINALS[word])
            elif english and word in _LETTERS:
                out.append(_LETTERS[word])
            elif english and word.isdigit():
                out += _number_words(int(word))
            else:
                out.append(word)
    return out


# -- word distance ----------------------------------------------------------------------------
_SOUND_RULES = ((r"ph", "f"), (r"ck", "k"), (r"qu", "kw"), (r"x", "ks"), (r"c(?=[eiy])", "s"),
                (r"c", "k"), (r"wh", "w"), (r"^kn", "n"), (r"gh", ""), (r"ee|ea|ie", "i"),
                (r"oo|ew|ue", "u"), (r"y$", "i"), (r"e$", ""), (r"(.)\1", r"\1"))


@functools.lru_cache(maxsize=8192)
def sound_key(word: str) -> str:
    """A rough spelling of how an English-like word sounds (silent e, ph, ck, doubled
    letters folded), so "flute"/"flewt" and "fan"/"fann" come out alike."""
    key = word
    for pattern, repl in _SOUND_RULES:
        key = re.sub(pattern, repl, key)
    return key or word


# French spelling writes many sounds several ways and leaves final letters silent: Whisper
# writes "Secré." for "secret", "Scors." for "score", "Action." for "actions". Applied to
# folded words (no accents).
_FRENCH_SOUND_RULES = ((r"eaux?|aux?", "o"), (r"ai|ei", "e"), (r"(er|ez|et|es)$", "e"),
                       (r"qu", "k"), (r"c(?=[eiy])", "s"), (r"c", "k"), (r"ph", "f"),
                       (r"(?<=[a-z])h", ""), (r"^h", ""), (r"ou", "u"),
                       (r"(?<=[aeiouy])s(?=[aeiouy])", "z"), (r"[stxdpz]$", ""),
                       (r"e$", ""), (r"(.)\1", r"\1"))


@functools.lru_cache(maxsize=8192)
def french_sound_key(word: str) -> str:
    """A rough spelling of how a French word sounds: final consonants and e silent, "ai",
    "er", "et" as e, "au" and "eau" as o, c and qu as k; "secret"/"secré",
    "score"/"scors", "actions"/"action" come out alike."""
    key = word
    for pattern, repl in _FRENCH_SOUND_RULES:
        key = re.sub(pattern, repl, key)
    return key or word


# Spanish: b and v alike, h silent, c and qu as k (s before e and i, as z), a plural's
# "-es"/"-s" as its singular: Whisper writes "Acción de" for a clear "acciones".
_SPANISH_SOUND_RULES = ((r"(?<=[aeiou]n)es$", ""), (r"s$", ""), (r"v", "b"), (r"h", ""),
                        (r"qu", "k"), (r"c(?=[ei])", "s"), (r"z", "s"), (r"c", "k"),
                        (r"ll", "y"), (r"(.)\1", r"\1"))


@functools.lru_cache(maxsize=8192)
def spanish_sound_key(word: str) -> str:
    """A rough spelling of how a Spanish word sounds ("acciones"/"accion" alike)."""
    key = word
    for pattern, repl in _SPANISH_SOUND_RULES:
        key = re.sub(pattern, repl, key)
    return key or word


# The sound keys a language's words are compared with besides their spelling.
_SOUND_KEYS = {"fr": (sound_key, french_sound_key), "es": (sound_key, spanish_sound_key)}


# A word run into another is a word of the grammar this long at least (not "de", "et", "l":
# those are said anywhere), whose sound key is this long at least.
RUN_WORD = 3
RUN_PART = 2


@functools.lru_cache(maxsize=64)
def _keyed(words: frozenset[str], lang: str) -> dict[str, str]:
    """A language's own sound key → the grammar word with it (the first in order)."""
    key = _SOUND_KEYS[lang][-1]
    out: dict[str, str] = {}
    for word in sorted(words):
        if len(word) >= RUN_WORD:
            out.setdefault(key(word), word)
    return out


@functools.lru_cache(maxsize=8192)
def run_together(heard: str, words: frozenset[str], lang: str) -> tuple[str, str] | None:
    """The two grammar words `heard` is, said as one: Whisper writes "offrurie" for "offre
    Ruri", the r they share said once, as French links words. Their sounds joined (the
    language's own key; a consonant they share counted once) must be the heard word's
    exactly. None where the word is a grammar word or no such pair exists; only in the
    languages with a sound key of their own (French, Spanish)."""
    if lang not in _SOUND_KEYS or heard in words:
        return None
    key = _SOUND_KEYS[lang][-1]
    sound = key(heard)
    keyed = _keyed(words, lang)
    for first_key, first in sorted(keyed.items(), key=lambda kv: -len(kv[0])):
        if len(first_key) < RUN_PART or not sound.startswith(first_key) \
                or len(sound) - len(first_key) < RUN_PART:
            continue
        rests = [sound[len(first_key):]]
        if first_key[-1] not in "aeiouy":
            rests.append(sound[len(first_key) - 1:])  # the shared consonant
        second = next((keyed[r] for r in rests if r in keyed), None)
        if second is not None:
            return first, second
    return None


def split_runs(heard: Sequence[str], words: frozenset[str], lang: str) -> list[str]:
    """The heard words with each word that is two grammar words said as one
    (`run_together`) split into them."""
    out: list[str] = []
    for word in heard:
        pair = run_together(word, words, lang)
        out += pair if pair else [word]
    return out


def join_splits(heard: Sequence[str], words: frozenset[str]) -> list[str]:
    """The heard words with each two in a row that spell a grammar word together joined:
    Whisper writes " Хто ви грає?" for "хто виграє" (who is winning)."""
    out: list[str] = []
    for word in heard:
        if out and out[-1] not in words and out[-1] + word in words:
            out[-1] += word
        else:
            out.append(word)
    return out


# Consonants that differ by one feature (liquids, voicing, nasals): Whisper base writes
# "Frute." for a clear French "flûte" (MBROLA fr5, every hypothesis), "tue" for "thé". In
# French a substitution between them costs ALIKE_COST, not 1 (replayed on the French tuning
# runs: 4 decodes more right at 40 dB, none lost, nothing more read wrongly; in Spanish one
# right reading at 10 dB was lost: French only).
_ALIKE = frozenset((a, b) for pair in ("lr", "bp", "dt", "gk", "mn")
                   for a, b in (pair, pair[::-1]))
ALIKE_COST = 0.5
_ALIKE_LANGS = frozenset({"fr"})


def _levenshtein(a: str, b: str, alike: bool = False) -> float:
    """Edit distance; with `alike`, a substitution within `_ALIKE` costs ALIKE_COST."""
    previous: list[float] = [float(j) for j in range(len(b) + 1)]
    for i, ca in enumerate(a, 1):
        current: list[float] = [float(i)]
        for j, cb in enumerate(b, 1):
            sub = 0.0 if ca == cb else ALIKE_COST if alike and (ca, cb) in _ALIKE else 1.0
            current.append(min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + sub))
        previous = current
    return previous[-1]


@functools.lru_cache(maxsize=65536)
def distance(heard: str, word: str, lang: str = "en") -> float:
    """0 (the same word) to 1 (nothing alike), on spelling and on the language's sound keys
    (English's rough one for the languages without their own)."""
    if heard == word:
        return 0.0
    best = 1.0
    keys = _SOUND_KEYS.get(lang, (sound_key,))
    for key in keys:
        a, b = key(heard), key(word)
        if a == b:
            return 0.1
        alike = lang in _ALIKE_LANGS and key is keys[-1]  # the language's own key
        best = min(best, _levenshtein(a, b, alike) / max(len(a), len(b)) * 1.25)
    return best


# -- grammars as word graphs ------------------------------------------------------------------
@dataclass
class Graph:
    """Nodes 0..n-1; `edges[node]` = [(next node, word or None)]; from `start` to `end`."""

    edges: list[list[tuple[int, str | None]]] = field(default_factory=list)
    start: int = 0
    end: int = 0
    # Built once a graph is complete and asked (a decode asks them thousands of times).
    _closures: dict[int, frozenset[int]] = field(default_factory=dict, repr=False,
                                                 compare=False)
    _words: frozenset[str] | None = field(default=None, repr=False, compare=False)

    def node(self) -> int:
        self.edges.append([])
        return len(self.edges) - 1

    def link(self, a: int, b: int, word: str | None = None) -> None:
        self.edges[a].append((b, word))
        self._closures.clear()
        self._words = None

    @property
    def words(self) -> frozenset[str]:
        if self._words is None:
            self._words = frozenset(w for out in self.edges for _, w in out if w is not None)
        return self._words

    def closure(self, node: int) -> frozenset[int]:
        """The nodes reached from `node` by empty edges (itself included)."""
        found = self._closures.get(node)
        if found is None:
            found = self._closures[node] = frozenset(_empty_closure({node}, self))
        return found


_TOKEN = re.compile(r"<[^>]+>|/[^/]*/|[()\[\]|+*]|[^\s()\[\]|+*<>/;]+")


def _rules(jsgf: str) -> dict[str, str]:
    rules: dict[str, str] = {}
    for statement in jsgf.split(";"):
        head, eq, body = statement.partition("=")
        name = re.search(r"<([^>]+)>", head)
        if eq and name:
            rules[name.group(1)] = body
    return rules


class _Builder:
    """Thompson construction of a JSGF rule expansion (rule references inlined)."""

    def __init__(self, rules: dict[str, str]) -> None:
        self.rules = rules
        self.graph = Graph()

    def rule(self, name: str, depth: int = 0) -> tuple[int, int]:
        if depth > 20 or name not in self.rules:
            raise ValueError(f"the grammar's rule <{name}> is missing or recursive")
        tokens = [t for t in _TOKEN.findall(self.rules[name]) if not t.startswith("/")]
        start, end, rest = self._alternatives(tokens, depth)
        if rest:
            raise ValueError(f"unbalanced brackets in the grammar's rule <{name}>")
        return start, end

    def _alternatives(self, tokens: list[str], depth: int) -> tuple[int, int, list[str]]:
        g = self.graph
        start, end = g.node(), g.node()
        while True:
            a, b, tokens = self._sequence(tokens, depth)
            g.link(start, a)
            g.link(b, end)
            if not tokens or tokens[0] != "|":
                return start, end, tokens
            tokens = tokens[1:]

    def _sequence(self, tokens: list[str], depth: int) -> tuple[int, int, list[str]]:
        g = self.graph
        start = here = g.node()
        while tokens and tokens[0] not in ("|", ")", "]"):
            a, b, tokens = self._atom(tokens, depth)
            if tokens and tokens[0] in ("+", "*"):
                g.link(b, a)  # repeat
                if tokens[0] == "*":
                    g.link(a, b)
                tokens = tokens[1:]
            g.link(here, a)
            here = b
        return start, here, tokens

    def _atom(self, tokens: list[str], depth: int) -> tuple[int, int, list[str]]:
        g = self.graph
        token, tokens = tokens[0], tokens[1:]
        if token in ("(", "["):
            a, b, tokens = self._alternatives(tokens, depth)
            if not tokens or tokens[0] != {"(": ")", "[": "]"}[token]:
                raise ValueError("unbalanced brackets in the grammar")
            if token == "[":
                g.link(a, b)  # optional
            return a, b, tokens[1:]
        if token.startswith("<"):
            a, b = self.rule(token[1:-1], depth + 1)
            return a, b, tokens
        a, b = g.node(), g.node()
        g.link(a, b, fold(token))
        return a, b, tokens


@functools.lru_cache(maxsize=64)
def jsgf_graph(jsgf: str) -> Graph:
    """The word graph of a JSGF grammar's public rule (the last `public <...>`)."""
    public = re.findall(r"public\s+<([^>]+)>", jsgf)
    if not public:
        raise ValueError("the grammar has no public rule")
    builder = _Builder(_rules(jsgf))
    builder.graph.start, builder.graph.end = builder.rule(public[-1])
    return builder.graph


@functools.lru_cache(maxsize=64)
def phrases_graph(phrases: tuple[str, ...]) -> Graph:
    """Any sequence of the phrases (a bag of phrases, as Vosk's grammar mode takes)."""
    g = Graph()
    g.start = g.end = g.node()
    for phrase in phrases:
        here = g.start
        words = words_of(phrase, english=False)  # split as the heard words are
        for i, word in enumerate(words):
            nxt = g.start if i == len(words) - 1 else g.node()
            g.link(here, nxt, word)
            here = nxt
    return g


@functools.lru_cache(maxsize=64)
def phrases_spelling(phrases: tuple[str, ...]) -> MappingProxyType[str, str]:
    """Each folded word of the phrases (as phrases_graph has it) → its first spelling, an
    elided one with its apostrophe ("l'éventail": l → "l'", eventail → "éventail"), so a
    grammar sentence can be written for the model as a writer of the language would."""
    out: dict[str, str] = {}
    for phrase in phrases:
        for chunk in phrase.replace("-", " ").split():  # "peux-tu": "peux", "tu"
            pieces = _APOSTROPHES.split(chunk)
            marks = _APOSTROPHES.findall(chunk)
            for piece, mark in zip(pieces, [*marks, ""], strict=True):
                folded = words_of(piece, english=False)
                if len(folded) == 1:
                    out.setdefault(folded[0], piece + mark)
    return MappingProxyType(out)  # cached and shared: read-only


# -- alignment --------------------------------------------------------------------------------
@dataclass(frozen=True)
class Mapping:
    """The grammar words nearest a transcript, what it cost, and its worst single step (a
    card misheard as another costs little among many good words, but it is still wrong)."""

    words: tuple[str, ...]
    cost: float
    worst: float = 0.0

    @property
    def per_word(self) -> float:
        return self.cost / max(1, len(self.words))


def _skip_cost(word: str) -> float:
    return FILLER if word in FILLERS else SKIP


def align(heard: Sequence[str], graph: Graph, lang: str = "en") -> Mapping | None:
    """The cheapest path through `graph` for the heard words (None: no path at all);
    words compared with `lang`'s sound keys."""
    inf = float("inf")
    # best[node] = (cost, path as a linked tuple of words) after the words read so far.
    best: dict[int, tuple[float, tuple, float]] = {graph.start: (0.0, (), 0.0)}
    for t in range(len(heard) + 1):
        # Viterbi beam: a partial path BEAM costlier than the best one is dropped (in a
        # large grammar the closure otherwise visits every node after every word); the
        # last closure is not bounded, so the end is always reached.
        last = t == len(heard)
        bound = inf if last else min(cost for cost, _, _ in best.values()) + BEAM
        best = _close(best, graph, bound)
        if last:
            break
        best = {node: state for node, state in best.items() if state[0] <= bound}
        word = heard[t]
        nxt: dict[int, tuple[float, tuple, float]] = {}
        for node, (cost, path, worst) in best.items():
            step = _skip_cost(word)
            if cost + step < nxt.get(node, (inf,))[0]:
                nxt[node] = (cost + step, path, max(worst, SKIP_WORST if step == SKIP else 0.0))
            for target, label in graph.edges[node]:
                if label is None:
                    continue
                step = distance(word, label, lang)
                if cost + step < nxt.get(target, (inf,))[0]:
                    nxt[target] = (cost + step, (label, path), max(worst, step))
        best = nxt
    if graph.end not in best:
        return None
    cost, path, worst = best[graph.end]
    out: list[str] = []
    while path:
        out.append(path[0])
        path = path[1]
    return Mapping(tuple(reversed(out)), cost, worst)


_State = dict[int, tuple[float, tuple, float]]


def _close(best: _State, graph: Graph, bound: float = float("inf")) -> _State:
    """Follow empty edges (free) and grammar words not heard (DROP), cheapest first, to
    the states no costlier than `bound`."""
    done = dict(best)
    heap = [(cost, node) for node, (cost, _, _) in best.items()]
    heapq.heapify(heap)
    while heap:
        cost, node = heapq.heappop(heap)
        if cost > done[node][0]:
            continue
        _, path, worst = done[node]
        for target, label in graph.edges[node]:
            c = cost + (0.0 if label is None else DROP)
            if c > bound:
                continue
            if target not in done or c < done[target][0]:
                done[target] = ((c, path, worst) if label is None
                                else (c, (label, path), max(worst, DROP)))
                heapq.heappush(heap, (c, target))
    return done


def vocabulary(graph: Graph) -> list[str]:
    """The graph's words, for a decoder's prompt."""
    return sorted(graph.words)


def collapse_repeats(words: Iterable[str]) -> list[str]:
    """A word said twice in a row ("gift gift flute") once: decoders stutter; cards said twice
    on purpose are separated by "and" or another card in the grammars' forms."""
    out: list[str] = []
    for w in words:
        if not out or out[-1] != w:
            out.append(w)
    return out


def said_once(words: Sequence[str]) -> list[str] | None:
    """A run of two words or more written twice or more in a row, the last time perhaps cut
    ("gift six umbrella flute gift six umbrella flute gift six"): the run once, else None.
    Whisper's free beam loops on a whole command in noise (docs/voice.md, "A whole move
    looped"); a player may also say a command twice. A word alone over and over is not
    this: that is a loop on noise (whisper.LOOP)."""
    for size in range(2, len(words) // 2 + 1):
        if all(word == words[k % size] for k, word in enumerate(words)):
            return list(words[:size])
    return None


def accepts(graph: Graph, words: Sequence[str]) -> bool:
    """Whether the word sequence is a path from start to end (no cost allowed)."""
    here = graph.closure(graph.start)
    for word in words:
        here = frozenset().union(*(graph.closure(b) for a in here
                                   for b, label in graph.edges[a] if label == word))
        if not here:
            return False
    return graph.end in here


def _empty_closure(nodes: set[int], graph: Graph) -> set[int]:
    todo, seen = list(nodes), set(nodes)
    while todo:
        for target, label in graph.edges[todo.pop()]:
            if label is None and target not in seen:
                seen.add(target)
                todo.append(target)
    return seen
