"""The SQL of "me": the user's own names (:class:`ingest.api.MyName`, aliases across rooms)
as conditions over a query's rows. Names are always parameters, one ``?`` each.

A name without a source is mine anywhere; a name with one only in that source's hands. When
two of my names sit at one table, the first (lowest seat) is me and the other neither me nor
my opponent:

>>> me_sql((MyName("ann"),), "hp")
('(hp.player IN (?))', ['ann'])
>>> me_sql((MyName("ann"), MyName("bo")), "hp", ())  # no table seats both
('(hp.player IN (?, ?))', ['ann', 'bo'])
"""

from __future__ import annotations

from typing import Any

from dashboard.queries.fetch import Connection, fetch_all
from dashboard.queries.filter_set import Filters
from ingest.api import MyName


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
        parts.append(f"{player} IN ({_marks(len(anywhere))})")
        params += anywhere
    for source, group in by_source.items():
        marks = _marks(len(group))
        parts.append(f"({player} IN ({marks}) AND {hand_key} IN (SELECT h.hand_key FROM hands h "
                     "WHERE h.source = ? AND h.hand_key IN (SELECT x.hand_key FROM hand_players x "
                     f"WHERE x.player IN ({marks}))))")
        params += [*group, source, *group]
    return "(" + " OR ".join(parts) + ")", params


def _marks(count: int) -> str:
    """``count`` parameter marks for an ``IN (...)`` list.

    >>> _marks(3)
    '?, ?, ?'
    """
    return ", ".join("?" * count)


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


def effective_names(con: Connection, names: tuple[MyName, ...]) -> tuple[MyName, ...]:
    """My names as the stored hands see them, for the cheapest ``where``: a name kept to a
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
            WHERE hp.player IN ({_marks(len(sourced))})""", sourced):
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
gives up and ``where`` finds them itself."""


def shared_seats(con: Connection, names: tuple[MyName, ...]) -> tuple[int, ...] | None:
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
    """Whether a name alone finds my seat in every hand the filters keep (``where``), so
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


def _my_name_list(filters: Filters) -> list[str]:
    """The names :func:`names_in` and :func:`not_my_name` match: the chosen player's, else
    each of my names once (empty when neither is chosen)."""
    if filters.player is not None:
        return [filters.player]
    return list(dict.fromkeys(n.name for n in filters.me or ()))


def not_my_name(filters: Filters, column: str) -> tuple[str, list[Any]]:
    """A name column's condition of not being me, for rows of hands where
    :func:`seat_by_name` holds (it pushes down into the scan, unlike a seat comparison).

    >>> not_my_name(Filters(player="ann"), "o.player")
    ('o.player <> ?', ['ann'])
    >>> not_my_name(Filters(me=(MyName("ann"), MyName("bo"))), "o.player")
    ('o.player NOT IN (?, ?)', ['ann', 'bo'])
    """
    names = _my_name_list(filters)
    if filters.player is not None:
        return f"{column} <> ?", names
    if names:
        return f"{column} NOT IN ({_marks(len(names))})", names
    return "TRUE", []  # nobody is me


def names_in(filters: Filters, column: str) -> tuple[str, list[Any]]:
    """A cheap first cut on a name column: the chosen player's name, or any of my names (the
    exact rows come from ``where``; this only lets DuckDB skip the others early).

    >>> names_in(Filters(player="ann"), "p.player")
    ('p.player = ?', ['ann'])
    >>> names_in(Filters(me=(MyName("ann"), MyName("ann", "swc"))), "p.player")
    ('p.player IN (?)', ['ann'])
    >>> names_in(Filters(), "p.player")
    ('TRUE', [])
    """
    names = _my_name_list(filters)
    if filters.player is not None:
        return f"{column} = ?", names
    if names:
        return f"{column} IN ({_marks(len(names))})", names
    return "TRUE", []
