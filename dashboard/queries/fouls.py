"""Fouls: how often, where, when, and which relation between the rows broke.

A hand is fouled when a row beats the row below it: the top beat the middle
(``foul_top_middle``) or the middle beat the bottom (``foul_middle_bottom``); the store holds
both flags, so nothing is re-evaluated here. The foul rate is fouled hands over hands set
(surrendered hands are never set and are left out of it).
"""

from __future__ import annotations

import duckdb
import pandas as pd

from dashboard.queries.common import Filters, fetch_df
from dashboard.queries.sessions import FOUL_RATE, hand_list, scope_cte

DIMENSIONS = {
    "all": "'all hands'",
    "variant": "s.variant",
    "players": "s.player_count::VARCHAR",
    "position": "s.position::VARCHAR",
    "hand type": "CASE WHEN s.fantasyland THEN 'Fantasyland' ELSE 'normal' END",
}
"""Breakdown name -> grouping expression over ``scope s`` (as text, so every key is a string).
``all`` is the overall row; ``position`` is the seat in acting order: 0 acts first (left of
the button)."""

_BREAKDOWNS = """
, keyed AS (
    SELECT s.*, {cols} FROM scope s
)
SELECT CASE {which} END AS dimension,
       coalesce({values}) AS value,
       count(*) AS hands,
       count(*) FILTER (WHERE NOT s.surrendered) AS hands_set,
       count(*) FILTER (WHERE s.fouled AND NOT s.surrendered) AS fouls,
       {foul_rate} AS foul_rate,
       count(*) FILTER (WHERE s.foul_top_middle) AS top_beat_middle,
       count(*) FILTER (WHERE s.foul_middle_bottom) AS middle_beat_bottom
FROM keyed s
GROUP BY GROUPING SETS ({sets})
ORDER BY dimension, value
"""


def breakdowns(con: duckdb.DuckDBPyConnection, filters: Filters) -> pd.DataFrame:
    """Foul rate by every :data:`DIMENSIONS` entry, in one scan: columns ``dimension``,
    ``value``, ``hands``, ``hands_set`` (not surrendered), ``fouls``, ``foul_rate``,
    ``top_beat_middle``, ``middle_beat_bottom``."""
    names = list(DIMENSIONS)
    cols = ", ".join(f"{DIMENSIONS[n]} AS d{i}" for i, n in enumerate(names))
    which = " ".join(f"WHEN grouping(d{i}) = 0 THEN '{n}'" for i, n in enumerate(names))
    values = ", ".join(f"d{i}" for i in range(len(names)))
    sets = ", ".join(f"(d{i})" for i in range(len(names)))
    head, params = scope_cte(filters)
    sql = head + _BREAKDOWNS.format(cols=cols, which=which, values=values, sets=sets,
                                    foul_rate=FOUL_RATE)
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
    SELECT s.hand_key, s.played_at, s.fouled::INT AS fouled,
           row_number() OVER (ORDER BY s.played_at NULLS LAST, s.hand_key, s.seat) AS hand_no,
           count(*) OVER () AS total
    FROM scope s WHERE NOT s.surrendered
)
SELECT hand_no, hand_key, played_at,
       avg(fouled) OVER (ORDER BY hand_no ROWS BETWEEN ? PRECEDING AND CURRENT ROW)
           AS rolling_foul_rate
FROM ordered
QUALIFY hand_no >= least(?, total)
    AND (hand_no % greatest(1, total // ?) = 0 OR hand_no = total)
ORDER BY hand_no
"""


def rolling(con: duckdb.DuckDBPyConnection, filters: Filters, window: int = 100) -> pd.DataFrame:
    """Foul rate over the last ``window`` hands set, hand by hand in time order, from the first
    full window on (thinned to about :data:`ROLLING_POINTS` points): ``hand_no``,
    ``hand_key``, ``played_at``, ``rolling_foul_rate``."""
    head, params = scope_cte(filters)
    window = max(1, int(window))
    return fetch_df(con, head + _ROLLING, [*params, window - 1, window, ROLLING_POINTS])


RELATION = """CASE WHEN s.foul_top_middle AND s.foul_middle_bottom THEN 'both'
     WHEN s.foul_top_middle THEN 'top beat middle'
     WHEN s.foul_middle_bottom THEN 'middle beat bottom'
     ELSE 'other' END"""
"""Which relation a fouled hand broke; 'other' for fouls with neither flag (e.g. a 2-7 middle
that is not a low)."""

_FOULED = """
, fouled AS (
    SELECT s.*, {relation} AS relation,
           t.cards AS top_cards, t.hand_name AS top_hand,
           m.cards AS middle_cards, m.hand_name AS middle_hand,
           b.cards AS bottom_cards, b.hand_name AS bottom_hand
    FROM scope s
    LEFT JOIN hand_rows t ON t.hand_key = s.hand_key AND t.seat = s.seat AND t.row_name = 'top'
    LEFT JOIN hand_rows m ON m.hand_key = s.hand_key AND m.seat = s.seat
                         AND m.row_name = 'middle'
    LEFT JOIN hand_rows b ON b.hand_key = s.hand_key AND b.seat = s.seat
                         AND b.row_name = 'bottom'
    WHERE s.fouled AND NOT s.surrendered
), named AS (
    SELECT *,
           CASE relation WHEN 'middle beat bottom' THEN middle_hand ELSE top_hand END AS upper,
           CASE relation WHEN 'middle beat bottom' THEN bottom_hand
                         WHEN 'both' THEN bottom_hand ELSE middle_hand END AS lower
    FROM fouled
)
"""

_RELATIONS = """
SELECT relation, upper, lower, count(*) AS fouls
FROM named GROUP BY ALL ORDER BY fouls DESC, relation, upper, lower
"""


def relations(con: duckdb.DuckDBPyConnection, filters: Filters) -> pd.DataFrame:
    """Fouls by broken relation and the hands involved: ``relation``, ``upper`` (the hand
    name of the row that was too strong), ``lower`` (the row it beat; for 'both', the top
    and the bottom), ``fouls``."""
    head, params = scope_cte(filters)
    return fetch_df(con, head + _FOULED.format(relation=RELATION) + _RELATIONS, params)


_FOULED_HANDS = """
SELECT hand_key, played_at, source, hand_id, variant, player, position, fantasyland,
       relation, top_cards, top_hand, middle_cards, middle_hand, bottom_cards, bottom_hand,
       points
FROM named
WHERE (?::VARCHAR IS NULL OR relation = ?)
  AND (?::VARCHAR IS NULL OR upper IS NOT DISTINCT FROM ?)
  AND (?::VARCHAR IS NULL OR lower IS NOT DISTINCT FROM ?)
ORDER BY played_at DESC NULLS LAST, hand_key DESC, seat
LIMIT ?
"""


def fouled_hands(con: duckdb.DuckDBPyConnection, filters: Filters, *, relation: str | None = None,
                 upper: str | None = None, lower: str | None = None,
                 limit: int = 500) -> pd.DataFrame:
    """The fouled hands, newest first, with each row's cards and hand name; optionally only
    those of one row of :func:`relations`."""
    head, params = scope_cte(filters)
    sql = head + _FOULED.format(relation=RELATION) + _FOULED_HANDS
    narrow = [relation, relation, upper, upper, lower, lower, int(limit)]
    return fetch_df(con, sql, [*params, *narrow])
