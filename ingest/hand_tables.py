"""Hand records and their scores as the rows of the store's tables.

:func:`hand_tables` turns scored :class:`~ofc_core.hand.HandRecord` values, and
:func:`build_tables` the fast path's columns (:class:`ingest.hand_columns.HandColumns`), into one
Arrow table per store table, each built by its own function (bulk-inserted with
``INSERT INTO ... BY NAME SELECT * FROM arrow``). The way back, stored rows
to records, is :mod:`ingest.stored_hands`. The scores come from ``ofc_core.batch``; nothing
here scores.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache

import duckdb
import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from ofc_core.batch import MAX_SEATS, RecordScores
from ofc_core.board import ROW_NAMES
from ofc_core.cards import DECK, JOKER_SPELLINGS
from ofc_core.evaluate import Strength, category_of, hand_name
from ofc_core.hand import HandRecord
from ofc_core.rules import resolve

from . import aggregates
from .hand_columns import (
    FIELD_NAMES,
    HandColumns,
    TextColumn,
    arrow_table,
    columns_from_records,
)
from .money import RACE
from .review_reasons import poker_middles, review_reasons
from .settled import fact_columns, settle_stakes

HAND_TABLES = ("hands", "hand_players", "hand_rows", "placements", "pairs", "events")
"""Every table keyed by ``hand_key``, ``hands`` first."""


@lru_cache(maxsize=1024)
def ruleset_columns(variant: str, rules_json: str) -> tuple[str, str, str]:
    """(settings JSON, label, scoring) of a hand's resolved ruleset; the log's own overrides are
    kept under ``"overrides"`` so the hand can be rebuilt and rescored later."""
    overrides = json.loads(rules_json)
    ruleset = resolve(variant, overrides)
    settings = ruleset.settings()
    if overrides:
        settings["overrides"] = overrides
    return json.dumps(settings, sort_keys=True), ruleset.label, ruleset.scoring.value


@lru_cache(maxsize=1 << 16)
def _strength_names(strength: Strength) -> tuple[str, str]:
    return category_of(strength).name.lower(), hand_name(strength)


@dataclass(frozen=True)
class HandRow:
    """What the importer knows of a hand beyond its record: its key, import and text."""

    hand_key: int
    import_id: int
    line: int | None
    raw: str | None




def _hand_money(hand_players: pa.Table) -> pa.Array:
    """Each row's money as far as its own hand tells (:mod:`ingest.money`): points x stake,
    ``NULL`` without a stake and for race-scored hands (their matches pay; settled later)."""
    money = pc.multiply(hand_players.column("points"), hand_players.column("stake"))
    race = pc.equal(hand_players.column("scoring"), pa.scalar(RACE))
    return pc.if_else(pc.fill_null(race, False), pa.scalar(None, pa.float64()), money)


def _text_array(values: TextColumn) -> pa.Array:
    return values if isinstance(values, pa.Array | pa.ChunkedArray) else pa.array(
        values, pa.string())


HAND_COLUMNS_ON_PLAYERS = ("played_at", "utc_offset", "session_id", "match_id", "variant",
                           "ruleset_label", "scoring", "player_count", "stake", "currency")
"""The ``hands`` columns copied onto each of the hand's ``hand_players`` rows (the dashboard's
filters and groupings read one table)."""

ROW_NAMES_ON_PLAYERS = ("top_hand", "middle_hand", "bottom_hand")
"""``hand_players`` columns holding each row's ``hand_rows.hand_name`` (NULL if surrendered),
so foul relations and Fantasyland tops need no join of ``hand_rows``."""


JOKER_SUFFIX = " (joker)"
"""Added to the hand name of a row that holds a joker: ``'Pair of Twos (joker)'``."""


def _row_jokers(row_cards: pa.Array, joker_row: pa.Array, stood_for: np.ndarray) -> pa.Array:
    """Per row (player-major, three per player) what its jokers stood for, ``'X1=Ah'`` (NULL
    for a row without a joker); ``stood_for`` is ``(players, 2)`` card indexes (the scorer's
    ``RecordScores.jokers``)."""
    out: list[str | None] = [None] * len(row_cards)
    texts = row_cards.to_pylist()
    for k in np.flatnonzero(joker_row.to_numpy(zero_copy_only=False)):
        player = k // 3
        parts = [f"{token}={DECK[stood_for[player, JOKER_SPELLINGS[token].number - 1]]}"
                 for token in texts[k].split() if token in JOKER_SPELLINGS
                 and stood_for[player, JOKER_SPELLINGS[token].number - 1] >= 0]
        out[k] = " ".join(parts) or None
    return pa.array(out, pa.string())


@dataclass(frozen=True)
class _Seats:
    """Where each player row of a batch sits: the index arrays every table is built from."""

    keys: np.ndarray
    """Per hand its ``hand_key`` (N)."""
    count: np.ndarray
    """Per hand its number of players (N)."""
    first: np.ndarray
    """Per hand the seat that acts first (N)."""
    seat_mask: np.ndarray
    """(N, MAX_SEATS): the seats that hold a player."""
    hand_index: np.ndarray
    """Per player row the index of its hand (M)."""
    seat: np.ndarray
    """Per player row its seat (M)."""
    names: pa.Array
    """Per player row the player's name (M)."""

    @classmethod
    def of(cls, cols: HandColumns, keys: np.ndarray) -> _Seats:
        count = np.asarray(cols.player_count, np.int64)
        seat_mask = np.arange(MAX_SEATS)[None, :] < count[:, None]
        return cls(keys, count, np.asarray(cols.first_to_act, np.int64), seat_mask,
                   np.repeat(np.arange(len(cols)), count),
                   np.nonzero(seat_mask)[1].astype(np.int8), _text_array(cols.name))

    @property
    def player_key(self) -> np.ndarray:
        key: np.ndarray = self.keys[self.hand_index]
        return key


def build_tables(cols: HandColumns, keys: np.ndarray, import_ids: np.ndarray,
                 scores: RecordScores) -> dict[str, pa.Table]:
    """The rows of every hand table: ``cols`` with their hand keys, imports and scores
    (``RecordScores`` of ``ofc_core.batch``, aligned with the hands)."""
    seats = _Seats.of(cols, keys)
    settle_stakes(scores, cols.facts, seats.count, seats.first,
                  list(zip(cols.variant, cols.rules, strict=True)))
    hand_players, differ = _hand_players_table(cols, seats, scores)
    hand_rows = _hand_rows_table(cols, seats, scores)
    for k, name in enumerate(ROW_NAMES_ON_PLAYERS):  # top_hand, middle_hand, bottom_hand
        hand_players = hand_players.append_column(name, hand_rows.column("hand_name").take(
            pa.array(np.arange(len(seats.hand_index), dtype=np.int64) * 3 + k)))
    hand_differ = np.bincount(seats.hand_index, weights=differ, minlength=len(cols)) > 0
    hands = _hands_table(cols, keys, import_ids, seats.count, seats.first, hand_differ)
    take = pa.array(seats.hand_index, pa.int64())
    for name in HAND_COLUMNS_ON_PLAYERS:
        hand_players = hand_players.append_column(name, hands.column(name).take(take))
    hand_players = hand_players.append_column("money", _hand_money(hand_players))
    hand_players = hand_players.append_column("review_reason", _review_reasons(
        cols, seats, np.asarray(hand_players.column("surrendered"), bool)))
    return {"hands": hands, "hand_players": hand_players, "hand_rows": hand_rows,
            "placements": _placements_table(cols, seats), "pairs": _pairs_table(seats, scores),
            "events": _events_table(cols, keys)}


def _hand_players_table(cols: HandColumns, seats: _Seats,
                        scores: RecordScores) -> tuple[pa.Table, np.ndarray]:
    """The ``hand_players`` rows without the row names, the hand's columns and the money, and
    per player whether the log reported other points than ours."""
    mask, hand_index = seats.seat_mask, seats.hand_index
    points = scores.points[mask].astype(np.float64)
    reported = np.array([np.nan if v is None else v for v in cols.reported_points], np.float64) \
        if not isinstance(cols.reported_points, np.ndarray) else cols.reported_points
    known = ~np.isnan(reported)
    differ = known & (np.abs(np.where(known, reported, 0.0) - points) > 1e-9)
    position = (seats.seat.astype(np.int64) - seats.first[hand_index]) % seats.count[hand_index]
    fl_cards = cols.fl_cards if isinstance(cols.fl_cards, pa.Array) else pa.array(
        cols.fl_cards, pa.int8())
    log_seat = (cols.log_seat if isinstance(cols.log_seat, pa.Array)
                else pa.array(cols.log_seat, pa.int64()))
    return arrow_table({
        "hand_key": seats.player_key,
        "seat": seats.seat,
        "log_seat": log_seat.cast(pa.int16()),
        "player": seats.names,
        "position": position.astype(np.int8),
        "fantasyland": np.asarray(cols.fantasyland, bool),
        "fl_cards": fl_cards.cast(pa.int8()),
        "surrendered": scores.surrendered[mask],
        "fouled": scores.fouled[mask],
        "foul_top_middle": scores.foul_top_middle[mask],
        "foul_middle_bottom": scores.foul_middle_bottom[mask],
        "royalties": scores.royalties[mask].astype(np.int32).sum(axis=1).astype(np.int32),
        "fantasyland_next": scores.fantasyland_next[mask].astype(np.int8),
        "raw_points": scores.raw_points[mask].astype(np.float64),
        "points": points,
        "reported_points": pa.array(reported, pa.float64(), mask=~known),
        "points_differ": differ,
        **fact_columns(cols.facts, len(seats.player_key)),
    }), differ


def _review_reasons(cols: HandColumns, seats: _Seats, surrendered: np.ndarray) -> pa.Array:
    """Each player row's ``review_reason`` (:mod:`ingest.review_reasons`)."""
    middles = poker_middles(cols.variant, cols.rules)
    codes = review_reasons(
        hand_index=seats.hand_index, hands=len(cols), surrendered=surrendered,
        fantasyland=np.asarray(cols.fantasyland, bool), poker_middle=middles,
        street_player=np.asarray(cols.street_player, np.int64), street=np.asarray(cols.street),
        dealt_known=np.asarray(pc.is_valid(_text_array(cols.dealt)), bool))
    return pa.array(codes, pa.int8())


def _hand_rows_table(cols: HandColumns, seats: _Seats, scores: RecordScores) -> pa.Table:
    """The ``hand_rows`` rows: three per player, top first; a surrendered player's rows have
    no strength, category or name; a row holding a joker names what it stood for."""
    mask, m = seats.seat_mask, len(seats.hand_index)
    flat_strength = scores.strengths[mask].astype(np.int64).ravel()
    valid = ~np.repeat(scores.surrendered[mask], 3)
    uniq, inverse = np.unique(flat_strength[valid], return_inverse=True)
    named = [_strength_names(Strength(int(x))) for x in uniq]
    category = pa.array([c for c, _ in named], pa.string()).take(pa.array(inverse))
    hname = pa.array([nm for _, nm in named], pa.string()).take(pa.array(inverse))
    where = np.nonzero(valid)[0]
    slot = np.full(3 * m, -1, np.int64)
    slot[where] = np.arange(len(where))
    take = pa.array(slot, mask=~valid)
    row_cards = pa.concat_arrays([_text_array(b) for b in cols.board]).take(
        pa.array((np.arange(3)[None, :] * m + np.arange(m)[:, None]).ravel()))
    row_hand_name = hname.take(take)
    joker_row = pc.match_substring(row_cards, "X")
    row_jokers: pa.Array = pa.nulls(3 * m, pa.string())
    if pc.any(joker_row).as_py():
        row_hand_name = pc.if_else(joker_row, pc.binary_join_element_wise(
            row_hand_name, pa.scalar(JOKER_SUFFIX), ""), row_hand_name)
        row_jokers = _row_jokers(row_cards, joker_row, scores.jokers[mask])
    return arrow_table({
        "hand_key": np.repeat(seats.player_key, 3),
        "seat": np.repeat(seats.seat, 3),
        "row_name": pa.DictionaryArray.from_arrays(
            np.tile(np.arange(3, dtype=np.int8), m), pa.array(ROW_NAMES)).cast(pa.string()),
        "cards": row_cards,
        "strength": pa.array(flat_strength.astype(np.int32), mask=~valid),
        "category": category.take(take),
        "hand_name": row_hand_name,
        "royalty": scores.royalties[mask].astype(np.int32).ravel(),
        "jokers": row_jokers,
    })


def _pairs_table(seats: _Seats, scores: RecordScores) -> pa.Table:
    """The ``pairs`` rows: one per ordered pair of players of a hand, from the first's side."""
    mask = seats.seat_mask
    pair_mask = mask[:, :, None] & mask[:, None, :] & ~np.eye(MAX_SEATS, dtype=bool)[None, :, :]
    hh, ii, jj = np.nonzero(pair_mask)
    count = seats.count
    player_start = (np.concatenate([[0], np.cumsum(count)[:-1]]) if len(count)
                    else np.zeros(0, np.int64))
    results = scores.rows[pair_mask].astype(np.int8)
    won = (results == 1).sum(axis=1).astype(np.int8)
    lost = (results == -1).sum(axis=1).astype(np.int8)
    return arrow_table({
        "hand_key": seats.keys[hh],
        "seat": ii.astype(np.int8),
        "opp_seat": jj.astype(np.int8),
        "player": seats.names.take(pa.array(player_start[hh] + ii)),
        "opponent": seats.names.take(pa.array(player_start[hh] + jj)),
        "top_result": results[:, 0],
        "middle_result": results[:, 1],
        "bottom_result": results[:, 2],
        "rows_won": won,
        "rows_lost": lost,
        "row_points": scores.row_points[pair_mask].astype(np.int32),
        "bonus": scores.bonus[pair_mask].astype(np.int32),
        "scoop": won == 3,
        "royalties": scores.royalties_net[pair_mask].astype(np.int32),
        "surrender": scores.surrender[pair_mask].astype(np.float64),
        "total": scores.total[pair_mask].astype(np.float64),
        "points": scores.capped[pair_mask].astype(np.float64),
    })


def _placements_table(cols: HandColumns, seats: _Seats) -> pa.Table:
    """The ``placements`` rows: one per street of a player whose log gives the streets."""
    street_player = np.asarray(cols.street_player, np.int64)
    return arrow_table({
        "hand_key": seats.player_key[street_player],
        "seat": seats.seat[street_player],
        "street": np.asarray(cols.street, np.int8),
        **{k: _text_array(getattr(cols, k)) for k in FIELD_NAMES},
    })


def _events_table(cols: HandColumns, keys: np.ndarray) -> pa.Table:
    """The ``events`` rows (doubles, match ends), in the hands' order."""
    return arrow_table({
        "hand_key": pa.array(keys[np.array(cols.event_hand, np.int64)], pa.int64()),
        "idx": pa.array(cols.event_idx, pa.int16()),
        "type": pa.array(cols.event_type, pa.string()),
        "by_player": pa.array(cols.event_by, pa.string()),
        "accepted": pa.array(cols.event_accepted, pa.bool_()),
        "data": pa.array(cols.event_data, pa.string()),
    })


def _hands_table(cols: HandColumns, keys: np.ndarray, import_ids: np.ndarray, count: np.ndarray,
                 first: np.ndarray, differ: np.ndarray) -> pa.Table:
    groups: dict[tuple[str, str], list[int]] = {}
    for h, key in enumerate(zip(cols.variant, cols.rules, strict=True)):
        groups.setdefault(key, []).append(h)
    settings: list[str] = [""] * len(cols)
    labels: list[str] = [""] * len(cols)
    scoring: list[str] = [""] * len(cols)
    for (variant, rules), members in groups.items():
        text, label, system = ruleset_columns(variant, rules)
        for h in members:
            settings[h], labels[h], scoring[h] = text, label, system
    return arrow_table({
        "hand_key": keys,
        **{k: _text_array(getattr(cols, k)) for k in (
            "source", "hand_id", "session_id", "match_id", "played_at")},
        "utc_offset": (utc_offsets(cols.played_at) if cols.utc_offset is None
                       else cols.utc_offset.cast(pa.int16())),
        "variant": _text_array(cols.variant),
        "ruleset": pa.array(settings, pa.string()),
        "ruleset_label": pa.array(labels, pa.string()),
        "scoring": pa.array(scoring, pa.string()),
        "button": _text_array(cols.button),
        "hero": _text_array(cols.hero),
        "stake": pa.array(cols.stake, pa.float64()),
        "currency": _text_array(cols.currency),
        "player_count": count.astype(np.int8),
        "first_to_act": first.astype(np.int8),
        "points_differ": differ,
        "import_id": np.asarray(import_ids, np.int32),
        "raw": _text_array(cols.raw),
        "line": pa.array(cols.line, pa.int32()),
        "variant_assumed": pa.array([False] * len(cols) if cols.facts is None
                                    else cols.facts["variant_assumed"], pa.bool_()),
    })


_OFFSET = r"\d\d:?\d\d(?::?\d\d(?:[.,]\d+)?)?(?P<offset>Z|[+-]\d\d(?::?\d\d)?)$"
"""An ISO 8601 time of day and the UTC offset that ends it: ``Z``, ``+01``, ``-0530``,
``+01:00``."""


def offset_minutes(suffix: str) -> int | None:
    """Minutes east of UTC of an ISO 8601 offset (``None`` for none).

    >>> offset_minutes("-05:00"), offset_minutes("+0530"), offset_minutes("Z"), offset_minutes("")
    (-300, 330, 0, None)
    """
    if not suffix:
        return None
    if suffix == "Z":
        return 0
    digits = suffix[1:].replace(":", "")
    minutes = int(digits[:2]) * 60 + int(digits[2:4] or 0)
    return -minutes if suffix[0] == "-" else minutes


def utc_offsets(played_at: TextColumn) -> pa.Array:
    """Per hand the UTC offset its log wrote ``played_at`` with, in minutes (NULL when the
    hand has no time), read from the end of the ISO text: the store keeps the moment as a
    ``TIMESTAMPTZ`` (in UTC) and the log's offset here, so pages can show the log's own clock.

    >>> utc_offsets(["2026-11-29T10:00:00-05:00", None, "2026-11-29T15:00:00Z"]).to_pylist()
    [-300, None, 0]
    """
    texts = _text_array(played_at)
    if isinstance(texts, pa.ChunkedArray):
        texts = texts.combine_chunks()
    suffix = pc.struct_field(pc.extract_regex(texts, _OFFSET), "offset")
    found = suffix.unique()
    minutes = pa.array([offset_minutes(v) for v in found.to_pylist()], pa.int16())
    return minutes.take(pc.index_in(suffix, value_set=found))


def hand_tables(records: Sequence[HandRecord], rows: Sequence[HandRow],
                scores: RecordScores) -> dict[str, pa.Table]:
    """The rows of every hand table for ``records`` (aligned with ``rows`` and ``scores``)."""
    cols = columns_from_records(records, [r.line for r in rows], [r.raw for r in rows])
    keys = np.array([r.hand_key for r in rows], np.int64)
    imports = np.array([r.import_id for r in rows], np.int64)
    return build_tables(cols, keys, imports, scores)


def insert_tables(con: duckdb.DuckDBPyConnection, tables: Mapping[str, pa.Table]) -> None:
    """Bulk-insert Arrow tables by column name (the caller owns the transaction). New
    ``hands`` mark their partitions of the aggregates changed (:mod:`ingest.aggregates`: the
    writer refreshes them before it commits)."""
    for name, table in tables.items():
        if table.num_rows == 0:
            continue
        view = f"_ofc_new_{name}"
        con.register(view, table)
        try:
            con.execute(f"INSERT INTO {name} BY NAME SELECT * FROM {view}")
            if name == "hands":
                aggregates.mark_new(con, view)
        finally:
            con.unregister(view)


def delete_hands(con: duckdb.DuckDBPyConnection, keys: Sequence[int],
                 tables: Sequence[str] = HAND_TABLES) -> None:
    """Delete every row of these hands from ``tables`` (the caller owns the transaction);
    deleting from ``hands`` marks their partitions of the aggregates changed."""
    if not keys:
        return
    con.register("_ofc_del_keys", arrow_table({"hand_key": pa.array(list(keys), pa.int64())}))
    try:
        if "hands" in tables:
            aggregates.mark_hands(con, "SELECT hand_key FROM _ofc_del_keys")
        for name in tables:
            con.execute(f"DELETE FROM {name} WHERE hand_key IN "
                        "(SELECT hand_key FROM _ofc_del_keys)")
    finally:
        con.unregister("_ofc_del_keys")
