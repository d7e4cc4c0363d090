"""The voice engine knows no game: each game gives its grammars, words and contexts through
its voice hooks, and a game without them is said to have no voice commands."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from companion.games.hanamikoji import Hanamikoji
from companion.games.registry import load_game
from companion.inputs.hub import InputHub
from companion.inputs.voice import attach_voice
from companion.narrate.catalogue import Catalogue
from companion.session import Session

ENGINE = Path(__file__).resolve().parents[1] / "companion" / "voice"
ENGINE_MODULES = sorted(f"companion.voice.{p.stem}" for p in ENGINE.glob("*.py")
                        if p.stem != "__init__") + ["companion.inputs.voice"]


def _loaded_after_import(modules: list[str]) -> list[str]:
    """The companion modules a fresh interpreter holds after importing `modules`."""
    code = ("import importlib, json, sys\n"
            f"for m in {modules!r}: importlib.import_module(m)\n"
            "print(json.dumps(sorted(m for m in sys.modules if m.startswith('companion'))))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=True, cwd=ENGINE.parents[1])
    return list(json.loads(done.stdout))


def test_the_engine_imports_no_game() -> None:
    loaded = _loaded_after_import(ENGINE_MODULES)
    games = [m for m in loaded if m.startswith("companion.games.")
             and m.split(".")[2] not in ("protocol", "registry", "base")]
    assert "companion.voice.sphinx" in loaded and games == []


def test_the_worker_does_not_import_the_recognizer() -> None:
    # workers.py and sphinx.py no longer import each other: both use decoders.py.
    loaded = _loaded_after_import(["companion.voice.workers"])
    assert "companion.voice.decoders" in loaded and "companion.voice.sphinx" not in loaded


def test_every_game_gives_voice_hooks() -> None:
    for name in ("hanamikoji", "momiji"):
        hooks = load_game(name).voice()
        assert hooks is not None and hooks.pronunciations, name
        assert all(phones for phones in hooks.pronunciations.values()), name


class Voiceless(Hanamikoji):
    """A game that offers no voice commands."""

    def voice(self) -> None:  # type: ignore[override]
        return None


def test_a_game_without_voice_says_so_and_play_goes_on() -> None:
    said = []
    session = Session(Voiceless(), {"players": ["Ana", "Ben"], "rules": "iello", "lang": "en"})
    session.start()
    assert attach_voice(InputHub(), session, "push", said.extend) is None
    assert [m.event for m in said] == ["voice_unavailable"]
    reason = said[0].params["reason"]
    assert reason.key == "voice_not_for_game"
    for lang in ("en", "fr", "es", "uk"):
        text = Catalogue(lang).render(said[0])
        assert "{" not in text and len(text) > len(Catalogue(lang).render(reason)) > 10, lang
    assert session.handle("secret")[0].event == "played"


def test_listen_asks_the_games_hooks(tmp_path) -> None:  # type: ignore[no-untyped-def]
    from companion.voice.cli import main

    wav = tmp_path / "silence.wav"
    import wave
    with wave.open(str(wav), "wb") as out:
        out.setnchannels(1)
        out.setsampwidth(2)
        out.setframerate(16000)
        out.writeframes(b"\0\0" * 8000)
    assert main(["listen", "--file", str(wav), "--game", "nosuchgame"]) == 2
    assert main(["listen", "--file", str(wav), "--context", "answer_gift"]) == 2
    # Momiji's contexts are made from a game in progress: said plainly, no traceback.
    assert main(["listen", "--file", str(wav), "--game", "momiji"]) == 2
    assert main(["listen", "--file", str(wav), "--context", "confirm"]) == 1  # heard nothing
