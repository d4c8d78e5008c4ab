"""Every page of the dashboard in headless Chromium, on the demo data (the session's read-only
``demo_dashboard``), visited one after another in one tab: each loads without an error and is
saved as a screenshot under ``tests/screenshots/<label>/`` (git-ignored;
``OFC_SCREENSHOTS=before`` for a "before" set, ``after`` by default), to look at what each page
shows; on the analysis pages, clicking a bar lists its hands, and selecting one of those hands
opens it in Hand review.

The pages visited are those of docs/dashboard.md's Pages table, which must list every page of
``dashboard/app.py``'s ``PAGES`` (``tests.helpers.site``; ``tests/test_recipes.py`` checks it
without a browser). Skipped only when there is no Chromium (``chromium_path``) or Playwright.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.helpers.browser import (
    Dashboard,
    Page,
    click_row,
    open_page,
    save_screenshot,
    settle_drawn,
)
from tests.helpers.site import app_pages, documented_pages

PAGES = {"fouls": "Fouls", "fantasyland": "Fantasyland", "opponents": "Opponents",
         "variants": "Variants", "matches": "Matches", "sessions": "Sessions"}
"""The analysis pages: each draws a chart."""

pytestmark = pytest.mark.slow


def _check_page(page: Page, url: str, path: str, title: str) -> None:
    """Open ``path`` (a documented URL path, ``/`` for Overview) in ``page`` with a filter in its
    URL, wait until it is drawn, save it, and check that it is the page named ``title``, shows
    no "Page not found" and no exception, keeps the filter, and, for an analysis page, draws its
    chart and no error message."""
    page.goto(f"{url}{path}?player=Hero")
    page.wait_for_selector("[data-testid='stAppViewContainer']", timeout=60_000)
    page.get_by_role("heading", name=title).first.wait_for(timeout=60_000)
    settle_drawn(page)
    analysis = path.strip("/") in PAGES
    if analysis:  # a Plotly chart, or a Vega-Lite one (Variants, Matches)
        page.wait_for_selector(".js-plotly-plot, [data-testid='stVegaLiteChart'] .marks",
                               timeout=60_000)
    save_screenshot(page, path.strip("/") or "overview")
    if path.strip("/") == "review" and not page.get_by_text("No reviewed decisions").count():
        # its Vega-Lite chart: all four panels drawn (a bad spec draws none, or one row)
        chart = page.locator("[data-testid='stVegaLiteChart']")
        for panel in ("By street", "By kind of decision", "By day", "By variant"):
            chart.locator("text", has_text=panel).first.wait_for(timeout=60_000)
    assert page.get_by_text("Page not found").count() == 0, path
    assert page.locator("[data-testid='stException']").count() == 0, path
    assert "player=Hero" in page.url, (path, page.url)  # the filters are kept
    if analysis:
        assert page.locator("[data-testid='stAlertContentError']").count() == 0, path


def test_every_page_and_every_url_the_docs_give_renders(demo_dashboard: Dashboard,
                                                        tab) -> None:  # type: ignore[no-untyped-def]
    """Every URL of docs/dashboard.md's Pages table, ``/overview`` too (issue 23: the default
    page is served at ``/``, and its own name used to open "Page not found"), and with them
    every page of the app, in one tab (a tall one: the screenshots show whole pages); every
    page is checked, and the failures are reported together, each under its URL."""
    pages = documented_pages()
    assert {"/", "/overview", "/hands", "/review", "/import", "/sessions"} <= set(pages), pages
    assert app_pages().items() <= pages.items(), "a page missing from docs/dashboard.md"
    page = tab
    page.set_viewport_size({"width": 1400, "height": 3200})
    failures: dict[str, str] = {}
    for path, title in pages.items():
        try:
            _check_page(page, demo_dashboard.url, path, title)
        except Exception as exc:  # noqa: BLE001 (one page's failure, reported below)
            failures[path] = f"{type(exc).__name__}: {exc}"[:2000]
    assert not failures, failures


def test_a_bar_opens_its_hands_and_a_hand_opens_in_hand_review(demo_dashboard: Dashboard,
                                                              tab,  # type: ignore[no-untyped-def]
                                                              tmp_path: Path) -> None:
    page = open_page(tab, f"{demo_dashboard.url}/variants")
    page.get_by_role("heading", name="Variants").first.wait_for(timeout=60_000)
    settle_drawn(page)
    bar = page.locator("[data-testid='stVegaLiteChart'] .mark-rect path").first  # Vega-Lite
    bar.scroll_into_view_if_needed()
    box = bar.bounding_box()
    assert box is not None
    page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    settle_drawn(page)
    page.get_by_text("Select a hand to open it in Hand review.").wait_for(timeout=60_000)
    page.screenshot(path=str(tmp_path / "variants_hands.png"), full_page=True)
    grid = page.locator("[data-testid='stDataFrame']").last
    grid.scroll_into_view_if_needed()
    click_row(page, grid, 1)  # the first data row's selection box
    page.wait_for_url("**/hands?**", timeout=60_000)
    assert "hand=" in page.url
    page.get_by_text("Showdown").first.wait_for(timeout=60_000)
    page.screenshot(path=str(tmp_path / "hand_review.png"), full_page=True)
