"""Stored hands read back into the bulk reader's columns, for ``ofc rescore``: the tables hold
only what an import checked, so the hands go straight to the array checks and the batch scorer
(:meth:`ingest.formats.ofc_hh_arrays.ParsedLines.finish`), as an import's do. The record path's
way back (one :class:`~ofc_core.hand.HandRecord` per hand) is :mod:`ingest.stored_hands`.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass

import duckdb
import numpy as np
import pyarrow as pa

from ofc_core.batch import MAX_SEATS
from ofc_core.board import ROW_NAMES

from .formats.ofc_hh_arrays import ColumnLists, ParsedLines
from .hand_columns import FIELD_NAMES

_STORED = ("hand_key IN (SELECT hand_key FROM _ofc_store_keys) "
           "AND hand_key NOT IN (SELECT hand_key FROM events) "
           "AND hand_key NOT IN (SELECT hand_key FROM hands "
           "WHERE variant_assumed OR stake_inferred) "
           "AND hand_key NOT IN (SELECT hand_key FROM hand_players WHERE stack IS NOT NULL "
           "OR reported_raw_points IS NOT NULL OR reported_fouled IS NOT NULL "
           "OR reported_royalties IS NOT NULL OR reported_fl_next IS NOT NULL)")
"""The hands :func:`read_store` reads: those asked for, but those with match events, an
assumed variant, stacks or more of the room's result than its points (ofc-hh/1 lines carry
none of those: the record path keeps them)."""
_STORED_HANDS = f"""
SELECT hand_key, import_id, source, hand_id, session_id, match_id,
       strftime(timezone('UTC', played_at), '%Y-%m-%dT%H:%M:%S+00:00') AS played_at, utc_offset,
       variant, CAST(json_extract(ruleset, '$.overrides') AS VARCHAR) AS rules, button,
       hero, stake, currency, raw, line
FROM hands WHERE {_STORED} ORDER BY hand_key"""
_STORED_PLAYERS = f"""
SELECT hand_key, seat, log_seat, player, fantasyland, surrendered, reported_points
FROM hand_players WHERE {_STORED} ORDER BY hand_key, seat"""
_STORED_STREETS = f"""
SELECT hand_key, seat, street, dealt, top, middle, bottom, discard
FROM placements WHERE {_STORED} ORDER BY hand_key, seat, street"""
_STORED_BOARDS = f"""
SELECT hand_key, seat,
       coalesce(any_value(cards) FILTER (row_name = 'top'), '') AS top,
       coalesce(any_value(cards) FILTER (row_name = 'middle'), '') AS middle,
       coalesce(any_value(cards) FILTER (row_name = 'bottom'), '') AS bottom
FROM hand_rows WHERE {_STORED} GROUP BY hand_key, seat ORDER BY hand_key, seat"""


@dataclass(frozen=True)
class StoredHands:
    """Stored hands read back into the bulk reader's columns (:func:`read_store`)."""

    parsed: ParsedLines
    hand_keys: np.ndarray
    import_ids: np.ndarray


def read_store(con: duckdb.DuckDBPyConnection, keys: Sequence[int]) -> StoredHands:
    """The stored hands ``keys`` (those without match events, which stay with the record
    path) in the columns :func:`ingest.formats.ofc_hh_fast.parse_lines` makes of log lines,
    from the store's tables
    (placements street by street, boards from ``hand_rows`` for players known by their final
    board only, flags and reported points, the log's rule overrides, its UTC offset and seat
    numbers, the raw text and line kept): ``ofc rescore`` checks and scores them as an import
    does (:meth:`ParsedLines.finish`).
    The tables hold only what an import checked, so the line-level checks of
    :func:`ingest.formats.ofc_hh_fast.parse_lines` (types, keys, names) have nothing to find."""
    con.register("_ofc_store_keys", pa.table({"hand_key": pa.array(list(keys), pa.int64())}))
    try:
        hands = con.execute(_STORED_HANDS).to_arrow_table()
        players = con.execute(_STORED_PLAYERS).to_arrow_table()
        streets = con.execute(_STORED_STREETS).to_arrow_table()
        boards = con.execute(_STORED_BOARDS).to_arrow_table()
    finally:
        con.unregister("_ofc_store_keys")
    hand_keys = hands["hand_key"].to_numpy()
    player_hand = np.searchsorted(hand_keys, players["hand_key"].to_numpy())

    def seat_key(table: pa.Table) -> np.ndarray:
        key: np.ndarray = table["hand_key"].to_numpy() * (MAX_SEATS + 1) + table["seat"].to_numpy()
        return key

    player_keys = seat_key(players)  # sorted: players come by hand, then seat
    row_player = np.searchsorted(player_keys, seat_key(streets))
    has_streets = np.zeros(len(player_keys), bool)
    has_streets[row_player] = True
    board_player = np.searchsorted(player_keys, seat_key(boards))
    board_only = ~has_streets[board_player]  # a final board only where no streets are stored
    boards, board_player = boards.filter(pa.array(board_only)), board_player[board_only]
    names = players["player"].to_pylist()
    counts = np.bincount(player_hand, minlength=len(hand_keys))
    starts = np.concatenate([[0], np.cumsum(counts)[:-1]])
    buttons = hands["button"].to_pylist()
    first_to_act = [0 if b is None or b not in names[s:s + c] else
                    (names[s:s + c].index(b) + 1) % c
                    for b, s, c in zip(buttons, starts.tolist(), counts.tolist(), strict=True)]
    rules = [json.dumps(json.loads(r), sort_keys=True) if r else "{}"
             for r in hands["rules"].to_pylist()]
    reported = players["reported_points"].to_numpy(zero_copy_only=False).astype(np.float64)
    columns = {k: hands[k].to_pylist() for k in (
        "source", "hand_id", "session_id", "match_id", "played_at", "variant", "button",
        "hero", "stake", "currency", "raw", "line")}
    builder = ColumnLists(
        hands={**columns, "rules": rules, "first_to_act": first_to_act,
               "player_count": counts.tolist(), "input": list(range(len(hand_keys))),
               "utc_offset": hands["utc_offset"].to_pylist()},
        player_hand=player_hand.tolist(), name=names,
        fantasyland=players["fantasyland"].to_pylist(),
        surrendered=players["surrendered"].to_pylist(), reported=reported.tolist(),
        has_streets=has_streets.tolist(), seat=players["log_seat"].to_pylist(),
        row_player=row_player.tolist(),
        row_street=streets["street"].to_pylist(),
        row_fields=[streets[k].to_pylist() for k in FIELD_NAMES],
        board_player=board_player.tolist(),
        board_fields=[boards[k].to_pylist() for k in ROW_NAMES])
    return StoredHands(ParsedLines(builder, []), hand_keys,
                       hands["import_id"].to_numpy().astype(np.int64))
