"""End to end in headless Chromium: ``ofc dashboard`` on a fresh database (the demo sample
loaded at its first start: the session's ``writable_dashboard``), upload a log, see its hands on
the Overview, open a hand in Hand review and step through it.

Screenshots are saved under the test's ``tmp_path``. Chromium is Debian's (Playwright's own
browser download is not used): see the ``chromium_path`` fixture in ``conftest.py``.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from ofc_cli.cli import main as ofc
from tests.helpers.browser import Dashboard, Page, click_row, metric, no_exception, settle

UPLOAD_HANDS = 20

pytestmark = pytest.mark.slow


def simulated_log(tmp_path: Path) -> Path:
    """A fresh pineapple session of the demo's hero, newer than any other test's hands
    (``ofc simulate`` called in this process: a subprocess proved nothing more)."""
    assert ofc(["simulate", "--variant", "pineapple", "--players", "2", "--hands",
                str(UPLOAD_HANDS), "--seed", "4242", "--names", "Hero,Bob", "--perspective",
                "hero", "--hero", "Hero", "--start", "2027-06-05T20:00:00+01:00",
                "--session-prefix", "browser", "--out", str(tmp_path / "upload.jsonl")]) == 0
    return next(tmp_path.glob("upload*.jsonl"))


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


def test_upload_overview_and_replay_in_chromium(writable_dashboard: Dashboard, tab: Page,
                                                 tmp_path: Path) -> None:
    """Uploads the newest hands of the session's writable server (June 2027): the Overview's
    last point and newest session are this upload's."""
    from playwright.sync_api import expect

    dashboard = writable_dashboard.url
    upload = simulated_log(tmp_path)
    shots = tmp_path / "screenshots"
    shots.mkdir()
    page = tab
    errors: list[str] = []

    def on_error(error: object) -> None:
        errors.append(str(error))

    page.on("pageerror", on_error)  # removed at the end: the tab is the worker's

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
    # the upload brought a hero in: "Who are you?" offers it, picked, at once (the server is
    # shared: other tests' uploads may have given Hero more hands)
    asked = page.locator("[data-testid=stMultiSelect]").first
    expect(asked.get_by_text(re.compile(r"Hero \(hero of [\d,]+ hands"))).to_be_visible(
        timeout=10_000)

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
        settle(page)  # a click while the last one's run redraws the page can be lost
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
    page.remove_listener("pageerror", on_error)
    assert not errors, errors
