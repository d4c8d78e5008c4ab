"""The SQL that names a group's currency, scoring systems and points: one
spelling of each, shared by every page.

>>> race_count("s.scoring")
"count_if(s.scoring = 'race')"
"""

from __future__ import annotations

from typing import Any

from dashboard.queries.aggregated import available
from dashboard.queries.fetch import Connection, fetch_all
from ingest import api

RACE = api.RACE
"""The scoring system whose points are banked race points, not money (OFC Double)."""


CUBE = api.CUBE_SQL
"""The cube value an ``events e`` row's data gives (``cube``; ``multiplier`` is read too)."""


def span_label(expr: str) -> str:
    """A group's values of ``expr`` named in one text: the value when there is one, else the
    least and the greatest (``'EUR, USD'``).

    >>> span_label("s.currency").startswith("CASE WHEN min(s.currency) = max(s.currency)")
    True
    """
    return (f"CASE WHEN min({expr}) = max({expr}) THEN min({expr}) "
            f"ELSE min({expr}) || ', ' || max({expr}) END")


def store_values(con: Connection, column: str, *, unless: str | None = None
                 ) -> tuple[str, ...] | None:
    """The one value of ``hands.<column>`` in the whole store (none, or one; ``unless``: not
    counting that value), or ``None`` when there are more: a page whose groups can hold only
    that value names it without reading the column row by row (a string aggregate over a
    million rows costs 30-60 ms). ``column`` is one of this package's names, never a file's."""
    hands = "agg_hands" if available(con) else "hands"
    rows = fetch_all(con, f"SELECT DISTINCT {column} FROM {hands} WHERE {column} IS NOT NULL "
                          "LIMIT ?", [3 if unless is not None else 2])
    values = tuple(str(r[0]) for r in rows if r[0] != unless)  # (a filter costs 2x the scan)
    return None if len(values) > 1 else values


def currency_label(con: Connection, money: str, currency: str) -> tuple[str, list[Any]]:
    """The aggregate naming a group's currency next to its ``money`` (an aggregate): with one
    currency in the store, that currency (bound) wherever the group has money; else
    :func:`span_label` of ``currency``."""
    one = store_values(con, "currency")
    if one is None:
        return span_label(currency), []
    return f"CASE WHEN ({money}) IS NOT NULL THEN ?::VARCHAR END", [one[0] if one else None]


def scoring_label(con: Connection, scoring: str) -> tuple[str, list[Any]]:
    """The aggregate naming a group's scoring systems as :func:`span_label` of ``scoring``
    does (``'1-6'``, ``'race'``, ``'1-6, race'``), but from counts (no string aggregate) when
    the store holds at most one system besides race (every hand has its scoring system)."""
    other = store_values(con, "scoring", unless=RACE)
    if other is None:
        return span_label(scoring), []
    race = race_count(scoring)
    if not other:
        return "?::VARCHAR", [RACE]
    both = ", ".join(sorted((other[0], RACE)))
    return (f"CASE WHEN {race} = 0 THEN ?::VARCHAR WHEN {race} = count(*) THEN ?::VARCHAR "
            "ELSE ?::VARCHAR END", [other[0], RACE, both])


def race_count(scoring: str) -> str:
    """The aggregate counting a group's race-scored hands (one spelling, so that DuckDB
    computes it once however often a query names it)."""
    return f"count_if({scoring} = '{RACE}')"


def point_sql(alias: str) -> str:
    """A hand's points for a total that must not mix race points with others: ``NULL`` for a
    race-scored hand (aggregates skip it).

    >>> point_sql("hp")
    "CASE WHEN hp.scoring = 'race' THEN NULL ELSE hp.points END"
    """
    return f"CASE WHEN {alias}.scoring = '{RACE}' THEN NULL ELSE {alias}.points END"
