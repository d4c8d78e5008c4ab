"""The filters every page shares, and the SQL they become.

A page query reads one player's hands: ``hands h`` joined to that player's ``hand_players hp``
row. :func:`where` turns a :class:`Filters` value into a SQL condition over those two aliases
plus its bound parameters; values never enter the SQL text.

>>> sql, params = where(Filters(player="ann", variant="pineapple"))
>>> sql
'hp.player = ? AND hp.variant = ?'
>>> params
['ann', 'pineapple']
>>> where(Filters())
('TRUE', [])

Pages use :data:`PLAYER_HANDS` as their FROM clause:

>>> sql, params = where(Filters(player="ann"))
>>> f"SELECT count(*) {PLAYER_HANDS} WHERE {sql}"
'SELECT count(*) FROM hands h JOIN hand_players hp ON hp.hand_key = h.hand_key WHERE hp.player = ?'
"""

from __future__ import annotations

from dataclasses import dataclass, fields, replace
from datetime import date
from typing import Any

import pandas as pd

from ingest import api

PLAYER_HANDS = "FROM hands h JOIN hand_players hp ON hp.hand_key = h.hand_key"
"""The FROM clause :func:`where` expects: one row per hand of the filtered player."""

PLAYER_ROWS = "FROM hand_players hp"
"""The same rows without the join, for queries that read only ``hand_players`` columns (it
carries the hand's filter and grouping columns): much cheaper on a big store."""


@dataclass(frozen=True, slots=True)
class Filters:
    """What every page is narrowed to. ``None`` means "all".

    ``player`` is whose results the pages show; ``opponent`` keeps the hands where that opponent
    sat at the table; ``variant`` is the preset name (``hands.variant``), ``ruleset`` the full
    label (``hands.ruleset_label``); ``session`` is ``hands.session_id``. Dates are inclusive
    days in the database's time zone (hands without a date drop out when a date bound is set);
    the SQL compares timestamps, so no per-row date conversion.

    >>> Filters(player="ann").with_(opponent="bob").opponent
    'bob'
    """

    player: str | None = None
    date_from: date | None = None
    date_to: date | None = None
    variant: str | None = None
    ruleset: str | None = None
    opponent: str | None = None
    session: str | None = None

    def with_(self, **changes: Any) -> Filters:
        return replace(self, **changes)

    def to_params(self) -> dict[str, str]:
        """The URL query parameters of these filters (only the ones set).

        >>> Filters(player="ann", date_from=date(2026, 1, 2)).to_params()
        {'player': 'ann', 'from': '2026-01-02'}
        """
        out: dict[str, str] = {}
        for f in fields(self):
            value = getattr(self, f.name)
            if value is not None:
                out[URL_KEYS[f.name]] = value.isoformat() if isinstance(value, date) else value
        return out

    @classmethod
    def from_params(cls, params: dict[str, str]) -> Filters:
        """Inverse of :meth:`to_params`; a malformed date is ignored, never an error.

        >>> Filters.from_params({"player": "ann", "to": "2026-02-30", "x": "1"}) == Filters("ann")
        True
        """
        values: dict[str, Any] = {}
        for f in fields(cls):
            raw = params.get(URL_KEYS[f.name])
            if raw in (None, ""):
                continue
            if f.name in ("date_from", "date_to"):
                try:
                    values[f.name] = date.fromisoformat(str(raw))
                except ValueError:
                    continue
            else:
                values[f.name] = str(raw)
        return cls(**values)


URL_KEYS = {
    "player": "player", "date_from": "from", "date_to": "to", "variant": "variant",
    "ruleset": "ruleset", "opponent": "opponent", "session": "session",
}
"""Filter field -> URL query parameter name (``?player=ann&from=2026-01-01``)."""

_CONDITIONS = (
    ("player", "hp.player = ?"),
    ("date_from", "hp.played_at >= CAST(? AS TIMESTAMPTZ)"),
    ("date_to", "hp.played_at < CAST(? AS TIMESTAMPTZ) + INTERVAL 1 DAY"),
    ("variant", "hp.variant = ?"),
    ("ruleset", "hp.ruleset_label = ?"),
    ("opponent", "EXISTS (SELECT 1 FROM hand_players o WHERE o.hand_key = hp.hand_key"
                 " AND o.player = ? AND o.seat <> hp.seat)"),
    ("session", "hp.session_id = ?"),
)


def where(filters: Filters) -> tuple[str, list[Any]]:
    """SQL condition over ``hp`` (the player's hand_players row, which carries the hand's
    played_at, variant, ruleset_label and session_id), and its bound parameters, in order.
    ``'TRUE'`` when nothing is filtered. It reads no ``hands`` column, so a query that needs
    none can run over ``hand_players hp`` alone (:data:`PLAYER_ROWS`)."""
    parts: list[str] = []
    params: list[Any] = []
    for name, sql in _CONDITIONS:
        value = getattr(filters, name)
        if value is not None:
            parts.append(sql)
            params.append(value)
    return (" AND ".join(parts) or "TRUE"), params


def fetch_df(con: Any, sql: str, params: list[Any] | tuple[Any, ...] = ()) -> pd.DataFrame:
    """Run one query on its own cursor (a DuckDB connection is shared between threads) and
    return a DataFrame."""
    cur = con.cursor()
    try:
        return cur.execute(sql, list(params)).df()
    finally:
        cur.close()


def fetch_all(con: Any, sql: str, params: list[Any] | tuple[Any, ...] = ()) -> list[tuple]:
    cur = con.cursor()
    try:
        return cur.execute(sql, list(params)).fetchall()
    finally:
        cur.close()


def fetch_all_numpy(con: Any, sql: str, params: list[Any] | tuple[Any, ...] = ()
                    ) -> dict[str, Any]:
    """Run one query on its own cursor and return its columns as numpy arrays."""
    cur = con.cursor()
    try:
        return cur.execute(sql, list(params)).fetchnumpy()
    finally:
        cur.close()


def default_player(con: Any) -> str | None:
    """Whose results to show by default: the logs' most frequent hero, else the most frequent
    player; ``None`` for an empty database."""
    rows = fetch_all(con, """
        SELECT hero FROM hands WHERE hero IS NOT NULL
        GROUP BY hero ORDER BY count(*) DESC, hero LIMIT 1""")
    if not rows:  # no hero in any log: only then count every player's rows
        rows = fetch_all(con, """
            SELECT player FROM hand_players GROUP BY player
            ORDER BY count(*) DESC, player LIMIT 1""")
    return rows[0][0] if rows else None


SESSION_CHOICES = 1000
"""The sidebar offers the newest this many sessions (a bookmarked older one still filters)."""


@dataclass(frozen=True, slots=True)
class FilterOptions:
    """The choices the sidebar offers, read from the database."""

    players: tuple[str, ...]
    variants: tuple[str, ...]
    rulesets: tuple[str, ...]
    opponents: tuple[str, ...]
    sessions: tuple[str, ...]
    first_date: date | None
    last_date: date | None


def players(con: Any) -> tuple[str, ...]:
    """Every player, most hands first."""
    return tuple(r[0] for r in fetch_all(
        con, "SELECT player FROM hand_players GROUP BY player ORDER BY count(*) DESC, player"))


def filter_options(con: Any, player: str | None) -> FilterOptions:
    """Players by number of hands; the variants, rulesets, newest sessions and date span of
    the database; the opponents ``player`` has met (everyone when ``None``). Cheap on a big
    store: single-table scans, no joins."""
    def column(expr: str) -> tuple[str, ...]:
        rows = fetch_all(con, f"SELECT DISTINCT {expr} AS v FROM hands WHERE {expr} IS NOT NULL "
                              "ORDER BY v")
        return tuple(r[0] for r in rows)

    sessions = fetch_all(con, """
        SELECT session_id FROM hands WHERE session_id IS NOT NULL GROUP BY session_id
        ORDER BY max(played_at) DESC NULLS LAST, session_id LIMIT ?""", [SESSION_CHOICES])
    if player is None:
        opponents = fetch_all(con, "SELECT DISTINCT player FROM hand_players ORDER BY 1")
    else:
        opponents = fetch_all(con, "SELECT DISTINCT opponent FROM pairs WHERE player = ? "
                                   "ORDER BY 1", [player])
    first, last = fetch_all(con, "SELECT CAST(min(played_at) AS DATE), "
                                 "CAST(max(played_at) AS DATE) FROM hands")[0]
    return FilterOptions(
        players=players(con), variants=column("variant"), rulesets=column("ruleset_label"),
        opponents=tuple(r[0] for r in opponents), sessions=tuple(r[0] for r in sessions),
        first_date=first, last_date=last,
    )


RACE = api.RACE
"""The scoring system whose points are banked race points, not money (OFC Double)."""


CUBE = api.CUBE_SQL
"""The cube value an ``events e`` row's data gives (``cube``; ``multiplier`` is read too)."""


def money_sql(alias: str, points: str | None = None) -> str:
    """One player-hand's money, for rows ``alias`` of ``hand_players`` (or ``scope``): the
    stored ``money`` column (``NULL`` without a stake), whose rule is :mod:`ingest.money`:
    points x stake, except under race scoring (OFC Double), where the hand that ends a match
    holds stake x final cube, won or lost, and the match's other hands none. ``points``
    replaces ``alias.points`` for the share of one pair (race: the hand's money).

    >>> money_sql("hp")
    'hp.money'
    """
    if points is None:
        return f"{alias}.money"
    return (f"CASE WHEN {alias}.scoring = '{RACE}' THEN {alias}.money "
            f"ELSE {points} * {alias}.stake END")


def point_sql(alias: str) -> str:
    """A hand's points for a total that must not mix race points with others: ``NULL`` for a
    race-scored hand (aggregates skip it)."""
    return f"CASE WHEN {alias}.scoring = '{RACE}' THEN NULL ELSE {alias}.points END"
