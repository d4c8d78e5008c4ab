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

from . import aggregates, stored_columns, tournaments
from .hand_tables import (
    HandRow,
    build_tables,
    delete_hands,
    hand_tables,
    insert_tables,
)
from .inferred_stakes import infer_stakes
from .ledger import IMPORT_LOCK, transaction
from .money import settle_matches
from .reports import HandIssue, Progress, RescoreResult
from .stored_hands import load_records


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
    try:
        bulk, rest = _rescore_in_bulk(con, keys)
    except duckdb.Error:
        raise
    except Exception:  # a bug of the bulk path: the records say what is wrong, if anything
        bulk, rest = None, sorted(keys)
    good: list[tuple[HandRecord, HandRow]] = []
    failed: list[HandIssue] = []
    for record, row in _loaded(con, rest, failed):
        problems = validate(record)
        if problems:
            failed.append(HandIssue(row.line or 0, record.hand_id,
                                    f"hand {record.hand_id!r} ({record.source}): "
                                    f"{'; '.join(problems)}"))
        else:
            good.append((record, row))
    derived = ("hands", "hand_players", "hand_rows", "pairs")
    parts = [t for t in (bulk, _scored_tables(good, failed)) if t is not None]
    done = [int(k) for t in parts for k in t["hands"]["hand_key"].to_numpy()]
    with transaction(con, "rescoring"):
        delete_hands(con, done, derived)
        for tables in parts:
            insert_tables(con, {name: tables[name] for name in derived})
        infer_stakes(con)
        settle_matches(con)
        aggregates.refresh(con)
        tournaments.refresh(con)
        con.execute("COMMIT")
    return failed


def _loaded(con: duckdb.DuckDBPyConnection, keys: Sequence[int],
            failed: list[HandIssue]) -> list[tuple[HandRecord, HandRow]]:
    """The stored hands ``keys`` as records; a hand that cannot be rebuilt (a bug, or a store
    edited by hand) is added to ``failed`` and kept as it was."""
    try:
        return list(load_records(con, keys).values())
    except duckdb.Error:
        raise
    except Exception as exc:
        if len(keys) > 1:
            return [item for k in keys for item in _loaded(con, [k], failed)]
        row = con.execute("SELECT line, hand_id, source FROM hands WHERE hand_key = ?",
                          [keys[0]]).fetchone()
        line, hand_id, source = row or (0, None, None)
        failed.append(_kept(line, hand_id, source, "cannot be read back", exc))
        return []


def _scored_tables(good: Sequence[tuple[HandRecord, HandRow]],
                   failed: list[HandIssue]) -> dict[str, pa.Table] | None:
    """The tables of the hands ``good`` scored as records; a hand whose scoring raises (a
    bug) is added to ``failed`` (kept as it was) and the others are scored one by one."""
    if not good:
        return None
    records, rows = [r for r, _ in good], [row for _, row in good]
    try:
        return hand_tables(records, rows, score_records(records))
    except Exception as exc:
        if len(good) == 1:
            failed.append(_kept(rows[0].line, records[0].hand_id, records[0].source,
                                "cannot be scored", exc))
            return None
    parts = [t for item in good if (t := _scored_tables([item], failed)) is not None]
    return {name: pa.concat_tables([t[name] for t in parts]) for name in parts[0]} if parts \
        else None


def _kept(line: int | None, hand_id: str | None, source: str | None, what: str,
          exc: Exception) -> HandIssue:
    """A stored hand that rescoring leaves as it was because ``what`` raised ``exc``."""
    return HandIssue(line or 0, hand_id, f"hand {hand_id!r} ({source}): {what} "
                     f"({type(exc).__name__}: {exc}); kept as it was. This is a bug in OFC "
                     "Analytics: please report it.")


def _rescore_in_bulk(con: duckdb.DuckDBPyConnection, keys: Sequence[int],
                     ) -> tuple[dict[str, pa.Table] | None, list[int]]:
    """The tables of the hands ``keys`` that the bulk reader takes, read back from the store
    (:func:`ingest.stored_columns.read_store`), checked and scored on arrays as an import
    does, with their stored key, import, line and raw text; and the keys it leaves."""
    stored = stored_columns.read_store(con, keys)
    with gc_paused():
        fast, _ = stored.parsed.finish()
    if not len(fast.columns):
        return None, sorted(keys)
    taken = np.asarray(fast.inputs, np.int64)
    hand_keys = stored.hand_keys[taken]
    tables = build_tables(fast.columns, hand_keys, stored.import_ids[taken], fast.scores())
    return tables, sorted(set(keys) - {int(k) for k in hand_keys})
