"""Hanamikoji on the web page: the geishas as a table, the state as lists, and buttons for
what a table can do now (imported only by `companion play --web`)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from companion.games.base import private_section
from companion.games.hanamikoji import narrate
from companion.games.hanamikoji.actions import Gift
from companion.games.hanamikoji.data import GEISHAS, ITEMS
from companion.games.hanamikoji.interpret import begun
from companion.games.hanamikoji.rules import Phase, State
from companion.games.protocol import Choice, Grid, Section
from companion.narrate.message import Message
from companion.shared_commands import Query


def _cell(value: Any) -> Message:
    return Message("", "web.cell", {"value": value})


class HanamikojiWeb:
    def __init__(self, game: Any) -> None:
        self.game = game

    def board(self, state: State, names: Sequence[str], seat: int | None) -> list[Section]:
        public = state.public()
        now = [m for q in (Query.TURN, Query.SCORE, Query.ACTIONS)
               for m in narrate.query(q, public, names)]
        now += narrate._offer_waiting(public, names)
        sections = [Section(Message("", "web.now"), tuple(now)),
                    Section(Message("", "web.geishas"), grid=_geishas(public, names))]
        if seat is not None:
            sections += private_section(self.game, state, names, seat)
        return sections

    def choices(self, state: State, names: Sequence[str], pending: Any) -> list[Choice]:
        """At a real table the hands are unknown: the tokens left, then any card for the
        cards of a Gift or a Competition; the answers to an offer; the cards to reveal."""
        pending = begun(pending)  # the offer begun, whatever input its cards came from
        if state.phase is Phase.ACTION and pending is None:
            return [Choice(Message("", "web.token", {"token": t, "number": int(t)}), t.word)
                    for t in sorted(state.players[state.to_move].tokens)]
        if state.phase is Phase.ACTION:
            return [Choice(Message("", "web.card", {"card": i}), i.word) for i in ITEMS]
        if state.phase is Phase.ANSWER and isinstance(state.offer, Gift):
            cards = sorted(set(state.offer.cards))
            return [Choice(Message("", "web.take", {"card": c}), f"take {c.word}") for c in cards]
        if state.phase is Phase.ANSWER and state.offer is not None:
            return [Choice(Message("", "web.take_pair", {"n": i + 1, "cards": pair}),
                           f"take {i + 1}") for i, pair in enumerate(state.offer.pairs)]
        if state.phase is Phase.REVEAL:
            return [Choice(Message("", "web.reveal", {"card": i}), f"reveal {i.word}")
                    for i in ITEMS]
        return []


def _geishas(state: State, names: Sequence[str]) -> Grid:
    """One row per geisha: her card in words, her sticker symbol in words, the cards on each
    side and where her favour marker stands."""
    columns = (Message("", "web.col_geisha"), Message("", "web.col_card"),
               Message("", "web.col_symbol"),
               Message("", "web.col_side", {"player": names[0]}),
               Message("", "web.col_side", {"player": names[1]}),
               Message("", "web.col_favour"))
    rows = []
    for item, geisha, holder in zip(ITEMS, GEISHAS, state.favours, strict=True):
        favour = (Message("", "marker_centre") if holder is None
                  else Message("", "marker_with", {"player": names[holder]}))
        rows.append((_cell(geisha), _cell(item),
                     Message("", f"web.symbols.{geisha.colour.value}"),
                     _cell(state.players[0].side[item - 1]),
                     _cell(state.players[1].side[item - 1]), favour))
    return Grid(Message("", "web.geishas_caption"), columns, tuple(rows))


__all__ = ["HanamikojiWeb"]
