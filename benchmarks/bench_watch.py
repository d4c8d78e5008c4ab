"""Watched-folder benchmark (``ingest.watch.Watcher``), each figure against a baseline timed in
the same run:

1. first check of a folder of ``--files`` logs (``--per-file`` hands each) into a store that
   holds ``--stored`` hands already, against ``ingest.api.import_paths`` of a copy of the same
   folder into a copy of that store (the watcher imports file by file, the store let go every
   second);
2. a check that finds nothing new, against listing the folder and ``stat``-ing its files;
3. a check after one file grew by ``--grow`` hands, against ``import_paths`` of that file
   (into a copy of the store), and how long the check held the store.

    python benchmarks/bench_watch.py --stored 100000 --files 200 --per-file 20

Prints a last line of JSON.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import statistics
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import datetime, timedelta, timezone
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from benchmarks.bench_import import generate, hand_line  # noqa: E402


def timed(fn) -> tuple[float, object]:  # type: ignore[no-untyped-def]
    t0 = time.perf_counter()
    out = fn()
    return time.perf_counter() - t0, out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--stored", type=int, default=100_000)
    parser.add_argument("--files", type=int, default=200)
    parser.add_argument("--per-file", type=int, default=20)
    parser.add_argument("--grow", type=int, default=5)
    parser.add_argument("--repeats", type=int, default=20)
    args = parser.parse_args()

    from ingest import store
    from ingest.api import Watcher, add_folder, import_paths, iter_log_files

    work = Path(tempfile.mkdtemp(prefix="ofc-bench-watch-"))
    try:
        base = work / "base.duckdb"
        if args.stored:
            import_paths(generate(work / "old", args.stored, per_file=10_000, source="old"),
                         base)
        else:
            store.connect(base).close()
        logs = work / "logs"
        generate(logs, args.files * args.per_file, per_file=args.per_file, source="new")
        past = time.time() - 60
        for path in logs.iterdir():
            os.utime(path, (past, past))
        shutil.copy(base, work / "copy.duckdb")
        shutil.copytree(logs, work / "logs-copy")

        db = work / "w.duckdb"
        shutil.copy(base, db)
        con = store.connect(db)
        add_folder(con, logs)
        con.close()
        held: list[float] = []

        @contextmanager
        def writing() -> Iterator[object]:
            t0 = time.perf_counter()
            con = store.connect(db)
            try:
                yield con
            finally:
                con.close()
                held.append(time.perf_counter() - t0)

        watcher = Watcher(db, [str(logs)], writing=writing)  # type: ignore[arg-type]
        first_s, first = timed(watcher.check)
        paths_s, report = timed(lambda: import_paths([work / "logs-copy"], work / "copy.duckdb"))
        assert first.folders[0].hands == report.stored == args.files * args.per_file  # type: ignore[attr-defined]

        idle, listing = [], []
        for _ in range(args.repeats):
            idle.append(timed(watcher.check)[0])
            listing.append(timed(lambda: [p.stat() for p in iter_log_files([logs])])[0])

        grown = sorted(logs.iterdir())[0]
        rng = random.Random(7)
        when = datetime(2027, 1, 1, tzinfo=timezone(timedelta(hours=1)))
        extra = "".join(hand_line(rng, "new", "grown", n, when + timedelta(minutes=n)) + "\n"
                        for n in range(args.grow))
        with grown.open("a", encoding="utf-8") as fp:
            fp.write(extra)
        os.utime(grown, (past + 1, past + 1))
        shutil.copy(grown, work / "grown-copy.jsonl")
        blocks = len(held)
        grow_s, grew = timed(watcher.check)
        grow_held = sum(held[blocks:])
        one_s, one = timed(lambda: import_paths([work / "grown-copy.jsonl"],
                                                work / "copy.duckdb"))
        assert grew.folders[0].hands == args.grow  # type: ignore[attr-defined]
        result = {
            "benchmark": "watch",
            "stored_before": args.stored,
            "files": args.files, "hands_per_file": args.per_file,
            "first_check_s": round(first_s, 2), "import_paths_s": round(paths_s, 2),
            "first_check_ratio": round(first_s / paths_s, 2),
            "store_blocks_first_check": blocks,
            "idle_check_ms": round(1000 * statistics.median(idle), 2),
            "listing_ms": round(1000 * statistics.median(listing), 2),
            "idle_ratio": round(statistics.median(idle) / statistics.median(listing), 2),
            "grown_check_s": round(grow_s, 3), "grown_store_held_s": round(grow_held, 3),
            "import_paths_grown_s": round(one_s, 3),
            "grown_ratio": round(grow_s / one_s, 2),
            "grown_stored": one.stored,  # type: ignore[attr-defined]
            "load_average": round(os.getloadavg()[0], 1),
        }
        print(json.dumps(result))
        return 0
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
