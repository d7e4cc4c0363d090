"""Speech settings: a frozen value, a TOML file, validation and the four step functions.

The file is shared with the rest of the application: the speech keys live in a `[speech]`
table and saving rewrites that table only, leaving the others as they were.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import tomli_w

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - exercised on 3.10 only
    import tomli as tomllib

# The file's place is shared with the rest of the companion (re-exported here).
from companion.settings_file import (  # noqa: E402, F401
    APP_NAME,
    CONFIG_ENV,
    CONFIG_FILE,
    config_path,
)

TABLE = "speech"

RATE_MIN, RATE_MAX, RATE_STEP = 80, 450, 25  # espeak-ng refuses rates below 80 wpm
VOLUME_MIN, VOLUME_MAX, VOLUME_STEP = 0, 100, 10
PITCH_MIN, PITCH_MAX = 0, 99
VERBOSITIES = ("brief", "normal", "detailed")


@dataclass(frozen=True)
class SpeechMessage:
    """A sentence for the player: `key` + `params` for the app's translations, `text` in English."""

    key: str
    text: str
    params: Mapping[str, Any] = field(default_factory=dict)

    def __str__(self) -> str:
        return self.text


@dataclass(frozen=True)
class SpeechSettings:
    rate: int = 175  # words per minute (espeak-ng's own default)
    volume: int = 70  # 0..100; 50 is espeak-ng's reference loudness, see synth.amplitude()
    pitch: int = 50  # 0..99, espeak-ng's scale
    # Pairs rather than dicts so the value is really immutable and hashable.
    voices: tuple[tuple[str, str], ...] = ()  # per-language override, e.g. (("en", "en-us"),)
    verbosity: str = "normal"
    earcons: bool = True
    # Private outputs: channel name -> ALSA device, e.g. (("player:0", "plughw:CARD=Device"),)
    private_outputs: tuple[tuple[str, str], ...] = ()

    def voice_override(self, lang: str) -> str | None:
        return dict(self.voices).get(lang)

    def private_device(self, channel: str) -> str | None:
        return dict(self.private_outputs).get(channel)


DEFAULTS = SpeechSettings()


def _int_in(name: str, value: Any, lo: int, hi: int, warnings: list[str]) -> int | None:
    if isinstance(value, bool) or not isinstance(value, int):
        warnings.append(f"Speech setting {name} = {value!r} is not a whole number; using default.")
        return None
    if not lo <= value <= hi:
        warnings.append(
            f"Speech setting {name} = {value} is outside {lo} to {hi}; using default."
        )
        return None
    return value


def _str_pairs(name: str, value: Any, warnings: list[str]) -> tuple[tuple[str, str], ...] | None:
    if not isinstance(value, dict):
        warnings.append(f"Speech setting {name} should be a table; using default.")
        return None
    pairs = []
    for k, v in value.items():
        if isinstance(v, str) and v.strip():
            pairs.append((str(k), v.strip()))
        else:
            warnings.append(f"Speech setting {name}.{k} = {v!r} is not a name; ignored.")
    return tuple(sorted(pairs))


def settings_from_mapping(data: Mapping[str, Any]) -> tuple[SpeechSettings, list[str]]:
    """Validate a `[speech]` table; every bad value becomes a warning and its default."""
    warnings: list[str] = []
    values: dict[str, Any] = {}
    for key, value in data.items():
        parsed: Any = None
        if key == "rate":
            parsed = _int_in(key, value, RATE_MIN, RATE_MAX, warnings)
        elif key == "volume":
            parsed = _int_in(key, value, VOLUME_MIN, VOLUME_MAX, warnings)
        elif key == "pitch":
            parsed = _int_in(key, value, PITCH_MIN, PITCH_MAX, warnings)
        elif key == "verbosity":
            if value in VERBOSITIES:
                parsed = value
            else:
                warnings.append(
                    f"Speech setting verbosity = {value!r} is not one of "
                    f"{', '.join(VERBOSITIES)}; using default."
                )
        elif key == "earcons":
            if isinstance(value, bool):
                parsed = value
            else:
                warnings.append(f"Speech setting earcons = {value!r} is not true or false; "
                                "using default.")
        elif key in ("voices", "private_outputs"):
            parsed = _str_pairs(key, value, warnings)
        else:
            warnings.append(f"Unknown speech setting {key!r}; ignored.")
        if parsed is not None:
            values[key] = parsed
    return replace(DEFAULTS, **values), warnings


def load_settings(
    path: str | os.PathLike[str] | None = None,
) -> tuple[SpeechSettings, list[str]]:
    """Read the settings file; never raises for a missing, unreadable or malformed file."""
    p = config_path(path)
    try:
        with p.open("rb") as fh:
            doc = tomllib.load(fh)
    except FileNotFoundError:
        return DEFAULTS, []
    except (OSError, tomllib.TOMLDecodeError) as exc:
        return DEFAULTS, [f"Could not read the settings file {p}: {exc}; using defaults."]
    table = doc.get(TABLE, {})
    if not isinstance(table, dict):
        return DEFAULTS, [f"The [{TABLE}] part of {p} is not a table; using defaults."]
    return settings_from_mapping(table)


def settings_to_mapping(settings: SpeechSettings) -> dict[str, Any]:
    return {
        "rate": settings.rate,
        "volume": settings.volume,
        "pitch": settings.pitch,
        "verbosity": settings.verbosity,
        "earcons": settings.earcons,
        "voices": dict(settings.voices),
        "private_outputs": dict(settings.private_outputs),
    }


def save_settings(settings: SpeechSettings, path: str | os.PathLike[str] | None = None) -> Path:
    """Write the `[speech]` table, keeping other tables; atomic replace so a crash loses nothing."""
    p = config_path(path)
    doc: dict[str, Any] = {}
    try:
        with p.open("rb") as fh:
            doc = tomllib.load(fh)
    except (OSError, tomllib.TOMLDecodeError):
        doc = {}  # unreadable: we cannot preserve it, but must still save the speech settings
    doc[TABLE] = settings_to_mapping(settings)
    p.parent.mkdir(parents=True, exist_ok=True)
    tmp = p.with_name(p.name + ".tmp")
    tmp.write_bytes(tomli_w.dumps(doc).encode("utf-8"))
    os.replace(tmp, p)
    return p


# Step functions -------------------------------------------------------------------------


def faster(s: SpeechSettings) -> tuple[SpeechSettings, SpeechMessage]:
    if s.rate >= RATE_MAX:
        return s, SpeechMessage("speech.rate.max", f"Already at the fastest rate, {s.rate} "
                                "words a minute.", {"rate": s.rate})
    new = replace(s, rate=min(RATE_MAX, s.rate + RATE_STEP))
    return new, SpeechMessage("speech.rate.faster", f"Faster: {new.rate} words a minute.",
                              {"rate": new.rate})


def slower(s: SpeechSettings) -> tuple[SpeechSettings, SpeechMessage]:
    if s.rate <= RATE_MIN:
        return s, SpeechMessage("speech.rate.min", f"Already at the slowest rate, {s.rate} "
                                "words a minute.", {"rate": s.rate})
    new = replace(s, rate=max(RATE_MIN, s.rate - RATE_STEP))
    return new, SpeechMessage("speech.rate.slower", f"Slower: {new.rate} words a minute.",
                              {"rate": new.rate})


def louder(s: SpeechSettings) -> tuple[SpeechSettings, SpeechMessage]:
    if s.volume >= VOLUME_MAX:
        return s, SpeechMessage("speech.volume.max", "Already at full volume.",
                                {"volume": s.volume})
    new = replace(s, volume=min(VOLUME_MAX, s.volume + VOLUME_STEP))
    return new, SpeechMessage("speech.volume.louder", f"Louder: volume {new.volume}.",
                              {"volume": new.volume})


def quieter(s: SpeechSettings) -> tuple[SpeechSettings, SpeechMessage]:
    # Never step down to 0 by keypad: a silent companion cannot tell the player how to undo it.
    floor = VOLUME_STEP
    if s.volume <= floor:
        return s, SpeechMessage("speech.volume.min", f"Already at the lowest volume, {s.volume}.",
                                {"volume": s.volume})
    new = replace(s, volume=max(floor, s.volume - VOLUME_STEP))
    return new, SpeechMessage("speech.volume.quieter", f"Quieter: volume {new.volume}.",
                              {"volume": new.volume})
