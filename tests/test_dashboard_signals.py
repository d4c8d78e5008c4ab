"""``kill`` (SIGTERM) or Ctrl-C (SIGINT) of ``ofc dashboard`` stops Streamlit too: afterwards
the port is free and the database can be opened for writing by another process."""

from __future__ import annotations

import shutil
import signal
import socket
import subprocess
import sys
import urllib.request
from pathlib import Path

import pytest

from tests.test_browser import free_port, wait_healthy

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
        sig: signal.Signals, demo_db_path: Path, tmp_path: Path, ofc_script: str) -> None:
    db = tmp_path / "demo.duckdb"
    shutil.copy(demo_db_path, db)
    port = free_port()
    proc = subprocess.Popen([ofc_script, "dashboard", "--db", str(db), "--port", str(port),
                             "--address", "127.0.0.1"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    try:
        wait_healthy(f"http://127.0.0.1:{port}", proc)
        urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=10).close()
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
