"""`companion stickers ...` through a fresh argparse parser, as the main CLI will call it."""

from __future__ import annotations

import argparse
import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from companion.cli_stickers import add_parser
from companion.games.hanamikoji.cards import sticker_plan as hanamikoji_plan
from stickers import decode


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    parser = argparse.ArgumentParser(prog="companion")
    add_parser(parser.add_subparsers(dest="command"))
    args = parser.parse_args(["stickers", *argv])
    status = args.func(args)
    out, err = capsys.readouterr()
    return status, out, err


def test_decode_prints_value_and_canonical_description(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = run(capsys, "decode", "un", "carré", "pointé", "+", "un", "rond", "pointé",
                           "+", "deux", "points")  # fmt: skip
    assert (status, out, err) == (0, "17: carré pointé, rond pointé, deux points\n", "")


def test_decode_in_english_or_forced_language(capsys: pytest.CaptureFixture[str]) -> None:
    assert run(capsys, "decode", "square with two dots and three dots")[1] == (
        "23: dotted square with two dots, three dots\n"
    )
    assert run(capsys, "decode", "--lang", "fr", "dotted circle and one dot")[1] == (
        "6: rond pointé, un point\n"
    )


def test_decode_error_is_one_line_and_status_2(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = run(capsys, "decode", "dotted", "square", "banana")
    assert status == 2 and out == ""
    assert err == "error: understood 'dotted square' (10) but not 'banana'\n"


@pytest.mark.parametrize(
    ("argv", "expected"),
    [
        (["describe", "17"], "dotted square, dotted circle, two dots\n"),
        (["describe", "20", "--lang", "fr"], "carré pointé à deux points\n"),
        (["describe", "0"], "no number sticker\n"),
        (["colour", "goutte", "d'eau"], "drop (blue)\n"),
        (["colour", "4 carreaux", "--lang", "fr"], "quatre carreaux (marron)\n"),
        (["color", "red"], "heart (red)\n"),
    ],
)
def test_describe_and_colour(
    capsys: pytest.CaptureFixture[str], argv: list[str], expected: str
) -> None:
    assert run(capsys, *argv) == (0, expected, "")


@pytest.mark.parametrize(
    ("argv", "fragment"),
    [(["describe", "100"], "0 to 99"), (["colour", "banana"], "'banana'")],
)
def test_command_errors(capsys: pytest.CaptureFixture[str], argv: list[str], fragment: str) -> None:
    status, out, err = run(capsys, *argv)
    assert status == 2 and out == ""
    assert err.startswith("error: ") and fragment in err and err.count("\n") == 1


def test_argparse_rejects_bad_arguments(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as info:
        run(capsys, "plan", "chess")
    assert info.value.code == 2


def test_plan_english(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = run(capsys, "plan", "hanamikoji")
    lines = out.splitlines()
    assert status == 0 and err == ""
    assert "Geisha 7, Ruri: flower (pink); 5 points: dotted circle." in lines
    assert "Geisha 1, Ayane: grapes (violet); 2 points: two dots." in lines
    assert "Tea set, 4 cards (Anju): clover (green)." in lines
    assert "Token 2, Discard, 2 tokens: two dots." in lines
    assert "Token 4, Competition, 2 tokens: four dots." in lines
    # totals: 7 geishas + 21 items symbols; dots = geishas 2+2+2+3+3+4, tokens 2×(1+2+3+4)
    assert "flower (pink): 6 symbols." in lines
    assert "dot: 36 stickers." in lines
    assert "dotted circle: 1 sticker." in lines
    assert lines[-1] == "In all: 28 colour symbols and 37 number stickers."


def test_plan_french_with_item_points(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "plan", "hanamikoji", "--lang", "fr", "--item-points")
    lines = out.splitlines()
    assert status == 0
    assert "Jeton 3, Offre, 2 jetons : trois points." in lines
    assert "Jeton 2, Dépôt, 2 jetons : deux points." in lines
    assert "Fleur, 5 cartes (Ruri) : fleur (rose) ; 5 points : rond pointé." in lines
    assert "point : 82 stickers." in lines
    assert lines[-1] == "En tout : 28 symboles de couleur et 88 stickers chiffre."


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_plan_numbers_read_back_and_nothing_is_colour_only(lang: str) -> None:
    """Every number the plan tells a volunteer to stick decodes to the points it claims,
    and every colour is named by its symbol too (no colour-only information)."""
    pattern = r"(\d+) points? : (.+?)\.$" if lang == "fr" else r"(\d+) points?: (.+?)\.$"
    numbers = 0
    for line in hanamikoji_plan(lang, item_points=True):  # type: ignore[arg-type]
        match = re.search(pattern, line)
        if match:
            numbers += 1
            assert decode(match.group(2)) == int(match.group(1)), line
        for colour in ("violet", "red", "rouge", "blue", "bleu", "pink", "rose"):
            if f"({colour})" in line:
                assert re.search(rf"\w \({colour}\)", line), line
    assert numbers == 14  # 7 geishas and 7 item lines


def test_labels_svg(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    out_file = tmp_path / "labels.svg"
    status, out, err = run(capsys, "labels", "hanamikoji", "--out", str(out_file), "--lang", "fr")
    assert status == 0 and err == ""
    assert out == f"wrote 36 labels to {out_file} (svg)\n"
    root = ET.parse(out_file).getroot()
    ns = "{http://www.w3.org/2000/svg}"
    labels = [g for g in root.iter(f"{ns}g") if g.get("class") == "label"]
    assert len(labels) == 36
    captions = [t.text for g in labels for t in g.iter(f"{ns}text")]
    assert "Éventail 2/2" in captions and "Échange" in captions


def test_labels_pdf_from_extension(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    out_file = tmp_path / "labels.pdf"
    status, out, _ = run(capsys, "labels", "hanamikoji", "--out", str(out_file))
    assert status == 0 and out.endswith("(pdf)\n")
    assert out_file.read_bytes().startswith(b"%PDF-")


def test_labels_unwritable_path(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    target = tmp_path / "missing-dir" / "labels.svg"
    status, out, err = run(capsys, "labels", "hanamikoji", "--out", str(target))
    assert status == 2 and out == "" and err.startswith("error: ") and err.count("\n") == 1
