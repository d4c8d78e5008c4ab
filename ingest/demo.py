"""The demo sample's bookkeeping in the store: which imports loaded it, and removing exactly
those.

``meta`` key :data:`DEMO_KEY` holds the JSON list of the import ids that loaded the sample
(taken from the import's reports); :func:`remove_demo` deletes exactly those imports' hands
(from every table) and ledger rows, and stamps :data:`DEMO_REMOVED_KEY`. Where the sample's
files live is the caller's business (``dashboard/demo.py``).
"""

from __future__ import annotations

import json
from collections.abc import Iterable

import duckdb

from .ledger import IMPORT_LOCK, delete_imports, transaction
from .pipeline import import_files
from .reports import Progress

DEMO_KEY = "demo_import_ids"
DEMO_REMOVED_KEY = "demo_removed_at"


def load_demo(con: duckdb.DuckDBPyConnection, files: Iterable[tuple[str, bytes]],
              progress: Progress | None = None) -> list[int]:
    """Import the sample's ``(name, content)`` files and remember their import ids in
    ``meta``. Returns the ids (empty when there are no files)."""
    files = list(files)
    if not files:
        return []
    report = import_files(files, con, progress=progress)
    ids = [f.import_id for f in report.files if f.import_id is not None]
    con.execute("INSERT OR REPLACE INTO meta VALUES (?, ?)", [DEMO_KEY, json.dumps(ids)])
    return ids


def demo_import_ids(con: duckdb.DuckDBPyConnection) -> list[int]:
    """The import ids of the demo sample still loaded (empty when none)."""
    cur = con.cursor()
    try:
        row = cur.execute("SELECT value FROM meta WHERE key = ?", [DEMO_KEY]).fetchone()
    finally:
        cur.close()
    return [int(i) for i in json.loads(row[0])] if row else []


def remove_demo(con: duckdb.DuckDBPyConnection) -> int:
    """Delete exactly the demo imports' hands from every table and their ledger rows; returns
    the number of hands removed. The user's own imports are untouched."""
    ids = demo_import_ids(con)
    if not ids:
        return 0
    cur = con.cursor()
    try:
        with IMPORT_LOCK, transaction(cur, "removing the demo data"):
            removed = delete_imports(cur, ids).removed
            cur.execute("DELETE FROM meta WHERE key = ?", [DEMO_KEY])
            cur.execute("INSERT OR REPLACE INTO meta VALUES (?, CAST(now() AS VARCHAR))",
                        [DEMO_REMOVED_KEY])
            cur.execute("COMMIT")
    finally:
        cur.close()
    return removed
