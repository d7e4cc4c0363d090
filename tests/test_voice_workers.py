"""The second opinions decoded in worker processes: the same answers as in one process, and
a worker that fails never costs a command."""

from __future__ import annotations

import shutil
import subprocess

import pytest

from companion.games.hanamikoji.data import Item
from companion.games.hanamikoji.voice.context import Context
from companion.voice.audio import read_wav

pytest.importorskip("pocketsphinx")
if shutil.which("espeak-ng") is None:  # pragma: no cover - depends on the machine
    pytest.skip("espeak-ng is needed to synthesize test speech", allow_module_level=True)

from companion.games.hanamikoji.voice.hooks import HanamikojiRecognizer  # noqa: E402
from companion.voice.sphinx import SphinxRecognizer  # noqa: E402
from companion.voice.workers import DecoderProcess, WorkerGone  # noqa: E402

UTTERANCES = [
    ("the secret", Context.action()),  # all three decodes
    ("gift red blue green", Context.action()),  # a list: two decodes
    ("show me the score", Context.any()),  # a question
    ("take the first pair", Context.answer_competition([Item.FAN, Item.TEA],
                                                       [Item.FLUTE, Item.SCROLL])),
    ("what time is it", Context.action()),  # chatter: refused
    ("discard scroll shamisen", Context.action()),
]


@pytest.fixture(scope="module")
def audio(tmp_path_factory: pytest.TempPathFactory) -> list[bytes]:
    folder = tmp_path_factory.mktemp("workers")
    pcms = []
    for n, (text, _) in enumerate(UTTERANCES):
        path = folder / f"{n}.wav"
        subprocess.run(["espeak-ng", "-v", "en-us", "-w", str(path), text], check=True)
        pcms.append(read_wav(path))
    return pcms


def test_workers_give_the_same_recognitions_as_one_process(audio) -> None:  # type: ignore[no-untyped-def]
    alone = HanamikojiRecognizer(SphinxRecognizer(parallel=False))
    beside = HanamikojiRecognizer(SphinxRecognizer(parallel=True))
    try:
        assert beside.engine.parallel and not alone.engine.parallel
        for (text, ctx), pcm in zip(UTTERANCES, audio, strict=True):
            assert beside.recognize(pcm, ctx) == alone.recognize(pcm, ctx), text
        assert beside.engine.parallel  # every worker answered
        # Some of them were commands, some refusals: the comparison covered both.
        results = {alone.recognize(pcm, ctx).command is None
                   for (_, ctx), pcm in zip(UTTERANCES, audio, strict=True)}
        assert results == {True, False}
    finally:
        beside.close()


def test_a_worker_that_dies_costs_no_command(audio) -> None:  # type: ignore[no-untyped-def]
    recognizer = HanamikojiRecognizer(SphinxRecognizer(parallel=True))
    try:
        pairs = list(zip(UTTERANCES, audio, strict=True))
        expected = [recognizer.recognize(pcm, ctx) for (_, ctx), pcm in pairs]
        worker = recognizer.engine._second._worker
        assert worker is not None and worker._process is not None
        worker._process.kill()
        worker._process.wait()
        again = [recognizer.recognize(pcm, ctx) for (_, ctx), pcm in pairs]
        assert again == expected
        assert not recognizer.engine.parallel and worker.dead  # it says why, and decodes here now
    finally:
        recognizer.close()


def test_a_worker_that_cannot_start_says_why() -> None:
    worker = DecoderProcess({"hmm": "/no/such/model", "lm": None, "loglevel": "FATAL"})
    with pytest.raises(WorkerGone) as failure:
        worker.words(worker.submit(b"\0\0" * 1600, "g",
                                   "#JSGF V1.0;\ngrammar g;\npublic <c> = score;\n"))
    assert worker.dead and str(failure.value) == worker.dead
    worker.close()


def test_words_learnt_later_reach_the_workers(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """Momiji teaches the recognizer its words after the workers have started."""
    from companion.voice.sphinx import Grammar

    path = tmp_path / "t.wav"
    subprocess.run(["espeak-ng", "-v", "en-us", "-w", str(path), "activate the torii"],
                   check=True)
    grammar = Grammar("t", "#JSGF V1.0;\ngrammar t;\npublic <c> = activate [the] torii | score;\n")
    recognizer = SphinxRecognizer(parallel=True)
    try:
        assert not recognizer.known("torii")
        recognizer.add_words({"torii": ("T AO R IY IY", "T AO R IY")})
        heard = recognizer.recognize_grammar(read_wav(path), grammar, grammar,
                                             lambda words: " ".join(words.split()) or None)
        assert heard.command == "activate the torii" and recognizer.parallel
    finally:
        recognizer.close()
