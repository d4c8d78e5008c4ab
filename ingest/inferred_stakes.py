"""A hand that moved no money takes its table's stake.

A room's log gives the stake through the money that changed hands (SwC's money messages), so a
hand where nobody won anything (both players fouled, or every row pushed: every player's
settled points, the room's where it says, else ours, are 0) has none, and a stake filter would
drop it. Such a hand takes the stake and currency of the other hands of its table (the same
``source`` and ``session_id``) when they all agree on one, and says so:
``hands.stake_inferred`` is true. The currency is the table's, the one its money was counted
in (FPDB's hand files name SwC's money ``mBTC`` where SwC's own money messages say ``R``: the
hand takes ``R``). Its money (``hand_players.money``) is then its points x that stake (0 for a
hand of 0 points), and the aggregates follow. A hand that moved points without a stake is left
as logged.

A copy of a hand read back from the store (:func:`ingest.stored_hands.load_records`) has no
stake where it was inferred, so a later log that gives the hand's real stake is the better copy
(:mod:`ingest.merge`), and a hand whose stake was inferred is inferred again after every write
(:func:`infer_stakes`, in the writer's transaction, before the aggregates' refresh).

For example, at a table whose 9 other hands were played at 0.50 R a point, a hand of two fouls
stores ``stake = 0.5``, ``currency = 'R'``, ``stake_inferred = true``, money 0.
"""

from __future__ import annotations

import duckdb

from . import aggregates
from .money import RACE

_TABLE_STAKES = """
SELECT source, session_id, min(stake) AS stake, min(currency) AS currency FROM hands
WHERE stake IS NOT NULL AND stake_inferred IS NOT TRUE
  AND (source, session_id) IN (SELECT (source, session_id) FROM hands
                               WHERE stake IS NULL AND session_id IS NOT NULL)
GROUP BY source, session_id
HAVING count(DISTINCT stake) = 1 AND count(DISTINCT coalesce(currency, '')) = 1"""
"""Each table with a hand without a stake whose hands with a logged stake all agree on it
(and on the currency): the scan of the other tables' hands is skipped."""

_INFERRED = f"""
SELECT h.hand_key, t.stake, t.currency FROM hands h
JOIN ({_TABLE_STAKES}) t ON h.source = t.source AND h.session_id = t.session_id
WHERE h.stake IS NULL AND NOT EXISTS (
    SELECT 1 FROM hand_players hp WHERE hp.hand_key = h.hand_key
    AND coalesce(hp.reported_points, hp.points) <> 0)"""
"""The hands that moved no money (the room's settled points, else ours, 0 for everyone), no
stake logged, at a table with one stake."""


def infer_stakes(con: duckdb.DuckDBPyConnection) -> int:
    """Give the hands without a stake their table's (see the module), inside the caller's
    transaction; their partitions of the aggregates are marked changed. Returns how many."""
    con.execute(f"CREATE OR REPLACE TEMP TABLE _ofc_inferred AS {_INFERRED}")
    try:
        row = con.execute("SELECT count(*) FROM _ofc_inferred").fetchone()
        count = int(row[0]) if row else 0
        if count:
            aggregates.mark_hands(con, "SELECT hand_key FROM _ofc_inferred")
            con.execute("""
                UPDATE hands SET stake = i.stake, currency = i.currency, stake_inferred = TRUE
                FROM _ofc_inferred i WHERE hands.hand_key = i.hand_key""")
            con.execute(f"""
                UPDATE hand_players SET stake = i.stake, currency = i.currency,
                    money = CASE WHEN hand_players.scoring = '{RACE}' THEN hand_players.money
                                 ELSE hand_players.points * i.stake END
                FROM _ofc_inferred i WHERE hand_players.hand_key = i.hand_key""")
    finally:
        con.execute("DROP TABLE IF EXISTS _ofc_inferred")
    return count


def fill(con: duckdb.DuckDBPyConnection) -> int:
    """The upgrade's filler (:data:`ingest.upgrade.IN_PLACE`): the stakes inferred and the
    aggregates refreshed; returns the hands given a stake."""
    count = infer_stakes(con)
    aggregates.refresh(con)
    return count
