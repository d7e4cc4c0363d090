"""Speech output: espeak-ng streamed to an interruptible player, earcons, private channels.

See docs/speech.md for the design, the backends per platform and the settings file.
"""

from .backend import NO_AUDIO, NO_ESPEAK, open_speaker
from .earcons import earcon_names, earcon_wav
from .players import CommandPlayer, FileSinkPlayer, Recording, aplay_player, paced_sink_player
from .settings import (
    SpeechMessage,
    SpeechSettings,
    config_path,
    faster,
    load_settings,
    louder,
    quieter,
    save_settings,
    slower,
)
from .speaker import NullSpeaker, Priority, Speaker, Utterance
from .synth import DEFAULT_VOICES

__all__ = [
    "DEFAULT_VOICES", "NO_AUDIO", "NO_ESPEAK", "CommandPlayer", "FileSinkPlayer", "NullSpeaker",
    "Priority", "Recording", "Speaker", "SpeechMessage", "SpeechSettings", "Utterance",
    "aplay_player", "config_path", "earcon_names", "earcon_wav", "faster", "load_settings",
    "louder", "open_speaker", "paced_sink_player", "quieter", "save_settings", "slower",
]
