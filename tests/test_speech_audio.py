"""Real espeak-ng audio: every language, its voice, rate/volume effects, earcons."""

from __future__ import annotations

import subprocess
from dataclasses import replace

import pytest
from test_speech_helpers import ESPEAK, needs_espeak

from companion.speech import DEFAULT_VOICES, FileSinkPlayer, Speaker, SpeechSettings, earcon_names
from companion.speech.audio import parse_wav_header, read_wav, rms
from companion.speech.earcons import MAX_SECONDS, earcon_wav
from companion.speech.synth import amplitude

SENTENCES = {
    "fr": "Ana joue une offre : trois cartes, l'éventail, la flûte et le luth.",
    "en": "Ana makes a gift: three cards, the fan, the flute and the shamisen.",
    "es": "Ana hace una oferta: tres cartas, el abanico, la flauta y el laúd.",
    "uk": "Ана робить подарунок: три карти, віяло, флейта і лютня.",
}
RMS_FLOOR = 500  # espeak-ng speech at volume 70 measures about 3000-4000 here; silence is 0


def speak_all(settings: SpeechSettings, texts: dict[str, str]) -> dict[str, object]:
    sink = FileSinkPlayer()
    sp = Speaker(sink, lang="en", settings=settings, espeak=ESPEAK)
    try:
        for lang, text in texts.items():
            sp.say(text, lang=lang, kind=None)
        assert sp.wait(10)
    finally:
        sp.close()
    return {r.meta["lang"]: r for r in sink.recordings}


def direct(text: str, voice: str, s: SpeechSettings) -> bytes:
    out = subprocess.run([ESPEAK, "--stdout", "-v", voice, "-s", str(s.rate), "-p", str(s.pitch),
                          "-a", str(amplitude(s.volume))], input=text.encode(),
                         capture_output=True, check=True).stdout
    fmt_offset = parse_wav_header(out)
    assert fmt_offset is not None
    return out[fmt_offset[1]:]


@needs_espeak
def test_each_language_is_real_plausible_speech_in_its_own_voice() -> None:
    s = SpeechSettings()
    recs = speak_all(s, SENTENCES)
    assert set(recs) == set(SENTENCES)
    for lang, text in SENTENCES.items():
        rec = recs[lang]
        assert rec.meta["voice"] == DEFAULT_VOICES[lang]
        assert rms(rec.pcm) > RMS_FLOOR, lang
        words = len(text.split())
        expected = words / s.rate * 60
        assert 0.5 * expected < rec.seconds < 2.5 * expected, (lang, rec.seconds, expected)
        # The streamed audio is exactly what espeak-ng makes with that voice, and that voice
        # matters: another language's voice gives different audio for the same text.
        assert rec.pcm == direct(text, DEFAULT_VOICES[lang], s)
        other = "en-gb" if lang != "en" else "fr-fr"
        assert rec.pcm != direct(text, other, s)


@needs_espeak
def test_rate_and_volume_settings_change_the_audio() -> None:
    text = {"en": SENTENCES["en"]}
    normal = speak_all(SpeechSettings(), text)["en"]
    fast = speak_all(SpeechSettings(rate=300), text)["en"]
    quiet = speak_all(SpeechSettings(volume=20), text)["en"]
    assert fast.seconds < 0.75 * normal.seconds
    assert rms(quiet.pcm) < 0.5 * rms(normal.pcm)


@needs_espeak
def test_voice_override_and_unknown_override() -> None:
    s = SpeechSettings(voices=(("en", "en-us"), ("fr", "no-such-voice")))
    sink = FileSinkPlayer()
    sp = Speaker(sink, lang="en", settings=s, espeak=ESPEAK)
    try:
        assert sp.say("Hello.", kind=None).voice == "en-us"
        assert sp.say("Bonjour.", lang="fr", kind=None).voice == "fr-fr"
        assert any("no-such-voice" in w for w in sp.warnings)
        assert sp.wait(5)
    finally:
        sp.close()
    assert [r.meta["voice"] for r in sink.recordings] == ["en-us", "fr-fr"]


def test_earcons_short_audible_distinct_and_volume_scaled() -> None:
    seen = set()
    for name in earcon_names():
        pcm, fmt = read_wav(earcon_wav(name))
        assert 0.05 < len(pcm) / fmt.bytes_per_second <= MAX_SECONDS, name
        assert rms(pcm) > 2000, name
        seen.add(pcm)
        quiet, _ = read_wav(earcon_wav(name, volume=10))
        assert rms(quiet) < rms(pcm) / 4
    assert len(seen) == len(earcon_names()) == 7
    with pytest.raises(KeyError):
        earcon_wav("applause")


def _zero_crossings(pcm: bytes) -> int:
    from companion.speech.audio import samples

    s = samples(pcm)
    return sum(1 for a, b in zip(s, s[1:], strict=False) if (a < 0) != (b < 0))


def test_connected_rises_and_disconnected_falls() -> None:
    up, _ = read_wav(earcon_wav("reader_connected"))
    down, _ = read_wav(earcon_wav("reader_disconnected"))
    half = len(up) // 2 & ~1
    assert _zero_crossings(up[:half]) < _zero_crossings(up[half:])
    assert _zero_crossings(down[:half]) > _zero_crossings(down[half:])


@needs_espeak
def test_earcons_follow_the_settings_switch() -> None:
    sink = FileSinkPlayer()
    sp = Speaker(sink, settings=replace(SpeechSettings(), earcons=False), espeak=ESPEAK)
    try:
        assert sp.earcon("accepted").state == "dropped"
        sp.update_settings(SpeechSettings())
        u = sp.earcon("accepted")
        assert sp.wait(5) and u.state == "done"
    finally:
        sp.close()
    assert [r.meta["earcon"] for r in sink.recordings] == ["accepted"]
