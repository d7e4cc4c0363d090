"""One pocketsphinx decoder with a cache of grammar searches: what the recognizer decodes
with here (sphinx.py) and what a worker process decodes with (workers.py). Both import it;
it imports neither, so the two no longer import each other.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable, Iterable, Mapping, Sequence

from companion.voice.reasons import Explained, explained

MAX_SEARCHES = 24  # grammars kept compiled; answer contexts differ every turn

# (search name, JSGF text made on first use): what a decoder decodes against.
Search = tuple[str, Callable[[], str]]


class VoiceUnavailable(Explained, RuntimeError):
    """Recognition cannot run here (missing package or model): `message` says why in the
    catalogue when raised by `reasons.explained`, str() in English."""


class Cancelled(Exception):
    """A decode was abandoned: another input came meanwhile, so its words are stale."""


def import_pocketsphinx():  # type: ignore[no-untyped-def]
    try:
        import pocketsphinx
    except ImportError as exc:  # pragma: no cover - depends on the environment
        raise explained(VoiceUnavailable, "pocketsphinx_missing") from exc
    return pocketsphinx


class Decoder:
    """One pocketsphinx decoder with the words it was taught and a cache of grammar
    searches. `extra`: pronunciations (CMU phones) of words its dictionary lacks."""

    def __init__(self, ps: object, options: dict[str, object],
                 extra: Mapping[str, Sequence[str]] | None = None) -> None:
        self.decoder = ps.Decoder(**options)  # type: ignore[attr-defined]
        self._searches: OrderedDict[str, None] = OrderedDict()
        if extra:
            self.add_words(extra, extra)

    def add_words(self, words: Iterable[str], pronunciations: Mapping[str, Sequence[str]]
                  ) -> None:
        """Teach the decoder the `words` its dictionary lacks, from `pronunciations`."""
        decoder = self.decoder
        entries: list[tuple[str, str]] = []
        for word in (w for w in sorted(words) if decoder.lookup_word(w) is None):
            prons = pronunciations.get(word)
            if not prons:
                raise explained(VoiceUnavailable, "no_grammar_pronunciation", word=word)
            # Alternates use the dictionary's own "word(2)" convention.
            entries += [(word if n == 0 else f"{word}({n + 1})", phones)
                        for n, phones in enumerate(prons)]
        for n, (word, phones) in enumerate(entries):
            # Rebuilding the decoder's word tables is slow: do it once, on the last word.
            decoder.add_word(word, phones, update=n == len(entries) - 1)

    def decode(self, audio: bytes, search: Search) -> str:
        """The best path's words in the grammar `search` names ("" when none is complete)."""
        name, text = search
        if name in self._searches:
            self._searches.move_to_end(name)
        else:
            self.decoder.add_jsgf_string(name, text())
            self._searches[name] = None
            while len(self._searches) > MAX_SEARCHES:
                old, _ = self._searches.popitem(last=False)
                self.decoder.remove_search(old)
        d = self.decoder
        d.activate_search(name)
        d.start_utt()
        # full_utt: the whole utterance at once, so the cepstral mean is the utterance's own
        # and the result cannot depend on what the previous call heard.
        d.process_raw(audio, full_utt=True)
        d.end_utt()
        hyp = d.hyp()
        return hyp.hypstr if hyp is not None else ""
