"""Spark benchmark: ``ofc spark review`` at ``local[1]`` and ``local[2]`` against ``ofc review``
on the same hands.

Simulates ``--hands`` three-handed pineapple hands (Hero's log, seats ``careful, chaser,
careful``, seed ``--seed``), imports and exports them (``ofc export --parquet``), reviews Hero's
decisions embedded (``ofc review``) and with Spark in local mode, one core and two, each in its
own process, ``--parts`` parts, the default precision and policy. For each run: wall seconds
(a Spark run's session start apart), the embedded review's CPU seconds (its whole process),
and for Spark the CPU seconds the executors spent inside the review (Spark's JVM is not a
reaped child of the run, so its own CPU is not counted here). The decisions are compared with
the embedded review's. Prints a last line of JSON.

    python benchmarks/bench_spark_review.py --hands 100
"""

from __future__ import annotations

import os

for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ[_var] = "1"  # one BLAS thread per process: set before numpy loads

import argparse  # noqa: E402
import json  # noqa: E402
import resource  # noqa: E402
import shutil  # noqa: E402
import subprocess  # noqa: E402
import sys  # noqa: E402
import tempfile  # noqa: E402
import time  # noqa: E402
from pathlib import Path  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

KEY = "source, hand_id, player, street"


def children_cpu() -> float:
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    return used.ru_utime + used.ru_stime


def timed(command: list[str]) -> tuple[float, float, str]:
    """Run ``command``: its wall and CPU seconds (its whole tree, once reaped), its output."""
    wall, cpu = time.perf_counter(), children_cpu()
    out = subprocess.run(command, capture_output=True, text=True)
    if out.returncode != 0:
        sys.exit(f"{' '.join(command)} failed:\n{out.stderr[-4000:]}")
    return time.perf_counter() - wall, children_cpu() - cpu, out.stdout


def spark_run(master: str, export: Path, out: Path, parts: int) -> dict[str, object]:
    """One ``ofc spark review`` in this process (``--spark-run``)."""
    from ofc_core.play.review import DEFAULT_PRECISION, REVIEW_POLICY
    from ofc_spark.review import review
    from ofc_spark.session import session

    started = time.perf_counter()
    spark = session(master, app="ofc-bench-review")
    spark.sparkContext.setLogLevel("ERROR")
    up = time.perf_counter() - started
    started = time.perf_counter()
    result = review(spark, [str(export)], str(out), players=["Hero"],
                    precision=DEFAULT_PRECISION, policy=REVIEW_POLICY.name, parts=parts)
    seconds = time.perf_counter() - started
    spark.stop()
    return {"master": master, "session_start_s": round(up, 1), "seconds": round(seconds, 1),
            "hands": result.hands, "decisions": result.decisions,
            "review_cpu_s": result.cpu_s}


def same_decisions(db: Path, out: Path) -> tuple[int, int]:
    """Decisions of the store and of Spark's output equal, every column but the clock."""
    import duckdb

    from ingest.decisions import COLUMNS
    from ingest.parquet_store import table_files

    cols = ", ".join(f'"{c}"' for c in COLUMNS if c != "reviewed_at")
    con = duckdb.connect(str(db), read_only=True)
    ours = con.execute(f"SELECT {cols} FROM decisions ORDER BY {KEY}").fetchall()
    con.close()
    theirs = duckdb.connect().execute(
        f"SELECT {cols} FROM {table_files(out, 'decisions')} ORDER BY {KEY}").fetchall()
    return sum(a == b for a, b in zip(ours, theirs, strict=False)), len(ours)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=100)
    parser.add_argument("--seed", type=int, default=11)
    parser.add_argument("--parts", type=int, default=8)
    parser.add_argument("--spark-run", nargs=4, metavar=("MASTER", "EXPORT", "OUT", "PARTS"),
                        help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.spark_run:
        master, export, out, parts = args.spark_run
        print(json.dumps(spark_run(master, Path(export), Path(out), int(parts))))
        return 0
    work = Path(tempfile.mkdtemp(prefix="ofc-bench-spark-review-"))
    ofc = [sys.executable, "-m", "ofc_cli.cli"]
    try:
        log, db = work / "session.jsonl", work / "ofc.duckdb"
        timed([*ofc, "simulate", "--variant", "pineapple", "--players", "3", "--hands",
               str(args.hands), "--seed", str(args.seed), "--policies", "careful,chaser,careful",
               "--perspective", "hero", "--hero", "Hero", "--out", str(log)])
        timed([*ofc, "import", str(log), "--db", str(db)])
        timed([*ofc, "export", "--db", str(db), "--parquet", str(work / "export")])
        wall, cpu, _ = timed([*ofc, "review", "--db", str(db), "--player", "Hero"])
        embedded = {"seconds": round(wall, 1), "cpu_s": round(cpu, 1)}
        print(json.dumps({"embedded": embedded}), file=sys.stderr, flush=True)
        runs = []
        for master in ("local[1]", "local[2]"):
            out = work / f"spark-{master[6]}"
            wall, _, text = timed([sys.executable, __file__, "--spark-run", master,
                                     str(work / "export"), str(out), str(args.parts)])
            run = json.loads(text.strip().splitlines()[-1])
            run |= {"process_s": round(wall, 1),
                    "same_as_embedded": "{} of {}".format(*same_decisions(db, out))}
            runs.append(run)
            print(json.dumps(run), file=sys.stderr, flush=True)
        one, two = runs
        print(json.dumps({
            "benchmark": "spark review", "hands": args.hands, "parts": args.parts,
            "embedded": embedded, "spark": runs,
            "speedup_1_to_2": round(one["seconds"] / two["seconds"], 2),
            "load_average": round(os.getloadavg()[0], 1)}))
        return 0
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
