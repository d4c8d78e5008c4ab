"""``kill`` (SIGTERM) or Ctrl-C (SIGINT) of ``ofc dashboard`` stops Streamlit too, while its
watcher watches a folder: it exits 0 without a traceback, and afterwards the port is free and
the database can be opened for writing by another process. (Each test starts its own server,
opened once in the session's Chromium, which starts its watcher: stopping the server is what is
tested; the session's two shared servers are for page tests.)"""

from __future__ import annotations

import shutil
import signal
import socket
import subprocess
import sys
import urllib.request
from pathlib import Path

import pytest

from ingest import api
from tests.helpers.browser import free_port, open_page, wait_healthy, wait_until
from tests.helpers.store import hand_lines

pytestmark = pytest.mark.slow


def _port_free(port: int) -> bool:
    """Nobody listens on ``port`` and a server could bind it (as servers do, with
    SO_REUSEADDR: our own closed HTTP connections may linger in TIME_WAIT)."""
    with socket.socket() as s:
        s.settimeout(2)
        if s.connect_ex(("127.0.0.1", port)) == 0:
            return False
    with socket.socket() as s:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            s.bind(("127.0.0.1", port))
        except OSError:
            return False
        return True


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT])
def test_a_signal_stops_streamlit_and_frees_port_and_database(
        sig: signal.Signals, demo_db_path: Path, tmp_path: Path, ofc_script: str,
        tab) -> None:  # type: ignore[no-untyped-def]
    db = tmp_path / "demo.duckdb"
    shutil.copy(demo_db_path, db)
    watched = tmp_path / "logs"
    watched.mkdir()
    (watched / "session.jsonl").write_text("\n".join(hand_lines("signal", 3)) + "\n",
                                           encoding="utf-8")
    con = api.connect(db)
    try:
        api.add_folder(con, watched)  # the server's watcher runs when the signal comes
    finally:
        con.close()
    port = free_port()
    proc = subprocess.Popen([ofc_script, "dashboard", "--db", str(db), "--port", str(port),
                             "--address", "127.0.0.1"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    try:
        wait_healthy(f"http://127.0.0.1:{port}", proc)
        urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=10).close()
        page = open_page(tab, f"http://127.0.0.1:{port}/")  # a page run starts the watcher
        page.get_by_role("heading", name="Overview").first.wait_for(timeout=60_000)
        page.goto("about:blank")  # the worker's tab leaves the server it is about to stop
        wait_until("the watcher's import", lambda: _watched_hands(db) == 3)
        assert not _port_free(port)
        proc.send_signal(sig)
        _, err = proc.communicate(timeout=40)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert proc.returncode == 0, err[-2000:]
    assert "Traceback" not in err, err[-2000:]
    assert _port_free(port), "Streamlit still holds the port"
    # another process can open the database for writing at once (no lock left behind)
    code = ("import duckdb, sys; c = duckdb.connect(sys.argv[1]); "
            "c.execute('CREATE TABLE probe (x INT)'); c.close()")
    done = subprocess.run([sys.executable, "-c", code, str(db)], capture_output=True,
                          text=True, timeout=60)
    assert done.returncode == 0, done.stderr


def _watched_hands(db: Path) -> int:
    """Hands of the watched folder's file in the store (0 while the server holds it)."""
    try:
        con = api.connect(db, read_only=True, wait_seconds=0)
    except api.StoreBusy:
        return 0
    try:
        return int(con.execute("SELECT count(*) FROM hands WHERE session_id = 'signal'")
                   .fetchone()[0])
    finally:
        con.close()
