"""Which physical card a tag id or a barcode belongs to: the card registry.

RFID tags and shop barcodes carry arbitrary ids, so each one is enrolled once
(``companion cards enroll``) and remembered in a small JSON file in the user data folder::

    {"format": "tactile-companion cards", "version": 1,
     "tags": {"0A00B1C2D3": "TC1:<CODE>:ITEM:FAN:2", ...}}

Each value is the card's printed-label payload (see payload.py), so one text form names a
card everywhere. Printed QR labels need no enrolment: ``resolve`` parses them directly.
Writes are atomic (temporary file + rename): a crash or an unplugged Raspberry Pi never
leaves half a registry.
"""

from __future__ import annotations

import contextlib
import json
import os
import tempfile
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

from companion.cards.payload import (
    PAYLOAD_VERSION,
    CardRef,
    PayloadError,
    all_cards,
    format_payload,
    parse_payload,
)

APP_NAME = "tactile-companion"
FILE_NAME = "cards.json"
FORMAT = "tactile-companion cards"
VERSION = 1


class RegistryError(ValueError):
    """The registry file cannot be read or written; the message says why, plainly."""


def default_path() -> Path:
    from platformdirs import user_data_dir

    return Path(user_data_dir(APP_NAME, appauthor=False)) / FILE_NAME


def normalize_tag(tag: str) -> str:
    """The form ids are stored and compared in: no spaces, upper case.

    Readers print the same UID as "04 a3 1f" or "04A31F", and a wedge scanner may type
    with Caps Lock on; case never distinguishes two real tags.
    """
    return "".join(tag.split()).upper()


def is_payload(text: str) -> bool:
    return text.strip().upper().startswith(PAYLOAD_VERSION + ":")


class CardRegistry:
    """Tag id → CardRef, one file. Not thread-safe: one program enrolls at a time."""

    def __init__(self, path: Path | str | None = None) -> None:
        self.path = Path(path) if path is not None else default_path()
        self._tags: dict[str, CardRef] = {}
        self.problems: list[str] = []  # entries skipped at load, for `cards check`

    # -- file -------------------------------------------------------------------------
    @classmethod
    def load(cls, path: Path | str | None = None) -> CardRegistry:
        """The registry at `path`; empty if the file does not exist yet."""
        registry = cls(path)
        try:
            text = registry.path.read_text("utf-8")
        except FileNotFoundError:
            return registry
        except OSError as error:
            raise RegistryError(f"cannot read {registry.path}: {error.strerror or error}") from None
        try:
            data = json.loads(text)
        except json.JSONDecodeError as error:
            raise RegistryError(
                f"{registry.path} is not valid JSON (line {error.lineno}): {error.msg}"
            ) from None
        if not isinstance(data, dict) or not isinstance(data.get("tags"), dict):
            raise RegistryError(f"{registry.path} is not a card registry (no \"tags\" table)")
        if data.get("version", VERSION) > VERSION:
            raise RegistryError(
                f"{registry.path} was written by a newer version ({data['version']})"
            )
        for tag, payload in data["tags"].items():
            try:
                ref = parse_payload(str(payload))
            except PayloadError as error:
                registry.problems.append(f"{tag}: {error}")
                continue
            key = normalize_tag(str(tag))
            if not key:
                registry.problems.append(f"{tag!r}: empty tag id")
                continue
            registry._tags[key] = ref
        return registry

    def save(self) -> None:
        """Write the whole file atomically: a reader sees the old file or the new one."""
        data: dict[str, Any] = {
            "format": FORMAT,
            "version": VERSION,
            "tags": {tag: format_payload(ref) for tag, ref in sorted(self._tags.items())},
        }
        text = json.dumps(data, indent=2, ensure_ascii=False) + "\n"
        folder = self.path.parent
        try:
            folder.mkdir(parents=True, exist_ok=True)
            fd, temp = tempfile.mkstemp(prefix=".cards-", suffix=".tmp", dir=folder)
        except OSError as error:
            raise RegistryError(f"cannot write in {folder}: {error.strerror or error}") from None
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as stream:
                stream.write(text)
                stream.flush()
                os.fsync(stream.fileno())  # the data is on disk before the rename makes it live
            os.replace(temp, self.path)
        except OSError as error:
            with contextlib.suppress(OSError):
                os.unlink(temp)
            raise RegistryError(f"cannot write {self.path}: {error.strerror or error}") from None

    # -- lookups ----------------------------------------------------------------------
    def lookup(self, tag: str) -> CardRef | None:
        return self._tags.get(normalize_tag(tag))

    def tag_for(self, ref: CardRef) -> str | None:
        for tag, known in self._tags.items():
            if known == ref:
                return tag
        return None

    def add(self, tag: str, ref: CardRef) -> None:
        """Enrol `tag` as `ref`; a tag already enrolled raises DuplicateTag (nothing changes)."""
        key = normalize_tag(tag)
        if not key:
            raise ValueError("an empty tag id cannot be enrolled")
        known = self._tags.get(key)
        if known is not None:
            raise DuplicateTag(key, known)
        self._tags[key] = ref

    def remove(self, tag: str) -> CardRef | None:
        return self._tags.pop(normalize_tag(tag), None)

    def missing(self, cards: Iterable[CardRef] | None = None) -> list[CardRef]:
        """The cards of `cards` (default: one whole copy of the first game) that no tag names
        yet."""
        known = set(self._tags.values())
        return [c for c in (all_cards() if cards is None else cards) if c not in known]

    def __len__(self) -> int:
        return len(self._tags)

    def __iter__(self) -> Iterator[tuple[str, CardRef]]:
        return iter(sorted(self._tags.items()))


class DuplicateTag(ValueError):
    def __init__(self, tag: str, ref: CardRef) -> None:
        super().__init__(f"tag {tag} is already enrolled as {format_payload(ref)}")
        self.tag = tag
        self.ref = ref


def resolve(value: str, registry: CardRegistry | None) -> CardRef | None:
    """The card a scanned value names: a printed label, else an enrolled tag, else None.

    A value that looks like a label but is malformed raises PayloadError (its reason is
    worth saying: a torn or misprinted label).
    """
    if is_payload(value):
        return parse_payload(value)
    return registry.lookup(value) if registry is not None else None


def open_registry(path: Path | str | None = None) -> tuple[CardRegistry, str | None]:
    """For play: the registry, or an empty one plus the reason it could not be read.

    A damaged file must not stop a game: printed labels and the keypad still work.
    """
    try:
        return CardRegistry.load(path), None
    except RegistryError as error:
        return CardRegistry(path), str(error)
