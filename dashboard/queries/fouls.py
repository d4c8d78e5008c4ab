"""Fouls: how often, where, when, and which relation between the rows broke.

A hand is fouled when a row beats the row below it: the top beat the middle
(``foul_top_middle``) or the middle beat the bottom (``foul_middle_bottom``); the store holds
both flags, so nothing is re-evaluated here. The foul rate is fouled hands over hands set
(surrendered hands are never set and are left out of it).
"""

from __future__ import annotations

import duckdb
import pandas as pd

from dashboard.queries.aggregated import agg_where
from dashboard.queries.common import Filters, fetch_df
from dashboard.queries.sessions import (
    hand_list,
    scope_cte,
    session_table,
)

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

_ROLLING = """
, ordered AS (
    SELECT s.hand_key, s.played_at,
           row_number() OVER w AS hand_no,
           sum(s.fouled::INT) OVER w AS fouls_so_far
    FROM scope s WHERE NOT s.surrendered
    WINDOW w AS (ORDER BY s.played_at NULLS LAST, s.hand_key, s.seat
                 ROWS UNBOUNDED PRECEDING)
), total AS (
    SELECT count(*) AS n FROM ordered
), shown AS (
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


def rolling(con: duckdb.DuckDBPyConnection, filters: Filters, window: int = 100) -> pd.DataFrame:
    """Foul rate over the last ``window`` hands set, hand by hand in time order, from the first
    full window on (thinned to about :data:`ROLLING_POINTS` points): ``hand_no``,
    ``hand_key``, ``played_at``, ``rolling_foul_rate`` (from the running count of fouls: the
    fouls up to a hand minus those up to ``window`` hands before, over ``window``)."""
    head, params = scope_cte(filters)
    window = max(1, int(window))
    return fetch_df(con, head + _ROLLING, [*params, window, ROLLING_POINTS, window])


RELATION = """CASE WHEN s.foul_top_middle AND s.foul_middle_bottom THEN 'both'
     WHEN s.foul_top_middle THEN 'top beat middle'
     WHEN s.foul_middle_bottom THEN 'middle beat bottom'
     ELSE 'other' END"""
"""Which relation a fouled hand broke; 'other' for fouls with neither flag (e.g. a 2-7 middle
that is not a low)."""

_FOULED = """
, fouled AS (
    SELECT s.*, {relation} AS relation
    FROM scope s
    WHERE s.fouled AND NOT s.surrendered {newest}
), named AS (
    SELECT f.*,
           CASE f.relation WHEN 'middle beat bottom' THEN f.middle_hand
                           ELSE f.top_hand END AS upper,
           CASE f.relation WHEN 'middle beat bottom' THEN f.bottom_hand
                           WHEN 'both' THEN f.bottom_hand ELSE f.middle_hand END AS lower
    FROM fouled f
)
"""
"""The fouled player-hands with each row's hand name (stored on ``hand_players``: no join)."""

_RELATIONS = """
SELECT relation, upper, lower, count(*) AS fouls
FROM named GROUP BY ALL ORDER BY fouls DESC, relation, upper, lower
"""


def relations(con: duckdb.DuckDBPyConnection, filters: Filters) -> pd.DataFrame:
    """Fouls by broken relation and the hands involved: ``relation``, ``upper`` (the hand
    name of the row that was too strong), ``lower`` (the row it beat; for 'both', the top
    and the bottom), ``fouls``."""
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
