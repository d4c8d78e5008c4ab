"""``ofc import --watch DIR...`` as a real process: it imports what the folder holds, then
files dropped into it while it runs (a partial last hand once it is complete), prints one line
per import, stops on SIGTERM or Ctrl-C with exit status 0 and leaves the database unlocked.
Beside it, a second watcher of the same folder (the dashboard's) imports nothing twice."""

from __future__ import annotations

import os
import signal
import subprocess
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import duckdb
import pytest

from ingest.watch import Watcher
from tests.helpers.store import hand_lines

pytestmark = pytest.mark.slow

DEADLINE_SECONDS = 60.0


def wait_for(what: str, condition: Callable[[], bool], proc: subprocess.Popen | None = None,
             log: Path | None = None) -> None:
    deadline = time.monotonic() + DEADLINE_SECONDS
    while time.monotonic() < deadline:
        if condition():
            return
        if proc is not None and proc.poll() is not None:
            pytest.fail(f"ofc import --watch exited ({proc.returncode}) before {what}: "
                        f"{log.read_text() if log else ''}")
        time.sleep(0.1)
    pytest.fail(f"not within {DEADLINE_SECONDS:.0f} s: {what}")


def hands(db: Path) -> int:
    """Hands stored, or -1 while a watcher holds the store."""
    try:
        con = duckdb.connect(str(db), read_only=True)
    except duckdb.Error:
        return -1
    try:
        return int(con.execute("SELECT count(*) FROM hands").fetchone()[0])
    finally:
        con.close()


@pytest.fixture
def watching(tmp_path: Path, ofc_script: str) -> Iterator[tuple[subprocess.Popen, Path, Path,
                                                                Path, Path]]:
    """``ofc import --watch logs`` running (one log there already); yields the process, the
    folder, the database, its stdout and stderr files."""
    folder, db = tmp_path / "logs", tmp_path / "w.duckdb"
    folder.mkdir()
    (folder / "before.jsonl").write_text("\n".join(hand_lines("before", 2)) + "\n")
    out, err = tmp_path / "out.txt", tmp_path / "err.txt"
    with out.open("w") as o, err.open("w") as e:
        proc = subprocess.Popen([ofc_script, "import", "--watch", str(folder), "--db", str(db),
                                 "--interval", "0.3"], stdout=o, stderr=e,
                                env={k: v for k, v in os.environ.items() if k != "OFC_DB"})
    try:
        wait_for("the folder's log imported", lambda: "before.jsonl" in out.read_text(),
                 proc, err)
        yield proc, folder, db, out, err
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


@pytest.mark.parametrize("stop", [signal.SIGTERM, signal.SIGINT], ids=["SIGTERM", "Ctrl-C"])
def test_watch_imports_dropped_files_and_stops_cleanly(
        watching: tuple[subprocess.Popen, Path, Path, Path, Path], stop: signal.Signals) -> None:
    proc, folder, db, out, err = watching
    lines = hand_lines("dropped", 3)
    (folder / "dropped.jsonl").write_text(lines[0] + "\n" + lines[1][:40])  # being written
    wait_for("the complete hand imported, the partial one reported",
             lambda: "dropped.jsonl [ofc-hh/1]: 2 hands, 1 stored" in out.read_text(), proc, err)
    with (folder / "dropped.jsonl").open("a") as f:
        f.write(lines[1][40:] + "\n" + lines[2] + "\n")
    wait_for("the grown file imported",
             lambda: "3 hands, 2 stored, 1 duplicate" in out.read_text(), proc, err)
    proc.send_signal(stop)
    assert proc.wait(timeout=30) == 0
    printed = out.read_text()
    assert "1 partial" in printed and "rejected" not in printed
    assert "stopped watching" in err.read_text() and "Traceback" not in err.read_text()
    con = duckdb.connect(str(db))  # unlocked: a writer gets in at once
    try:
        assert con.execute("SELECT count(*) FROM hands").fetchone() == (5,)
        assert con.execute("SELECT path FROM watched_folders").fetchall() == [
            (str(folder.resolve()),)]
    finally:
        con.close()


def test_a_second_watcher_beside_the_command_imports_nothing_twice(
        watching: tuple[subprocess.Popen, Path, Path, Path, Path]) -> None:
    proc, folder, db, out, err = watching
    other = Watcher(db, [str(folder)], wait_seconds=60)  # the dashboard's, in this process
    errors: list[str] = []
    other.on_check = lambda done: errors.extend(
        [done.error] if done.error else [])
    thread = threading.Thread(target=other.run, args=(0.3,), daemon=True)
    thread.start()
    try:
        for n in range(5):
            (folder / f"f{n}.jsonl").write_text("\n".join(hand_lines(f"f{n}", 2)) + "\n")
            time.sleep(0.4)
        wait_for("every file imported", lambda: hands(db) == 12, proc, err)
        time.sleep(2.0)  # both watchers have seen every file settle
    finally:
        other.stop()
        thread.join(timeout=60)
    proc.send_signal(signal.SIGTERM)
    assert proc.wait(timeout=30) == 0
    con = duckdb.connect(str(db), read_only=True)
    try:
        per_file = con.execute("SELECT path, count(*) FROM imports GROUP BY path").fetchall()
        assert con.execute("SELECT count(*) FROM hands").fetchone() == (12,)
    finally:
        con.close()
    assert sorted(per_file) == sorted((str(folder.resolve() / name), 1) for name in
                                      ["before.jsonl", *(f"f{n}.jsonl" for n in range(5))])
    assert errors == [] and "Traceback" not in err.read_text()


def test_watch_refuses_a_missing_folder_and_needs_something_to_do(tmp_path: Path,
                                                                  ofc_script: str) -> None:
    db = tmp_path / "w.duckdb"
    missing = subprocess.run([ofc_script, "import", "--watch", str(tmp_path / "nothing-here"),
                              "--db", str(db)], capture_output=True, text=True, timeout=60)
    assert missing.returncode == 1 and "nothing-here: no such folder" in missing.stderr
    assert missing.stderr.count("nothing-here") == 1 and not db.exists()
    nothing = subprocess.run([ofc_script, "import", "--db", str(db)], capture_output=True,
                             text=True, timeout=60)
    assert nothing.returncode == 2 and "--watch" in nothing.stderr
    spin = subprocess.run([ofc_script, "import", "--watch", str(tmp_path), "--interval", "0",
                           "--db", str(db)], capture_output=True, text=True, timeout=60)
    assert spin.returncode == 2 and "--interval" in spin.stderr and not db.exists()
