"""Every copy of a hand the imports read: the table ``hand_copies``, so that removing an
import keeps each hand another import holds (:mod:`ingest.removal`).

A hand is stored once (``hands``), from its most informative copy completed by the others
(:mod:`ingest.merge`). The copies behind it are kept as follows:

- a hand stored once and never seen again has no row: the stored hand is its import's copy;
- a copy read again (a duplicate) or merged gets a row (import, line, raw text, the copy as
  read);
- before a merge changes a stored hand, its first import's copy (the stored hand as it was)
  gets a row too, so that from then on the rows hold every copy.

So a stored hand whose import has no row is still exactly that import's copy. A copy is kept
as JSON: its ``ofc-hh/1`` object (:func:`ingest.formats.ofc_hh.record_to_dict`) with what
that format does not carry (the variant assumed, each player's stack and the room's results)
under ``"kept"``:

>>> from ofc_core.board import Board
>>> from ofc_core.hand import PlayerRecord
>>> p = PlayerRecord("ann", 0, Board.parse("Qh Qd 2c", "Ks Kd 9s 5h 3c", "Jh Jd Jc 4s 4d"),
...                  stack=40.0, reported=Reported(fouled=False))
>>> q = PlayerRecord("bob", 1, Board.parse("2h 3d 5d", "6h 7h 8d 9d Tc", "As Ac Ad Ah 6s"))
>>> r = HandRecord("swc", "7", "pineapple", (p, q), variant_assumed=True)
>>> record_of_copy(copy_text(r)) == r
True
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

import duckdb
import pyarrow as pa

from ofc_core.hand import HandRecord, Reported

from .formats.ofc_hh import record_from_dict, record_to_dict

TABLE = "hand_copies"

_REPORTED = ("raw_points", "fouled", "royalties", "fantasyland_next")


@dataclass(frozen=True)
class Copy:
    """One import's copy of a stored hand (``hand_key``)."""

    hand_key: int
    import_id: int
    line: int | None
    raw: str | None
    record: HandRecord


def copy_text(record: HandRecord) -> str:
    """The copy as JSON (see the module's example)."""
    out = record_to_dict(record)
    out["kept"] = {"variant_assumed": record.variant_assumed,
                   "players": {p.name: {"stack": p.stack,
                                        "reported": [getattr(p.reported, f) for f in _REPORTED]}
                               for p in record.players}}
    return json.dumps(out, ensure_ascii=False, allow_nan=False)


def record_of_copy(text: str) -> HandRecord:
    """The copy :func:`copy_text` wrote, as the reader gave it."""
    obj: dict[str, Any] = json.loads(text)
    kept = obj.pop("kept")
    record = record_from_dict(obj)
    players = tuple(replace(p, stack=kept["players"][p.name]["stack"],
                            reported=Reported(*kept["players"][p.name]["reported"]))
                    for p in record.players)
    return replace(record, players=players, variant_assumed=bool(kept["variant_assumed"]))


def keep_copies(con: duckdb.DuckDBPyConnection, copies: Sequence[Copy]) -> None:
    """Rows for these copies (inside the caller's transaction)."""
    if not copies:
        return
    table = pa.table({
        "hand_key": pa.array([c.hand_key for c in copies], pa.int64()),
        "import_id": pa.array([c.import_id for c in copies], pa.int32()),
        "line": pa.array([c.line for c in copies], pa.int32()),
        "raw": pa.array([c.raw for c in copies], pa.string()),
        "copy": pa.array([copy_text(c.record) for c in copies], pa.string()),
    })
    con.register("_ofc_new_copies", table)
    try:
        con.execute(f"INSERT INTO {TABLE} BY NAME SELECT * FROM _ofc_new_copies")
    finally:
        con.unregister("_ofc_new_copies")


def imports_with_rows(con: duckdb.DuckDBPyConnection,
                      keys: Sequence[int]) -> dict[int, set[int]]:
    """The imports each of these hands has a copy row from."""
    found: dict[int, set[int]] = {}
    if keys:
        for key, import_id in con.execute(
                f"SELECT DISTINCT hand_key, import_id FROM {TABLE} "
                "WHERE list_contains(?, hand_key)", [list(keys)]).fetchall():
            found.setdefault(int(key), set()).add(int(import_id))
    return found


def read_copies(con: duckdb.DuckDBPyConnection, keys: Sequence[int],
                leaving: Sequence[int]) -> dict[int, list[Copy]]:
    """The copy rows of these hands, by hand, but those of the imports ``leaving``."""
    out: dict[int, list[Copy]] = {}
    rows = con.execute(
        f"SELECT hand_key, import_id, line, raw, copy FROM {TABLE} "
        "WHERE list_contains(?, hand_key) AND NOT list_contains(?, import_id) "
        "ORDER BY hand_key, import_id, line", [list(keys), list(leaving)]).fetchall()
    for key, import_id, line, raw, text in rows:
        out.setdefault(int(key), []).append(
            Copy(int(key), int(import_id), None if line is None else int(line), raw,
                 record_of_copy(text)))
    return out
