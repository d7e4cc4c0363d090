"""The card registry file: round trip, atomic writes, damaged files, lookups."""

from __future__ import annotations

import json
import os

import pytest

from companion.cards import registry as registry_module
from companion.cards.payload import CardRef, PayloadError, all_cards
from companion.cards.registry import (
    CardRegistry,
    DuplicateTag,
    RegistryError,
    normalize_tag,
    open_registry,
    resolve,
)

FAN2 = CardRef("hanamikoji", "item", "fan", 2)
GIFT1 = CardRef("hanamikoji", "token", "gift", 1)


def test_round_trip_of_every_card(tmp_path):
    path = tmp_path / "sub" / "cards.json"
    registry = CardRegistry(path)
    for i, ref in enumerate(all_cards()):
        registry.add(f"{i:010X}", ref)
    registry.save()
    again = CardRegistry.load(path)
    assert list(again) == list(registry) and len(again) == 36
    assert again.missing() == [] and again.problems == []
    data = json.loads(path.read_text("utf-8"))
    assert data["version"] == 1 and data["tags"]["0000000001"] == "TC1:HK:ITEM:FLUTE:2"


def test_missing_file_is_an_empty_registry(tmp_path):
    registry = CardRegistry.load(tmp_path / "none.json")
    assert len(registry) == 0 and len(registry.missing()) == 36


def test_lookup_ignores_spaces_and_case_and_refuses_duplicates(tmp_path):
    registry = CardRegistry(tmp_path / "c.json")
    registry.add("04 a3 1f 7b", FAN2)
    assert registry.lookup("04A31F7B") == FAN2 and registry.tag_for(FAN2) == "04A31F7B"
    with pytest.raises(DuplicateTag) as caught:
        registry.add("04A31F7B", GIFT1)
    assert caught.value.ref == FAN2 and registry.lookup("04a31f7b") == FAN2
    with pytest.raises(ValueError):
        registry.add("  ", GIFT1)
    assert normalize_tag(" ab cd\n") == "ABCD"
    assert registry.remove("04A31F7B") == FAN2 and registry.lookup("04A31F7B") is None


def test_resolve_labels_without_registry_and_tags_with_it(tmp_path):
    registry = CardRegistry(tmp_path / "c.json")
    registry.add("0A0B0C0D0E", GIFT1)
    assert resolve("tc1:hk:item:fan:2\n", None) == FAN2
    assert resolve("0a0b0c0d0e", registry) == GIFT1
    assert resolve("0A0B0C0D0E", None) is None and resolve("FFFF", registry) is None
    with pytest.raises(PayloadError):
        resolve("TC1:HK:ITEM:FAN", registry)


def test_write_is_atomic_and_leaves_no_temporary_file(tmp_path, monkeypatch):
    path = tmp_path / "cards.json"
    registry = CardRegistry(path)
    registry.add("01", FAN2)
    registry.save()
    before = path.read_bytes()
    registry.add("02", GIFT1)

    def failing_replace(src: str, dst: str) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(registry_module.os, "replace", failing_replace)
    with pytest.raises(RegistryError, match="No space left"):
        registry.save()
    assert path.read_bytes() == before  # the old file is whole
    assert os.listdir(tmp_path) == ["cards.json"]


def test_damaged_files_are_explained(tmp_path):
    path = tmp_path / "cards.json"
    path.write_text("{not json", "utf-8")
    with pytest.raises(RegistryError, match="not valid JSON"):
        CardRegistry.load(path)
    registry, reason = open_registry(path)  # for play: empty, with the reason to say
    assert len(registry) == 0 and "not valid JSON" in reason
    path.write_text('{"cards": {}}', "utf-8")
    with pytest.raises(RegistryError, match="not a card registry"):
        CardRegistry.load(path)
    path.write_text('{"version": 9, "tags": {}}', "utf-8")
    with pytest.raises(RegistryError, match="newer version"):
        CardRegistry.load(path)


def test_bad_entries_are_skipped_and_listed(tmp_path):
    path = tmp_path / "cards.json"
    path.write_text(json.dumps({"version": 1, "tags": {
        "01": "TC1:HK:ITEM:FAN:2", "02": "TC1:HK:ITEM:FAN:9", " ": "TC1:HK:ITEM:FAN:1"}}),
        "utf-8")
    registry = CardRegistry.load(path)
    assert list(registry) == [("01", FAN2)]
    assert len(registry.problems) == 2 and "copy 9" in registry.problems[0]


def test_default_path_is_in_the_user_data_folder(monkeypatch, tmp_path):
    import platformdirs

    monkeypatch.setattr(platformdirs, "user_data_dir",
                        lambda name, appauthor=None: str(tmp_path / name))
    assert registry_module.default_path() == tmp_path / "tactile-companion" / "cards.json"
    assert CardRegistry().path == tmp_path / "tactile-companion" / "cards.json"
