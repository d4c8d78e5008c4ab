"""Every page of the dashboard in headless Chromium, on the demo data: each loads without an
error and is saved as a screenshot under ``tests/screenshots/<label>/`` (git-ignored;
``OFC_SCREENSHOTS=before`` for a "before" set, ``after`` by default), to look at what each page
shows; on the analysis pages, clicking a bar lists its hands, and selecting one of those hands
opens it in Hand review.

Skipped only when there is no Chromium (``/usr/bin/chromium``) or Playwright.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from ofc_cli.cmd_dashboard import streamlit_command
from tests.test_browser import click_row, free_port, wait_healthy

ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run"]
PAGES = {"fouls": "Fouls", "fantasyland": "Fantasyland", "opponents": "Opponents",
         "variants": "Variants", "matches": "Matches", "sessions": "Sessions"}
"""The analysis pages: each draws a chart."""
OTHER_PAGES = {"": "Overview", "hands": "Hand review", "review": "Review", "import": "Import"}
"""The other pages (the URL path of Overview is empty)."""
SHOTS = Path(__file__).resolve().parent / "screenshots"

pytestmark = [pytest.mark.browser, pytest.mark.slow]


@pytest.fixture(scope="module")
def server(demo_db_path: Path, tmp_path_factory: pytest.TempPathFactory):
    db = tmp_path_factory.mktemp("browser") / "demo.duckdb"
    shutil.copy(demo_db_path, db)
    port = free_port()
    env = {**os.environ, "OFC_DB": str(db)}
    proc = subprocess.Popen(streamlit_command(db, port, "127.0.0.1"), env=env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    url = f"http://127.0.0.1:{port}"
    try:
        wait_healthy(url, proc)
        yield url
    finally:
        proc.terminate()
        proc.wait(timeout=20)


@pytest.fixture(scope="module")
def browser(chromium_path: str):  # type: ignore[no-untyped-def]
    from playwright import sync_api  # in the test extra: missing is a failure, not a skip

    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=chromium_path, args=ARGS)
        yield b
        b.close()


@pytest.fixture(scope="module")
def app_url(server: str, browser) -> str:  # type: ignore[no-untyped-def]
    """The server, after one visit to its default page: the first page a fresh server renders
    may flash Streamlit's "Page not found" dialog before running it anyway (a cold-start race
    of the app entry, not of a page), which would cover the screenshots."""
    page = _open(browser, server)
    page.get_by_role("heading", name="Overview").first.wait_for(timeout=60_000)
    page.close()
    return server


def _open(browser, url: str, height: int = 1000):  # type: ignore[no-untyped-def]
    """A new tab on ``url``; Streamlit scrolls inside the page, so a tall viewport is what
    makes a screenshot show the whole page."""
    page = browser.new_page(viewport={"width": 1400, "height": height})
    page.goto(url)
    page.wait_for_selector("[data-testid='stAppViewContainer']", timeout=60_000)
    return page


def _settle(page) -> None:  # type: ignore[no-untyped-def]
    """Wait until Streamlit has finished running the script and drawn its widgets (a loaded
    machine draws them well after the script ends: the skeletons say so)."""
    page.wait_for_timeout(500)
    page.wait_for_selector("[data-testid='stStatusWidget']", state="detached", timeout=60_000)
    page.wait_for_function("!document.querySelector(\"[data-testid='stSkeleton']\")",
                           timeout=120_000)
    page.wait_for_timeout(500)


def _saved(page, path: str) -> Path:  # type: ignore[no-untyped-def]
    """The whole page as a screenshot in this run's folder of :data:`SHOTS`."""
    folder = SHOTS / os.environ.get("OFC_SCREENSHOTS", "after")
    folder.mkdir(parents=True, exist_ok=True)
    shot = folder / f"{path or 'overview'}.png"
    page.screenshot(path=str(shot), full_page=True)
    assert shot.stat().st_size > 10_000
    return shot


@pytest.mark.parametrize("path", list(PAGES))
def test_page_renders(app_url: str, browser, path: str) -> None:
    page = _open(browser, f"{app_url}/{path}", height=3200)
    page.get_by_role("heading", name=PAGES[path]).first.wait_for(timeout=60_000)
    _settle(page)
    page.wait_for_selector(".js-plotly-plot", timeout=60_000)
    _saved(page, path)
    assert page.locator("[data-testid='stException']").count() == 0
    assert page.locator("[data-testid='stAlertContentError']").count() == 0
    page.close()


@pytest.mark.parametrize("path", list(OTHER_PAGES))
def test_other_page_renders(app_url: str, browser, path: str) -> None:
    page = _open(browser, f"{app_url}/{path}", height=3000)
    page.get_by_role("heading", name=OTHER_PAGES[path]).first.wait_for(timeout=60_000)
    _settle(page)
    _saved(page, path)
    assert page.locator("[data-testid='stException']").count() == 0, path
    page.close()


def documented_pages() -> dict[str, str]:
    """URL path -> page title, from the Pages table of docs/dashboard.md (a row naming several
    pages gives their paths in the same order)."""
    doc = (Path(__file__).resolve().parents[1] / "docs" / "dashboard.md").read_text()
    table = doc[doc.index("| page | URL path |"):]
    table = table[:table.index("\n\n")]
    pages: dict[str, str] = {}
    for line in table.splitlines()[2:]:
        cells = line.split("|")
        titles = [t.strip() for t in cells[1].split(",")]
        paths = re.findall(r"`(/[a-z_]*)`", cells[2])
        for title, path in zip(titles * len(paths) if len(titles) == 1 else titles, paths,
                               strict=False):
            pages[path] = title
    return pages


def test_every_url_the_docs_give_opens_its_page(app_url: str, browser) -> None:
    """``/overview`` too (issue 23): the default page is served at ``/``, and its own name
    used to open "Page not found"."""
    pages = documented_pages()
    assert {"/", "/overview", "/hands", "/review", "/import", "/sessions"} <= set(pages), pages
    for path, title in pages.items():
        page = _open(browser, f"{app_url}{path}?player=Hero")
        page.get_by_role("heading", name=title).first.wait_for(timeout=60_000)
        _settle(page)
        assert page.get_by_text("Page not found").count() == 0, path
        assert page.locator("[data-testid='stException']").count() == 0, path
        assert "player=Hero" in page.url, (path, page.url)  # the filters are kept
        page.close()


def test_a_bar_opens_its_hands_and_a_hand_opens_in_hand_review(app_url: str, browser,
                                                              tmp_path: Path) -> None:
    page = _open(browser, f"{app_url}/variants")
    page.get_by_role("heading", name="Variants").first.wait_for(timeout=60_000)
    _settle(page)
    bar = page.locator(".js-plotly-plot .bars .point path").first
    bar.scroll_into_view_if_needed()
    box = bar.bounding_box()
    assert box is not None
    page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    _settle(page)
    page.get_by_text("Select a hand to open it in Hand review.").wait_for(timeout=60_000)
    page.screenshot(path=str(tmp_path / "variants_hands.png"), full_page=True)
    grid = page.locator("[data-testid='stDataFrame']").last
    grid.scroll_into_view_if_needed()
    click_row(page, grid, 1)  # the first data row's selection box
    page.wait_for_url("**/hands?**", timeout=60_000)
    assert "hand=" in page.url
    page.get_by_text("Showdown").first.wait_for(timeout=60_000)
    page.screenshot(path=str(tmp_path / "hand_review.png"), full_page=True)
    page.close()
