"""Voice profiles: one player's recordings and the model adapted to them, on disk.

A profile is a folder in the user data folder (`voices/<name>/`): `recordings/` holds every
command the player read (`0001.wav` with `0001.txt`, the words), written as soon as it is
recorded so an interrupted enrollment loses nothing; `model/` is the adapted acoustic model
the recognizer loads; `profile.json` says how it was made.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path

from companion.speech.audio import AudioFormat, wav_bytes
from companion.voice.adapt import AdaptReport, Utterance
from companion.voice.audio import AudioError, read_wav
from companion.voice.reasons import Explained, about_file, explained
from companion.voice.sphinx import SAMPLE_RATE

_UNSAFE = re.compile(r"[^a-z0-9_-]+")


class ProfileError(Explained, ValueError):
    """A profile that cannot be used; the message is one sentence for the player,
    `message` that sentence in the catalogue where it has one (reasons.py)."""


def voices_dir() -> Path:
    from platformdirs import user_data_dir

    return Path(user_data_dir("tactile-companion", appauthor=False)) / "voices"


def slug(name: str) -> str:
    """A folder name for a player's name ("Anne-Marie D." → "anne-marie_d")."""
    cleaned = _UNSAFE.sub("_", name.strip().lower()).strip("_")
    if not cleaned:
        raise explained(ProfileError, "bad_name", name=repr(name))
    return cleaned


@dataclass(frozen=True)
class Profile:
    name: str
    root: Path

    @classmethod
    def named(cls, name: str, base: Path | None = None) -> Profile:
        return cls(name, (base or voices_dir()) / slug(name))

    @property
    def model(self) -> Path:
        return self.root / "model"

    @property
    def recordings(self) -> Path:
        return self.root / "recordings"

    def ready(self) -> bool:
        return (self.model / "sendump").is_file() and (self.model / "mdef").is_file()

    def require_model(self) -> str:
        """The adapted model's folder, or ProfileError saying how to make one."""
        if not self.ready():
            raise explained(ProfileError, "no_profile", name=self.name)
        return str(self.model)

    def save(self, index: int, pcm: bytes, text: str) -> Path:
        """Keep one recorded command (before anything is said about it)."""
        self.recordings.mkdir(parents=True, exist_ok=True)
        path = self.recordings / f"{index:04d}.wav"
        path.write_bytes(wav_bytes(pcm, AudioFormat(SAMPLE_RATE)))
        path.with_suffix(".txt").write_text(text.strip() + "\n", encoding="utf-8")
        return path

    def next_index(self) -> int:
        return 1 + max((int(p.stem) for p in self.recordings.glob("*.wav")
                        if p.stem.isdigit()), default=0)

    def record_made(self, report: AdaptReport) -> None:
        info = {"name": self.name, "utterances": report.utterances,
                "aligned": report.aligned, "seconds": round(report.seconds, 1),
                "made": datetime.now(timezone.utc).isoformat(timespec="seconds")}
        (self.root / "profile.json").write_text(json.dumps(info, indent=2) + "\n",
                                                encoding="utf-8")


def load_recordings(folder: Path) -> list[Utterance]:
    """Every `X.wav` with its `X.txt` (the words said) in `folder`, in name order."""
    if not folder.is_dir():
        raise explained(ProfileError, "no_folder", folder=str(folder))
    found = []
    for wav in sorted(folder.glob("*.wav")):
        words = wav.with_suffix(".txt")
        if not words.is_file():
            continue
        said = words.read_text(encoding="utf-8").strip()
        try:
            pcm = read_wav(wav)
        except AudioError as exc:
            raise explained(ProfileError, "bad_recording", word=said,
                            detail=about_file(exc, wav.name)) from None
        found.append(Utterance(pcm, said))
    return found
