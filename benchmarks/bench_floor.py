"""The floor under the dashboard's first loads: tiny Streamlit pages in the harness of
``bench_first_load.py`` (the same headless Chromium, a fresh tab per load, a fresh server per
page, the same Streamlit options as ``ofc dashboard``).

Each page of :data:`PAGES` is a few lines of Streamlit: nothing but a title, one table, one
Plotly chart of 2,000 or 100,000 points, one Vega-Lite chart, and a few mixes that match what
the dashboard's pages draw. A load is timed from the navigation's start until the page is
drawn (its title, no skeleton, not running, every chart's SVG or canvas and every table's
canvas there) and the script's run has ended (the page writes its start and end times to a
file). The server is warmed first by one load in another fresh tab (its imports of numpy,
pandas and plotly: the dashboard's warm-up does those as it starts). Its time splits into:
before the run starts (Streamlit's JavaScript loaded and run, the websocket opened), the run,
after the run (the browser drawing), and the CPU Chromium spent.

    python benchmarks/bench_floor.py                    # every floor page, 3 runs
    python benchmarks/bench_floor.py --pages empty,plotly_2k --runs 5

A table goes to stderr; the last line of stdout is JSON (medians per page, ms).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import textwrap
import time
import urllib.request
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
if str(HERE) not in sys.path:
    sys.path.insert(0, str(HERE))

from bench_first_load import (  # noqa: E402
    CHROMIUM,
    CHROMIUM_ARGS,
    TAB_METRICS,
    _free_port,
    browser_cpu_since,
    browser_cpu_times,
)

HEAD = """
import json, os, time
_t0 = time.time()
import numpy as np
import pandas as pd
import streamlit as st
st.set_page_config(page_title="floor", layout="wide")
st.title("Floor")
rng = np.random.default_rng(7)
def walk(n):
    return np.cumsum(rng.normal(0, 5, n))
def plotly(n, mode="lines+markers", traces=1, gl=False, shown=0):
    import plotly.graph_objects as go
    fig = go.Figure()
    for k in range(traces):
        kind = go.Scattergl if gl else go.Scatter
        fig.add_trace(kind(x=np.arange(1, n + 1), y=walk(n), mode=mode if k == 0 else "lines",
                           marker={"size": 4, "maxdisplayed": shown}))
    fig.update_layout(height=420, margin={"l": 10, "r": 10, "t": 30, "b": 10})
    st.plotly_chart(fig, key=f"c{n}{mode}{traces}{gl}{rng.integers(1 << 30)}",
                    on_select="rerun", selection_mode="points")
def bars(n=6):
    import plotly.graph_objects as go
    fig = go.Figure(go.Bar(x=[f"v{k}" for k in range(n)], y=rng.random(n)))
    fig.update_layout(height=280, margin={"l": 10, "r": 10, "t": 40, "b": 10})
    st.plotly_chart(fig, key=f"b{rng.integers(1 << 30)}", on_select="rerun",
                    selection_mode="points")
def table(rows=500, cols=10, key=None):
    frame = pd.DataFrame({f"col{k}": rng.random(rows) for k in range(cols)})
    st.dataframe(frame, hide_index=True, width="stretch", on_select="rerun",
                 selection_mode="single-row", key=key or f"t{rng.integers(1 << 30)}")
"""
TAIL = """
with open(os.environ["FLOOR_TIMES"], "a") as out:
    out.write(json.dumps({"started": _t0, "ended": time.time()}) + "\\n")
"""
PAGES: dict[str, str] = {
    "empty": "",
    "sidebar": "for k in range(10):\n    st.sidebar.selectbox(f's{k}', ['All', 'a', 'b'])",
    "metrics": "for c in st.columns(4):\n    c.metric('Hands', '101,256', 'note')",
    "dataframe": "table()",
    "plotly_2k": "plotly(2000)",
    "plotly_2k_lines": "plotly(2000, mode='lines')",
    "plotly_2k_200_markers": "plotly(2000, shown=200)",
    "plotly_100k": "plotly(100000)",
    "plotly_100k_lines": "plotly(100000, mode='lines')",
    "plotly_gl_2k": "plotly(2000, gl=True)",
    "plotly_bars": "bars()",
    "plotly_overview": "plotly(2000, traces=4)",
    "plotly_overview_200_markers": "plotly(2000, traces=4, shown=200)",
    "vega_2k": "st.line_chart(pd.DataFrame({'y': walk(2000)}))",
    "vega_bars": "st.bar_chart(pd.DataFrame({'x': list('abcdef'), 'y': rng.random(6)}), x='x')",
    "vega_100k": "st.line_chart(pd.DataFrame({'y': walk(100000)}))",
    "like_fouls": ("for c in st.columns(4):\n    c.metric('Foul %', '12.3%')\n"
                   "a, b = st.columns(2)\nwith a:\n    bars(); bars()\n"
                   "with b:\n    bars(); bars()\n"
                   "plotly(2000, gl=True)\nbars(40)\ntable(20)\ntable(500, 16)"),
    "like_overview": ("for c in st.columns(4):\n    c.metric('Hands', '101,256', 'note')\n"
                      "plotly(2000, traces=4)\ntable(200, 9)"),
}
"""Floor pages: the Streamlit lines after :data:`HEAD` (a title and helpers)."""

DRAWN_JS = """() => {
    if (document.querySelector("[data-testid=stSkeleton],[data-testid=stStatusWidgetRunningIcon],"
                               + "[data-testid=stStatusWidgetRunningManIcon]")) return false;
    const main = document.querySelector("[data-testid=stMain]");
    if (!main || !main.querySelector("h1")) return false;
    for (const c of main.querySelectorAll("[data-testid=stPlotlyChart]"))
        if (!c.querySelector(".main-svg")) return false;
    for (const c of main.querySelectorAll("[data-testid=stVegaLiteChart]"))
        if (!c.querySelector("canvas, svg")) return false;
    for (const d of main.querySelectorAll("[data-testid=stDataFrame]"))
        if (!d.querySelector("canvas")) return false;
    return performance.timeOrigin + performance.now();
}"""
EXPECTED_JS = """(want) => {
    const main = document.querySelector("[data-testid=stMain]");
    if (!main) return false;
    const n = main.querySelectorAll("[data-testid=stPlotlyChart],[data-testid=stVegaLiteChart],"
                                    + "[data-testid=stDataFrame]").length;
    return n >= want;
}"""


def elements(body: str) -> int:
    """How many charts and tables a floor page draws (each helper call, each chart call)."""
    count = sum(body.count(f"{name}(") for name in ("plotly", "bars", "table", "line_chart",
                                                     "bar_chart"))
    return count


def serve(app: Path, times: Path) -> tuple[subprocess.Popen[bytes], str]:
    port = _free_port()
    env = {**os.environ, "FLOOR_TIMES": str(times)}
    proc = subprocess.Popen(
        [sys.executable, "-m", "streamlit", "run", str(app), "--server.headless", "true",
         "--server.port", str(port), "--server.address", "127.0.0.1",
         "--browser.gatherUsageStats", "false", "--server.fileWatcherType", "none",
         "--client.toolbarMode", "minimal"],
        env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(f"{url}/_stcore/health", timeout=2):
                return proc, url
        except OSError:
            time.sleep(0.1)
    proc.kill()
    raise RuntimeError("streamlit did not start")


def load(browser: Any, url: str, times: Path, want: int) -> dict[str, float]:
    """One load in a fresh tab: wall ms, before / run / after, Chromium's CPU, tab metrics."""
    before = len(times.read_text().splitlines()) if times.exists() else 0
    cpu = browser_cpu_times()
    load_avg = os.getloadavg()[0]
    context = browser.new_context(viewport={"width": 1400, "height": 1000})
    page = context.new_page()
    cdp = context.new_cdp_session(page)
    cdp.send("Performance.enable")
    try:
        page.goto(url, wait_until="commit")
        nav = page.evaluate("performance.timeOrigin")
        page.wait_for_function(EXPECTED_JS, arg=want, polling="raf", timeout=120_000)
        drawn = page.wait_for_function(DRAWN_JS, polling="raf", timeout=120_000).json_value()
        while not times.exists() or len(times.read_text().splitlines()) <= before:
            time.sleep(0.02)
        metrics = {m["name"]: m["value"] for m in cdp.send("Performance.getMetrics")["metrics"]}
        browser_cpu = browser_cpu_since(cpu)
    finally:
        context.close()
    run = json.loads(times.read_text().splitlines()[before])
    end = max(drawn, run["ended"] * 1000)
    out = {"ms": end - nav, "before_run_ms": run["started"] * 1000 - nav,
           "run_ms": (run["ended"] - run["started"]) * 1000,
           "after_run_ms": end - run["ended"] * 1000, "browser_cpu_ms": browser_cpu * 1000,
           "load_average": load_avg}
    out.update({f"tab_{name}_ms": metrics.get(key, 0.0) * 1000 for name, key in TAB_METRICS})
    return out


def measure(browser: Any, name: str, work: Path) -> dict[str, float]:
    body = PAGES[name]
    app = work / f"floor_{name}.py"
    app.write_text(textwrap.dedent(HEAD) + body + "\n" + TAIL)
    times = work / f"times_{name}.jsonl"
    proc, url = serve(app, times)
    try:  # a first load imports numpy, pandas and plotly in the server (the dashboard's
        load(browser, url, times, elements(body))  # warm-up does that as it starts)
        return load(browser, url, times, elements(body))
    finally:
        proc.terminate()
        proc.wait(timeout=20)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pages", default="", help=f"comma-separated ({', '.join(PAGES)})")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--chromium", default=CHROMIUM)
    args = parser.parse_args(argv)
    names = [p for p in args.pages.split(",") if p] or list(PAGES)
    if unknown := set(names) - set(PAGES):
        parser.error(f"no floor page {', '.join(sorted(unknown))}")
    from playwright.sync_api import sync_playwright

    got: dict[str, list[dict[str, float]]] = {n: [] for n in names}
    with tempfile.TemporaryDirectory(prefix="ofc-floor-") as tmp, sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=args.chromium, args=CHROMIUM_ARGS)
        try:
            for n in range(args.runs):
                for name in names:
                    try:
                        r = measure(browser, name, Path(tmp))
                    except Exception as exc:  # that page's failure, said; the others go on
                        print(f"run {n + 1}: {name}: {type(exc).__name__}: "
                              f"{str(exc).splitlines()[0]}", file=sys.stderr)
                        continue
                    got[name].append(r)
                    print(f"run {n + 1}: {name:18s} {r['ms']:6,.0f} ms (before "
                          f"{r['before_run_ms']:5,.0f}, run {r['run_ms']:5,.0f}, after "
                          f"{r['after_run_ms']:5,.0f}) browser CPU "
                          f"{r['browser_cpu_ms']:6,.0f} ms  load {r['load_average']:.1f}",
                          file=sys.stderr)
        finally:
            browser.close()
    medians = {name: {k: round(statistics.median(r[k] for r in rs), 1) for k in rs[0]}
               for name, rs in got.items() if rs}
    print("| floor page | first load ms | before / run / after ms | browser CPU ms | "
          "tab busy / JS ms | load average |\n|---|---|---|---|---|---|", file=sys.stderr)
    for name, m in medians.items():
        print(f"| {name} | {m['ms']:,.0f} | {m['before_run_ms']:,.0f} / {m['run_ms']:,.0f} / "
              f"{m['after_run_ms']:,.0f} | {m['browser_cpu_ms']:,.0f} | {m['tab_busy_ms']:,.0f} / "
              f"{m['tab_script_ms']:,.0f} | {m['load_average']:.1f} |", file=sys.stderr)
    print(json.dumps({"benchmark": "first_load_floor", "runs": args.runs, "pages": medians}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
