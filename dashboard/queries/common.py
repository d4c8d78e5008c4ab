"""The queries' shared parts, by job, gathered under one name for the pages' queries.

Each has its own module (import from there in new code; this module only re-exports them):

- :mod:`dashboard.queries.filter_set`: :class:`Filters` (and :class:`Stake`), their URL
  parameters, :func:`player_chosen`, :func:`shown_players`;
- :mod:`dashboard.queries.conditions`: :func:`where`, the SQL the filters become, and the FROM
  clauses it expects (:data:`PLAYER_HANDS`, :data:`PLAYER_ROWS`);
- :mod:`dashboard.queries.me_sql`: the SQL of "me" (the user's names across rooms);
- :mod:`dashboard.queries.fetch`: running one query on its own cursor;
- :mod:`dashboard.queries.options`: what the sidebar offers, the default player, my names;
- :mod:`dashboard.queries.labels`: currency, scoring and point expressions.

>>> where(Filters(player="ann", room="swc"))[1]
['ann', 'swc']
"""

from __future__ import annotations

from dashboard.queries.conditions import PLAYER_HANDS, PLAYER_ROWS, where
from dashboard.queries.fetch import Connection, fetch_all, fetch_all_numpy, fetch_df
from dashboard.queries.filter_set import (
    ME_PARAM_ON,
    URL_KEYS,
    Filters,
    Stake,
    player_chosen,
    shown_players,
)
from dashboard.queries.labels import (
    CUBE,
    RACE,
    currency_label,
    point_sql,
    race_count,
    scoring_label,
    span_label,
    store_values,
)
from dashboard.queries.me_sql import (
    SHARED_SEATS_LIMIT,
    effective_names,
    is_mine,
    me_sql,
    names_in,
    not_me,
    not_my_name,
    seat_by_name,
    shared_seats,
)
from dashboard.queries.options import (
    SESSION_CHOICES,
    FilterOptions,
    default_player,
    filter_options,
    my_names,
    players,
    sources,
    stakes,
    suggested_names,
)
from ingest.api import MyName, Suggestion

__all__ = [
    "PLAYER_HANDS", "PLAYER_ROWS", "where", "Connection", "fetch_all", "fetch_all_numpy",
    "fetch_df", "ME_PARAM_ON", "URL_KEYS", "Filters", "Stake", "player_chosen",
    "shown_players", "CUBE", "RACE",
    "currency_label", "point_sql", "race_count", "scoring_label", "span_label",
    "store_values", "SHARED_SEATS_LIMIT", "effective_names", "is_mine", "me_sql", "names_in",
    "not_me", "not_my_name", "seat_by_name", "shared_seats", "SESSION_CHOICES",
    "FilterOptions", "default_player", "filter_options", "my_names", "players", "sources",
    "stakes", "suggested_names", "MyName", "Suggestion",
]
