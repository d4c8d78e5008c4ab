"""The dashboard in headless Chromium: starting ``ofc dashboard``, waiting for it, and the page
helpers the browser tests share.

The session's one Chromium and its two servers are fixtures in ``tests/conftest.py``
(``browser``, ``demo_dashboard`` read-only, ``writable_dashboard``, and ``tab``, the worker's
one tab, lent to one test at a time). A test that must stop a server itself (signals) starts
its own with :func:`start_dashboard`.
"""

from __future__ import annotations

import os
import re
import signal
import socket
import subprocess
import time
import urllib.request
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]
"""Debian's Chromium, headless, in a container, with nothing of its own to fetch."""

SHOTS = Path(__file__).resolve().parent.parent / "screenshots"
"""Where :func:`save_screenshot` keeps whole-page screenshots (git-ignored)."""

Page = Any
"""A Playwright ``Page`` (Playwright is imported lazily: a missing package fails the tests
that use a browser only)."""


def free_port() -> int:
    """A TCP port nobody listens on now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def wait_healthy(url: str, proc: subprocess.Popen[Any], log: Path | None = None,
                 seconds: float = 60) -> None:
    """Wait until the dashboard at ``url`` answers its health check; fail (with ``log``'s
    text, when the server writes one) if ``proc`` exits or ``seconds`` pass first."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            said = f":\n{log.read_text()}" if log is not None and log.exists() else ""
            pytest.fail(f"ofc dashboard exited with {proc.returncode}{said}")
        try:
            with urllib.request.urlopen(f"{url}/_stcore/health", timeout=2) as r:
                if r.status == 200:
                    return
        except OSError:
            time.sleep(0.3)
    said = f":\n{log.read_text()}" if log is not None and log.exists() else ""
    pytest.fail(f"the dashboard did not become healthy in {seconds} s{said}")


@dataclass(frozen=True)
class Dashboard:
    """A running ``ofc dashboard``: its base ``url``, its database and its output."""

    url: str
    db: Path
    log: Path
    proc: subprocess.Popen[Any]

    def log_text(self) -> str:
        return self.log.read_text(encoding="utf-8", errors="replace")


def server_env() -> dict[str, str]:
    """The environment a test's ``ofc`` runs in: the caller's, without ``OFC_DB`` (every
    command is given its database)."""
    return {k: v for k, v in os.environ.items() if k != "OFC_DB"}


@contextmanager
def start_dashboard(ofc_script: str, db: Path, folder: Path,
                    seconds: float = 90) -> Iterator[Dashboard]:
    """``ofc dashboard --db db`` (the installed script; a missing ``db`` is created with the
    demo sample, as on a user's first start), its output in ``folder/dashboard.log``; stopped
    (its process group) on the way out, unless the caller stopped it."""
    port, log = free_port(), folder / "dashboard.log"
    with log.open("w") as out:
        proc = subprocess.Popen([ofc_script, "dashboard", "--db", str(db), "--port", str(port),
                                 "--address", "127.0.0.1"], cwd=folder, stdout=out,
                                stderr=subprocess.STDOUT, env=server_env(),
                                start_new_session=True)
    server = Dashboard(f"http://127.0.0.1:{port}", db, log, proc)
    try:
        wait_healthy(server.url, proc, log, seconds)
        yield server
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGTERM)
            try:
                proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)
                proc.wait()


def open_page(page: Page, url: str, height: int = 1000) -> Page:
    """``page`` (the ``tab`` fixture) on ``url``, ``height`` pixels tall; Streamlit scrolls
    inside the page, so a tall viewport is what makes a screenshot show the whole page."""
    page.set_viewport_size({"width": 1400, "height": height})
    page.goto(url)
    page.wait_for_selector("[data-testid='stAppViewContainer']", timeout=60_000)
    return page


RUN_OVER = """() => {
    const app = document.querySelector("[data-testid='stApp']");
    return app !== null && app.dataset.testScriptState === "notRunning"
        && !document.querySelector("[data-testid='stStatusWidget'], [data-testid='stSkeleton']");
}"""
"""Streamlit's own test hook: its app root's ``data-test-script-state`` is ``initial`` until
the first run, ``running`` (or ``rerunRequested``, set at once when a widget asks for a rerun)
until a run is over, then ``notRunning``; the "Running..." status and the skeletons of widgets
not drawn yet are gone too. On a page just opened (``initial`` until its first run) no pause
is needed before the wait; after a click it is (the state turns ``running`` only when the
server says so)."""


def wait_run_over(page: Page, timeout: float = 120_000) -> None:
    """Wait until the app's script run is over and its widgets are drawn (:data:`RUN_OVER`),
    then one animation frame more (the browser has painted what the run sent)."""
    page.wait_for_function(RUN_OVER, timeout=timeout)
    page.evaluate("() => new Promise(done => requestAnimationFrame(() => done(null)))")


STILL = """(element, frames) => new Promise(done => {
    let last = null, same = 0;
    const step = () => {
        const box = element.getBoundingClientRect();
        const now = `${box.top} ${box.height}`;
        same = now === last ? same + 1 : 0;
        last = now;
        if (same >= frames) done(null); else requestAnimationFrame(step);
    };
    requestAnimationFrame(step);
})"""
"""Resolves once the element's place and height have not changed for ``frames`` animation
frames in a row."""


def wait_still(element: Any, frames: int = 5) -> None:
    """Wait until the ``element`` (a Playwright locator) stops moving: an expander opens by a
    transition of about half a second, and what it holds (and what lies below it) moves
    meanwhile, so a click sent then can land where the target was, not where it is.
    Playwright's own wait for a stable target looks at two frames, too few when a loaded
    machine draws the transition's frames unevenly."""
    element.evaluate(STILL, frames)


def settle(page: Page) -> None:
    """Wait until the app's script run is over (no "Running..." status), so a click is not
    lost in a redraw."""
    page.wait_for_function(
        "() => !document.querySelector('[data-testid=stStatusWidgetRunningIcon],"
        "[data-testid=stStatusWidgetRunningManIcon]')", timeout=30_000)
    page.wait_for_timeout(500)


def settle_drawn(page: Page) -> None:
    """Wait until Streamlit has finished running the script and drawn its widgets (a loaded
    machine draws them well after the script ends: the skeletons say so): on a page just
    opened (:data:`RUN_OVER`; it replaced a fixed second of pauses a call, 11 s of the
    page-render test)."""
    wait_run_over(page)


def no_exception(page: Page) -> None:
    """The page shows no Python exception box."""
    boxes = page.locator("[data-testid=stException]")
    assert boxes.count() == 0, boxes.first.inner_text()


def no_errors(page: Page) -> None:
    """The page shows no exception box and no error message."""
    for kind in ("stException", "stAlertContentError"):
        found = page.locator(f"[data-testid='{kind}']")
        assert found.count() == 0, found.first.inner_text()


def save_screenshot(page: Page, name: str) -> Path:
    """The whole page as ``<name>.png`` in this run's folder of :data:`SHOTS`
    (``OFC_SCREENSHOTS=before`` for a "before" set, ``after`` by default)."""
    folder = SHOTS / os.environ.get("OFC_SCREENSHOTS", "after")
    folder.mkdir(parents=True, exist_ok=True)
    shot = folder / f"{name}.png"
    page.screenshot(path=str(shot), full_page=True)
    assert shot.stat().st_size > 10_000
    return shot


def click_row(page: Page, table: Any, row: int) -> None:
    """Click the selection box of ``row`` (from 1) of an ``st.dataframe`` grid, found from
    where the grid is now (rows 35 px high under a 35 px header). The grid draws on a canvas:
    a click while it is still being laid out is lost, so the box is read once the grid has
    stopped moving."""
    box = table.bounding_box()
    for _ in range(20):
        page.wait_for_timeout(100)
        now = table.bounding_box()
        if now == box:
            break
        box = now
    assert box is not None
    page.mouse.click(box["x"] + 16, box["y"] + 35 * row + 17)


def metric(page: Page, label: str) -> str:
    """The value of the metric labelled exactly ``label`` (``has_text`` alone is a
    case-blind substring: "Hands" also found the Money metric, "... over 1,176 hands")."""
    exact = page.locator("[data-testid=stMetricLabel]",
                         has_text=re.compile(rf"^\s*{re.escape(label)}\s*$"))
    box = page.locator("[data-testid=stMetric]").filter(has=exact).first
    return str(box.locator("[data-testid=stMetricValue]").inner_text().strip())


def metric_value(page: Page, label: str) -> Any:
    """The locator of the value of the metric labelled exactly ``label`` (to wait on)."""
    exact = page.get_by_test_id("stMetricLabel").get_by_text(label, exact=True)
    return page.get_by_test_id("stMetric").filter(has=exact).first.get_by_test_id(
        "stMetricValue")


def wait_until(what: str, condition: Callable[[], bool], seconds: float = 60.0) -> None:
    """Poll ``condition`` until it holds; fail naming ``what`` after ``seconds``."""
    deadline = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > deadline:
            pytest.fail(f"not within {seconds:.0f} s: {what}")
        time.sleep(0.2)
