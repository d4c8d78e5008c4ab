"""Why no hand matches: which one filter, taken away, would bring the player's hands back,
and where those hands are (the rooms they come from), for the pages' empty state.

>>> NARROWING
('room', 'stake', 'variant', 'ruleset', 'opponent', 'session', 'tag', 'date_from', 'date_to')
"""

from __future__ import annotations

from dataclasses import dataclass

from dashboard.queries.conditions import PLAYER_ROWS, where
from dashboard.queries.fetch import Connection, fetch_all
from dashboard.queries.filter_set import Filters

NARROWING = ("room", "stake", "variant", "ruleset", "opponent", "session", "tag",
             "date_from", "date_to")
"""The filters that narrow a player's hands, in the order an explanation names them."""


@dataclass(frozen=True, slots=True)
class Emptiness:
    """``culprits``: the filters each of which alone, taken away, brings hands back;
    ``rooms``: the rooms (sources) of the hands without the room filter, most hands first."""

    culprits: tuple[str, ...]
    rooms: tuple[str, ...]


def count(con: Connection, filters: Filters) -> int:
    """How many player-hands the filters keep."""
    cond, params = where(filters)
    rows = fetch_all(con, f"SELECT count(*) {PLAYER_ROWS} WHERE {cond or 'TRUE'}", params)
    return int(rows[0][0])


def why_empty(con: Connection, filters: Filters) -> Emptiness:
    """The filters that alone empty the player's hands, and the rooms the player's hands come
    from (the room filter taken away)."""
    culprits = tuple(name for name in NARROWING if getattr(filters, name) is not None
                     and count(con, filters.with_(**{name: None})) > 0)
    cond, params = where(filters.with_(room=None))
    rooms = fetch_all(con, f"SELECT h.source, count(*) FROM hand_players hp JOIN hands h "
                           f"USING (hand_key) WHERE {cond or 'TRUE'} GROUP BY 1 "
                           "ORDER BY 2 DESC, 1", params) if filters.room is not None else []
    return Emptiness(culprits, tuple(str(r[0]) for r in rooms))
