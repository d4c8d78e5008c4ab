"""Clicks on the placement board (:mod:`dashboard.placement_board`) in Chromium: a card, a
row or the discard, undo, confirm; and a whole street placed legally by clicks."""

from __future__ import annotations

import re
from typing import Any

from tests.helpers.browser import wait_run_over

Page = Any
TARGETS = ("top", "middle", "bottom", "discard")


def after_click(page: Page) -> None:
    """Wait for the run a click asked for to end."""
    page.wait_for_timeout(300)
    wait_run_over(page)


def dealt_cards(page: Page) -> list[int]:
    """The card indexes of the dealt cards not placed yet, in order."""
    found = []
    for element in page.locator("[class*='-card-']").all():
        key = re.search(r"st-key-[\w-]*-card-(\d+)", element.get_attribute("class") or "")
        if key:
            found.append(int(key.group(1)))
    return found


BOARD_STATE = """() => {
    const cards = [...document.querySelectorAll("[class*='-card-']")].map(e =>
        (e.className.match(/-card-(\\d+)/) || [])[1]
        + (e.querySelector("[data-testid='stBaseButton-primary']") ? "*" : ""));
    const said = [...document.querySelectorAll("[data-testid='stAlertContentWarning']")]
        .map(e => e.innerText);
    const rows = [...document.querySelectorAll("[class*='-to-'] button")].map(b => b.innerText);
    const confirm = [...document.querySelectorAll("[class*='-confirm'] button")]
        .map(b => b.disabled);
    return JSON.stringify([cards, said, rows, confirm]);
}"""
"""What a click on the board changes: the cards to click (and which is chosen), the line
saying why a move was refused, the rows' free places, the confirm button."""
CHANGE_MS = 3000
"""The longest a click waits for the board to change (a click that changes nothing, such as
the same refusal again, then waits for the run to be over)."""


def click_board(page: Page, selector: str) -> None:
    """Click ``selector`` on the board and wait for the board to change and the run to be
    over: no fixed pause (a board's click shows at once in what :data:`BOARD_STATE` reads)."""
    before = page.evaluate(BOARD_STATE)
    page.locator(selector).first.click()
    try:
        page.wait_for_function(f"before => ({BOARD_STATE})() !== before", arg=before,
                               timeout=CHANGE_MS, polling=20)
    except Exception:  # Playwright's TimeoutError: nothing changed; the run still ends
        pass
    wait_run_over(page)


def click_card(page: Page, card: int) -> None:
    click_board(page, f"[class*='-card-{card} '] button")


def click_target(page: Page, target: int) -> None:
    click_board(page, f"[class*='-to-{target} '] button")


def free(page: Page, target: int) -> int:
    """The free places a row (or the discard) shows; -1 when it is not shown."""
    button = page.locator(f"[class*='-to-{target} '] button")
    if not button.count():
        return -1
    found = re.search(r"(\d+) free", button.first.inner_text())
    return int(found.group(1)) if found else -1


def refusal(page: Page) -> str:
    """The board's line saying why the last move was refused ('' when none)."""
    alert = page.locator("[data-testid='stAlertContentWarning']")
    return alert.first.inner_text().splitlines()[-1].strip() if alert.count() else ""


def confirm(page: Page) -> None:
    click_board(page, "[class*='-confirm'] button")


def place_street(page: Page, order: tuple[int, ...] = (3, 2, 1, 0)) -> None:
    """Place every dealt card: each on the first of ``order`` (discard, bottom, middle, top)
    with a free place, then confirm."""
    while cards := dealt_cards(page):
        click_card(page, cards[0])
        target = next(t for t in order if free(page, t) > 0)
        click_target(page, target)
    confirm(page)
