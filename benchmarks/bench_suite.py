"""Time the test suite: the README's command (``python -m pytest``) run from a checkout, its wall
time, the CPU time of it and every process it waited for (workers, servers, browsers, JVMs),
and the sum of the tests' own durations (setup, call and teardown, as ``--durations=0``
reports them). On a machine shared with other work the wall time follows the load; CPU time
and the sum of durations are the steadier figures.

    python benchmarks/bench_suite.py [--checkout DIR] [--env CI=true] [--timeline] [--processes]
                                     [-- PYTEST ARGS...]

``--processes`` follows every process the run starts (``/proc``, four times a second, kept
after it is re-parented) and adds each one's own CPU by kind (the workers, Chromium, the JVM,
``ofc`` commands and servers, Spark's Python workers): ``/usr/bin/time`` and ``getrusage``
miss the processes nobody of the run waited for (most of Chromium's), and the whole CPU over
the cores is the floor of the wall time however the tests are spread (docs/benchmarks.md,
"The test suite").

``--timeline`` records when each test ran on which worker (``OFC_TEST_TIMELINE``, see
``tests/conftest.py``) and adds, per worker, its busy time and when it finished, and per
long group (``spark``, ``browser``, ``browser-writable``; the modules together) its worker,
span and test time: whether the wall time is the slowest group's or the packing's.

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
import tempfile
import time
from collections import defaultdict
from pathlib import Path
from typing import cast

DURATION = re.compile(r"^\s*([0-9.]+)s (setup|call|teardown)\s+\S", re.MULTILINE)
SUMMARY = re.compile(r"^=*\s*(\d+ (passed|failed).*) in [0-9.]+s", re.MULTILINE)


def run(checkout: Path, env: dict[str, str], args: list[str], processes: bool = False
        ) -> dict[str, object]:
    """One run of the suite in ``checkout``; its figures."""
    cmd = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "--durations=0",
           "--durations-min=0", *args]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    load = os.getloadavg()[0]
    started = time.monotonic()
    with tempfile.TemporaryFile("w+") as out:
        proc = subprocess.Popen(cmd, cwd=checkout, stdout=out, stderr=subprocess.STDOUT,
                                text=True, env={**os.environ, "PYTHONPATH": str(checkout), **env})
        tracked = ProcessCpu(proc.pid)
        while proc.poll() is None:
            if processes:
                tracked.scan()
            time.sleep(0.25)
        out.seek(0)
        done = subprocess.CompletedProcess(cmd, proc.returncode, out.read(), "")
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
            "load_before": round(load, 2), "load_after": round(os.getloadavg()[0], 2),
            **({"processes": tracked.by_kind()} if processes else {})}


class ProcessCpu:
    """The own CPU seconds of a process and of every process it starts, by kind, read from
    ``/proc`` at each :meth:`scan` (a process is kept once seen, even re-parented)."""

    def __init__(self, root: int) -> None:
        self.known = {root}
        self.cpu: dict[int, float] = {}
        self.kind: dict[int, str] = {}
        self.tick = os.sysconf("SC_CLK_TCK")

    def scan(self) -> None:
        for entry in os.listdir("/proc"):
            if not entry.isdigit():
                continue
            pid = int(entry)
            try:
                stat = Path(f"/proc/{pid}/stat").read_text()
                command = Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ")
            except OSError:
                continue
            fields = stat[stat.rindex(")") + 2:].split()
            if pid not in self.known and int(fields[1]) in self.known:
                self.known.add(pid)
            if pid in self.known:
                self.cpu[pid] = (int(fields[11]) + int(fields[12])) / self.tick
                self.kind[pid] = _kind(stat[stat.index("(") + 1:stat.rindex(")")],
                                       command.decode(errors="replace"))  # after an exec too

    def by_kind(self) -> dict[str, float]:
        totals: dict[str, float] = defaultdict(float)
        for pid, seconds in self.cpu.items():
            totals[self.kind[pid]] += seconds
        ordered = dict(sorted(totals.items(), key=lambda kv: -kv[1]))
        return {"total": round(sum(totals.values()), 1),
                **{k: round(v, 1) for k, v in ordered.items()}}


def _kind(name: str, command: str) -> str:
    """What a process of the run is, from its name and command line: ``java``,
    ``chromium-headle`` (the kernel keeps 15 characters) and the like by name; a Python by
    what it runs (``ofc`` commands and servers run as ``ofc``, by their script's name)."""
    if name == "ofc":
        return "ofc dashboard" if " dashboard" in command else "ofc commands"
    if "python" not in name:
        return name
    for marker, kind in (("execnet", "pytest workers"), (" -c ", "pytest workers"),
                         ("pyspark.daemon", "Spark's Python workers"),
                         ("streamlit", "ofc dashboard"), ("-m pytest", "pytest"),
                         ("ofc_cli", "ofc commands")):
        if marker in command:
            return kind
    return "python (other)"


LONG_GROUPS = ("spark", "browser", "browser-writable")
"""The xdist groups reported one by one (``tests/conftest.py``); the rest are modules."""


def timeline(path: Path) -> dict[str, dict[str, dict[str, object]]]:
    """Per worker and per long group, from the lines ``OFC_TEST_TIMELINE`` wrote: seconds
    from the first test's start (``first``/``last``: span; ``busy``: the tests' own time)."""
    rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
    if not rows:
        return {}
    zero = min(r["start"] for r in rows)
    spans: dict[str, dict[str, list[float]]] = {"workers": defaultdict(list),
                                                "groups": defaultdict(list)}
    out: dict[str, dict[str, dict[str, object]]] = {"workers": {}, "groups": {}}
    for r in rows:
        group = r["group"] if r["group"] in LONG_GROUPS else "modules"
        for kind, key in (("workers", r["worker"]), ("groups", group)):
            spans[kind][key] += [r["start"] - zero, r["end"] - zero, r["end"] - r["start"]]
    for kind, by_key in spans.items():
        for key, flat in sorted(by_key.items()):
            starts, ends, busy = flat[0::3], flat[1::3], flat[2::3]
            out[kind][key] = {"first_s": round(min(starts), 1), "last_s": round(max(ends), 1),
                              "busy_s": round(sum(busy), 1), "tests": len(busy)}
    for group, figures in out["groups"].items():
        figures["workers"] = sorted({r["worker"] for r in rows if (
            r["group"] if r["group"] in LONG_GROUPS else "modules") == group})
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--checkout", type=Path, default=Path(__file__).resolve().parents[1])
    parser.add_argument("--env", action="append", default=[], metavar="NAME=VALUE",
                        help="an environment variable for the run (repeatable)")
    parser.add_argument("--timeline", action="store_true",
                        help="record and summarise when each test ran on which worker")
    parser.add_argument("--processes", action="store_true",
                        help="the CPU of every process the run starts, by kind (from /proc)")
    parser.add_argument("pytest_args", nargs="*", help="passed on to pytest (after --)")
    args = parser.parse_args()
    env = dict(item.split("=", 1) for item in args.env)
    with tempfile.TemporaryDirectory() as scratch:
        lines = Path(scratch) / "timeline.jsonl"
        if args.timeline:
            env["OFC_TEST_TIMELINE"] = str(lines)
        result = run(args.checkout.resolve(), env, args.pytest_args, args.processes)
        if args.timeline and lines.exists():
            result["timeline"] = spans = timeline(lines)
            for kind, figures in spans.items():
                for key, f in figures.items():
                    on = ",".join(cast("list[str]", f.get("workers", [])))
                    print(f"{kind[:-1]:6} {key:18} {f['first_s']:7.1f} -> {f['last_s']:7.1f} s,"
                          f" busy {f['busy_s']:7.1f} s, {f['tests']} tests"
                          f"{' on ' + on if on else ''}",
                          file=sys.stderr)
    print(result["summary"])
    print(json.dumps(result))
    return 0 if result["exit"] == 0 else 1


if __name__ == "__main__":
    raise SystemExit(main())
