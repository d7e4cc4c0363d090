"""A player's enrolled words, on disk: one folder per player, game and language.

`voices/<player>/words/<game>/<lang>/` in the user data folder (beside the Sphinx profiles
of profiles.py): `0001.wav` with `0001.txt` (the word or phrase said), written as soon as
each is recorded so an interrupted enrolment loses nothing; `features-<model>.npz` holds
the frame features made from them for one recognizer model (made again when missing).
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path

from companion.speech.audio import AudioFormat, wav_bytes
from companion.voice.audio import AudioError, read_wav
from companion.voice.profiles import ProfileError, slug, voices_dir
from companion.voice.reasons import about_file, explained
from companion.voice.sphinx import SAMPLE_RATE


@dataclass(frozen=True)
class WordProfile:
    player: str
    game: str
    lang: str
    root: Path

    @classmethod
    def named(cls, player: str, game: str, lang: str, base: Path | None = None) -> WordProfile:
        folder = (base or voices_dir()) / slug(player) / "words" / slug(game) / slug(lang)
        return cls(player, game, lang, folder)

    def save(self, pcm: bytes, words: str) -> Path:
        """Keep one recording of `words` (before anything is said about it)."""
        self.root.mkdir(parents=True, exist_ok=True)
        index = 1 + max((int(p.stem) for p in self.root.glob("*.wav") if p.stem.isdigit()),
                        default=0)
        path = self.root / f"{index:04d}.wav"
        path.write_bytes(wav_bytes(pcm, AudioFormat(SAMPLE_RATE)))
        path.with_suffix(".txt").write_text(words.strip() + "\n", encoding="utf-8")
        return path

    def forget(self, words: str) -> None:
        """Drop every recording of `words` (the player asked to say them again)."""
        for text in self.root.glob("*.txt"):
            if text.read_text(encoding="utf-8").strip() == words.strip():
                text.with_suffix(".wav").unlink(missing_ok=True)
                text.unlink()

    def recordings(self) -> dict[str, list[bytes]]:
        """Each enrolled word's recordings, in the order they were made."""
        found: dict[str, list[bytes]] = defaultdict(list)
        for wav in sorted(self.root.glob("*.wav")):
            words = wav.with_suffix(".txt")
            if not words.is_file():
                continue
            said = words.read_text(encoding="utf-8").strip()
            try:
                found[said].append(read_wav(wav))
            except AudioError as exc:
                raise explained(ProfileError, "bad_recording", word=said,
                                detail=about_file(exc, wav.name)) from None
        return dict(found)

    def ready(self) -> bool:
        return any(self.root.glob("*.wav"))

    def features_file(self, model: str) -> Path:
        return self.root / f"features-{slug(model)}.npz"
