"""open_speaker(): pick a backend automatically, never crash, never hang.

Linux and other POSIX systems: espeak-ng synthesis streamed into `aplay` (ALSA, which also
reaches PulseAudio/PipeWire through their ALSA plugins), else `paplay`. Each candidate is
probed by playing 20 ms of silence with a short timeout, so a machine without a sound card
is detected in milliseconds. Windows: pyttsx3 (SAPI5) in its own thread; macOS: `say`.
"""

from __future__ import annotations

import logging
import os
import shutil
import sys
from pathlib import Path

from .players import FileSinkPlayer, Player, aplay_player, paplay_player, probe_player
from .settings import SpeechMessage, SpeechSettings, load_settings
from .speaker import NullSpeaker, Output, Speaker
from .synth import espeak_binary

log = logging.getLogger(__name__)

NO_AUDIO = SpeechMessage("speech.no_audio", "No audio output found: printing only.")
NO_ESPEAK = SpeechMessage("speech.no_espeak", "espeak-ng is not installed: printing only.")


def _private_missing(channel: str, device: str) -> SpeechMessage:
    return SpeechMessage(
        "speech.private_missing",
        f"No private audio output {device} for {channel}: its private messages will not be "
        "spoken.", {"channel": channel, "device": device})


def _private_dir_name(channel: str) -> str:
    return "private-" + "".join(c if c.isalnum() else "_" for c in channel)


def open_speaker(
    lang: str = "fr",
    settings: SpeechSettings | None = None,
    enabled: bool = True,
    *,
    out_dir: str | os.PathLike[str] | None = None,
    config: str | os.PathLike[str] | None = None,
    probe_timeout: float = 1.5,
) -> tuple[Speaker | NullSpeaker, SpeechMessage | None]:
    """Return (speaker, notice). `notice` is a message to print once, or None.

    `out_dir` selects the file-sink backend (`--speech-out DIR`): every utterance is written
    as a WAV file; private channels go to their own sub-folders, never to the shared one.
    """
    warnings: list[str] = []
    if settings is None:
        settings, warnings = load_settings(config)
        for w in warnings:
            log.warning(w)
    if not enabled:
        return NullSpeaker(lang, settings), None
    if out_dir is not None:
        sp, notice = _file_sink(lang, settings, Path(out_dir))
    elif sys.platform in ("win32", "darwin"):
        sp, notice = _system_voice(lang, settings)
    else:
        sp, notice = _espeak_player(lang, settings, probe_timeout, warnings)
    sp.warnings.extend(warnings)
    log.info("speech backend: %s", sp.backend)
    return sp, notice


Opened = tuple[Speaker | NullSpeaker, SpeechMessage | None]


def _file_sink(lang: str, settings: SpeechSettings, root: Path) -> Opened:
    """espeak-ng into WAV files under `root`, each private channel in its own folder."""
    binary = espeak_binary()
    if binary is None:
        return NullSpeaker(lang, settings), NO_ESPEAK
    private: dict[str, Player] = {
        ch: FileSinkPlayer(root / _private_dir_name(ch), name=f"file-sink:{ch}")
        for ch, _dev in settings.private_outputs}
    return Speaker(FileSinkPlayer(root), private, lang=lang, settings=settings,
                   espeak=binary, backend=f"espeak-ng + file sink ({root})"), None


def _system_voice(lang: str, settings: SpeechSettings) -> Opened:
    """macOS `say`, else pyttsx3 (SAPI5 on Windows)."""
    if sys.platform == "darwin" and shutil.which("say"):
        from .pyttsx3_backend import MacSayOutput

        return Speaker(MacSayOutput(), lang=lang, settings=settings, backend="macOS say"), None
    try:
        from .pyttsx3_backend import PyttsxOutput

        out: Output = PyttsxOutput()
    except Exception as exc:  # no driver, no voice: print only
        log.warning("pyttsx3 unavailable: %s", exc)
        return NullSpeaker(lang, settings), NO_AUDIO
    return Speaker(out, lang=lang, settings=settings, backend="pyttsx3"), None


def _espeak_player(lang: str, settings: SpeechSettings, probe_timeout: float,
                   warnings: list[str]) -> Opened:
    """espeak-ng into the first player that plays 20 ms of silence (aplay, paplay); each
    private channel's device probed too, a missing one said once and kept in `warnings`."""
    binary = espeak_binary()
    if binary is None:
        return NullSpeaker(lang, settings), NO_ESPEAK
    shared = next((p for p in (aplay_player(), paplay_player())
                   if probe_player(p, probe_timeout)), None)
    if shared is None:
        return NullSpeaker(lang, settings), NO_AUDIO
    private = {}
    notice: SpeechMessage | None = None
    for ch, dev in settings.private_outputs:
        p = aplay_player(dev)
        if probe_player(p, probe_timeout):
            private[ch] = p
        else:
            notice = notice or _private_missing(ch, dev)
            warnings.append(_private_missing(ch, dev).text)
    return Speaker(shared, private, lang=lang, settings=settings, espeak=binary,
                   backend=f"espeak-ng + {shared.name}"), notice
