"""What the sidebar offers: the players, variants, rulesets, rooms, stakes, opponents,
sessions and date span of the store (:func:`filter_options`), whose results a page opens on
(:func:`default_player`), and the user's names ("me").

>>> FilterOptions((), (), (), (), (), None, None).rooms
()
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from typing import Any

from dashboard.queries.aggregated import available
from dashboard.queries.conditions import where
from dashboard.queries.fetch import Connection, fetch_all
from dashboard.queries.filter_set import Filters, Stake
from dashboard.queries.me_sql import names_in, not_me
from ingest import api
from ingest.api import MyName, Suggestion


def default_player(con: Connection) -> str | None:
    """Whose results to show by default: the logs' most frequent hero, else the most frequent
    player; ``None`` for an empty database."""
    hands, count = ("agg_hands", "sum(hands)") if available(con) else ("hands", "count(*)")
    rows = fetch_all(con, f"""
        SELECT hero FROM {hands} WHERE hero IS NOT NULL
        GROUP BY hero ORDER BY {count} DESC, hero LIMIT 1""")
    if not rows:  # no hero in any log: only then count every player's rows
        rows = fetch_all(con, f"""
            SELECT player FROM {_players(con)} GROUP BY player
            ORDER BY {count} DESC, player LIMIT 1""")
    return str(rows[0][0]) if rows else None


def _hands(con: Connection) -> str:
    """Where the sidebar reads the hands' columns: ``agg_hands`` (one row per group of hands,
    with its variant, ruleset, source, session, stake, currency, scoring, hero and ``hands``)
    when :func:`~dashboard.queries.aggregated.available`, else ``hands``."""
    return "agg_hands" if available(con) else "hands"


def _players(con: Connection) -> str:
    """Where the sidebar counts each player's hands: ``agg_players`` (``sum(hands)``) or
    ``hand_players``."""
    return "agg_players" if available(con) else "hand_players"


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
    rooms: tuple[str, ...] = ()
    stakes: tuple[Stake, ...] = ()


def players(con: Connection) -> tuple[str, ...]:
    """Every player, most hands first."""
    count = "sum(hands)" if available(con) else "count(*)"
    return tuple(r[0] for r in fetch_all(
        con, f"SELECT player FROM {_players(con)} GROUP BY player "
             f"ORDER BY {count} DESC, player"))


def _column(con: Connection, expr: str) -> tuple[str, ...]:
    """The distinct values of ``hands.<expr>`` (one of this package's names), in order."""
    rows = fetch_all(con, f"SELECT DISTINCT {expr} AS v FROM {_hands(con)} "
                          f"WHERE {expr} IS NOT NULL ORDER BY v")
    return tuple(r[0] for r in rows)


def stakes(con: Connection) -> tuple[Stake, ...]:
    """The stake levels of the stored hands (by currency, then amount); hands without a stake
    have none."""
    rows = fetch_all(con, f"SELECT DISTINCT stake, currency FROM {_hands(con)} "
                          "WHERE stake IS NOT NULL ORDER BY currency NULLS FIRST, stake")
    return tuple(Stake(float(amount), currency) for amount, currency in rows)


def filter_options(con: Connection, player: str | None, me: tuple[MyName, ...] | None = None,
                   me_skip: tuple[int, ...] | None = None) -> FilterOptions:
    """Players by number of hands; the variants, rulesets, rooms (sources), stake levels,
    newest sessions and date span of the database; the opponents ``player`` (else ``me``: my
    names) has met (everyone when neither). Cheap on a big store: single-table scans, no
    joins (but for "me" with two or more names, where the opponents come from my own rows)."""
    agg = available(con)
    first_time, last_time = ("started", "ended") if agg else ("played_at", "played_at")
    sessions = fetch_all(con, f"""
        SELECT session_id FROM {_hands(con)} WHERE session_id IS NOT NULL GROUP BY session_id
        ORDER BY max({last_time}) DESC NULLS LAST, session_id LIMIT ?""", [SESSION_CHOICES])
    if player is None and me:
        opponents = _my_opponents(con, Filters(me=me, me_skip=me_skip))
    elif player is None:
        opponents = fetch_all(con, f"SELECT DISTINCT player FROM {_players(con)} ORDER BY 1")
    else:
        pairs = "agg_opponents" if agg else "pairs"
        opponents = fetch_all(con, f"SELECT DISTINCT opponent FROM {pairs} WHERE player = ? "
                                   "ORDER BY 1", [player])
    first, last = fetch_all(con, f"SELECT CAST(min({first_time}) AS DATE), "
                                 f"CAST(max({last_time}) AS DATE) FROM {_hands(con)}")[0]
    return FilterOptions(
        players=players(con), variants=_column(con, "variant"),
        rulesets=_column(con, "ruleset_label"),
        opponents=tuple(r[0] for r in opponents), sessions=tuple(r[0] for r in sessions),
        first_date=first, last_date=last, rooms=_column(con, "source"), stakes=stakes(con),
    )


def _my_opponents(con: Connection, filters: Filters) -> list[tuple[Any, ...]]:
    """The opponents my seats have met (never another of my names at the same table)."""
    first, params = names_in(filters, "p.player")
    if all(n.source is None for n in filters.me or ()) and not not_me(filters, "", "")[0]:
        pairs = "agg_opponents" if available(con) else "pairs"
        return fetch_all(con, f"SELECT DISTINCT p.opponent FROM {pairs} p WHERE {first} "
                              "ORDER BY 1", params)
    cond, more = where(filters)
    others, last = not_me(filters, "p.opponent", "p.hand_key")
    return fetch_all(con, f"""
        SELECT DISTINCT p.opponent FROM pairs p
        JOIN hand_players hp ON hp.hand_key = p.hand_key AND hp.seat = p.seat
        WHERE {first} AND {cond} {others} ORDER BY 1""", [*params, *more, *last])


def my_names(con: Connection) -> tuple[MyName, ...]:
    """The user's names ("me"; empty until set): :func:`ingest.api.my_names`."""
    return api.my_names(con)


def sources(con: Connection) -> tuple[str, ...]:
    """Every source (room, app, home game) of the stored hands, for a name kept to one."""
    return _column(con, "source")


def suggested_names(con: Connection) -> tuple[Suggestion, ...]:
    """The heroes of the imported logs not among my names (the demo's left out), most hands
    first: :func:`ingest.api.suggested_names`."""
    return api.suggested_names(con)
