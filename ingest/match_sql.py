"""The SQL of an OFC Double match's events (``events e``, docs/format.md), in one place for
the money rule (:mod:`ingest.money`), the aggregates (:mod:`ingest.aggregates`) and the pages
(through :mod:`ingest.api`): the cube a ``double`` or ``match_end`` event gives, the winner a
``match_end`` names, and what a ``double`` was for a player.

>>> "'$.cube'" in CUBE_SQL and "'$.winner'" in WINNER_SQL and "s.player" in DECISION_SQL
True
"""

from __future__ import annotations

CUBE_SQL = ("TRY_CAST(coalesce(json_extract_string(e.data, '$.cube'), "
            "json_extract_string(e.data, '$.multiplier')) AS INTEGER)")
"""The cube value an ``events e`` row's data gives (``cube``; ``multiplier`` is read too)."""

WINNER_SQL = ("coalesce(nullif(e.by_player, ''), json_extract_string(e.data, '$.winner'))")
"""The winner a ``match_end`` event ``e`` names (``by_player``, else ``data.winner``)."""

DECISION_SQL = """CASE WHEN e.by_player = s.player THEN
         CASE WHEN e.accepted THEN 'I doubled, they took' ELSE 'I doubled, they declined' END
     ELSE CASE WHEN e.accepted THEN 'they doubled, I took' ELSE 'they doubled, I declined' END
     END"""
"""What a ``double`` event ``e`` was for the player of the row ``s``: who offered (the player
or the other side) and whether it was taken."""
