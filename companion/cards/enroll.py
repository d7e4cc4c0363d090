"""Enrolment: a walk through the cards still missing from the registry, one scan each.

Pure logic, no I/O: lines and tag ids go in, Messages come out (the CLI prints and speaks
them). Each card is saved as soon as it is enrolled, so stopping at any moment loses
nothing and the next run asks only for what is missing.
"""

from __future__ import annotations

from collections.abc import Sequence

from companion.cards.payload import (
    CardRef,
    PayloadError,
    all_cards,
    card_games,
    hooks,
    parse_payload,
)
from companion.cards.registry import CardRegistry, DuplicateTag, RegistryError, is_payload
from companion.narrate.message import Message, Priority

P = "cards."


def enrolling_games() -> list[str]:
    """The installed games whose pieces are enrolled for a reader, sorted by name."""
    return [game for game in card_games() if hooks(game).enrolment]


def enrolled_cards(game: str | None = None) -> tuple[CardRef, ...]:
    """Every piece of one copy of `game` (default: the first game that enrols) whose kind
    is enrolled."""
    if game is None:
        games = enrolling_games()
        if not games:
            raise PayloadError("no installed game enrols its cards")
        game = games[0]
    return all_cards(game, hooks(game).enrolment)


def enrolment_order(cards: Sequence[CardRef] | None = None) -> list[CardRef]:
    """In the order of the game's `enrolment` kinds (what play needs most first), so that
    a stop halfway leaves the least useful missing; pieces of kinds not enrolled go."""
    cards = list(enrolled_cards() if cards is None else cards)

    def rank(ref: CardRef) -> int:
        return hooks(ref.game).enrolment.index(ref.kind)

    kept = [c for c in cards if c.kind in hooks(c.game).enrolment]
    return sorted(kept, key=rank)  # stable: keeps table order


def said(ref: CardRef) -> Message:
    """The piece in the game's words."""
    return hooks(ref.game).said(ref)


class Enrollment:
    """One walk-through. `handle_line` takes a typed line, `handle_tag` a reader's scan."""

    def __init__(self, registry: CardRegistry, cards: Sequence[CardRef] | None = None,
                 *, save: bool = True) -> None:
        self.registry = registry
        self.all = enrolment_order(cards)
        self.queue: list[CardRef] = registry.missing(self.all)
        self.save = save
        self.added: list[tuple[str, CardRef]] = []
        self.skipped: list[CardRef] = []
        self.stopped = False

    @property
    def current(self) -> CardRef | None:
        return self.queue[0] if self.queue else None

    @property
    def done(self) -> bool:
        return self.stopped or not self.queue

    def start(self) -> list[Message]:
        total = len(self.all)
        if not self.queue:
            return [Message("summary", P + "enroll_nothing", {"total": total})]
        intro = Message("info", P + "enroll_intro",
                        {"n": len(self.queue), "done": total - len(self.queue)})
        return [intro, self.prompt()]

    def prompt(self) -> Message:
        assert self.current is not None
        return hooks(self.current.game).ask(self.current)

    # -- inputs -----------------------------------------------------------------------
    def handle_line(self, line: str) -> list[Message]:
        """A typed line: a keypad command, or a tag id typed by hand or by a wedge scanner."""
        text = line.strip()
        if self.done:
            return []
        if text == "0":
            return self.stop()
        if text == "*":
            return [self.prompt()]
        if text == "+":
            return [Message("help", P + "enroll_help"), self.prompt()]
        if text == "-":
            return self.undo()
        if text == "":
            return self.skip()
        return self.handle_tag(text)

    def handle_tag(self, tag: str) -> list[Message]:
        ref = self.current
        if ref is None or self.stopped:
            return []
        if is_payload(tag):
            return self._label(tag, ref)
        known = self.registry.lookup(tag)
        if known is not None:
            return [self._refuse("enroll_duplicate", known, tag), self.prompt()]
        try:
            self.registry.add(tag, ref)
        except (DuplicateTag, ValueError):
            return [self.prompt()]
        return self._saved(tag, ref)

    def _label(self, tag: str, ref: CardRef) -> list[Message]:
        """A printed label needs no enrolment, but recording it makes `check` complete."""
        try:
            labelled = parse_payload(tag)
        except PayloadError as error:
            return [Message("error", P + "enroll_bad_label", {"reason": str(error)},
                            {"code": "bad_label"}, Priority.REFUSAL), self.prompt()]
        if labelled != ref:
            return [self._refuse("enroll_label_other", labelled, tag), self.prompt()]
        known = self.registry.lookup(tag)
        if known is None:
            self.registry.add(tag, ref)
        return self._saved(tag, ref)

    def _saved(self, tag: str, ref: CardRef) -> list[Message]:
        if self.save:
            try:
                self.registry.save()
            except RegistryError as error:
                self.registry.remove(tag)
                self.stopped = True
                return [Message("error", P + "enroll_save_failed", {"reason": str(error)},
                                {"code": "save_failed"}, Priority.REFUSAL), *self.summary()]
        self.queue.pop(0)
        self.added.append((tag, ref))
        done = Message("enrolled", P + "enrolled", {"card": said(ref)},
                       {"tag": tag, "card": ref.name, "kind": ref.kind, "copy": ref.copy})
        if not self.queue:
            return [done, *self.summary()]
        return [done, self.prompt()]

    def _refuse(self, key: str, ref: CardRef, tag: str) -> Message:
        return Message("error", P + key, {"card": said(ref)},
                       {"code": key, "tag": tag, "card": ref.name, "copy": ref.copy},
                       Priority.REFUSAL)

    def skip(self) -> list[Message]:
        ref = self.queue.pop(0)
        self.skipped.append(ref)
        skipped = Message("info", P + "enroll_skipped", {"card": said(ref)})
        if not self.queue:
            return [skipped, *self.summary()]
        return [skipped, self.prompt()]

    def undo(self) -> list[Message]:
        if not self.added:
            return [Message("info", P + "enroll_nothing_to_undo"), *self._prompt_if_any()]
        tag, ref = self.added.pop()
        self.registry.remove(tag)
        if self.save:
            try:
                self.registry.save()
            except RegistryError as error:
                self.registry.add(tag, ref)
                self.added.append((tag, ref))
                return [Message("error", P + "enroll_save_failed", {"reason": str(error)},
                                {"code": "save_failed"}, Priority.REFUSAL), *self._prompt_if_any()]
        self.queue.insert(0, ref)
        return [Message("info", P + "enroll_undone", {"card": said(ref)}), self.prompt()]

    def _prompt_if_any(self) -> list[Message]:
        return [self.prompt()] if self.queue else []

    def stop(self) -> list[Message]:
        """Ctrl-C, the 0 key or the end of input: say what is saved and what is missing."""
        if self.stopped:
            return []
        self.stopped = True
        out = [Message("info", P + "enroll_stopped")] if self.queue else []
        return out + self.summary()

    def summary(self) -> list[Message]:
        self.stopped = True
        total = len(self.all)
        missing = self.registry.missing(self.all)
        data = {"added": len(self.added), "total": total, "missing": len(missing)}
        if not missing:
            return [Message("summary", P + "enroll_complete",
                            {"added": len(self.added), "total": total}, data)]
        return [Message("summary", P + "enroll_summary",
                        {"added": len(self.added), "done": total - len(missing),
                         "total": total, "n": len(missing)}, data)]


def check_messages(registry: CardRegistry, cards: Sequence[CardRef] | None = None
                   ) -> list[Message]:
    """`cards check`: how many are enrolled, which are missing, which entries are broken."""
    wanted = enrolment_order(cards)
    missing = registry.missing(wanted)
    total = len(wanted)
    out: list[Message] = []
    data = {"total": total, "missing": [m.name + f":{m.copy}" for m in missing]}
    if not missing:
        out.append(Message("summary", P + "check_complete", {"total": total}, data))
    else:
        out.append(Message("summary", P + "check_missing",
                           {"done": total - len(missing), "total": total, "n": len(missing),
                            "cards": _grouped(missing)}, data))
    if registry.problems:
        out.append(Message("error", P + "check_problems",
                           {"problems": "; ".join(registry.problems)},
                           {"problems": list(registry.problems)}, Priority.REFUSAL))
    return out


def _grouped(refs: Sequence[CardRef]) -> tuple[Message, ...]:
    """ "fan (red, 2), copies 1 and 2" rather than the fan named twice."""
    groups: dict[tuple[str, str, str], list[CardRef]] = {}
    for ref in refs:
        groups.setdefault((ref.game, ref.kind, ref.name), []).append(ref)
    return tuple(hooks(same[0].game).said_copies(same) for same in groups.values())
