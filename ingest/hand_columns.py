"""Hands in columns, as the store's tables hold them, before scoring: :class:`HandColumns`, the
one intermediate both readers produce, and :func:`columns_from_records`, the general reader's
way into it (the fast ofc-hh/1 reader, :mod:`ingest.formats.ofc_hh_fast`, fills it from the
text). :func:`ingest.hand_tables.build_tables` turns it, with the scores, into the tables' rows.

>>> from ofc_core.board import Board
>>> from ofc_core.hand import PlayerRecord
>>> rec = HandRecord("club", "7", "regular", (
...     PlayerRecord("ann", 0, Board.parse("Qh Qd 2c", "8s 8d 8c 5h 5d", "Ah Kh Th 9h 6h")),))
>>> cols = columns_from_records([rec], [1], [None])
>>> len(cols), cols.name, cols.board[0], list(cols.fantasyland)
(1, ['ann'], ['Qh Qd 2c'], [False])
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, TypeAlias

import numpy as np
import pyarrow as pa

from ofc_core.cards import BoardCard, format_cards
from ofc_core.hand import HandRecord

FIELD_NAMES = ("dealt", "top", "middle", "bottom", "discard")
"""The card fields of a street (``StreetPlay``), as the ``placements`` table stores them."""


def cards_text(cards: Sequence[BoardCard] | None) -> str | None:
    """``'Qh Qd 2c'``; ``None`` stays ``None`` (hidden cards)."""
    return None if cards is None else format_cards(cards)


def rules_json(record: HandRecord) -> str:
    return json.dumps(dict(record.rules), sort_keys=True)


TextColumn: TypeAlias = list[str | None] | pa.Array
"""A column of strings: a list, or an Arrow array built without Python objects."""


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

    def __len__(self) -> int:
        return len(self.variant)


def columns_from_records(records: Sequence[HandRecord], lines: Sequence[int | None],
                         raws: Sequence[str | None]) -> HandColumns:
    """The columns of some hand records (the general, slower reader's path)."""
    hand_cols: dict[str, list[Any]] = {k: [] for k in (
        "source", "hand_id", "session_id", "match_id", "played_at", "variant", "rules",
        "button", "hero", "stake", "currency")}
    name: list[str] = []
    log_seat: list[int | None] = []
    fantasyland: list[bool] = []
    surrendered: list[bool] = []
    reported: list[float | None] = []
    fl_cards: list[int | None] = []
    board: tuple[list[str | None], list[str | None], list[str | None]] = ([], [], [])
    street_player: list[int] = []
    street_no: list[int] = []
    plays: dict[str, list[str | None]] = {k: [] for k in FIELD_NAMES}
    cols = HandColumns(**{k: [] for k in hand_cols}, raw=list(raws), line=list(lines),
                       first_to_act=np.array([r.first_to_act for r in records], np.int64),
                       player_count=np.array([len(r.players) for r in records], np.int64),
                       name=name, log_seat=log_seat, fantasyland=np.zeros(0, bool),
                       surrendered=np.zeros(0, bool),
                       reported_points=reported, fl_cards=fl_cards, board=board,
                       street_player=np.zeros(0, np.int64), street=np.zeros(0, np.int64),
                       **plays)
    for h, rec in enumerate(records):
        for key in hand_cols:
            value = rules_json(rec) if key == "rules" else getattr(rec, key)
            getattr(cols, key).append(value)
        for p in rec.players:
            player = len(name)
            name.append(p.name)
            log_seat.append(p.seat)
            fantasyland.append(p.fantasyland)
            surrendered.append(p.surrendered)
            reported.append(p.reported_points)
            for k, row in enumerate((p.board.top, p.board.middle, p.board.bottom)):
                board[k].append(cards_text(row))
            streets = p.streets
            fl_dealt = streets[0].dealt if p.fantasyland and streets else None
            fl_cards.append(None if fl_dealt is None else len(fl_dealt))
            for number, s in enumerate(streets or (), start=1):
                street_player.append(player)
                street_no.append(number)
                for k in FIELD_NAMES:
                    plays[k].append(cards_text(getattr(s, k)))
        for idx, e in enumerate(rec.events):
            cols.event_hand.append(h)
            cols.event_idx.append(idx)
            cols.event_type.append(e.type)
            cols.event_by.append(e.by or None)
            cols.event_accepted.append(e.accepted)
            cols.event_data.append(json.dumps(dict(e.data), sort_keys=True, ensure_ascii=False)
                                   if e.data else None)
    cols.fantasyland = np.array(fantasyland, bool)
    cols.surrendered = np.array(surrendered, bool)
    cols.street_player = np.array(street_player, np.int64)
    cols.street = np.array(street_no, np.int64)
    return cols

