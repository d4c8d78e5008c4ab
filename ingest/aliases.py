"""Aliases: the names the user gives player ids (the pineapple app's ``583dd8fd`` -> Émile).

The ``player_aliases`` table holds one alias per player id, as the logs spell the id. It is
user data like ``my_names``: no ``hand_key``, so rescoring, merging, removing imports and
upgrading keep it. Every page shows the alias where it shows the player (the filters and the
store keep the id). This module is its only writer (through :mod:`ingest.api`): ``ofc alias``
and the Opponents page.

>>> from ingest.store import connect
>>> con = connect(":memory:")
>>> set_alias(con, "583dd8fd", "Émile")
True
>>> aliases(con)
{'583dd8fd': 'Émile'}
>>> set_alias(con, "583dd8fd", "")  # an empty alias removes it
True
>>> aliases(con)
{}
"""

from __future__ import annotations

import duckdb

from .identity import MAX_NAME_LENGTH, BadName, _written


def checked_alias(player: str, alias: str) -> tuple[str, str]:
    """The player id and alias as stored (the alias trimmed at its ends); refused when the
    id is empty or either is too long.

    >>> checked_alias("583dd8fd", "  Émile ")
    ('583dd8fd', 'Émile')
    """
    if not player:
        raise BadName("a player id cannot be empty")
    for text in (player, alias):
        if len(text) > MAX_NAME_LENGTH:
            raise BadName(f"a name is at most {MAX_NAME_LENGTH} characters, got {len(text)}")
    return player, alias.strip()


def aliases(con: duckdb.DuckDBPyConnection) -> dict[str, str]:
    """Every alias, by player id (empty when none is set, or the store predates them)."""
    cur = con.cursor()
    try:
        have = cur.execute("SELECT count(*) FROM information_schema.tables WHERE table_name = "
                           "'player_aliases'").fetchone()
        if have == (0,):
            return {}
        rows = cur.execute("SELECT player, alias FROM player_aliases ORDER BY player").fetchall()
    finally:
        cur.close()
    return {str(p): str(a) for p, a in rows}


def set_alias(con: duckdb.DuckDBPyConnection, player: str, alias: str) -> bool:
    """Name ``player`` ``alias`` (an empty alias removes it); ``False`` when nothing changed."""
    player, alias = checked_alias(player, alias)

    def write(cur: duckdb.DuckDBPyConnection) -> bool:
        cur.execute("CREATE TABLE IF NOT EXISTS player_aliases (player VARCHAR PRIMARY KEY, "
                    "alias VARCHAR NOT NULL, added_at TIMESTAMPTZ NOT NULL)")
        was = cur.execute("SELECT alias FROM player_aliases WHERE player = ?",
                          [player]).fetchone()
        if (was[0] if was else "") == alias:
            return False
        cur.execute("DELETE FROM player_aliases WHERE player = ?", [player])
        if alias:
            cur.execute("INSERT INTO player_aliases VALUES (?, ?, now())", [player, alias])
        return True

    return _written(con, "naming a player", write)
