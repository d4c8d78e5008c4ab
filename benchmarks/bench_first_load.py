"""First loads of every dashboard page in headless Chromium, and where their time goes.

The store is the demo sample plus ``--hands`` simulated hands (100,000 by default), made by
``ofc simulate`` (batches of several variants, the demo's hero against a pool of opponents)
and imported through ``ingest.api``; it is built once and kept under the temporary directory
(``ofc-bench-first-load/``, named by the hand count and the schema version: ``--rebuild``
makes it again).

For each page, ``--runs`` times: a fresh ``ofc dashboard`` process on a copy-free read of that
store (the server's cache and DuckDB's buffers empty; the file is in the OS's page cache after
the first run, as on a machine where the user just used it), health-checked, then

- **first load**: a fresh browser context (a new tab, nothing cached) opens the page's URL; the
  time is from the navigation's start until the page's script run has ended (the server says
  so, see below) and its content is drawn: a title, no skeleton, no "running" status, every
  Plotly chart drawn (its SVG), every Vega-Lite chart drawn (its marks, not of zero size) and
  every table drawn (its canvas);
- **warm load**: a second fresh context opens the same URL on that server (modules imported, query
  results cached, DuckDB warm);
- **cached load**: a new tab in the first load's browser context, whose cache now holds
  Streamlit's and Plotly's scripts (as in the browser of a user who opened the dashboard
  before); the server is warm too.

The server runs with ``OFC_PROFILE`` (:mod:`dashboard.profiling`): each page run writes its
wall and CPU time, every ``dashboard.db.query`` (ms, cache hit or miss) and its time by part
(Python import, opening the store, queries, Plotly, Streamlit widgets, the page's own code).
The browser's share is what is left: before the run starts (loading Streamlit's JavaScript,
connecting) and after it ends (drawing), with Chromium's own count of the tab's main thread
(busy, JavaScript, style and layout: ``Performance.getMetrics``). The CPU time (all threads)
of the server's processes and of Chromium's over each load is read with psutil: it is
disturbed less than wall time by other work on the machine.
Each load also records the load average and the machine's CPU use besides the server's, to
judge whether the machine was quiet.

    python benchmarks/bench_first_load.py                      # every page, 3 runs
    python benchmarks/bench_first_load.py --pages overview,fouls --runs 5
    python benchmarks/bench_first_load.py --hands 20000 --runs 1   # a quick look

A table goes to stderr. Stdout has one summary line per page (page, median first and warm
load in ms, Chromium's CPU over the first load, the load average, the target met or not by
how much), then a last line of JSON: per page the median first and warm load (ms), the
server's CPU, and the first load's parts.
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from dashboard.app import PAGES as APP_PAGES  # noqa: E402
from dashboard.profiling import ENV as PROFILE_ENV  # noqa: E402
from dashboard.profiling import PARTS  # noqa: E402

TARGET_MS = 2000
PAGE_TARGETS_MS = {"review": 3000}
"""Issue 23's targets on a quiet machine: every page under 2 s, the Review page (1,000
reviewed decisions) under 3 s."""
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]
BATCHES = (
    # (variant, players): the simulated hands are split evenly over these
    ("pineapple", 3), ("regular", 3), ("progressive-pineapple", 3), ("pineapple", 2),
    ("turbo", 4), ("double", 2),
)
HANDS_PER_SESSION = 500
OPPONENTS = ("Anna", "Dmitri", "Zoë", "Kenji", "Lucía", "Omar", "Priya", "Sven", "Tamsin",
             "Wen", "Yusuf", "Ilse")
SERVER_SECONDS = 90.0
LOAD_SECONDS = 180.0

RENDERED_JS = """() => {
    const doc = document;
    if (doc.querySelector("[data-testid=stSkeleton]")) return false;
    if (doc.querySelector("[data-testid=stStatusWidgetRunningIcon],"
                          + "[data-testid=stStatusWidgetRunningManIcon]")) return false;
    const main = doc.querySelector("[data-testid=stMain]");
    if (!main || !main.querySelector("h1")) return false;
    for (const c of main.querySelectorAll("[data-testid=stPlotlyChart]"))
        if (!c.querySelector(".main-svg")) return false;
    for (const c of main.querySelectorAll("[data-testid=stVegaLiteChart]"))
        if (!c.querySelector(".marks") || !c.getBoundingClientRect().height) return false;
    for (const d of main.querySelectorAll("[data-testid=stDataFrame]"))  // shown ones
        if (d.getClientRects().length && !d.querySelector("canvas")) return false;
    return performance.timeOrigin + performance.now();
}"""
"""The page is drawn: the epoch milliseconds when it first holds (checked every frame)."""
TAB_METRICS = (("busy", "TaskDuration"), ("script", "ScriptDuration"),
               ("style", "RecalcStyleDuration"), ("layout", "LayoutDuration"))
"""Chromium's own account of the tab's main thread (``Performance.getMetrics``)."""
MISSING_JS = """() => {
    const main = document.querySelector("[data-testid=stMain]");
    const count = (sel) => document.querySelectorAll(sel).length;
    return JSON.stringify({
        skeletons: count("[data-testid=stSkeleton]"), title: !!(main && main.querySelector("h1")),
        charts: count("[data-testid=stPlotlyChart]"),
        charts_drawn: count("[data-testid=stPlotlyChart] .main-svg"),
        tables: count("[data-testid=stDataFrame]"),
        tables_drawn: count("[data-testid=stDataFrame] canvas"),
        exceptions: count("[data-testid=stException]")});
}"""
"""What is still missing when a page is not drawn in time."""


# --- the store -------------------------------------------------------------------------------

def store_path(hands: int) -> Path:
    from ingest.store import SCHEMA_VERSION

    folder = Path(tempfile.gettempdir()) / "ofc-bench-first-load"
    folder.mkdir(exist_ok=True)
    return folder / f"demo-plus-{hands}-schema{SCHEMA_VERSION}.duckdb"


def simulate(folder: Path, hands: int) -> list[Path]:
    """``ofc simulate`` batches adding up to ``hands``: each variant of :data:`BATCHES`, the
    demo's hero (Hero) against opponents from :data:`OPPONENTS`, sessions a day apart."""
    files = []
    per_batch = -(-hands // len(BATCHES))
    left = hands
    for n, (variant, players) in enumerate(BATCHES):
        count = min(per_batch, left)
        left -= count
        if count <= 0:
            break
        sessions = max(1, count // HANDS_PER_SESSION)
        names = ["Hero", *(OPPONENTS[(n * 2 + k) % len(OPPONENTS)] for k in range(players - 1))]
        out = folder / f"sim-{n}-{variant}.jsonl"
        subprocess.run(
            [sys.executable, "-m", "ofc_cli.cli", "simulate", "--variant", variant,
             "--players", str(players), "--hands", str(count // sessions),
             "--sessions", str(sessions), "--seed", str(100 + n), "--names", ",".join(names),
             "--start", f"2025-{1 + n:02d}-03T19:00:00+01:00", "--out", str(out), "--force"],
            check=True, cwd=ROOT, env=_env(), stdout=subprocess.DEVNULL)
        files.append(out)
        print(f"  simulated {variant} x{players}: {count:,} hands", file=sys.stderr)
    return files


def build(db: Path, hands: int) -> None:
    """The demo sample (as a fresh dashboard loads it) plus ``hands`` simulated hands."""
    from dashboard.demo import load_demo
    from ingest import api

    partial = db.with_suffix(".building")
    for stale in (partial, Path(f"{partial}.wal")):
        stale.unlink(missing_ok=True)
    con = api.connect(partial)
    try:
        api.upgrade(con, partial)
        load_demo(con)
    finally:
        con.close()
    with tempfile.TemporaryDirectory(prefix="ofc-first-load-sim-") as tmp:
        files = simulate(Path(tmp), hands)
        report = api.import_paths(files, partial)
    print(f"  imported {report.stored:,} simulated hands", file=sys.stderr)
    partial.rename(db)


def _env(**more: str) -> dict[str, str]:
    """This checkout first on the path (its code is what runs), no inherited store."""
    env = {k: v for k, v in os.environ.items() if k not in ("OFC_DB", PROFILE_ENV)}
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), env.get("PYTHONPATH")]))
    return {**env, **more}


# --- one server, two loads -------------------------------------------------------------------

def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@dataclass
class Server:
    """A fresh ``ofc dashboard`` on ``db`` with its profile file."""

    db: Path
    profile: Path
    port: int = field(default_factory=_free_port)
    proc: subprocess.Popen[bytes] | None = None
    started_s: float = 0.0

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> None:
        self.profile.unlink(missing_ok=True)
        t = time.perf_counter()
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "ofc_cli.cli", "dashboard", "--db", str(self.db),
             "--port", str(self.port), "--address", "127.0.0.1"],
            cwd=ROOT, env=_env(**{PROFILE_ENV: str(self.profile)}),
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
        deadline = time.monotonic() + SERVER_SECONDS
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"ofc dashboard exited with {self.proc.returncode}")
            try:
                with urllib.request.urlopen(f"{self.url}/_stcore/health", timeout=2) as r:
                    if r.status == 200:
                        self.started_s = time.perf_counter() - t
                        return
            except OSError:
                time.sleep(0.1)
        raise RuntimeError(f"the dashboard did not answer in {SERVER_SECONDS:.0f} s")

    def cpu_seconds(self) -> float:
        """CPU time (user + system, every thread) of the server's processes so far."""
        import psutil  # type: ignore[import-untyped]

        assert self.proc is not None
        total = 0.0
        root = psutil.Process(self.proc.pid)
        for p in [root, *root.children(recursive=True)]:
            try:
                times = p.cpu_times()
                total += times.user + times.system
            except psutil.NoSuchProcess:
                continue
        return total

    def runs(self) -> list[dict[str, Any]]:
        if not self.profile.exists():
            return []
        return [json.loads(line) for line in self.profile.read_text().splitlines() if line]

    def stop(self) -> None:
        if self.proc is None:
            return
        try:
            os.killpg(self.proc.pid, signal.SIGTERM)
            self.proc.wait(timeout=20)
        except (ProcessLookupError, subprocess.TimeoutExpired):
            os.killpg(self.proc.pid, signal.SIGKILL)


def browser_cpu_times() -> dict[int, float]:
    """CPU time so far (user + system) of each Chromium process this benchmark started."""
    import psutil

    found = {}
    for p in psutil.Process().children(recursive=True):
        try:
            if "chrom" in p.name():
                times = p.cpu_times()
                found[p.pid] = times.user + times.system
        except psutil.NoSuchProcess:
            continue
    return found


def browser_cpu_since(before: dict[int, float]) -> float:
    """Chromium's CPU seconds since ``before`` (:func:`browser_cpu_times`): each live
    process's growth (new ones from zero); a process gone since (a closed tab's renderer)
    does not take its past time off the sum."""
    return sum(now - before.get(pid, 0.0) for pid, now in browser_cpu_times().items())


def load(browser: Any, server: Server, path: str, context: Any = None) -> dict[str, Any]:
    """Open ``path`` in a new tab and wait until its run has ended and it is drawn: in a fresh
    browser context (nothing cached), or in ``context`` (its cache as earlier loads left it;
    the tab is closed, the context kept)."""
    import psutil
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    before_runs = len(server.runs())
    cpu, browser_cpu = server.cpu_seconds(), browser_cpu_times()
    psutil.cpu_percent()  # starts the machine's CPU window
    load_avg = os.getloadavg()[0]
    shared = context is not None
    context = context or browser.new_context(viewport={"width": 1400, "height": 1000})
    page = context.new_page()
    cdp = context.new_cdp_session(page)
    cdp.send("Performance.enable")
    try:
        page.goto(f"{server.url}/{path}", wait_until="commit")
        nav = page.evaluate("performance.timeOrigin")
        runs = _wait_runs(server, before_runs)
        try:
            drawn = page.wait_for_function(RENDERED_JS, polling="raf",
                                           timeout=LOAD_SECONDS * 1000).json_value()
        except PlaywrightTimeout:
            raise RuntimeError(f"/{path} was not drawn in {LOAD_SECONDS:.0f} s: "
                               f"{page.evaluate(MISSING_JS)}") from None
        timing = page.evaluate("JSON.stringify(performance.getEntriesByType('navigation')[0])")
        metrics = {m["name"]: m["value"] for m in cdp.send("Performance.getMetrics")["metrics"]}
        # read before the tab closes (its renderer process goes with it)
        busy = psutil.cpu_percent()  # the machine's CPU use (% of all cores) over the load
        server_cpu = server.cpu_seconds() - cpu
        browser_cpu = browser_cpu_since(browser_cpu)
    finally:
        (page if shared else context).close()
    end = max(drawn, max(r["ended"] for r in runs) * 1000)
    first, last = runs[0], runs[-1]
    cores = psutil.cpu_count() or 1
    elapsed = (end - nav) / 1000
    others = max(0.0, busy - 100 * (server_cpu + browser_cpu) / max(elapsed, 1e-3) / cores)
    return {
        "ms": round(end - nav, 1),
        "server_cpu_ms": round(server_cpu * 1000, 1),
        "browser_cpu_ms": round(browser_cpu * 1000, 1),
        "runs": len(runs),
        "run_wall_ms": round(sum(r["wall_ms"] for r in runs), 1),
        "run_cpu_ms": round(sum(r["cpu_ms"] for r in runs), 1),
        "before_run_ms": round(first["started"] * 1000 - nav, 1),
        "after_run_ms": round(end - last["ended"] * 1000, 1),
        "parts_ms": {p: round(sum(r["parts"][p] for r in runs), 1) for p in PARTS},
        "queries": [q for r in runs for q in r["queries"]],
        "page_dom_ms": round(json.loads(timing)["domContentLoadedEventEnd"], 1),
        # the tab's main thread, by Chromium's count (seconds -> ms): JavaScript, style, layout
        "tab_ms": {name: round(metrics.get(key, 0.0) * 1000, 1) for name, key in TAB_METRICS},
        "load_average": round(load_avg, 2),
        "machine_cpu_pct": round(busy, 1),
        "others_cpu_pct": round(others, 1),
    }


def _wait_runs(server: Server, before: int) -> list[dict[str, Any]]:
    """The page runs of this load: wait for the first to end, then until no run has started
    for a moment (a page may rerun itself once, e.g. after writing the URL)."""
    deadline = time.monotonic() + LOAD_SECONDS
    while time.monotonic() < deadline:
        runs = server.runs()[before:]
        if runs:
            time.sleep(0.3)
            more = server.runs()[before:]
            if len(more) == len(runs):
                return runs
        else:
            time.sleep(0.02)
    raise RuntimeError("the page's run did not end")


def measure_page(browser: Any, db: Path, path: str, work: Path) -> dict[str, Any]:
    server = Server(db, work / f"profile-{path or 'overview'}.jsonl")
    server.start()
    context = browser.new_context(viewport={"width": 1400, "height": 1000})
    try:
        first = load(browser, server, path, context)  # a fresh context: nothing cached yet
        warm = load(browser, server, path)
        cached = load(browser, server, path, context)
    finally:
        context.close()
        server.stop()
    return {"server_start_s": round(server.started_s, 2), "first": first, "warm": warm,
            "cached": cached}


# --- the report ------------------------------------------------------------------------------

def summarise(runs: list[dict[str, Any]]) -> dict[str, Any]:
    """Medians over the runs of one page (the parts: of the run whose first load is the
    median)."""
    firsts = sorted(runs, key=lambda r: r["first"]["ms"])
    mid = firsts[(len(firsts) - 1) // 2]["first"]

    def med(kind: str, key: str) -> float:
        return round(float(statistics.median(r[kind][key] for r in runs)), 1)

    computed: dict[str, float] = {}
    for name, ms, ran in mid["queries"]:
        if ran:
            computed[name] = round(computed.get(name, 0.0) + ms, 1)
    return {
        "first_ms": med("first", "ms"), "first_min_ms": min(r["first"]["ms"] for r in runs),
        "first_server_cpu_ms": med("first", "server_cpu_ms"),
        "first_browser_cpu_ms": med("first", "browser_cpu_ms"),
        "first_run_wall_ms": med("first", "run_wall_ms"),
        "first_run_cpu_ms": med("first", "run_cpu_ms"),
        "warm_ms": med("warm", "ms"), "warm_server_cpu_ms": med("warm", "server_cpu_ms"),
        "cached_ms": med("cached", "ms"),
        "cached_browser_cpu_ms": med("cached", "browser_cpu_ms"),
        "parts_ms": mid["parts_ms"], "tab_ms": mid["tab_ms"],
        "before_run_ms": mid["before_run_ms"],
        "after_run_ms": mid["after_run_ms"], "runs_per_load": mid["runs"],
        "queries_ms": dict(sorted(computed.items(), key=lambda kv: -kv[1])),
        "load_average": [r["first"]["load_average"] for r in runs],
        "others_cpu_pct": [r["first"]["others_cpu_pct"] for r in runs],
        "server_start_s": med_value([r["server_start_s"] for r in runs]),
    }


def med_value(values: list[float]) -> float:
    return round(statistics.median(values), 2)


def table(pages: dict[str, dict[str, Any]]) -> str:
    head = ("| page | first load ms (min) | server CPU ms | browser CPU ms | run wall / CPU ms | "
            + " | ".join(PARTS) + " | browser before / after run | tab busy / JS / style+layout"
            " ms | warm ms (server CPU) | cached ms (browser CPU) | "
            "load average | others' CPU % |")
    lines = [head, "|" + "---|" * (head.count("|") - 1)]
    for page, s in pages.items():
        parts = " | ".join(f"{s['parts_ms'][p]:,.0f}" for p in PARTS)
        others = max(s["others_cpu_pct"])
        tab = s["tab_ms"]
        lines.append(
            f"| {page or 'overview'} | {s['first_ms']:,.0f} ({s['first_min_ms']:,.0f}) | "
            f"{s['first_server_cpu_ms']:,.0f} | {s['first_browser_cpu_ms']:,.0f} | "
            f"{s['first_run_wall_ms']:,.0f} / "
            f"{s['first_run_cpu_ms']:,.0f} | {parts} | {s['before_run_ms']:,.0f} / "
            f"{s['after_run_ms']:,.0f} | {tab['busy']:,.0f} / {tab['script']:,.0f} / "
            f"{tab['style'] + tab['layout']:,.0f} | "
            f"{s['warm_ms']:,.0f} ({s['warm_server_cpu_ms']:,.0f}) | "
            f"{s['cached_ms']:,.0f} ({s['cached_browser_cpu_ms']:,.0f}) "
            f"| {max(s['load_average']):.1f} | {others:.0f} |")
    return "\n".join(lines)


def summary_lines(pages: dict[str, dict[str, Any]]) -> list[str]:
    """One line per page for whoever re-measures: page, first, warm and cached load (medians,
    ms), Chromium's CPU over the first load, the load average (highest over the runs) and the
    target's verdict (on the first load).

    >>> summary_lines({"review": {"first_ms": 2900.0, "warm_ms": 2500.0, "cached_ms": 900.0,
    ...     "first_browser_cpu_ms": 3100.0, "load_average": [0.8, 1.2]}})[0].split(" · ")
    ['review: first 2,900 ms', 'warm 2,500 ms', 'cached 900 ms', 'browser CPU 3,100 ms', \
'load 1.2', 'target 3,000 ms: met']
    """
    lines = []
    for page, s in pages.items():
        target = PAGE_TARGETS_MS.get(page, TARGET_MS)
        over = s["first_ms"] - target
        verdict = "met" if over < 0 else f"not met (+{over:,.0f} ms)"
        lines.append(f"{page or 'overview'}: first {s['first_ms']:,.0f} ms · warm "
                     f"{s['warm_ms']:,.0f} ms · cached {s['cached_ms']:,.0f} ms · browser CPU "
                     f"{s['first_browser_cpu_ms']:,.0f} ms"
                     f" · load {max(s['load_average']):.1f} · target {target:,} ms: {verdict}")
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=100_000,
                        help="simulated hands besides the demo (100,000)")
    parser.add_argument("--runs", type=int, default=3, help="fresh servers per page (median)")
    parser.add_argument("--pages", default="",
                        help="comma-separated URL paths (overview,hands,...; all by default)")
    parser.add_argument("--rebuild", action="store_true", help="build the store again")
    parser.add_argument("--chromium", default=CHROMIUM)
    args = parser.parse_args(argv)

    db = store_path(args.hands)
    if args.rebuild or not db.exists():
        print(f"building {db}...", file=sys.stderr)
        t = time.perf_counter()
        db.unlink(missing_ok=True)
        build(db, args.hands)
        print(f"  built in {time.perf_counter() - t:.0f} s", file=sys.stderr)
    named = {url or Path(source).stem: url for source, _, _, url in APP_PAGES}  # "/": overview
    wanted = [p for p in args.pages.split(",") if p]
    if unknown := set(wanted) - set(named):
        parser.error(f"no page {', '.join(sorted(unknown))} (pages: {', '.join(named)})")
    paths = [named[p] for p in wanted] or list(named.values())

    from playwright.sync_api import sync_playwright

    results: dict[str, list[dict[str, Any]]] = {p: [] for p in paths}
    with tempfile.TemporaryDirectory(prefix="ofc-first-load-") as tmp, \
            sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=args.chromium, args=CHROMIUM_ARGS)
        try:
            for n in range(args.runs):
                for path in paths:  # pages in turn, so a slow spell falls on all of them
                    try:
                        got = measure_page(browser, db, path, Path(tmp))
                    except RuntimeError as exc:  # that page's failure, said; the others go on
                        print(f"run {n + 1}: {path}: {exc}", file=sys.stderr)
                        continue
                    results[path].append(got)
                    print(f"run {n + 1}: {path:12s} first {got['first']['ms']:7,.0f} ms "
                          f"(server CPU {got['first']['server_cpu_ms']:6,.0f}) warm "
                          f"{got['warm']['ms']:6,.0f} ms  load {got['first']['load_average']}"
                          f"  others' CPU {got['first']['others_cpu_pct']:.0f}%",
                          file=sys.stderr)
        finally:
            browser.close()
    pages = {p: summarise(r) for p, r in results.items() if r}
    print(table(pages), file=sys.stderr)
    from ingest import api

    with api.connect(db, read_only=True) as con:
        row = con.execute("SELECT count(*) FROM hands").fetchone()
    stored = row[0] if row else 0
    for line in summary_lines(pages):
        print(line)
    slowest = max(pages, key=lambda p: pages[p]["first_ms"])
    print(json.dumps({"benchmark": "first_load", "hands": stored, "runs": args.runs,
                      "target_ms": TARGET_MS, "slowest_page": slowest,
                      "slowest_first_ms": pages[slowest]["first_ms"], "pages": pages}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
