"""Import page queries: the ledger of file imports and the hands each one could not store."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pandas as pd

from dashboard.queries.common import fetch_df
from ingest.api import Audit, audit_import


def _chosen(import_ids: Sequence[int] | None) -> tuple[str, list[Any]]:
    """The condition on ``import_id`` for these imports (every import for ``None``)."""
    if import_ids is None:
        return "true", []
    return "list_contains(?, import_id)", [[int(i) for i in import_ids]]


def ledger(con: Any, import_ids: Sequence[int] | None = None, limit: int = 1000,
           ) -> pd.DataFrame:
    """One row per file import (those of ``import_ids``, from the importer's reports; every
    import for ``None``), newest last: the ledger's own counts (``imports``), where
    hands = stored + duplicate + merged + partial + rejected."""
    where, params = _chosen(import_ids)
    return fetch_df(con, f"""
        SELECT import_id, path AS file, coalesce(format, 'not recognised') AS format,
               imported_at, hands, stored, duplicate, coalesce(merged, 0) AS merged, partial,
               rejected
        FROM imports WHERE {where} ORDER BY import_id LIMIT ?""", [*params, limit])


def audit(con: Any, import_id: int) -> Audit:
    """The audit of one import's stored hands against the room's own results (the one the
    importer reports: :func:`ingest.api.audit_import`)."""
    cur = con.cursor()
    try:
        return audit_import(cur, int(import_id))
    finally:
        cur.close()


def problems(con: Any, import_ids: Sequence[int] | None = None, limit: int = 10000,
             ) -> pd.DataFrame:
    """Every hand (or file: line 0) of these imports that was not stored, with ``file``,
    ``line``, ``hand_id``, ``reason`` and ``kind`` ('partial' for a truncated last hand, else
    'error')."""
    where, params = _chosen(import_ids)
    return fetch_df(con, f"""
        SELECT r.path AS file, r.line, r.hand_id, r.message AS reason,
               CASE WHEN r.partial THEN 'partial' ELSE 'error' END AS kind
        FROM rejected r WHERE {where}
        ORDER BY r.import_id, r.line LIMIT ?""", [*params, limit])
