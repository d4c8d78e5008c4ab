"""Variants and rulesets side by side: where does a player do best?

One row per variant and ruleset label (a ruleset label names the overrides of the preset,
e.g. ``pineapple (scoring 2-4)``), from the stored per-player results. Points per hand are
in each ruleset's own points (a scoop is worth 6 under 1-6 and 4 under 2-4), so the scoring
system is shown beside them.
"""

from __future__ import annotations

import duckdb
import pandas as pd

from dashboard.queries.aggregated import agg_where
from dashboard.queries.common import Filters, fetch_df, span_label
from dashboard.queries.sessions import FL_ENTRY_RATE, FOUL_RATE, hand_list, scope_cte

_TABLE = """
SELECT s.variant, s.ruleset_label, s.scoring,
       count(*) AS hands,
       avg(s.points) AS points_per_hand,
       avg(s.points) - 1.96 * stddev_samp(s.points) / sqrt(count(*)) AS ci_low,
       avg(s.points) + 1.96 * stddev_samp(s.points) / sqrt(count(*)) AS ci_high,
       sum(s.points) AS points,
       {foul_rate} AS foul_rate,
       {fl_entry_rate} AS fl_entry_rate,
       avg(s.fantasyland::INT) AS fl_hand_share,
       avg(s.royalties) AS royalties_per_hand,
       sum({money}) AS money,
       {currency} AS currency
FROM scope s
GROUP BY ALL
ORDER BY hands DESC, s.variant, s.ruleset_label
"""


_TABLE_AGG = """
WITH s AS (SELECT * FROM agg_players a WHERE {cond}), sums AS (
    SELECT s.variant, s.ruleset_label, s.scoring,
           sum(s.hands)::BIGINT AS hands,
           sum(s.points) / sum(s.hands) AS points_per_hand,
           CASE WHEN sum(s.hands) > 1 THEN sqrt(greatest(0, (sum(s.points_sq)
               - sum(s.points) * sum(s.points) / sum(s.hands)) / (sum(s.hands) - 1))) END AS sd,
           sum(s.points) AS points,
           sum(s.fouls) / nullif(sum(s.hands_set), 0) AS foul_rate,
           sum(s.entries) / nullif(sum(s.hands - s.fl_hands), 0) AS fl_entry_rate,
           sum(s.fl_hands) / sum(s.hands) AS fl_hand_share,
           sum(s.royalties) / sum(s.hands) AS royalties_per_hand,
           sum({money}) AS money,
           {currency} AS currency
    FROM s
    GROUP BY ALL
)
SELECT variant, ruleset_label, scoring, hands, points_per_hand,
       points_per_hand - 1.96 * sd / sqrt(hands) AS ci_low,
       points_per_hand + 1.96 * sd / sqrt(hands) AS ci_high,
       points, foul_rate, fl_entry_rate, fl_hand_share, royalties_per_hand, money, currency
FROM sums
ORDER BY hands DESC, variant, ruleset_label
"""
""":data:`_TABLE` from the aggregates: the standard deviation from the sums of points and of
their squares."""


def table(con: duckdb.DuckDBPyConnection, filters: Filters) -> pd.DataFrame:
    """Per variant and ruleset: ``hands``, ``points_per_hand`` with its 95% interval,
    ``points``, ``foul_rate``, ``fl_entry_rate``, ``fl_hand_share`` (hands played in
    Fantasyland), ``royalties_per_hand`` and ``money`` (OFC Double: its matches' stake x
    cube)."""
    found = agg_where(con, filters)
    if found is not None:
        return fetch_df(con, _TABLE_AGG.format(cond=found[0], money="s.money",
                                               currency=span_label("s.currency")), found[1])
    head, params = scope_cte(filters)
    sql = head + _TABLE.format(
        foul_rate=FOUL_RATE, fl_entry_rate=FL_ENTRY_RATE, money="s.money",
        currency=span_label("s.currency"))
    return fetch_df(con, sql, params)


def ruleset_hands(con: duckdb.DuckDBPyConnection, filters: Filters,
                  ruleset_label: str) -> pd.DataFrame:
    """The hands behind one row of :func:`table`."""
    return hand_list(con, filters, "s.ruleset_label", ruleset_label)


BENCHMARK_QUERIES = [("table", table)]
"""What the Variants page runs on first load (``benchmarks/bench_dashboard.py``)."""
