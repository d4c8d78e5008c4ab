"""The dashboard benchmark's store builder (``benchmarks/bench_dashboard.py``): the replicas
inserted a batch of copies at a time (to build 10M hands in a few GB) are the rows one
statement for every copy gives: same keys, ids, names, dates, every table."""

from __future__ import annotations

import shutil
from pathlib import Path

import duckdb

from benchmarks import bench_dashboard
from ingest import store


def _tables(path: Path) -> dict[str, list[tuple[object, ...]]]:
    con = duckdb.connect(str(path), read_only=True)
    try:
        return {t: con.execute(f"SELECT COLUMNS(*)::VARCHAR FROM {t} ORDER BY ALL").fetchall()
                for t in ("hands", *bench_dashboard.KEYED_TABLES)}
    finally:
        con.close()


def _replicated(source: Path, copy: Path, target: int, batch: int) -> dict[str, list]:
    shutil.copy(source, copy)
    con = store.connect(copy)
    try:
        bench_dashboard._replicate(con, target, batch=batch)
    finally:
        con.close()
    return _tables(copy)


def test_batched_replicas_equal_one_statement(demo_db_path: Path, tmp_path: Path) -> None:
    before = {t: len(rows) for t, rows in _tables(demo_db_path).items()}
    base = before["hands"]
    target = 3 * base + base // 2  # three whole copies and a trimmed fourth
    whole = _replicated(demo_db_path, tmp_path / "whole.duckdb", target, batch=10**6)
    batched = _replicated(demo_db_path, tmp_path / "batched.duckdb", target, batch=1)
    assert len(whole["hands"]) == target
    assert len({row[0] for row in whole["hands"]}) == target  # new keys, no clash
    for table, rows in whole.items():
        assert len(rows) > 3 * before[table], table
        assert batched[table] == rows, table
