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

A tag is one condition too, matched by its case-folded key (:func:`ingest.api.tag_key`):

>>> sql, params = where(Filters(player="ann", tag=" Tilt "))
>>> params
['ann', 'tilt']

Pages use :data:`PLAYER_HANDS` as their FROM clause:

>>> sql, params = where(Filters(player="ann"))
>>> f"SELECT count(*) {PLAYER_HANDS} WHERE {sql}"
'SELECT count(*) FROM hands h JOIN hand_players hp ON hp.hand_key = h.hand_key WHERE hp.player = ?'

"Me" (the user's names, :attr:`Filters.me`) is one condition with the names as parameters:

>>> where(Filters(me=(MyName("ann"),)))
('(hp.player IN (?))', ['ann'])
>>> where(Filters(me=(MyName("ann"), MyName("bo")), me_skip=()))  # no table seats both
('(hp.player IN (?, ?))', ['ann', 'bo'])
"""

from __future__ import annotations

from dataclasses import dataclass, fields, replace
from datetime import date
from typing import Any

import pandas as pd

from ingest import api
from ingest.api import MyName, Suggestion

PLAYER_HANDS = "FROM hands h JOIN hand_players hp ON hp.hand_key = h.hand_key"
"""The FROM clause :func:`where` expects: one row per hand of the filtered player."""

PLAYER_ROWS = "FROM hand_players hp"
"""The same rows without the join, for queries that read only ``hand_players`` columns (it
carries the hand's filter and grouping columns): much cheaper on a big store."""


@dataclass(frozen=True, slots=True)
class Filters:
    """What every page is narrowed to. ``None`` means "all".

    ``player`` is whose results the pages show; ``me`` the user's own names (aliases across
    rooms, :class:`ingest.api.MyName`), shown together as one player (``None``: not chosen;
    both set: the player among my names), and ``me_skip`` the seats of mine that hands seating
    two of my names leave out (``hand_key * 8 + seat`` of each seat after the first:
    :func:`shared_seats`; ``None``: not known, :func:`where` finds them itself, which costs
    more); ``opponent`` keeps the hands where that opponent sat at the table; ``variant`` is
    the preset name (``hands.variant``), ``ruleset`` the full label (``hands.ruleset_label``);
    ``session`` is ``hands.session_id``. Dates are inclusive days in the database's time zone
    (hands without a date drop out when a date bound is set); the SQL compares timestamps, so
    no per-row date conversion. ``tag`` keeps the hands carrying that tag
    (``hand_tags``, matched case-folded).

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
    me: tuple[MyName, ...] | None = None
    me_skip: tuple[int, ...] | None = None
    tag: str | None = None

    def with_(self, **changes: Any) -> Filters:
        return replace(self, **changes)

    def to_params(self) -> dict[str, str]:
        """The URL query parameters of these filters (only the ones set).

        >>> Filters(player="ann", date_from=date(2026, 1, 2)).to_params()
        {'player': 'ann', 'from': '2026-01-02'}
        """
        out: dict[str, str] = {}
        for f in fields(self):
            if f.name not in URL_KEYS:
                continue
            value = getattr(self, f.name)
            if f.name == "me":
                value = ME_PARAM_ON if value else None
            if value is not None:
                out[URL_KEYS[f.name]] = value.isoformat() if isinstance(value, date) else value
        return out

    @classmethod
    def from_params(cls, params: dict[str, str], me: tuple[MyName, ...] = ()) -> Filters:
        """Inverse of :meth:`to_params`; a malformed date is ignored, never an error. The URL
        says only whether "me" is chosen (``?me=1``): ``me`` gives the names.

        >>> Filters.from_params({"player": "ann", "to": "2026-02-30", "x": "1"}) == Filters("ann")
        True
        >>> Filters.from_params({"me": "1"}, (MyName("ann"),)).to_params()
        {'me': '1'}
        """
        values: dict[str, Any] = {}
        for f in fields(cls):
            if f.name not in URL_KEYS:
                continue
            raw = params.get(URL_KEYS[f.name])
            if raw in (None, ""):
                continue
            if f.name == "me":
                if raw == ME_PARAM_ON and me:
                    values["me"] = tuple(me)
            elif f.name in ("date_from", "date_to"):
                try:
                    values[f.name] = date.fromisoformat(str(raw))
                except ValueError:
                    continue
            else:
                values[f.name] = str(raw)
        return cls(**values)


URL_KEYS = {
    "player": "player", "date_from": "from", "date_to": "to", "variant": "variant",
    "ruleset": "ruleset", "opponent": "opponent", "session": "session", "me": "me",
    "tag": "tag",
}
"""Filter field -> URL query parameter name (``?player=ann&from=2026-01-01``)."""

ME_PARAM_ON = "1"
"""``?me=1``: the pages show the user's own names (:attr:`Filters.me`)."""

_CONDITIONS = (
    ("player", "hp.player = ?"),
    ("date_from", "hp.played_at >= CAST(? AS TIMESTAMPTZ)"),
    ("date_to", "hp.played_at < CAST(? AS TIMESTAMPTZ) + INTERVAL 1 DAY"),
    ("variant", "hp.variant = ?"),
    ("ruleset", "hp.ruleset_label = ?"),
    ("opponent", "EXISTS (SELECT 1 FROM hand_players o WHERE o.hand_key = hp.hand_key"
                 " AND o.player = ? AND o.seat <> hp.seat)"),
    ("session", "hp.session_id = ?"),
    ("tag", "hp.hand_key IN (SELECT th.hand_key FROM hand_tags t JOIN hands th"
            " ON th.source = t.source AND th.hand_id = t.hand_id WHERE t.tag_key = ?)"),
)

_BOUND = {"tag": api.tag_key}
"""How a filter's value becomes its bound parameter, when not as it is."""


def where(filters: Filters) -> tuple[str, list[Any]]:
    """SQL condition over ``hp`` (the player's hand_players row, which carries the hand's
    played_at, variant, ruleset_label and session_id), and its bound parameters, in order.
    ``'TRUE'`` when nothing is filtered. It reads no ``hands`` column, so a query that needs
    none can run over ``hand_players hp`` alone (:data:`PLAYER_ROWS`)."""
    parts: list[str] = []
    params: list[Any] = []
    if filters.me:
        mine, more = me_sql(filters.me, "hp", filters.me_skip)
        parts.append(mine)
        params += more
    for name, sql in _CONDITIONS:
        value = getattr(filters, name)
        if value is not None:
            parts.append(sql)
            params.append(_BOUND[name](value) if name in _BOUND else value)
    return (" AND ".join(parts) or "TRUE"), params


def is_mine(names: tuple[MyName, ...], player: str, hand_key: str) -> tuple[str, list[Any]]:
    """SQL true when the name ``player`` in hand ``hand_key`` (two SQL expressions) is one of
    ``names``: a name without a source anywhere, a name with one in that source's hands only.
    Names are parameters, one ``?`` each.

    >>> is_mine((MyName("ann"), MyName("bo")), "hp.player", "hp.hand_key")
    ('(hp.player IN (?, ?))', ['ann', 'bo'])
    >>> is_mine((MyName("ann", "swc"),), "p.opponent", "p.hand_key")[1]
    ['ann', 'swc', 'ann']
    """
    anywhere = [n.name for n in names if n.source is None]
    by_source: dict[str, list[str]] = {}
    for n in names:
        if n.source is not None:
            by_source.setdefault(n.source, []).append(n.name)
    parts: list[str] = []
    params: list[Any] = []
    if anywhere:
        parts.append(f"{player} IN ({', '.join('?' * len(anywhere))})")
        params += anywhere
    for source, group in by_source.items():
        marks = ", ".join("?" * len(group))
        parts.append(f"({player} IN ({marks}) AND {hand_key} IN (SELECT h.hand_key FROM hands h "
                     "WHERE h.source = ? AND h.hand_key IN (SELECT x.hand_key FROM hand_players x "
                     f"WHERE x.player IN ({marks}))))")
        params += [*group, source, *group]
    return "(" + " OR ".join(parts) + ")", params


def me_sql(names: tuple[MyName, ...], alias: str, skip: tuple[int, ...] | None = None
           ) -> tuple[str, list[Any]]:
    """The condition that the ``hand_players`` row ``alias`` is me: its player is one of my
    names (:func:`is_mine`) and, when two of my names sit at one table, it is the first of
    them (lowest seat): not one of the seats ``skip`` (:func:`shared_seats`; found here when
    ``None``). A hand counts once for me; my other seat in it is neither me nor my opponent
    (:func:`not_me`)."""
    mine, params = is_mine(names, f"{alias}.player", f"{alias}.hand_key")
    if skip == () or len({n.name for n in names}) < 2:  # names are unique in a hand
        return mine, params
    if skip is not None:
        return (f"{mine} AND {alias}.hand_key * 8 + {alias}.seat NOT IN "
                "(SELECT unnest(?::BIGINT[]))"), [*params, list(skip)]
    first, more = is_mine(names, "m.player", "m.hand_key")
    later, last = is_mine(names, "o.player", "o.hand_key")
    # the seats of mine after the first in a hand: found once (no correlated subquery)
    return (f"{mine} AND {alias}.hand_key * 8 + {alias}.seat NOT IN ("
            "SELECT o.hand_key * 8 + o.seat FROM hand_players o JOIN ("
            f"SELECT m.hand_key, min(m.seat) AS seat FROM hand_players m WHERE {first} "
            "GROUP BY m.hand_key HAVING count(*) > 1) d "
            f"ON d.hand_key = o.hand_key AND o.seat > d.seat WHERE {later})",
            [*params, *more, *last])


def effective_names(con: Any, names: tuple[MyName, ...]) -> tuple[MyName, ...]:
    """My names as the stored hands see them, for the cheapest :func:`where`: a name kept to a
    source it is seen in only is kept to none (no hand of another source to leave out), a name
    kept to a source it is never seen in is left out; the others stay as they are. The names
    themselves when none is kept to a source, or when nothing is left."""
    sourced = list(dict.fromkeys(n.name for n in names if n.source is not None))
    if not sourced:
        return names
    seen: dict[str, set[str]] = {}
    for player, source in fetch_all(con, f"""
            SELECT DISTINCT hp.player, h.source FROM hand_players hp
            JOIN hands h ON h.hand_key = hp.hand_key
            WHERE hp.player IN ({', '.join('?' * len(sourced))})""", sourced):
        seen.setdefault(player, set()).add(source)
    out: list[MyName] = []
    for n in names:
        where_seen = seen.get(n.name, set())
        if n.source is not None and n.source not in where_seen:
            continue
        kept = MyName(n.name) if n.source is not None and where_seen == {n.source} else n
        if kept not in out and MyName(n.name) not in out:
            out.append(kept)
    return tuple(out) or names


SHARED_SEATS_LIMIT = 20_000
"""More seats than this to leave out (hands seating two of my names): :func:`shared_seats`
gives up and :func:`where` finds them itself."""


def shared_seats(con: Any, names: tuple[MyName, ...]) -> tuple[int, ...] | None:
    """``hand_key * 8 + seat`` of each seat of mine after the first in a hand that seats two
    or more of my names (for :attr:`Filters.me_skip`; usually none); ``None`` when there are
    more than :data:`SHARED_SEATS_LIMIT`."""
    if len({n.name for n in names}) < 2:
        return ()
    mine, params = me_sql(names, "hp")
    first, more = is_mine(names, "hp.player", "hp.hand_key")
    rows = fetch_all(con, f"""
        SELECT hp.hand_key * 8 + hp.seat FROM hand_players hp WHERE {first} AND NOT ({mine})
        ORDER BY 1 LIMIT ?""", [*more, *params, SHARED_SEATS_LIMIT + 1])
    return None if len(rows) > SHARED_SEATS_LIMIT else tuple(int(r[0]) for r in rows)


def not_me(filters: Filters, player: str, hand_key: str) -> tuple[str, list[Any]]:
    """``AND ...`` keeping the rows where the name ``player`` of hand ``hand_key`` is an
    opponent, not another of my names at the same table; empty when it cannot be (one name,
    or a single player chosen).

    >>> not_me(Filters(player="ann"), "p.opponent", "p.hand_key")
    ('', [])
    """
    if not filters.me or filters.me_skip == () or len({n.name for n in filters.me}) < 2:
        return "", []
    mine, params = is_mine(filters.me, player, hand_key)
    return f"AND NOT {mine}", params


def seat_by_name(filters: Filters) -> bool:
    """Whether a name alone finds my seat in every hand the filters keep (:func:`where`), so
    that a pair or an opponent's row there can be matched by name instead of by seat (a
    cheaper join): true for one chosen player, and for "me" when my names are not kept to
    sources (or are one name: then every kept hand is one where it is mine) and no table seats
    two of them (:func:`not_me` has nothing to leave out).

    >>> seat_by_name(Filters(player="ann")), seat_by_name(Filters(me=(MyName("ann", "swc"),)))
    (True, True)
    >>> seat_by_name(Filters(me=(MyName("ann"), MyName("bo", "swc"))))
    False
    """
    if filters.me and not_me(filters, "", "")[0]:
        return False
    if filters.player is not None:
        return True
    names = filters.me or ()
    return bool(names) and (all(n.source is None for n in names)
                            or len({n.name for n in names}) == 1)


def not_my_name(filters: Filters, column: str) -> tuple[str, list[Any]]:
    """A name column's condition of not being me, for rows of hands where
    :func:`seat_by_name` holds (it pushes down into the scan, unlike a seat comparison).

    >>> not_my_name(Filters(player="ann"), "o.player")
    ('o.player <> ?', ['ann'])
    >>> not_my_name(Filters(me=(MyName("ann"), MyName("bo"))), "o.player")
    ('o.player NOT IN (?, ?)', ['ann', 'bo'])
    """
    first, params = names_in(filters, column)
    if filters.player is not None:
        return first.replace(" = ?", " <> ?"), params
    return first.replace(" IN (", " NOT IN ("), params


def names_in(filters: Filters, column: str) -> tuple[str, list[Any]]:
    """A cheap first cut on a name column: the chosen player's name, or any of my names (the
    exact rows come from :func:`where`; this only lets DuckDB skip the others early).

    >>> names_in(Filters(player="ann"), "p.player")
    ('p.player = ?', ['ann'])
    >>> names_in(Filters(me=(MyName("ann"), MyName("ann", "swc"))), "p.player")
    ('p.player IN (?)', ['ann'])
    """
    if filters.player is not None:
        return f"{column} = ?", [filters.player]
    if filters.me:
        names = list(dict.fromkeys(n.name for n in filters.me))
        return f"{column} IN ({', '.join('?' * len(names))})", names
    return "TRUE", []


def player_chosen(filters: Filters) -> bool:
    """Whether the filters name whose results to show (a player, or me)."""
    return filters.player is not None or bool(filters.me)


def shown_players(filters: Filters) -> str:
    """Who the pages show, for a heading (plain text: the caller escapes it).

    >>> shown_players(Filters(me=(MyName("ann"), MyName("ann_swc", "swc"))))
    'me (ann, ann_swc (swc))'
    >>> shown_players(Filters(player="bo"))
    'bo'
    """
    if filters.me and filters.player is None:
        return f"me ({', '.join(str(n) for n in filters.me)})"
    return filters.player or ""


def fetch_df(con: Any, sql: str, params: list[Any] | tuple[Any, ...] = ()) -> pd.DataFrame:
    """Run one query on its own cursor (a DuckDB connection is shared between threads) and
    return a DataFrame."""
    cur = con.cursor()
    try:
        frame: pd.DataFrame = cur.execute(sql, list(params)).df()
        return frame
    finally:
        cur.close()


def fetch_all(con: Any, sql: str, params: list[Any] | tuple[Any, ...] = (),
              ) -> list[tuple[Any, ...]]:
    cur = con.cursor()
    try:
        rows: list[tuple[Any, ...]] = cur.execute(sql, list(params)).fetchall()
        return rows
    finally:
        cur.close()


def fetch_all_numpy(con: Any, sql: str, params: list[Any] | tuple[Any, ...] = ()
                    ) -> dict[str, Any]:
    """Run one query on its own cursor and return its columns as numpy arrays."""
    cur = con.cursor()
    try:
        columns: dict[str, Any] = cur.execute(sql, list(params)).fetchnumpy()
        return columns
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


def filter_options(con: Any, player: str | None, me: tuple[MyName, ...] | None = None,
                   me_skip: tuple[int, ...] | None = None) -> FilterOptions:
    """Players by number of hands; the variants, rulesets, newest sessions and date span of
    the database; the opponents ``player`` (else ``me``: my names) has met (everyone when
    neither). Cheap on a big store: single-table scans, no joins (but for "me" with two or
    more names, where the opponents come from my own rows)."""
    def column(expr: str) -> tuple[str, ...]:
        rows = fetch_all(con, f"SELECT DISTINCT {expr} AS v FROM hands WHERE {expr} IS NOT NULL "
                              "ORDER BY v")
        return tuple(r[0] for r in rows)

    sessions = fetch_all(con, """
        SELECT session_id FROM hands WHERE session_id IS NOT NULL GROUP BY session_id
        ORDER BY max(played_at) DESC NULLS LAST, session_id LIMIT ?""", [SESSION_CHOICES])
    if player is None and me:
        opponents = _my_opponents(con, Filters(me=me, me_skip=me_skip))
    elif player is None:
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


def _my_opponents(con: Any, filters: Filters) -> list[tuple[Any, ...]]:
    """The opponents my seats have met (never another of my names at the same table)."""
    first, params = names_in(filters, "p.player")
    if all(n.source is None for n in filters.me or ()) and not not_me(filters, "", "")[0]:
        return fetch_all(con, f"SELECT DISTINCT p.opponent FROM pairs p WHERE {first} "
                              "ORDER BY 1", params)
    cond, more = where(filters)
    others, last = not_me(filters, "p.opponent", "p.hand_key")
    return fetch_all(con, f"""
        SELECT DISTINCT p.opponent FROM pairs p
        JOIN hand_players hp ON hp.hand_key = p.hand_key AND hp.seat = p.seat
        WHERE {first} AND {cond} {others} ORDER BY 1""", [*params, *more, *last])


def my_names(con: Any) -> tuple[MyName, ...]:
    """The user's names ("me"; empty until set): :func:`ingest.api.my_names`."""
    return api.my_names(con)


def sources(con: Any) -> tuple[str, ...]:
    """Every source (room, app, home game) of the stored hands, for a name kept to one."""
    return tuple(r[0] for r in fetch_all(con, "SELECT DISTINCT source FROM hands ORDER BY 1"))


def suggested_names(con: Any) -> tuple[Suggestion, ...]:
    """The heroes of the imported logs not among my names (the demo's left out), most hands
    first: :func:`ingest.api.suggested_names`."""
    return api.suggested_names(con)


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


def store_values(con: Any, column: str, *, unless: str | None = None) -> tuple[str, ...] | None:
    """The one value of ``hands.<column>`` in the whole store (none, or one; ``unless``: not
    counting that value), or ``None`` when there are more: a page whose groups can hold only
    that value names it without reading the column row by row (a string aggregate over a
    million rows costs 30-60 ms). ``column`` is one of this package's names, never a file's."""
    rows = fetch_all(con, f"SELECT DISTINCT {column} FROM hands WHERE {column} IS NOT NULL "
                          "LIMIT ?", [3 if unless is not None else 2])
    values = tuple(str(r[0]) for r in rows if r[0] != unless)  # (a filter costs 2x the scan)
    return None if len(values) > 1 else values


def currency_label(con: Any, money: str, currency: str) -> tuple[str, list[Any]]:
    """The aggregate naming a group's currency next to its ``money`` (an aggregate): with one
    currency in the store, that currency (bound) wherever the group has money; else
    :func:`span_label` of ``currency``."""
    one = store_values(con, "currency")
    if one is None:
        return span_label(currency), []
    return f"CASE WHEN ({money}) IS NOT NULL THEN ?::VARCHAR END", [one[0] if one else None]


def scoring_label(con: Any, scoring: str) -> tuple[str, list[Any]]:
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
    race-scored hand (aggregates skip it)."""
    return f"CASE WHEN {alias}.scoring = '{RACE}' THEN NULL ELSE {alias}.points END"
