"""Time at the table: hours played, sittings, and the rates an hour.

A **sitting** is a stretch of play without a break: the filtered hands in time order (every
table at once), a new sitting starting where more than :data:`SITTING_BREAK_MINUTES` pass
between one hand and the next. Two tables played at the same time interleave their hands, so
their overlapping sessions make one sitting.

Each dated hand is given the **time it took**: the time until the next hand (at any table)
when that comes within the break, else (a sitting's last hand) a typical hand's time, the
median of the within-sitting gaps of these hands (one minute when there is none). Hours of
any group of hands (a session, a day, a week, all of them) are the sum of its hands' times,
so they add up and two tables at once are never counted twice. Hands without a date have no
time: they are left out of hours and of the rates an hour (and counted, to be named).

>>> SITTING_BREAK_MINUTES
30
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pandas as pd

from dashboard.queries.fetch import Connection, fetch_all, fetch_df
from dashboard.queries.filter_set import Filters
from dashboard.queries.labels import RACE
from dashboard.queries.sessions import _PERIOD_PARTS, SESSION_JOIN, sessions_cte

SITTING_BREAK_MINUTES = 30
"""A break longer than this between two hands (at any table) ends a sitting."""

TYPICAL_HAND_SECONDS = 60.0
"""A sitting's last hand's time when the hands show no gap to measure a typical hand by."""

_TIMED = """
, dated AS (
    SELECT DISTINCT hand_key, played_at FROM scope WHERE played_at IS NOT NULL
), gaps AS (
    SELECT hand_key, played_at,
           epoch(lead(played_at) OVER (ORDER BY played_at, hand_key)) - epoch(played_at) AS gap
    FROM dated
), typical AS (
    SELECT coalesce(median(gap) FILTER (WHERE gap <= {brk}), {typical}) AS t FROM gaps
), timed AS (
    SELECT g.hand_key,
           CASE WHEN g.gap <= {brk} THEN g.gap ELSE typical.t END AS seconds,
           (g.gap IS NULL OR g.gap > {brk}) AS ends_sitting,
           1 + coalesce(sum(CASE WHEN g.gap IS NULL OR g.gap > {brk} THEN 1 ELSE 0 END) OVER (
               ORDER BY g.played_at, g.hand_key
               ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING), 0) AS sitting_no
    FROM gaps g, typical
)"""


def _timed(filters: Filters, gap_minutes: float) -> tuple[str, list[Any]]:
    head, params = sessions_cte(filters, gap_minutes)
    return head + _TIMED.format(brk=SITTING_BREAK_MINUTES * 60,
                                typical=TYPICAL_HAND_SECONDS), params


@dataclass(frozen=True, slots=True)
class TableTime:
    """The filtered hands' time at the table.

    ``seconds`` of all dated hands, ``plain_seconds`` of those the net points count (race
    hands left out when the hands mix race scoring with another system, as the Overview's
    net points), ``money_seconds`` per currency (``''``: none named) of the hands with a
    stake; ``undated`` hands have no time.

    >>> t = TableTime(7200.0, 7200.0, (("EUR", 3600.0),), 2, 240, 0)
    >>> t.hours, t.per_hour(30.0), t.hands_per_hour
    (2.0, 15.0, 120.0)
    """

    seconds: float
    plain_seconds: float
    money_seconds: tuple[tuple[str, float], ...]
    sittings: int
    dated_hands: int
    undated: int

    @property
    def hours(self) -> float:
        return self.seconds / 3600

    def per_hour(self, points: float, seconds: float | None = None) -> float | None:
        """``points`` (or money) an hour over ``seconds`` (default: the points' hours);
        ``None`` without time."""
        spent = self.plain_seconds if seconds is None else seconds
        return None if spent <= 0 else points * 3600 / spent

    @property
    def hands_per_hour(self) -> float | None:
        return None if self.seconds <= 0 else self.dated_hands * 3600 / self.seconds


def totals(con: Connection, filters: Filters) -> TableTime:
    """:class:`TableTime` of the filtered hands (one pass over their rows)."""
    head, params = _timed(filters, SITTING_BREAK_MINUTES)
    rows = fetch_all(con, head + f"""
        , per AS (
            SELECT s.hand_key, any_value(s.scoring = '{RACE}') AS race,
                   any_value(s.stake IS NOT NULL) AS staked,
                   coalesce(any_value(s.currency), '') AS currency
            FROM scope s GROUP BY 1
        ), mixing AS (SELECT bool_or(race) AND bool_or(NOT race) AS mixed FROM per)
        SELECT p.race AND mixing.mixed AS left_out, p.staked, p.currency,
               count(t.hand_key), coalesce(sum(t.seconds), 0),
               count_if(t.ends_sitting), count(*) - count(t.hand_key)
        FROM per p LEFT JOIN timed t ON t.hand_key = p.hand_key, mixing
        GROUP BY 1, 2, 3""", params)
    seconds = sum(float(r[4]) for r in rows)
    plain = sum(float(r[4]) for r in rows if not r[0])
    money: dict[str, float] = {}
    for _, staked, currency, _, spent, *_ in rows:
        if staked:
            money[currency] = money.get(currency, 0.0) + float(spent)
    return TableTime(seconds=seconds, plain_seconds=plain,
                     money_seconds=tuple(sorted(money.items())),
                     sittings=int(sum(r[5] for r in rows)),
                     dated_hands=int(sum(r[3] for r in rows)),
                     undated=int(sum(r[6] for r in rows)))


def by_period(con: Connection, filters: Filters, period: str = "session",
              gap_minutes: float = SITTING_BREAK_MINUTES) -> pd.DataFrame:
    """Per row of :func:`dashboard.queries.sessions.period_table` (the same ``period`` keys):
    ``seconds`` at the table, ``plain_seconds`` (without race hands) and ``money_seconds``
    (hands with a stake), ``sittings`` (the sittings that end in it), and the numbers of its
    first and last sitting (from 1, in time order; ``NaN`` for undated hands)."""
    k1, k2, key = _PERIOD_PARTS[period]
    head, params = _timed(filters, gap_minutes)
    join = SESSION_JOIN if period == "session" else ""
    return fetch_df(con, head + f"""
        , keyed AS (
            SELECT DISTINCT {key.format(k1=k1, k2=k2)} AS period, s.hand_key,
                   s.scoring = '{RACE}' AS race, s.stake IS NOT NULL AS staked
            FROM scope s {join}
        )
        SELECT k.period, coalesce(sum(t.seconds), 0) AS seconds,
               coalesce(sum(t.seconds) FILTER (WHERE NOT k.race), 0) AS plain_seconds,
               coalesce(sum(t.seconds) FILTER (WHERE k.staked), 0) AS money_seconds,
               count_if(t.ends_sitting) AS sittings,
               min(t.sitting_no) AS first_sitting, max(t.sitting_no) AS last_sitting
        FROM keyed k LEFT JOIN timed t ON t.hand_key = k.hand_key
        GROUP BY 1""", params)

