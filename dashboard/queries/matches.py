"""OFC Double matches: race to the target (31) with a doubling cube.

A match is the hands sharing a ``match_id``. Its hands' ``events`` (ofc-hh/1, see
``docs/format.md``) say what happened between hands: ``double`` (``by_player`` offered,
``accepted`` true or false, ``data.cube`` the cube after it) and ``match_end`` (the winner in
``by_player`` or ``data.winner``; ``data.reason`` such as 'target' or 'declined',
``data.cube`` the final cube, ``data.score`` the race points). A match without ``match_end``
is unfinished.

The money of a match, from the player's side, is stake x final cube (the cube from
``match_end``, else 2 to the number of accepted doubles), positive if the player won it and
negative if they lost: the stored ``hand_players.money`` (its one definition is
:mod:`ingest.money`), which every page reads, so Overview, Sessions and Opponents give the same
money. The points are the banked
race points stored per hand (``hand_players.points``); nothing is rescored here.
"""

from __future__ import annotations

from typing import Any

import duckdb
import pandas as pd

from dashboard.queries.aggregated import agg_where
from dashboard.queries.common import (
    CUBE,
    Filters,
    fetch_df,
    names_in,
    not_me,
    player_chosen,
)
from dashboard.queries.sessions import hand_list, scope_cte
from ingest import api

_MATCHES = """
, mine AS (
    -- scope holds only the player's rows (one per hand: "me" counts a hand once)
    SELECT * FROM scope WHERE match_id IS NOT NULL
), opp AS (
    -- the opponent's side of each pair: what they banked against the player
    SELECT q.hand_key, q.player AS opponent, q.points AS opponent_points
    -- only the keys of mine: with its other columns DuckDB built the hash table on the
    -- pairs (ten times the rows) and the query took half as long again
    FROM pairs q JOIN (SELECT hand_key, seat FROM mine) m
         ON m.hand_key = q.hand_key AND q.opp_seat = m.seat
    WHERE {first_cut} {others}  -- the seat says whose: the name only cuts the scan early
), ends AS (
    SELECT m.match_id,
           any_value({winner}) AS winner,
           bool_or({winner} = m.player) AS winner_is_player,
           any_value(json_extract_string(e.data, '$.reason')) AS reason,
           any_value({cube}) AS end_cube
    FROM mine m JOIN events e ON e.hand_key = m.hand_key
    WHERE e.type = 'match_end'
    GROUP BY m.match_id
), cubes AS (
    SELECT m.match_id,
           count(*) AS offers,
           count(*) FILTER (WHERE e.accepted) AS taken,
           count(*) FILTER (WHERE NOT e.accepted) AS declined
    FROM mine m JOIN events e ON e.hand_key = m.hand_key
    WHERE e.type = 'double'
    GROUP BY m.match_id
), played AS (
    SELECT m.match_id, min(m.played_at) AS started, max(m.played_at) AS ended,
           min(m.utc_offset) AS utc_offset,
           count(*) AS hands, string_agg(DISTINCT o.opponent, ', ' ORDER BY o.opponent) AS opponent,
           sum(m.points) AS points, sum(o.opponent_points) AS opponent_points,
           any_value(m.stake) AS stake, any_value(m.currency) AS currency,
           sum({money}) AS match_money
    FROM mine m LEFT JOIN opp o ON o.hand_key = m.hand_key
    GROUP BY m.match_id
), matches AS (
    SELECT p.* EXCLUDE (match_money), e.winner, e.reason,
           coalesce(c.offers, 0) AS offers, coalesce(c.taken, 0) AS taken,
           coalesce(c.declined, 0) AS declined,
           coalesce(e.end_cube, CAST(2 ** coalesce(c.taken, 0) AS INTEGER)) AS cube,
           CASE WHEN e.winner IS NULL THEN NULL ELSE e.winner_is_player END AS won,
           CASE WHEN e.winner IS NULL THEN NULL ELSE p.match_money END AS money
    FROM played p LEFT JOIN ends e ON e.match_id = p.match_id
                  LEFT JOIN cubes c ON c.match_id = p.match_id
)
"""


WINNER = "coalesce(nullif(e.by_player, ''), json_extract_string(e.data, '$.winner'))"
"""The winner a ``match_end`` event names."""


def _matches(filters: Filters) -> tuple[str, list[Any]]:
    if not player_chosen(filters):
        raise ValueError("whose matches? choose a player first")
    head, params = scope_cte(filters)
    first_cut, first = names_in(filters, "q.opponent")
    others, more = not_me(filters, "q.player", "q.hand_key")
    sql = head + _MATCHES.format(cube=CUBE, money="m.money", first_cut=first_cut,
                                 others=others, winner=WINNER)
    return sql, [*params, *first, *more]


_AGG_ROW = """a.match_id, a.started, a.ended, a.utc_offset, a.hands,
           nullif(array_to_string(a.opponents, ', '), '') AS opponent, a.points,
           a.opponent_points, a.stake, a.currency, a.money AS match_money, a.winner,
           a.winner_is_player, a.reason, a.end_cube, coalesce(a.offers, 0) AS offers,
           coalesce(a.taken, 0) AS taken, coalesce(a.declined, 0) AS declined"""
"""A match that is one row of ``agg_matches`` (one session hour): its columns as they are."""

_AGG_SUM = """a.match_id, min(a.started), max(a.ended), min(a.utc_offset), sum(a.hands)::BIGINT,
           nullif(array_to_string(list_sort(list_distinct(flatten(list(a.opponents)))), ', '),
                  ''),
           sum(a.points), sum(a.opponent_points), any_value(a.stake), any_value(a.currency),
           sum(a.money), any_value(a.winner), bool_or(a.winner_is_player), any_value(a.reason),
           any_value(a.end_cube), coalesce(sum(a.offers), 0)::BIGINT,
           coalesce(sum(a.taken), 0)::BIGINT, coalesce(sum(a.declined), 0)::BIGINT"""
"""A match over several rows of ``agg_matches``: the same columns, added up."""

_MATCHES_AGG = f"""
WITH picked AS MATERIALIZED (
    SELECT * FROM agg_matches a WHERE {{cond}}
), multi AS (
    SELECT match_id FROM picked GROUP BY match_id HAVING count(*) > 1
), played AS (
    SELECT {_AGG_ROW}
    FROM picked a ANTI JOIN multi m ON m.match_id = a.match_id
    UNION ALL
    SELECT {_AGG_SUM}
    FROM picked a SEMI JOIN multi m ON m.match_id = a.match_id
    GROUP BY a.match_id
), matches AS (
    SELECT p.* EXCLUDE (match_money, winner, winner_is_player, reason, end_cube, offers,
                        taken, declined),
           p.winner, p.reason, p.offers, p.taken, p.declined,
           coalesce(p.end_cube, CAST(2 ** p.taken AS INTEGER)) AS cube,
           CASE WHEN p.winner IS NULL THEN NULL ELSE p.winner_is_player END AS won,
           CASE WHEN p.winner IS NULL THEN NULL ELSE p.match_money END AS money
    FROM played p
)
"""
"""The matches of :data:`_MATCHES` from ``agg_matches``: a match within one row taken as it is,
one over several rows (it spans hours, rooms or stakes) added up (grouping every match costs
a third more at ten million hands)."""

_TABLE = "SELECT * FROM matches ORDER BY started NULLS LAST, match_id"


def table(con: duckdb.DuckDBPyConnection, filters: Filters) -> pd.DataFrame:
    """One row per match of the filtered player, in time order: ``match_id``, ``started``,
    ``hands``, ``opponent`` (the opponents' names in order, comma separated), ``points`` and
    ``opponent_points`` (the race points each banked against the other), ``winner``,
    ``won`` (None while unfinished), ``reason``, cube ``offers`` / ``taken`` / ``declined``,
    final ``cube``, ``stake``, ``money``. From ``agg_matches`` when the aggregates answer the
    filters (:func:`dashboard.queries.aggregated.agg_where`), else from the hands."""
    if not player_chosen(filters):
        raise ValueError("whose matches? choose a player first")
    found = agg_where(con, filters)
    if found is not None:
        return fetch_df(con, _MATCHES_AGG.format(cond=found[0]) + _TABLE, found[1])
    head, params = _matches(filters)
    return fetch_df(con, head + _TABLE, params)


def summary_of(matches: pd.DataFrame) -> dict[str, float | int | None]:
    """The headline numbers of a :func:`table`: ``matches``, ``finished``, ``won``,
    ``win_rate`` (of finished matches), ``hands``, ``money`` and ``money_per_match`` (over
    matches with a stake; ``None`` without any)."""
    finished = matches["won"].dropna().astype(bool)
    money = matches["money"].dropna()
    return {
        "matches": len(matches),
        "finished": len(finished),
        "won": int(finished.sum()),
        "win_rate": float(finished.mean()) if len(finished) else None,
        "hands": int(matches["hands"].sum()),
        "money": float(money.sum()) if len(money) else None,
        "money_per_match": float(money.mean()) if len(money) else None,
    }


def summary(con: duckdb.DuckDBPyConnection, filters: Filters) -> dict[str, float | int | None]:
    """:func:`summary_of` the player's matches."""
    return summary_of(table(con, filters))


DECISION = api.DECISION_SQL
"""A ``double`` event ``e`` as one of :data:`DECISIONS` for the row ``s``."""

_OFFERS = """
SELECT s.match_id, s.hand_key, s.played_at, s.utc_offset, e.idx, e.by_player AS offered_by,
       e.accepted,
       {cube} AS cube_after,
       {decision} AS decision
FROM scope s JOIN events e ON e.hand_key = s.hand_key
WHERE s.match_id IS NOT NULL AND e.type = 'double'
ORDER BY s.played_at NULLS LAST, s.hand_key, e.idx
"""


_OFFERS_AGG = """
SELECT a.match_id, a.hand_key, a.played_at, a.utc_offset, a.idx, a.offered_by, a.accepted,
       a.cube_after, a.decision
FROM agg_offers a WHERE {cond}
ORDER BY a.played_at NULLS LAST, a.hand_key, a.idx
"""
""":data:`_OFFERS` from ``agg_offers`` (the same rows, kept with their group's columns)."""


def offers(con: duckdb.DuckDBPyConnection, filters: Filters) -> pd.DataFrame:
    """Every doubling offer in the player's matches: ``match_id``, ``hand_key`` (the hand
    after which it was offered), ``played_at``, ``offered_by``, ``accepted``, ``cube_after``,
    ``decision`` (one of :data:`DECISIONS`). From ``agg_offers`` when the aggregates answer
    the filters, else from the hands and their events."""
    if not player_chosen(filters):
        raise ValueError("whose matches? choose a player first")
    found = agg_where(con, filters)
    if found is not None:
        return fetch_df(con, _OFFERS_AGG.format(cond=found[0]), found[1])
    head, params = scope_cte(filters)
    sql = head + _OFFERS.format(cube=CUBE, decision=DECISION)
    return fetch_df(con, sql, params)


def cube_decisions_of(offered: pd.DataFrame, matches: pd.DataFrame) -> pd.DataFrame:
    """:func:`offers` with what came of each match (``won``, ``money`` of the whole match,
    from :func:`table`)."""
    results = matches[["match_id", "won", "money"]]
    return offered.merge(results, on="match_id", how="left").drop(columns=["idx"])


DECISIONS = ("I doubled, they took", "I doubled, they declined", "they doubled, I took",
             "they doubled, I declined")


def cube_summary_of(decisions: pd.DataFrame) -> pd.DataFrame:
    """Per kind of cube decision (:data:`DECISIONS`) of :func:`cube_decisions_of`:
    ``decisions``, ``matches_won`` and ``matches_lost`` afterwards, and the ``money`` of those
    matches."""
    won = decisions["won"]
    grouped = decisions.assign(
        matches_won=won.eq(True), matches_lost=won.eq(False),
    ).groupby("decision", sort=False).agg(
        decisions=("decision", "size"), matches_won=("matches_won", "sum"),
        matches_lost=("matches_lost", "sum"), money=("money", lambda m: m.sum(min_count=1)),
    ).reset_index()
    order = {c: i for i, c in enumerate(DECISIONS)}
    return grouped.sort_values("decision", key=lambda c: c.map(order)).reset_index(drop=True)


def match_hands(con: duckdb.DuckDBPyConnection, filters: Filters, match_id: str) -> pd.DataFrame:
    """The player's hands of one match."""
    return hand_list(con, filters, "s.match_id", match_id)


BENCHMARK_QUERIES = [
    ("table", table),
    ("offers", offers),
]
"""What the Matches page runs on first load (``benchmarks/bench_dashboard.py``)."""
