"""Spark benchmark: ``ofc spark score`` at ``local[1]`` and ``local[2]`` against the embedded
importer on the same files.

Generates ``--hands`` three-handed pineapple hands (default 1,000,000; the generator of
``bench_import.py``, 10,000 hands a file), imports them with ``ingest.api.import_paths`` and
exports them (``ofc export --parquet``), then scores them with Spark in local mode, one worker
and two, each in its own process (session start timed apart). For each Spark run: hands/s
(wall, session start excluded), and the seconds the executors spent in our Python code
(decoding and keying lines; reading, checking and scoring hands, building the tables), the
rest of the cores' time being Spark's own (JVM, shuffle, Arrow transfer, Parquet). Prints a
last line of JSON.

    python benchmarks/bench_spark.py --hands 200000
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
for where in (ROOT, ROOT / "benchmarks"):
    if str(where) not in sys.path:
        sys.path.insert(0, str(where))


PARTITION_HANDS = 100_000
"""Hands per partition of the scoring step (the low end of docs/scale.md's advice)."""


def spark_run(master: str, logs: Path, out: Path, partitions: int) -> dict:
    """One ``ofc spark score`` in this process (``--spark-run``)."""
    from ofc_spark.score import score
    from ofc_spark.session import LOCAL_MEMORY, session

    started = time.perf_counter()
    spark = session(master, app="ofc-bench", shuffle_partitions=partitions)
    spark.sparkContext.setLogLevel("ERROR")
    up = time.perf_counter() - started
    spent: dict = {}
    started = time.perf_counter()
    result = score(spark, [str(logs)], str(out), partitions=partitions, spent=spent)
    seconds = time.perf_counter() - started
    cores = int(master.removeprefix("local[").removesuffix("]"))
    ours = {k: round(v.value, 1) for k, v in spent.items()}
    spark.stop()
    hands = result.stored + result.duplicate + result.merged + result.rejected
    return {"master": master, "partitions": partitions, "memory": LOCAL_MEMORY,
            "session_start_s": round(up, 1), "seconds": round(seconds, 1),
            "hands": hands, "stored": result.stored, "hands_per_s": round(hands / seconds),
            "python_s": ours, "core_s": round(cores * seconds, 1),
            "python_share": round(sum(ours.values()) / (cores * seconds), 2)}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=1_000_000)
    parser.add_argument("--per-file", type=int, default=10_000)
    parser.add_argument("--keep", type=Path, default=None,
                        help="generate into (and keep) this folder instead of a temp one")
    parser.add_argument("--spark-run", nargs=4, metavar=("MASTER", "LOGS", "OUT", "PARTS"),
                        help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.spark_run:
        master, logs, out, parts = args.spark_run
        print(json.dumps(spark_run(master, Path(logs), Path(out), int(parts))))
        return 0

    from bench_import import generate

    from ingest.api import import_paths
    from ingest.store import connect
    from ofc_cli.cmd_export import export_parquet

    work = Path(tempfile.mkdtemp(prefix="ofc-bench-spark-"))
    logs = args.keep or work / "logs"
    try:
        if not (args.keep and any(logs.glob("*.jsonl"))):
            generate(logs, args.hands, per_file=args.per_file)
        size = sum(p.stat().st_size for p in logs.glob("*.jsonl"))
        started = time.perf_counter()
        report = import_paths([logs], work / "bench.duckdb")
        imported = time.perf_counter() - started
        con = connect(work / "bench.duckdb", read_only=True)
        started = time.perf_counter()
        export_parquet(con, work / "export")
        exported = time.perf_counter() - started
        con.close()
        embedded = {"hands": report.hands, "import_s": round(imported, 1),
                    "export_s": round(exported, 1),
                    "hands_per_s": round(report.hands / (imported + exported))}
        print(json.dumps({"embedded": embedded}), file=sys.stderr)
        runs = []
        parts = max(4, report.hands // PARTITION_HANDS)
        for master in ("local[1]", "local[2]"):
            out = subprocess.run(
                [sys.executable, __file__, "--spark-run", master, str(logs),
                 str(work / f"spark-{master[6]}"), str(parts)],
                capture_output=True, text=True)
            if out.returncode != 0:  # say why, not only that it failed
                sys.exit(f"the {master} run failed:\n{out.stderr[-6000:]}")
            runs.append(json.loads(out.stdout.strip().splitlines()[-1]))
            print(json.dumps(runs[-1]), file=sys.stderr)
        one, two = runs
        result = {
            "benchmark": "spark", "hands": report.hands, "megabytes": round(size / 1e6, 1),
            "embedded": embedded, "spark": runs,
            "speedup_1_to_2": round(one["seconds"] / two["seconds"], 2),
            "spark2_vs_embedded": round(two["hands_per_s"] / embedded["hands_per_s"], 2),
            "load_average": round(os.getloadavg()[0], 1),
        }
        print(json.dumps(result))
        return 0
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
