"""The Tournaments page's SQL: every tournament of the chosen players with buy-in, place, prize
and profit, the totals (tournaments, ROI, in the money, average place, profit by buy-in, kind and
date), a tournament's chips hand by hand and a knockout's series. It reads the derived tables
``tournament_players``, ``tournament_chips`` and ``tournament_series`` (docs/schema.md,
"Tournaments"), never the cash hands' money: tournament chips are never summed with money.

A store without those tables (older, or a Parquet export) has no tournaments:
:func:`available` says so and the page says how to get them.
"""

from __future__ import annotations

from typing import Any

import duckdb

from dashboard.queries.fetch import Connection, fetch_all

PLAYER_COLUMNS = ("source", "tournament_id", "name", "kind", "started", "player", "entrants",
                  "hands", "place", "place_from", "prize", "buy_in", "fee", "currency",
                  "profit", "final_stack")


def _dicts(con: Connection, sql: str, params: list[Any], columns: tuple[str, ...],
           ) -> list[dict[str, Any]]:
    return [dict(zip(columns, row, strict=True)) for row in fetch_all(con, sql, params)]


def available(con: Connection) -> bool:
    """Whether the store has the tournament tables."""
    try:
        fetch_all(con, "SELECT 1 FROM tournament_players LIMIT 0")
    except duckdb.CatalogException:
        return False
    return True


def present(con: Connection) -> bool:
    """Whether the store holds any tournament hand (the sidebar's Game filter is shown, and
    leaves them out of the cash pages, only then)."""
    try:
        return bool(fetch_all(con, "SELECT count(*) > 0 FROM (SELECT 1 FROM tournament_chips "
                                   "LIMIT 1)")[0][0])
    except duckdb.CatalogException:
        return False


def _names(players: tuple[str, ...]) -> tuple[str, list[Any]]:
    return f"player IN ({', '.join('?' * len(players))})", list(players)


_SELECT = ("SELECT source, tournament_id, coalesce(name, tournament_id), kind, "
           "CAST(started AS VARCHAR), player, entrants, hands, place, place_from, prize, "
           "buy_in, fee, currency, profit, final_stack FROM tournament_players")


def tournaments_of(con: Connection, players: tuple[str, ...]) -> list[dict[str, Any]]:
    """Every tournament the players played, newest first."""
    if not players:
        return []
    cond, params = _names(players)
    return _dicts(con, f"{_SELECT} WHERE {cond} ORDER BY started DESC NULLS LAST, "
                       "tournament_id, player", params, PLAYER_COLUMNS)


def tournament_players(con: Connection, source: str, tournament_id: str,
                       ) -> list[dict[str, Any]]:
    """Everyone in one tournament, by place."""
    return _dicts(con, f"{_SELECT} WHERE source = ? AND tournament_id = ? "
                       "ORDER BY place NULLS LAST, player", [source, tournament_id],
                  PLAYER_COLUMNS)


def totals(con: Connection, players: tuple[str, ...]) -> dict[str, Any]:
    """Tournaments played, their cost, prizes and profit (where the buy-in is known), ROI
    (profit over cost), in-the-money share (a prize won), average place."""
    keys = ("tournaments", "cost", "prizes", "profit", "roi", "itm", "average_place")
    if not players:
        return dict.fromkeys(keys)
    cond, params = _names(players)
    row = fetch_all(con, f"""
        SELECT count(*), sum(buy_in + coalesce(fee, 0)), sum(prize), sum(profit),
               sum(profit) / nullif(sum(buy_in + coalesce(fee, 0)), 0),
               avg(CASE WHEN prize IS NULL THEN NULL ELSE (prize > 0)::INTEGER END),
               avg(place)
        FROM tournament_players WHERE {cond}""", params)[0]
    return dict(zip(keys, row, strict=True))


BY = {"kind": "kind", "buy_in": "buy_in", "date": "CAST(CAST(started AS DATE) AS VARCHAR)"}
"""What :func:`profit_by` can group by, and its SQL."""


def profit_by(con: Connection, players: tuple[str, ...], by: str) -> list[dict[str, Any]]:
    """Tournaments, cost and profit grouped by kind, buy-in or date (with the currency: money
    of two currencies is never summed)."""
    if not players:
        return []
    cond, params = _names(players)
    return _dicts(con, f"""
        SELECT {BY[by]} AS key, currency, count(*), sum(buy_in + coalesce(fee, 0)), sum(profit)
        FROM tournament_players WHERE {cond} GROUP BY ALL ORDER BY key NULLS LAST""", params,
                  (by, "currency", "tournaments", "cost", "profit"))


def chips_graph(con: Connection, source: str, tournament_id: str, player: str,
                ) -> list[dict[str, Any]]:
    """A player's chips after every hand of a chip tournament, with each hand's level."""
    return _dicts(con, """
        SELECT hand_no, hand_id, CAST(played_at AS VARCHAR), level, chips_per_point,
               stack_before, chips, stack_after
        FROM tournament_chips WHERE source = ? AND tournament_id = ? AND player = ?
        ORDER BY hand_no""", [source, tournament_id, player],
                  ("hand_no", "hand_id", "played_at", "level", "chips_per_point",
                   "stack_before", "chips", "stack_after"))


def series(con: Connection, source: str, tournament_id: str) -> list[dict[str, Any]]:
    """A knockout's series, round by round."""
    return _dicts(con, """
        SELECT round, player_a, player_b, wins_a, wins_b, winner, forfeit, matches, series_from
        FROM tournament_series WHERE source = ? AND tournament_id = ?
        ORDER BY round, player_a""", [source, tournament_id],
                  ("round", "player_a", "player_b", "wins_a", "wins_b", "winner", "forfeit",
                   "matches", "series_from"))


def players_with_tournaments(con: Connection) -> list[str]:
    """Every player of a stored tournament, most tournaments first."""
    return [r[0] for r in fetch_all(con, "SELECT player FROM tournament_players GROUP BY 1 "
                                         "ORDER BY count(*) DESC, player")]


BENCHMARK_QUERIES: dict[str, Any] = {}
"""No query of this page reads the hands: they read the small derived tables."""
