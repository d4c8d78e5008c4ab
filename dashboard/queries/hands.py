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

from dashboard.queries.common import (
    PLAYER_HANDS,
    Filters,
    fetch_all,
    fetch_df,
    not_me,
    where,
)


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


def find_hands(con: Any, filters: Filters, search: HandSearch = HandSearch(),
               limit: int = 500) -> pd.DataFrame:
    """The filtered player's hands matching ``search``, newest first: ``hand_key``,
    ``source``, ``hand_id``, ``played_at``, ``ruleset`` (label), ``opponents``, ``points``,
    ``royalties``, ``fouled``, ``fantasyland``, ``room_differs``."""
    cond, params = where(filters)
    extra, more = search_where(search)
    others, last = not_me(filters, "o.player", "o.hand_key")
    return fetch_df(con, f"""
        WITH found AS (
            SELECT h.hand_key, h.source, h.hand_id, h.played_at, h.utc_offset,
                   h.ruleset_label AS ruleset,
                   hp.seat, hp.points, hp.royalties, hp.fouled, hp.fantasyland,
                   h.points_differ AS room_differs
            {PLAYER_HANDS} WHERE {cond} AND {extra}
            ORDER BY h.played_at DESC NULLS LAST, h.hand_key DESC LIMIT ?
        )
        SELECT f.hand_key, f.source, f.hand_id, f.played_at, f.utc_offset, f.ruleset,
               (SELECT string_agg(o.player, ', ' ORDER BY o.seat) FROM hand_players o
                WHERE o.hand_key = f.hand_key AND o.seat <> f.seat {others}) AS opponents,
               f.points, f.royalties, f.fouled, f.fantasyland, f.room_differs
        FROM found f ORDER BY f.played_at DESC NULLS LAST, f.hand_key DESC""",
        [*params, *more, limit, *last])


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
               ruleset_label, scoring, button, hero, stake, currency, player_count,
               first_to_act, points_differ
        FROM hands WHERE hand_key = ?""", [hand_key])
    return None if frame.empty else frame.iloc[0].to_dict()


def players(con: Any, hand_key: int) -> pd.DataFrame:
    """Every seat: name, Fantasyland, foul, royalties, our points and the room's."""
    return fetch_df(con, """
        SELECT seat, log_seat, player, position, fantasyland, fl_cards, surrendered, fouled,
               foul_top_middle, foul_middle_bottom, royalties, fantasyland_next, raw_points,
               points, reported_points, points_differ
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
