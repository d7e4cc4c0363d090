"""Momiji's physical pieces as QR labels (see companion/cards/ for the rest).

A leaf label carries the card's value instead of a copy number: seed 004 does not say how
many cards of each value a box holds, so copies cannot be numbered or checked, and the
rules never need to tell two green 2 cards apart. Identical leaves carry identical labels,
and the leaf sheet (24 labels, one per leaf type and value) is printed as many times as
the cards need. Objective tokens have a sheet of their own: all 40 labels would not fit
on one page. Pieces are not enrolled for a reader (printed labels only).
"""

from __future__ import annotations

from collections.abc import Sequence

from companion.cards.feel import Feel
from companion.cards.payload import CardRef
from companion.games.momiji import narrate
from companion.games.momiji.data import LEAVES, MAX_VALUE, Leaf, Objective, leaf_digit
from companion.games.protocol import Sheet
from companion.narrate.message import Message
from stickers import Colour, Lang, describe_colour

GAME = "momiji"
_WORDS: dict[Lang, dict[str, str]] = {
    "en": {"leaf": "leaf", "value": "value", "objective": "objective"},
    "fr": {"leaf": "feuille", "value": "valeur", "objective": "objectif"},
}  # fmt: skip
# The heading says what one sheet covers, the note how many to print.
_SHEETS = {
    "leaf": Sheet(
        ("leaf",),
        heading={
            "en": "{game}: {n} QR labels ({version}), one per leaf type and value. "
                  "Cut along the dashed lines.",
            "fr": "{game} : {n} étiquettes QR ({version}), une par type de feuille "
                  "et valeur. Découpez le long des pointillés.",
        },
        note={
            "en": "The rules do not say how many cards of each value a box holds: "
                  "print this sheet as many times as your cards need.",
            "fr": "La règle ne dit pas combien de cartes de chaque valeur contient la "
                  "boîte : imprimez cette feuille autant de fois que vos cartes l'exigent.",
        },
        # The seed gives no count per value: the volunteer decides how many sheets.
        advice="one label per leaf type and value: print as many sheets as your cards need",
    ),
    "objective": Sheet(
        ("objective",),
        heading={
            "en": "{game}: {n} QR labels ({version}), one per objective token. "
                  "Cut along the dashed lines.",
            "fr": "{game} : {n} étiquettes QR ({version}), une par jeton Objectif. "
                  "Découpez le long des pointillés.",
        },
    ),
}  # fmt: skip


def leaf_ref(colour: str, value: int) -> CardRef:
    """The label of a leaf: leaf_ref('green', 2) is TC1:MJ:LEAF:GREEN:2."""
    return CardRef(GAME, "leaf", colour, 1, value)


def _word(key: str, lang: Lang) -> str:
    """A colour or objective name from the game's catalogue (one wording everywhere)."""
    from companion.narrate.catalogue import Catalogue

    return Catalogue(lang).render(Message("", f"momiji.{key}"))


def caption(ref: CardRef, lang: Lang = "en") -> tuple[str, str, str]:
    """Three short lines: the leaf and its value, or the objective and its number."""
    words = _WORDS[lang]
    if ref.kind == "leaf":
        return (
            f"{_word('colour.' + ref.name, lang).capitalize()} {ref.value}",
            f"{words['leaf']} · {words['value']} {ref.value}",
            describe_colour(Colour(ref.name), lang),
        )
    objective = Objective(ref.name)
    leaf = objective.leaf
    return (
        _word("objective." + ref.name, lang).capitalize(),
        f"{words['objective']} {objective.number}",
        describe_colour(leaf, lang) if leaf is not None else "",
    )


def said(ref: CardRef) -> Message:
    """A leaf ("green 2") or an objective token in words."""
    if ref.kind == "leaf":
        assert ref.value is not None  # a leaf label always carries its value
        return narrate.card(Leaf(Colour(ref.name), ref.value))
    return narrate.objective(Objective(ref.name))


def said_copies(refs: Sequence[CardRef]) -> Message:
    """Leaves and objectives have no copies to tell apart."""
    return said(refs[0])


def ask(ref: CardRef) -> Message:
    raise ValueError("Momiji pieces are not enrolled: they carry printed labels")


def feel(ref: CardRef) -> Feel | None:
    """A leaf: its type's colour symbol and its value (a 0 has no number sticker). An
    objective token's stickers are not in the rules: None."""
    if ref.kind != "leaf":
        return None
    return Feel(Colour(ref.name), ref.value)


def key(ref: CardRef) -> str | None:
    """A leaf as keyed in play: its type's digit (1-6), then its value."""
    if ref.kind != "leaf":
        return str(Objective(ref.name).number)
    return f"{leaf_digit(Colour(ref.name))}{ref.value}"


class MomijiCards:
    """Momiji's CardHooks (see companion/games/protocol.py)."""

    code = "MJ"
    pieces = {
        "leaf": {colour.value: 1 for colour in LEAVES},  # the value is the 5th field
        "objective": {objective.value: 1 for objective in Objective},
    }
    valued = {"leaf": range(MAX_VALUE + 1)}
    sheets = _SHEETS
    enrolment: tuple[str, ...] = ()
    sticker_plan = None

    caption = staticmethod(caption)
    said = staticmethod(said)
    ask = staticmethod(ask)
    said_copies = staticmethod(said_copies)
    feel = staticmethod(feel)
    key = staticmethod(key)
    named = staticmethod(said)  # leaves and objectives have no copies
