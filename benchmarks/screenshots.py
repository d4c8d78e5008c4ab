"""Screenshots of every dashboard page at 1,280 px wide, from the demo, for the docs.

    python benchmarks/screenshots.py                 # into docs/img/, from a fresh demo store
    python benchmarks/screenshots.py --db my.duckdb --out /tmp/shots --width 1440
    python benchmarks/screenshots.py --review         # the review's pictures, into docs/images/

It imports the demo sample (``data/demo``) into a fresh store in a temporary folder (or uses
``--db``), starts ``ofc dashboard`` on it, opens each page of ``dashboard/app.py``'s ``PAGES``
in headless Chromium (``/usr/bin/chromium-headless-shell``, or ``OFC_CHROMIUM``) and writes
``<url path>.png`` (the whole page, ``overview.png`` for the first page) into ``--out``. The
same command keeps the pictures of ``docs/dashboard.md`` and the README current: run it after
a change a user would see. ``--review`` takes the pictures of docs/review.md and docs/dashboard.md
instead: ``ofc review`` of Hero's last 40 pineapple hands run beside the page (the job's progress,
``review-job.png``), the Review page once it is done (``review-page.png``) and the key moments of
its first "Replay" (``review-key-moments.png``). Not a benchmark: it lives here with the other
scripts that drive a whole dashboard.
"""

from __future__ import annotations

import argparse
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from dashboard.app import PAGES  # noqa: E402

CHROMIUM = os.environ.get("OFC_CHROMIUM", "/usr/bin/chromium-headless-shell")
DONE = """() => {
    const app = document.querySelector("[data-testid='stApp']");
    return app !== null && app.dataset.testScriptState === "notRunning"
        && !document.querySelector("[data-testid='stStatusWidget'], [data-testid='stSkeleton']");
}"""
"""Streamlit's run is over and its widgets drawn (as tests/helpers/browser.py waits)."""
TALL = """() => Math.max(...[...document.querySelectorAll(
    "[data-testid='stMain'], [data-testid='stSidebarContent']")].map(e => e.scrollHeight))"""
"""The height of the page's content (the main block or the sidebar, the taller)."""
BROWSER_ARGS = ["--no-sandbox", "--disable-gpu", "--no-first-run"]


def ofc_command() -> str:
    """The ``ofc`` script of this environment."""
    return shutil.which("ofc") or str(Path(sys.executable).parent / "ofc")


def demo_store(folder: Path) -> Path:
    """A fresh store holding the demo sample."""
    from ingest.api import import_paths

    db = folder / "demo.duckdb"
    import_paths(sorted((ROOT / "data" / "demo").glob("*.jsonl")), db)
    return db


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def start(db: Path, folder: Path) -> tuple[subprocess.Popen[bytes], str]:
    """``ofc dashboard`` on ``db``, once it answers its health check."""
    port = free_port()
    ofc = ofc_command()
    log = (folder / "dashboard.log").open("wb")
    env = {k: v for k, v in os.environ.items() if k != "OFC_DB"}
    proc = subprocess.Popen([ofc, "dashboard", "--db", str(db), "--port", str(port),
                             "--address", "127.0.0.1"], stdout=log, stderr=subprocess.STDOUT,
                            env=env, start_new_session=True, cwd=folder)
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise SystemExit(f"ofc dashboard exited: see {folder / 'dashboard.log'}")
        try:
            with urllib.request.urlopen(f"{url}/_stcore/health", timeout=2):
                return proc, url
        except OSError:
            time.sleep(0.3)
    raise SystemExit("the dashboard did not start in 120 s")


def shoot(url: str, out: Path, width: int, pages: list[tuple[str, str]]) -> list[Path]:
    """One whole-page screenshot per ``(url path, file stem)``."""
    from playwright.sync_api import sync_playwright

    written = []
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=BROWSER_ARGS)
        tab = browser.new_page(viewport={"width": width, "height": 900})
        for path, stem in pages:
            tab.set_viewport_size({"width": width, "height": 900})
            tab.goto(f"{url}/{path}")
            tab.wait_for_selector("[data-testid='stAppViewContainer']", timeout=60_000)
            tab.wait_for_function(DONE, timeout=120_000)
            tab.wait_for_timeout(1500)  # plotly and the grids draw after the run
            # Streamlit scrolls inside its main block: a viewport as tall as that block's
            # content is what puts the whole page in the picture
            tall = tab.evaluate(TALL)
            tab.set_viewport_size({"width": width, "height": min(max(900, tall), 12_000)})
            tab.wait_for_timeout(800)
            shot = out / f"{stem}.png"
            tab.screenshot(path=str(shot), full_page=True)
            written.append(shot)
            print(f"{shot} ({shot.stat().st_size // 1024} KiB)")
        browser.close()
    return written


REVIEWED = ("--player", "Hero", "--variant", "pineapple", "--hands", "40")
"""The review ``--review`` runs: long enough (about a minute) to be seen running."""


def shoot_review(url: str, db: Path, out: Path, width: int) -> list[Path]:
    """The review's three pictures (module docstring), the store's Hero reviewed on the way."""
    import re

    from playwright.sync_api import expect, sync_playwright

    ofc = ofc_command()
    shots = [out / f"review-{stem}.png" for stem in ("job", "page", "key-moments")]
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=BROWSER_ARGS)
        tab = browser.new_page(viewport={"width": width, "height": 900})
        review = f"{url}/review?player=Hero"
        tab.goto(review)
        tab.wait_for_function(DONE, timeout=120_000)
        job = subprocess.Popen([ofc, "review", "--db", str(db), *REVIEWED],
                               stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        running = tab.get_by_text(re.compile(r"reviewing Hero's hands: [1-9]\d* of 40 done"))
        for _ in range(60):  # the page follows a job it finds running when it is drawn
            tab.goto(review)
            try:
                expect(running).to_be_visible(timeout=8_000)
                break
            except AssertionError:
                continue
        tab.screenshot(path=str(shots[0]))
        _, err = job.communicate()
        if job.returncode != 0:
            raise SystemExit(f"ofc review failed: {err.decode()}")
        tab.goto(review)
        expect(tab.get_by_text("The last review is done")).to_be_visible(timeout=60_000)
        tab.set_viewport_size({"width": width, "height": 1350})
        tab.wait_for_timeout(2500)  # the charts draw after the run
        tab.screenshot(path=str(shots[1]))
        tab.set_viewport_size({"width": width, "height": 900})
        tab.get_by_role("button", name="Replay").first.click()
        expect(tab.get_by_text("Key moments of Hero")).to_be_visible(timeout=60_000)
        tab.wait_for_timeout(2500)
        tab.get_by_role("heading", name="Replayer").evaluate(
            "e => e.scrollIntoView({block: 'start'})")
        tab.mouse.move(5, 5)  # no button hovered
        tab.wait_for_timeout(800)
        tab.screenshot(path=str(shots[2]))
        browser.close()
    for shot in shots:
        print(f"{shot} ({shot.stat().st_size // 1024} KiB)")
    return shots


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--db", type=Path, help="a store to show (default: a fresh demo store)")
    parser.add_argument("--out", type=Path, help="default docs/img (docs/images with --review)")
    parser.add_argument("--width", type=int, default=1280)
    parser.add_argument("--only", nargs="*", help="url paths of the pages to take (default all)")
    parser.add_argument("--review", action="store_true",
                        help="the review's pictures (reviews Hero's last 40 pineapple hands)")
    args = parser.parse_args(argv)
    args.out = args.out or ROOT / "docs" / ("images" if args.review else "img")
    args.out.mkdir(parents=True, exist_ok=True)
    pages = [(url, url or "overview") for _, _, _, url in PAGES]
    if args.only:
        pages = [p for p in pages if p[1] in args.only or p[0] in args.only]
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        db = args.db or demo_store(folder)
        proc, url = start(db, folder)
        try:
            if args.review:
                shoot_review(url, db, args.out, args.width)
            else:
                shoot(url, args.out, args.width, pages)
        finally:
            os.killpg(proc.pid, signal.SIGTERM)
            proc.wait(timeout=30)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
