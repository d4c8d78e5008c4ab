"""Opening the store: where it lives, the schema, and another process holding the file."""

from __future__ import annotations

import subprocess
import sys
import textwrap
import time
from pathlib import Path

import duckdb
import pytest

from ingest import store
from ingest.api import upgrade

ROOT = Path(__file__).resolve().parent.parent


def test_default_path_is_data_under_the_checkout(monkeypatch) -> None:
    monkeypatch.delenv("OFC_DB", raising=False)
    assert store.default_db_path() == ROOT / "data" / "ofc.duckdb"


def test_ofc_db_overrides_the_default(monkeypatch, tmp_path: Path) -> None:
    monkeypatch.setenv("OFC_DB", str(tmp_path / "x.duckdb"))
    assert store.default_db_path() == tmp_path / "x.duckdb"
    con = store.connect()
    con.close()
    assert (tmp_path / "x.duckdb").exists()


def test_connect_creates_the_schema_once(tmp_path: Path) -> None:
    path = tmp_path / "sub" / "dir" / "ofc.duckdb"
    con = store.connect(path)
    con.execute("INSERT INTO meta VALUES ('mine', 'kept')")
    con.close()
    con = store.connect(path)
    try:
        tables = {t for (t,) in con.execute(
            "SELECT table_name FROM information_schema.tables").fetchall()}
        assert tables >= {"imports", "hands", "hand_players", "hand_rows", "placements", "pairs",
                          "events", "rejected", "meta"}
        assert con.execute("SELECT value FROM meta WHERE key = 'mine'").fetchone() == ("kept",)
    finally:
        con.close()


def test_read_only_needs_an_existing_store(tmp_path: Path) -> None:
    with pytest.raises(store.StoreError, match="does not exist yet: import some logs first"):
        store.connect(tmp_path / "missing.duckdb", read_only=True)
    raw = duckdb.connect(str(tmp_path / "bare.duckdb"))
    raw.close()
    with pytest.raises(store.StoreError, match="not an OFC Analytics database yet"):
        store.connect(tmp_path / "bare.duckdb", read_only=True)


def test_a_file_that_is_not_a_database(tmp_path: Path) -> None:
    path = tmp_path / "notes.duckdb"
    path.write_text("these are my notes, not a database\n" * 200)
    with pytest.raises(store.StoreError, match="not an OFC Analytics database .*--db"):
        store.connect(path)


def test_an_older_schema_version_is_upgraded_by_the_entry_point(tmp_path: Path) -> None:
    # (tests/test_migration.py upgrades a store with hands and compares every table.)
    path = tmp_path / "old.duckdb"
    con = store.connect(path)
    con.execute("UPDATE meta SET value = '1' WHERE key = 'schema_version'")
    con.close()
    said: list[str] = []
    con = store.connect(path, notify=said.append)
    assert store.schema_version(con) == "1" and said == []  # opening never upgrades
    upgrade(con, path, notify=said.append)
    version = con.execute("SELECT value FROM meta WHERE key = 'schema_version'").fetchone()
    assert version == (store.SCHEMA_VERSION,)
    assert said and "from schema version 1" in said[0]


HOLD = textwrap.dedent("""
    import sys, time, duckdb
    con = duckdb.connect(sys.argv[1])
    print("holding", flush=True)
    time.sleep(float(sys.argv[2]))
    con.close()
""")


def hold(path: Path, seconds: float) -> subprocess.Popen:
    """Another process holding the database file for ``seconds``."""
    proc = subprocess.Popen([sys.executable, "-c", HOLD, str(path), str(seconds)],
                            stdout=subprocess.PIPE, text=True)
    assert proc.stdout is not None and proc.stdout.readline().strip() == "holding"
    return proc


def test_a_busy_store_waits_then_says_what_to_do(tmp_path: Path) -> None:
    path = tmp_path / "busy.duckdb"
    store.connect(path).close()
    holder = hold(path, 30)
    try:
        told: list[str] = []
        started = time.monotonic()
        with pytest.raises(store.StoreBusy) as info:
            store.connect(path, wait_seconds=0.6, notify=told.append)
        assert time.monotonic() - started >= 0.6
        message = str(info.value)
        assert "is held by another process (an import or a rescore still running" in message
        assert "Retry when it is done." in message
        assert "busy.duckdb" in message and "lock" not in message.lower()
        assert len(told) == 1 and "waiting" in told[0]
    finally:
        holder.kill()
        holder.wait()


def test_a_busy_store_is_opened_once_the_other_process_closes_it(tmp_path: Path) -> None:
    path = tmp_path / "busy.duckdb"
    store.connect(path).close()
    holder = hold(path, 2.5)  # longer than TELL_AFTER_SECONDS: the wait is told
    told: list[str] = []
    try:
        con = store.connect(path, wait_seconds=60, notify=told.append)
        con.close()
    finally:
        holder.wait()
    assert len(told) == 2 and "waiting" in told[0] and told[1].startswith("waited ")


def test_describe_error_turns_database_errors_into_advice() -> None:
    full = store.describe_error(duckdb.IOException("IO Error: No space left on device"), "x.db")
    assert "full" in full and "x.db" in full
    other = store.describe_error(duckdb.Error("Catalog Error: boom"), "x.db")
    assert other.startswith("Database error on x.db")
