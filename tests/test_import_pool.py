"""The import's worker processes (``ingest/import_pool.py``): the same files imported with a
worker reading them and without give the same reports and the same tables, hand keys
included; files the workers cannot take whole (other formats, bad or non-canonical lines,
hands already stored, the same file again, a conflicting log) are read by the importer as
before."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import time
from concurrent.futures import Future
from pathlib import Path

import pytest

from ingest import import_pool, pipeline, store
from ingest.api import import_paths
from tests.helpers.store import table_dump

ROOT = Path(__file__).resolve().parent.parent
DEMO = ROOT / "data" / "demo"
SAMPLES = ROOT / "data" / "samples"


def _logs(folder: Path) -> list[Path]:
    """Two demo files, samples of bad and odd hands, and another format, the same demo file
    again under another name, and a demo file with one hand changed (a log that disagrees)."""
    demo = folder / "a-demo"
    demo.mkdir(parents=True)
    for name in ("regular.Hero.jsonl", "turbo.Hero.jsonl"):
        shutil.copy(DEMO / name, demo / name)
    samples = folder / "b-samples"
    samples.mkdir()
    for name in ("bad-hands.jsonl", "nasty-names.jsonl", "double-match.jsonl",
                 "rules-overrides.jsonl"):
        shutil.copy(SAMPLES / name, samples / name)
    shutil.copytree(SAMPLES / "csv", samples / "csv")
    again = folder / "c-again"
    again.mkdir()
    shutil.copy(DEMO / "regular.Hero.jsonl", again / "regular-again.jsonl")
    lines = (DEMO / "turbo.Hero.jsonl").read_text(encoding="utf-8").splitlines()
    lines[2] = lines[2].replace('"name": "', '"name": "x', 1)
    (again / "turbo-changed.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
    return [demo, samples, again]


def _import(paths: list[Path], db: Path) -> tuple[dict, dict, list]:
    report = import_paths(paths, db).to_dict()
    for f in report["files"]:
        f.pop("seconds", None)
    report.pop("seconds", None)
    con = store.connect(db, read_only=True)
    try:
        rejected = con.execute("SELECT * FROM rejected ORDER BY ALL").fetchall()
        return report, table_dump(con), rejected
    finally:
        con.close()


def test_a_worker_gives_the_same_import_as_this_process(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    paths = _logs(tmp_path / "logs")
    monkeypatch.setenv(import_pool.WORKERS_ENV, "0")
    alone = _import(paths, tmp_path / "alone.duckdb")
    shipped: list[str] = []
    real = pipeline._from_worker

    def counted(future, name, data, digest):  # type: ignore[no-untyped-def]
        got = real(future, name, data, digest)
        if got is not None:
            shipped.append(name)
        return got

    monkeypatch.setattr(pipeline, "_from_worker", counted)
    monkeypatch.setattr(import_pool, "POOL_AFTER_BYTES", 0)
    monkeypatch.setenv(import_pool.WORKERS_ENV, "1")
    pooled = _import(paths, tmp_path / "pooled.duckdb")
    assert pooled == alone
    names = {Path(n).name for n in shipped}
    assert "regular.Hero.jsonl" in names  # the worker read the clean demo files
    assert not names & {"bad-hands.jsonl", "nasty-names.jsonl"}  # bad lines: read here
    assert any(f["duplicate"] for f in pooled[0]["files"])  # the same file again
    assert pooled[0]["rejected"] > 0


def test_a_worker_that_fails_leaves_the_file_to_this_process() -> None:
    failed: Future[import_pool.Shipped | None] = Future()
    failed.set_exception(RuntimeError("a worker died"))
    assert pipeline._from_worker(failed, "x.jsonl", b"{}", "0" * 64) is None
    nothing: Future[import_pool.Shipped | None] = Future()
    nothing.set_result(None)
    assert pipeline._from_worker(nothing, "x.jsonl", b"{}", "0" * 64) is None


@pytest.mark.parametrize(("cores", "env", "expected"), [
    (2, None, 1), (8, None, 1), (1, None, 0), (2, "0", 0), (1, "2", 2)])
def test_import_paths_takes_a_worker_on_two_cores_unless_told(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, cores: int, env: str | None,
        expected: int) -> None:
    """``ofc import`` (``import_paths``) starts a worker by default on two cores or more;
    ``$OFC_IMPORT_WORKERS`` overrides it; the dashboard's uploads and the watcher
    (``import_files``, ``import_disk_files`` on their own) start none unless told."""
    monkeypatch.setattr(import_pool.os, "cpu_count", lambda: cores)
    if env is None:
        monkeypatch.delenv(import_pool.WORKERS_ENV, raising=False)
    else:
        monkeypatch.setenv(import_pool.WORKERS_ENV, env)
    counts: list[int] = []
    real = import_pool.pool

    def spy(count: int):  # type: ignore[no-untyped-def]
        counts.append(count)
        return real(count)

    monkeypatch.setattr(import_pool, "pool", spy)
    import_paths([DEMO / "turbo.Hero.jsonl"], tmp_path / "s.duckdb")
    con = store.connect(tmp_path / "s.duckdb")
    try:
        pipeline.import_files([("up.jsonl", (DEMO / "regular.Hero.jsonl").read_bytes())], con)
        pipeline.import_disk_files([DEMO / "regular.Hero.jsonl"], con)
    finally:
        con.close()
    assert counts == [expected, 0 if env is None else int(env), 0 if env is None else int(env)]


def test_a_worker_ends_when_its_import_is_killed(tmp_path: Path) -> None:
    """A worker whose import was killed (SIGKILL: no shutdown) ends within a few seconds
    (:func:`import_pool.follow_parent`) instead of waiting for work forever."""
    pid_file = tmp_path / "worker.pid"
    worker = ("import os, sys, time; from ingest import import_pool; "
              "import_pool.follow_parent(os.getppid()); "
              f"open({str(pid_file)!r}, 'w').write(str(os.getpid())); time.sleep(600)")
    parent = subprocess.Popen([sys.executable, "-c",
                               f"import subprocess, sys, time; subprocess.Popen([sys.executable, "
                               f"'-c', {worker!r}]); time.sleep(600)"],
                              cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)})
    try:
        deadline = time.monotonic() + 60
        while not pid_file.exists() or not pid_file.read_text():
            assert time.monotonic() < deadline, "the worker did not start"
            time.sleep(0.1)
        child = int(pid_file.read_text())
        os.kill(child, 0)  # alive while its parent is
        parent.send_signal(signal.SIGKILL)
        parent.wait()
        deadline = time.monotonic() + 10 * import_pool.PARENT_POLL_SECONDS
        while True:
            try:
                os.kill(child, 0)
            except ProcessLookupError:
                break  # gone (reaped by init)
            with open(f"/proc/{child}/stat") as stat:
                if stat.read().split(") ", 1)[1].startswith("Z"):
                    break  # exited, not reaped yet
            assert time.monotonic() < deadline, "the worker outlived its import"
            time.sleep(0.1)
    finally:
        if parent.poll() is None:
            parent.kill()
            parent.wait()
