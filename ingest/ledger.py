"""The ledger and its transactions: one ``imports`` row per file read, the ``rejected`` rows
of what it could not store, the next free ids, the check that a file's bytes are stored in
full already, and the removal of whole imports (the demo sample; a hand another import
holds a copy of is kept: :mod:`ingest.removal`).

Every write to the store runs inside :func:`transaction`, which rolls back on anything raised
and turns a database error into :class:`ingest.store.StoreError` saying what was being done.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any

import duckdb
import pyarrow as pa

from . import aggregates, store, tournaments
from .formats import FileFormat, Format, registry
from .hand_tables import insert_tables
from .inferred_stakes import infer_stakes
from .money import settle_matches
from .removal import Removal, remove_hands_of
from .reports import Counts

IMPORT_LOCK = threading.Lock()
"""One import at a time per process (hand keys and (source, hand_id) checks are read-then-write;
other processes are kept out by DuckDB's file lock)."""


@contextmanager
def transaction(con: duckdb.DuckDBPyConnection, what: str, *, begin: bool = True,
                ) -> Iterator[None]:
    """The block's statements in a transaction (begun here unless ``begin`` is false, when
    the block goes on with one already open): anything raised rolls it back, and a database
    error comes out as :class:`store.StoreError` saying ``what`` was being done."""
    try:
        try:
            if begin:
                con.execute("BEGIN TRANSACTION")
            yield
        except BaseException:
            _rollback(con)
            raise
    except duckdb.Error as exc:
        raise store.StoreError(f"{what}: {store.describe_error(exc)}") from None


def _rollback(con: duckdb.DuckDBPyConnection) -> None:
    try:
        con.execute("ROLLBACK")
    except duckdb.Error:
        pass


def next_id(con: duckdb.DuckDBPyConnection, table: str, column: str) -> int:
    row = con.execute(f"SELECT coalesce(max({column}), 0) + 1 FROM {table}").fetchone()
    assert row is not None
    return int(row[0])


def insert_rejected(con: duckdb.DuckDBPyConnection, import_id: int, name: str,
                    rows: list[dict[str, Any]]) -> None:
    if not rows:
        return
    table = pa.table({
        "import_id": pa.array([import_id] * len(rows), pa.int32()),
        "path": pa.array([name] * len(rows), pa.string()),
        "line": pa.array([r["line"] for r in rows], pa.int32()),
        "hand_id": pa.array([r["hand_id"] for r in rows], pa.string()),
        "message": pa.array([r["message"] for r in rows], pa.string()),
        "partial": pa.array([r["partial"] for r in rows], pa.bool_()),
        "raw": pa.array([r["raw"] for r in rows], pa.string()),
    })
    insert_tables(con, {"rejected": table})


def insert_import(con: duckdb.DuckDBPyConnection, import_id: int, name: str, digest: str,
                  size: int, fmt: Format | FileFormat | None, counts: Counts) -> None:
    """The file's ledger row (inside the file's transaction)."""
    con.execute(
        "INSERT INTO imports (import_id, path, sha256, size_bytes, format, parser_version, "
        "imported_at, hands, stored, duplicate, partial, rejected, merged) "
        "VALUES (?, ?, ?, ?, ?, ?, now(), ?, ?, ?, ?, ?, ?)",
        [import_id, name, digest, size,
         None if fmt is None else fmt.name, None if fmt is None else fmt.version,
         counts.hands, counts.stored, counts.duplicate, counts.partial,
         len(counts.errors), counts.merged])


def already_stored(con: duckdb.DuckDBPyConnection, digest: str,
                   ) -> tuple[Format, int] | None:
    """The format and hand count of an earlier import of the same bytes (sha256) that stored
    every hand it read (none duplicate, merged, rejected or partial) and whose hands are all
    still stored, if its format is still known: importing those bytes again can only find
    each hand stored already, so they need not be read (the usual case when a whole folder of
    logs is imported again for its new files)."""
    row = con.execute("""
        SELECT i.format, i.hands FROM imports i
        WHERE i.sha256 = ? AND i.hands > 0 AND i.stored = i.hands AND i.partial = 0
          AND (SELECT count(*) FROM hands h WHERE h.import_id = i.import_id) = i.hands
        ORDER BY i.import_id LIMIT 1""", [digest]).fetchone()
    fmt = next((f for f in registry() if row is not None and f.name == row[0]), None)
    return None if row is None or fmt is None else (fmt, int(row[1]))


def delete_imports(con: duckdb.DuckDBPyConnection, import_ids: Sequence[int]) -> Removal:
    """Remove these imports inside the caller's transaction: the hands no other import holds
    are deleted (from every hand table, with their reviewed decisions), the hands another
    import holds a copy of are kept, made again from the remaining copies
    (:mod:`ingest.removal`); then their rejected rows and ledger rows go."""
    ids = [int(i) for i in import_ids]
    removed, kept = remove_hands_of(con, ids)
    infer_stakes(con)
    settle_matches(con)  # a removed hand may hold a double of a match that another import ends
    aggregates.refresh(con)
    con.execute("DELETE FROM tournament_summaries WHERE list_contains(?, import_id)", [ids])
    tournaments.refresh(con)
    con.execute("DELETE FROM rejected WHERE list_contains(?, import_id)", [ids])
    row = con.execute("SELECT count(*) FROM imports WHERE list_contains(?, import_id)",
                      [ids]).fetchone()
    con.execute("DELETE FROM imports WHERE list_contains(?, import_id)", [ids])
    return Removal(int(row[0]) if row else 0, removed, kept)


def remove_imports(con: duckdb.DuckDBPyConnection, import_ids: Sequence[int]) -> Removal:
    """:func:`delete_imports` in one transaction of its own (on a cursor of ``con``); the
    import ids are those of the :class:`~ingest.reports.FileReport` of each file.

    Returns what was removed and what was kept (:class:`~ingest.removal.Removal`: its
    ``message()`` says it in a line)."""
    cur = con.cursor()
    try:
        with IMPORT_LOCK, transaction(cur, "removing imports"):
            removal = delete_imports(cur, import_ids)
            cur.execute("COMMIT")
    finally:
        cur.close()
    return removal
