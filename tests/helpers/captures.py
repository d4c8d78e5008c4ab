"""The real captures (FPDB's capture of SwC's tables, the pineapple app's database) in the
writable dashboard's store, for the browser tests that read them (imported once a session:
``tests/test_browser_reallogs.py`` imports them through the Import page, and runs first in
its group; a test run alone imports them here)."""

from __future__ import annotations

from pathlib import Path

from tests.helpers.browser import Dashboard

ROOT = Path(__file__).resolve().parents[2]
CAPTURE = ROOT / "data" / "samples" / "fpdb-swc"
APP = ROOT / "data" / "samples" / "pineapple-app" / "ofc_logs.db"


def with_captures(dashboard: Dashboard) -> None:
    """The real captures in ``dashboard``'s store (imported when none of their hands is)."""
    from ingest.api import connect, import_paths

    con = connect(str(dashboard.db))
    try:
        have = con.execute("SELECT count(*) FROM hands WHERE source IN ('swc', "
                           "'pineapple-app')").fetchone()
    finally:
        con.close()
    if have == (0,):
        import_paths([CAPTURE / "raw_messages.jsonl", CAPTURE / "fpdb.db3", APP], dashboard.db)
