"""Devices only: card readers and keypads. Yields raw input; knows nothing of games."""

from .debounce import RepeatSuppressor
from .events import EVENT_KINDS, ReaderEvent
from .frames import (
    PROTOCOLS,
    DecoderStats,
    FrameDecoder,
    LineDecoder,
    Rdm6300Decoder,
    UidLineDecoder,
    make_decoder,
    parse_uid_line,
)
from .keypad import EvdevUnavailable, KeyLineBuilder, KeypadReader, evdev_status, key_to_char
from .serial_reader import ReaderGroup, SerialReader, open_port

__all__ = [
    "EVENT_KINDS",
    "PROTOCOLS",
    "DecoderStats",
    "EvdevUnavailable",
    "FrameDecoder",
    "KeyLineBuilder",
    "KeypadReader",
    "LineDecoder",
    "Rdm6300Decoder",
    "ReaderEvent",
    "ReaderGroup",
    "RepeatSuppressor",
    "SerialReader",
    "UidLineDecoder",
    "evdev_status",
    "key_to_char",
    "make_decoder",
    "open_port",
    "parse_uid_line",
]
