"""Fantasyland: how often a player gets there, stays, and what it is worth.

The store already says, per player and hand, whether the hand was played in Fantasyland
(``fantasyland``), the cards dealt there (``fl_cards``) and the Fantasyland cards earned for the
next hand (``fantasyland_next``, 0 if none), judged by the scorer under the hand's ruleset. So:

- an *entry* is a normal hand (not played in Fantasyland) with ``fantasyland_next > 0``; the
  entry rate is entries over normal hands (as on the Overview page);
- a *stay* is a Fantasyland hand with ``fantasyland_next > 0``; the stay rate is stays over
  Fantasyland hands.
"""

from __future__ import annotations

import duckdb
import pandas as pd

from dashboard.queries.common import Filters, fetch_df
from dashboard.queries.sessions import (
    FL_ENTRY_RATE,
    FOUL_RATE,
    hand_list,
    one_row,
    scope_cte,
    session_table,
)

_SUMMARY = """
SELECT count(*) AS hands,
       count(*) FILTER (WHERE s.fantasyland) AS fl_hands,
       count(*) FILTER (WHERE NOT s.fantasyland) AS normal_hands,
       count(*) FILTER (WHERE NOT s.fantasyland AND s.fantasyland_next > 0) AS entries,
       {fl_entry_rate} AS entry_rate,
       count(*) FILTER (WHERE s.fantasyland AND s.fantasyland_next > 0) AS stays,
       avg(CASE WHEN s.fantasyland THEN (s.fantasyland_next > 0)::INT END) AS stay_rate,
       100.0 * count(*) FILTER (WHERE s.fantasyland) / count(*) AS fl_per_100,
       avg(CASE WHEN s.fantasyland THEN s.points END) AS points_per_fl_hand,
       avg(CASE WHEN NOT s.fantasyland THEN s.points END) AS points_per_normal_hand,
       {foul_rate} AS foul_rate
FROM scope s
"""


def summary(con: duckdb.DuckDBPyConnection, filters: Filters) -> dict[str, float | int | None]:
    """The headline numbers: ``hands``, ``fl_hands``, ``normal_hands``, ``entries``,
    ``entry_rate``, ``stays``, ``stay_rate``, ``fl_per_100`` (Fantasyland hands per 100 hands),
    ``points_per_fl_hand``, ``points_per_normal_hand``, ``foul_rate``. Rates are ``None``
    when there is nothing to divide by."""
    head, params = scope_cte(filters)
    sql = head + _SUMMARY.format(fl_entry_rate=FL_ENTRY_RATE, foul_rate=FOUL_RATE)
    return one_row(con, sql, params)


TOP_CLASS = """CASE WHEN t.hand_name LIKE 'Three of a kind%' THEN 'trips'
     WHEN t.hand_name = 'Pair of Aces' THEN 'AA'
     WHEN t.hand_name = 'Pair of Kings' THEN 'KK'
     WHEN t.hand_name = 'Pair of Queens' THEN 'QQ'
     ELSE 'below QQ' END"""
"""The top row as a Fantasyland qualifier, from its stored hand name (a surrendered hand, with
no complete top, counts as below QQ)."""

TOP_CLASSES = ("below QQ", "QQ", "KK", "AA", "trips")

_BY_TOP = """
, classed AS (
    SELECT s.*, {top_class} AS top_class
    FROM scope s
    LEFT JOIN hand_rows t ON t.hand_key = s.hand_key AND t.seat = s.seat AND t.row_name = 'top'
    WHERE NOT s.fantasyland
)
SELECT top_class,
       count(*) AS hands,
       count(*) FILTER (WHERE fouled) AS fouled,
       count(*) FILTER (WHERE fantasyland_next > 0) AS entries,
       avg((fantasyland_next > 0)::INT) AS entry_rate_with_top,
       count(*) FILTER (WHERE fantasyland_next > 0) / sum(count(*)) OVER ()
           AS share_of_normal_hands,
       avg(points) AS points_per_hand
FROM classed
GROUP BY top_class
"""


def by_top(con: duckdb.DuckDBPyConnection, filters: Filters) -> pd.DataFrame:
    """Normal hands by the top they ended with (below QQ, QQ, KK, AA, trips): ``hands``,
    ``fouled`` (a qualifying top over a foul earns nothing), ``entries``,
    ``entry_rate_with_top`` (entries / hands with that top) and ``share_of_normal_hands``
    (entries with that top / all normal hands; they add up to the overall entry rate)."""
    head, params = scope_cte(filters)
    df = fetch_df(con, head + _BY_TOP.format(top_class=TOP_CLASS), params)
    order = {c: i for i, c in enumerate(TOP_CLASSES)}
    return df.sort_values("top_class", key=lambda c: c.map(order)).reset_index(drop=True)


def top_hands(con: duckdb.DuckDBPyConnection, filters: Filters, top_class: str) -> pd.DataFrame:
    """The normal hands behind one row of :func:`by_top`."""
    cond = (f"(SELECT {TOP_CLASS} FROM hand_rows t WHERE t.hand_key = s.hand_key "
            "AND t.seat = s.seat AND t.row_name = 'top')")
    return hand_list(con, filters, f"coalesce({cond}, 'below QQ')", top_class,
                     extra="AND NOT s.fantasyland")


_CARDS = """
SELECT coalesce(s.fl_cards::VARCHAR, 'unknown') AS fl_cards,
       count(*) AS hands,
       count(*) FILTER (WHERE s.fantasyland_next > 0) AS stays,
       avg((s.fantasyland_next > 0)::INT) AS stay_rate,
       {foul_rate} AS foul_rate,
       avg(s.points) AS points_per_hand
FROM scope s WHERE s.fantasyland
GROUP BY 1 ORDER BY 1
"""

CARDS_EXPR = "coalesce(s.fl_cards::VARCHAR, 'unknown')"


def by_cards(con: duckdb.DuckDBPyConnection, filters: Filters) -> pd.DataFrame:
    """Fantasyland hands by cards dealt (``unknown`` when the log does not say): ``hands``,
    ``stays``, ``stay_rate``, ``foul_rate``, ``points_per_hand``."""
    head, params = scope_cte(filters)
    return fetch_df(con, head + _CARDS.format(foul_rate=FOUL_RATE), params)


def cards_hands(con: duckdb.DuckDBPyConnection, filters: Filters, fl_cards: str) -> pd.DataFrame:
    """The Fantasyland hands behind one row of :func:`by_cards`."""
    return hand_list(con, filters, CARDS_EXPR, fl_cards, extra="AND s.fantasyland")


KIND_EXPR = "CASE WHEN s.fantasyland THEN 'Fantasyland' ELSE 'normal' END"
"""Fantasyland hand or normal hand, for :func:`kind_hands`."""


def kind_hands(con: duckdb.DuckDBPyConnection, filters: Filters, kind: str) -> pd.DataFrame:
    """The hands behind 'points per FL hand' (``kind='Fantasyland'``) or per normal hand."""
    return hand_list(con, filters, KIND_EXPR, kind)


BENCHMARK_QUERIES = [
    ("summary", summary),
    ("by_top", by_top),
    ("by_cards", by_cards),
    ("chasing_per_session", session_table),
]
"""What the Fantasyland page runs on first load (``benchmarks/bench_dashboard.py``)."""
