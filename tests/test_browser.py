"""End to end in headless Chromium: ``ofc dashboard`` on a fresh database (demo sample loaded),
upload a log, see its hands on the Overview, open a hand in Hand review and step through it.

Screenshots are saved under the test's ``tmp_path``. Chromium is Debian's (Playwright's own
browser download is not used): see the ``chromium_path`` fixture in ``conftest.py``.
"""

from __future__ import annotations

import os
import re
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]
UPLOAD_HANDS = 20

pytestmark = [pytest.mark.browser, pytest.mark.slow]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def click_row(page, table, row: int) -> None:  # type: ignore[no-untyped-def]
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


def wait_healthy(url: str, proc: subprocess.Popen, log: Path | None = None,
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


@pytest.fixture
def dashboard(tmp_path: Path, ofc_script: str):  # type: ignore[no-untyped-def]
    """``ofc dashboard`` (the installed script) on a fresh database in tmp_path; yields the
    base URL."""
    port = free_port()
    log = tmp_path / "dashboard.log"
    cmd = [ofc_script]
    env = {k: v for k, v in os.environ.items() if k != "OFC_DB"}
    with log.open("w") as out:
        proc = subprocess.Popen([*cmd, "dashboard", "--db", str(tmp_path / "fresh.duckdb"),
                                 "--port", str(port), "--address", "127.0.0.1"],
                                cwd=tmp_path, stdout=out, stderr=subprocess.STDOUT, env=env,
                                start_new_session=True)
    url = f"http://127.0.0.1:{port}"
    try:
        wait_healthy(url, proc, log)
        yield url
    finally:
        os.killpg(proc.pid, 15)
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, 9)


def simulated_log(tmp_path: Path) -> Path:
    """A fresh pineapple session of the demo's hero, newer than the demo hands."""
    subprocess.run([sys.executable, "-m", "ofc_cli.cli", "simulate", "--variant", "pineapple",
                    "--players", "2", "--hands", str(UPLOAD_HANDS), "--seed", "4242",
                    "--names", "Hero,Bob", "--perspective", "hero", "--hero", "Hero",
                    "--start", "2027-01-05T20:00:00+01:00", "--session-prefix", "browser",
                    "--out", str(tmp_path / "upload.jsonl")], check=True, cwd=ROOT,
                   capture_output=True)
    return next(tmp_path.glob("upload*.jsonl"))


def no_exception(page) -> None:  # type: ignore[no-untyped-def]
    """The page shows no Python exception box."""
    boxes = page.locator("[data-testid=stException]")
    assert boxes.count() == 0, boxes.first.inner_text()


def settle(page) -> None:  # type: ignore[no-untyped-def]
    """Wait until the app's script run is over (no "Running..." status), so a click is not
    lost in a redraw."""
    page.wait_for_function(
        "() => !document.querySelector('[data-testid=stStatusWidgetRunningIcon],"
        "[data-testid=stStatusWidgetRunningManIcon]')", timeout=30_000)
    page.wait_for_timeout(500)


def click_last_point(page, shots: Path) -> None:  # type: ignore[no-untyped-def]
    """Click the total line's last point (the newest hand). Plotly picks the point under the
    hover, so move there first; retried while the chart is still being redrawn."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    for attempt in range(3):
        point = page.locator(".js-plotly-plot .scatterlayer .trace").first.locator(
            "path.point").last
        point.wait_for()
        settle(page)
        box = point.bounding_box()
        assert box is not None
        x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
        page.mouse.move(x - 5, y)
        page.mouse.move(x, y)
        page.wait_for_timeout(300)  # plotly resolves the hovered point asynchronously
        page.mouse.down()
        page.wait_for_timeout(80)
        page.mouse.up()
        try:
            page.wait_for_url(re.compile(r"/hands\?"), timeout=10_000)
            return
        except PlaywrightTimeout:  # the chart was redrawn under the click: retry
            page.screenshot(path=shots / f"graph-click-missed-{attempt}.png")
    raise AssertionError("clicking the graph did not open Hand review")


def metric(page, label: str) -> str:  # type: ignore[no-untyped-def]
    """The value of the metric labelled exactly ``label`` (``has_text`` alone is a
    case-blind substring: "Hands" also found the Money metric, "... over 1,176 hands")."""
    exact = page.locator("[data-testid=stMetricLabel]",
                         has_text=re.compile(rf"^\s*{re.escape(label)}\s*$"))
    box = page.locator("[data-testid=stMetric]").filter(has=exact).first
    return box.locator("[data-testid=stMetricValue]").inner_text().strip()


def test_upload_overview_and_replay_in_chromium(chromium_path: str, dashboard: str,
                                                 tmp_path: Path) -> None:
    exe = chromium_path
    from playwright.sync_api import expect, sync_playwright

    upload = simulated_log(tmp_path)
    shots = tmp_path / "screenshots"
    shots.mkdir()
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=exe, args=CHROMIUM_ARGS)
        page = browser.new_page(viewport={"width": 1400, "height": 2000})
        page.set_default_timeout(30_000)
        expect.set_options(timeout=30_000)  # a shared, busy machine: cold runs can be slow
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))

        # a fresh database opens on the demo sample, and says so
        page.goto(dashboard)
        expect(page.get_by_text("You are looking at demo data")).to_be_visible()
        expect(page.locator("[data-testid=stMetric]").first).to_be_visible()
        demo_hands = int(metric(page, "Hands").replace(",", ""))
        assert demo_hands > 0
        assert "player=Hero" in page.url
        page.screenshot(path=shots / "1-overview-demo.png")
        no_exception(page)

        # upload a log through the Import page
        page.get_by_role("link", name="Import").click()
        page.locator("[data-testid=stFileUploader] input[type=file]").set_input_files(upload)
        page.get_by_role("button", name=re.compile(r"^Import 1 file")).click()
        expect(page.get_by_text("Ledger", exact=True)).to_be_visible(timeout=30_000)
        expect(page.get_by_text(f"{UPLOAD_HANDS} hands stored")).to_be_visible()
        page.screenshot(path=shots / "2-import-ledger.png", full_page=True)
        no_exception(page)
        # the upload brought a hero in: "Who are you?" offers it, picked, at once
        asked = page.locator("[data-testid=stMultiSelect]").first
        expect(asked.get_by_text(f"Hero (hero of {UPLOAD_HANDS} hands", exact=False)
               ).to_be_visible(timeout=10_000)

        # the new hands are on the overview
        page.get_by_role("link", name="Overview").click()
        expect(page.locator("[data-testid=stMetric]").first).to_be_visible()
        expect(page.locator("[data-testid=stMetricValue]").first).to_have_text(
            f"{demo_hands + UPLOAD_HANDS:,}")
        page.screenshot(path=shots / "3-overview-after-upload.png")
        no_exception(page)

        # clicking a point of the cumulative graph opens that hand in Hand review
        click_last_point(page, shots)
        expect(page.get_by_role("heading", name="Hand review")).to_be_visible()
        expect(page.locator("h3").filter(has_text="Hand browser-1-0020")).to_be_visible()
        assert "hand=" in page.url and "player=Hero" in page.url
        page.screenshot(path=shots / "3b-hand-from-graph.png")
        no_exception(page)

        # selecting a session on the overview opens its first hand
        page.get_by_role("link", name="Overview").click()
        expect(page.locator("[data-testid=stMetricValue]").first).to_have_text(
            f"{demo_hands + UPLOAD_HANDS:,}")
        sessions = page.locator("[data-testid=stDataFrame]").first
        expect(sessions).to_be_visible()
        settle(page)
        sessions.scroll_into_view_if_needed()
        click_row(page, sessions, 1)  # row 1: the newest session
        expect(page.locator("h3").filter(has_text="Hand browser-1-0001")).to_be_visible()

        # Hand review opens on the newest hand (the upload's last); step through it
        page.goto(dashboard + "/hands?player=Hero")
        expect(page.get_by_text("Street 1", exact=True)).to_be_visible()
        heading = page.locator("h3").filter(has_text="Hand ").first.inner_text()
        assert "browser" in page.locator("[data-testid=stCaptionContainer]").filter(
            has_text="session").first.inner_text()
        page.screenshot(path=shots / "4-replay-street-1.png", full_page=True)
        no_exception(page)
        for street in (2, 3):
            page.get_by_role("button", name="Next ▶").click()
            expect(page.get_by_text(f"Street {street}", exact=True)).to_be_visible()
        page.screenshot(path=shots / "5-replay-street-3.png", full_page=True)
        no_exception(page)
        page.get_by_role("button", name="Showdown").click()
        expect(page.locator("strong", has_text="Showdown")).to_be_visible()
        expect(page.locator(".ofc-row-note", has_text=re.compile(r"high|Pair|Flush|Straight|"
                                                                 r"Trips|house|Two pair"))
               .first).to_be_visible()
        page.screenshot(path=shots / "6-replay-showdown.png", full_page=True)
        # on a narrow window the long hand names wrap; the card rows still start level
        page.set_viewport_size({"width": 760, "height": 900})
        page.wait_for_timeout(500)
        for board in page.locator(".ofc-board").all()[:2]:
            lefts = board.locator(".ofc-row .ofc-cards").evaluate_all(
                "els => els.map(e => Math.round(e.getBoundingClientRect().left))")
            widths = board.locator(".ofc-row .ofc-card").evaluate_all(
                "els => els.map(e => Math.round(e.getBoundingClientRect().width))")
            assert len(lefts) == 3 and len(set(lefts)) == 1, lefts
            assert len(set(widths)) == 1, widths  # no card squeezed by a wrapping name
        page.set_viewport_size({"width": 1400, "height": 2000})
        page.wait_for_timeout(500)  # the grid redraws its canvas at the new width
        no_exception(page)
        assert page.locator("h3").filter(has_text="Hand ").first.inner_text() == heading

        # selecting a row of the hands table opens that hand
        table = page.locator("[data-testid=stDataFrame]").first
        table.scroll_into_view_if_needed()
        click_row(page, table, 2)
        expect(page.locator("h3").filter(has_text="Hand ").first).not_to_have_text(heading)
        expect(page.locator("strong", has_text="Street 1")).to_be_visible()
        heading = page.locator("h3").filter(has_text="Hand ").first.inner_text()
        page.screenshot(path=shots / "7-hand-from-table.png", full_page=True)
        no_exception(page)

        # the hand is in the URL: the bookmark opens the same hand
        bookmark = page.url
        assert re.search(r"[?&]hand=\d+", bookmark)
        page.goto(bookmark)
        expect(page.locator("h3").filter(has_text="Hand ").first).to_have_text(heading)
        browser.close()
    assert not errors, errors
