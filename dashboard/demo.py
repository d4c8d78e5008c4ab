"""The demo sample: loaded on a fresh machine, removed in one click. No Streamlit here, so
``ofc dashboard`` can load it before the app starts.

Where the sample's files are is this module's; its bookkeeping in the store (which imports
loaded it, removing exactly those) is ingest's (:mod:`ingest.demo`, through
:mod:`ingest.api`).
"""

from __future__ import annotations

from pathlib import Path

import duckdb

from ingest import api
from ingest.api import demo_import_ids, remove_demo

__all__ = ["DEMO_DECISIONS", "DEMO_DIR", "demo_files", "demo_import_ids", "load_demo",
           "remove_demo"]

REPO_ROOT = Path(__file__).resolve().parent.parent
DEMO_DIR = REPO_ROOT / "data" / "demo"
DEMO_DECISIONS = REPO_ROOT / "data" / "demo-review" / "decisions.jsonl.gz"
"""The demo's reviewed decisions (``ofc review --json`` of Hero's hands; docs/review.md),
beside ``data/demo/`` so that importing that folder never reads it. Removing the demo removes
them with its hands."""


def demo_files() -> list[Path]:
    return sorted(p for p in DEMO_DIR.glob("*") if p.is_file() and not p.name.startswith("."))


def load_demo(con: duckdb.DuckDBPyConnection, progress: api.Progress | None = None) -> list[int]:
    """Import the committed demo sample and remember its import ids in the store. Returns the
    ids (empty when there is no demo data). The demo's reviewed decisions come with it."""
    ids = api.load_demo(con, [(f"demo/{p.name}", p.read_bytes()) for p in demo_files()],
                        progress)
    if ids and DEMO_DECISIONS.is_file():
        api.write_decisions(con, api.read_decisions(DEMO_DECISIONS))
    return ids
