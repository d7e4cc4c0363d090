"""Enrolment: the spoken walk-through with typed ids and a reader on a pty, duplicates,
interruption and resume, `cards check`."""

from __future__ import annotations

import argparse
import io
import os
import pty
import subprocess
import sys
from pathlib import Path

import pytest
from lines import Lines

from companion import cli_cards
from companion.cards.enroll import Enrollment, check_messages
from companion.cards.payload import CardRef
from companion.cards.registry import CardRegistry
from companion.narrate.catalogue import Catalogue
from hardware.frames import rdm6300_frame

EN, FR = Catalogue("en"), Catalogue("fr")
ROOT = Path(__file__).resolve().parent.parent


def said(messages, catalogue=EN) -> list[str]:
    return [catalogue.render(m) for m in messages]


def test_walk_through_with_typed_ids_duplicate_skip_undo(tmp_path):
    path = tmp_path / "cards.json"
    walk = Enrollment(CardRegistry.load(path))
    start = said(walk.start())
    assert start[0].startswith("Card enrolment: 36 cards to scan, 0 already enrolled.")
    assert start[1] == "Scan a flute (purple, 2) card (1 of 2)."
    assert said(walk.handle_line("0a00b1c2d3")) == [
        "Enrolled: flute (purple, 2), copy 1.", "Scan a flute (purple, 2) card (2 of 2)."]
    assert said(walk.handle_line("0A00B1C2D3"))[0] == (
        "This tag is already enrolled as flute (purple, 2), copy 1. Scan another tag.")
    assert CardRegistry.load(path).lookup("0A00B1C2D3") is not None  # saved at once
    assert said(walk.handle_line(""))[0] == "Skipped: flute (purple, 2), copy 2. It stays missing."
    walk.handle_line("T2")
    assert said(walk.handle_line("-"))[0] == "Undone: fan (red, 2), copy 1 is no longer enrolled."
    assert walk.current == CardRef("hanamikoji", "item", "fan", 1)
    assert said(walk.handle_line("*")) == ["Scan a fan (red, 2) card (1 of 2)."]
    assert "Enter alone skips" in said(walk.handle_line("+"))[0]
    end = said(walk.handle_line("0"))
    assert end[0].startswith("Stopped. What is enrolled is saved")
    assert end[1] == "Enrolled this time: 1. 1 of 36 cards enrolled; 35 missing."
    assert walk.done and walk.handle_line("T9") == []


def test_interrupted_then_resumed_goes_on_with_what_is_missing(tmp_path):
    path = tmp_path / "cards.json"
    only_tokens = [c for c in CardRegistry(path).missing() if c.kind == "token"]
    first = Enrollment(CardRegistry.load(path), only_tokens)
    first.start()
    for tag in ["S1", "S2", "D1"]:
        first.handle_tag(tag)
    first.stop()
    second = Enrollment(CardRegistry.load(path), only_tokens)
    start = said(second.start())
    assert start[0].startswith("Card enrolment: 5 cards to scan, 3 already enrolled.")
    assert start[1] == "Scan the Discard (2) token of set 2 (2 of 2)."
    out = []
    for tag in ["D2", "G1", "G2", "C1", "C2"]:
        out = second.handle_tag(tag)
    assert said(out)[-1] == "Enrolled this time: 5. All 8 cards are enrolled."
    assert second.done
    registry = CardRegistry.load(path)
    assert registry.lookup("C2") == CardRef("hanamikoji", "token", "competition", 2)
    third = Enrollment(registry, only_tokens)
    assert said(third.start()) == ["All 8 cards are already enrolled. Nothing to do."]


def test_printed_labels_and_french(tmp_path):
    walk = Enrollment(CardRegistry(tmp_path / "c.json"))
    start = said(walk.start(), FR)
    assert start[1] == "Lisez une carte flûte (violet, 2) (1 sur 2)."
    assert said(walk.handle_tag("TC1:HK:ITEM:FAN:1"), FR)[0] == (
        "Cette étiquette imprimée est éventail (rouge, 2), exemplaire 1, pas la carte demandée.")
    assert said(walk.handle_tag("TC1:HK:ITEM:FLUTE:1"), FR)[0] == (
        "Enregistré : flûte (violet, 2), exemplaire 1.")
    assert "illisible" in said(walk.handle_tag("TC1:HK:ITEM:FLUTE:3"), FR)[0]


def test_check_says_what_is_missing_grouped(tmp_path):
    registry = CardRegistry(tmp_path / "c.json")
    items = [c for c in registry.missing() if c.kind == "item"]
    for i, ref in enumerate(items[:-2]):
        registry.add(f"T{i}", ref)
    text = said(check_messages(registry, items))
    assert text == ["Enrolled: 19 of 21 cards. Missing, 2 cards: flower (pink, 5), "
                    "copies 4 and 5."]
    registry.add("T98", items[-2])
    registry.add("T99", items[-1])
    assert said(check_messages(registry, items)) == ["All 21 cards are enrolled."]


def run_cli(argv: list[str], stdin: str, monkeypatch, capsys) -> tuple[int, str]:
    parser = argparse.ArgumentParser()
    cli_cards.add_parser(parser.add_subparsers(dest="command", required=True))
    args = parser.parse_args(argv)
    monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
    status = args.func(args)
    return status, capsys.readouterr().out


def test_cli_enroll_then_check(tmp_path, monkeypatch, capsys):
    reg = str(tmp_path / "cards.json")
    common = ["--registry", reg, "--no-speech", "--lang", "en", "--only", "geisha"]
    status, out = run_cli(["cards", "enroll", *common], "G1\nG2\nG1\n", monkeypatch, capsys)
    lines = out.splitlines()
    assert status == 0
    assert lines[1] == "Scan the geisha card Ayane."
    assert "This tag is already enrolled as geisha card Ayane. Scan another tag." in lines
    assert lines[-1] == "Enrolled this time: 2. 2 of 7 cards enrolled; 5 missing."  # EOF stops
    status, out = run_cli(["cards", "check", *common], "", monkeypatch, capsys)
    assert status == 1 and out.startswith("Enrolled: 2 of 7 cards. Missing, 5 cards:")
    (tmp_path / "cards.json").write_text("garbage", "utf-8")
    status, out = run_cli(["cards", "check", *common], "", monkeypatch, capsys)
    assert status == 2 and out.startswith("The card registry cannot be read:")


@pytest.mark.skipif(not hasattr(os, "openpty"), reason="needs pseudo-terminals")
def test_cli_enroll_from_a_reader_on_a_pty(tmp_path):
    master, slave = pty.openpty()
    reader_path = os.ttyname(slave)
    os.close(slave)
    reg = tmp_path / "cards.json"
    code = "import sys; from companion.cli import main; sys.exit(main(sys.argv[1:]))"
    proc = subprocess.Popen(
        [sys.executable, "-c", code, "cards", "enroll", "--reader", reader_path,
         "--registry", str(reg), "--no-speech", "--lang", "en", "--only", "token"]
        if _cards_registered() else
        [sys.executable, "-c", _DIRECT, "enroll", "--reader", reader_path,
         "--registry", str(reg), "--no-speech", "--lang", "en", "--only", "token"],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, cwd=ROOT)
    assert proc.stdin is not None and proc.stdout is not None
    lines = Lines(proc.stdout)
    try:
        lines.wait_for("Card reader connected")  # the reader has opened the port
        os.write(master, rdm6300_frame("0A00000001"))
        lines.wait_for("Enrolled: Secret (1) token, set 1.")
        os.write(master, rdm6300_frame("0A00000002"))
        lines.wait_for("Enrolled: Secret (1) token, set 2.")
        os.write(master, rdm6300_frame("0A00000001"))  # not the last tag read: a new scan
        lines.wait_for("This tag is already enrolled as Secret (1) token, set 1. "
                       "Scan another tag.")
        proc.stdin.write("0\n")
        proc.stdin.flush()
        lines.rest()
        assert proc.wait(timeout=30) == 0, lines.seen
    finally:
        os.close(master)
        if proc.poll() is None:
            proc.kill()
    out = "\n".join(lines.seen)
    assert "Traceback" not in out
    assert CardRegistry.load(reg).lookup("0A00000002") == CardRef("hanamikoji", "token",
                                                                  "secret", 2)


_DIRECT = (  # until `companion.cli_cards` is registered in companion/cli.py
    "import argparse, sys; from companion import cli_cards\n"
    "p = argparse.ArgumentParser(); s = p.add_subparsers(dest='c', required=True)\n"
    "cli_cards.add_parser(s); a = p.parse_args(['cards', *sys.argv[1:]]); sys.exit(a.func(a))"
)


def _cards_registered() -> bool:
    from companion.cli import build_parser

    try:
        build_parser().parse_args(["cards", "check"])
    except SystemExit:
        return False
    return True
