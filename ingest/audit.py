"""The audit of an import: the room's own results against ours.

A log that records the room's result of a hand is checked, for the hands one import stored,
on everything it reports (stored beside ours in ``hand_players``):

- ``points``: what changed hands (``reported_points`` against ``points``, both after table
  stakes: :mod:`ofc_core.settlement`);
- ``uncapped points``: the result before table stakes (``reported_raw_points``, ``raw_points``);
- ``foul`` (``reported_fouled``, ``fouled``), ``royalties`` (their total over the rows);
- ``Fantasyland``: the cards earned for the next hand, entry or stay (``reported_fl_next``
  against ``fantasyland_next``; 0: none).

:func:`audit_import` reads it back: how many hands' reported results all equal ours, and every
player and item where they do not (hand id, player, what, theirs, ours). Hands without any
reported result are not counted. For example the pineapple app's bust-out hand where the
loser's 57 chips are all that changed hands, while the app credits the winner 63:
``Difference('17bc8daf', 'p1', 'points', 63, 57)``.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import duckdb

CHECKS = (("points", "reported_points", "points"),
          ("uncapped points", "reported_raw_points", "raw_points"),
          ("foul", "CAST(reported_fouled AS DOUBLE)", "CAST(fouled AS DOUBLE)"),
          ("royalties", "reported_royalties", "royalties"),
          ("Fantasyland", "reported_fl_next", "fantasyland_next"))
"""What the audit compares: (name, the room's column, ours), in the order differences are
listed."""

_REPORTED_ANY = " OR ".join(f"{theirs} IS NOT NULL" for _, theirs, _ in CHECKS)

_DIFFERENCES = " UNION ALL ".join(
    f"SELECT hand_key, seat, {k} AS k, '{what}' AS what, CAST({theirs} AS DOUBLE) AS theirs, "
    f"CAST({ours} AS DOUBLE) AS ours FROM mine WHERE {theirs} IS NOT NULL "
    f"AND abs(CAST({theirs} AS DOUBLE) - CAST({ours} AS DOUBLE)) > 1e-9"
    for k, (what, theirs, ours) in enumerate(CHECKS))


@dataclass(frozen=True)
class Difference:
    hand_id: str
    player: str
    reported: float
    ours: float
    what: str = "points"
    """Which item differs: one of the names in :data:`CHECKS`."""

    def to_dict(self) -> dict[str, Any]:
        return {"hand_id": self.hand_id, "player": self.player, "what": self.what,
                "theirs": self.reported, "ours": self.ours}

    def describe(self) -> str:
        """``'foul: theirs yes, ours no'``, ``'points: theirs 63, ours 57'``."""
        if self.what == "foul":
            def word(v: float) -> str:
                return "yes" if v else "no"
            return f"foul: theirs {word(self.reported)}, ours {word(self.ours)}"
        return f"{self.what}: theirs {self.reported:g}, ours {self.ours:g}"


@dataclass(frozen=True)
class Audit:
    """Hands with a reported result: ``equal`` of them match ours on everything reported; the
    players and items of the others are in ``differ``."""

    audited: int = 0
    equal: int = 0
    differ: tuple[Difference, ...] = ()
    verdicts: tuple[tuple[str, bool], ...] = field(default=(), compare=False)
    """Each audited hand (its id) and whether it equals ours: several audits of one hand (a
    hand stored from one file, upgraded by another) count it once (:func:`combined`)."""

    def to_dict(self) -> dict[str, Any]:
        return {"audited": self.audited, "equal": self.equal,
                "differ": [d.to_dict() for d in self.differ]}

    def by_what(self) -> dict[str, int]:
        """Player-hands that differ, per item, in :data:`CHECKS` order."""
        counted = Counter(d.what for d in self.differ)
        return {what: counted[what] for what, _, _ in CHECKS if counted[what]}

    def summary(self) -> str:
        """One line, e.g. ``audit: 38 of 40 hands' reported results equal ours (differ:
        points 1, Fantasyland 2)``."""
        if not self.audited:
            return "audit: no reported results in the stored hands"
        line = f"audit: {self.equal} of {self.audited} hands' reported results equal ours"
        parts = ", ".join(f"{what} {n}" for what, n in self.by_what().items())
        return line + (f" (player-hands that differ: {parts})" if parts else "")


def combined(audits: list[Audit]) -> Audit:
    """Several imports' audits as one (a folder's), each hand counted once: a hand audited by
    several (stored by one file, upgraded by a later one) as the last audit found it.

    >>> a = Audit(2, 1, (Difference("h2", "ann", 3, 1),), (("h1", True), ("h2", False)))
    >>> b = Audit(1, 1, (), (("h2", True),))
    >>> c = combined([a, b])
    >>> c.audited, c.equal, c.differ
    (2, 2, ())
    """
    last: dict[str, int] = {}
    verdicts: dict[str, bool] = {}
    for n, audit in enumerate(audits):
        for hand_id, equal in audit.verdicts:
            last[hand_id], verdicts[hand_id] = n, equal
    if not verdicts:  # audits without their hands (made by hand): add them up
        return Audit(sum(a.audited for a in audits), sum(a.equal for a in audits),
                     tuple(d for a in audits for d in a.differ))
    differ = tuple(d for n, a in enumerate(audits) for d in a.differ if last.get(d.hand_id) == n)
    return Audit(len(verdicts), sum(verdicts.values()), differ, tuple(verdicts.items()))


def audit_import(con: duckdb.DuckDBPyConnection, import_id: int) -> Audit:
    """The audit of the hands whose stored copy came from import ``import_id``."""
    return audit_imports(con, [import_id])[import_id]


def audit_imports(con: duckdb.DuckDBPyConnection,
                  import_ids: Sequence[int]) -> dict[int, Audit]:
    """:func:`audit_import` of several imports in one pass (a batch of small files)."""
    ids = [int(i) for i in import_ids]
    mine = """mine AS (SELECT hp.*, h.hand_id, h.line, h.import_id FROM hand_players hp
                        JOIN hands h USING (hand_key) WHERE list_contains(?, h.import_id))"""
    verdicts: dict[int, list[tuple[str, bool]]] = {i: [] for i in ids}
    for i, h, e in con.execute(f"""
            WITH {mine}, diff AS ({_DIFFERENCES})
            SELECT import_id, hand_id, bool_and(hand_key NOT IN (SELECT hand_key FROM diff))
            FROM mine WHERE {_REPORTED_ANY} GROUP BY import_id, hand_key, hand_id
            ORDER BY import_id, min(line), hand_key""", [ids]).fetchall():
        verdicts[int(i)].append((str(h), bool(e)))
    differ: dict[int, list[Difference]] = {i: [] for i in ids}
    for i, a, b, c, d, e in con.execute(f"""
            WITH {mine}, diff AS ({_DIFFERENCES})
            SELECT m.import_id, m.hand_id, m.player, d.theirs, d.ours, d.what
            FROM diff d JOIN mine m USING (hand_key, seat)
            ORDER BY m.import_id, m.line, m.hand_key, m.seat, d.k""", [ids]).fetchall():
        differ[int(i)].append(Difference(str(a), str(b), float(c), float(d), str(e)))
    return {i: Audit(len(verdicts[i]), sum(e for _, e in verdicts[i]), tuple(differ[i]),
                     tuple(verdicts[i])) for i in ids}
