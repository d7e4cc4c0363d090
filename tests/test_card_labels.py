"""QR payloads and the printable label sheet: one readable code per physical card."""

from __future__ import annotations

import contextlib
import re
import xml.etree.ElementTree as ET
import zlib
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from companion.cards import CardRef, PayloadError, all_cards, format_payload, parse_payload
from companion.cards.labels import caption, layout, to_pdf, to_svg, write_labels

SVG = "{http://www.w3.org/2000/svg}"

# --- payload ---------------------------------------------------------------------------


def test_payload_format() -> None:
    ref = CardRef("hanamikoji", "item", "fan", 2)
    assert format_payload(ref) == "TC1:HK:ITEM:FAN:2"
    assert parse_payload("TC1:HK:ITEM:FAN:2") == ref


@pytest.mark.parametrize(
    "text",
    ["tc1:hk:item:fan:2", "  TC1:HK:ITEM:FAN:2\r\n", "TC1:HK:Item:Fan:2"],
)
def test_parse_payload_tolerates_case_and_scanner_line_ends(text: str) -> None:
    assert parse_payload(text) == CardRef("hanamikoji", "item", "fan", 2)


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("hello", "not a tactile companion label"),
        ("", "not a tactile companion label"),
        ("TC2:HK:ITEM:FAN:1", "unsupported label version"),
        ("TC1:HK:ITEM:FAN", "5 fields"),
        ("TC1:HK:ITEM:FAN:1:X", "5 fields"),
        ("TC1:ZZ:ITEM:FAN:1", "unknown game code"),  # MJ is Momiji since labels for it
        ("TC1:MJ:ITEM:FAN:1", "unknown kind .item.: expected one of leaf, objective"),
        ("TC1:HK:CARD:FAN:1", "unknown kind"),
        ("TC1:HK:ITEM:BANANA:1", "no item 'banana'"),
        ("TC1:HK:ITEM:FAN:3", "not copy 3"),  # only two fans
        ("TC1:HK:ITEM:FAN:0", "not copy 0"),
        ("TC1:HK:GEISHA:RURI:2", "not copy 2"),
        ("TC1:HK:TOKEN:SECRET:3", "not copy 3"),  # one per player
        ("TC1:HK:ITEM:FAN:two", "not a number"),
        ("TC1:HK:GEISHA:FAN:1", "no geisha 'fan'"),
    ],
)
def test_parse_payload_rejects_with_reason(text: str, reason: str) -> None:
    with pytest.raises(PayloadError, match=reason):
        parse_payload(text)
    assert issubclass(PayloadError, ValueError)


def test_all_cards_is_one_physical_copy() -> None:
    cards = all_cards("hanamikoji")
    assert len(cards) == 36 == len(set(cards))
    kinds = Counter(c.kind for c in cards)
    assert kinds == {"item": 21, "geisha": 7, "token": 8}
    items = Counter(c.name for c in cards if c.kind == "item")
    assert items == {"flute": 2, "fan": 2, "scroll": 2, "umbrella": 3, "shamisen": 3,
                     "tea": 4, "flower": 5}  # fmt: skip
    assert {c.name for c in cards if c.kind == "token"} == {
        "secret", "discard", "gift", "competition"
    }  # fmt: skip
    assert len({format_payload(c) for c in cards}) == 36


@given(st.sampled_from(all_cards()))
def test_payload_round_trip(ref: CardRef) -> None:
    text = format_payload(ref)
    assert parse_payload(text) == ref
    assert parse_payload(text.lower()) == ref
    # QR alphanumeric mode: upper case, digits and ':' only, so the codes stay small
    assert re.fullmatch(r"[A-Z0-9:]+", text)


@given(st.text(max_size=40))
def test_parse_payload_never_crashes_otherwise(text: str) -> None:
    with contextlib.suppress(PayloadError):
        parse_payload(text)


def test_cardref_validates() -> None:
    with pytest.raises(PayloadError):
        CardRef("hanamikoji", "item", "tea set", 1)  # the canonical word is "tea"
    with pytest.raises(PayloadError):
        CardRef("momiji", "item", "fan", 1)


# --- a small QR reader, to check the printed codes independently of the encoder --------

_ALNUM = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ $%*+-./:"
_MASKS = [
    lambda i, j: (i + j) % 2 == 0,
    lambda i, j: i % 2 == 0,
    lambda i, j: j % 3 == 0,
    lambda i, j: (i + j) % 3 == 0,
    lambda i, j: (i // 2 + j // 3) % 2 == 0,
    lambda i, j: (i * j) % 2 + (i * j) % 3 == 0,
    lambda i, j: ((i * j) % 2 + (i * j) % 3) % 2 == 0,
    lambda i, j: ((i + j) % 2 + (i * j) % 3) % 2 == 0,
]


def _take(bits: Iterator[int], n: int) -> int:
    return int("".join(str(next(bits)) for _ in range(n)), 2)


def _read_qr_v2q(m: list[list[int]]) -> set[str]:
    """Alphanumeric texts a version-2 (25×25), level-Q symbol decodes to, one per mask that
    gives a well-formed bit stream (the right mask does; the format bits are not read)."""
    size = len(m)
    assert size == 25, "the labels use version 2"

    def reserved(r: int, c: int) -> bool:
        finder = (r < 9 and c < 9) or (r < 9 and c >= size - 8) or (r >= size - 8 and c < 9)
        return finder or r == 6 or c == 6 or (16 <= r <= 20 and 16 <= c <= 20)

    texts = set()
    for mask in _MASKS:
        bits: list[int] = []
        x, upward = size - 1, True
        while x > 0:
            if x == 6:
                x -= 1
            for r in range(size - 1, -1, -1) if upward else range(size):
                for c in (x, x - 1):
                    if not reserved(r, c):
                        bits.append(m[r][c] ^ int(mask(r, c)))
            upward, x = not upward, x - 2
        data = iter(bits[: 22 * 8])  # 2-Q: 22 data codewords, one block
        if _take(data, 4) != 0b0010:  # alphanumeric mode
            continue
        count = _take(data, 9)
        if count > 29:
            continue
        chars = []
        for _ in range(count // 2):
            pair = _take(data, 11)
            chars += [_ALNUM[pair // 45 % 45], _ALNUM[pair % 45]]
        if count % 2:
            chars.append(_ALNUM[_take(data, 6) % 45])
        texts.add("".join(chars))
    return texts


def _svg_labels(path: Path) -> list[ET.Element]:
    root = ET.parse(path).getroot()
    assert root.tag == f"{SVG}svg"
    assert root.get("width") == "210mm" and root.get("height") == "297mm"
    return [g for g in root.iter(f"{SVG}g") if g.get("class") == "label"]


def _modules(label: ET.Element) -> list[list[int]]:
    """The QR module matrix drawn in a label, quiet zone removed."""
    qr = next(g for g in label.iter(f"{SVG}g") if g.get("class") == "qr")
    size = int(qr.find(f"{SVG}rect").get("width"))  # type: ignore[union-attr]
    m = [[0] * size for _ in range(size)]
    d = qr.find(f"{SVG}path").get("d")  # type: ignore[union-attr]
    for x, y, n in re.findall(r"M(\d+) (\d+)h(\d+)v1h-\3z", d or ""):
        for k in range(int(n)):
            m[int(y)][int(x) + k] = 1
    border = 4
    return [row[border : size - border] for row in m[border : size - border]]


@pytest.fixture(scope="module")
def svg_path(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("labels") / "hanamikoji.svg"
    assert write_labels(str(path), "hanamikoji", "svg", "en") == 36
    return path


def test_svg_has_one_qr_per_card(svg_path: Path) -> None:
    labels = _svg_labels(svg_path)
    assert len(labels) == 36
    payloads = [g.get("data-payload") for g in labels]
    assert sorted(payloads) == sorted(format_payload(c) for c in all_cards())  # type: ignore[type-var]
    for g in labels:
        assert g.findtext(f"{SVG}title") == g.get("data-payload")
        assert sum(1 for q in g.iter(f"{SVG}g") if q.get("class") == "qr") == 1


def test_every_printed_qr_decodes_to_its_payload(svg_path: Path) -> None:
    for g in _svg_labels(svg_path):
        decoded = _read_qr_v2q(_modules(g))
        valid = {t for t in decoded if t.startswith("TC1:")}
        assert valid == {g.get("data-payload")}
        parse_payload(valid.pop())


def test_labels_fit_a_card_and_the_page(svg_path: Path) -> None:
    boxes = []
    for g in _svg_labels(svg_path):
        x, y = map(float, re.findall(r"[\d.]+", g.get("transform") or ""))
        cut = next(r for r in g.iter(f"{SVG}rect") if r.get("class") == "cut")
        w, h = float(cut.get("width") or 0), float(cut.get("height") or 0)
        assert w <= 63 and h <= 88  # sticks on one card
        assert x >= 0 and x + w <= 210 and y >= 0 and y + h <= 297
        boxes.append((x, y, w, h))
    for i, (x1, y1, w1, h1) in enumerate(boxes):  # no two labels overlap
        for x2, y2, w2, h2 in boxes[i + 1 :]:
            assert x1 + w1 <= x2 or x2 + w2 <= x1 or y1 + h1 <= y2 or y2 + h2 <= y1


def test_captions_name_the_card(svg_path: Path) -> None:
    by_payload = {g.get("data-payload"): g for g in _svg_labels(svg_path)}
    texts = [t.text for t in by_payload["TC1:HK:ITEM:FAN:2"].iter(f"{SVG}text")]
    assert texts == ["Fan 2/2", "item · Iroha", "heart (red)", "TC1:HK:ITEM:FAN:2"]
    texts = [t.text for t in by_payload["TC1:HK:TOKEN:GIFT:1"].iter(f"{SVG}text")]
    assert texts[:3] == ["Gift", "token 3 · player 1", "three dots"]
    texts = [t.text for t in by_payload["TC1:HK:GEISHA:RURI:1"].iter(f"{SVG}text")]
    assert texts[:3] == ["Ruri", "geisha · 5 points", "flower (pink)"]


def test_captions_in_french() -> None:
    assert caption(CardRef("hanamikoji", "item", "tea", 4), "fr") == (
        "Service à thé 4/4", "objet · Anju", "trèfle (vert)"
    )  # fmt: skip
    assert caption(CardRef("hanamikoji", "token", "competition", 2), "fr") == (
        "Échange", "jeton 4 · joueur 2", "quatre points"
    )  # fmt: skip
    root = ET.fromstring(to_svg(layout(lang="fr"), "fr"))
    assert "étiquettes" in (root.findtext(f"{SVG}title") or "")


def test_pdf_is_well_formed(tmp_path: Path) -> None:
    path = tmp_path / "labels.pdf"
    write_labels(str(path), fmt="pdf", lang="fr")
    pdf = path.read_bytes()
    assert pdf.startswith(b"%PDF-1.4") and pdf.rstrip().endswith(b"%%EOF")
    # every xref offset points at its object
    xref = int(pdf[pdf.rindex(b"startxref") + 9 :].split()[0])
    rows = pdf[xref:].split(b"\n")[3:10]
    for number, row in enumerate(rows, start=1):
        offset = int(row.split()[0])
        assert pdf[offset:].startswith(f"{number} 0 obj".encode())
    start = pdf.index(b"stream\n") + 7
    length = int(re.search(rb"/Length (\d+)", pdf).group(1))  # type: ignore[union-attr]
    content = zlib.decompress(pdf[start : start + length]).decode("latin-1")
    for ref in all_cards():
        assert f"({format_payload(ref)}) Tj" in content
    assert "(\xc9change) Tj" in content  # "Échange" in WinAnsiEncoding
    assert to_pdf(layout()) == to_pdf(layout())  # deterministic


def test_unknown_format_is_refused(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="format"):
        write_labels(str(tmp_path / "x.png"), fmt="png")  # type: ignore[arg-type]


# --- Momiji: leaf labels carry colour and value, objective tokens a copy -----------------


def test_momiji_payload_format() -> None:
    from companion.games.momiji.cards import leaf_ref

    ref = leaf_ref("green", 2)
    assert ref == CardRef("momiji", "leaf", "green", 1, 2)
    assert format_payload(ref) == "TC1:MJ:LEAF:GREEN:2"
    assert parse_payload(" tc1:mj:leaf:green:2\r\n") == ref
    assert format_payload(CardRef("momiji", "objective", "tallest")) == "TC1:MJ:OBJECTIVE:TALLEST:1"
    # Hanamikoji refs are unchanged by the new field
    assert CardRef("hanamikoji", "item", "fan", 2).value is None


@given(st.sampled_from(all_cards("momiji")))
def test_momiji_payload_round_trip(ref: CardRef) -> None:
    text = format_payload(ref)
    assert parse_payload(text) == ref
    assert parse_payload(text.lower()) == ref
    assert re.fullmatch(r"[A-Z0-9:]+", text)


def test_momiji_cards_one_per_colour_and_value_then_objectives() -> None:
    cards = all_cards("momiji")
    leaves = [c for c in cards if c.kind == "leaf"]
    assert len(leaves) == 24 == len({(c.name, c.value) for c in leaves})
    assert {c.name for c in leaves} == {"green", "brown", "violet", "yellow", "orange", "red"}
    assert {c.value for c in leaves} == {0, 1, 2, 3}
    assert len([c for c in cards if c.kind == "objective"]) == 16
    assert all_cards("momiji", ("objective",)) == tuple(c for c in cards if c.kind == "objective")
    assert len(all_cards()) == 36  # the default is still one Hanamikoji


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("TC1:MJ:LEAF:GREEN:4", "values are 0 to 3, not 4"),
        ("TC1:MJ:LEAF:GREEN:-1", "not a number"),
        ("TC1:MJ:LEAF:GREEN:two", "value 'two' is not a number"),
        ("TC1:MJ:LEAF:PINK:1", "no leaf 'pink'"),
        ("TC1:MJ:LEAF:GREEN", "5 fields"),
        ("TC1:MJ:LEAF:GREEN:2:1", "5 fields"),  # no copy number for leaves
        ("TC1:MJ:OBJECTIVE:TALLEST:2", "not copy 2"),  # each token exists once
        ("TC1:MJ:OBJECTIVE:BANANA:1", "no objective 'banana'"),
        ("TC1:MJ:TOKEN:GIFT:1", "unknown kind 'token'"),
        ("TC1:HK:LEAF:GREEN:1", "unknown kind 'leaf'"),
    ],
)
def test_momiji_payload_rejects_with_reason(text: str, reason: str) -> None:
    with pytest.raises(PayloadError, match=reason):
        parse_payload(text)


def test_momiji_cardref_validates() -> None:
    with pytest.raises(PayloadError, match="values are 0 to 3"):
        CardRef("momiji", "leaf", "green", 1, None)
    with pytest.raises(PayloadError, match="has no value"):
        CardRef("hanamikoji", "item", "fan", 1, 2)
    with pytest.raises(PayloadError, match="not copy 2"):
        CardRef("momiji", "leaf", "green", 2, 1)


@pytest.fixture(scope="module")
def momiji_svg(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("labels") / "momiji.svg"
    assert write_labels(str(path), "momiji", "svg", "en") == 24
    return path


def test_momiji_sheet_has_one_qr_per_colour_and_value(momiji_svg: Path) -> None:
    labels = _svg_labels(momiji_svg)
    assert len(labels) == 24
    refs = [parse_payload(g.get("data-payload") or "") for g in labels]
    assert {(r.name, r.value) for r in refs} == {
        (c, v) for c in ("green", "brown", "violet", "yellow", "orange", "red") for v in range(4)
    }
    for g in labels:
        assert sum(1 for q in g.iter(f"{SVG}g") if q.get("class") == "qr") == 1
        decoded = {t for t in _read_qr_v2q(_modules(g)) if t.startswith("TC1:")}
        assert decoded == {g.get("data-payload")}


def test_momiji_sheet_says_how_many_to_print(momiji_svg: Path) -> None:
    root = ET.parse(momiji_svg).getroot()
    assert "one per leaf type and value" in (root.findtext(f"{SVG}title") or "")
    note = next(t for t in root.iter(f"{SVG}text") if t.get("class") == "note")
    assert "as many times as your cards need" in (note.text or "")
    by_payload = {g.get("data-payload"): g for g in _svg_labels(momiji_svg)}
    texts = [t.text for t in by_payload["TC1:MJ:LEAF:VIOLET:2"].iter(f"{SVG}text")]
    assert texts == ["Purple 2", "leaf · value 2", "grapes (violet)", "TC1:MJ:LEAF:VIOLET:2"]


def test_momiji_labels_in_french_and_the_objective_sheet(tmp_path: Path) -> None:
    assert caption(CardRef("momiji", "leaf", "red", 1, 0), "fr") == (
        "Rouge 0", "feuille · valeur 0", "cœur (rouge)")
    assert caption(CardRef("momiji", "objective", "tallest"), "en") == (
        "Tallest pile", "objective 16", "")
    path = tmp_path / "objectives.pdf"
    assert write_labels(str(path), "momiji", "pdf", "fr", ("objective",)) == 16
    with pytest.raises(ValueError, match="do not fit on one A4 page"):
        layout("momiji", kinds=("leaf", "objective"))


def test_cli_labels_momiji(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from companion.cli import main

    out = tmp_path / "leaves.svg"
    assert main(["stickers", "labels", "momiji", "--out", str(out)]) == 0
    said = capsys.readouterr().out
    assert f"wrote 24 labels to {out} (svg)" in said
    assert "print as many sheets as your cards need" in said
    assert len(_svg_labels(out)) == 24
    assert main(["stickers", "labels", "momiji", "--only", "objective",
                 "--out", str(tmp_path / "o.svg")]) == 0
    assert "wrote 16 labels" in capsys.readouterr().out
    assert main(["stickers", "labels", "hanamikoji", "--only", "leaf",
                 "--out", str(tmp_path / "x.svg")]) == 2
    assert "Momiji sheet" in capsys.readouterr().err
