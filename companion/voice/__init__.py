"""Offline voice recognition, game-agnostic: engines (pocketsphinx, Whisper), listening,
the confirmation policy, voice profiles; each game gives its grammar."""
