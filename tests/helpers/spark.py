"""The tables of ``ofc export --parquet`` and of ``ofc spark score``, read back as rows that
compare across the two paths (``tests/test_spark.py``, ``tests/test_spark_submit.py``).

Hand keys are surrogate on both sides, so rows are compared with ``hand_key`` replaced by the
hand's ``(source, hand_id)``; ``imports.imported_at`` (the clock) is left out.
"""

from __future__ import annotations

import math
import shutil
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pyarrow.dataset as ds

from ingest import store
from ingest.api import import_paths
from ingest.hand_tables import HAND_TABLES
from ofc_cli.cmd_export import export_parquet
from tests.helpers.double import write_log

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = ROOT / "data" / "samples"
DEMO = ROOT / "data" / "demo"
TABLES = (*HAND_TABLES, "rejected", "imports", "meta")
"""Every table both paths write."""
SPARK_TEST_JVM = "-XX:TieredStopAtLevel=1"
"""``JDK_JAVA_OPTIONS`` of the tests' JVMs: C1 only. The tests' Spark jobs are small and
short, and C2's compiling of Spark cost about a third of the Spark tests' CPU
(docs/testing.md)."""


def read_table(folder: Path, name: str) -> list[dict[str, Any]]:
    """The rows of table ``name`` written under ``folder`` (none when it is absent)."""
    path = folder / (name if name in HAND_TABLES else f"{name}.parquet")
    if not path.exists():
        return []
    partitioning = "hive" if name in HAND_TABLES else None
    return ds.dataset(path, format="parquet", partitioning=partitioning).to_table().to_pylist()


def _same(value: Any) -> Any:
    if isinstance(value, float) and math.isnan(value):
        return "NaN"
    return value


def table_rows(folder: Path) -> dict[str, list[tuple]]:
    """Every table's rows, hand keys as ``(source, hand_id)``, sorted, each row a tuple of
    ``(column, value)`` pairs."""
    hands = read_table(folder, "hands")
    natural = {h["hand_key"]: (h["source"], h["hand_id"]) for h in hands}
    out: dict[str, list[tuple]] = {}
    for name in TABLES:
        rows = hands if name == "hands" else read_table(folder, name)
        shaped = []
        for row in rows:
            if "hand_key" in row:
                row["hand_key"] = natural[row["hand_key"]]
            row.pop("imported_at", None)
            shaped.append(tuple(sorted((k, _same(v)) for k, v in row.items())))
        out[name] = sorted(shaped, key=repr)
    return out


def ofc_hh_samples(folder: Path) -> Path:
    """The committed ofc-hh/1 samples (ofc spark reads that format only)."""
    folder.mkdir()
    for path in sorted(SAMPLES.glob("*.jsonl")):
        shutil.copy(path, folder / path.name)
    return folder


def _simulate(out: Path, *args: str) -> None:
    """``ofc simulate ARGS --out out``, in this process (a subprocess cost a Python start and
    proved nothing more)."""
    from ofc_cli.cli import main

    assert main(["simulate", *args, "--out", str(out)]) == 0


def generated_logs(folder: Path) -> Path:
    """Simulated logs: three players' perspectives of the same pineapple hands (which merge),
    room errors, rule overrides; the same log again (duplicates), a log with one hand changed
    (a conflict); and the hand-worked OFC Double matches of ``tests/helpers/double.py`` (their
    ``match_end`` without a cube: simulated logs always name it)."""
    folder.mkdir()
    _simulate(folder / "pineapple.jsonl", "--variant", "pineapple", "--players", "3",
              "--hands", "100", "--seed", "7", "--perspective", "hero",
              "--room-error-rate", "0.05")
    _simulate(folder / "regular.jsonl", "--variant", "regular", "--players", "2",
              "--hands", "100", "--seed", "8", "--rules", "scoring=2-4")
    files = sorted(folder.glob("*.jsonl"))
    assert len(files) == 4
    shutil.copy(files[0], folder / "z-again.jsonl")
    lines = files[-1].read_text().splitlines()
    lines[3] = lines[3].replace('"name": "', '"name": "x', 1)
    (folder / "z-changed.jsonl").write_text("\n".join(lines) + "\n")
    write_log(folder / "double-worked.jsonl")
    return folder


@dataclass(frozen=True)
class SparkRun:
    """The same logs through ``ofc import`` + ``ofc export --parquet`` (``embedded``) and
    through ``ofc spark score`` (``spark``, its tables under ``tmp/spark``), as
    :func:`table_rows`; ``ofc spark report`` of Spark's tables is under ``tmp/report``."""

    tmp: Path
    inputs: tuple[Path, ...]
    embedded: dict[str, list[tuple]]
    spark: dict[str, list[tuple]]
    result: Any


def run_both_paths(spark: Any, tmp: Path) -> SparkRun:
    """The committed samples, the demo and :func:`generated_logs` through both paths (one
    Spark job graph for the three folders), and the report."""
    from ofc_spark.report import report
    from ofc_spark.score import score

    inputs = (ofc_hh_samples(tmp / "samples"), DEMO, generated_logs(tmp / "generated"))
    db = tmp / "ofc.duckdb"
    import_paths([str(p) for p in inputs], db)
    con = store.connect(db, read_only=True)
    try:
        export_parquet(con, tmp / "embedded")
    finally:
        con.close()
    result = score(spark, [str(p) for p in inputs], str(tmp / "spark"), partitions=2)
    report(spark, str(tmp / "spark"), str(tmp / "report"))
    return SparkRun(tmp, inputs, table_rows(tmp / "embedded"), table_rows(tmp / "spark"), result)
