"""Rescoring: every stored hand's results recomputed from its stored boards and placements
(after a rules change or a core upgrade), without reading the log files again.
"""

from __future__ import annotations

import time
from collections.abc import Sequence

import duckdb
import numpy as np
import pyarrow as pa

from ofc_core.batch import score_records
from ofc_core.hand import HandRecord, validate
from ofc_core.records import gc_paused

from .formats import ofc_hh_fast
from .hand_tables import (
    HandRow,
    build_tables,
    delete_hands,
    hand_tables,
    insert_tables,
    load_records,
)
from .ledger import IMPORT_LOCK, transaction
from .reports import HandIssue, Progress, RescoreResult


def rescore(con: duckdb.DuckDBPyConnection, *, progress: Progress | None = None,
            chunk_hands: int = 50_000) -> RescoreResult:
    """Recompute every stored hand's results from its stored boards and placements (after a
    rules change or a core upgrade), chunk by chunk, one transaction per chunk.

    ``progress(done, total, label)`` counts hands."""
    total_row = con.execute("SELECT count(*), coalesce(min(hand_key), 0) FROM hands").fetchone()
    assert total_row is not None
    total, start = int(total_row[0]), int(total_row[1])
    done = 0
    failed: list[HandIssue] = []
    started = time.monotonic()
    with IMPORT_LOCK:
        while done < total:
            keys = [k for (k,) in con.execute(
                "SELECT hand_key FROM hands WHERE hand_key >= ? ORDER BY hand_key LIMIT ?",
                [start, chunk_hands]).fetchall()]
            if not keys:
                break
            failed += _rescore_chunk(con, keys)
            done += len(keys)
            start = keys[-1] + 1
            if progress is not None:
                rate = done / max(time.monotonic() - started, 1e-6)
                progress(done, total, f"{done:,} hands, {rate:,.0f} hands/s")
    return RescoreResult(done - len(failed), tuple(failed))


def _rescore_chunk(con: duckdb.DuckDBPyConnection, keys: Sequence[int]) -> list[HandIssue]:
    """Rescore the hands ``keys`` in one transaction: in bulk (:func:`_rescore_in_bulk`)
    where the bulk reader takes them, the others (match events, or not valid any more) as
    records, which says what is wrong with a hand that fails (it is kept as it was)."""
    bulk, rest = _rescore_in_bulk(con, keys)
    loaded = load_records(con, rest)
    good: list[tuple[HandRecord, HandRow]] = []
    failed: list[HandIssue] = []
    for record, row in loaded.values():
        problems = validate(record)
        if problems:
            failed.append(HandIssue(row.line or 0, record.hand_id,
                                    f"hand {record.hand_id!r} ({record.source}): "
                                    f"{'; '.join(problems)}"))
        else:
            good.append((record, row))
    records = [r for r, _ in good]
    rows = [row for _, row in good]
    derived = ("hands", "hand_players", "hand_rows", "pairs")
    parts = [t for t in (bulk, hand_tables(records, rows, score_records(records)) if good
                         else None) if t is not None]
    done = [int(k) for t in parts for k in t["hands"]["hand_key"].to_numpy()]
    with transaction(con, "rescoring"):
        delete_hands(con, done, derived)
        for tables in parts:
            insert_tables(con, {name: tables[name] for name in derived})
        con.execute("COMMIT")
    return failed


def _rescore_in_bulk(con: duckdb.DuckDBPyConnection, keys: Sequence[int],
                     ) -> tuple[dict[str, pa.Table] | None, list[int]]:
    """The tables of the hands ``keys`` that the bulk reader takes, read back from the store
    (:func:`~ingest.formats.ofc_hh_fast.read_store`), checked and scored on arrays as an import
    does, with their stored key, import, line and raw text; and the keys it leaves."""
    stored = ofc_hh_fast.read_store(con, keys)
    with gc_paused():
        fast, _ = stored.parsed.finish()
    if not len(fast.columns):
        return None, sorted(keys)
    taken = np.asarray(fast.inputs, np.int64)
    hand_keys = stored.hand_keys[taken]
    tables = build_tables(fast.columns, hand_keys, stored.import_ids[taken], fast.scores())
    return tables, sorted(set(keys) - {int(k) for k in hand_keys})
