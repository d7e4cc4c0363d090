"""Physical cards and tokens as values: identifiers printed as QR labels, read by a scanner."""

from companion.cards.payload import (
    PAYLOAD_VERSION,
    CardRef,
    PayloadError,
    all_cards,
    format_payload,
    parse_payload,
)

__all__ = [
    "PAYLOAD_VERSION",
    "CardRef",
    "PayloadError",
    "all_cards",
    "format_payload",
    "parse_payload",
]
