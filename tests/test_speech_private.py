"""The private channel: a secret reaches its player's output or nothing, never the table."""

from __future__ import annotations

import json
from pathlib import Path

from test_speech_helpers import ESPEAK, needs_espeak

from companion.speech import FileSinkPlayer, Priority, Speaker, SpeechSettings, open_speaker
from companion.speech import backend as backend_mod
from companion.speech.audio import rms
from companion.speech.players import aplay_player, probe_player

pytestmark = needs_espeak

SECRET = "Your secret card is the flute."


def test_private_text_goes_only_to_that_players_output() -> None:
    shared, mine = FileSinkPlayer(), FileSinkPlayer()
    sp = Speaker(shared, {"player:0": mine}, lang="en", espeak=ESPEAK)
    try:
        u = sp.say(SECRET, Priority.PROMPT, kind="secret", channel="player:0")
        e = sp.earcon("accepted", channel="player:0")
        assert sp.wait(5) and (u.state, e.state) == ("done", "done")
    finally:
        sp.close()
    assert shared.recordings == []
    assert [r.meta["text"] for r in mine.recordings if not r.meta["earcon"]] == [SECRET]
    assert rms(mine.recordings[0].pcm) > 500


def test_channel_without_output_is_not_spoken_anywhere() -> None:
    shared, mine = FileSinkPlayer(), FileSinkPlayer()
    sp = Speaker(shared, {"player:0": mine}, lang="en", espeak=ESPEAK)
    try:
        for ch in ["player:1", "", "shared", "PLAYER:0", "player:0 ", "None"]:
            assert sp.say(SECRET, Priority.REFUSAL, channel=ch).state == "dropped", ch
            assert sp.earcon("your_turn", channel=ch).state == "dropped", ch
        assert sp.wait(5)
    finally:
        sp.close()
    assert shared.recordings == [] and mine.recordings == []


def test_missing_private_device_at_play_time_never_falls_back() -> None:
    shared = FileSinkPlayer()
    gone = aplay_player("plughw:CARD=NoSuchEarbud")  # a real aplay that cannot open it
    sp = Speaker(shared, {"player:0": gone}, lang="en", espeak=ESPEAK)
    try:
        u = sp.say(SECRET, Priority.PROMPT, kind="secret", channel="player:0")
        assert sp.wait(5)
        assert u.state == "failed"
        assert sp.say("Public.", kind=None).wait(5)
    finally:
        sp.close()
    assert [r.meta["text"] for r in shared.recordings] == ["Public."]


def test_missing_private_device_at_open_gives_notice_and_no_channel(
        tmp_path: Path, monkeypatch) -> None:
    shared = FileSinkPlayer()
    real_aplay = backend_mod.aplay_player
    # The shared output is a sink that "probes fine"; the earbud is a real, absent ALSA device.
    monkeypatch.setattr(backend_mod, "aplay_player",
                        lambda device=None: shared if device is None else real_aplay(device))
    monkeypatch.setattr(backend_mod, "probe_player",
                        lambda p, t=1.5: p is shared or probe_player(p, t))
    s = SpeechSettings(private_outputs=(("player:0", "plughw:CARD=NoSuchEarbud"),))
    sp, notice = open_speaker("en", settings=s)
    try:
        assert notice is not None and notice.key == "speech.private_missing"
        assert notice.params["channel"] == "player:0"
        assert sp.private_channels == ()
        assert sp.say(SECRET, Priority.PROMPT, channel="player:0").state == "dropped"
        assert sp.wait(5)
    finally:
        sp.close()
    assert shared.recordings == []


def test_recorded_game_keeps_secrets_out_of_the_shared_folder(tmp_path: Path) -> None:
    s = SpeechSettings(private_outputs=(("player:0", "plughw:CARD=Earbud"),))
    sp, _ = open_speaker("en", settings=s, out_dir=tmp_path)
    try:
        sp.say("Ana plays a secret.", kind=None)
        sp.say(SECRET, Priority.PROMPT, kind="secret", channel="player:0")
        sp.say(SECRET, Priority.PROMPT, kind="secret", channel="player:1")
        assert sp.wait(5)
    finally:
        sp.close()
    shared_index = (tmp_path / "index.jsonl").read_text()
    assert SECRET not in shared_index
    assert len(list(tmp_path.glob("*.wav"))) == 1
    private = [json.loads(x) for x in (tmp_path / "private-player_0" / "index.jsonl")
               .read_text().splitlines()]
    assert [p["text"] for p in private] == [SECRET]
    assert not (tmp_path / "private-player_1").exists()
