"""The ``decisions`` table: what ``ofc review`` found for each reviewed decision.

The review computes in ``ofc_core.play.review``; this module only stores and reads its rows.
A decision is identified by ``(source, hand_id, player, street)``; writing one again replaces
it. Rescoring never touches the table (it is keyed by the hand's identity, not its key).

>>> from ingest.store import connect
>>> con = connect(":memory:")
>>> row = DecisionRow("s", "1", "ann", 2, "street", "--", "Qh Kd 2c", "Qh--Kd/2c", -1.5, 0.2,
...                   "-Qh-Kd/2c", 0.5, 0.2, 2.0, False, 27, 1000, "best-of-24", "1")
>>> write_decisions(con, [row])
1
>>> reviewed_hands(con, "ann", "1") == {("s", "1")}
True
>>> con.execute("SELECT street, ev_lost FROM decisions").fetchall()
[(2, 2.0)]
"""

from __future__ import annotations

import gzip
import json
from collections.abc import Sequence
from dataclasses import astuple, dataclass, fields
from datetime import datetime, timezone
from pathlib import Path

import duckdb


@dataclass(frozen=True)
class DecisionRow:
    """One row of ``decisions`` (docs/schema.md); ``reviewed_at`` is set when written."""

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


COLUMNS = tuple(f.name for f in fields(DecisionRow)) + ("reviewed_at",)


def write_decisions(con: duckdb.DuckDBPyConnection, rows: Sequence[DecisionRow]) -> int:
    """Store ``rows`` in one transaction, replacing any earlier review of the same decisions;
    the number written."""
    if not rows:
        return 0
    now = datetime.now(timezone.utc)
    keys = sorted({(r.source, r.hand_id, r.player, r.street) for r in rows})
    con.execute("BEGIN TRANSACTION")
    try:
        con.executemany("DELETE FROM decisions WHERE source = ? AND hand_id = ? AND player = ? "
                        "AND street = ?", [list(k) for k in keys])
        marks = ", ".join("?" * len(COLUMNS))
        con.executemany(f"INSERT INTO decisions ({', '.join(COLUMNS)}) VALUES ({marks})",
                        [list(astuple(r)) + [now] for r in rows])
        con.execute("COMMIT")
    except BaseException:
        con.execute("ROLLBACK")
        raise
    return len(rows)


def read_decisions(path: Path) -> list[DecisionRow]:
    """Rows written by ``ofc review --json`` (one object per line; ``.gz`` read compressed).
    Unknown keys are ignored; a missing one raises ``ValueError`` naming the file and line."""
    opener = gzip.open if path.suffix == ".gz" else open
    names = [f.name for f in fields(DecisionRow)]
    rows = []
    with opener(path, "rt", encoding="utf-8") as lines:
        for number, line in enumerate(lines, start=1):
            if not line.strip():
                continue
            obj = json.loads(line)
            missing = [n for n in names if n not in obj]
            if missing:
                raise ValueError(f"{path}: line {number}: no {', '.join(missing)}")
            rows.append(DecisionRow(**{n: obj[n] for n in names}))
    return rows


def delete_decisions_of(con: duckdb.DuckDBPyConnection, hands_sql: str,
                        params: Sequence[object]) -> None:
    """Delete the decisions of the hands ``hands_sql`` selects (a query of ``source,
    hand_id``); the caller owns the transaction."""
    con.execute(f"DELETE FROM decisions WHERE (source, hand_id) IN ({hands_sql})", list(params))


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
