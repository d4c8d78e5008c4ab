"""The Overview graph by date, and in money: the filtered player's results day by day, and
the running money of each currency hand by hand.

The graph by hand number in points is :func:`dashboard.queries.overview.cumulative`. Money is
the stored ``hand_players.money`` (its rule: :mod:`ingest.money`): points x
stake, OFC Double's stake x cube on the hand that ends a match; hands without a stake have
none and are left out of a money graph. A day is a date on the clock the user chose for
times (:mod:`dashboard.timefmt`): each log's own (its ``utc_offset``; UTC when unknown) by
default, else a named zone. Hands without a date are left out of a graph by date.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from dashboard.queries.conditions import PLAYER_ROWS, where
from dashboard.queries.fetch import Connection, fetch_df
from dashboard.queries.filter_set import Filters
from dashboard.queries.labels import point_sql, race_count

LOG_CLOCK = None
"""``zone`` for days on each log's own clock."""

_LOG_DAY = ("CAST(timezone('UTC', hp.played_at) + to_minutes(coalesce(hp.utc_offset, 0)::BIGINT)"
            " AS DATE)")
_ZONE_DAY = "CAST(timezone(?, hp.played_at) AS DATE)"


def day_sql(zone: str | None) -> tuple[str, list[Any]]:
    """A hand's day (``hp`` a ``hand_players`` row): on its log's clock (``zone`` ``None``),
    else in the named ``zone`` (bound).

    >>> day_sql("UTC")
    ('CAST(timezone(?, hp.played_at) AS DATE)', ['UTC'])
    """
    if zone is LOG_CLOCK:
        return _LOG_DAY, []
    return _ZONE_DAY, [zone]


def by_day(con: Connection, filters: Filters, zone: str | None = LOG_CLOCK) -> pd.DataFrame:
    """One row per day, currency and stake of the filtered player's dated hands, in time
    order: ``day``, ``currency`` (``''``: none named), ``stake`` (NaN: none), ``hands``,
    ``points``, ``plain_points`` (without race points), ``race_hands``, ``money`` (NaN
    without a stake) and ``last_hand`` (the day's last hand key, which a click opens)."""
    cond, params = where(filters)
    day, zone_params = day_sql(zone)
    return fetch_df(con, f"""
        SELECT {day} AS day, coalesce(hp.currency, '') AS currency, hp.stake,
               count(*) AS hands, sum(hp.points) AS points,
               coalesce(sum({point_sql("hp")}), 0) AS plain_points,
               {race_count("hp.scoring")} AS race_hands,
               sum(hp.money) AS money,
               arg_max(hp.hand_key, hp.played_at) AS last_hand
        {PLAYER_ROWS} WHERE {cond} AND hp.played_at IS NOT NULL
        GROUP BY 1, 2, 3 ORDER BY 1, 2, 3""", [*zone_params, *params])


def points_by_day(days: pd.DataFrame) -> pd.DataFrame:
    """:func:`by_day` summed per day: ``day``, ``hands``, ``points`` (the day's; without race
    points when the hands mix race scoring with another system, as every total),
    ``total`` (running) and ``last_hand``.

    >>> days = pd.DataFrame({"day": ["d1", "d1", "d2"], "currency": ["", "EUR", "EUR"],
    ...     "stake": [None, 1.0, 1.0], "hands": [1, 2, 3], "points": [6.0, -2.0, 4.0],
    ...     "plain_points": [6.0, -2.0, 4.0], "race_hands": [0, 0, 0],
    ...     "money": [None, -2.0, 4.0], "last_hand": [1, 3, 6]})
    >>> points_by_day(days)[["day", "hands", "points", "total", "last_hand"]].values.tolist()
    [['d1', 3, 4.0, 4.0, 3], ['d2', 3, 4.0, 8.0, 6]]
    """
    race, hands = int(days["race_hands"].sum()), int(days["hands"].sum())
    column = "plain_points" if 0 < race < hands else "points"
    out = days.groupby("day", sort=True).agg(
        hands=("hands", "sum"), points=(column, "sum"), last_hand=("last_hand", "max"))
    out = out.reset_index()
    out["total"] = out["points"].cumsum()
    return out[["day", "hands", "points", "total", "last_hand"]]


def money_by_day(days: pd.DataFrame) -> pd.DataFrame:
    """:func:`by_day`'s hands with a stake, summed per currency and day: ``currency``,
    ``day``, ``hands``, ``money`` (the day's), ``total`` (running, per currency), ``stakes``
    (the day's stakes, ``'0.5, 1'``) and ``last_hand``.

    >>> days = pd.DataFrame({"day": ["d1", "d1", "d2"], "currency": ["", "EUR", "EUR"],
    ...     "stake": [None, 1.0, 0.5], "hands": [1, 2, 3], "money": [None, -2.0, 4.0],
    ...     "last_hand": [1, 3, 6]})
    >>> money_by_day(days)[["currency", "day", "money", "total", "stakes"]].values.tolist()
    [['EUR', 'd1', -2.0, -2.0, '1'], ['EUR', 'd2', 4.0, 2.0, '0.5']]
    """
    staked = days[days["stake"].notna()]
    out = staked.groupby(["currency", "day"], sort=True).agg(
        hands=("hands", "sum"), money=("money", "sum"), last_hand=("last_hand", "max"),
        stakes=("stake", lambda s: ", ".join(f"{v:g}" for v in sorted(set(s)))))
    out = out.reset_index()
    out["total"] = out.groupby("currency")["money"].cumsum()
    return out[["currency", "day", "hands", "money", "total", "stakes", "last_hand"]]


MONEY_POINTS = 2000
"""The money graph by hand keeps at most about this many points per currency."""


def money_by_hand(con: Connection, filters: Filters, max_points: int = MONEY_POINTS
                  ) -> pd.DataFrame:
    """The running money of each currency over the filtered player's hands with a stake, in
    play order (``played_at``, then ``hand_key``): ``currency`` (``''``: none named), ``n``
    (the hand's number among that currency's hands with money), ``hand_key``,
    ``played_at``, ``utc_offset``, ``stake``, ``money`` (that hand's) and ``total``. Long
    histories keep a currency's first and last hand and its running total's extremes
    (:func:`extremes`)."""
    cond, params = where(filters)
    rows = fetch_df(con, f"""
        SELECT coalesce(hp.currency, '') AS currency, hp.hand_key, hp.played_at,
               hp.utc_offset, hp.stake, hp.money AS money
        {PLAYER_ROWS} WHERE {cond} AND hp.money IS NOT NULL
        ORDER BY currency, hp.played_at NULLS FIRST, hp.hand_key""", params)
    parts = []
    for _, group in rows.groupby("currency", sort=True):
        group = group.reset_index(drop=True)
        group["n"] = np.arange(1, len(group) + 1)
        group["total"] = group["money"].cumsum()
        parts.append(group.iloc[extremes([group["total"].to_numpy()], max_points)])
    columns = ["currency", "n", "hand_key", "played_at", "utc_offset", "stake", "money", "total"]
    if not parts:
        return pd.DataFrame(columns=columns)
    return pd.concat(parts, ignore_index=True)[columns]


def extremes(lines: list[np.ndarray], max_points: int) -> np.ndarray:
    """Indexes of the rows a graph of ``lines`` (equal-length series over the same x) keeps,
    sorted: all when there are at most ``max_points``; else both ends and, in each of up to
    ``(max_points - 2) // (2 * len(lines))`` equal buckets of x, the first minimum and the
    first maximum of every line, so each drawn line still reaches every peak and trough a
    screen can show (what every k-th point would skip). A line of NaN only is left out of
    the choice; NaN elsewhere is passed over.

    >>> y = np.array([0, 5, -3, 2, 9, 1, 4, -8, 6, 2.0])
    >>> extremes([y], 6).tolist()  # two buckets of five: their min and max, and both ends
    [0, 2, 4, 7, 8, 9]
    >>> extremes([y], 20).tolist() == list(range(10))
    True
    """
    count = len(lines[0]) if lines else 0
    if count <= max_points:
        return np.arange(count)
    shown = [np.asarray(y, dtype=float) for y in lines]
    shown = [y for y in shown if not np.isnan(y).all()] or [np.zeros(count)]
    buckets = max(1, (max_points - 2) // (2 * len(shown)))
    starts = (np.arange(buckets) * count) // buckets
    bucket = np.repeat(np.arange(buckets), np.diff(np.append(starts, count)))
    keep = [np.array([0, count - 1])]
    for y in shown:
        for reduce, fill in ((np.minimum, np.inf), (np.maximum, -np.inf)):
            values = np.where(np.isnan(y), fill, y)
            best = reduce.reduceat(values, starts)
            hits = np.flatnonzero(values == best[bucket])
            keep.append(hits[np.unique(bucket[hits], return_index=True)[1]])
    return np.unique(np.concatenate(keep))
