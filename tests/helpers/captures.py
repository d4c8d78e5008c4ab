"""The real captures (FPDB's capture of SwC's tables, the pineapple app's database) in the
writable dashboard's store, for the browser tests that read them, whatever the order the tests
run in: :func:`with_captures` imports them when none is stored;
``tests/test_browser_reallogs.py`` imports them through the Import page after
:func:`without_captures` has removed any stored copy (its audit is of hands it stores)."""

from __future__ import annotations

from pathlib import Path

from tests.helpers.browser import Dashboard

ROOT = Path(__file__).resolve().parents[2]
ROOMS = ("swc", "pineapple-app")
"""The captures' rooms (no other test stores hands of them)."""
CAPTURE = ROOT / "data" / "samples" / "fpdb-swc"
APP = ROOT / "data" / "samples" / "pineapple-app" / "ofc_logs.db"


def with_captures(dashboard: Dashboard) -> None:
    """The real captures in ``dashboard``'s store (imported when none of their hands is)."""
    from ingest.api import connect, import_paths

    con = connect(str(dashboard.db))
    try:
        have = con.execute("SELECT count(*) FROM hands WHERE source IN (?, ?)",
                           list(ROOMS)).fetchone()
    finally:
        con.close()
    if have == (0,):
        import_paths([CAPTURE / "raw_messages.jsonl", CAPTURE / "fpdb.db3", APP], dashboard.db)


def without_captures(dashboard: Dashboard) -> None:
    """No hand of the captures' rooms in ``dashboard``'s store (every import holding one
    removed, whichever test imported it)."""
    from ingest.api import connect, remove_imports

    con = connect(str(dashboard.db))
    try:
        ids = [int(r[0]) for r in con.execute(
            "SELECT import_id FROM hands WHERE source IN (?, ?) UNION SELECT c.import_id "
            "FROM hand_copies c JOIN hands h USING (hand_key) WHERE h.source IN (?, ?)",
            [*ROOMS, *ROOMS]).fetchall()]
        if ids:
            remove_imports(con, ids)
        left = con.execute("SELECT count(*) FROM hands WHERE source IN (?, ?)",
                           list(ROOMS)).fetchone()
    finally:
        con.close()
    assert left == (0,), f"{left} capture hands left after removing imports {ids}"
