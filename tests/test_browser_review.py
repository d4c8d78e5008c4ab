"""The review from the page, in Chromium, on the session's ``writable_dashboard``: upload a
small log of a player of its own (so the store is fresh for that player), start the review
from the Review page (standard precision, slow enough to be caught running), reload while it
runs and see its progress still there, have ``ofc review`` refused beside it with a message
naming the page's job, cancel once a hand is stored (what is stored stays), start it again for
the rest at quick precision, then read the accuracy, the classes, the leaks, and
a key moment in the replayer opened by "Replay". Screenshots under the test's ``tmp_path``."""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path

import pytest

from tests.helpers.browser import Dashboard, Page, metric_value, no_exception, server_env

pytestmark = pytest.mark.slow

DEMO = Path(__file__).resolve().parents[1] / "data" / "demo" / "pineapple.Hero.jsonl"
PLAYER = "Kestrel"
HANDS = 8


def small_log(folder: Path) -> Path:
    """The demo's first pineapple hands, played by a player no other test has."""
    lines = []
    for line in DEMO.read_text(encoding="utf-8").splitlines()[:HANDS]:
        hand = json.loads(line)
        hand["source"] = "browser-review"
        text = json.dumps(hand).replace('"Hero"', f'"{PLAYER}"')
        lines.append(text)
    path = folder / "kestrel.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def test_a_review_started_on_the_page_survives_a_reload_cancels_and_shows_its_findings(
        writable_dashboard: Dashboard, tab: Page, ofc_script: str, tmp_path: Path) -> None:
    from playwright.sync_api import expect

    server = writable_dashboard
    shots = tmp_path / "screenshots"
    shots.mkdir()
    page = tab
    page.goto(f"{server.url}/import")
    page.locator("[data-testid=stFileUploader] input[type=file]").set_input_files(
        small_log(tmp_path))
    page.get_by_role("button", name=re.compile(r"^Import 1 file")).click()
    expect(page.get_by_text(f"{HANDS} hands stored")).to_be_visible(timeout=30_000)

    page.goto(f"{server.url}/review?player={PLAYER}")
    expect(page.get_by_text("No reviewed decisions for these filters yet")).to_be_visible()
    start = page.get_by_role("button", name=f"Review {HANDS} hands of {PLAYER}")
    start.click()
    running = page.get_by_text(re.compile(f"reviewing {PLAYER}'s hands: \\d+ of {HANDS} done"))
    expect(running).to_be_visible(timeout=30_000)
    stored = page.get_by_text(re.compile(f"reviewing {PLAYER}'s hands: [1-{HANDS - 1}] of"))
    page.screenshot(path=shots / "1-running.png")

    page.reload()  # the job is a process of its own: its progress is still there
    expect(running).to_be_visible(timeout=30_000)
    expect(page.get_by_role("button", name="Cancel the review")).to_be_visible()

    beside = subprocess.run([ofc_script, "review", "--db", str(server.db), "--player", PLAYER],
                            capture_output=True, text=True, env=server_env(), timeout=120)
    assert beside.returncode == 3, beside.stderr
    assert "a review is already running" in beside.stderr
    assert "started by the dashboard" in beside.stderr

    expect(stored).to_be_visible(timeout=180_000)  # cancel once a hand is stored, before the end
    page.get_by_role("button", name="Cancel the review").click()
    expect(page.get_by_text(re.compile("The last review was cancelled"))).to_be_visible(
        timeout=60_000)
    page.screenshot(path=shots / "2-cancelled.png")
    no_exception(page)

    again = page.get_by_role("button", name=re.compile(f"Review \\d+ hands? of {PLAYER}"))
    expect(again).to_be_visible(timeout=30_000)
    left = int(re.search(r"Review (\d+)", again.inner_text()).group(1))  # type: ignore[union-attr]
    assert 0 < left < HANDS  # the cancelled job kept what it stored
    page.get_by_text("quick", exact=True).click()
    again.click()
    expect(page.get_by_text("The last review is done")).to_be_visible(timeout=240_000)
    expect(page.get_by_role("button", name="Nothing left to review")).to_be_visible()

    expect(metric_value(page, "Accuracy")).to_have_text(re.compile(r"^\d+\.\d$"))
    expect(metric_value(page, "?? · ? · ?!")).to_have_text(
        re.compile(r"^\d+ · \d+ · \d+$"))
    expect(page.get_by_role("heading", name="Classes by stage of the hand")).to_be_visible()
    expect(page.get_by_role("heading", name="Leaks by situation")).to_be_visible()
    page.screenshot(path=shots / "3-review-page.png", full_page=True)
    no_exception(page)

    page.get_by_role("button", name="Replay").first.click()
    expect(page.get_by_role("heading", name="Hand review")).to_be_visible()
    expect(page.get_by_text(f"Key moments of {PLAYER}")).to_be_visible()
    expect(page.get_by_role("button", name=re.compile(r"^Street 1"))).to_be_visible()
    expect(page.get_by_text(re.compile(f"Review of {PLAYER}'s"))).to_be_in_viewport()
    page.screenshot(path=shots / "4-key-moments.png")
    no_exception(page)
    assert "Traceback" not in server.log_text(), server.log_text()[-3000:]
