"""Benchmark: what the browser tests' Chromium and dashboard server cost in CPU, by process.

One ``ofc dashboard`` on a new store (the demo loaded at its first start, as on a user's first
start) and one headless Chromium with one tab, as in the test suite (``tests/conftest.py``):

- **loads**: ``--rounds`` rounds of page loads in that tab (Overview, Fouls, Fantasyland,
  Opponents, Sessions, Variants, Matches, Review), each until drawn;
- **idle**: ``--idle`` seconds with the Overview left open (its freshness poll runs every
  2 s), then as long on ``about:blank``.

For each phase: the CPU seconds of every process (Chromium's by ``--type``, Playwright's
driver, the server), and wall time. ``--chromium`` picks the executable (Debian's
``chromium-headless-shell`` by default; ``/usr/bin/chromium`` to compare), extra Chromium
flags follow ``--``. Usage::

    python benchmarks/bench_browser_cpu.py
    python benchmarks/bench_browser_cpu.py --chromium /usr/bin/chromium --rounds 1 --idle 30

The last line printed is JSON.
"""

from __future__ import annotations

import argparse
import collections
import json
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import psutil

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.helpers.browser import (  # noqa: E402
    CHROMIUM_ARGS,
    open_page,
    settle_drawn,
    start_dashboard,
)

PATHS = ("", "fouls", "fantasyland", "opponents", "sessions", "variants", "matches", "review")
"""The pages of a round (the Overview is ``""``)."""


def cpu_by_process(root: psutil.Process) -> dict[int, tuple[str, float]]:
    """CPU seconds (user + system) of ``root`` and its descendants, with a name per kind."""
    out = {}
    for proc in [root, *root.children(recursive=True)]:
        try:
            times = proc.cpu_times()
            kind = " ".join(a for a in proc.cmdline() if a.startswith("--type="))
            out[proc.pid] = (f"{proc.name()} {kind}".strip(), times.user + times.system)
        except psutil.NoSuchProcess:
            pass
    return out


def spent(before: dict[int, tuple[str, float]], after: dict[int, tuple[str, float]]
          ) -> dict[str, float]:
    """CPU seconds by kind of process between two :func:`cpu_by_process` readings."""
    by_kind: collections.Counter[str] = collections.Counter()
    for pid, (kind, seconds) in after.items():
        by_kind[kind] += seconds - before.get(pid, (kind, 0.0))[1]
    return {k: round(v, 2) for k, v in sorted(by_kind.items()) if v >= 0.01}


def phase(me: psutil.Process, work: Any) -> dict[str, Any]:
    """Run ``work()``; its wall time and the CPU by process."""
    before, start = cpu_by_process(me), time.monotonic()
    work()
    cpu = spent(before, cpu_by_process(me))
    return {"wall_s": round(time.monotonic() - start, 1), "cpu_s": round(sum(cpu.values()), 1),
            "by_process": cpu}


def measure(args: argparse.Namespace) -> dict[str, Any]:
    from playwright.sync_api import sync_playwright

    work = Path(tempfile.mkdtemp(prefix="ofc-bench-browser-"))
    me = psutil.Process()
    with start_dashboard(str(Path(sys.executable).parent / "ofc"), work / "demo.duckdb",
                         work) as server, sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=args.chromium,
                                     args=CHROMIUM_ARGS + args.flags)
        tab = browser.new_page()

        def visit(path: str) -> None:
            open_page(tab, f"{server.url}/{path}", 1400)
            settle_drawn(tab)

        visit("")  # the server's first run and Chromium's first compile, not measured

        def loads() -> None:
            for _ in range(args.rounds):
                for path in PATHS:
                    visit(path)

        result = {"chromium": args.chromium, "flags": args.flags,
                  "loads": {"pages": args.rounds * len(PATHS), **phase(me, loads)}}
        visit("")
        result["idle_open"] = phase(me, lambda: time.sleep(args.idle))
        tab.goto("about:blank")
        result["idle_blank"] = phase(me, lambda: time.sleep(args.idle))
        browser.close()
    return result


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--chromium", default="/usr/bin/chromium-headless-shell")
    parser.add_argument("--rounds", type=int, default=2, help="rounds of the eight pages")
    parser.add_argument("--idle", type=float, default=60.0, help="seconds of each idle phase")
    parser.add_argument("flags", nargs="*", help="more Chromium flags (after --)")
    args = parser.parse_args(argv)
    result = measure(args)
    for name in ("loads", "idle_open", "idle_blank"):
        part = result[name]
        print(f"{name:10} wall {part['wall_s']:6.1f} s  CPU {part['cpu_s']:6.1f} s  "
              f"{part['by_process']}", file=sys.stderr)
    print(json.dumps(result))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
