"""Import page queries: the ledger of file imports and the hands each one could not store."""

from __future__ import annotations

from typing import Any

import pandas as pd

from dashboard.queries.common import fetch_all, fetch_df

LEDGER_COLUMNS = ("import_id", "file", "format", "imported_at", "hands", "stored", "duplicate",
                  "merged", "partial", "rejected")


def last_import_id(con: Any) -> int:
    """The newest import id (0 for none): the ledger of one upload is everything after it."""
    return int(fetch_all(con, "SELECT coalesce(max(import_id), 0) FROM imports")[0][0])


def ledger(con: Any, after: int = 0, limit: int = 1000) -> pd.DataFrame:
    """One row per file import with ``import_id > after``, newest last. ``merged`` (hands
    already stored that this log completed with its hidden cards) is derived as documented in
    docs/schema.md."""
    return fetch_df(con, """
        SELECT import_id, path AS file, format, imported_at, hands, stored, duplicate,
               hands - stored - duplicate - rejected AS merged, partial, rejected
        FROM imports WHERE import_id > ? ORDER BY import_id LIMIT ?""", [after, limit])


def problems(con: Any, after: int = 0, limit: int = 10000) -> pd.DataFrame:
    """Every hand (or file: line 0) that was not stored, with ``file``, ``line``, ``hand_id``,
    ``reason`` and ``kind`` ('partial' for a truncated last hand, else 'error')."""
    return fetch_df(con, """
        SELECT r.path AS file, r.line, r.hand_id, r.message AS reason,
               CASE WHEN r.partial THEN 'partial' ELSE 'error' END AS kind
        FROM rejected r WHERE r.import_id > ?
        ORDER BY r.import_id, r.line LIMIT ?""", [after, limit])
