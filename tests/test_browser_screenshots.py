"""Every page of the dashboard in headless Chromium on the demo data, saved as a screenshot
under ``tests/screenshots/<label>/`` (git-ignored; ``OFC_SCREENSHOTS=before`` for a "before"
set, ``after`` by default), to look at what each page shows. Each page must render without an
exception or an error box.
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import time
import urllib.request
from pathlib import Path

import pytest

from ofc_cli.cmd_dashboard import streamlit_command

ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run"]
PAGES = {"": "Overview", "hands": "Hand review", "sessions": "Sessions",
         "matches": "Matches", "opponents": "Opponents", "fouls": "Fouls",
         "fantasyland": "Fantasyland", "variants": "Variants", "import": "Import"}
SHOTS = Path(__file__).resolve().parent / "screenshots"

pytestmark = [pytest.mark.browser, pytest.mark.slow]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture(scope="module")
def server(demo_db_path: Path, tmp_path_factory: pytest.TempPathFactory):  # type: ignore[no-untyped-def]
    db = tmp_path_factory.mktemp("shots") / "demo.duckdb"
    shutil.copy(demo_db_path, db)
    port = _free_port()
    env = {**os.environ, "OFC_DB": str(db)}
    proc = subprocess.Popen(streamlit_command(db, port, "127.0.0.1"), env=env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    url = f"http://127.0.0.1:{port}"
    try:
        for _ in range(120):
            try:
                urllib.request.urlopen(f"{url}/_stcore/health", timeout=1)
                break
            except OSError:
                time.sleep(0.5)
        else:
            pytest.fail("the dashboard did not start within a minute")
        yield url
    finally:
        proc.terminate()
        proc.wait(timeout=20)


@pytest.fixture(scope="module")
def browser(chromium_path: str):  # type: ignore[no-untyped-def]
    from playwright import sync_api

    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=chromium_path, args=ARGS)
        yield b
        b.close()


def _settle(page) -> None:  # type: ignore[no-untyped-def]
    page.wait_for_timeout(500)
    page.wait_for_selector("[data-testid='stStatusWidget']", state="detached", timeout=60_000)
    # a loaded machine draws the widgets well after the script ends: wait for the skeletons
    page.wait_for_function("!document.querySelector(\"[data-testid='stSkeleton']\")",
                           timeout=120_000)
    page.wait_for_timeout(800)


def test_every_page_screenshot(server: str, browser) -> None:  # type: ignore[no-untyped-def]
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
