"""``python -m dashboard.serve`` (what ``ofc dashboard`` starts): the warm-up imports what the
pages need and opens the store before the first page runs; a page run waits for it."""

from __future__ import annotations

import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from ofc_cli.cli import main as ofc

ROOT = Path(__file__).resolve().parent.parent


def test_the_warm_up_opens_the_store_and_a_run_waits_for_it(fixture_db: Path,
                                                           monkeypatch: pytest.MonkeyPatch
                                                           ) -> None:
    from dashboard import db, serve

    monkeypatch.setattr(sys, "argv", ["serve", "run", "app.py", "--", "--db", str(fixture_db)])
    monkeypatch.setattr(serve, "_done", serve.threading.Event())
    monkeypatch.setattr(serve, "_started", False)
    serve.start()
    serve.wait()
    assert serve._done.is_set()
    assert fixture_db.resolve() in db._prepared
    # the shared reader is open on the store, held by no run
    assert db._reader.path == fixture_db.resolve() and db._reader.con is not None
    assert db._reader.users == 0
    with db.page_run():
        assert db.connection() is db._reader.con  # the first page run finds it open


def test_without_the_launcher_a_run_does_not_wait() -> None:
    """``streamlit run dashboard/app.py``: no warm-up was started, :func:`wait` returns."""
    code = ("import time; from dashboard import serve; t = time.monotonic(); serve.wait(); "
            "print(round(time.monotonic() - t, 1))")
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True,
                         text=True, check=True)
    assert out.stdout.strip() == "0.0"


def test_the_launcher_is_streamlits_command_line() -> None:
    out = subprocess.run([sys.executable, "-m", "dashboard.serve", "--version"], cwd=ROOT,
                         capture_output=True, text=True, timeout=120)
    assert out.returncode == 0 and "Streamlit, version" in out.stdout


def test_an_import_after_the_warm_up_shows_on_the_first_page(fixture_db: Path, tmp_path: Path,
                                                               monkeypatch: pytest.MonkeyPatch
                                                               ) -> None:
    """The warm-up leaves the store open for reading: an import from another process still
    gets in (the reader lets go when a writer waits), and the first page shows its hands."""
    from streamlit.testing.v1 import AppTest

    from dashboard import serve

    monkeypatch.setattr(sys, "argv", ["serve", "run", "app.py", "--", "--db", str(fixture_db)])
    monkeypatch.setenv("OFC_DB", str(fixture_db))
    monkeypatch.setattr(serve, "_done", serve.threading.Event())
    monkeypatch.setattr(serve, "_started", False)
    serve.start()
    serve.wait()
    log = tmp_path / "new.jsonl"
    # the log is written in this process; the import is another process's, as the test says
    assert ofc(["simulate", "--variant", "pineapple", "--players", "2", "--hands", "5",
                "--names", "hero,zed", "--start", "2030-01-01T10:00:00+00:00",
                "--out", str(log)]) == 0
    subprocess.run([sys.executable, "-m", "ofc_cli.cli", "import", str(log), "--db",
                    str(fixture_db)], cwd=ROOT, check=True, capture_output=True, timeout=120)
    at = AppTest.from_file(str(ROOT / "dashboard" / "app.py"), default_timeout=60)
    at.query_params["player"] = "hero"
    at.run()
    assert not at.exception
    assert {m.label: m.value for m in at.metric}["Hands"] == "45"  # the fixture's 40, and 5


def test_a_use_left_by_a_run_that_is_over_never_holds_the_store(fixture_db: Path,
                                                                monkeypatch: pytest.MonkeyPatch
                                                                ) -> None:
    """A query outside a page run (a fragment's own run) holds the shared reader until its
    thread's next run; Streamlit's run threads end, so a use left that way is dropped when a
    writer waits, and the reader closes for it (a writer once waited forever for it)."""
    from dashboard import db

    reader = db._Reader()
    monkeypatch.setattr(db, "_reader", reader)
    left = threading.Thread(target=lambda: reader.acquire(fixture_db.resolve()))
    left.start()
    left.join()
    assert reader.users == 1 and reader.con is not None  # held by a thread that has ended
    monkeypatch.setattr(db.api, "writer_waiting", lambda path: True)
    deadline = time.monotonic() + 10
    while reader.con is not None and time.monotonic() < deadline:
        time.sleep(0.05)
    assert reader.con is None and reader.users == 0  # the watch let the writer in
