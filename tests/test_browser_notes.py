"""In Chromium, on the session's ``writable_dashboard`` (the demo store and what other tests
wrote; the notes and tags here are this module's own): a note and a new tag typed into
an editor and saved at once, without waiting for the page between the steps (as a quick user
on a slow machine does, issue 26), are both stored: they are there after the save and after a
reload. In Hand review the sidebar's tag filter then keeps that one hand; on Opponents the
note is on the opponent.

Every wait is for something the page shows (the "Saved at" line, a value, a list entry), never
a fixed time: a loaded machine runs the page slowly, and the test then waits longer.
"""

from __future__ import annotations

import re

from playwright.sync_api import Locator, Page, expect
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from tests.helpers.browser import Dashboard, open_page, wait_still

TAG = "Check river ✓"
NOTE = "<b>not bold</b> gave up a flush draw"
SAVED = re.compile(r"Saved at \d\d:\d\d:\d\d\.")
"""The line under an editor after a save (with the time: a second save changes it)."""
WAIT = 120_000
"""Milliseconds a page may take to show what the test waits for (a loaded 2-core machine runs a
page in seconds, at worst in a minute)."""


def note_editor(page: Page, label: str, *, opened: bool) -> Locator:
    """The editor whose expander's label starts with ``label``: opened by a click, or
    (``opened``) already open, as it is on a hand or player with a note or tags."""
    box = page.get_by_test_id("stExpander").filter(
        has=page.locator("summary", has_text=label)).first
    if not opened:
        box.locator("summary").click(timeout=WAIT)
        wait_still(box)  # the expander opens by a transition
    expect(box.get_by_label("Note", exact=True)).to_be_visible(timeout=WAIT)
    return box


def type_tag_and_save(page: Page, box: Locator, note: str, tag: str) -> None:
    """Type ``note``, add the new ``tag`` and press Save, one step straight after the other."""
    box.get_by_label("Note", exact=True).fill(note)
    box.get_by_test_id("stMultiSelect").locator("input").click()
    page.keyboard.type(tag)
    page.keyboard.press("Enter")
    page.keyboard.press("Escape")
    box.get_by_role("button", name="Save note and tags").click()


def expect_shown(box: Locator, note: str, tag: str) -> None:
    """The editor shows ``note`` in its text area and ``tag`` among its chosen tags."""
    expect(box.get_by_label("Note", exact=True)).to_have_value(note, timeout=WAIT)
    expect(box.get_by_test_id("stMultiSelectTagsContainer")).to_contain_text(tag,
                                                                             timeout=WAIT)


def choose_tag(page: Page, tag: str) -> None:
    """Pick ``tag`` in the sidebar's Tag filter by the keyboard, as a user can: open the list,
    type the tag, press Enter; again until the page's address carries the filter (a page
    still drawing may close the list, or replace its options while a pointer would wait for
    them to hold still: seen in fresh-clone CI runs)."""
    box = page.locator("[data-testid='stSidebar'] [data-testid='stSelectbox']").filter(
        has_text="Tag").first
    for _ in range(8):
        box.click(timeout=WAIT)
        page.keyboard.type(tag)
        page.keyboard.press("Enter")
        try:
            page.wait_for_url(re.compile(r"[?&]tag="), timeout=10_000)
            return
        except PlaywrightTimeout:
            page.keyboard.press("Escape")
    page.wait_for_url(re.compile(r"[?&]tag="), timeout=WAIT)


def test_a_note_and_tag_saved_at_once_in_the_replayer_come_back_and_filter_the_hands(
        writable_dashboard: Dashboard, tab: Page) -> None:
    page = open_page(tab, f"{writable_dashboard.url}/hands?player=Hero")
    page.wait_for_url(re.compile(r"[?&]hand=\d+"), timeout=WAIT)  # the hand shown is chosen
    title = page.locator("h3").first
    expect(title).to_have_text(re.compile(r"^Hand "), timeout=WAIT)
    hand = title.inner_text()
    box = note_editor(page, "Note and tags", opened=False)
    type_tag_and_save(page, box, NOTE, TAG)
    expect(box.get_by_text(SAVED)).to_be_visible(timeout=WAIT)  # what a user waits for
    expect_shown(box, NOTE, TAG)
    assert page.locator("b", has_text="not bold").count() == 0  # text, never HTML

    page.reload()  # a new session: what it shows comes from the store
    box = note_editor(page, "Note and tags", opened=True)
    expect_shown(box, NOTE, TAG)
    assert page.locator("h3").first.inner_text() == hand
    choose_tag(page, TAG)
    expect(page.get_by_text("hands 1–1 of 1").first).to_be_visible(timeout=WAIT)
    expect(page.locator("h3").first).to_have_text(hand, timeout=WAIT)
    assert "tag=" in page.url


def test_an_opponent_note_and_tag_saved_at_once_come_back_after_a_reload(
        writable_dashboard: Dashboard, tab: Page) -> None:
    note, tag = "doubles light, <i>never</i> folds", "Station ✓"
    page = open_page(tab, f"{writable_dashboard.url}/opponents?player=Hero")
    box = note_editor(page, "Your note and tags on", opened=False)
    type_tag_and_save(page, box, note, tag)
    expect(box.get_by_text(SAVED)).to_be_visible(timeout=WAIT)  # what a user waits for
    expect_shown(box, note, tag)

    page.reload()
    expect_shown(note_editor(page, "Your note and tags on", opened=True), note, tag)
    assert page.locator("i", has_text="never").count() == 0
