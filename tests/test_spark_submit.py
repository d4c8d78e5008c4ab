"""The cluster path of docs/scale.md, run for real in local mode: the package built as a wheel
(``pip wheel``), shipped with ``spark-submit --py-files``, the command's module taken out of
that wheel as the application file, no ``--master`` given to ``ofc spark`` (it keeps the one
``spark-submit`` set). The tables it writes equal ``ofc import`` + ``ofc export --parquet`` of
the same logs, row for row (compared as ``tests/helpers/spark.py`` reads them).
"""

from __future__ import annotations

import os
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from ingest import store
from ingest.api import import_paths
from ofc_cli.cmd_export import export_parquet
from ofc_spark.session import java_missing
from tests.helpers.spark import SPARK_TEST_JVM, TABLES, ofc_hh_samples, table_rows

pytestmark = [pytest.mark.slow, pytest.mark.spark]

ROOT = Path(__file__).resolve().parent.parent


def _wheel(out: Path) -> Path:
    """``pip wheel --no-deps .``, as docs/scale.md says to build the executors' package."""
    done = subprocess.run([sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "-w",
                           str(out), str(ROOT)], capture_output=True, text=True, cwd=out)
    assert done.returncode == 0, done.stderr
    wheels = list(out.glob("ofc_analytics-*.whl"))
    assert len(wheels) == 1
    return wheels[0]


def _application(wheel: Path, out: Path) -> Path:
    """The command's entry module, read from the wheel (not from this checkout)."""
    with zipfile.ZipFile(wheel) as archive:
        names = set(archive.namelist())
        for package in ("ofc_core", "ingest", "ofc_spark", "ofc_cli"):
            assert f"{package}/__init__.py" in names, package
        out.write_bytes(archive.read("ofc_cli/cli.py"))
    return out


def test_spark_submit_with_the_wheel_writes_the_embedded_tables(tmp_path: Path) -> None:
    problem = java_missing()
    if problem is not None:
        pytest.fail(problem)
    logs = ofc_hh_samples(tmp_path / "logs")
    wheel = _wheel(tmp_path)
    app = _application(wheel, tmp_path / "cli.py")

    db = tmp_path / "ofc.duckdb"
    import_paths([str(logs)], db)
    con = store.connect(db, read_only=True)
    try:
        export_parquet(con, tmp_path / "embedded")
    finally:
        con.close()

    submit = Path(sys.executable).with_name("spark-submit")
    env = {"JDK_JAVA_OPTIONS": SPARK_TEST_JVM, **os.environ, "PYSPARK_PYTHON": sys.executable,
           "PYSPARK_DRIVER_PYTHON": sys.executable}
    done = subprocess.run(
        [str(submit), "--master", "local[1]", "--py-files", str(wheel),
         "--conf", "spark.sql.shuffle.partitions=2", str(app),
         "spark", "score", "--input", str(logs), "--output", str(tmp_path / "spark")],
        capture_output=True, text=True, env=env, cwd=tmp_path, timeout=600)
    ours, theirs = table_rows(tmp_path / "spark"), table_rows(tmp_path / "embedded")
    # exit status 1 says some hands were rejected (the samples hold bad hands on purpose)
    assert done.returncode == (1 if theirs["rejected"] else 0), done.stderr[-3000:]
    assert f"{len(theirs['hands']):,} stored" in done.stdout, done.stdout
    for name in TABLES:
        assert len(ours[name]) == len(theirs[name]), name
        assert ours[name] == theirs[name], name
    assert len(ours["hands"]) > 0
