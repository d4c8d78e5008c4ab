"""Overview page queries: the player's totals, the cumulative points graph, the sessions.

Every number is read from the stored results (``hand_players``, ``pairs``); nothing is
rescored here.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import pandas as pd

from dashboard.queries.common import PLAYER_HANDS, Filters, fetch_all, fetch_df, where

Z95 = 1.959964
GRAPH_POINTS = 4000
"""The cumulative graph keeps at most about this many points (every k-th hand, plus the last)."""


@dataclass(frozen=True, slots=True)
class Summary:
    """The headline numbers of the filtered hands.

    ``ci95`` is the half-width of the 95% confidence interval of ``per_hand`` (normal
    approximation, ``1.96 * sd / sqrt(n)``; ``None`` under two hands). Rates are fractions in
    0..1, ``None`` when nothing to count: ``fl_entry`` over hands not played in Fantasyland,
    ``fl_stay`` over hands played in it. ``money`` maps currency (``''`` when unnamed) to the
    net amount over the hands with a known stake.
    """

    hands: int
    net_points: float
    per_hand: float | None
    ci95: float | None
    foul_rate: float | None
    fl_entry: float | None
    fl_stay: float | None
    fl_hands: int
    avg_royalties: float | None
    money: tuple[tuple[str, float, int], ...]
    """(currency, net amount, hands with that stake)."""


def summary(con: Any, filters: Filters) -> Summary:
    cond, params = where(filters)
    row = fetch_all(con, f"""
        SELECT count(*), coalesce(sum(hp.points), 0), avg(hp.points), stddev_samp(hp.points),
               avg(CASE WHEN NOT hp.surrendered THEN hp.fouled::INT END),
               avg(CASE WHEN NOT hp.fantasyland THEN (hp.fantasyland_next > 0)::INT END),
               avg(CASE WHEN hp.fantasyland THEN (hp.fantasyland_next > 0)::INT END),
               count(*) FILTER (WHERE hp.fantasyland),
               avg(hp.royalties)
        {PLAYER_HANDS} WHERE {cond}""", params)[0]
    hands, net, mean, sd, foul, entry, stay, fl_hands, royalties = row
    ci = Z95 * sd / math.sqrt(hands) if hands >= 2 and sd is not None else None
    money = fetch_all(con, f"""
        SELECT coalesce(h.currency, ''), sum(hp.points * h.stake), count(*)
        {PLAYER_HANDS} WHERE {cond} AND h.stake IS NOT NULL
        GROUP BY 1 ORDER BY 3 DESC""", params)
    return Summary(hands=hands, net_points=float(net), per_hand=mean, ci95=ci, foul_rate=foul,
                   fl_entry=entry, fl_stay=stay, fl_hands=fl_hands, avg_royalties=royalties,
                   money=tuple((c, float(m), n) for c, m, n in money))


def cumulative(con: Any, filters: Filters, max_points: int = GRAPH_POINTS) -> pd.DataFrame:
    """Running totals in play order, one row per kept hand: ``n`` (hand number), ``hand_key``,
    ``played_at``, ``points`` (that hand), ``total``, ``without_fl`` (hands not played in
    Fantasyland), ``royalties`` (net royalties exchanged) and ``row_points`` (rows and bonuses
    won), all cumulative. Long histories keep every k-th hand and the last one."""
    cond, params = where(filters)
    return fetch_df(con, f"""
        WITH mine AS (
            SELECT h.hand_key, h.played_at, hp.seat, hp.points, hp.fantasyland
            {PLAYER_HANDS} WHERE {cond}
        ), exchanged AS (
            SELECT p.hand_key, sum(p.royalties) AS royalties,
                   sum(p.row_points + p.bonus) AS row_points
            FROM pairs p JOIN mine m ON p.hand_key = m.hand_key AND p.seat = m.seat
            GROUP BY p.hand_key
        ), series AS (
            SELECT row_number() OVER w AS n, m.hand_key, m.played_at, m.points,
                   sum(m.points) OVER w AS total,
                   sum(CASE WHEN m.fantasyland THEN 0 ELSE m.points END) OVER w AS without_fl,
                   sum(coalesce(e.royalties, 0)) OVER w AS royalties,
                   sum(coalesce(e.row_points, 0)) OVER w AS row_points,
                   count(*) OVER () AS hands
            FROM mine m LEFT JOIN exchanged e ON e.hand_key = m.hand_key
            WINDOW w AS (ORDER BY m.played_at NULLS FIRST, m.hand_key
                         ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW)
        )
        SELECT n, hand_key, played_at, points, total, without_fl, royalties, row_points
        FROM series
        WHERE hands <= ? OR n % (hands // ?) = 0 OR n = hands
        ORDER BY n""", [*params, max_points, max_points])


def sessions(con: Any, filters: Filters, limit: int = 500) -> pd.DataFrame:
    """One row per session (newest first): ``session``, ``started``, ``hands``, ``points``,
    ``per_hand``, ``foul_rate``, ``fl_hands``, ``money`` (where stakes are known) and
    ``first_hand`` (the hand key that opens the session)."""
    cond, params = where(filters)
    return fetch_df(con, f"""
        SELECT coalesce(h.session_id, '(none)') AS session, min(h.played_at) AS started,
               count(*) AS hands, sum(hp.points) AS points, avg(hp.points) AS per_hand,
               avg(hp.fouled::INT) AS foul_rate,
               count(*) FILTER (WHERE hp.fantasyland) AS fl_hands,
               sum(hp.points * h.stake) AS money,
               arg_min(h.hand_key, (h.played_at, h.hand_key)) AS first_hand
        {PLAYER_HANDS} WHERE {cond}
        GROUP BY h.session_id ORDER BY started DESC NULLS LAST, session LIMIT ?""",
        [*params, limit])
