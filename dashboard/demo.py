"""The demo sample: loaded on a fresh machine, removed in one click. No Streamlit here, so
``ofc dashboard`` (in ``ingest``) can load it before the app starts.

``meta`` key :data:`DEMO_KEY` holds the JSON list of the import ids that loaded the sample;
:func:`remove_demo` deletes exactly those imports' hands (from every table) and ledger rows.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import duckdb

from ingest.decisions import delete_decisions_of, read_jsonl, write_decisions

REPO_ROOT = Path(__file__).resolve().parent.parent
DEMO_DIR = REPO_ROOT / "data" / "demo"
DEMO_DECISIONS = REPO_ROOT / "data" / "demo-review" / "decisions.jsonl.gz"
"""The demo's reviewed decisions (``ofc review --json`` of Hero's hands, beside ``data/demo/``
so that importing that folder never reads it; docs/review.md)."""
DEMO_KEY = "demo_import_ids"
DEMO_REMOVED_KEY = "demo_removed_at"
HAND_TABLES = ("placements", "hand_rows", "pairs", "events", "hand_players")
"""Tables keyed by hand_key besides ``hands`` itself."""


def demo_files() -> list[Path]:
    return sorted(p for p in DEMO_DIR.glob("*") if p.is_file() and not p.name.startswith("."))


def load_demo(con: duckdb.DuckDBPyConnection, progress: Callable[[int, int, str], None]
              | None = None) -> list[int]:
    """Import the committed demo sample through the importer and remember its import ids in
    ``meta``. Returns the ids (empty when there is no demo data)."""
    from ingest.importer import import_files

    files = [(f"demo/{p.name}", p.read_bytes()) for p in demo_files()]
    if not files:
        return []
    before = _max_import_id(con)
    import_files(files, con, progress=progress)
    ids = [r[0] for r in con.execute(
        "SELECT import_id FROM imports WHERE import_id > ? ORDER BY import_id", [before]
    ).fetchall()]
    con.execute("INSERT OR REPLACE INTO meta VALUES (?, ?)", [DEMO_KEY, json.dumps(ids)])
    if DEMO_DECISIONS.is_file():
        write_decisions(con, read_jsonl(DEMO_DECISIONS))
    return ids


def _max_import_id(con: duckdb.DuckDBPyConnection) -> int:
    return con.execute("SELECT coalesce(max(import_id), 0) FROM imports").fetchone()[0]


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
        cur.execute("BEGIN TRANSACTION")
        demo_hands = "SELECT hand_key FROM hands WHERE list_contains(?, import_id)"
        removed = cur.execute(f"SELECT count(*) FROM ({demo_hands})", [ids]).fetchone()[0]
        delete_decisions_of(cur, "SELECT source, hand_id FROM hands WHERE "
                                 "list_contains(?, import_id)", [ids])
        for table in HAND_TABLES:
            cur.execute(f"DELETE FROM {table} WHERE hand_key IN ({demo_hands})", [ids])
        cur.execute("DELETE FROM hands WHERE list_contains(?, import_id)", [ids])
        cur.execute("DELETE FROM rejected WHERE list_contains(?, import_id)", [ids])
        cur.execute("DELETE FROM imports WHERE list_contains(?, import_id)", [ids])
        cur.execute("DELETE FROM meta WHERE key = ?", [DEMO_KEY])
        cur.execute("INSERT OR REPLACE INTO meta VALUES (?, CAST(now() AS VARCHAR))",
                    [DEMO_REMOVED_KEY])
        cur.execute("COMMIT")
    except BaseException:
        cur.execute("ROLLBACK")
        raise
    finally:
        cur.close()
    return removed
