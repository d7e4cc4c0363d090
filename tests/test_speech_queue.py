"""Priorities, replacement, interruption within 100 ms, stop, wait, close, NullSpeaker."""

from __future__ import annotations

import os
import threading
import time
from pathlib import Path

import pytest
from test_speech_helpers import ESPEAK, children, needs_espeak, until

from companion.speech import (
    FileSinkPlayer,
    NullSpeaker,
    Priority,
    Speaker,
    SpeechSettings,
    open_speaker,
    paced_sink_player,
)
from companion.speech.players import aplay_player, probe_player

pytestmark = needs_espeak

FAST = SpeechSettings(rate=260)
LONG = ("The board: Ayane, flute, two points, nobody. Iroha, fan, two points, Ana. "
        "Tomoyo, scroll, two points, Ben. Yoko, umbrella, three points, nobody. "
        "Chiharu, shamisen, three points, Ana. Anju, tea set, four points, Ben.")


def rt_speaker() -> tuple[Speaker, FileSinkPlayer]:
    sink = FileSinkPlayer(realtime=True)  # consumes audio at the sample rate, like a card
    return Speaker(sink, lang="en", settings=FAST, espeak=ESPEAK), sink


def playing(u) -> bool:
    return u.state == "playing" and u.first_audio_at is not None


def test_prompt_and_refusal_interrupt_narration_but_not_each_other() -> None:
    sp, sink = rt_speaker()
    try:
        n = sp.say(LONG, Priority.NARRATION, kind="board")
        assert until(lambda: playing(n))
        p = sp.say("Your turn, Ana.", Priority.PROMPT, kind="prompt")
        assert until(lambda: playing(p))
        assert n.state == "interrupted"
        r = sp.say("Not allowed.", Priority.REFUSAL, kind="refusal")
        assert sp.wait(10)
        assert (p.state, r.state) == ("done", "done")  # the prompt was not cut by the refusal
    finally:
        sp.close()
    texts = [(rec.meta["text"], rec.interrupted) for rec in sink.recordings]
    assert texts == [(LONG, True), ("Your turn, Ana.", False), ("Not allowed.", False)]
    assert sink.recordings[0].seconds < 2.0  # far less than the ~9 s the whole board takes


def test_newer_unspoken_narration_of_same_kind_replaces_older() -> None:
    sp, sink = rt_speaker()
    try:
        first = sp.say("Ana draws a card.", kind="board")
        assert until(lambda: playing(first))
        old = sp.say("Old board.", kind="board")
        other = sp.say("Score: Ana 5, Ben 3.", kind="score")
        new = sp.say("New board.", kind="board")
        assert old.state == "replaced"
        assert sp.wait(10)
        assert (first.state, other.state, new.state) == ("done", "done", "done")
    finally:
        sp.close()
    assert [r.meta["text"] for r in sink.recordings] == [
        "Ana draws a card.", "Score: Ana 5, Ben 3.", "New board."]


def test_higher_priority_jumps_the_queue_and_order_is_fifo_within_priority() -> None:
    sp, sink = rt_speaker()
    try:
        first = sp.say("One.", Priority.PROMPT, kind=None)
        assert until(lambda: playing(first))
        sp.say("Two.", Priority.NARRATION, kind=None)
        sp.say("Three.", Priority.PROMPT, kind=None)
        sp.say("Four.", Priority.REFUSAL, kind=None)
        sp.say("Five.", Priority.PROMPT, kind=None)
        assert sp.wait(10)
    finally:
        sp.close()
    assert [r.meta["text"] for r in sink.recordings] == ["One.", "Four.", "Three.", "Five.",
                                                         "Two."]


def test_stop_silences_and_drops_queue_then_speaker_goes_on() -> None:
    sp, sink = rt_speaker()
    try:
        a = sp.say(LONG, Priority.PROMPT, kind="a")
        assert until(lambda: playing(a))
        queued = [sp.say("Later.", Priority.NARRATION, kind="b"),
                  sp.say("Refused.", Priority.REFUSAL, kind="c")]
        t0 = time.perf_counter()
        sp.stop()
        assert time.perf_counter() - t0 < 0.1
        assert a.state == "stopped" and [u.state for u in queued] == ["stopped", "stopped"]
        assert sp.wait(1)
        after = sp.say("Fresh.", kind=None)
        assert sp.wait(5) and after.state == "done"
    finally:
        sp.close()
    assert [r.meta["text"] for r in sink.recordings] == [LONG, "Fresh."]
    assert sink.recordings[0].interrupted


def test_real_subprocess_player_is_silenced_within_100ms(tmp_path: Path) -> None:
    """A paced player process (audio leaves it at the sample rate) killed by stop()."""
    out = tmp_path / "heard.raw"
    sp = Speaker(paced_sink_player(out), lang="en", settings=FAST, espeak=ESPEAK)
    bps = 22050 * 2
    try:
        before = children()
        u = sp.say(LONG, kind="board")
        assert until(lambda: out.exists() and out.stat().st_size > 0.3 * bps)
        assert children() - before  # espeak-ng and the player really are running
        t0 = time.perf_counter()
        sp.stop()
        stopped_in = time.perf_counter() - t0
        heard = out.stat().st_size
        time.sleep(0.25)
        assert out.stat().st_size == heard  # nothing more reached the "speaker"
        assert stopped_in < 0.1, stopped_in
        assert heard < 1.5 * bps  # the full sentence is ~9 s
        assert u.state == "stopped"
        assert until(lambda: not (children() - before), 1.0)  # reaped, no zombies
    finally:
        sp.close()


def test_wait_blocks_until_everything_is_spoken() -> None:
    sp, sink = rt_speaker()
    try:
        us = [sp.say("Ana.", kind=None), sp.say("Ben.", kind=None)]
        sp.earcon("round_over")
        t0 = time.perf_counter()
        assert sp.wait(10)
        assert time.perf_counter() - t0 > 0.3  # it really waited for real-time playback
        assert all(u.state == "done" for u in us)
        assert len(sink.recordings) == 3
        assert sp.say("Later.", kind=None) and not sp.wait(0.01)  # a timeout returns False
    finally:
        sp.close()


def test_close_leaves_no_thread_or_process(tmp_path: Path) -> None:
    before_children = children()
    before_threads = {t.ident for t in threading.enumerate()}
    sp = Speaker(paced_sink_player(tmp_path / "x.raw"), lang="en", espeak=ESPEAK)
    sp.say(LONG)
    assert until(lambda: (tmp_path / "x.raw").exists())
    sp.close()
    assert sp.say("After close.").state == "dropped"
    assert until(lambda: not (children() - before_children), 1.0)
    assert until(lambda: {t.ident for t in threading.enumerate()} <= before_threads, 1.0)


def test_say_returns_immediately_even_while_playing() -> None:
    sp, _ = rt_speaker()
    try:
        t0 = time.perf_counter()
        for i in range(20):
            sp.say(f"Message {i}.", kind=None)
        assert time.perf_counter() - t0 < 0.05
    finally:
        sp.close()


def test_null_speaker_is_silent_and_never_blocks() -> None:
    sp = NullSpeaker()
    u = sp.say("Hello", Priority.REFUSAL, kind="x", channel="player:0")
    assert u.state == "dropped" and u.wait(0)
    assert sp.earcon("accepted").state == "dropped"
    t0 = time.perf_counter()
    assert sp.wait(5)
    sp.stop()
    sp.close()
    assert time.perf_counter() - t0 < 0.01


def test_disabled_gives_null_speaker_and_no_notice(tmp_path: Path) -> None:
    sp, notice = open_speaker("fr", enabled=False, config=tmp_path / "c.toml")
    assert isinstance(sp, NullSpeaker) and notice is None


@pytest.mark.skipif(probe_player(aplay_player()), reason="this machine has a working sound card")
def test_no_sound_card_is_detected_quickly(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.delenv("PULSE_SERVER", raising=False)
    t0 = time.perf_counter()
    sp, notice = open_speaker("fr", config=tmp_path / "c.toml")
    assert time.perf_counter() - t0 < 2.0
    assert isinstance(sp, NullSpeaker)
    assert notice is not None and notice.key == "speech.no_audio"
    assert str(notice) == "No audio output found: printing only."


def test_file_sink_backend_records_a_game(tmp_path: Path) -> None:
    sp, notice = open_speaker("fr", settings=SpeechSettings(), out_dir=tmp_path / "rec")
    try:
        assert notice is None and "file sink" in sp.backend
        sp.say("Bonjour.", kind=None)
        sp.earcon("your_turn")
        assert sp.wait(5)
    finally:
        sp.close()
    files = sorted(os.listdir(tmp_path / "rec"))
    assert "index.jsonl" in files and sum(f.endswith(".wav") for f in files) == 2
