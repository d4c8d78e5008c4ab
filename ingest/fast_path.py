"""The fast path: canonical ofc-hh/1 lines read in bulk by :mod:`ingest.formats.ofc_hh_fast`
(text -> columns -> array checks -> ``ofc_core.batch.score_batch`` -> Arrow tables), chunk by
chunk, while DuckDB stores the previous chunk. Every line it does not take (not canonical,
invalid, or a hand stored before from a log that differs) goes through the format's own reader
on the record path (:func:`ingest.record_path.store_slowly`); both paths store the same rows.
"""

from __future__ import annotations

from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass

import duckdb
import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from ofc_core.records import gc_paused

from . import record_path
from .formats import Format, ofc_hh, ofc_hh_fast
from .formats.ofc_hh_arrays import ParsedLines
from .hand_tables import build_tables, insert_tables
from .ledger import next_id
from .record_path import store_slowly
from .reports import Counts

FAST_PATH = True
"""Read canonical ofc-hh/1 lines with :mod:`ingest.formats.ofc_hh_fast` (tests compare both
paths)."""


def takes(fmt: Format) -> bool:
    """Whether the fast path reads files of ``fmt`` (ofc-hh/1, unless :data:`FAST_PATH` is
    off)."""
    return FAST_PATH and fmt.name == ofc_hh.FORMAT_NAME


def batch(lines: list[str], start: int) -> list[tuple[int, str]]:
    """The non-blank lines of the chunk starting at ``start``, with their line numbers."""
    return [(number, line) for number, line in
            enumerate(lines[start:start + record_path.CHUNK_HANDS], start=start + 1)
            if line.strip()]


@dataclass(frozen=True)
class Ready:
    """A chunk's hands checked, scored and in tables as if none were stored yet, numbered
    from 0 and for import 0 (:func:`renumbered` gives them their keys)."""

    deferred: list[int]
    fresh: int
    tables: dict[str, pa.Table] | None


def ready(parsed: ParsedLines) -> Ready:
    with gc_paused():
        fast, deferred = parsed.finish()
        fresh = len(fast.columns)
        tables = build_tables(fast.columns, np.arange(fresh, dtype=np.int64),
                              np.zeros(fresh, np.int64), fast.scores()) if fresh else None
    return Ready(deferred, fresh, tables)


def renumbered(tables: dict[str, pa.Table], first: int, import_id: int) -> dict[str, pa.Table]:
    """``tables`` of :func:`ready` with hand keys from ``first`` and their import."""
    out = {}
    for name, table in tables.items():
        k = table.schema.get_field_index("hand_key")
        table = table.set_column(k, "hand_key", pc.add(table.column(k), pa.scalar(first,
                                                                                  pa.int64())))
        if name == "hands":
            k = table.schema.get_field_index("import_id")
            table = table.set_column(k, "import_id", pa.array(
                np.full(table.num_rows, import_id, np.int32)))
        out[name] = table
    return out


First = tuple[list[str], list[tuple[int, str]], ParsedLines, Ready]
"""A file's lines, its first chunk's numbered lines, their parse and :func:`ready` tables."""


def first_chunk(text: str) -> First:
    """Everything of a file's first chunk that needs no database (done while the previous
    file commits)."""
    lines = text.split("\n")
    numbered = batch(lines, 0)
    parsed = ofc_hh_fast.parse_lines(numbered)
    return lines, numbered, parsed, ready(parsed)


def store_fast(con: duckdb.DuckDBPyConnection, fmt: Format, name: str, text: str,
               first: First | None, import_id: int, counts: Counts,
               tick: Callable[[float], None]) -> None:
    """ofc-hh/1 in chunks of lines: canonical hands through :mod:`ingest.formats.ofc_hh_fast`,
    every other line through the format's own reader (which says what is wrong with it).
    ``first`` is the file's :func:`first_chunk` when it was made before the transaction;
    ``tick(share)`` follows the share of lines done.

    DuckDB stores chunk ``k`` on a worker thread while this one parses chunk ``k + 1`` (the
    connection is never used by both at once)."""
    lines = text.split("\n") if first is None else first[0]
    chunk_ready: Ready | None = None
    last = len(lines)
    step = record_path.CHUNK_HANDS
    with ThreadPoolExecutor(max_workers=1, thread_name_prefix="ofc-store") as worker:
        pending: Future[None] | None = None
        for start in range(0, last, step):
            with gc_paused():
                if start == 0 and first is not None:
                    _, numbered, parsed, chunk_ready = first
                else:
                    numbered = batch(lines, start)
                    parsed = ofc_hh_fast.parse_lines(numbered)
                _wait(pending)
                again, tables = _chunk_tables(con, parsed, import_id, counts, chunk_ready)
                chunk_ready = None
            pending = worker.submit(insert_tables, con, tables) if tables else None
            if again:
                _wait(pending)
                pending = None
                store_slowly(con, fmt, name, numbered, again, last, import_id, counts)
            tick(min(start + step, last) / last)
        _wait(pending)


def _wait(pending: Future[None] | None) -> None:
    if pending is not None:
        pending.result()


def _chunk_tables(con: duckdb.DuckDBPyConnection, parsed: ParsedLines,
                  import_id: int, counts: Counts, made: Ready | None = None,
                  ) -> tuple[list[int], dict[str, pa.Table] | None]:
    """The tables of the new canonical hands of a chunk (counted as stored); hands stored
    before with the same text are counted as duplicates. Also returns the positions of the
    lines left for the reference reader (not canonical, invalid, or already stored from a log
    that differs)."""
    hands = parsed.hands
    n = len(hands["source"])
    keep = np.ones(n, bool)
    later: list[int] = []
    if n:
        ids = pa.table({"source": pa.array(hands["source"], pa.string()),
                        "hand_id": pa.array(hands["hand_id"], pa.string()),
                        "raw": pa.array(hands["raw"], pa.string()),
                        "i": pa.array(np.arange(n))})
        con.register("_ofc_ids", ids)
        try:
            found = con.execute("SELECT i.i, h.raw = i.raw FROM _ofc_ids i JOIN hands h "
                                "USING (source, hand_id)").fetchall()
        finally:
            con.unregister("_ofc_ids")
        for i, same in found:
            keep[i] = False
            if same:
                counts.hands += 1
                counts.duplicate += 1
            else:
                later.append(hands["input"][i])
        seen: set[tuple[str, str]] = set()
        for i, key in enumerate(zip(hands["source"], hands["hand_id"], strict=True)):
            if key in seen and keep[i]:
                keep[i] = False
                later.append(hands["input"][i])
            seen.add(key)
    if made is not None and keep.all():  # checked and built before the transaction
        tables = None
        if made.fresh and made.tables is not None:
            tables = renumbered(made.tables, next_id(con, "hands", "hand_key"), import_id)
            counts.hands += made.fresh
            counts.stored += made.fresh
        return sorted(made.deferred + later), tables
    fast, deferred = parsed.finish(keep)
    fresh = len(fast.columns)
    tables = None
    if fresh:
        first = next_id(con, "hands", "hand_key")
        keys = np.arange(first, first + fresh, dtype=np.int64)
        tables = build_tables(fast.columns, keys, np.full(fresh, import_id), fast.scores())
        counts.hands += fresh
        counts.stored += fresh
    return sorted(deferred + later), tables
