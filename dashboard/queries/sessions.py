"""Sessions, and the scoped rows every analysis page starts from.

The analysis pages (fouls, Fantasyland, opponents, variants, matches, sessions) all read the
same rows: one per player per hand, restricted by the shared filters, from ``hand_players``
alone (it carries the hand's date, session, match, variant, ruleset, stake; a hand's source
and id are joined from ``hands`` only for the few rows a list shows). :func:`scope_cte` builds
that ``scope`` CTE; :func:`hand_list` returns the hands behind any number on those pages, using
the very same SQL expression that grouped them, so a table row or chart point always opens
exactly the hands it counts.

A session is the log's ``session_id`` when it has one. Hands without one are split into
sessions by a gap of inactivity: a hand starts a new session when more than ``gap_minutes``
passed since the previous such hand (SQL window functions over ``played_at``). Hands with
neither a session id nor a date form one session, ``undated``.

All values reach DuckDB as bound parameters; the only SQL spliced in is the filter clause
from :func:`dashboard.queries.common.where` and expressions from this package's own tables.
"""

from __future__ import annotations

from typing import Any

import duckdb
import pandas as pd

from dashboard.queries.aggregated import agg_where
from dashboard.queries.common import (
    RACE,
    Filters,
    currency_label,
    fetch_df,
    point_sql,
    race_count,
    scoring_label,
    where,
)

DEFAULT_GAP_MINUTES = 30

_SCOPE = """
scope AS NOT MATERIALIZED (
    SELECT hp.hand_key, hp.session_id, hp.match_id, hp.played_at, hp.utc_offset,
           hp.variant, hp.ruleset_label, hp.scoring, hp.player_count, hp.stake, hp.currency,
           hp.seat, hp.player, hp.position, hp.fantasyland, hp.fl_cards, hp.surrendered,
           hp.fouled, hp.foul_top_middle, hp.foul_middle_bottom, hp.royalties,
           hp.fantasyland_next, hp.points, hp.top_hand, hp.middle_hand, hp.bottom_hand,
           hp.money
    FROM hand_players hp
    WHERE {cond}
)"""

_SESSIONS = """
gapped AS (
    SELECT hand_key, played_at,
           CASE WHEN epoch(played_at) - epoch(lag(played_at) OVER w) <= ? * 60
                THEN 0 ELSE 1 END AS starts
    FROM (SELECT DISTINCT hand_key, played_at FROM scope
          WHERE session_id IS NULL AND played_at IS NOT NULL)
    WINDOW w AS (ORDER BY played_at, hand_key)
),
gap_session AS (
    SELECT hand_key,
           sum(starts) OVER (ORDER BY played_at, hand_key ROWS UNBOUNDED PRECEDING) AS n
    FROM gapped
)"""

SESSION_JOIN = "LEFT JOIN gap_session g ON g.hand_key = s.hand_key"
"""How a query over ``scope s`` reaches the inactivity sessions (only hands without an id)."""

SESSION_KEY = "coalesce('id:' || s.session_id, 'gap:' || g.n::VARCHAR, 'undated')"
"""A hand's session: ``'id:<session_id>'``, ``'gap:<n>'`` (split by inactivity, numbered in
time order) or ``'undated'`` (no id and no date)."""


def scope_cte(filters: Filters) -> tuple[str, list[Any]]:
    """``WITH scope AS (...)``: one row per player per hand inside the filters (every player's
    rows when ``filters.player`` is ``None``)."""
    cond, params = where(filters)
    return "WITH " + _SCOPE.format(cond=cond or "TRUE"), list(params)


def sessions_cte(filters: Filters, gap_minutes: float) -> tuple[str, list[Any]]:
    """``scope`` plus ``gap_session (hand_key, n)``, the inactivity sessions of the hands
    without a session id: join it with :data:`SESSION_JOIN`, key with :data:`SESSION_KEY`."""
    head, params = scope_cte(filters)
    return head + "," + _SESSIONS, [*params, float(gap_minutes)]


_HAND_LIST = """
, listed AS (
    SELECT s.hand_key, s.seat, s.played_at, s.utc_offset, s.variant, s.player, s.position,
           s.fantasyland, s.fouled, s.royalties, s.fantasyland_next, s.points
    FROM scope s {join}
    WHERE {expr} IS NOT DISTINCT FROM ? {extra}
    ORDER BY s.played_at NULLS LAST, s.hand_key, s.seat
    LIMIT ?
)
SELECT l.hand_key, l.played_at, l.utc_offset, h.source, h.hand_id, l.variant, l.player, l.position,
       l.fantasyland, l.fouled, l.royalties, l.fantasyland_next, l.points
FROM listed l JOIN hands h ON h.hand_key = l.hand_key
ORDER BY l.played_at NULLS LAST, l.hand_key, l.seat
"""

HAND_LIMIT = 500


def hand_list(con: duckdb.DuckDBPyConnection, filters: Filters, expr: str, value: Any, *,
              extra: str = "", join: str = "", gap_minutes: float | None = None,
              limit: int = HAND_LIMIT) -> pd.DataFrame:
    """The player-hands behind one group: rows of ``scope`` (alias ``s``) where the grouping
    expression ``expr`` equals ``value``. ``extra`` narrows further (e.g. ``AND s.fouled``);
    ``join`` brings in what ``expr`` reads besides ``s``. When ``gap_minutes`` is given,
    ``expr`` may use :data:`SESSION_KEY`."""
    if gap_minutes is None:
        head, params = scope_cte(filters)
    else:
        head, params = sessions_cte(filters, gap_minutes)
        join = f"{SESSION_JOIN} {join}"
    sql = head + _HAND_LIST.format(join=join, expr=expr, extra=extra)
    return fetch_df(con, sql, [*params, value, int(limit)])


FOUL_RATE = "avg(CASE WHEN s.surrendered THEN NULL ELSE s.fouled::INT END)"
"""Fouled hands over hands set (a surrendered hand is never set, so it is left out)."""

FL_ENTRY_RATE = "avg(CASE WHEN s.fantasyland THEN NULL ELSE (s.fantasyland_next > 0)::INT END)"
"""Hands that earned Fantasyland over normal hands (not played in Fantasyland), as on the
Overview page."""

_PERIOD_PARTS = {
    "session": ("s.session_id", "g.n",
                "coalesce('id:' || {k1}, 'gap:' || {k2}::VARCHAR, 'undated')"),
    "week": ("date_trunc('week', s.played_at)", "NULL::BIGINT",
             "coalesce(strftime({k1}, '%Y-%m-%d'), 'undated')"),
    "day": ("date_trunc('day', s.played_at)", "NULL::BIGINT",
            "coalesce(strftime({k1}, '%Y-%m-%d'), 'undated')"),
}
"""Per kind of period: the two raw grouping columns (``k1``, ``k2``) and the template of the
key built from them (over the grouped columns in :func:`period_table`, over the raw ones in
:data:`PERIODS`). Grouping on raw columns and naming the few groups afterwards is about twice
as fast as grouping on the key text."""

PERIODS = {name: key.format(k1=k1, k2=k2) for name, (k1, k2, key) in _PERIOD_PARTS.items()}
"""The period key of one row of ``scope s``, as :func:`period_table` names its rows, for
:func:`hand_list`."""

TREND_PERIODS = 5

_GROUPED = """
, grouped AS (
    SELECT {k1} AS k1, {k2} AS k2,
           min(s.played_at) AS started, max(s.played_at) AS ended,
           min(s.utc_offset) AS utc_offset, -- the log's clock of both (one zone a session)
           count(*) AS hands,
           sum(s.points) AS points,
           avg(s.points) AS points_per_hand,
           {foul_rate} AS foul_rate,
           {fl_entry_rate} AS fl_entry_rate,
           count_if(s.fantasyland) AS fl_hands,
           sum({money}) AS money,
           {currency} AS currency,
           {scoring} AS scoring,
           coalesce(sum({plain_points}), 0) AS plain_points,
           {race_hands} AS race_hands
    FROM scope s {join}
    GROUP BY 1, 2
)"""

_GROUPED_AGG = """
WITH grouped AS (
    SELECT a.session_id AS k1, NULL::BIGINT AS k2,
           min(a.started) AS started, max(a.ended) AS ended,
           min(a.utc_offset) AS utc_offset,
           sum(a.hands)::BIGINT AS hands,
           sum(a.points) AS points,
           sum(a.points) / sum(a.hands) AS points_per_hand,
           sum(a.fouls) / nullif(sum(a.hands_set), 0) AS foul_rate,
           sum(a.entries) / nullif(sum(a.hands - a.fl_hands), 0) AS fl_entry_rate,
           sum(a.fl_hands) AS fl_hands,
           sum(a.money) AS money,
           {currency} AS currency,
           {scoring} AS scoring,
           coalesce(sum(a.points) FILTER (WHERE a.scoring <> '{race}'), 0) AS plain_points,
           coalesce(sum(a.hands) FILTER (WHERE a.scoring = '{race}'), 0) AS race_hands
    FROM agg_players a WHERE {cond}
    GROUP BY 1, 2
)"""
""":data:`_GROUPED` per session from the aggregates (sessions with an id only: the hands
without one are split by inactivity, hand by hand)."""

_PERIODS = """
, periods AS (
    SELECT {label} AS period, * EXCLUDE (k1, k2) FROM grouped
), mixing AS (
    -- race points are not added to other points: with both, the running total leaves them out
    SELECT bool_or(race_hands > 0) AND bool_or(race_hands < hands) AS mixed FROM periods
)
SELECT row_number() OVER (ORDER BY started NULLS LAST, period) AS period_no,
       periods.* EXCLUDE (plain_points, race_hands),
       periods.race_hands, periods.plain_points,
       sum(CASE WHEN mixing.mixed THEN plain_points ELSE points END)
           OVER (ORDER BY started NULLS LAST, period) AS cumulative_points,
       avg(points_per_hand) OVER (ORDER BY started NULLS LAST, period
                                  ROWS {trend} PRECEDING) AS trend_points_per_hand
FROM periods, mixing
ORDER BY period_no
"""


def period_table(con: duckdb.DuckDBPyConnection, filters: Filters, period: str = "session",
                 gap_minutes: float = DEFAULT_GAP_MINUTES) -> pd.DataFrame:
    """One row per session (or week, or day) in time order: hands, points, points per hand,
    foul rate, Fantasyland entry rate, FL hands, money (where the stake is known: points x
    stake; OFC Double: stake x cube of the matches the period ended), the scoring systems,
    ``race_hands`` and ``plain_points`` (the points of the other hands), the running total
    (without race points when the periods mix race scoring with another system), and the
    trend (points per hand averaged over the last ``TREND_PERIODS`` periods). ``period`` is
    the key for :func:`hand_list` with ``PERIODS[period]``. Sessions come from the
    aggregates when they can answer the filters and every hand has a session id."""
    k1, k2, key = _PERIOD_PARTS[period]
    rest = _PERIODS.format(label=key.format(k1="k1", k2="k2"), trend=TREND_PERIODS - 1)
    found = agg_where(con, filters) if period == "session" else None
    if found is not None:
        currency, named = currency_label(con, "sum(a.money)", "a.currency")
        scoring, systems = scoring_label(con, "a.scoring")
        grouped = _GROUPED_AGG.format(currency=currency, scoring=scoring, race=RACE,
                                      cond=found[0])
        df = fetch_df(con, grouped + rest, [*named, *systems, *found[1]])
        if not df["period"].eq("undated").any():  # no hand without a session id
            return df
    if period == "session":
        head, params = sessions_cte(filters, gap_minutes)
        join = SESSION_JOIN
    else:
        head, params = scope_cte(filters)
        join = ""
    currency, named = currency_label(con, "sum(s.money)", "s.currency")
    scoring, systems = scoring_label(con, "s.scoring")
    sql = head + _GROUPED.format(
        k1=k1, k2=k2, join=join,
        foul_rate=FOUL_RATE, fl_entry_rate=FL_ENTRY_RATE,
        money="s.money", plain_points=point_sql("s"), currency=currency,
        scoring=scoring, race_hands=race_count("s.scoring")) + rest
    return fetch_df(con, sql, [*params, *named, *systems])


def period_hands(con: duckdb.DuckDBPyConnection, filters: Filters, period: str, key: str, *,
                 gap_minutes: float = DEFAULT_GAP_MINUTES, extra: str = "") -> pd.DataFrame:
    """The hands of one row of :func:`period_table`."""
    gap = gap_minutes if period == "session" else None
    return hand_list(con, filters, PERIODS[period], key, extra=extra, gap_minutes=gap)


def session_table(con: duckdb.DuckDBPyConnection, filters: Filters) -> pd.DataFrame:
    """:func:`period_table` per session with the default gap (what the pages open on)."""
    return period_table(con, filters, "session", DEFAULT_GAP_MINUTES)


BENCHMARK_QUERIES = [("sessions", session_table)]
"""What the Sessions page runs on first load (``benchmarks/bench_dashboard.py``)."""
