"""Frame decoders: every protocol, split/merged frames, noise, checksums, fuzzing."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hardware.frames import (
    LineDecoder,
    Rdm6300Decoder,
    UidLineDecoder,
    make_decoder,
    parse_uid_line,
    rdm6300_frame,
)

CARDS = ["0A00B1C2D3", "1F00FFEE01", "0000000000", "ABCDEF0123"]


def feed_bytewise(decoder, data: bytes) -> list[str]:
    out: list[str] = []
    for i in range(len(data)):
        out += decoder.feed(data[i : i + 1])
    return out


# --- rdm6300 ---------------------------------------------------------------------------


def test_rdm6300_known_frame_and_checksum():
    # 0x0A ^ 0x00 ^ 0xB1 ^ 0xC2 ^ 0xD3 = 0xAA, worked by hand.
    assert rdm6300_frame("0A00B1C2D3") == b"\x020A00B1C2D3AA\x03"
    d = Rdm6300Decoder()
    assert d.feed(b"\x020A00B1C2D3AA\x03") == ["0A00B1C2D3"]
    assert d.stats.frames_ok == 1


@pytest.mark.parametrize("crlf", [False, True])
def test_rdm6300_merged_and_split(crlf):
    stream = b"".join(rdm6300_frame(c, crlf=crlf) for c in CARDS)
    assert Rdm6300Decoder().feed(stream) == CARDS
    assert feed_bytewise(Rdm6300Decoder(), stream) == CARDS


def test_rdm6300_lowercase_hex_is_normalised():
    assert Rdm6300Decoder().feed(b"\x020a00b1c2d3aa\x03") == ["0A00B1C2D3"]


def test_rdm6300_noise_between_frames_is_skipped_and_counted():
    noise = [b"\xff\x00junk", b"\x02\x02", b"\x02123", b"\x03\x03", b"\x020A00B1C2D3AA\r\x03"]
    stream = b"".join(n + rdm6300_frame(c) for n, c in zip(noise, CARDS * 2, strict=False))
    d = Rdm6300Decoder()
    assert feed_bytewise(d, stream) == CARDS + CARDS[:1]
    assert d.stats.noise_bytes == sum(len(n) for n in noise)
    assert d.stats.frames_bad_checksum == 0


def test_rdm6300_bad_checksum_dropped_and_counted():
    good = rdm6300_frame("0A00B1C2D3")
    bad = rdm6300_frame("0A00B1C2D3", checksum=0xAB)
    d = Rdm6300Decoder()
    assert d.feed(bad + good + bad + rdm6300_frame("1F00FFEE01", crlf=True, checksum=0)) == [
        "0A00B1C2D3"
    ]
    assert (d.stats.frames_ok, d.stats.frames_bad_checksum) == (1, 3)


def test_rdm6300_partial_frame_waits_and_reset_discards_it():
    frame = rdm6300_frame("0A00B1C2D3")
    d = Rdm6300Decoder()
    assert d.feed(frame[:9]) == []
    d.reset()
    assert d.feed(frame[9:]) == []
    assert d.feed(frame) == ["0A00B1C2D3"]


# --- line ------------------------------------------------------------------------------


def test_line_terminators_and_empty_lines():
    stream = b"ABC-1\r\nXYZ2\rQ3\nT4\t\r\n\r\n  \n5901234123457\n"
    d = LineDecoder()
    assert feed_bytewise(d, stream) == ["ABC-1", "XYZ2", "Q3", "T4", "5901234123457"]
    assert LineDecoder().feed(stream) == ["ABC-1", "XYZ2", "Q3", "T4", "5901234123457"]


def test_line_prefix_suffix_and_control_noise():
    d = LineDecoder(prefix="]C1", suffix="#")
    assert d.feed(b"\x02]C1CARD07#\x03\r\nplain\r\n") == ["CARD07", "plain"]
    assert d.stats.noise_bytes == 2


def test_line_max_length_bounds_memory():
    d = LineDecoder(max_length=16)
    assert d.feed(b"x" * 1000) == []
    assert len(d._lines.buf) == 0  # garbage without terminators is not kept
    assert d.feed(b"y" * 50 + b"\nOK\n") == ["OK"]  # tail of the long line dropped too
    assert d.stats.frames_too_long == 1
    assert d.feed(b"z" * 17 + b"\n") == []
    assert d.stats.frames_too_long == 2


# --- uid-lines -------------------------------------------------------------------------

UID_SHAPES = [
    ("04 A3 1F 7B", "04A31F7B"),
    ("04A31F7B", "04A31F7B"),
    ("04:a3:1f:7b", "04A31F7B"),
    ("UID: 04 A3 1F 7B", "04A31F7B"),
    ("Card UID: 04 A3 1F 7B", "04A31F7B"),
    (" Card UID: 04 A3 1F 7B 80 11 22", "04A31F7B801122"),
    ("  UID Value: 0x04 0xA3 0x1F 0x7B", "04A31F7B"),
    ("UID Value: 0x04 0xA3 0x1F 0x7B 0x80 0x11 0x22", "04A31F7B801122"),
    ("04-A3-1F-7B-80-11-22-33-44-55", "04A31F7B801122334455"),
    ("uid=04A31F7B801122", "04A31F7B801122"),
    ("Card UID: 4 A3 1F 7B", "04A31F7B"),
]
NOT_UIDS = [
    "Scan PICC to see UID, SAK, type, and data blocks...",
    "Found an ISO14443A card",
    "UID Length: 4 bytes",
    "PICC type: MIFARE 1KB",
    "Firmware ver. 1.6",
    "04 A3 1F",  # 3 bytes: no such UID size
    "04A31F7B80",  # 5 bytes
    "ADD BEEF CAFE 12",
    "",
]


@pytest.mark.parametrize(("line", "uid"), UID_SHAPES)
def test_uid_shapes(line, uid):
    assert parse_uid_line(line) == uid


@pytest.mark.parametrize("line", NOT_UIDS)
def test_not_uids(line):
    assert parse_uid_line(line) is None


def test_uid_lines_stream_with_banners():
    stream = b"Firmware Version: 0x92\r\nScan PICC to see UID\r\n" + b"".join(
        f"{line}\r\n".encode() for line, _ in UID_SHAPES
    )
    d = UidLineDecoder()
    assert feed_bytewise(d, stream) == [uid for _, uid in UID_SHAPES]
    assert d.stats.lines_ignored == 2


# --- factory ---------------------------------------------------------------------------


def test_make_decoder():
    assert isinstance(make_decoder("line", suffix="#"), LineDecoder)
    assert isinstance(make_decoder("rdm6300"), Rdm6300Decoder)
    assert isinstance(make_decoder("uid-lines"), UidLineDecoder)
    with pytest.raises(ValueError, match="known: line, rdm6300, uid-lines"):
        make_decoder("wiegand")
    with pytest.raises(ValueError, match="bad option"):
        make_decoder("rdm6300", suffix="#")


# --- fuzzing ---------------------------------------------------------------------------

_VALID_FRAME = re.compile(rb"\x02([0-9A-Fa-f]{10})([0-9A-Fa-f]{2})(?:\r\n)?\x03")


def valid_frames_in(data: bytes) -> list[str]:
    """Every well-formed frame with a correct checksum, found independently by regex."""
    found = []
    for m in _VALID_FRAME.finditer(data):
        raw = bytes.fromhex(m.group(1).decode())
        check = raw[0] ^ raw[1] ^ raw[2] ^ raw[3] ^ raw[4]
        if check == int(m.group(2), 16):
            found.append(m.group(1).decode().upper())
    return found


def chunked(data: bytes, cuts: list[int]) -> list[bytes]:
    points = sorted({c % (len(data) + 1) for c in cuts} | {0, len(data)})
    return [data[a:b] for a, b in zip(points, points[1:], strict=False)]


card_ids = st.binary(min_size=5, max_size=5).map(lambda b: b.hex().upper())
noise = st.binary(max_size=40)
cuts = st.lists(st.integers(min_value=0, max_value=10_000), max_size=20)


@settings(max_examples=300, deadline=None)
@given(data=st.binary(max_size=300), cuts=cuts)
def test_fuzz_rdm6300_random_bytes(data, cuts):
    # Noise only yields ids that are really framed with a valid checksum in it, and the
    # way the stream is split never changes the result.
    d = Rdm6300Decoder()
    whole = d.feed(data)
    assert whole == valid_frames_in(data)
    parts: list[str] = []
    d2 = Rdm6300Decoder()
    for chunk in chunked(data, cuts):
        parts += d2.feed(chunk)
    assert parts == whole


@settings(max_examples=300, deadline=None)
@given(
    items=st.lists(st.tuples(noise, card_ids, st.booleans(), st.booleans()), max_size=8),
    tail=noise,
    cuts=cuts,
)
def test_fuzz_rdm6300_frames_survive_noise(items, tail, cuts):
    # Valid frames (some with bad checksums) between arbitrary noise: every good frame
    # is decoded, in order; anything else decoded is a valid frame present in the noise.
    stream = b""
    injected = []
    for junk, card, crlf, corrupt in items:
        good = rdm6300_frame(card, crlf=crlf)
        if corrupt:
            check = int(good[11:13], 16) ^ 0x5A
            stream += junk + rdm6300_frame(card, crlf=crlf, checksum=check)
        else:
            stream += junk + good
            injected.append(card)
    stream += tail
    d = Rdm6300Decoder()
    out: list[str] = []
    for chunk in chunked(stream, cuts):
        out += d.feed(chunk)
    assert out == valid_frames_in(stream)
    it = iter(out)
    assert all(card in it for card in injected)  # injected is a subsequence of out
    if not any(0x02 in junk for junk, *_ in items) and 0x02 not in tail:
        assert out == injected
    assert d.stats.frames_ok == len(out)
    assert d.stats.frames_bad_checksum >= sum(1 for *_, c in items if c)


@settings(max_examples=200, deadline=None)
@given(data=st.binary(max_size=300), cuts=cuts)
def test_fuzz_line_decoders_never_crash_and_stay_bounded(data, cuts):
    for protocol in ("line", "uid-lines"):
        d = make_decoder(protocol, max_length=32)
        whole = d.feed(data)
        d2 = make_decoder(protocol, max_length=32)
        parts: list[str] = []
        for chunk in chunked(data, cuts):
            parts += d2.feed(chunk)
            assert len(d2._lines.buf) <= 32
        assert parts == whole
        for value in whole:
            assert value and value == value.strip()
            assert not re.search(r"[\r\n\t]", value)
        if protocol == "uid-lines":
            assert all(re.fullmatch(r"[0-9A-F]{8}|[0-9A-F]{14}|[0-9A-F]{20}", v) for v in whole)
