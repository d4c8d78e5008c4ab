"""Decisions written as Parquet by ``ofc spark review`` merged into a store (``ofc import
FOLDER``): the folder's ``decisions`` (and ``decision_alternatives``) tables, read by DuckDB,
stored by :func:`ingest.decisions.write_decisions` in one transaction per chunk, replacing any
earlier review of the same decisions, as ``ofc review`` stores its own.

A folder is such a review's when it holds a ``decisions`` folder (or ``decisions.parquet``) of
Parquet files (:func:`decisions_folder`).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import duckdb

from .decisions import (
    ALTERNATIVE_FIELDS,
    COLUMNS,
    FIELDS,
    AlternativeRow,
    DecisionRow,
    write_decisions,
)
from .parquet_store import table_files

CHUNK = 5_000
"""Decisions stored in one transaction."""


def decisions_folder(path: str | Path) -> bool:
    """Whether ``path`` is a folder holding a ``decisions`` table of Parquet files (``ofc spark
    review --output``).

    >>> decisions_folder("/nowhere")
    False
    """
    folder = Path(path)
    return folder.is_dir() and table_files(folder, "decisions") is not None


def _rows(con: duckdb.DuckDBPyConnection, folder: Path) -> list[DecisionRow]:
    source = table_files(folder, "decisions")
    assert source is not None
    names = ", ".join(f'"{c}"' for c in COLUMNS[:-1])
    found = con.execute(f"SELECT {names} FROM {source} ORDER BY source, hand_id, player, "
                        "street").fetchall()
    alternatives: dict[tuple[str, str, str, int], list[AlternativeRow]] = {}
    where = table_files(folder, "decision_alternatives")
    if where is not None:
        picked = ", ".join(f'"{c}"' for c in ("source", "hand_id", "player", "street",
                                              *ALTERNATIVE_FIELDS))
        for row in con.execute(f"SELECT {picked} FROM {where} ORDER BY rank").fetchall():
            key = (str(row[0]), str(row[1]), str(row[2]), int(row[3]))
            alternatives.setdefault(key, []).append(AlternativeRow(*row[4:]))
    return [DecisionRow(**dict(zip(FIELDS, row, strict=True)), alternatives=tuple(
        alternatives.get((row[0], row[1], row[2], int(row[3])), ()))) for row in found]


def merge_decisions(con: duckdb.DuckDBPyConnection, folder: str | Path,
                    progress: Callable[[int, int], None] | None = None) -> int:
    """Store every decision under ``folder`` (:func:`decisions_folder`) in the store ``con``;
    the number stored. Raises ``ValueError`` naming the folder when its files cannot be read."""
    path = Path(folder)
    reader = duckdb.connect()
    try:
        rows = _rows(reader, path)
    except duckdb.Error as exc:
        raise ValueError(f"{path}: cannot read its decisions: {exc}") from None
    finally:
        reader.close()
    done = 0
    for start in range(0, len(rows), CHUNK):
        done += write_decisions(con, rows[start:start + CHUNK])
        if progress is not None:
            progress(done, len(rows))
    return done
