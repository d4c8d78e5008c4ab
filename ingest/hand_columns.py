"""Hands in columns, as the store's tables hold them, before scoring: :class:`HandColumns`, the
one intermediate both readers produce, and :func:`columns_from_records`, the general reader's
way into it (the fast ofc-hh/1 reader, :mod:`ingest.formats.ofc_hh_fast`, fills it from the
text). :func:`ingest.hand_tables.build_tables` turns it, with the scores, into the tables' rows.

>>> from ofc_core.board import Board
>>> from ofc_core.hand import PlayerRecord
>>> rec = HandRecord("club", "7", "regular", (
...     PlayerRecord("ann", 0, Board.parse("Qh Qd 2c", "8s 8d 8c 5h 5d", "Ah Kh Th 9h 6h")),))
>>> cols = columns_from_records([rec], [1], [None])
>>> len(cols), cols.name, cols.board[0], cols.fantasyland.tolist()
(1, ['ann'], ['Qh Qd 2c'], [False])
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, TypeAlias

import numpy as np
import pyarrow as pa

from ofc_core.cards import BoardCard, format_cards
from ofc_core.hand import Event, HandRecord, PlayerRecord

from .settled import fact_lists

FIELD_NAMES = ("dealt", "top", "middle", "bottom", "discard")
"""The card fields of a street (``StreetPlay``), as the ``placements`` table stores them."""


def cards_text(cards: Sequence[BoardCard] | None) -> str | None:
    """``'Qh Qd 2c'``; ``None`` stays ``None`` (hidden cards)."""
    return None if cards is None else format_cards(cards)


def rules_json(record: HandRecord) -> str:
    return json.dumps(dict(record.rules), sort_keys=True)


TextColumn: TypeAlias = Sequence[str | None] | pa.Array | pa.ChunkedArray
"""A column of strings: a list, or an Arrow array built without Python objects."""

ArrowColumn: TypeAlias = pa.Array | pa.ChunkedArray | np.ndarray | Sequence[Any]
"""A column as the tables are built from: Arrow, numpy or a list."""


def arrow_table(columns: Mapping[str, ArrowColumn]) -> pa.Table:
    """An Arrow table of ``columns``, each converted by ``pa.array`` unless it is Arrow already
    (what ``pa.table`` does with a dict of them).

    >>> arrow_table({"a": np.arange(2), "b": ["x", None]}).to_pylist()
    [{'a': 0, 'b': 'x'}, {'a': 1, 'b': None}]
    """
    return pa.table({name: column if isinstance(column, pa.Array | pa.ChunkedArray)
                     else pa.array(column) for name, column in columns.items()})


@dataclass
class HandColumns:
    """Hands in columns, as the tables store them, before scoring: the one intermediate both
    readers produce (:func:`columns_from_records` and the fast ofc-hh/1 reader)."""

    # Per hand (N).
    source: TextColumn
    hand_id: TextColumn
    session_id: TextColumn
    match_id: TextColumn
    played_at: TextColumn
    variant: list[str]
    rules: list[str]
    """The hand's rule overrides as sorted JSON (``'{}'`` for none)."""
    button: TextColumn
    hero: TextColumn
    stake: list[float | None]
    currency: TextColumn
    raw: TextColumn
    line: list[int | None]
    first_to_act: np.ndarray
    player_count: np.ndarray
    # Per player (M), players of a hand contiguous and in seat order.
    name: TextColumn
    fantasyland: np.ndarray
    surrendered: np.ndarray
    reported_points: list[float | None] | np.ndarray
    """``NaN`` or ``None`` where the log gives none."""
    fl_cards: list[int | None] | pa.Array
    board: tuple[TextColumn, TextColumn, TextColumn]
    """Cards of the top, middle and bottom rows as text."""
    # Per street of a player with street detail (R).
    log_seat: list[int | None] | pa.Array
    """The seat number the log gives each player (``PlayerRecord.seat``); ``None`` unknown."""
    street_player: np.ndarray
    street: np.ndarray
    """1-based."""
    dealt: TextColumn
    top: TextColumn
    middle: TextColumn
    bottom: TextColumn
    discard: TextColumn
    # Events (E), rare: plain lists.
    event_hand: list[int] = field(default_factory=list)
    event_idx: list[int] = field(default_factory=list)
    event_type: list[str] = field(default_factory=list)
    event_by: list[str | None] = field(default_factory=list)
    event_accepted: list[bool | None] = field(default_factory=list)
    event_data: list[str | None] = field(default_factory=list)
    utc_offset: pa.Array | None = None
    """Per hand the log's UTC offset in minutes; ``None``: read from ``played_at``
    (:func:`utc_offsets`). Rescoring gives the stored column, so it keeps what it cannot
    read again (NULL for hands stored before schema 6)."""
    facts: dict[str, list[Any]] | None = None
    """Stacks, the room's result beyond its points, assumed variants
    (:func:`ingest.settled.fact_lists`); ``None``: the log gives none."""

    def __len__(self) -> int:
        return len(self.variant)


def columns_from_records(records: Sequence[HandRecord], lines: Sequence[int | None],
                         raws: Sequence[str | None]) -> HandColumns:
    """The columns of some hand records (the general, slower reader's path)."""
    hand = {k: [getattr(r, k) for r in records] for k in (
        "source", "hand_id", "session_id", "match_id", "played_at", "variant", "button", "hero",
        "stake", "currency")}
    players = _PlayerLists()
    for rec in records:
        for p in rec.players:
            players.add(p)
    events = _EventLists()
    for h, rec in enumerate(records):
        for idx, e in enumerate(rec.events):
            events.add(h, idx, e)
    return HandColumns(
        source=hand["source"], hand_id=hand["hand_id"], session_id=hand["session_id"],
        match_id=hand["match_id"], played_at=hand["played_at"], variant=hand["variant"],
        rules=[rules_json(r) for r in records], button=hand["button"], hero=hand["hero"],
        stake=hand["stake"], currency=hand["currency"], raw=list(raws), line=list(lines),
        first_to_act=np.array([r.first_to_act for r in records], np.int64),
        player_count=np.array([len(r.players) for r in records], np.int64),
        name=players.name, log_seat=players.log_seat,
        fantasyland=np.array(players.fantasyland, bool),
        surrendered=np.array(players.surrendered, bool), reported_points=players.reported,
        fl_cards=players.fl_cards, board=players.board,
        street_player=np.array(players.street_player, np.int64),
        street=np.array(players.street, np.int64),
        dealt=players.plays["dealt"], top=players.plays["top"], middle=players.plays["middle"],
        bottom=players.plays["bottom"], discard=players.plays["discard"],
        event_hand=events.hand, event_idx=events.idx, event_type=events.type,
        event_by=events.by, event_accepted=events.accepted, event_data=events.data,
        facts=fact_lists(records))


@dataclass
class _PlayerLists:
    """The per-player and per-street lists of :func:`columns_from_records`."""

    name: list[str | None] = field(default_factory=list)
    log_seat: list[int | None] = field(default_factory=list)
    fantasyland: list[bool] = field(default_factory=list)
    surrendered: list[bool] = field(default_factory=list)
    reported: list[float | None] = field(default_factory=list)
    fl_cards: list[int | None] = field(default_factory=list)
    board: tuple[list[str | None], list[str | None], list[str | None]] = field(
        default_factory=lambda: ([], [], []))
    street_player: list[int] = field(default_factory=list)
    street: list[int] = field(default_factory=list)
    plays: dict[str, list[str | None]] = field(
        default_factory=lambda: {k: [] for k in FIELD_NAMES})

    def add(self, p: PlayerRecord) -> None:
        player = len(self.name)
        self.name.append(p.name)
        self.log_seat.append(p.seat)
        self.fantasyland.append(p.fantasyland)
        self.surrendered.append(p.surrendered)
        self.reported.append(p.reported_points)
        for k, row in enumerate((p.board.top, p.board.middle, p.board.bottom)):
            self.board[k].append(cards_text(row))
        streets = p.streets
        fl_dealt = streets[0].dealt if p.fantasyland and streets else None
        self.fl_cards.append(None if fl_dealt is None else len(fl_dealt))
        for number, s in enumerate(streets or (), start=1):
            self.street_player.append(player)
            self.street.append(number)
            for field_name in FIELD_NAMES:
                self.plays[field_name].append(cards_text(getattr(s, field_name)))


@dataclass
class _EventLists:
    """The per-event lists of :func:`columns_from_records` (events are rare)."""

    hand: list[int] = field(default_factory=list)
    idx: list[int] = field(default_factory=list)
    type: list[str] = field(default_factory=list)
    by: list[str | None] = field(default_factory=list)
    accepted: list[bool | None] = field(default_factory=list)
    data: list[str | None] = field(default_factory=list)

    def add(self, hand: int, idx: int, e: Event) -> None:
        self.hand.append(hand)
        self.idx.append(idx)
        self.type.append(e.type)
        self.by.append(e.by or None)
        self.accepted.append(e.accepted)
        self.data.append(json.dumps(dict(e.data), sort_keys=True, ensure_ascii=False)
                         if e.data else None)
