"""The loop the reading tools share (companion/reading_loop.py): what `companion rules`
and `companion stickers quiz` do around each answer. The golden rulebook sessions and the
quiz's CLI tests cover the answers; these cover the two paths they do not: a quiz whose
input ends before its last question, and the push-to-talk key with a voice listening."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from companion.cli import main
from companion.inputs.hub import InputItem
from companion.reading_loop import answer_each


def test_a_quiz_whose_input_ends_first_still_sums_up(capsys: pytest.CaptureFixture[str],
                                                     tmp_path: Path) -> None:
    script = tmp_path / "one.txt"
    script.write_text("7\n", "utf-8")  # one answer (a wrong one) of three questions
    code = main(["stickers", "quiz", "hanamikoji", "--lang", "en", "--seed", "7",
                 "--rounds", "3", "--no-speech", "--script", str(script)])
    assert code == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[-2] == "Question 2. Find: scroll card."
    assert lines[-1] == "Quiz over: 0 right out of 1. To practise again: Secret (1) token."


class Voice:
    """What the loop asks of a ReadingVoice (companion/inputs/reading_voice.py), recorded:
    the real one needs a microphone, which a test machine does not have."""

    def __init__(self) -> None:
        self.calls: list[str] = []

    def is_push_key(self, item: InputItem) -> bool:
        return item.text == "00"

    def push_to_talk(self) -> None:
        self.calls.append("listen")

    def follow(self) -> None:
        self.calls.append("follow")


class Speaker:
    def __init__(self) -> None:
        self.stopped = 0

    def stop(self) -> None:
        self.stopped += 1


@pytest.mark.parametrize("interactive", [True, False])
def test_the_push_key_listens_and_each_answer_is_followed_until_done(
        interactive: bool) -> None:
    voice, speaker, answered = Voice(), Speaker(), []

    def respond(item: Any) -> bool:
        answered.append(item.text)
        voice.calls.append(f"answer {item.text}")
        return item.text == "quit"

    items = [InputItem("keyboard", "next"), InputItem("keyboard", "00"),
             InputItem("keyboard", "quit"), InputItem("keyboard", "never read")]
    answer_each(items, speaker, voice, interactive, respond)
    assert answered == ["next", "quit"]  # the push key is no answer; nothing after quit
    assert voice.calls == ["answer next", "follow", "listen", "answer quit"]
    assert speaker.stopped == (3 if interactive else 0)  # a script is read to its end
