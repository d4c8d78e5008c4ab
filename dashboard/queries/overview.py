"""Overview page queries: the player's totals, the cumulative points graph, the sessions.

Every number is read from the stored results (``hand_players``, ``pairs``); nothing is
rescored here.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from dashboard.queries import curve, review
from dashboard.queries.aggregated import agg_where, tagged_rows
from dashboard.queries.common import (
    PLAYER_ROWS,
    RACE,
    Filters,
    fetch_all,
    fetch_all_numpy,
    fetch_df,
    names_in,
    player_chosen,
    scoring_label,
    where,
)
from dashboard.queries.conditions import tagged
from dashboard.queries.curve import NO_OFFSET, NULL_TIME_FIRST
from dashboard.queries.graphs import extremes

Z95 = 1.959964
GRAPH_POINTS = 2000
"""The cumulative graph keeps at most this many points: the first and last hand and every line's
extremes in each of a few hundred buckets (:func:`dashboard.queries.graphs.extremes`)."""


@dataclass(frozen=True, slots=True)
class Summary:
    """The headline numbers of the filtered hands.

    ``ci95`` is the half-width of the 95% confidence interval of ``per_hand`` (normal
    approximation, ``1.96 * sd / sqrt(n)``; ``None`` under two hands). Rates are fractions in
    0..1, ``None`` when nothing to count: ``fl_entry`` over hands not played in Fantasyland,
    ``fl_stay`` over hands played in it. ``money`` maps currency (``''`` when unnamed) to the
    net amount over the hands with a known stake (OFC Double: its matches' stake x cube).

    Race points (OFC Double) are not added to other points: when the hands mix race scoring
    with another system, ``net_points``, ``per_hand`` and ``ci95`` are over the other hands
    only and ``race_left_out`` says how many race hands were left out. ``by_scoring`` gives
    (scoring system, hands, points) for each system.
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
    race_left_out: int = 0
    by_scoring: tuple[tuple[str, int, float], ...] = ()


_SUMMARY_ROWS = """
SELECT hp.stake IS NOT NULL, coalesce(hp.currency, ''), hp.scoring, count(*),
       coalesce(sum(hp.points), 0), coalesce(sum(hp.points * hp.points), 0),
       count_if(NOT hp.surrendered),
       count_if(hp.fouled AND NOT hp.surrendered),
       count_if(NOT hp.fantasyland),
       count_if(hp.fantasyland_next > 0 AND NOT hp.fantasyland),
       count_if(hp.fantasyland),
       count_if(hp.fantasyland_next > 0 AND hp.fantasyland),
       coalesce(sum(hp.royalties), 0), sum(hp.money)
{rows} WHERE {cond}
GROUP BY 1, 2, 3 ORDER BY 4 DESC, 2, 3, 1"""

_SUMMARY_AGG = """
SELECT a.stake IS NOT NULL, coalesce(a.currency, ''), a.scoring, sum(a.hands),
       coalesce(sum(a.points), 0), coalesce(sum(a.points_sq), 0),
       sum(a.hands_set), sum(a.fouls),
       sum(a.hands - a.fl_hands), sum(a.entries), sum(a.fl_hands), sum(a.stays),
       coalesce(sum(a.royalties), 0), sum(a.money)
FROM agg_players a WHERE {cond}
GROUP BY 1, 2, 3 ORDER BY 4 DESC, 2, 3, 1"""
""":data:`_SUMMARY_ROWS` from the aggregates (the same groups, the same columns)."""


def summary(con: Any, filters: Filters) -> Summary:
    """One pass over the player's hands (or their aggregates,
    :mod:`dashboard.queries.aggregated`), grouped by stake currency and scoring, then
    combined."""
    found = agg_where(con, filters)
    cond, params = found or where(filters)
    sql = _SUMMARY_AGG.format(cond=cond) if found else _SUMMARY_ROWS.format(
        rows=tagged_rows(con, filters), cond=cond)
    groups = fetch_all(con, sql, params)
    n, _, _, set_, fouls, regular, entries, fl_hands, stays, royalties = (
        sum(g[k] for g in groups) for k in range(3, 13))
    mixed = len({g[2] == RACE for g in groups}) > 1
    counted = [g for g in groups if not (mixed and g[2] == RACE)]
    points_n, total, squares = (sum(g[k] for g in counted) for k in range(3, 6))

    def ratio(part: float, whole: float) -> float | None:
        return part / whole if whole else None

    mean = ratio(total, points_n)
    ci = None
    if points_n >= 2 and mean is not None:
        variance = max(0.0, (squares - points_n * mean * mean) / (points_n - 1))
        ci = Z95 * math.sqrt(variance) / math.sqrt(points_n)
    money: dict[str, tuple[float, int]] = {}
    for staked, currency, _, hands, *_, amount in groups:
        if staked:
            was = money.get(currency, (0.0, 0))
            money[currency] = (was[0] + float(amount or 0.0), was[1] + hands)
    systems: dict[str, tuple[int, float]] = {}
    for g in groups:
        counted_so_far = systems.get(g[2], (0, 0.0))
        systems[g[2]] = (counted_so_far[0] + g[3], counted_so_far[1] + float(g[4]))
    return Summary(hands=n, net_points=float(total), per_hand=mean, ci95=ci,
                   foul_rate=ratio(fouls, set_), fl_entry=ratio(entries, regular),
                   fl_stay=ratio(stays, fl_hands), fl_hands=fl_hands,
                   avg_royalties=ratio(royalties, n),
                   money=tuple((c, m, h) for c, (m, h) in money.items()),
                   race_left_out=n - points_n,
                   by_scoring=tuple((k, h, p) for k, (h, p) in sorted(systems.items())))


CURVE_COLUMNS = ["n", "hand_key", "played_at", "utc_offset", "points", "total", "without_fl",
                 "royalties", "row_points", "expected"]
"""The columns of :func:`cumulative`'s frame."""


def cumulative(con: Any, filters: Filters, max_points: int = GRAPH_POINTS,
               grouped_from: int = curve.GROUPED_FROM) -> pd.DataFrame:
    """Running totals in play order (``played_at``, then ``hand_key``), one row per kept hand:
    ``n`` (hand number), ``hand_key``, ``played_at`` (and its log's ``utc_offset``),
    ``points`` (that hand), ``total``,
    ``without_fl`` (hands not played in Fantasyland), ``royalties`` (net royalties exchanged,
    from ``pairs``) and ``row_points`` (rows and bonuses won, from ``pairs``), all cumulative.
    Long histories keep the first and last hand and each line's minimum and maximum in each
    of a few hundred buckets of hands (:func:`dashboard.queries.graphs.extremes`). When the
    hands mix race scoring (OFC Double) with another system, the race hands are left out.

    ``expected`` is the luck line (only with a player chosen and some hands reviewed, else all
    NaN): the same running total with each reviewed hand's points replaced by the EV of the
    player's position after its first placement (``decisions.chosen_ev`` of street 1, see
    :func:`dashboard.queries.review.expected_first`); real minus expected is the cards' luck.

    Two column scans, then the running sums in numpy: on a million hands this is several
    times faster than window functions over a join of the pairs. Past ``grouped_from`` hands
    that the aggregates can answer, the curve is drawn per group of hands instead
    (:mod:`dashboard.queries.curve`; the frame's ``attrs["per_group"]`` is then True).
    """
    found = agg_where(con, filters)
    if found is not None and curve.group_hands(con, *found) > grouped_from:
        return curve.frame(con, filters, *found, max_points)
    cond, params = where(filters)
    rows_from = tagged_rows(con, filters)
    summed = rows_from != PLAYER_ROWS  # agg_tagged: the seat's pairs summed in its rows
    pair_sums = ", hp.pair_royalties, hp.pair_rows" if summed else ""
    mine = fetch_all_numpy(con, f"""
        SELECT hp.hand_key, coalesce(epoch_us(hp.played_at), {NULL_TIME_FIRST}) AS t,
               hp.seat, hp.points, hp.fantasyland, hp.scoring = '{RACE}' AS race,
               coalesce(hp.utc_offset, {NO_OFFSET}) AS utc_offset {pair_sums}
        {rows_from} WHERE {cond}""", params)
    race = np.asarray(mine["race"], dtype=bool)
    if race.any() and not race.all():  # race points are not added to other points
        mine = {name: np.asarray(values)[~race] for name, values in mine.items()}
    count = len(mine["hand_key"])
    if count == 0:
        return pd.DataFrame(columns=CURVE_COLUMNS)
    order = np.lexsort((mine["hand_key"], mine["t"]))
    royalties, rows = _seat_pairs(con, filters, mine, summed)
    points = np.asarray(mine["points"], dtype=float)[order]
    fl = np.asarray(mine["fantasyland"], dtype=bool)[order]
    lines = {"total": np.cumsum(points), "without_fl": np.cumsum(np.where(fl, 0.0, points)),
             "royalties": np.cumsum(royalties[order]), "row_points": np.cumsum(rows[order]),
             "expected": _expected(con, filters, mine["hand_key"][order], points)}
    keep = extremes(list(lines.values()), max_points)
    stamps = mine["t"][order][keep]
    played = pd.to_datetime(np.where(stamps == NULL_TIME_FIRST, np.iinfo(np.int64).min,
                                     stamps), unit="us", utc=True, errors="coerce")
    return pd.DataFrame({
        "n": keep + 1,
        "hand_key": mine["hand_key"][order][keep],
        "played_at": played,
        "utc_offset": pd.Series(mine["utc_offset"][order][keep], dtype="Float64").replace(
            NO_OFFSET, pd.NA),
        "points": points[keep],
        **{name: line[keep] for name, line in lines.items()},
    })


def _seat_pairs(con: Any, filters: Filters, mine: dict[str, np.ndarray], summed: bool
                ) -> tuple[np.ndarray, np.ndarray]:
    """The net royalties and the row points with bonuses of each of ``mine``'s rows (its
    seat's ``pairs``): ``mine``'s own ``pair_royalties`` and ``pair_rows`` when ``summed`` (read
    from ``agg_tagged``, which holds them summed), else from the pairs (:func:`_pairs`)."""
    if summed:
        return (np.asarray(mine["pair_royalties"], dtype=float),
                np.asarray(mine["pair_rows"], dtype=float))
    seat_key = np.asarray(mine["hand_key"]).astype(np.int64) * 8 + mine["seat"]
    return _per_hand(seat_key, _pairs(con, filters))


def _pairs(con: Any, filters: Filters) -> dict[str, np.ndarray]:
    """The player's ``pairs`` rows (``k``: hand key x 8 + seat, ``royalties``, ``rows``: row
    points and bonus), matched to the hands by ``k`` (:func:`_per_hand`); under a tag only the
    tagged hands' (not every hand of the player's)."""
    first, named = names_in(filters, "player")
    tag, key = tagged(filters, "hand_key")
    found: dict[str, np.ndarray] = fetch_all_numpy(
        con, f"SELECT hand_key * 8 + seat AS k, royalties, row_points + bonus AS rows "
             f"FROM pairs WHERE {first}{tag}", [*named, *key])
    return found


def _expected(con: Any, filters: Filters, keys: np.ndarray, points: np.ndarray) -> np.ndarray:
    """The running total with reviewed hands counted at their expected points; NaN when no
    hand is reviewed (or no player is chosen)."""
    if not player_chosen(filters):
        return np.full(len(keys), np.nan)
    found = review.expected_first(con, filters)
    if found.empty:
        return np.full(len(keys), np.nan)
    by_key = dict(zip(found["hand_key"].astype(np.int64), found["expected"], strict=True))
    values = np.array([by_key.get(int(k), p) for k, p in zip(keys, points, strict=True)])
    return np.cumsum(values)


DIRECT_LOOKUP_LIMIT = 20_000_000
"""Largest (hand, seat) key for which :func:`_per_hand` uses a direct lookup table."""


def _per_hand(seat_key: np.ndarray, pairs: dict[str, np.ndarray]) -> tuple[np.ndarray,
                                                                            np.ndarray]:
    """Sum the pair rows of each (hand, seat) in ``seat_key`` (pairs of other hands ignored).

    >>> r, w = _per_hand(np.array([17, 9]), {"k": np.array([9, 17, 9, 3]),
    ...     "royalties": np.array([1, 2, 3, 4]), "rows": np.array([1, 1, 1, 1])})
    >>> r.tolist(), w.tolist()
    ([2.0, 4.0], [1.0, 2.0])
    """
    keys = np.asarray(pairs["k"], dtype=np.int64)
    top = int(max(seat_key.max(initial=0), keys.max(initial=0)))
    if top < DIRECT_LOOKUP_LIMIT:
        lookup = np.full(top + 1, -1, dtype=np.int64)
        lookup[seat_key] = np.arange(len(seat_key))
        found = lookup[keys]
        match = found >= 0
        index = found[match]
    else:
        sorter = np.argsort(seat_key)
        ordered = seat_key[sorter]
        at = np.searchsorted(ordered, keys)
        at[at >= len(ordered)] = 0
        match = ordered[at] == keys
        index = sorter[at[match]]
    size = len(seat_key)
    royalties = np.bincount(index, weights=np.asarray(pairs["royalties"], float)[match],
                            minlength=size)
    rows = np.bincount(index, weights=np.asarray(pairs["rows"], float)[match], minlength=size)
    return royalties, rows


def sessions(con: Any, filters: Filters, limit: int = 500) -> pd.DataFrame:
    """One row per session (newest first): ``session``, ``started``, ``ended``, ``hands``,
    ``points``,
    ``per_hand``, ``scoring`` (the session's scoring systems), ``foul_rate``, ``fl_hands``,
    ``money`` (where stakes are known; OFC Double: stake x cube of the matches it ended) and
    ``first_hand`` (the hand key that opens the session: the least key among hands played at
    the same first instant)."""
    found = agg_where(con, filters)
    if found is not None:
        scoring, systems = scoring_label(con, "a.scoring")
        return fetch_df(con, _SESSIONS_AGG.format(scoring=scoring, cond=found[0]),
                        [*systems, *found[1], limit])
    cond, params = where(filters)
    scoring, systems = scoring_label(con, "hp.scoring")
    return fetch_df(con, f"""
        SELECT coalesce(hp.session_id, '(none)') AS session, min(hp.played_at) AS started,
               max(hp.played_at) AS ended, min(hp.utc_offset) AS utc_offset,
               count(*) AS hands, sum(hp.points) AS points, avg(hp.points) AS per_hand,
               avg(hp.fouled::INT) AS foul_rate,
               {scoring} AS scoring,
               count_if(hp.fantasyland) AS fl_hands,
               sum(hp.money) AS money,
               arg_min(hp.hand_key, epoch_us(hp.played_at)::HUGEINT * 9223372036854775807
                                    + hp.hand_key) AS first_hand
        {PLAYER_ROWS} WHERE {cond}
        GROUP BY hp.session_id ORDER BY started DESC NULLS LAST, session LIMIT ?""",
        [*systems, *params, limit])


_SESSIONS_AGG = """
SELECT coalesce(a.session_id, '(none)') AS session, min(a.started) AS started,
       max(a.ended) AS ended, min(a.utc_offset) AS utc_offset,
       sum(a.hands)::BIGINT AS hands, sum(a.points) AS points,
       sum(a.points) / sum(a.hands) AS per_hand,
       sum(a.fouled) / sum(a.hands) AS foul_rate,
       {scoring} AS scoring,
       sum(a.fl_hands) AS fl_hands,
       sum(a.money) AS money,
       arg_min(a.first_hand, epoch_us(a.started)::HUGEINT * 9223372036854775807 + a.first_hand)
           AS first_hand
FROM agg_players a WHERE {cond}
GROUP BY a.session_id ORDER BY started DESC NULLS LAST, session LIMIT ?"""
""":func:`sessions` from the aggregates."""
