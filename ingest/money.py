"""Each player-hand's money, stored in ``hand_players.money``: the one definition every page,
report and export reads.

The rule: a hand's money is its points x the stake (``NULL`` without a stake), except under
race scoring (OFC Double), where race points are not money. There a match pays the stake x its
final cube to the winner and costs the loser as much, counted on the hand that ends the match
(its ``match_end`` event); the match's other hands carry no money (``NULL``). The final cube is
the ``match_end`` event's ``cube`` (or ``multiplier``), else 2 to the number of doubles
accepted in the match. A match without a winner in its ``match_end`` pays 0.

For example, a 1 EUR match that Ann won after one accepted double: the last hand's row of Ann
holds +2.00, her opponent's -2.00, every other hand of the match ``NULL``; a 1-6 hand of +7
points at 0.50 EUR a point holds +3.50.

:func:`ingest.hand_tables.build_tables` writes the per-hand part (points x stake, and ``NULL``
for race hands); a match's money depends on its other hands (the doubles), which may come in
other files, so :func:`settle_matches` fills it in after every write, in the writer's
transaction. ``ofc spark`` applies the same rule in Spark (``ofc_spark/money.py``: Spark cannot
run this DuckDB SQL); ``tests/helpers/double.py`` holds both to the same hand-worked matches
(no cube, one double, three doubles, declined doubles, a surrender, the log's cube, no winner).
"""

from __future__ import annotations

import duckdb

from ofc_core.rules import ScoringSystem

from . import aggregates
from .match_sql import CUBE_SQL, WINNER_SQL

RACE = ScoringSystem.RACE.value
"""The scoring system whose points are banked race points, not money (OFC Double)."""


MATCH_ENDS = f"""
SELECT e.hand_key,
       any_value({WINNER_SQL}) AS winner,
       coalesce(any_value({CUBE_SQL}),
                CAST(2 ** coalesce(any_value(d.taken), 0) AS INTEGER)) AS cube
FROM events e JOIN hands h ON h.hand_key = e.hand_key
LEFT JOIN (SELECT h2.match_id, count(*) FILTER (WHERE e2.accepted) AS taken
           FROM events e2 JOIN hands h2 ON h2.hand_key = e2.hand_key
           WHERE e2.type = 'double' GROUP BY h2.match_id) d ON d.match_id = h.match_id
WHERE e.type = 'match_end'
GROUP BY e.hand_key"""
"""One row per hand that ends a match: its ``winner`` and final ``cube``."""

_MONEY = ("CASE WHEN mm.winner IS NULL THEN 0.0 WHEN mm.winner = hand_players.player THEN 1.0 "
          "ELSE -1.0 END * hand_players.stake * mm.cube")

_SETTLE = f"""
UPDATE hand_players SET money = {_MONEY}
FROM ({MATCH_ENDS}) mm
WHERE hand_players.hand_key = mm.hand_key AND hand_players.scoring = '{RACE}'
  AND hand_players.money IS DISTINCT FROM {_MONEY}"""

_UNSETTLED = f"""
SELECT hand_players.hand_key FROM hand_players JOIN ({MATCH_ENDS}) mm
    ON hand_players.hand_key = mm.hand_key
WHERE hand_players.scoring = '{RACE}' AND hand_players.money IS DISTINCT FROM {_MONEY}"""
"""The hands whose money :data:`_SETTLE` changes."""


def settle_matches(con: duckdb.DuckDBPyConnection) -> None:
    """Write the money of every hand that ends an OFC Double match (see the module's rule),
    inside the caller's transaction. Cheap when nothing changed: only rows whose money differs
    are written, and a store without ``match_end`` events is left at once. The hands whose
    money changes mark their partitions of the aggregates changed
    (:func:`ingest.aggregates.mark_hands`)."""
    if con.execute("SELECT 1 FROM events WHERE type = 'match_end' LIMIT 1").fetchone() is None:
        return
    aggregates.mark_hands(con, _UNSETTLED)
    con.execute(_SETTLE)
