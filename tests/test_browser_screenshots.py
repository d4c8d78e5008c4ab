"""Every page of the dashboard in headless Chromium on the demo data, saved as a screenshot
under ``tests/screenshots/<label>/`` (git-ignored; ``OFC_SCREENSHOTS=before`` for a "before"
set, ``after`` by default), to look at what each page shows. Each page must render without an
exception or an error box.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.test_browser_analysis import browser, server  # noqa: F401, F811 (the same fixtures)

PAGES = {"": "Overview", "hands": "Hand review", "sessions": "Sessions",
         "matches": "Matches", "opponents": "Opponents", "fouls": "Fouls",
         "fantasyland": "Fantasyland", "review": "Review", "variants": "Variants",
         "import": "Import"}
SHOTS = Path(__file__).resolve().parent / "screenshots"

pytestmark = [pytest.mark.browser, pytest.mark.slow]


def _settle(page) -> None:  # type: ignore[no-untyped-def]
    page.wait_for_timeout(500)
    page.wait_for_selector("[data-testid='stStatusWidget']", state="detached", timeout=60_000)
    # a loaded machine draws the widgets well after the script ends: wait for the skeletons
    page.wait_for_function("!document.querySelector(\"[data-testid='stSkeleton']\")",
                           timeout=120_000)
    page.wait_for_timeout(800)


def test_every_page_screenshot(server: str, browser) -> None:  # type: ignore[no-untyped-def]  # noqa: F811
    folder = SHOTS / os.environ.get("OFC_SCREENSHOTS", "after")
    folder.mkdir(parents=True, exist_ok=True)
    warm = browser.new_page(viewport={"width": 1400, "height": 1000})
    warm.goto(server)
    warm.get_by_role("heading", name="Overview").first.wait_for(timeout=60_000)
    warm.close()
    for path, title in PAGES.items():
        page = browser.new_page(viewport={"width": 1400, "height": 3000})
        page.goto(f"{server}/{path}")
        page.get_by_role("heading", name=title).first.wait_for(timeout=60_000)
        _settle(page)
        shot = folder / f"{path or 'overview'}.png"
        page.screenshot(path=str(shot), full_page=True)
        assert shot.stat().st_size > 10_000
        assert page.locator("[data-testid='stException']").count() == 0, path
        page.close()
