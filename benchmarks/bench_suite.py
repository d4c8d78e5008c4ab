"""Time the test suite: the README's command (``python -m pytest``) run from a checkout, its wall
time, the CPU time of it and every process it waited for (workers, servers, browsers, JVMs),
and the sum of the tests' own durations (setup, call and teardown, as ``--durations=0``
reports them). On a machine shared with other work the wall time follows the load; CPU time
and the sum of durations are the steadier figures.

    python benchmarks/bench_suite.py [--checkout DIR] [--env CI=true] [-- PYTEST ARGS...]

Prints the pytest summary line and, last, one line of JSON.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import resource
import subprocess
import sys
import time
from pathlib import Path

DURATION = re.compile(r"^\s*([0-9.]+)s (setup|call|teardown)\s+\S", re.MULTILINE)
SUMMARY = re.compile(r"^=*\s*(\d+ (passed|failed).*) in [0-9.]+s", re.MULTILINE)


def run(checkout: Path, env: dict[str, str], args: list[str]) -> dict[str, object]:
    """One run of the suite in ``checkout``; its figures."""
    cmd = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "--durations=0",
           "--durations-min=0", *args]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    load = os.getloadavg()[0]
    started = time.monotonic()
    done = subprocess.run(cmd, cwd=checkout, capture_output=True, text=True,
                          env={**os.environ, "PYTHONPATH": str(checkout), **env})
    wall = time.monotonic() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    summary = SUMMARY.search(done.stdout)
    if summary is None:
        sys.stderr.write(done.stdout[-3000:] + done.stderr[-3000:])
    return {"checkout": str(checkout), "env": env, "args": args, "exit": done.returncode,
            "summary": summary.group(1) if summary else None, "wall_s": round(wall, 1),
            "cpu_s": round(cpu, 1),
            "durations_sum_s": round(sum(float(m[0]) for m in DURATION.findall(done.stdout)), 1),
            "load_before": round(load, 2), "load_after": round(os.getloadavg()[0], 2)}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--checkout", type=Path, default=Path(__file__).resolve().parents[1])
    parser.add_argument("--env", action="append", default=[], metavar="NAME=VALUE",
                        help="an environment variable for the run (repeatable)")
    parser.add_argument("pytest_args", nargs="*", help="passed on to pytest (after --)")
    args = parser.parse_args()
    env = dict(item.split("=", 1) for item in args.env)
    result = run(args.checkout.resolve(), env, args.pytest_args)
    print(result["summary"])
    print(json.dumps(result))
    return 0 if result["exit"] == 0 else 1


if __name__ == "__main__":
    raise SystemExit(main())
