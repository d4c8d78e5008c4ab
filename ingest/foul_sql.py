"""The SQL of a fouled hand's broken relation, in one place for the aggregates
(:mod:`ingest.aggregates`, ``agg_relations``) and the Fouls page (through :mod:`ingest.api`):
which relation between the rows broke, and the hand names of the row that was too strong
(``upper``) and of the row it beat (``lower``), from a ``hand_players`` row ``s`` (its stored
flags and hand names: nothing is evaluated again).

A hand whose top beat its middle and whose middle beat its bottom broke ``both``; its upper
row is the top and its lower the bottom:

>>> "'both'" in RELATION_SQL and "f.bottom_hand" in LOWER_SQL
True
"""

from __future__ import annotations

RELATION_SQL = """CASE WHEN s.foul_top_middle AND s.foul_middle_bottom THEN 'both'
     WHEN s.foul_top_middle THEN 'top beat middle'
     WHEN s.foul_middle_bottom THEN 'middle beat bottom'
     ELSE 'other' END"""
"""Which relation a fouled hand ``s`` broke; 'other' for fouls with neither flag (e.g. a 2-7
middle that is not a low)."""

UPPER_SQL = """CASE f.relation WHEN 'middle beat bottom' THEN f.middle_hand
                           ELSE f.top_hand END"""
"""The hand name of the row that was too strong, over a row ``f`` with ``relation``."""

LOWER_SQL = """CASE f.relation WHEN 'middle beat bottom' THEN f.bottom_hand
                           WHEN 'both' THEN f.bottom_hand ELSE f.middle_hand END"""
"""The hand name of the row it beat (for 'both', the bottom), over the same row ``f``."""
