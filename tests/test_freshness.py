"""Pages that update themselves (``dashboard.freshness``): the store's stamp changes when an
import writes, and only then does an open page's poll ask for a run; an unchanged store asks
for none (no rerun every few seconds)."""

from __future__ import annotations

import fcntl
import os
import shutil
from pathlib import Path
from typing import Any

import pytest

from dashboard import db, freshness
from ingest.api import import_paths
from ingest.store import queue_path

DEMO = Path(__file__).resolve().parents[1] / "data" / "demo"


@pytest.fixture
def session(monkeypatch: pytest.MonkeyPatch, demo_db_path: Path, tmp_path: Path
            ) -> tuple[Path, dict[str, Any]]:
    """A copy of the demo store as the app's database, and a session state of our own."""
    path = tmp_path / "store.duckdb"
    shutil.copy(demo_db_path, path)
    state: dict[str, Any] = {}
    monkeypatch.setattr(freshness.st, "session_state", state)
    monkeypatch.setattr(db, "db_path", lambda argv=None: path)
    return path, state


def test_an_unchanged_store_asks_for_no_run(session: tuple[Path, dict[str, Any]]) -> None:
    _, state = session
    assert not freshness.changed()  # no run noted yet: nothing to compare
    freshness.note()
    for _ in range(3):
        assert not freshness.changed()
    assert state  # the stamp is kept in the session


def test_an_import_changes_the_stamp_and_asks_for_a_run(
        session: tuple[Path, dict[str, Any]], tmp_path: Path) -> None:
    path, _ = session
    freshness.note()
    log = tmp_path / "more.jsonl"
    line = (DEMO / "regular.Hero.jsonl").read_text(encoding="utf-8").splitlines()[0]
    log.write_text(line.replace('"hand_id": "', '"hand_id": "fresh-') + "\n", encoding="utf-8")
    report = import_paths([log], path)
    assert report.files[0].stored == 1
    assert freshness.changed()
    freshness.note()  # the run that follows reads the new stamp
    assert not freshness.changed()


def test_a_waiting_writer_puts_the_run_off(session: tuple[Path, dict[str, Any]]) -> None:
    path, state = session
    freshness.note()
    state[next(iter(state))] = (0,)  # as if the store had changed since
    assert freshness.changed() and freshness.due()
    line = os.open(queue_path(path), os.O_RDWR | os.O_CREAT)
    try:
        fcntl.flock(line, fcntl.LOCK_SH)  # a writer holds its place in line
        assert freshness.changed() and not freshness.due()
    finally:
        os.close(line)
    assert freshness.due()  # the line is empty: the page runs
