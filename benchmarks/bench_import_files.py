"""Many small files: FPDB's 150 hand files of the SwC capture (``tests/data/fpdb-capture``,
one ``hand_<id>.json`` a hand, 52 KB each) imported by ``ingest.api.import_paths``, the code
now against the code of another commit (``--baseline REV``, ``git archive``) in the same run,
each in its own process, alternating for ``--rounds`` rounds.

Two cases: ``fresh`` (the folder into a new store) and ``merge`` (FPDB's database of the same
hands imported first, untimed: each hand file then upgrades its hand, the case of issue 39).
Each run prints the import's wall seconds and the CPU seconds of the process (DuckDB's threads
included) spent in ``import_paths`` alone (not Python's start); the last line is JSON with each
side's median and the speed-up.

    nice -n 5 python benchmarks/bench_import_files.py --baseline 375d7ec --rounds 2
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
CAPTURE = ROOT / "tests" / "data" / "fpdb-capture" / "capture.zip"

CHILD = r"""
import json, os, sys, time
sys.meta_path[:] = [f for f in sys.meta_path if "editable" not in repr(f).lower()]
import ingest
from ingest.api import import_paths
case, hands, database, db = sys.argv[1:5]
os.environ["OFC_IMPORT_WORKERS"] = os.environ.get("OFC_IMPORT_WORKERS", "0")
if case == "merge":
    import_paths([database], db)
cpu = time.process_time()
wall = time.monotonic()
report = import_paths([hands], db)
print(json.dumps({"seconds": time.monotonic() - wall, "cpu_seconds": time.process_time() - cpu,
                  "files": len(report.files), "hands": report.hands, "code": ingest.__file__}))
"""


def baseline_code(rev: str, folder: Path) -> Path:
    """The code of commit ``rev`` (``git archive``), unpacked under ``folder``."""
    target = folder / f"code-{rev}"
    if not (target / "ingest").is_dir():
        target.mkdir(parents=True, exist_ok=True)
        archive = subprocess.run(["git", "-C", str(ROOT), "archive", rev], check=True,
                                 capture_output=True).stdout
        subprocess.run(["tar", "-x", "-C", str(target)], input=archive, check=True)
    return target


def unpack(folder: Path) -> tuple[Path, Path]:
    """The capture's hand files (a folder) and FPDB's database, under ``folder``."""
    hands = folder / "hands"
    hands.mkdir()
    with zipfile.ZipFile(CAPTURE) as z:
        for name in z.namelist():
            if name.startswith("Capture/hand_"):
                (hands / Path(name).name).write_bytes(z.read(name))
        (folder / "fpdb.db3").write_bytes(z.read("Capture/fpdb.db3"))
    return hands, folder / "fpdb.db3"


def run(code: Path, case: str, hands: Path, database: Path, db: Path) -> dict[str, Any]:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"} | {"PYTHONPATH": str(code)}
    db.unlink(missing_ok=True)
    out = subprocess.run([sys.executable, "-c", CHILD, case, str(hands), str(database),
                          str(db)], env=env, cwd=db.parent, capture_output=True, text=True,
                         check=True)
    db.unlink(missing_ok=True)
    result: dict[str, Any] = json.loads(out.stdout.strip().splitlines()[-1])
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--baseline", required=True, metavar="REV")
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--cases", nargs="+", default=["fresh", "merge"],
                        choices=["fresh", "merge"])
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="ofc-bench-files-") as tmp:
        work = Path(tmp)
        hands, database = unpack(work)
        code = {"now": ROOT, "before": baseline_code(args.baseline, work)}
        runs: dict[str, list[dict[str, Any]]] = {}
        for n in range(args.rounds):
            for case in args.cases:
                for side in (["now", "before"] if n % 2 == 0 else ["before", "now"]):
                    result = run(code[side], case, hands, database, work / "bench.duckdb")
                    runs.setdefault(f"{case} {side}", []).append(result)
                    print(f"round {n + 1} {case} {side}: {result['files']:.0f} files, "
                          f"{result['seconds']:.2f} s, {result['cpu_seconds']:.2f} s CPU "
                          f"(load {os.getloadavg()[0]:.1f}; code {result['code']})",
                          file=sys.stderr)
    out: dict[str, object] = {"baseline": args.baseline, "rounds": args.rounds}
    for case in args.cases:
        now, before = runs[f"{case} now"], runs[f"{case} before"]
        med = {k: {side: statistics.median(r[k] for r in got)
                   for side, got in (("now", now), ("before", before))}
               for k in ("seconds", "cpu_seconds")}
        out[case] = {"now": {k: round(v["now"], 2) for k, v in med.items()},
                     "before": {k: round(v["before"], 2) for k, v in med.items()},
                     "speedup_wall": round(med["seconds"]["before"] / med["seconds"]["now"], 1),
                     "speedup_cpu": round(med["cpu_seconds"]["before"]
                                          / med["cpu_seconds"]["now"], 1)}
    print(json.dumps(out))


if __name__ == "__main__":
    main()
