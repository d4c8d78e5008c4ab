"""``import_paths`` holds DuckDB's memory to ``IMPORT_MEMORY_LIMIT`` while it imports (its
default, most of the machine's memory, let the buffers grow with the store: 2.3 GB at a
million hands), to ``import_pool.MEMORY_LIMIT`` when a worker process reads the files (the two
processes together under 2 GB), and gives the setting back afterwards."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import duckdb
import pytest

from ingest import import_pool, pipeline
from ingest.api import import_paths

DEMO = Path(__file__).resolve().parent.parent / "data" / "demo" / "turbo.Hero.jsonl"


def _limit(con: duckdb.DuckDBPyConnection) -> str:
    row = con.execute("SELECT current_setting('memory_limit')").fetchone()
    assert row is not None
    return str(row[0])


@pytest.mark.parametrize(("workers", "limit"), [("0", pipeline.IMPORT_MEMORY_LIMIT),
                                               ("1", import_pool.MEMORY_LIMIT)])
def test_the_import_runs_under_its_memory_limit_and_restores_it(
        tmp_path: Path, monkeypatch: Any, workers: str, limit: str) -> None:
    monkeypatch.setenv(import_pool.WORKERS_ENV, workers)
    seen: list[str] = []
    real = pipeline.import_disk_files

    def spy(files: Any, con: duckdb.DuckDBPyConnection, **kwargs: Any) -> Any:
        seen.append(_limit(con))
        return real(files, con, **kwargs)

    monkeypatch.setattr(pipeline, "import_disk_files", spy)
    expected = duckdb.connect()
    default = _limit(expected)
    expected.execute(f"SET memory_limit = '{limit}'")
    db = tmp_path / "s.duckdb"
    holder = duckdb.connect(str(db))  # another connection to the same database, open throughout
    try:
        report = import_paths([DEMO], db)
        assert report.stored > 0
        assert seen == [_limit(expected)] and seen[0] != default
        assert _limit(holder) != seen[0]
    finally:
        holder.close()
        expected.close()
