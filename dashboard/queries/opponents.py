"""Opponents: a player's results against each opponent, from the stored pairwise settlements.

Every number comes from ``pairs`` (one row per ordered pair and hand, from the player's side),
``hand_players`` for both sides, and the hand's stake. Under race scoring (OFC Double) a pair's
points are what the player banked, not a zero-sum exchange.

The 95% confidence interval of points per hand is the normal approximation
``mean +- 1.96 * sd / sqrt(n)`` over the per-hand points against that opponent.
"""

from __future__ import annotations

import duckdb
import pandas as pd

from dashboard.queries.common import Filters, fetch_df
from dashboard.queries.sessions import scope_cte

_VERSUS = """
, versus AS (
    SELECT s.hand_key, s.played_at, s.source, s.hand_id, s.variant, s.stake, s.currency,
           s.player,
           p.opponent, p.points, p.total, p.row_points, p.bonus, p.royalties AS royalty_net,
           p.surrender, p.rows_won, p.rows_lost, p.scoop, q.scoop AS scooped,
           s.royalties AS royalties_for, o.royalties AS royalties_against,
           s.fouled AS fouled, o.fouled AS opponent_fouled,
           s.surrendered AS surrendered, o.surrendered AS opponent_surrendered
    FROM scope s
    JOIN pairs p ON p.hand_key = s.hand_key AND p.seat = s.seat
    JOIN pairs q ON q.hand_key = p.hand_key AND q.seat = p.opp_seat AND q.opp_seat = p.seat
    JOIN hand_players o ON o.hand_key = p.hand_key AND o.seat = p.opp_seat
    WHERE s.player = ?
)
"""


def _versus(filters: Filters) -> tuple[str, list]:
    """``scope`` and ``versus``: one row per hand and opponent of ``filters.player``."""
    if filters.player is None:
        raise ValueError("the opponents of whom? choose a player first")
    head, params = scope_cte(filters)
    return head + _VERSUS, [*params, filters.player]


_TABLE = """
SELECT opponent,
       count(*) AS hands,
       sum(points) AS net_points,
       avg(points) AS points_per_hand,
       avg(points) - 1.96 * stddev_samp(points) / sqrt(count(*)) AS ci_low,
       avg(points) + 1.96 * stddev_samp(points) / sqrt(count(*)) AS ci_high,
       sum(points * stake) AS money,
       string_agg(DISTINCT currency, ', ') AS currency,
       sum(rows_won) / (3.0 * count(*)) AS rows_won_pct,
       count(*) FILTER (WHERE scoop) AS scoops_for,
       count(*) FILTER (WHERE scooped) AS scoops_against,
       sum(royalties_for)::BIGINT AS royalties_for,
       sum(royalties_against)::BIGINT AS royalties_against,
       avg(CASE WHEN opponent_surrendered THEN NULL ELSE opponent_fouled::INT END)
           AS their_foul_rate,
       avg(CASE WHEN surrendered THEN NULL ELSE fouled::INT END) AS our_foul_rate
FROM versus
GROUP BY opponent
ORDER BY hands DESC, opponent
"""


def table(con: duckdb.DuckDBPyConnection, filters: Filters) -> pd.DataFrame:
    """One row per opponent of the filtered player: hands together, net points, points per hand with
    its 95% interval (``ci_low``, ``ci_high``; NaN with one hand), money (points x stake,
    where the stake is known), rows won (share of rows), scoops and royalties for and against,
    their foul rate and ours in those hands."""
    head, params = _versus(filters)
    return fetch_df(con, head + _TABLE, params)


CUMULATIVE_POINTS = 300
"""At most about this many points per opponent line."""

_CUMULATIVE = """
, ranked AS (
    SELECT opponent FROM versus GROUP BY opponent ORDER BY count(*) DESC, opponent LIMIT ?
), numbered AS (
    SELECT v.opponent, v.hand_key, v.played_at,
           row_number() OVER w AS hand_no,
           count(*) OVER (PARTITION BY v.opponent) AS total,
           sum(v.points) OVER w AS cumulative_points
    FROM versus v JOIN ranked r ON r.opponent = v.opponent
    WINDOW w AS (PARTITION BY v.opponent ORDER BY v.played_at NULLS LAST, v.hand_key
                 ROWS UNBOUNDED PRECEDING)
)
SELECT opponent, hand_no, hand_key, played_at, cumulative_points
FROM numbered
WHERE hand_no % greatest(1, total // ?) = 0 OR hand_no = total
ORDER BY opponent, hand_no
"""


def cumulative(con: duckdb.DuckDBPyConnection, filters: Filters,
               opponents: int = 8) -> pd.DataFrame:
    """Running net against each of the ``opponents`` most frequent opponents, hand by hand in
    time order (thinned to about :data:`CUMULATIVE_POINTS` points per line)."""
    head, params = _versus(filters)
    return fetch_df(con, head + _CUMULATIVE, [*params, int(opponents), CUMULATIVE_POINTS])


COMPONENTS = {
    "row points": ("row_points", "NOT (fouled OR opponent_fouled) AND row_points <> 0"),
    "scoop and majority bonuses": ("bonus", "NOT (fouled OR opponent_fouled) AND bonus <> 0"),
    "royalties": ("royalty_net", "NOT (fouled OR opponent_fouled) AND royalty_net <> 0"),
    "fouls": ("total - surrender", "fouled OR opponent_fouled"),
    "surrender": ("surrender", "surrender <> 0"),
    "caps": ("points - total", "points <> total"),
}
"""The net against an opponent split into parts that add up to it: for hands without a foul,
row points, bonuses and the royalty exchange; the whole settlement of hands where either
player fouled; surrender payments; and what table-stakes caps took off. Each part is
``(value, condition of the hands that carry it)``."""

_SPLIT = """
SELECT {parts}
FROM versus WHERE opponent = ?
"""


def head_to_head(con: duckdb.DuckDBPyConnection, filters: Filters, opponent: str) -> pd.DataFrame:
    """``component``, ``points``, ``hands`` for the filtered player against ``opponent``; the
    ``points`` add up to the net of :func:`table`."""
    parts = ", ".join(
        f"coalesce(sum(CASE WHEN {cond} THEN {value} ELSE 0 END), 0) AS p{i}, "
        f"count(*) FILTER (WHERE {cond}) AS n{i}"
        for i, (value, cond) in enumerate(COMPONENTS.values()))
    head, params = _versus(filters)
    row = fetch_df(con, head + _SPLIT.format(parts=parts), [*params, opponent]).iloc[0]
    return pd.DataFrame({
        "component": list(COMPONENTS),
        "points": [float(row[f"p{i}"]) for i in range(len(COMPONENTS))],
        "hands": [int(row[f"n{i}"]) for i in range(len(COMPONENTS))],
    })


_HANDS = """
SELECT hand_key, played_at, source, hand_id, variant, player, opponent, rows_won, rows_lost,
       row_points, bonus, royalty_net AS royalties, fouled, opponent_fouled, points
FROM versus
WHERE opponent = ? AND ({cond})
ORDER BY played_at NULLS LAST, hand_key
LIMIT ?
"""


def versus_hands(con: duckdb.DuckDBPyConnection, filters: Filters, opponent: str,
                 component: str | None = None, limit: int = 500) -> pd.DataFrame:
    """The hands of the filtered player against ``opponent`` (only those carrying ``component`` of
    :data:`COMPONENTS` when given), with the pair's settlement."""
    cond = COMPONENTS[component][1] if component else "TRUE"
    head, params = _versus(filters)
    return fetch_df(con, head + _HANDS.format(cond=cond), [*params, opponent, int(limit)])
