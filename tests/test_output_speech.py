"""What reaches the speaker, recorded by the real espeak-ng pipeline into a file sink."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from companion.games.hanamikoji import Hanamikoji
from companion.games.hanamikoji.simulate import table_script
from companion.narrate.catalogue import Catalogue
from companion.output import Output
from companion.session import Session
from companion.speech import open_speaker

pytestmark = pytest.mark.skipif(shutil.which("espeak-ng") is None, reason="needs espeak-ng")
CONFIG = {"players": ["Ana", "Ben"], "rules": "iello", "lang": "en"}


def recorded(folder: Path) -> list[dict]:
    path = folder / "index.jsonl"
    entries = [json.loads(line) for line in path.read_text("utf-8").splitlines()]
    return [e for e in entries if e.get("earcon") is None]


def play(tmp_path: Path, lines: list[str]) -> list[dict]:
    speaker, notice = open_speaker("en", out_dir=tmp_path)
    assert notice is None
    out = Output(Catalogue("en"), speaker=speaker, stream=open("/dev/null", "w"))  # noqa: SIM115
    session = Session(Hanamikoji(), dict(CONFIG))
    out.emit(session.start())
    for line in lines:
        out.emit(session.handle(line))
        assert speaker.wait(30)
    speaker.close()
    return recorded(tmp_path)


def test_an_offer_is_said_before_its_prompt_as_one_utterance(tmp_path):
    said = play(tmp_path, ["gift flute fan tea"])
    texts = [e["text"] for e in said]
    assert texts[-1] == ("Ana offers a gift: flute (purple, 2), fan (red, 2) and tea set "
                         "(green, 4). Ben, take one of the three cards.")


def test_a_whole_scoring_is_heard(tmp_path):
    said = play(tmp_path, table_script(4)[:14])
    scoring = [e["text"] for e in said if "End of round 1" in e["text"]]
    assert len(scoring) == 1
    for geisha in ("Ayane", "Iroha", "Tomoyo", "Yoko", "Chiharu", "Anju", "Ruri"):
        assert geisha in scoring[0]


def test_a_private_secret_is_not_on_the_shared_recording(tmp_path):
    said = play(tmp_path, ["secret flower"])
    assert all("flower" not in e["text"] for e in said)
    assert any("Ana plays Secret" in e["text"] for e in said)
