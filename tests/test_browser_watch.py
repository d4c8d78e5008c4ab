"""A watched folder in headless Chromium: add it on the Import page, drop a log into it while
the page is open, and see its hands appear on the page's status line (the server's watcher
imports it in the background; the status redraws itself) and on the Overview's hand count,
within a bounded time. Screenshots are saved under the test's ``tmp_path``."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest

from tests.test_browser_analysis import browser, server  # noqa: F401 (the same fixtures)

pytestmark = [pytest.mark.browser, pytest.mark.slow]

DEMO = Path(__file__).resolve().parents[1] / "data" / "demo" / "regular.Hero.jsonl"
DROPPED = 6
BOUND_SECONDS = 60.0


def _log(path: Path, prefix: str, count: int) -> None:
    lines = []
    for n, line in enumerate(DEMO.read_text(encoding="utf-8").splitlines()[:count]):
        hand = json.loads(line)
        hand["hand_id"], hand["session_id"] = f"{prefix}-{n}", prefix
        hand["played_at"] = f"2027-01-05T20:{n:02d}:00+01:00"  # the newest session
        lines.append(json.dumps(hand))
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


def _hands_metric(page) -> int:  # type: ignore[no-untyped-def]
    box = page.locator("[data-testid=stMetric]").filter(has_text="Hands").first
    box.wait_for(timeout=60_000)
    return int(box.locator("[data-testid=stMetricValue]").inner_text().replace(",", ""))


def _no_errors(page) -> None:  # type: ignore[no-untyped-def]
    for kind in ("stException", "stAlertContentError"):
        found = page.locator(f"[data-testid='{kind}']")
        assert found.count() == 0, found.first.inner_text()


def test_a_file_dropped_into_a_watched_folder_shows_up(
        server: str, browser, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]  # noqa: F811
    from playwright.sync_api import expect

    folder = tmp_path / "client logs"  # a space, as on many desktops
    folder.mkdir()
    shots = tmp_path / "screenshots"
    shots.mkdir()
    page = browser.new_page(viewport={"width": 1400, "height": 1800})
    page.set_default_timeout(60_000)
    expect.set_options(timeout=60_000)
    page.goto(server)
    before = _hands_metric(page)

    page.goto(f"{server}/import")
    page.get_by_role("heading", name="Watched folders").wait_for()
    page.get_by_label("Folder to watch").fill(str(folder / "missing"))
    page.get_by_role("button", name="Watch", exact=True).click()
    expect(page.get_by_text("missing: no such folder")).to_be_visible()

    page.get_by_label("Folder to watch").fill(str(folder))
    page.get_by_role("button", name="Watch", exact=True).click()
    expect(page.get_by_text(str(folder.resolve()), exact=True)).to_be_visible()
    expect(page.get_by_text("0 files · 0 hands")).to_be_visible()

    dropped = time.monotonic()
    _log(folder / "session.jsonl", "browser-watch", DROPPED)  # while the page is open
    expect(page.get_by_text(f"1 file · {DROPPED} hands · no errors")).to_be_visible(
        timeout=BOUND_SECONDS * 1000)
    seen = time.monotonic() - dropped
    print(f"watched folder: {DROPPED} hands on the page {seen:.1f} s after the drop")
    page.screenshot(path=str(shots / "import-watched-folder.png"), full_page=True)
    _no_errors(page)

    page.goto(server)
    expect(page.locator("[data-testid=stMetric]").filter(has_text="Hands").first.locator(
        "[data-testid=stMetricValue]")).to_have_text(f"{before + DROPPED:,}")
    page.screenshot(path=str(shots / "overview-after-watch.png"))
    _no_errors(page)
    page.close()
