"""Who the user is ("me"): the names they play under, one per room or for every room.

The ``my_names`` table holds the user's aliases. A name with a source (a ``hands.source``
value: the room, app or home game) is the user only in that source's hands; a name without
one (``NULL``) is the user in every source. It is user data, not derived from the hands: no
``hand_key``, so rescoring, merging, removing imports (the demo) and upgrading keep it. This
module is its only writer (through :mod:`ingest.api`).

>>> import duckdb
>>> from ingest.store import connect
>>> con = connect(":memory:")
>>> set_my_names(con, [MyName("ann"), MyName("ann_swc", "swc")])
2
>>> add_my_name(con, "ann")  # already there: nothing added
False
>>> [str(n) for n in my_names(con)]
['ann', 'ann_swc (swc)']
>>> remove_my_name(con, "ann_swc", "swc")
True
>>> [str(n) for n in my_names(con)]
['ann']
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

import duckdb

from .demo import demo_import_ids
from .ledger import written

MAX_NAME_LENGTH = 200
"""Longer names are refused (no log has one; a paste gone wrong does)."""


@dataclass(frozen=True, slots=True, order=True)
class MyName:
    """One of the user's names: ``name`` as the logs spell it, in the hands of ``source``
    only, or in every source when ``source`` is ``None``.

    >>> str(MyName("ann")), str(MyName("ann", "swc"))
    ('ann', 'ann (swc)')
    """

    name: str
    source: str | None = None

    def __str__(self) -> str:
        return self.name if self.source is None else f"{self.name} ({self.source})"


class BadName(ValueError):
    """A name that cannot be one of the user's names (empty, too long)."""


def checked(name: str, source: str | None = None) -> MyName:
    """The name as stored: kept exactly as the logs spell it (names are data, never trimmed
    inside), refused when empty or blank; an empty source means every source.

    >>> checked("ann", "")
    MyName(name='ann', source=None)
    >>> checked("  ")
    Traceback (most recent call last):
    ...
    ingest.identity.BadName: a name cannot be empty
    """
    if not name or not name.strip():
        raise BadName("a name cannot be empty")
    if len(name) > MAX_NAME_LENGTH:
        raise BadName(f"a name is at most {MAX_NAME_LENGTH} characters, got {len(name)}")
    return MyName(name, source or None)


_SAME = "name = ? AND source IS NOT DISTINCT FROM ?"


ADDED_ORDER = "added_at, rowid"
"""The order the user's names were added in (names added at once: in the order given)."""


def my_names(con: duckdb.DuckDBPyConnection) -> tuple[MyName, ...]:
    """The user's names, in the order they were added (empty: not set yet)."""
    cur = con.cursor()
    try:
        rows = cur.execute(f"SELECT name, source FROM my_names ORDER BY {ADDED_ORDER}"
                           ).fetchall()
    finally:
        cur.close()
    return tuple(MyName(str(n), None if s is None else str(s)) for n, s in rows)


def _add(cur: duckdb.DuckDBPyConnection, name: MyName) -> bool:
    if cur.execute(f"SELECT count(*) FROM my_names WHERE {_SAME}",
                   [name.name, name.source]).fetchone() != (0,):
        return False
    cur.execute("INSERT INTO my_names VALUES (?, ?, now())", [name.name, name.source])
    return True


def add_my_name(con: duckdb.DuckDBPyConnection, name: str, source: str | None = None) -> bool:
    """Add one name (for ``source`` only, or every source); ``False`` when it was there."""
    wanted = checked(name, source)
    return written(con, "adding your name", lambda cur: _add(cur, wanted))


def remove_my_name(con: duckdb.DuckDBPyConnection, name: str, source: str | None = None,
                   ) -> bool:
    """Remove one name (exactly that source, or the every-source entry when ``source`` is
    ``None``); ``False`` when it was not there."""
    params = [name, source or None]

    def remove(cur: duckdb.DuckDBPyConnection) -> bool:
        found = cur.execute(f"SELECT count(*) FROM my_names WHERE {_SAME}",
                            params).fetchone() != (0,)
        cur.execute(f"DELETE FROM my_names WHERE {_SAME}", params)
        return found

    return written(con, "removing your name", remove)


def set_my_names(con: duckdb.DuckDBPyConnection, names: Iterable[MyName]) -> int:
    """Replace the user's names with ``names`` (duplicates once); returns how many are
    stored."""
    wanted = [checked(n.name, n.source) for n in names]

    def replace(cur: duckdb.DuckDBPyConnection) -> int:
        cur.execute("DELETE FROM my_names")
        return sum(_add(cur, n) for n in wanted)

    return written(con, "saving your names", replace)


@dataclass(frozen=True, slots=True)
class Suggestion:
    """A hero of the imported logs that is not one of the user's names yet."""

    name: str
    source: str
    hands: int


def suggested_names(con: duckdb.DuckDBPyConnection, limit: int = 20) -> tuple[Suggestion, ...]:
    """The ``hero`` of the imported logs (the logged-in player, when a log says), per source,
    most hands first, leaving out the demo sample's and those already among the user's names
    (for that source or every source)."""
    cur = con.cursor()
    try:
        rows = cur.execute("""
            SELECT h.hero, h.source, count(*) AS n FROM hands h
            WHERE h.hero IS NOT NULL AND NOT list_contains(?, h.import_id)
              AND NOT EXISTS (SELECT 1 FROM my_names m WHERE m.name = h.hero
                              AND (m.source IS NULL OR m.source = h.source))
            GROUP BY h.hero, h.source ORDER BY n DESC, h.hero, h.source LIMIT ?""",
                           [demo_import_ids(con), limit]).fetchall()
    finally:
        cur.close()
    return tuple(Suggestion(str(n), str(s), int(k)) for n, s, k in rows)


def hands_seating(con: duckdb.DuckDBPyConnection, name: str, source: str | None = None) -> int:
    """How many stored hands seat a player called exactly ``name`` (only ``source``'s hands
    when given): 0 warns that a name the user adds is in no log (a typo, or logs not imported
    yet)."""
    cur = con.cursor()
    try:
        row = cur.execute("""
            SELECT count(*) FROM hand_players hp
            WHERE hp.player = ? AND (CAST(? AS VARCHAR) IS NULL OR hp.hand_key IN
                  (SELECT h.hand_key FROM hands h WHERE h.source = ?))""",
                          [name, source or None, source or None]).fetchone()
    finally:
        cur.close()
    return int(row[0]) if row else 0


SIMILAR = 0.85
"""How alike (Jaro-Winkler, case aside) a stored name must be to be offered for a name that is
in no hand."""


def similar_names(con: duckdb.DuckDBPyConnection, name: str, limit: int = 3) -> tuple[str, ...]:
    """Stored player names spelled like ``name`` (the same letters in another case, or a
    letter or two apart), the closest and most seen first: what the user may have meant.

    >>> from ingest.store import connect
    >>> con = connect(":memory:")
    >>> similar_names(con, "hero")
    ()
    """
    cur = con.cursor()
    try:
        rows = cur.execute("""
            SELECT player FROM (
                SELECT player, count(*) AS n,
                       jaro_winkler_similarity(lower(player), lower(?)) AS alike
                FROM hand_players GROUP BY player)
            WHERE alike >= ? AND player <> ?
            ORDER BY alike DESC, n DESC, player LIMIT ?""",
                           [name, SIMILAR, name, limit]).fetchall()
    finally:
        cur.close()
    return tuple(str(r[0]) for r in rows)
