"""The ``decisions`` table: what ``ofc review`` found for each reviewed decision, and
``decision_alternatives``: the top three placements of each.

The review computes in ``ofc_core.play.review``; this module only stores and reads its rows.
A decision is identified by ``(source, hand_id, player, street)``; writing one again replaces
it and its alternatives. Rescoring never touches the tables (they are keyed by the hand's
identity, not its key). A row's class and accuracy are derived from its loss by
:mod:`ofc_core.play.accuracy` when not given (the one home of that rule).

>>> from ingest.store import connect
>>> con = connect(":memory:")
>>> row = DecisionRow("s", "1", "ann", 2, "street", "--", "Qh Kd 2c", "Qh--Kd/2c", -1.5, 0.2,
...                   "-Qh-Kd/2c", 0.5, 0.2, 2.0, False, 27, 1000, "best-of-24", "6",
...                   ev_lost_se=0.25)
>>> row.decision_class, row.accuracy
('mistake', 68.73)
>>> write_decisions(con, [row])
1
>>> reviewed_hands(con, "ann", "6") == {("s", "1")}
True
>>> con.execute("SELECT street, ev_lost, class FROM decisions").fetchall()
[(2, 2.0, 'mistake')]
>>> stored_decisions(con, "ann") == [row]
True
"""

from __future__ import annotations

import gzip
import json
import math
from collections.abc import Sequence
from dataclasses import astuple, dataclass, fields, replace
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

import duckdb
import pyarrow as pa

from ofc_core.play.accuracy import accuracy, decision_class


@dataclass(frozen=True)
class AlternativeRow:
    """One of the top three placements of a decision (``decision_alternatives``)."""

    rank: int
    placement: str
    ev: float
    ev_se: float
    diff: float
    """The best's EV minus this one's (0 for rank 1)."""
    diff_se: float
    """The paired standard error of ``diff`` on the deals both were valued on."""
    foul: float
    foul_se: float
    fl: float
    fl_se: float
    royalties: float
    royalties_se: float
    rows: float
    rows_se: float


@dataclass(frozen=True)
class DecisionRow:
    """One row of ``decisions`` (docs/schema.md); ``reviewed_at`` is set when written.

    The fields after ``version`` came with review version 6. Left out, ``ev_lost_se`` is the
    error of an older version's values measured apart (``sqrt(chosen_se² + best_se²)``, larger
    than the paired one), the class and accuracy follow from it, and the chances and reason are
    0 and '' (not measured): what an upgraded store's older rows hold until reviewed again.
    """

    source: str
    hand_id: str
    player: str
    street: int
    kind: str
    board: str
    dealt: str
    chosen: str
    chosen_ev: float
    chosen_se: float
    best: str
    best_ev: float
    best_se: float
    ev_lost: float
    fl_chase: bool
    candidates: int
    rollouts: int
    policy: str
    version: str
    ev_lost_se: float = -1.0
    decision_class: str = ""
    """SQL column and JSON key ``class``."""
    accuracy: float = -1.0
    chosen_foul: float = 0.0
    chosen_foul_se: float = 0.0
    best_foul: float = 0.0
    best_foul_se: float = 0.0
    chosen_fl: float = 0.0
    chosen_fl_se: float = 0.0
    best_fl: float = 0.0
    best_fl_se: float = 0.0
    chosen_royalties: float = 0.0
    chosen_royalties_se: float = 0.0
    best_royalties: float = 0.0
    best_royalties_se: float = 0.0
    chosen_rows: float = 0.0
    chosen_rows_se: float = 0.0
    best_rows: float = 0.0
    best_rows_se: float = 0.0
    reason: str = ""
    tie_with: str = ""
    alternatives: tuple[AlternativeRow, ...] = ()

    def __post_init__(self) -> None:
        if self.ev_lost_se < 0:
            unpaired = math.sqrt(self.chosen_se ** 2 + self.best_se ** 2)
            object.__setattr__(self, "ev_lost_se", round(unpaired, 4))
        if not self.decision_class:
            object.__setattr__(self, "decision_class",
                               decision_class(self.ev_lost, self.ev_lost_se))
        if self.accuracy < 0:
            object.__setattr__(self, "accuracy", accuracy(self.ev_lost, self.ev_lost_se))


FIELDS = tuple(f.name for f in fields(DecisionRow) if f.name != "alternatives")
"""The fields stored in ``decisions``, in order (``decision_class`` is the column ``class``)."""

COLUMNS = tuple("class" if n == "decision_class" else n for n in FIELDS) + ("reviewed_at",)
ALTERNATIVE_FIELDS = tuple(f.name for f in fields(AlternativeRow))
KEY = ("source", "hand_id", "player", "street")


def _quoted(names: Sequence[str]) -> str:
    return ", ".join(f'"{n}"' for n in names)


def write_decisions(con: duckdb.DuckDBPyConnection, rows: Sequence[DecisionRow]) -> int:
    """Store ``rows`` and their alternatives in one transaction, replacing any earlier review of
    the same decisions; the number written. The rows go in as Arrow tables, and the earlier
    reviews go by one join on the decisions' keys (a statement a row would scan the table once
    a row)."""
    if not rows:
        return 0
    now = datetime.now(timezone.utc)
    new = pa.table({**{c: [getattr(r, n) for r in rows]
                       for c, n in zip(COLUMNS[:-1], FIELDS, strict=True)},
                    "reviewed_at": pa.array([now] * len(rows), pa.timestamp("us", "UTC"))})
    alternatives = [(r.source, r.hand_id, r.player, r.street, *astuple(a))
                    for r in rows for a in r.alternatives]
    names = KEY + ALTERNATIVE_FIELDS
    ranked = pa.table({n: [a[i] for a in alternatives] for i, n in enumerate(names)})
    con.execute("BEGIN TRANSACTION")
    try:
        con.register("_new_decisions", new)
        con.register("_new_alternatives", ranked)
        for table in ("decisions", "decision_alternatives"):
            con.execute(f"DELETE FROM {table} t USING (SELECT DISTINCT {_quoted(KEY)} FROM "
                        "_new_decisions) k WHERE " + " AND ".join(f"t.{n} = k.{n}" for n in KEY))
        con.execute(f"INSERT INTO decisions ({_quoted(COLUMNS)}) SELECT {_quoted(COLUMNS)} "
                    "FROM _new_decisions")
        if alternatives:
            con.execute(f"INSERT INTO decision_alternatives ({_quoted(names)}) SELECT "
                        f"{_quoted(names)} FROM _new_alternatives")
        con.execute("COMMIT")
    except BaseException:
        con.execute("ROLLBACK")
        raise
    finally:
        con.unregister("_new_decisions")
        con.unregister("_new_alternatives")
    return len(rows)


def stored_decisions(con: duckdb.DuckDBPyConnection, player: str) -> list[DecisionRow]:
    """The stored decisions of ``player`` with their alternatives, by hand and street."""
    found = con.execute(f"SELECT {_quoted(COLUMNS[:-1])} FROM decisions WHERE player = ? "
                        "ORDER BY source, hand_id, street", [player]).fetchall()
    alternatives: dict[tuple[object, ...], list[AlternativeRow]] = {}
    for values in con.execute(
            f"SELECT {_quoted(KEY + ALTERNATIVE_FIELDS)} FROM decision_alternatives "
            "WHERE player = ? ORDER BY source, hand_id, street, rank", [player]).fetchall():
        alternatives.setdefault(tuple(values[:4]), []).append(AlternativeRow(*values[4:]))
    return [replace(DecisionRow(*values), alternatives=tuple(alternatives.get(tuple(values[:4]),
                                                                              ())))
            for values in found]


def decision_json(row: DecisionRow) -> dict[str, Any]:
    """``row`` as ``ofc review --json`` prints it: the table's columns (``class`` named so)
    and ``alternatives``, a list of objects with ``decision_alternatives``' columns."""
    out: dict[str, Any] = {c: getattr(row, n) for c, n in zip(COLUMNS, FIELDS, strict=False)}
    out["alternatives"] = [{n: getattr(a, n) for n in ALTERNATIVE_FIELDS}
                           for a in row.alternatives]
    return out


def decision_of_json(obj: dict[str, Any]) -> DecisionRow:
    """The row of one object of :func:`decision_json`; the keys of review version 6 may be
    missing (a file written by an older version: :class:`DecisionRow` fills them as for an
    upgraded store). Raises ``KeyError`` naming the first required key missing."""
    values = {n: obj["class" if n == "decision_class" else n] for n in FIELDS
              if n in _REQUIRED or ("class" if n == "decision_class" else n) in obj}
    alternatives = tuple(AlternativeRow(**{n: a[n] for n in ALTERNATIVE_FIELDS})
                         for a in obj.get("alternatives", ()))
    return DecisionRow(**values, alternatives=alternatives)


_REQUIRED = frozenset(f.name for f in fields(DecisionRow)[:19])
"""The fields every review version wrote."""


def read_decisions(path: Path) -> list[DecisionRow]:
    """Rows written by ``ofc review --json`` (one object per line; ``.gz`` read compressed).
    Unknown keys are ignored; a missing one raises ``ValueError`` naming the file and line."""
    opener = gzip.open if path.suffix == ".gz" else open
    rows = []
    with opener(path, "rt", encoding="utf-8") as lines:
        for number, line in enumerate(lines, start=1):
            if not line.strip():
                continue
            obj = json.loads(line)
            missing = [n for n in sorted(_REQUIRED, key=FIELDS.index) if n not in obj]
            if missing:
                raise ValueError(f"{path}: line {number}: no {', '.join(missing)}")
            try:
                rows.append(decision_of_json(obj))
            except (KeyError, TypeError) as exc:
                raise ValueError(f"{path}: line {number}: an alternative lacks {exc}") from None
    return rows


def older_decisions(con: duckdb.DuckDBPyConnection, version: str,
                    player: str | None = None) -> int:
    """Decisions (of ``player``, or everyone's) reviewed by a review version other than
    ``version``: kept, shown, and reviewed again by the next ``ofc review``."""
    sql = "SELECT count(*) FROM decisions WHERE version <> ?"
    params: list[object] = [version]
    if player is not None:
        sql += " AND player = ?"
        params.append(player)
    found = con.execute(sql, params).fetchone()
    return int(found[0]) if found else 0


NEW_COLUMNS = frozenset(("decisions", c) for c in COLUMNS[COLUMNS.index("version") + 1:-1])
"""The ``decisions`` columns schema 10 added (an upgrade fills them: :func:`fill_older`)."""


def fill_older(con: duckdb.DuckDBPyConnection) -> int:
    """Fill the columns of schema 10 in rows an older review wrote (inside the caller's
    transaction), as :class:`DecisionRow` fills them; returns the rows filled. Their version
    stays the older one, so ``ofc review`` reviews them again."""
    keys = ", ".join(KEY)
    old = con.execute(f"SELECT {keys}, {_quoted(FIELDS[4:19])} FROM decisions "
                      "WHERE class IS NULL").fetchall()
    if not old:
        return 0
    filled = [DecisionRow(*values) for values in old]
    new = [c for _, c in sorted(NEW_COLUMNS, key=lambda tc: COLUMNS.index(tc[1]))]
    table = pa.table({n: [getattr(r, n) for r in filled] for n in KEY} | {
        c: [getattr(r, "decision_class" if c == "class" else c) for r in filled] for c in new})
    con.register("_ofc_older", table)
    try:
        sets = ", ".join(f'"{c}" = o."{c}"' for c in new)
        match = " AND ".join(f"decisions.{k} = o.{k}" for k in KEY)
        con.execute(f"UPDATE decisions SET {sets} FROM _ofc_older o WHERE {match}")
    finally:
        con.unregister("_ofc_older")
    return len(filled)


def delete_decisions_of(con: duckdb.DuckDBPyConnection, hands_sql: str,
                        params: Sequence[object]) -> None:
    """Delete the decisions (and their alternatives) of the hands ``hands_sql`` selects (a
    query of ``source, hand_id``); the caller owns the transaction."""
    for table in ("decisions", "decision_alternatives"):
        con.execute(f"DELETE FROM {table} WHERE (source, hand_id) IN ({hands_sql})",
                    list(params))


def reviewed_hands(con: duckdb.DuckDBPyConnection, player: str,
                   version: str) -> set[tuple[str, str]]:
    """Hands ``(source, hand_id)`` whose decisions by ``player`` were reviewed by this
    ``version`` (a review stores a hand's decisions together, so a hand is done or not)."""
    return {(s, h) for s, h in con.execute(
        "SELECT DISTINCT source, hand_id FROM decisions WHERE player = ? AND version = ?",
        [player, version]).fetchall()}


def player_hands(con: duckdb.DuckDBPyConnection, player: str, since: str | None = None,
              hands: int | None = None, variant: str | None = None
              ) -> list[tuple[int, str, str]]:
    """``(hand_key, source, hand_id)`` of the hands ``player`` played, oldest first; only those
    played from ``since`` (an ISO date) and of ``variant``, and only the last ``hands``."""
    sql = ("SELECT h.hand_key, h.source, h.hand_id FROM hands h JOIN hand_players p "
           "ON p.hand_key = h.hand_key WHERE p.player = ?")
    params: list[object] = [player]
    if since is not None:
        sql += " AND h.played_at >= CAST(? AS TIMESTAMPTZ)"
        params.append(since)
    if variant is not None:
        sql += " AND h.variant = ?"
        params.append(variant)
    sql += " ORDER BY h.played_at NULLS FIRST, h.hand_key"
    rows = [(int(k), s, h) for k, s, h in con.execute(sql, params).fetchall()]
    return rows[-hands:] if hands is not None else rows
