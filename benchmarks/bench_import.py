"""Import benchmark: three-handed pineapple hands with full street detail, end to end.

Generates ``--hands`` hands (default 1,000,000) as ofc-hh/1 session files in a temporary folder
(random legal placements, cheap: no bots), imports them into a fresh database through
``ingest.api.import_paths`` (decode, parse, validate, score, store) and prints a last line
of JSON with hands/s (wall and CPU time of the process, which includes DuckDB's threads) and
the peak memory (RSS) of the process.

    python benchmarks/bench_import.py --hands 100000

``--baseline REV`` compares against the code of another commit in the same run: ``git
archive REV`` is unpacked beside the logs and both import the same files into fresh stores,
each in its own process (``PYTHONPATH`` set to the code; CPU counted over the process and
its worker processes; peak RSS of the process and of its largest worker), alternating for
``--rounds`` rounds (order swapped every round), and DuckDB's own ``read_json`` of the same
files into a table (parse and store only: no checks, scoring or hand tables) runs in each
round as the floor. The JSON then gives each side's median, the speed-up (wall and CPU) and
the ratio to ``read_json``. The environment is passed on: on two cores or more the import
has a worker process by default (``ingest/import_pool.py``), ``OFC_IMPORT_WORKERS=0`` takes it
away (code before it ignores the variable). ``--also-env NAME=VALUE`` adds a third side in
the same rounds, the code now with that variable set:

    python benchmarks/bench_import.py --hands 1000000 --baseline b7463e1 --rounds 1 \
        --also-env OFC_IMPORT_WORKERS=0
"""

from __future__ import annotations

import argparse
import json
import os
import random
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import datetime, timedelta, timezone
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

CARDS = [r + s for r in "23456789TJQKA" for s in "cdhs"]
SLOTS = ["top"] * 3 + ["middle"] * 5 + ["bottom"] * 5
PLAYERS = ("hero", "villain", "Дмитрий")


def _player(rng: random.Random, name: str, seat: int, cards: list[str], hero: bool) -> dict:
    """One player's pineapple hand: 5 placed, then 4 streets of 3 dealt, 2 placed, 1 discarded;
    rows chosen by a random order of the 13 slots (always legal, often fouled)."""
    slots = SLOTS[:]
    rng.shuffle(slots)
    streets = []
    placed = 0
    for street in range(5):
        dealt = cards[:5] if street == 0 else cards[5 + 3 * (street - 1): 8 + 3 * (street - 1)]
        keep = dealt if street == 0 else dealt[:2]
        rows: dict[str, list[str]] = {}
        for card in keep:
            rows.setdefault(slots[placed], []).append(card)
            placed += 1
        entry: dict[str, str] = {}
        if hero:
            entry["dealt"] = " ".join(dealt)
        for row in ("top", "middle", "bottom"):
            if row in rows:
                entry[row] = " ".join(rows[row])
        if hero:
            entry["discard"] = " ".join(dealt[len(keep):])
        streets.append(entry)
    return {"name": name, "seat": seat, "streets": streets}


def hand_line(rng: random.Random, source: str, session: str, number: int,
              when: datetime) -> str:
    deck = CARDS[:]
    rng.shuffle(deck)
    players = [_player(rng, name, seat, deck[17 * seat: 17 * seat + 17], seat == 0)
               for seat, name in enumerate(PLAYERS)]
    hand = {"format": "ofc-hh/1", "source": source, "hand_id": f"{session}-{number}",
            "session_id": session, "played_at": when.isoformat(), "hero": PLAYERS[0],
            "variant": "pineapple", "button": PLAYERS[number % 3], "players": players}
    return json.dumps(hand, ensure_ascii=False)


def generate(folder: Path, hands: int, *, per_file: int = 10_000, seed: int = 1,
             source: str = "bench") -> list[Path]:
    """Write ``hands`` hands as session files of ``per_file`` hands into ``folder``."""
    rng = random.Random(seed)
    folder.mkdir(parents=True, exist_ok=True)
    start = datetime(2026, 1, 1, tzinfo=timezone(timedelta(hours=1)))
    files = []
    for first in range(0, hands, per_file):
        session = f"s{first // per_file:05d}"
        path = folder / f"{session}.jsonl"
        with path.open("w", encoding="utf-8", newline="\n") as fp:
            for n in range(first, min(first + per_file, hands)):
                fp.write(hand_line(rng, source, session, n, start + timedelta(minutes=n)) + "\n")
        files.append(path)
    return files


def cpu_seconds() -> float:
    """CPU time of this process and of its finished children (the import's workers)."""
    me, kids = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(
        resource.RUSAGE_CHILDREN)
    return me.ru_utime + me.ru_stime + kids.ru_utime + kids.ru_stime


def peak_rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


CHILD = """
import json, os, resource, sys, time
sys.meta_path[:] = [f for f in sys.meta_path if "editable" not in repr(f).lower()]
t = time.perf_counter()
if sys.argv[1] == "read_json":
    import duckdb
    con = duckdb.connect(sys.argv[3])
    pattern = os.path.join(sys.argv[2], "*.jsonl").replace("'", "''")
    con.execute(f"CREATE TABLE raw AS SELECT * FROM read_json('{pattern}', "
                "format = 'newline_delimited')")
    hands = con.execute("SELECT count(*) FROM raw").fetchone()[0]
    con.close()
else:
    try:
        from ingest.api import import_paths
    except ImportError:  # code before ingest.api (b7463e1, the issue's filing)
        from ingest.importer import import_paths
    hands = import_paths([sys.argv[2]], sys.argv[3]).stored
wall = time.perf_counter() - t
me, kids = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
print(json.dumps({"hands": hands, "seconds": wall,
                  "cpu_seconds": me.ru_utime + me.ru_stime + kids.ru_utime + kids.ru_stime,
                  "peak_rss_mb": me.ru_maxrss / 1024, "worker_peak_rss_mb": kids.ru_maxrss / 1024}))
"""
"""One measured run in its own process: ``CHILD MODE LOGS DB`` (``import`` or
``read_json``). An editable install's finder is dropped first, so the code is
``PYTHONPATH``'s alone (a module the baseline lacks is not found in the installed tree)."""


def run_child(mode: str, code: Path | None, logs: Path, db: Path,
              extra_env: dict[str, str] | None = None) -> dict[str, float]:
    """One run of :data:`CHILD` (the import with the code at ``code``, ``extra_env`` added to
    the environment); its JSON (it runs at the niceness of the benchmark: `nice -n 10 python
    benchmarks/bench_import.py ...`)."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"} | (extra_env or {})
    if code is not None:
        env["PYTHONPATH"] = str(code)
    for stale in (db, db.with_name(db.name + ".wal")):
        stale.unlink(missing_ok=True)
    out = subprocess.run([sys.executable, "-c", CHILD, mode, str(logs),
                          str(db)], env=env, cwd=db.parent, capture_output=True, text=True,
                         check=True)
    db.unlink(missing_ok=True)
    result: dict[str, float] = json.loads(out.stdout.strip().splitlines()[-1])
    return result


def baseline_code(rev: str, folder: Path) -> Path:
    """The code of commit ``rev`` (``git archive``), unpacked under ``folder``."""
    target = folder / f"code-{rev}"
    if not (target / "ingest").is_dir():
        target.mkdir(parents=True, exist_ok=True)
        archive = subprocess.run(["git", "-C", str(ROOT), "archive", rev], check=True,
                                 capture_output=True).stdout
        subprocess.run(["tar", "-x", "-C", str(target)], input=archive, check=True)
    return target


def _median(runs: list[dict[str, float]], key: str) -> float:
    return statistics.median(r[key] for r in runs)


def compare(rev: str, rounds: int, logs: Path, work: Path,
            also: dict[str, str] | None = None) -> dict[str, object]:
    """``rounds`` alternating runs of the code now and of ``rev``, and ``read_json``; with
    ``also`` (environment variables), a third side ``now+env``: the code now with them."""
    code = {"now": ROOT, "now+env": ROOT, "before": baseline_code(rev, work)}
    sides = ["now", "before", *(["now+env"] if also else [])]
    runs: dict[str, list[dict[str, float]]] = {side: [] for side in [*sides, "read_json"]}
    for n in range(rounds):
        order = sides if n % 2 == 0 else sides[::-1]
        for side in [*order, "read_json"]:
            mode = "read_json" if side == "read_json" else "import"
            result = run_child(mode, code.get(side), logs, work / "bench.duckdb",
                               also if side == "now+env" else None)
            runs[side].append(result)
            print(f"round {n + 1} {side}: {result['hands'] / result['seconds']:,.0f} hands/s "
                  f"({result['seconds']:.1f} s, {result['cpu_seconds']:.1f} s CPU, load "
                  f"{os.getloadavg()[0]:.1f})", file=sys.stderr)
    rate = {side: _median([{"r": r["hands"] / r["seconds"]} for r in got], "r")
            for side, got in runs.items()}
    cpu = {side: _median([{"r": r["hands"] / r["cpu_seconds"]} for r in got], "r")
           for side, got in runs.items()}
    return {
        "benchmark": "import", "baseline": rev, "rounds": rounds,
        "hands": int(runs["now"][0]["hands"]),
        "hands_per_s": {k: round(v) for k, v in rate.items()},
        "cpu_hands_per_s": {k: round(v) for k, v in cpu.items()},
        "speedup_wall": round(rate["now"] / rate["before"], 2),
        "speedup_cpu": round(cpu["now"] / cpu["before"], 2),
        **({"env": also, "speedup_wall_env": round(rate["now+env"] / rate["before"], 2),
            "speedup_cpu_env": round(cpu["now+env"] / cpu["before"], 2)} if also else {}),
        "ratio_to_read_json": {side: round(rate[side] / rate["read_json"], 3)
                               for side in sides},
        "peak_rss_mb": {k: round(max(r["peak_rss_mb"] + r["worker_peak_rss_mb"] for r in got))
                        for k, got in runs.items()},
        "load_average": [round(x, 1) for x in os.getloadavg()],
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=1_000_000)
    parser.add_argument("--per-file", type=int, default=10_000)
    parser.add_argument("--keep", type=Path, default=None,
                        help="generate into (and keep) this folder instead of a temp one")
    parser.add_argument("--baseline", metavar="REV", default=None,
                        help="compare with the code of this commit (alternating runs)")
    parser.add_argument("--rounds", type=int, default=2, help="rounds of --baseline (2)")
    parser.add_argument("--also-env", metavar="NAME=VALUE", action="append", default=[],
                        help="with --baseline: a third side, the code now with this variable "
                             "set (e.g. OFC_IMPORT_WORKERS=0)")
    args = parser.parse_args()

    from ingest.api import import_paths

    work = Path(tempfile.mkdtemp(prefix="ofc-bench-import-"))
    logs = args.keep or work / "logs"
    try:
        t0 = time.perf_counter()
        if not (args.keep and any(logs.glob("*.jsonl"))):
            generate(logs, args.hands, per_file=args.per_file)
        size = sum(p.stat().st_size for p in logs.glob("*.jsonl"))
        t1 = time.perf_counter()
        print(f"generated {args.hands:,} hands ({size / 1e6:,.0f} MB) in {t1 - t0:.1f} s",
              file=sys.stderr)
        if args.baseline:
            also = dict(item.split("=", 1) for item in args.also_env)
            result = compare(args.baseline, args.rounds, logs, work, also or None)
            print(json.dumps({**result, "megabytes": round(size / 1e6, 1)}))
            return 0
        cpu = cpu_seconds()
        report = import_paths([logs], work / "bench.duckdb")
        t2 = time.perf_counter()
        cpu = cpu_seconds() - cpu
        seconds = t2 - t1
        result = {
            "benchmark": "import",
            "hands": report.hands,
            "stored": report.stored,
            "rejected": report.rejected,
            "files": len(report.files),
            "megabytes": round(size / 1e6, 1),
            "seconds": round(seconds, 2),
            "hands_per_s": round(report.hands / seconds),
            "cpu_seconds": round(cpu, 2),
            "cpu_hands_per_s": round(report.hands / cpu),
            "load_average": round(os.getloadavg()[0], 1),
            "peak_rss_mb": round(peak_rss_mb()),
        }
        print(json.dumps(result))
        return 0 if report.rejected == 0 else 1
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
