"""Fouls: how often, where, when, and which relation between the rows broke.

A hand is fouled when a row beats the row below it: the top beat the middle
(``foul_top_middle``) or the middle beat the bottom (``foul_middle_bottom``); the store holds
both flags, so nothing is re-evaluated here. The foul rate is fouled hands over hands set
(surrendered hands are never set and are left out of it).
"""

from __future__ import annotations

from typing import Any

import duckdb
import numpy as np
import pandas as pd

from dashboard.queries.aggregated import agg_where
from dashboard.queries.common import Filters, fetch_all_numpy, fetch_df
from dashboard.queries.sessions import (
    hand_list,
    scope_cte,
    session_table,
)
from ingest import api
from ingest.api import HOUR_US

_DIMENSION_PARTS = {
    "all": ("TRUE", "'all hands'"),
    "variant": ("s.variant", "{c}"),
    "players": ("s.player_count", "{c}::VARCHAR"),
    "position": ("s.position", "{c}::VARCHAR"),
    "hand type": ("s.fantasyland", "CASE WHEN {c} THEN 'Fantasyland' ELSE 'normal' END"),
}
"""Breakdown name -> (raw column of ``scope s``, its label as text with ``{c}`` for it)."""

DIMENSIONS = {name: label.format(c=raw) for name, (raw, label) in _DIMENSION_PARTS.items()}
"""Breakdown name -> grouping expression over ``scope s`` (as text, so every key is a string).
``all`` is the overall row; ``position`` is the seat in acting order: 0 acts first (left of
the button)."""

_CELLS = """
, cells AS (
    SELECT {raw},
           count(*) AS hands,
           count_if(NOT s.surrendered) AS hands_set,
           count_if(s.fouled AND NOT s.surrendered) AS fouls,
           count_if(s.foul_top_middle) AS top_beat_middle,
           count_if(s.foul_middle_bottom) AS middle_beat_bottom
    FROM scope s
    GROUP BY ALL
)"""

_CELLS_AGG = """
WITH cells AS (
    SELECT {raw},
           sum(s.hands) AS hands,
           sum(s.hands_set) AS hands_set,
           sum(s.fouls) AS fouls,
           sum(s.top_beat_middle) AS top_beat_middle,
           sum(s.middle_beat_bottom) AS middle_beat_bottom
    FROM (SELECT * FROM agg_fouls a WHERE {cond}) s
    GROUP BY ALL
)"""
""":data:`_CELLS` from the aggregates (grouped by every column a breakdown reads)."""

_BREAKDOWNS = """
, labelled AS (
    SELECT {labels}, * FROM cells
)
SELECT CASE {which} END AS dimension,
       coalesce({values}) AS value,
       sum(hands)::BIGINT AS hands,
       sum(hands_set)::BIGINT AS hands_set,
       sum(fouls)::BIGINT AS fouls,
       sum(fouls) / nullif(sum(hands_set), 0) AS foul_rate,
       sum(top_beat_middle)::BIGINT AS top_beat_middle,
       sum(middle_beat_bottom)::BIGINT AS middle_beat_bottom
FROM labelled
GROUP BY GROUPING SETS ({sets})
ORDER BY dimension, value
"""


def breakdowns(con: duckdb.DuckDBPyConnection, filters: Filters) -> pd.DataFrame:
    """Foul rate by every :data:`DIMENSIONS` entry: columns ``dimension``, ``value``,
    ``hands``, ``hands_set`` (not surrendered), ``fouls``, ``foul_rate`` (fouls / hands set),
    ``top_beat_middle``, ``middle_beat_bottom``. One pass over the hands counts each
    combination of the raw columns; the few combinations are then labelled and added up per
    dimension."""
    parts = list(_DIMENSION_PARTS.values())
    raw = ", ".join(f"{column} AS r{i}" for i, (column, _) in enumerate(parts))
    labels = ", ".join(f"{label.format(c=f'r{i}')} AS d{i}" for i, (_, label) in enumerate(parts))
    which = " ".join(f"WHEN grouping(d{i}) = 0 THEN '{n}'"
                     for i, n in enumerate(_DIMENSION_PARTS))
    values = ", ".join(f"d{i}" for i in range(len(parts)))
    sets = ", ".join(f"(d{i})" for i in range(len(parts)))
    found = agg_where(con, filters)
    if found is not None:
        head, params = _CELLS_AGG.format(raw=raw, cond=found[0]), found[1]
    else:
        head, params = scope_cte(filters)
        head += _CELLS.format(raw=raw)
    sql = head + _BREAKDOWNS.format(labels=labels, which=which, values=values, sets=sets)
    df = fetch_df(con, sql, params)
    df["value"] = df["value"].astype("string")
    return df


def breakdown_hands(con: duckdb.DuckDBPyConnection, filters: Filters, dimension: str, value: str,
                    *, fouled_only: bool = False) -> pd.DataFrame:
    """The hands behind one row of :func:`breakdowns`."""
    extra = "AND s.fouled" if fouled_only else ""
    return hand_list(con, filters, DIMENSIONS[dimension], value, extra=extra)


ROLLING_POINTS = 400
"""At most about this many points on the rolling chart, whatever the number of hands."""

_ROLLING_ROWS = """
, ordered AS (
    SELECT s.hand_key, s.played_at,
           row_number() OVER w AS hand_no,
           sum(s.fouled::INT) OVER w AS fouls_so_far
    FROM scope s WHERE NOT s.surrendered
    WINDOW w AS (ORDER BY s.played_at NULLS LAST, s.hand_key, s.seat
                 ROWS UNBOUNDED PRECEDING)
), total AS (
    SELECT count(*) AS n FROM ordered
)"""
"""Every hand set numbered in play order, with the fouls up to it (the rows, read whole)."""

_NO_HOUR = 9223372036854775807
"""The hour of hands without a date: after every other, as ``NULLS LAST`` puts them."""

_HOUR = f"coalesce(epoch_us(s.played_at) // {HOUR_US}, {_NO_HOUR})"

_ROLLING_HOURS = f"""
, hours AS (
    SELECT unnest(?::BIGINT[]) AS hour, unnest(?::BIGINT[]) AS before_n,
           unnest(?::BIGINT[]) AS before_f
), ordered AS (
    SELECT s.hand_key, s.played_at,
           h.before_n + row_number() OVER w AS hand_no,
           h.before_f + sum(s.fouled::INT) OVER w AS fouls_so_far
    FROM scope s JOIN hours h ON h.hour = {_HOUR}
    WHERE NOT s.surrendered
    WINDOW w AS (PARTITION BY h.hour ORDER BY s.played_at NULLS LAST, s.hand_key, s.seat
                 ROWS UNBOUNDED PRECEDING)
), total AS (
    SELECT ?::BIGINT AS n
)"""
"""Only the hours that hold a shown hand or the start of its window, each numbered from the
hands set and fouls of the hours before it (from ``agg_players``)."""

_ROLLING = """
, shown AS (
    SELECT o.* FROM ordered o, total t
    WHERE o.hand_no >= least(?, t.n)
      AND (o.hand_no % greatest(1, t.n // ?) = 0 OR o.hand_no = t.n)
)
SELECT a.hand_no, a.hand_key, a.played_at,
       (a.fouls_so_far - coalesce(b.fouls_so_far, 0))
           / (a.hand_no - coalesce(b.hand_no, 0)) AS rolling_foul_rate
FROM shown a LEFT JOIN ordered b ON b.hand_no = a.hand_no - ?
ORDER BY a.hand_no
"""

_PER_HOUR = f"""
SELECT coalesce(a.hour, {_NO_HOUR}) AS hour, sum(a.hands_set)::BIGINT AS hands_set,
       sum(a.fouls)::BIGINT AS fouls
FROM agg_players a WHERE {{cond}}
GROUP BY ALL HAVING sum(a.hands_set) > 0
ORDER BY hour
"""
"""Hands set and fouls per UTC hour of play, in play order (hands without a date last)."""


def shown_hands(n: int, window: int) -> np.ndarray:
    """The hand numbers (1 = the first hand set) :func:`rolling` draws out of ``n``: from the
    first full window on, every ``n // ROLLING_POINTS``-th and the last.

    >>> shown_hands(10, 4).tolist()
    [4, 5, 6, 7, 8, 9, 10]
    >>> len(shown_hands(1_000_000, 100)), len(shown_hands(1_000_001, 100))
    (400, 401)
    """
    step = max(1, n // ROLLING_POINTS)
    numbers = np.arange(min(window, n), n + 1, dtype=np.int64)
    shown: np.ndarray = numbers[(numbers % step == 0) | (numbers == n)]
    return shown


def _hours_needed(per_hour: dict[str, np.ndarray], window: int) -> tuple[list[int], ...]:
    """The hours holding a shown hand or the hand a window before it, with the hands set and
    fouls of all hours before each: ``(hours, before_n, before_f)``."""
    counts = per_hour["hands_set"].astype(np.int64)
    ends = np.cumsum(counts)
    shown = shown_hands(int(ends[-1]), window)
    starts = shown - window
    wanted = np.concatenate([shown, starts[starts >= 1]])
    idx = np.unique(np.searchsorted(ends, wanted, side="left"))
    before_f = np.cumsum(per_hour["fouls"].astype(np.int64)) - per_hour["fouls"]
    return (per_hour["hour"][idx].tolist(), (ends - counts)[idx].tolist(),
            before_f[idx].tolist())


def _rolling_sql(con: duckdb.DuckDBPyConnection, filters: Filters,
                 window: int) -> tuple[str, list[Any]]:
    """The rolling query: over the hours that hold the drawn hands when the aggregates answer
    ``filters`` (the same numbers, without sorting every hand), else over every hand."""
    head, params = scope_cte(filters)
    found = agg_where(con, filters)
    if found is not None:
        per_hour = fetch_all_numpy(con, _PER_HOUR.format(cond=found[0]), found[1])
        if len(per_hour["hour"]):
            hours, before_n, before_f = _hours_needed(per_hour, window)
            total = int(per_hour["hands_set"].sum())
            return head + _ROLLING_HOURS, [*params, hours, before_n, before_f, total]
    return head + _ROLLING_ROWS, params


def rolling(con: duckdb.DuckDBPyConnection, filters: Filters, window: int = 100) -> pd.DataFrame:
    """Foul rate over the last ``window`` hands set, hand by hand in time order, from the first
    full window on (thinned to about :data:`ROLLING_POINTS` points: :func:`shown_hands`):
    ``hand_no``, ``hand_key``, ``played_at``, ``rolling_foul_rate`` (from the running count of
    fouls: the fouls up to a hand minus those up to ``window`` hands before, over ``window``).

    Hands are numbered in play order, and an hour's hands all come after the hours before
    it; so with the aggregates only the hours holding a drawn hand (or its window's start) are
    read and sorted, each numbered on from the hands set and fouls ``agg_players`` counts
    before it: at ten million hands a few thousand rows sorted instead of ten million."""
    window = max(1, int(window))
    sql, params = _rolling_sql(con, filters, window)
    return fetch_df(con, sql + _ROLLING, [*params, window, ROLLING_POINTS, window])


RELATION = api.RELATION_SQL
"""Which relation a fouled hand ``s`` broke (:mod:`ingest.foul_sql`)."""

_FOULED = f"""
, fouled AS (
    SELECT s.*, {{relation}} AS relation
    FROM scope s
    WHERE s.fouled AND NOT s.surrendered {{newest}}
), named AS (
    SELECT f.*, {api.UPPER_SQL} AS upper, {api.LOWER_SQL} AS lower
    FROM fouled f
)
"""
"""The fouled player-hands with each row's hand name (stored on ``hand_players``: no join)."""

_RELATIONS = """
SELECT relation, upper, lower, count(*) AS fouls
FROM named GROUP BY ALL ORDER BY fouls DESC, relation, upper, lower
"""


_RELATIONS_AGG = """
SELECT a.relation, a.upper, a.lower, sum(a.fouls)::BIGINT AS fouls
FROM agg_relations a WHERE {cond}
GROUP BY ALL ORDER BY fouls DESC, relation, upper, lower
"""
""":data:`_RELATIONS` from ``agg_relations``."""


def relations(con: duckdb.DuckDBPyConnection, filters: Filters) -> pd.DataFrame:
    """Fouls by broken relation and the hands involved: ``relation``, ``upper`` (the hand
    name of the row that was too strong), ``lower`` (the row it beat; for 'both', the top
    and the bottom), ``fouls``. From ``agg_relations`` when the aggregates answer the
    filters."""
    found = agg_where(con, filters)
    if found is not None:
        return fetch_df(con, _RELATIONS_AGG.format(cond=found[0]), found[1])
    head, params = scope_cte(filters)
    sql = head + _FOULED.format(relation=RELATION, newest="") + _RELATIONS
    return fetch_df(con, sql, params)


_NEWEST = """AND (?::VARCHAR IS NULL OR {relation} = ?)
    ORDER BY s.played_at DESC NULLS LAST, s.hand_key DESC, s.seat
    LIMIT ?"""

_FOULED_HANDS = """
, picked AS (
    SELECT * FROM named
    WHERE (?::VARCHAR IS NULL OR relation = ?)
      AND (?::VARCHAR IS NULL OR upper IS NOT DISTINCT FROM ?)
      AND (?::VARCHAR IS NULL OR lower IS NOT DISTINCT FROM ?)
    ORDER BY played_at DESC NULLS LAST, hand_key DESC, seat
    LIMIT ?
), board AS (
    SELECT r.hand_key, r.seat,
           any_value(r.cards) FILTER (WHERE r.row_name = 'top') AS top_cards,
           any_value(r.cards) FILTER (WHERE r.row_name = 'middle') AS middle_cards,
           any_value(r.cards) FILTER (WHERE r.row_name = 'bottom') AS bottom_cards
    FROM hand_rows r JOIN picked n ON n.hand_key = r.hand_key AND n.seat = r.seat
    GROUP BY r.hand_key, r.seat
)
SELECT n.hand_key, n.played_at, n.utc_offset, h.source, h.hand_id, n.variant, n.player, n.position,
       n.fantasyland, n.relation, b.top_cards, n.top_hand, b.middle_cards, n.middle_hand,
       b.bottom_cards, n.bottom_hand, n.points
FROM picked n JOIN hands h ON h.hand_key = n.hand_key
     LEFT JOIN board b ON b.hand_key = n.hand_key AND b.seat = n.seat
ORDER BY n.played_at DESC NULLS LAST, n.hand_key DESC, n.seat
"""


def fouled_hands(con: duckdb.DuckDBPyConnection, filters: Filters, *, relation: str | None = None,
                 upper: str | None = None, lower: str | None = None,
                 limit: int = 500) -> pd.DataFrame:
    """The fouled hands, newest first, with each row's cards and hand name; optionally only
    those of one row of :func:`relations`. Without hand names to match, the newest ``limit``
    fouls are picked first; only the shown hands' cards are read from ``hand_rows``."""
    head, params = scope_cte(filters)
    narrow = [relation, relation, upper, upper, lower, lower, int(limit)]
    if upper is None and lower is None:
        newest = _NEWEST.format(relation=RELATION)
        params = [*params, relation, relation, int(limit)]
    else:
        newest = ""
    sql = head + _FOULED.format(relation=RELATION, newest=newest) + _FOULED_HANDS
    return fetch_df(con, sql, [*params, *narrow])


BENCHMARK_QUERIES = [
    ("breakdowns", breakdowns),
    ("rolling", rolling),
    ("per_session", session_table),
    ("relations", relations),
    ("fouled_hands", fouled_hands),
]
"""What the Fouls page runs on first load (``benchmarks/bench_dashboard.py``)."""
