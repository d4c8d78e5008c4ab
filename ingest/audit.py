"""The audit of an import: the room's own results against ours.

A log that records the room's result of a hand (``reported_points``) is checked hand by hand
when it is stored (``hand_players.points_differ``). :func:`audit_import` reads that back for
the hands one import stored: how many hands' reported points all equal ours, and every player
whose do not (hand id, player, theirs, ours). Hands without a reported result are not counted.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import duckdb


@dataclass(frozen=True)
class Difference:
    hand_id: str
    player: str
    reported: float
    ours: float

    def to_dict(self) -> dict[str, Any]:
        return {"hand_id": self.hand_id, "player": self.player, "theirs": self.reported,
                "ours": self.ours}


@dataclass(frozen=True)
class Audit:
    """Hands with a reported result: ``equal`` of them match ours for every player; the
    players of the others are in ``differ``."""

    audited: int = 0
    equal: int = 0
    differ: tuple[Difference, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        return {"audited": self.audited, "equal": self.equal,
                "differ": [d.to_dict() for d in self.differ]}

    def summary(self) -> str:
        """One line, e.g. ``audit: 38 of 40 hands' reported points equal ours``."""
        if not self.audited:
            return "audit: no reported points in the stored hands"
        return f"audit: {self.equal} of {self.audited} hands' reported points equal ours"


def audit_import(con: duckdb.DuckDBPyConnection, import_id: int) -> Audit:
    """The audit of the hands stored by import ``import_id``."""
    row = con.execute("""
        SELECT count(DISTINCT hp.hand_key), count(DISTINCT hp.hand_key) FILTER (
                   WHERE NOT h.points_differ)
        FROM hand_players hp JOIN hands h USING (hand_key)
        WHERE h.import_id = ? AND hp.reported_points IS NOT NULL""", [import_id]).fetchone()
    audited, equal = (int(row[0]), int(row[1])) if row else (0, 0)
    differ = con.execute("""
        SELECT h.hand_id, hp.player, hp.reported_points, hp.points
        FROM hand_players hp JOIN hands h USING (hand_key)
        WHERE h.import_id = ? AND hp.points_differ
        ORDER BY h.line, h.hand_key, hp.seat""", [import_id]).fetchall()
    return Audit(audited, equal, tuple(Difference(str(a), str(b), float(c), float(d))
                                      for a, b, c, d in differ))
