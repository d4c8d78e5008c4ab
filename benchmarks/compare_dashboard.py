"""Compare the dashboard's page timings of two checkouts on this machine, fairly.

On a shared 2-core virtual machine, two ``bench_dashboard.py`` runs a minute apart differ by
10-20% from the machine alone, which hides the changes this compares. Here both checkouts run
at once, each in a worker process on its own store, and take turns page by page (A B, B A,
...), so slow spells fall on both; each page's time is the sum of its queries' CPU time (all
threads), and the ratio of medians and of minimums is printed per page.

    git worktree add /tmp/base 9e6f616
    python benchmarks/bench_dashboard.py --db /tmp/base.duckdb   # built by each side's code
    python benchmarks/compare_dashboard.py --base /tmp/base --base-db /tmp/base.duckdb \\
        --db /tmp/new.duckdb --runs 15

The pages are :func:`bench_dashboard.registry`'s of each checkout (a page missing on one side
is skipped). The last line is JSON: per page the base's and this checkout's median CPU and
wall milliseconds and their ratios.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
PAGES = "overview,sessions,opponents,variants,matches,fouls,fantasyland,hand_review"


def worker(root: str, db: str, threads: int) -> None:
    """Serve page runs of the checkout at ``root``: read a page name per line, run its
    queries once, answer ``{query: [cpu_ms, wall_ms]}`` as one JSON line."""
    sys.path.insert(0, root)
    spec = importlib.util.spec_from_file_location("bench", f"{root}/benchmarks/bench_dashboard.py")
    assert spec is not None and spec.loader is not None
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    import duckdb

    from dashboard.queries import common

    con = duckdb.connect(db, read_only=True)
    con.execute(f"PRAGMA threads={int(threads)}")
    filters = common.Filters(player=common.default_player(con))
    pages = dict(bench.registry())
    print(json.dumps(sorted(pages)), flush=True)
    for line in sys.stdin:
        out: dict[str, list[float]] = {}
        for name, query in pages[line.strip()]:
            cpu, wall = time.process_time(), time.perf_counter()
            query(con, filters)
            out[name] = [(time.process_time() - cpu) * 1000, (time.perf_counter() - wall) * 1000]
        print(json.dumps(out), flush=True)


def _start(root: str, db: str, threads: int) -> tuple[subprocess.Popen, set[str]]:
    proc = subprocess.Popen(
        [sys.executable, __file__, "--worker", root, "--db", db, "--threads", str(threads)],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    assert proc.stdout is not None
    return proc, set(json.loads(proc.stdout.readline()))


def _run(proc: subprocess.Popen, page: str) -> tuple[float, float]:
    assert proc.stdin is not None and proc.stdout is not None
    proc.stdin.write(page + "\n")
    proc.stdin.flush()
    times = json.loads(proc.stdout.readline()).values()
    return sum(t[0] for t in times), sum(t[1] for t in times)


def compare(base: str, base_db: str, db: str, pages: list[str], runs: int,
            threads: int) -> dict[str, Any]:
    """Per page: each side's median CPU and wall ms over ``runs`` alternating runs (after one
    warm-up), the minimum CPU, and the ratios (this checkout / base)."""
    sides = {"base": _start(base, base_db, threads), "this": _start(str(ROOT), db, threads)}
    result: dict[str, Any] = {}
    try:
        for page in pages:
            if not all(page in known for _, known in sides.values()):
                print(f"{page}: not on both sides, skipped", file=sys.stderr)
                continue
            seen: dict[str, list[tuple[float, float]]] = {"base": [], "this": []}
            for i in range(runs + 1):
                order = list(sides) if i % 2 == 0 else list(reversed(sides))
                for side in order:
                    timing = _run(sides[side][0], page)
                    if i:  # the first round only warms both up
                        seen[side].append(timing)
            row = {}
            for side, values in seen.items():
                row[f"{side}_cpu_ms"] = round(statistics.median(v[0] for v in values), 1)
                row[f"{side}_cpu_min_ms"] = round(min(v[0] for v in values), 1)
                row[f"{side}_wall_ms"] = round(statistics.median(v[1] for v in values), 1)
            for kind in ("cpu", "cpu_min", "wall"):
                row[f"{kind}_ratio"] = round(row[f"this_{kind}_ms"] / row[f"base_{kind}_ms"], 3)
            result[page] = row
            print(f"{page:12s} CPU median {row['base_cpu_ms']:7.0f} -> {row['this_cpu_ms']:7.0f}"
                  f" ({row['cpu_ratio']:.2f})  min ({row['cpu_min_ratio']:.2f})  wall median"
                  f" {row['base_wall_ms']:6.0f} -> {row['this_wall_ms']:6.0f}"
                  f" ({row['wall_ratio']:.2f})", flush=True)
    finally:
        for proc, _ in sides.values():
            assert proc.stdin is not None
            proc.stdin.close()
            proc.wait()
    return result


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--base", help="the other checkout (a git worktree)")
    parser.add_argument("--base-db", help="its store, built by its bench_dashboard.py")
    parser.add_argument("--db", required=True, help="this checkout's store")
    parser.add_argument("--pages", default=PAGES)
    parser.add_argument("--runs", type=int, default=15)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--worker", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.worker:
        worker(args.worker, args.db, args.threads)
        return 0
    if not (args.base and args.base_db):
        parser.error("--base and --base-db are needed")
    result = compare(args.base, args.base_db, args.db, args.pages.split(","), args.runs,
                     args.threads)
    print(json.dumps({"benchmark": "dashboard_compare", "runs": args.runs,
                      "threads": args.threads, "pages": result}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
