"""`companion voice-enroll` (companion/voice/enroll.py) refusing before anything is
recorded: a game it does not know, a game with no commands to read. The recording and
adapting paths are in tests/test_voice_adapt.py."""

from __future__ import annotations

from companion.cli import main


def test_an_unknown_game_is_one_plain_line(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    assert main(["voice-enroll", "--name", "Ana", "--game", "chess", "--no-speech"]) == 2
    captured = capsys.readouterr()
    err = captured.err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("companion voice-enroll: no game called chess")
    assert captured.out == ""


def test_a_game_with_no_commands_to_read_says_so_before_the_microphone(tmp_path, monkeypatch,
                                                                        capsys):
    """Momiji's voice has no enrolment prompts (its players use `--words`): refused at once,
    nothing recorded, no profile said made."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    assert main(["voice-enroll", "--name", "Ana", "--game", "momiji", "--count", "3",
                 "--no-speech"]) == 2
    lines = capsys.readouterr().out.strip().splitlines()
    assert lines[-1] == ("This game has no commands to read for a voice profile; choose "
                         "another with --game.")
    assert not any(line.startswith(("Voice profile for", "The voice profile", "Learning"))
                   for line in lines)
    assert not list(tmp_path.rglob("*.wav"))
