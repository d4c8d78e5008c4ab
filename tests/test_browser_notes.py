"""In Chromium: a note and a new tag typed into Hand review's editor are saved, and the sidebar's
tag filter then keeps that one hand (on the session's ``writable_dashboard``: the tag is this
test's own)."""

from __future__ import annotations

from pathlib import Path

from tests.helpers.browser import Dashboard, open_page
from tests.helpers.browser import settle_drawn as _settle

TAG = "Check river ✓"


def choose_tag(page, tag: str) -> None:  # type: ignore[no-untyped-def]
    """Pick ``tag`` in the sidebar's Tag filter (opened again if a rerun closed it)."""
    box = page.locator("[data-testid='stSidebar'] [data-testid='stSelectbox']").filter(
        has_text="Tag").first
    option = page.get_by_role("option", name=tag)
    for _ in range(3):
        _settle(page)
        box.click()
        try:
            option.wait_for(timeout=10_000)
            break
        except Exception:  # noqa: BLE001 (Playwright's timeout: the list closed; open it again)
            page.keyboard.press("Escape")
    option.click()


def test_a_tag_typed_in_the_replayer_filters_the_hands(writable_dashboard: Dashboard,
                                                       browser,  # type: ignore[no-untyped-def]
                                                       tmp_path: Path) -> None:
    page = open_page(browser, f"{writable_dashboard.url}/hands?player=Hero")
    page.get_by_role("heading", name="Hand review").first.wait_for(timeout=60_000)
    _settle(page)
    title = page.locator("h3").first.inner_text()
    page.get_by_text("Note and tags").first.click()
    page.get_by_label("Note").fill("<b>not bold</b> gave up a flush draw")
    page.keyboard.press("Control+Enter")  # a text area sends its value on Ctrl+Enter
    _settle(page)
    page.locator("[data-testid='stMultiSelect'] input").first.click()
    page.keyboard.type(TAG)
    page.keyboard.press("Enter")
    page.keyboard.press("Escape")
    _settle(page)
    page.get_by_role("button", name="Save note and tags").click()
    _settle(page)
    page.screenshot(path=str(tmp_path / "hand_note.png"), full_page=True)
    assert page.locator("textarea").first.input_value() == \
        "<b>not bold</b> gave up a flush draw"
    assert page.locator("b", has_text="not bold").count() == 0  # text, never HTML

    choose_tag(page, TAG)
    _settle(page)
    page.get_by_text("hands 1–1 of 1").first.wait_for(timeout=30_000)
    assert page.locator("h3").first.inner_text() == title
    assert "tag=" in page.url
    page.close()
