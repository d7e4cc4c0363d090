"""Settings: TOML round trip, the shared file, validation, the step functions."""

from __future__ import annotations

import sys
from dataclasses import FrozenInstanceError
from pathlib import Path

import pytest

from companion.speech import (
    SpeechSettings,
    config_path,
    faster,
    load_settings,
    louder,
    quieter,
    save_settings,
    slower,
)
from companion.speech.settings import RATE_MAX, RATE_MIN

if sys.version_info >= (3, 11):
    import tomllib
else:
    import tomli as tomllib


def test_round_trip_through_a_real_toml_file_via_env_var(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setenv("TACTILE_COMPANION_CONFIG", str(tmp_path / "conf"))
    s = SpeechSettings(rate=220, volume=40, pitch=61, voices=(("en", "en-us"),),
                       verbosity="brief", earcons=False,
                       private_outputs=(("player:0", "plughw:CARD=Device"),))
    path = save_settings(s)
    assert path == tmp_path / "conf" / "config.toml" == config_path()
    doc = tomllib.loads(path.read_text())
    assert doc["speech"]["rate"] == 220
    assert doc["speech"]["private_outputs"] == {"player:0": "plughw:CARD=Device"}
    loaded, warnings = load_settings()
    assert (loaded, warnings) == (s, [])


def test_saving_keeps_other_tables_of_the_shared_file(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    path.write_text('[game]\nrules = "iello"\n\n[speech]\nrate = 100\n')
    save_settings(SpeechSettings(rate=300), path)
    doc = tomllib.loads(path.read_text())
    assert doc["game"] == {"rules": "iello"} and doc["speech"]["rate"] == 300


def test_missing_file_gives_defaults_silently(tmp_path: Path) -> None:
    assert load_settings(tmp_path / "none.toml") == (SpeechSettings(), [])


@pytest.mark.parametrize("line,word", [
    ("rate = 5000", "rate"), ("rate = 20", "rate"), ("rate = \"fast\"", "rate"),
    ("volume = -1", "volume"), ("volume = 101", "volume"), ("pitch = 100", "pitch"),
    ("verbosity = \"chatty\"", "verbosity"), ("earcons = 1", "earcons"),
    ("colour = \"red\"", "colour"), ("rate = true", "rate"),
])
def test_bad_values_warn_and_fall_back_to_default(tmp_path: Path, line: str, word: str) -> None:
    path = tmp_path / "config.toml"
    good = "volume = 30" if word != "volume" else "pitch = 70"
    path.write_text(f"[speech]\n{good}\n{line}\n")
    s, warnings = load_settings(path)
    assert len(warnings) == 1 and word in warnings[0]
    expected = SpeechSettings(volume=30) if word != "volume" else SpeechSettings(pitch=70)
    assert s == expected  # the good value survives, the bad one is the default


def test_malformed_file_and_bad_voice_table(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    path.write_text("[speech\nrate = ")
    s, warnings = load_settings(path)
    assert s == SpeechSettings() and "Could not read" in warnings[0]
    path.write_text('[speech]\nvoices = "en-us"\n[speech.private_outputs]\n"player:1" = 3\n')
    s, warnings = load_settings(path)
    assert s == SpeechSettings() and len(warnings) == 2


def test_settings_are_frozen_and_hashable() -> None:
    s = SpeechSettings()
    with pytest.raises(FrozenInstanceError):
        s.rate = 10  # type: ignore[misc]
    assert hash(s) == hash(SpeechSettings())


def test_step_functions_return_new_value_and_localisable_confirmation() -> None:
    s = SpeechSettings(rate=175, volume=70)
    f, msg = faster(s)
    assert f.rate == 200 and s.rate == 175
    assert msg.key == "speech.rate.faster" and msg.params == {"rate": 200} and "200" in msg.text
    assert slower(s)[0].rate == 150
    assert louder(s)[0].volume == 80 and quieter(s)[0].volume == 60
    top = SpeechSettings(rate=RATE_MAX, volume=100)
    assert faster(top)[0] == top and faster(top)[1].key == "speech.rate.max"
    assert louder(top)[1].key == "speech.volume.max"
    bottom = SpeechSettings(rate=RATE_MIN, volume=10)
    assert slower(bottom)[1].key == "speech.rate.min"
    # Keypad "quieter" never makes the companion mute: it could not then say how to undo it.
    assert quieter(bottom)[0].volume == 10 and quieter(bottom)[1].key == "speech.volume.min"
    s2 = s
    for _ in range(50):
        s2 = faster(s2)[0]
    assert s2.rate == RATE_MAX
