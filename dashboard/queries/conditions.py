"""The SQL the shared filters become.

A page query reads one player's hands: ``hands h`` joined to that player's ``hand_players hp``
row. :func:`where` turns a :class:`~dashboard.queries.filter_set.Filters` value into a SQL
condition over those two aliases plus its bound parameters; values never enter the SQL text.
Without a room chosen, the practice table's hands are left out (:data:`PRACTICE_LEFT_OUT`,
the last condition):

>>> sql, params = where(Filters(player="ann", variant="pineapple"))
>>> sql.replace(PRACTICE_LEFT_OUT, "<no practice>")
'hp.player = ? AND hp.variant = ? AND <no practice>'
>>> params
['ann', 'pineapple']
>>> where(Filters()) == (PRACTICE_LEFT_OUT, [])
True
>>> where(Filters(room="swc"))
('hp.hand_key IN (SELECT rh.hand_key FROM hands rh WHERE rh.source = ?)', ['swc'])

A tag is one condition too, matched by its case-folded key (:func:`ingest.api.tag_key`); a
stake level binds its amount and currency:

>>> sql, params = where(Filters(player="ann", tag=" Tilt "))
>>> params
['ann', 'tilt']
>>> sql, params = where(Filters(stake=Stake(0.5, "EUR")))
>>> sql.startswith('hp.stake = ? AND hp.currency IS NOT DISTINCT FROM ?'), params
(True, [0.5, 'EUR'])

Pages use :data:`PLAYER_HANDS` as their FROM clause:

>>> sql, params = where(Filters(player="ann", room="swc"))
>>> f"SELECT count(*) {PLAYER_HANDS} WHERE {sql}"  # doctest: +NORMALIZE_WHITESPACE
'SELECT count(*) FROM hands h JOIN hand_players hp ON hp.hand_key = h.hand_key WHERE
 hp.player = ? AND hp.hand_key IN (SELECT rh.hand_key FROM hands rh WHERE rh.source = ?)'

"Me" (the user's names, :attr:`Filters.me`) is one condition with the names as parameters:

>>> where(Filters(me=(MyName("ann"),), room="swc"))[1]
['ann', 'swc']
"""

from __future__ import annotations

from collections.abc import Callable
from contextvars import ContextVar
from typing import Any

from dashboard.queries.filter_set import Filters, Stake
from dashboard.queries.me_sql import me_sql
from ingest import api
from ingest.api import MyName

__all__ = ["PLAYER_HANDS", "PLAYER_ROWS", "where", "Filters", "Stake", "MyName"]

PLAYER_HANDS = "FROM hands h JOIN hand_players hp ON hp.hand_key = h.hand_key"
"""The FROM clause :func:`where` expects: one row per hand of the filtered player."""

PLAYER_ROWS = "FROM hand_players hp"
"""The same rows without the join, for queries that read only ``hand_players`` columns (it
carries the hand's filter and grouping columns): much cheaper on a big store."""


def _stake(stake: Stake) -> list[Any]:
    return [stake.amount, stake.currency]


_CONDITIONS: tuple[tuple[str, str], ...] = (
    ("player", "hp.player = ?"),
    ("date_from", "hp.played_at >= CAST(? AS TIMESTAMPTZ)"),
    ("date_to", "hp.played_at < CAST(? AS TIMESTAMPTZ) + INTERVAL 1 DAY"),
    ("variant", "hp.variant = ?"),
    ("ruleset", "hp.ruleset_label = ?"),
    ("opponent", "EXISTS (SELECT 1 FROM hand_players o WHERE o.hand_key = hp.hand_key"
                 " AND o.player = ? AND o.seat <> hp.seat)"),
    ("session", "hp.session_id = ?"),
    ("tag", "hp.hand_key IN ({tagged})"),
    ("room", "hp.hand_key IN (SELECT rh.hand_key FROM hands rh WHERE rh.source = ?)"),
    ("stake", "hp.stake = ? AND hp.currency IS NOT DISTINCT FROM ?"),
    ("game", "(hp.hand_key IN (SELECT tc.hand_key FROM tournament_chips tc))"
             " = (? = 'tournaments')"),
)
"""Each filter's condition over ``hp``, in the order :func:`where` joins them (the tag's
with the tagged hands' keys, :func:`_tagged_keys`, in place of ``{tagged}``)."""

TAGGED_KEYS = "SELECT g.hand_key FROM agg_tags g WHERE g.tag_key = ?"
"""The keys of the stored hands carrying a tag, from ``agg_tags`` (:mod:`ingest.aggregates`)."""

TAGGED_ROWS = ("SELECT th.hand_key FROM hand_tags t JOIN hands th"
               " ON th.source = t.source AND th.hand_id = t.hand_id WHERE t.tag_key = ?")
"""The keys of the stored hands carrying a tag, from the rows: every hand joined to
``hand_tags`` (the store's tags are kept by the log's hand id). The filter reads them from
``agg_tags`` instead (:mod:`ingest.aggregates`: the same keys, kept by every write), but
within :func:`dashboard.queries.aggregated.rows_only`."""

ROWS_ONLY: ContextVar[bool] = ContextVar("ofc_rows_only", default=False)
"""Set by :func:`dashboard.queries.aggregated.rows_only`: every query reads the rows."""


def _tagged_keys() -> str:
    """The tagged hands' keys: :data:`TAGGED_KEYS`, or :data:`TAGGED_ROWS` within
    :func:`~dashboard.queries.aggregated.rows_only`."""
    return TAGGED_ROWS if ROWS_ONLY.get() else TAGGED_KEYS

_BOUND: dict[str, Callable[[Any], list[Any]]] = {
    "tag": lambda tag: [api.tag_key(tag)],
    "stake": _stake,
}
"""How a filter's value becomes its bound parameters, when not as it is (one parameter)."""


def where(filters: Filters) -> tuple[str, list[Any]]:
    """SQL condition over ``hp`` (the player's hand_players row, which carries the hand's
    played_at, variant, ruleset_label, session_id, stake and currency), and its bound
    parameters, in order. ``'TRUE'`` when nothing is filtered. It reads no ``hands`` column
    (the room is found by a subquery), so a query that needs none can run over
    ``hand_players hp`` alone (:data:`PLAYER_ROWS`)."""
    mine = me_sql(filters.me, "hp", filters.me_skip) if filters.me else None
    keys = _tagged_keys()
    conditions = tuple((name, sql.format(tagged=keys) if name == "tag" else sql)
                       for name, sql in _CONDITIONS)
    return conjunction(filters, mine, conditions, _BOUND, PRACTICE_LEFT_OUT)


def tagged(filters: Filters, key: str) -> tuple[str, list[Any]]:
    """``AND`` the tag filter's condition over the hand key column ``key`` (of a table other
    than ``hand_players``, such as ``pairs``), and its parameter; nothing without a tag.

    >>> tagged(Filters(tag="Tilt"), "p.hand_key")
    (' AND p.hand_key IN (SELECT g.hand_key FROM agg_tags g WHERE g.tag_key = ?)', ['tilt'])
    >>> tagged(Filters(), "p.hand_key")
    ('', [])
    """
    if filters.tag is None:
        return "", []
    return f" AND {key} IN ({_tagged_keys()})", [api.tag_key(filters.tag)]


PRACTICE_LEFT_OUT = ("hp.hand_key NOT IN (SELECT ph.hand_key FROM hands ph"
                     " WHERE ph.source = 'practice')")
"""Without a room chosen, the practice table's hands (room ``practice``: the Play page) are
left out of every page: they are not the player's results. Choosing the room shows them."""


def conjunction(filters: Filters, mine: tuple[str, list[Any]] | None,
                conditions: tuple[tuple[str, str], ...],
                bound: dict[str, Callable[[Any], list[Any]]],
                no_room: str | None = None) -> tuple[str, list[Any]]:
    """``mine`` (the "me" condition and its parameters, if any) and each of ``conditions``
    (a filter's name and its SQL) whose filter is set, joined by ``AND`` (``'TRUE'`` when
    none), with their parameters in order: a filter's value, or ``bound[name](value)``;
    ``no_room`` (the practice hands left out) when no room is chosen.

    >>> conjunction(Filters(player="Hero"), None, (("player", "p = ?"), ("room", "r = ?")), {})
    ('p = ?', ['Hero'])
    >>> conjunction(Filters(), None, (("room", "r = ?"),), {}, "r <> 'practice'")
    ("r <> 'practice'", [])
    """
    parts: list[str] = []
    params: list[Any] = []
    if mine is not None:
        parts.append(mine[0])
        params += mine[1]
    for name, sql in conditions:
        value = getattr(filters, name)
        if value is not None:
            parts.append(sql)
            params += bound[name](value) if name in bound else [value]
    if no_room is not None and filters.room is None:
        parts.append(no_room)
    return (" AND ".join(parts) or "TRUE"), params
