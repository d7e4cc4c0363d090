"""Card readers and a keypad at the table: threads in, Messages out.

`attach_devices` starts the reader and keypad threads of `companion play`; each puts
`InputItem(source, event=ReaderEvent)` on the input hub, so scans, keys and typed lines
are handled one at a time in arrival order. `handle_device_event` turns one event into
Messages: scans through companion.games.hanamikoji.scan, keys into lines for the session, a reader
unplugged or back into a spoken sentence (the game goes on with keys and voice).
"""

from __future__ import annotations

import logging
import weakref
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from companion.cards.registry import CardRegistry
from companion.games.protocol import DeviceHooks
from companion.inputs.hub import InputHub, InputItem
from companion.inputs.scan_echo import Origin
from companion.narrate.message import Message, Priority
from companion.shared_commands import KEYPAD_SYMBOLS, MetaCommand

log = logging.getLogger(__name__)

DEFAULT_PROTOCOL = "rdm6300"
KEYPAD_NAME = "keypad"
P = "cards."

# Keypad symbols acting at once (no Enter); 0 is one only on an empty line (zero_acts).
SYMBOLS: dict[str, MetaCommand] = {k: v for k, v in KEYPAD_SYMBOLS.items() if k != "0"}

Announce = Callable[[list[Message]], None]


@dataclass
class Keypads:
    """What each keypad has keyed so far at one table: its line before Enter (only
    characters: a line becomes a value when it is whole), and when its last lone 0 came
    (00 is push-to-talk). Kept beside the session, gone with it."""

    lines: dict[str, list[str]] = field(default_factory=dict)
    zeros: dict[str, float] = field(default_factory=dict)


_KEYPADS: weakref.WeakKeyDictionary[Any, Keypads] = weakref.WeakKeyDictionary()


def keypads(session: Any) -> Keypads:
    """The keypads' half-keyed lines at this session's table."""
    return _KEYPADS.setdefault(session, Keypads())


def _reader_name(index: int) -> str:
    return f"reader {index}"


def attach_devices(hub: InputHub, args: Any, announce: Announce,
                   **reader_options: Any) -> Any:
    """Start the readers named by `args.reader` / `args.reader_protocol` and the keypad of
    `args.keypad`; their events go to `hub.queue`, their close to the hub's closers.

    `announce` receives one-off Messages (an unusable keypad, a bad protocol name).
    `reader_options` go to each SerialReader (tests shorten retries and the repeat gap).
    Returns the ReaderGroup, or None when there is no device to read.
    """

    urls = list(getattr(args, "reader", None) or [])
    protocols = getattr(args, "reader_protocol", None) or [DEFAULT_PROTOCOL]
    if isinstance(protocols, str):
        protocols = [protocols]
    protocols = list(protocols) + [protocols[-1]] * max(0, len(urls) - len(protocols))
    keypad = getattr(args, "keypad", None)
    if not urls and not keypad:
        return None  # nothing to read: the hardware package is not even imported
    from hardware import EvdevUnavailable, KeypadReader, ReaderGroup

    def sink(source: str) -> Callable[[Any], None]:
        return lambda event: hub.queue.put(InputItem(source, event=event))

    group = ReaderGroup()
    for index, (url, protocol) in enumerate(zip(urls, protocols, strict=False), start=1):
        try:
            group.add(url, protocol, name=_reader_name(index), on_event=sink("reader"),
                      **reader_options)
        except ValueError:  # an unknown protocol name: say it, keep the others
            announce([Message("reader_error", P + "reader_bad_protocol",
                              {"protocol": protocol}, {"url": url}, Priority.REFUSAL)])
    if keypad:
        try:
            reader = KeypadReader(keypad, name=KEYPAD_NAME, emit_keys=True, emit_lines=False,
                                  on_event=sink("keypad"))
        except EvdevUnavailable as error:
            announce([Message("keypad_error", P + "keypad_unavailable", {},
                              {"detail": str(error)}, Priority.REFUSAL)])
        else:
            group.add_reader(reader)
    if not group.readers:
        return None
    group.start()
    hub.add_closer(group.close)
    return group




def device_event(rules: DeviceHooks, session: Any, event: Any,
                 registry: CardRegistry | None) -> list[Message]:
    """Messages for one ReaderEvent; never raises (a player never sees a traceback)."""
    try:
        return _event(rules, session, event, registry)
    except Exception:  # a bug must not end the game at the table: log it, say one line
        log.exception("device event %r could not be handled", event)
        return [Message("error", P + "input_failed", priority=Priority.REFUSAL)]


def _event(rules: DeviceHooks, session: Any, event: Any,
           registry: CardRegistry | None) -> list[Message]:
    keypad = event.reader == KEYPAD_NAME
    number = event.reader.rpartition(" ")[2]
    data = {"device": event.reader, "url": event.url, "detail": event.detail}
    if event.kind == "scan":
        return rules.scan(session, event.value, registry, Origin(event.reader, event.timestamp))
    if event.kind == "key":
        return _key(rules, session, event, registry)
    if event.kind == "connected":
        key = "keypad_connected" if keypad else "reader_connected"
        return [Message("reader_connected", P + key, {}, data)]
    if event.kind == "disconnected":
        keypads(session).lines.pop(event.reader, None)  # half-keyed line: gone with it
        key = "keypad_disconnected" if keypad else "reader_disconnected"
        return [Message("reader_disconnected", P + key, {}, data, Priority.REFUSAL),
                *_prompt(session)]
    key = "keypad_error" if keypad else "reader_unavailable"  # "error": cannot be opened
    why = Message("", P + f"open_failed.{event.reason or 'other'}",
                  {"option": "--keypad" if keypad else "--reader"})
    return [Message("reader_disconnected", P + key,
                    {"reader": (event.url or "") if keypad else number, "why": why},
                    data | {"reason": event.reason or "other"}, Priority.REFUSAL),
            *_prompt(session)]


def _prompt(session: Any) -> list[Message]:
    """What is expected now, said after a device problem so that it stays the last thing
    heard (a problem arrives from a device's thread, after the prompt)."""
    from companion.shared_commands import Ask, Query

    return session.execute(Ask(Query.WHAT))


def _key(rules: DeviceHooks, session: Any, event: Any,
         registry: CardRegistry | None) -> list[Message]:
    buffer = keypads(session).lines.setdefault(event.reader, [])
    value = event.value
    if value in ("ENTER", "TAB"):
        line = "".join(buffer)
        buffer.clear()
        return rules.line(session, line, registry, Origin(event.reader, event.timestamp))
    if value == "BACKSPACE":
        if buffer:
            buffer.pop()
        return []
    if value == "ESCAPE":
        had = bool(buffer)
        buffer.clear()
        return [Message("info", P + "typed_cancelled")] if had else []
    if value == "0" and not buffer and rules.zero_acts:
        if _double_zero(session, event):  # with voice on, the play loop takes it first
            return [Message("error", "voice_off", priority=Priority.REFUSAL)]
        return rules.symbol(session, "0", registry)  # later zeros: a tag id from a wedge
    if value in SYMBOLS and not (value == "/" and buffer):
        return rules.symbol(session, value, registry)  # the keys typed so far stay
    if len(value) == 1:
        buffer.append(value)  # digits, "/" between pairs, letters from a wedge scanner
    return []


def rules_of(session: Any) -> DeviceHooks | None:
    """The game's device hooks (companion.games.protocol.DeviceHooks), or None when the game
    reads no scans nor keypad keys."""
    hooks: DeviceHooks | None = session.game.devices()
    return hooks


def _double_zero(session: Any, event: Any) -> bool:
    """A keypad's 00 key: a second lone 0 within DOUBLE_ZERO_SECONDS of the first."""
    from companion.inputs.voice import DOUBLE_ZERO_SECONDS

    zeros = keypads(session).zeros
    last = zeros.pop(event.reader, None)
    if last is not None and 0 <= event.timestamp - last <= DOUBLE_ZERO_SECONDS:
        return True
    zeros[event.reader] = event.timestamp
    return False


def handle_device_event(session: Any, event: Any, registry: CardRegistry | None
                        ) -> list[Message]:
    """One reader or keypad event, in the game's context (see DeviceHooks)."""
    rules = rules_of(session)
    if rules is None:
        return []
    return device_event(rules, session, event, registry)


def handle_line(session: Any, line: str, registry: CardRegistry | None,
                origin: Origin | None = None) -> list[Message]:
    """A typed or keyed line, which the game may read as a scan (a keyboard-wedge scanner)
    or keys; `origin` says which keyboard and when."""
    rules = rules_of(session)
    if rules is None:
        return session.handle(line)
    return rules.line(session, line, registry, origin)
