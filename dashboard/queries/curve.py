"""The Overview's cumulative graph past :data:`GROUPED_FROM` hands, drawn per group of hands
from the pre-aggregated ``agg_curve`` (:mod:`ingest.aggregates`) instead of hand by hand.

A group is one of ``agg_players``' groups (a session's hands of one UTC hour, variant,
ruleset, scoring and stake); the groups are laid end to end in the order of their first hand
(its time, then its key), each group's hands in play order within it. Each group gives four
hands of the curve: its first and last hand and the first hands where its running points
are lowest and highest, each at the group's running values plus the sums of the groups
before it. So the page reads a few rows per session (about 280,000 rows for 10 M hands of
the demo), not every hand and its pairs, and the curve still reaches each session's peak and
trough of the running points. Groups of one session interleave in time only when the
session mixes variants, rulesets or stakes within an hour; the curve is then in group order.

>>> groups = {"hands": np.array([4, 2]), "total": np.array([-2.0, 3.0]),
...           "first_i": np.array([1, 1]), "lo_i": np.array([3, 1]),
...           "hi_i": np.array([2, 2]), "last_i": np.array([4, 2]),
...           "first_total": np.array([-1.0, 1.0]), "lo_total": np.array([-4.0, 1.0]),
...           "hi_total": np.array([4.0, 3.0]), "last_total": np.array([-2.0, 3.0])}
>>> n, at = curve_points(groups, ("total",))
>>> n.tolist(), at["total"].tolist()  # hands 1-4, then 5-6 from -2
([1, 2, 3, 4, 5, 6], [-1.0, 4.0, -4.0, -2.0, -1.0, 1.0])
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from dashboard.queries import review
from dashboard.queries.fetch import Connection, fetch_all, fetch_all_numpy
from dashboard.queries.filter_set import Filters, player_chosen
from dashboard.queries.graphs import extremes
from dashboard.queries.labels import RACE
from ingest.api import HOUR_US

GROUPED_FROM = 1_000_000
"""Past this many hands (of the filters) the cumulative graph is drawn per group of hands."""

NULL_TIME_FIRST = -(2**62)
"""A hand without a date sorts before every dated hand (the numpy scan has no NULL)."""
NO_OFFSET = -32768
"""A hand whose log's UTC offset is not known."""

HANDS = ("first", "lo", "hi", "last")
"""The hands of a group on the curve (``agg_curve``'s struct columns)."""
SUMS = {"total": "points", "plain": "plain", "roy": "royalties", "rows": "row_points"}
"""Each running value of a group's hand -> the group's sum of it."""
_FIELDS = {"key": "{h}.key", "t": f"coalesce({{h}}.t, {NULL_TIME_FIRST})",
           "off": f"coalesce({{h}}.off, {NO_OFFSET})", "pts": "{h}.pts::DOUBLE",
           "i": "{h}.i", **{v: f"{{h}}.{v}::DOUBLE" for v in SUMS}}


def group_hands(con: Connection, cond: str, params: list[Any]) -> int:
    """The hands of ``agg_curve``'s rows ``a`` meeting ``cond``."""
    return int(fetch_all(con, f"SELECT coalesce(sum(a.hands), 0) FROM agg_curve a "
                              f"WHERE {cond}", params)[0][0])


def groups(con: Connection, cond: str, params: list[Any]) -> dict[str, np.ndarray]:
    """The groups of ``agg_curve`` meeting ``cond`` (over ``a``) in curve order, as columns:
    ``hands``, the sums (keys of :data:`SUMS`), and per hand of :data:`HANDS` its fields
    (``first_key``, ``lo_total``, ...). Race groups (OFC Double) are left out when the groups
    mix race scoring with another system, as every total."""
    fields = ", ".join(sql.format(h=f"a.{h}") + f" AS {h}_{name}"
                       for h in HANDS for name, sql in _FIELDS.items())
    sums = ", ".join(f"a.{column}::DOUBLE AS {name}" for name, column in SUMS.items())
    found = fetch_all_numpy(con, f"""
        SELECT a.scoring = '{RACE}' AS race, a.hands, {sums}, {fields}
        FROM agg_curve a WHERE {cond} ORDER BY first_t, first_key""", params)
    race = np.asarray(found["race"], dtype=bool)
    if race.any() and not race.all():
        found = {name: np.asarray(values)[~race] for name, values in found.items()}
    return {name: np.asarray(values) for name, values in found.items()}


def curve_points(found: dict[str, np.ndarray], fields: tuple[str, ...]
                 ) -> tuple[np.ndarray, dict[str, np.ndarray]]:
    """The hand numbers of the groups' hands on the whole curve (ascending, each once) and
    each of ``fields`` there; a running value of :data:`SUMS` is the group's plus the sums
    of the groups before it."""
    hands = np.asarray(found["hands"], dtype=np.int64)
    before = np.cumsum(hands) - hands
    n = (before[:, None] + np.stack([found[f"{h}_i"] for h in HANDS], axis=1)).ravel()
    n, at = np.unique(n, return_index=True)
    out = {}
    for name in fields:
        if name in ("gt", "gk"):  # the group's own order, for each of its hands
            own = found["first_t" if name == "gt" else "first_key"]
            values = np.repeat(np.asarray(own)[:, None], len(HANDS), axis=1)
        else:
            values = np.stack([found[f"{h}_{name}"] for h in HANDS], axis=1)
        if name in SUMS:
            sums = np.asarray(found[name], dtype=float)
            values = values + (np.cumsum(sums) - sums)[:, None]
        out[name] = values.ravel()[at]
    return n, out


def reviewed_deltas(con: Connection, cond: str, params: list[Any],
                    expected: dict[int, float]) -> dict[str, np.ndarray]:
    """For the reviewed hands (``expected``: hand key -> expected points) of the groups
    meeting ``cond``: their group's order (``gt``, ``gk``), time ``t``, ``key`` and
    ``delta`` (expected minus scored points)."""
    found = fetch_all_numpy(con, f"""
        SELECT coalesce(a.first.t, {NULL_TIME_FIRST}) AS gt, a.first.key AS gk,
               coalesce(epoch_us(hp.played_at), {NULL_TIME_FIRST}) AS t, hp.hand_key AS key,
               hp.points
        FROM hand_players hp JOIN hands h ON h.hand_key = hp.hand_key
        JOIN agg_curve a ON a.player = hp.player AND a.source = h.source
         AND a.session_id IS NOT DISTINCT FROM hp.session_id
         AND a.hour IS NOT DISTINCT FROM epoch_us(hp.played_at) // {HOUR_US}
         AND a.variant = hp.variant AND a.ruleset_label = hp.ruleset_label
         AND a.scoring = hp.scoring AND a.stake IS NOT DISTINCT FROM hp.stake
         AND a.currency IS NOT DISTINCT FROM hp.currency
        WHERE hp.hand_key IN (SELECT unnest(?::BIGINT[])) AND {cond}""",
        [list(expected), *params])
    keys = np.asarray(found["key"], dtype=np.int64)
    found["delta"] = (np.array([expected[int(k)] for k in keys], dtype=float)
                      - np.asarray(found["points"], dtype=float))
    return found


def expected_line(total: np.ndarray, rows: dict[str, np.ndarray],
                  reviewed: dict[str, np.ndarray]) -> np.ndarray:
    """``total`` with the ``delta`` of every reviewed hand at or before each row added (the
    order: group ``gt``, ``gk``, then ``t``, ``key``; a hand is at or before itself).

    >>> rows = {"gt": np.array([0, 0, 5]), "gk": np.array([1, 1, 9]),
    ...         "t": np.array([0, 2, 5]), "key": np.array([1, 3, 9])}
    >>> reviewed = {"gt": np.array([0]), "gk": np.array([1]), "t": np.array([2]),
    ...             "key": np.array([3]), "delta": np.array([1.5])}
    >>> expected_line(np.array([1.0, 2.0, 3.0]), rows, reviewed).tolist()
    [1.0, 3.5, 4.5]
    """
    count = len(total)
    keys = [np.concatenate([np.asarray(reviewed[k], dtype=np.int64),
                            np.asarray(rows[k], dtype=np.int64)])
            for k in ("gt", "gk", "t", "key")]
    flag = np.concatenate([np.zeros(len(reviewed["key"]), int), np.ones(count, int)])
    order = np.lexsort((flag, keys[3], keys[2], keys[1], keys[0]))
    delta = np.concatenate([np.asarray(reviewed["delta"], dtype=float), np.zeros(count)])
    running = np.cumsum(delta[order])
    at = np.empty(len(order), dtype=np.int64)
    at[order] = np.arange(len(order))
    line: np.ndarray = total + running[at[len(reviewed["key"]):]]
    return line


def frame(con: Connection, filters: Filters, cond: str, params: list[Any],
          max_points: int) -> pd.DataFrame:
    """:func:`dashboard.queries.overview.cumulative`'s frame from the groups meeting ``cond``
    (its ``attrs["per_group"]`` is True): the groups' hands (:func:`curve_points`), thinned
    to ``max_points`` by the lines' extremes, and the luck line from the reviewed hands."""
    found = groups(con, cond, params)
    n, at = curve_points(found, ("key", "t", "off", "pts", "gt", "gk", *SUMS))
    at["key"] = at["key"].astype(np.int64)
    expected = np.full(len(n), np.nan)
    if player_chosen(filters):
        reviewed = review.expected_first(con, filters)
        if not reviewed.empty:
            by_key = dict(zip(reviewed["hand_key"].astype(np.int64), reviewed["expected"],
                              strict=True))
            deltas = reviewed_deltas(con, cond, params, {int(k): float(v)
                                                          for k, v in by_key.items()})
            expected = expected_line(at["total"], at, deltas)
    lines = {"total": at["total"], "without_fl": at["plain"], "royalties": at["roy"],
             "row_points": at["rows"], "expected": expected}
    keep = extremes(list(lines.values()), max_points)
    stamps = at["t"][keep]
    out = pd.DataFrame({
        "n": n[keep],
        "hand_key": at["key"][keep],
        "played_at": pd.to_datetime(np.where(stamps == NULL_TIME_FIRST, np.iinfo(np.int64).min,
                                             stamps), unit="us", utc=True, errors="coerce"),
        "utc_offset": pd.Series(at["off"][keep], dtype="Float64").replace(NO_OFFSET, pd.NA),
        "points": at["pts"][keep],
        **{name: line[keep] for name, line in lines.items()},
    })
    out.attrs["per_group"] = True
    return out
