"""Aggregates or rows: the one place that decides whether the pre-aggregated tables
(``agg_players``, ``agg_fouls``, ``agg_opponents``, ``agg_hands``: :mod:`ingest.aggregates`)
can give a page's numbers for the chosen filters, and their SQL over those tables.

They can when the store has them and no filter needs the hands one by one: a tag or an
opponent at the table needs the rows; so do "me" with two of my names at one table (seats to
leave out) and a date bound that is not a whole UTC hour in the database's time zone (the
aggregates count hands by UTC hour). Everything else (player, me, room, stake, variant,
ruleset, session, whole-hour dates) is a condition on the aggregates' own columns:

>>> agg_filters(Filters(player="ann", variant="pineapple", room="swc"))
('a.player = ? AND a.variant = ? AND a.source = ?', ['ann', 'pineapple', 'swc'])
>>> agg_filters(Filters(player="ann"))  # no room chosen: no practice hands
("a.player = ? AND a.source <> 'practice'", ['ann'])
>>> agg_filters(Filters(player="ann", tag="tilt")) is None
True
>>> agg_filters(Filters(me=(MyName("ann"), MyName("ann_swc", "swc")), me_skip=()))[1]
['ann', 'ann_swc', 'swc']

:func:`rows_only` makes every query read the rows (the equality test and the benchmark's
baseline).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import duckdb

from dashboard.queries.conditions import PLAYER_HANDS, PLAYER_ROWS, ROWS_ONLY, conjunction
from dashboard.queries.fetch import Connection, fetch_all
from dashboard.queries.filter_set import Filters, Stake
from dashboard.queries.me_sql import not_me
from ingest import api
from ingest.api import MyName

__all__ = ["agg_filters", "agg_where", "available", "rows_only", "tagged_rows", "Filters",
           "MyName"]

@contextmanager
def rows_only() -> Iterator[None]:
    """Within the block, every page query reads the rows, never the aggregates."""
    token = ROWS_ONLY.set(True)
    try:
        yield
    finally:
        ROWS_ONLY.reset(token)


_PROBE = f"SELECT 1 FROM {', '.join(api.AGGREGATE_TABLES)} WHERE FALSE"
"""Binds only when every aggregate table exists (a tenth of the cost of listing the tables)."""


def available(con: Connection) -> bool:
    """Whether queries on ``con`` may read the aggregates: the store has them (schema 8, or
    built by :func:`ingest.api.rebuild_aggregates`) and :func:`rows_only` is not in force."""
    if ROWS_ONLY.get():
        return False
    try:
        fetch_all(con, _PROBE)  # on a cursor of its own: a failure touches no other query
    except duckdb.CatalogException:
        return False
    return True


def _stake(stake: Stake) -> list[Any]:
    return [stake.amount, stake.currency]


_CONDITIONS: tuple[tuple[str, str], ...] = (
    ("player", "a.player = ?"),
    ("date_from", f"a.hour >= epoch_us(CAST(? AS TIMESTAMPTZ)) // {api.HOUR_US}"),
    ("date_to", f"a.hour < epoch_us(CAST(? AS TIMESTAMPTZ) + INTERVAL 1 DAY) // {api.HOUR_US}"),
    ("variant", "a.variant = ?"),
    ("ruleset", "a.ruleset_label = ?"),
    ("session", "a.session_id = ?"),
    ("room", "a.source = ?"),
    ("stake", "a.stake = ? AND a.currency IS NOT DISTINCT FROM ?"),
    ("game", "EXISTS (SELECT 1 FROM tournament_partitions tp WHERE tp.session_id IS NOT DISTINCT "
             "FROM a.session_id AND tp.hour IS NOT DISTINCT FROM a.hour) = (? = 'tournaments')"),
)
"""Each filter's condition over an aggregate's row ``a`` (as
:data:`dashboard.queries.conditions._CONDITIONS` over the hand's row)."""

_BOUND: dict[str, Callable[[Any], list[Any]]] = {"stake": _stake}


def _mine(names: tuple[MyName, ...]) -> tuple[str, list[Any]]:
    """My names over ``a.player`` and ``a.source`` (as :func:`dashboard.queries.me_sql.is_mine`
    over the rows)."""
    anywhere = [n.name for n in names if n.source is None]
    parts: list[str] = []
    params: list[Any] = []
    if anywhere:
        parts.append(f"a.player IN ({', '.join('?' * len(anywhere))})")
        params += anywhere
    by_source: dict[str, list[str]] = {}
    for n in names:
        if n.source is not None:
            by_source.setdefault(n.source, []).append(n.name)
    for source, group in by_source.items():
        parts.append(f"(a.player IN ({', '.join('?' * len(group))}) AND a.source = ?)")
        params += [*group, source]
    return "(" + " OR ".join(parts) + ")", params


def agg_filters(filters: Filters) -> tuple[str, list[Any]] | None:
    """The filters as a condition over an aggregate's row ``a`` and its parameters, or
    ``None`` when a filter needs the hands themselves (a tag, an opponent, my names sharing
    a table). Dates are taken as they come: :func:`agg_where` checks them first."""
    if filters.tag is not None or filters.opponent is not None:
        return None
    if filters.me and not_me(filters, "", "")[0]:
        return None
    return conjunction(filters, _mine(filters.me) if filters.me else None, _CONDITIONS, _BOUND,
                       "a.source <> 'practice'")


def _whole_hours(con: Connection, filters: Filters) -> bool:
    """Whether the date bounds fall on whole UTC hours in the database's time zone."""
    if filters.date_from is None and filters.date_to is None:
        return True
    row = fetch_all(con, f"""
        SELECT coalesce(epoch_us(CAST(?::DATE AS TIMESTAMPTZ)) % {api.HOUR_US} = 0, TRUE)
           AND coalesce(epoch_us(CAST(?::DATE AS TIMESTAMPTZ) + INTERVAL 1 DAY)
                        % {api.HOUR_US} = 0, TRUE)""", [filters.date_from, filters.date_to])
    return bool(row[0][0])


def agg_where(con: Connection, filters: Filters) -> tuple[str, list[Any]] | None:
    """:func:`agg_filters` when the aggregates can answer ``filters`` on ``con``, else
    ``None`` (the query reads the rows)."""
    if not available(con):
        return None
    found = agg_filters(filters)
    if found is None or not _whole_hours(con, filters) or _mixed(con, filters):
        return None
    return found


def _mixed(con: Connection, filters: Filters) -> bool:
    """Whether the Game filter is set and some partition of the aggregates holds both cash
    and tournament hands (then only the rows tell them apart)."""
    if filters.game is None:
        return False
    return bool(fetch_all(con, "SELECT count(*) FROM tournament_partitions WHERE mixed")[0][0])


TAGGED_FROM = {
    PLAYER_ROWS: "FROM agg_tagged hp",
    PLAYER_HANDS: "FROM hands h JOIN agg_tagged hp ON hp.hand_key = h.hand_key",
}
"""The FROM clauses of :func:`dashboard.queries.conditions.where` over ``agg_tagged`` (the
tagged hands' ``hand_players`` rows, :mod:`ingest.aggregates`) instead of ``hand_players``."""


def tagged_rows(con: Connection, filters: Filters, clause: str = PLAYER_ROWS) -> str:
    """``clause`` (:data:`~dashboard.queries.conditions.PLAYER_ROWS` or
    :data:`~dashboard.queries.conditions.PLAYER_HANDS`), or under a tag, when the aggregates
    are available, the same over ``agg_tagged`` (:data:`TAGGED_FROM`): its rows are every
    tagged hand's, so :func:`~dashboard.queries.conditions.where`'s tag condition picks the
    same rows from a few hundred thousand instead of every hand of the store.

    >>> tagged_rows(duckdb.connect(), Filters(player="ann", tag="tilt"))  # no aggregates
    'FROM hand_players hp'
    """
    if filters.tag is None or not available(con):
        return clause
    return TAGGED_FROM[clause]
