"""Hand review queries: finding hands, and everything stored about one hand.

>>> sql, params = search_where(HandSearch(hand_id="12", fouled=True, royalties_min=4))
>>> sql
'contains(h.hand_id, ?) AND hp.fouled = ? AND hp.royalties >= ?'
>>> params
['12', True, 4]
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pandas as pd

from dashboard.queries.aggregated import agg_filters, agg_where, tagged_rows
from dashboard.queries.common import (
    PLAYER_HANDS,
    PLAYER_ROWS,
    Filters,
    fetch_all,
    fetch_df,
    not_me,
    where,
)
from ingest.api import HOUR_US


@dataclass(frozen=True, slots=True)
class HandSearch:
    """What Hand review's search narrows the filtered hands to (``None`` = any)."""

    hand_id: str | None = None
    """Part of the log's hand id."""
    fouled: bool | None = None
    fantasyland: bool | None = None
    """The player played the hand in Fantasyland."""
    royalties_min: int | None = None
    royalties_max: int | None = None
    differs: bool = False
    """Only hands where the room's reported result differs from ours."""


_SEARCH = (
    ("hand_id", "contains(h.hand_id, ?)"),
    ("fouled", "hp.fouled = ?"),
    ("fantasyland", "hp.fantasyland = ?"),
    ("royalties_min", "hp.royalties >= ?"),
    ("royalties_max", "hp.royalties <= ?"),
)


def scanned(search: HandSearch) -> str:
    """The FROM clause a search needs: the player's rows alone (:data:`PLAYER_ROWS`, much
    cheaper on a big store) unless it reads a ``hands`` column (the hand id, the room's
    result)."""
    return PLAYER_HANDS if search.hand_id or search.differs else PLAYER_ROWS


def search_where(search: HandSearch) -> tuple[str, list[Any]]:
    parts: list[str] = []
    params: list[Any] = []
    for name, sql in _SEARCH:
        value = getattr(search, name)
        if value is not None and value != "":
            parts.append(sql)
            params.append(value)
    if search.differs:
        parts.append("h.points_differ")
    return (" AND ".join(parts) or "TRUE"), params


PAGE_SIZE = 500
"""Hands per page of Hand review's list."""

ORDER = "coalesce(hp.played_at, '-infinity'::TIMESTAMPTZ)"
"""The list's order, newest first: this, then ``hand_key`` (hands without a date last). A
hand's place in it is the pair ``(ORDER, hand_key)``, so the list pages and steps by a keyset
(rows before or after one hand), never by an offset over every row. (Sorting, the list says
``played_at DESC NULLS LAST``: the same order, cheaper than the expression.)"""

@dataclass(frozen=True, slots=True)
class Page:
    """Where a page of the list starts: at hand ``key`` (``inclusive``) or next to it, running
    ``older`` (the page begins there) or newer (the page ends there). The newest page is
    ``None``."""

    key: int
    older: bool = True
    inclusive: bool = True


def _anchor(con: Any, hand_key: int) -> tuple[int | None] | None:
    """The stored hand's ``played_at`` in microseconds (``(None,)`` without a date), or
    ``None`` when no hand has that key."""
    rows = fetch_all(con, "SELECT epoch_us(played_at) FROM hands WHERE hand_key = ?",
                     [int(hand_key)])
    return (None if rows[0][0] is None else int(rows[0][0]),) if rows else None


def _beyond(at: int | None, key: int, older: bool, inclusive: bool
            ) -> list[tuple[str, list[Any]]]:
    """The rows past the hand ``(at, key)`` in :data:`ORDER` (``at``: its time in
    microseconds, ``None`` without a date), running older or newer (the hand itself too when
    ``inclusive``): one or two conditions whose rows together are those (no row in both). Each
    compares ``hp.played_at`` with a constant where it can, so that the scan skips the row
    groups outside the time (an older page far back reads only those rows, not every hand
    before it in the list), and hands without a date (the oldest, at the end) get a
    condition of their own.

    >>> [sql.replace("make_timestamptz(?)", "T") for sql, _ in _beyond(5, 9, True, True)]
    ['hp.played_at <= T AND (hp.played_at < T OR hp.hand_key <= ?)', 'hp.played_at IS NULL']
    >>> [sql for sql, _ in _beyond(None, 9, older=True, inclusive=False)]
    ['hp.played_at IS NULL AND hp.hand_key < ?']
    """
    side = "<" if older else ">"
    same = f"hp.hand_key {side}{'=' if inclusive else ''} ?"
    if at is None:  # an undated hand: older are the undated with a lesser key
        undated = (f"hp.played_at IS NULL AND {same}", [key])
        return [undated] if older else [undated, ("hp.played_at IS NOT NULL", [])]
    t = "make_timestamptz(?)"
    dated = (f"hp.played_at {side}= {t} AND (hp.played_at {side} {t} OR {same})", [at, at, key])
    return [dated, ("hp.played_at IS NULL", [])] if older else [dated]


def _found(filters: Filters, search: HandSearch, columns: str, scan: str,
           page: tuple[int | None, Page] | None, since: int | None = None
           ) -> tuple[str, list[Any]]:
    """The SELECT of the filtered player's rows matching ``search`` (``columns`` of
    :func:`scanned`'s aliases, read from ``scan``: its FROM clause or the same over the
    tagged hands, :func:`~dashboard.queries.aggregated.tagged_rows`), past ``page`` (its
    hand's time, :func:`_anchor`, and the page) when given: a ``UNION ALL`` of
    :func:`_beyond`'s parts; else those played at ``since`` (microseconds) or later when
    given."""
    cond, params = where(filters)
    extra, more = search_where(search)
    parts: list[tuple[str, list[Any]]] = [("TRUE", [])]
    if page is not None:
        parts = _beyond(page[0], int(page[1].key), page[1].older, page[1].inclusive)
    elif since is not None:  # on the hand's own row too, so that its scan skips as well
        joined = scanned(search) == PLAYER_HANDS
        parts = [("hp.played_at >= make_timestamptz(?)" + (
            " AND h.played_at >= make_timestamptz(?)" if joined else ""),
            [since, since] if joined else [since])]
    sql = " UNION ALL ".join(f"SELECT {columns} {scan} "
                             f"WHERE {cond} AND {extra} AND {keyset}" for keyset, _ in parts)
    return sql, [p for _, at in parts for p in [*params, *more, *at]]


RECENT = (8, 128, 2048)
"""A search in ``hands`` (the hand id, the room's result: a join, which a sorted scan cannot
stop early) looks for the newest page among the player's newest ``8 x limit`` hands first,
then ``128 x limit`` and ``2048 x limit`` (counted per hour from ``agg_players``), then among
all: each scan reads only those hours' rows, and a search whose hands are not rare finds its
page in the first."""


def _recent(con: Any, filters: Filters, limit: int) -> list[int]:
    """The start (microseconds) of the latest hour with at least ``n x limit`` of the
    filtered player's hands in it or after it, for each ``n`` of :data:`RECENT` whose hands
    are at most half of the player's dated hands (none when the aggregates cannot answer the
    filters)."""
    found = agg_where(con, filters)
    if found is None or limit <= 0:
        return []
    cond, params = found
    wanted = [n * limit for n in RECENT]
    picks = ", ".join("max(hour) FILTER (WHERE c >= ?)" for _ in wanted)
    row = fetch_all(con, f"""
        SELECT max(c), {picks} FROM (
            SELECT hour, sum(sum(a.hands)) OVER (ORDER BY hour DESC) AS c
            FROM agg_players a WHERE {cond} AND a.hour IS NOT NULL GROUP BY hour)""",
        [*wanted, *params])
    if not row or row[0][0] is None:
        return []
    # a window of more than half the hands saves little over reading them all
    return [int(h) * HOUR_US for n, h in zip(wanted, row[0][1:], strict=True)
            if h is not None and 2 * n <= row[0][0]]


def find_hands(con: Any, filters: Filters, search: HandSearch = HandSearch(),
               page: Page | None = None, limit: int = PAGE_SIZE) -> pd.DataFrame:
    """One page of the filtered player's hands matching ``search``, newest first (``limit``
    rows from ``page``; the newest when ``None``): ``hand_key``, ``source``, ``hand_id``,
    ``played_at``, ``ruleset`` (label), ``opponents``, ``points``, ``royalties``, ``fouled``,
    ``fantasyland``, ``room_differs``, ``tags`` (the hand's tags, ``', '``-joined) and
    ``note`` (the hand has a note). A page running newer than its hand holds the ``limit``
    hands nearest to it; a page at a hand not stored is empty. The newest page is looked for
    in the newest hours first (:data:`RECENT`) when it reads ``hands``: ``limit`` hands found
there are the newest."""
    if page is None:
        for since in _recent(con, filters, limit) if scanned(search) == PLAYER_HANDS else []:
            frame = _page(con, filters, search, None, limit, since)
            if len(frame) >= limit:
                return frame
        return _page(con, filters, search, None, limit)
    found_at = _anchor(con, page.key)
    return _page(con, filters, search, None if found_at is None else (found_at[0], page),
                 limit if found_at is not None else 0)


def _page(con: Any, filters: Filters, search: HandSearch, at: tuple[int | None, Page] | None,
          limit: int, since: int | None = None) -> pd.DataFrame:
    """:func:`find_hands`' frame: the ``limit`` rows nearest ``at`` (the newest when
    ``None``, played at ``since`` or later when given)."""
    older = at is None or at[1].older
    direction = "DESC" if older else "ASC"
    # A search that reads ``hands`` scans it already: its columns come along; otherwise the
    # page's rows alone are joined to ``hands`` (``x``: where the hand's own columns are).
    joined = scanned(search) == PLAYER_HANDS
    carried = ", h.source, h.hand_id, h.played_at, h.ruleset_label, h.points_differ" \
        if joined else ""
    x = "f" if joined else "h"
    rows, params = _found(filters, search, "hp.hand_key, hp.seat, hp.points, hp.royalties, "
                          "hp.fouled, hp.fantasyland, hp.played_at AS sort_at, "
                          f"hp.utc_offset {carried}",
                          tagged_rows(con, filters, scanned(search)), at, since)
    others, last = not_me(filters, "o.player", "o.hand_key")
    return fetch_df(con, f"""
        WITH found AS (
            {rows}
            ORDER BY sort_at {direction} NULLS {"LAST" if older else "FIRST"},
                     hand_key {direction} LIMIT ?
        )
        SELECT f.hand_key, {x}.source, {x}.hand_id, {x}.played_at, f.utc_offset,
               {x}.ruleset_label AS ruleset,
               (SELECT string_agg(o.player, ', ' ORDER BY o.seat) FROM hand_players o
                WHERE o.hand_key = f.hand_key AND o.seat <> f.seat {others}) AS opponents,
               f.points, f.royalties, f.fouled, f.fantasyland, {x}.points_differ AS room_differs,
               (SELECT string_agg(t.tag, ', ' ORDER BY t.position) FROM hand_tags t
                WHERE t.source = {x}.source AND t.hand_id = {x}.hand_id) AS tags,
               EXISTS (SELECT 1 FROM hand_notes n
                       WHERE n.source = {x}.source AND n.hand_id = {x}.hand_id) AS note
        FROM found f {"" if joined else "JOIN hands h ON h.hand_key = f.hand_key"}
        ORDER BY f.sort_at DESC NULLS LAST, f.hand_key DESC""",
        [*params, limit, *last])


@dataclass(frozen=True, slots=True)
class Place:
    """One hand's place in the filtered list: the hands just ``newer`` and ``older`` (``None``
    at either end), its 0-based ``position`` from the newest, and the ``total``."""

    newer: int | None
    older: int | None
    position: int
    total: int


def _next(con: Any, filters: Filters, search: HandSearch, at: tuple[int | None, Page]
          ) -> int | None:
    """The key of the hand next to ``at``'s in the list (the way its page runs), if any: each
    part of :func:`_beyond` on its own, nearest first (one sorted scan each, which stops early,
    where a ``UNION ALL`` would read every row past the hand)."""
    older = at[1].older
    direction = "DESC" if older else "ASC"
    cond, params = where(filters)
    extra, more = search_where(search)
    scan = tagged_rows(con, filters, scanned(search))
    for keyset, bound in _beyond(at[0], int(at[1].key), older, at[1].inclusive):
        found = fetch_all(con, f"""
            SELECT hp.hand_key {scan} WHERE {cond} AND {extra} AND {keyset}
            ORDER BY hp.played_at {direction} NULLS {'LAST' if older else 'FIRST'},
                     hp.hand_key {direction} LIMIT 1""", [*params, *more, *bound])
        if found:
            return int(found[0][0])
    return None


def place(con: Any, filters: Filters, search: HandSearch, hand_key: int) -> Place | None:
    """Where ``hand_key`` sits among ALL the filtered hands (not only a page), ``None`` when
    the hand is not among them: one pass counts them and the newer ones. Each neighbour is
    read from the rows beside the hand in time (:func:`_next`: a sorted scan that stops
    early), or in the same pass when the rows are joined (a tag, an opponent, my names
    sharing a table, a search in ``hands``), where a sorted scan would read them all again."""
    anchor = _anchor(con, hand_key)
    if anchor is None:
        return None
    key = int(hand_key)
    cond, params = where(filters)
    extra, more = search_where(search)
    sides = {older: _beyond(anchor[0], key, older, False) for older in (False, True)}
    newer, older = (" OR ".join(f"({sql})" for sql, _ in sides[o]) for o in (False, True))
    bound = {o: [p for _, at in sides[o] for p in at] for o in (False, True)}
    in_pass = agg_filters(filters) is None or scanned(search) == PLAYER_HANDS
    at = f"({ORDER}, hp.hand_key)"
    row = fetch_all(con, f"""
        SELECT count(*) FILTER (WHERE {newer}), count(*) FILTER (WHERE hp.hand_key = ?),
               count(*) {f", arg_min(hp.hand_key, {at}) FILTER (WHERE {newer}), "
                         f"arg_max(hp.hand_key, {at}) FILTER (WHERE {older})" if in_pass else ""}
        {tagged_rows(con, filters, scanned(search))} WHERE {cond} AND {extra}""",
        [*bound[False], key, *(bound[False] + bound[True] if in_pass else []), *params, *more])
    if not row or not row[0][1]:
        return None
    position, _, total = row[0][:3]
    if in_pass:
        near = [None if k is None else int(k) for k in row[0][3:]]
    else:
        near = [_next(con, filters, search, (anchor[0], Page(key, o, False)))
                for o in (False, True)]
    return Place(near[0], near[1], int(position), int(total))


def key_of(con: Any, source: str, hand_id: str) -> int | None:
    """The hand key of the log's hand ``(source, hand_id)``, ``None`` if not stored."""
    rows = fetch_all(con, "SELECT hand_key FROM hands WHERE source = ? AND hand_id = ?",
                     [source, hand_id])
    return int(rows[0][0]) if rows else None


def hand(con: Any, hand_key: int) -> dict[str, Any] | None:
    """The hand's own fields (one ``hands`` row as a dict), ``None`` if not stored."""
    frame = fetch_df(con, """
        SELECT hand_key, source, hand_id, session_id, match_id, played_at, utc_offset, variant,
               ruleset,
               ruleset_label, scoring, button, hero, stake, currency, stake_inferred,
               player_count, first_to_act, points_differ
        FROM hands WHERE hand_key = ?""", [hand_key])
    return None if frame.empty else {str(k): v for k, v in frame.iloc[0].to_dict().items()}


def session_span(con: Any, session_id: str) -> pd.DataFrame:
    """The first and last hand of a session (``started``, ``ended``, with the first hand's
    ``utc_offset``): what names it on every page (:func:`dashboard.names.session`)."""
    return fetch_df(con, """
        SELECT min(played_at) AS started, max(played_at) AS ended,
               arg_min(utc_offset, played_at) AS utc_offset
        FROM hands WHERE session_id = ?""", [session_id])


def players(con: Any, hand_key: int) -> pd.DataFrame:
    """Every seat: name, Fantasyland, foul, royalties, our points and the room's result
    (points, before caps, foul, royalties, Fantasyland cards: ``NULL`` where the log
    reports none)."""
    return fetch_df(con, """
        SELECT seat, log_seat, player, position, fantasyland, fl_cards, surrendered, fouled,
               foul_top_middle, foul_middle_bottom, royalties, fantasyland_next, raw_points,
               points, reported_points, points_differ, reported_raw_points, reported_fouled,
               reported_royalties, reported_fl_next
        FROM hand_players WHERE hand_key = ? ORDER BY seat""", [hand_key])


def rows(con: Any, hand_key: int) -> pd.DataFrame:
    """The final three rows of every seat: cards, hand name, royalty, what its jokers stood for
    (top, middle, bottom)."""
    return fetch_df(con, """
        SELECT seat, row_name, cards, category, hand_name, royalty, jokers FROM hand_rows
        WHERE hand_key = ?
        ORDER BY seat, CASE row_name WHEN 'top' THEN 0 WHEN 'middle' THEN 1 ELSE 2 END""",
        [hand_key])


def placements(con: Any, hand_key: int) -> pd.DataFrame:
    """Street by street per seat: ``dealt``, placed ``top``/``middle``/``bottom``,
    ``discard`` (``None`` = hidden)."""
    return fetch_df(con, """
        SELECT seat, street, dealt, top, middle, bottom, discard FROM placements
        WHERE hand_key = ? ORDER BY seat, street""", [hand_key])


def pairs(con: Any, hand_key: int) -> pd.DataFrame:
    """The pairwise settlement, one row per ordered pair, from ``player``'s side."""
    return fetch_df(con, """
        SELECT seat, opp_seat, player, opponent, top_result, middle_result, bottom_result,
               rows_won, rows_lost, row_points, bonus, scoop, royalties, surrender, total,
               points
        FROM pairs WHERE hand_key = ? ORDER BY seat, opp_seat""", [hand_key])


def events(con: Any, hand_key: int) -> pd.DataFrame:
    return fetch_df(con, "SELECT idx, type, by_player, accepted, data FROM events "
                         "WHERE hand_key = ? ORDER BY idx", [hand_key])
