"""Opponents: a player's results against each opponent, from the stored pairwise settlements.

Every number comes from ``pairs`` (one row per ordered pair and hand, from the player's side),
``hand_players`` for both sides, and the hand's stake. Under race scoring (OFC Double) a pair's
points are what the player banked, not a zero-sum exchange.

The 95% confidence interval of points per hand is the normal approximation
``mean +- 1.96 * sd / sqrt(n)`` over the per-hand points against that opponent.
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
    names_in,
    not_me,
    not_my_name,
    player_chosen,
    seat_by_name,
)
from dashboard.queries.sessions import scope_cte
from ofc_core.rules import ScoringSystem

_VERSUS = """
, versus AS (
    SELECT s.hand_key, s.played_at, s.utc_offset, s.variant, s.system, s.stake, s.currency,
           s.player, {money},
           p.opponent, p.points, p.total, p.row_points, p.bonus, p.royalties AS royalty_net,
           p.surrender, p.rows_won, p.rows_lost, p.scoop,
           s.royalties AS royalties_for, s.fouled AS fouled, s.surrendered AS surrendered
           {their_columns}
    FROM (SELECT * EXCLUDE (scoring), list_position(?, scoring) AS system FROM scope {pick}) s
    JOIN pairs p ON p.hand_key = s.hand_key {seat}
    {their_join}
    WHERE {first_cut} {narrow}
)
"""

_THEIR_COLUMNS = """, o.royalties AS royalties_against, o.fouled AS opponent_fouled,
           o.surrendered AS opponent_surrendered"""
_THEIR_JOIN = "JOIN hand_players o ON o.hand_key = p.hand_key AND o.player = p.opponent"
"""The opponent's own row (names are unique in a hand, so the name finds the seat and lets a
list of opponents narrow the scan)."""


PAIR_MONEY = "p.points * s.stake AS pair_money, s.money AS hand_money"
"""A pair's money, in two parts the table adds up per scoring system
(:data:`MONEY_OF_PAIRS`): points x stake, and the hand's stored money (OFC Double's:
stake x cube on the hand that ends a match, :mod:`ingest.money`)."""

SYSTEMS = tuple(str(system) for system in ScoringSystem)
"""Every scoring system, in a fixed order: ``versus`` numbers a hand's system by its place here
(``system``, from 1), so that joins, groups and windows carry a small integer, not a text
(the text cost a fifth of the Opponents page)."""

MONEY_OF_PAIRS = (f"CASE WHEN system = {SYSTEMS.index(RACE) + 1} THEN sum(hand_money) "
                  "ELSE sum(pair_money) END")
"""The money of a group of pairs of one scoring system: under race scoring (heads-up OFC
Double) the hands' money, else the pairs' points x stake (chosen per group, not per row)."""


def _versus(filters: Filters, opponents: tuple[str, ...] | None = None, *,
            theirs: bool = True, money: bool = False, scoring: str | None = None
            ) -> tuple[str, list[Any]]:
    """``scope`` and ``versus``: one row per hand and opponent of ``filters.player`` (only
    ``opponents``, when given; only hands of ``scoring``, one of :data:`SYSTEMS`, when given:
    a condition on the text, which the scan of the player's rows applies cheaply, where the
    system's number is worked out row by row); ``theirs`` adds the opponent's own row
    (royalties, foul); ``money`` the parts of the pair's money (:data:`PAIR_MONEY`). My pair
    is found by my name where that is enough (:func:`~dashboard.queries.common.seat_by_name`:
    a single-key join, about four times cheaper), else by my seat."""
    if not player_chosen(filters):
        raise ValueError("the opponents of whom? choose a player first")
    head, params = scope_cte(filters)
    first_cut, first = names_in(filters, "p.player")
    narrow, extra = not_me(filters, "p.opponent", "p.hand_key")
    if opponents is not None:
        for column in ("p.opponent", "o.player") if theirs else ("p.opponent",):
            narrow += f" AND {_one_of(column, opponents)}"
            extra += opponents
    pick = [scoring] if scoring in SYSTEMS else []
    sql = _VERSUS.format(first_cut=first_cut, narrow=narrow,
                         pick="WHERE scoring = ?" if pick else "",
                         their_columns=_THEIR_COLUMNS if theirs else "",
                         their_join=_THEIR_JOIN if theirs else "",
                         seat="" if seat_by_name(filters) else "AND p.seat = s.seat",
                         money=PAIR_MONEY if money else "NULL::DOUBLE AS money")
    return head + sql, [*params, list(SYSTEMS), *pick, *first, *extra]


def _one_of(column: str, names: tuple[str, ...]) -> str:
    """``column`` is one of ``names`` (bound, one ``?`` each): an ``IN`` list, which DuckDB
    pushes into the scan and counts as few rows, so that the join builds its table on these
    pairs, not on every hand of the player (``list_contains`` made it build on the player's
    8 million hands at 10 M hands).

    >>> _one_of("p.opponent", ("ann", "bo")), _one_of("p.opponent", ())
    ('p.opponent IN (?, ?)', 'FALSE')
    """
    return f"{column} IN ({', '.join('?' * len(names))})" if names else "FALSE"


_TABLE = """
, ours AS (
    SELECT opponent, system,
           count(*) AS hands,
           sum(points) AS net_points,
           avg(points) AS points_per_hand,
           avg(points) - 1.96 * stddev_samp(points) / sqrt(count(*)) AS ci_low,
           avg(points) + 1.96 * stddev_samp(points) / sqrt(count(*)) AS ci_high,
           {money_of_pairs} AS money,
           {currency} AS currency,
           sum(rows_won) / (3.0 * count(*)) AS rows_won_pct,
           count_if(scoop) AS scoops_for,
           count_if(rows_lost = 3) AS scoops_against,
           sum(royalties_for)::BIGINT AS royalties_for,
           avg(CASE WHEN surrendered THEN NULL ELSE fouled::INT END) AS our_foul_rate
    FROM versus
    GROUP BY opponent, system
), theirs AS (
    SELECT o.player AS opponent,
           sum(o.royalties)::BIGINT AS royalties_against,
           avg(CASE WHEN o.surrendered THEN NULL ELSE o.fouled::INT END) AS their_foul_rate,
           o.scoring
    FROM scope s JOIN hand_players o ON o.hand_key = s.hand_key
    WHERE {others}
    GROUP BY o.player, o.scoring
)
SELECT ours.opponent, list_extract(?, ours.system) AS scoring,
       ours.* EXCLUDE (opponent, system, our_foul_rate), theirs.royalties_against,
       theirs.their_foul_rate, ours.our_foul_rate
FROM ours JOIN theirs
     ON theirs.opponent = ours.opponent AND theirs.scoring = list_extract(?, ours.system)
ORDER BY hands DESC, opponent, scoring
"""
"""Our side from the pairs; theirs (royalties, fouls) from their own rows in the same hands,
aggregated apart: two passes over single-key joins cost less than one over the pair and the
opponent's row together. Money is added up per scoring system (:data:`MONEY_OF_PAIRS`)."""


AGG_MONEY = f"CASE WHEN scoring = '{RACE}' THEN sum(hand_money) ELSE sum(pair_money) END"
""":data:`MONEY_OF_PAIRS` over ``agg_opponents``."""

_TABLE_AGG = """
WITH s AS (SELECT * FROM agg_opponents a WHERE {cond}), sums AS (
    SELECT opponent, scoring,
           sum(hands)::BIGINT AS hands,
           sum(points) AS net_points,
           sum(points) / sum(hands) AS points_per_hand,
           CASE WHEN sum(hands) > 1 THEN sqrt(greatest(0, (sum(points_sq)
               - sum(points) * sum(points) / sum(hands)) / (sum(hands) - 1))) END AS sd,
           {money} AS money,
           {currency} AS currency,
           sum(rows_won) / (3.0 * sum(hands)) AS rows_won_pct,
           sum(scoops_for) AS scoops_for,
           sum(scoops_against) AS scoops_against,
           sum(royalties_for)::BIGINT AS royalties_for,
           sum(royalties_against)::BIGINT AS royalties_against,
           sum(their_fouls) / nullif(sum(their_set), 0) AS their_foul_rate,
           sum(our_fouls) / nullif(sum(our_set), 0) AS our_foul_rate
    FROM s
    GROUP BY opponent, scoring
)
SELECT opponent, scoring, hands, net_points, points_per_hand,
       points_per_hand - 1.96 * sd / sqrt(hands) AS ci_low,
       points_per_hand + 1.96 * sd / sqrt(hands) AS ci_high,
       money, currency, rows_won_pct, scoops_for, scoops_against, royalties_for,
       royalties_against, their_foul_rate, our_foul_rate
FROM sums
ORDER BY hands DESC, opponent, scoring
"""
""":data:`_TABLE` from the aggregates (the pairs with both players' rows, summed): the
standard deviation from the sums of points and of their squares."""


def table(con: duckdb.DuckDBPyConnection, filters: Filters) -> pd.DataFrame:
    """One row per opponent of the filtered player and scoring system (race points are never
    added to other points): hands together, net points, points per hand with its 95% interval
    (``ci_low``, ``ci_high``; NaN with one hand), money (where the stake is known: points x
    stake; OFC Double: stake x cube of each match won or lost), rows won (share of rows),
    scoops and royalties for and against, their foul rate and ours in those hands."""
    if not player_chosen(filters):
        raise ValueError("the opponents of whom? choose a player first")
    found = agg_where(con, filters)
    if found is not None:
        currency, named = currency_label(con, AGG_MONEY, "currency")
        sql = _TABLE_AGG.format(cond=found[0], money=AGG_MONEY, currency=currency)
        return fetch_df(con, sql, [*found[1], *named])
    head, params = _versus(filters, theirs=False, money=True)
    currency, named = currency_label(con, MONEY_OF_PAIRS, "currency")
    others, more = _others(filters)
    sql = head + _TABLE.format(others=others, money_of_pairs=MONEY_OF_PAIRS, currency=currency)
    return fetch_df(con, sql, [*params, *named, *more, list(SYSTEMS), list(SYSTEMS)])


def _system_cut(scoring: str | None) -> tuple[str, list[Any]]:
    """``versus``' condition of being in ``scoring`` (any system when ``None``) and its
    parameter: nothing when :func:`_versus` kept the hands to it already (a name of
    :data:`SYSTEMS`).

    >>> _system_cut("1-6"), _system_cut(None)
    (('', []), ('AND system = coalesce(?, system)', [None]))
    """
    if scoring in SYSTEMS:
        return "", []
    return "AND system = coalesce(?, system)", [_system(scoring)]


def _system(scoring: str | None) -> int | None:
    """A scoring system's number in ``versus`` (:data:`SYSTEMS`; 0, which no hand has, for a
    name that is none of them), or ``None`` for any system."""
    if scoring is None:
        return None
    return SYSTEMS.index(scoring) + 1 if scoring in SYSTEMS else 0


def _others(filters: Filters) -> tuple[str, list[Any]]:
    """The condition on ``hand_players o`` (joined to ``scope s`` by hand) of being an opponent:
    not my name where a name tells my seat (a filter the scan applies), else not my seat and
    not another of my names at that table."""
    if seat_by_name(filters):
        return not_my_name(filters, "o.player")
    others, more = not_me(filters, "o.player", "o.hand_key")
    return f"o.seat <> s.seat {others}", more


CUMULATIVE_POINTS = 300
"""At most about this many points per opponent line."""

_CUMULATIVE = """
, numbered AS (
    SELECT v.opponent, v.hand_key, v.played_at,
           row_number() OVER w AS hand_no,
           count(*) OVER (PARTITION BY v.line) AS total, v.system,
           sum(v.points) OVER w AS cumulative_points
    FROM (SELECT *, list_position(?, opponent) * {systems} + coalesce(system, 0) AS line
          FROM versus) v
    WINDOW w AS (PARTITION BY v.line ORDER BY v.played_at NULLS LAST, v.hand_key
                 ROWS UNBOUNDED PRECEDING)
)
SELECT opponent, list_extract(?, system) AS scoring, hand_no, hand_key, played_at,
       cumulative_points
FROM numbered
WHERE hand_no % greatest(1, total // ?) = 0 OR hand_no = total
ORDER BY opponent, scoring, hand_no
"""
"""One line per opponent and scoring system, numbered (``line``: the opponent's place in the
list, and the system's) so that the windows partition on one integer, not on two texts (a
third of the query's time)."""

TOP_OPPONENTS = 8
"""Lines on the running-net chart: the opponents met most often."""


def cumulative(con: duckdb.DuckDBPyConnection, filters: Filters,
               opponents: tuple[str, ...]) -> pd.DataFrame:
    """Running net against each of ``opponents`` (the page passes the
    :data:`TOP_OPPONENTS` first rows of :func:`table`), hand by hand in time order, thinned
    to about :data:`CUMULATIVE_POINTS` points per line."""
    head, params = _versus(filters, tuple(opponents), theirs=False)
    sql = head + _CUMULATIVE.format(systems=len(SYSTEMS) + 1)
    return fetch_df(con, sql, [*params, list(opponents), list(SYSTEMS), CUMULATIVE_POINTS])


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
FROM versus WHERE opponent = ? {system}
"""


def head_to_head(con: duckdb.DuckDBPyConnection, filters: Filters, opponent: str,
                 scoring: str | None = None) -> pd.DataFrame:
    """``component``, ``points``, ``hands`` for the filtered player against ``opponent`` (in
    one ``scoring`` system: race points are not added to others); the ``points`` add up to
    the net of that row of :func:`table`."""
    parts = ", ".join(
        f"coalesce(sum(CASE WHEN {cond} THEN {value} ELSE 0 END), 0) AS p{i}, "
        f"count(*) FILTER (WHERE {cond}) AS n{i}"
        for i, (value, cond) in enumerate(COMPONENTS.values()))
    head, params = _versus(filters, (opponent,), scoring=scoring)
    system, more = _system_cut(scoring)
    row = fetch_df(con, head + _SPLIT.format(parts=parts, system=system),
                   [*params, opponent, *more]).iloc[0]
    return pd.DataFrame({
        "component": list(COMPONENTS),
        "points": [float(row[f"p{i}"]) for i in range(len(COMPONENTS))],
        "hands": [int(row[f"n{i}"]) for i in range(len(COMPONENTS))],
    })


_HANDS = """
, picked AS (
    SELECT * FROM versus
    WHERE opponent = ? {system} AND ({cond})
    ORDER BY played_at NULLS LAST, hand_key
    LIMIT ?
)
SELECT v.hand_key, v.played_at, v.utc_offset, h.source, h.hand_id, v.variant, v.player,
       v.opponent,
       v.rows_won, v.rows_lost, v.row_points, v.bonus, v.royalty_net AS royalties, v.fouled,
       v.opponent_fouled, v.points
FROM picked v JOIN hands h ON h.hand_key = v.hand_key
ORDER BY v.played_at NULLS LAST, v.hand_key
"""


def versus_hands(con: duckdb.DuckDBPyConnection, filters: Filters, opponent: str,
                 component: str | None = None, limit: int = 500,
                 scoring: str | None = None) -> pd.DataFrame:
    """The hands of the filtered player against ``opponent`` (only those carrying ``component`` of
    :data:`COMPONENTS` when given), with the pair's settlement."""
    cond = COMPONENTS[component][1] if component else "TRUE"
    head, params = _versus(filters, (opponent,), scoring=scoring)
    system, more = _system_cut(scoring)
    return fetch_df(con, head + _HANDS.format(cond=cond, system=system),
                    [*params, opponent, *more, int(limit)])


def page(con: duckdb.DuckDBPyConnection, filters: Filters) -> tuple[pd.DataFrame, ...]:
    """What the Opponents page runs on first load: the table, the running net of the most
    frequent opponents, and the head-to-head with the first of them and its hands."""
    first = table(con, filters)
    if first.empty:
        return (first,)
    names = tuple(dict.fromkeys(str(o) for o in first["opponent"]))[:TOP_OPPONENTS]
    scoring = str(first["scoring"].iloc[0])
    return (first, cumulative(con, filters, names),
            head_to_head(con, filters, names[0], scoring),
            versus_hands(con, filters, names[0], scoring=scoring))


BENCHMARK_QUERIES = [("page", page)]
"""What the Opponents page runs on first load (``benchmarks/bench_dashboard.py``)."""
