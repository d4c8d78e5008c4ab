"""In headless Chromium: words, not codes (issue 39). Every page of the app's menu
(``dashboard/app.py``'s PAGES: a new page is scanned without an edit here; Hand review with
its newest hand open) shows, on the demo and on the real-capture fixtures, in its visible text
(the main block, the sidebar and the tables' cells, which the grid keeps in an accessible
table) no snake_case header, no UUID, no ``None``, no ``nan`` and no raw room or ruleset code,
and at 1,280 px no table scrolls sideways (its main columns fit beside the sidebar);
and the pages say what the address asks for that the hands do not have.

The real-capture store is the writable dashboard's (``tests/helpers/captures.py``, which
holds the same files whichever test imports them first).
"""

from __future__ import annotations

import re
from urllib.parse import quote

import pytest

from dashboard.app import PAGES
from dashboard.widgets import ALL_COLUMNS
from tests.helpers.browser import Dashboard, Page, open_page, wait_run_over
from tests.helpers.captures import with_captures

pytestmark = pytest.mark.slow

PAGES_SCANNED = tuple(url for _, _, _, url in PAGES)
"""The pages whose every word is checked: every page of the menu, by its url path."""

WIDTH = 1280
"""The window the demo is read at: no table may scroll sideways in it."""

CODES = re.compile(r"\b(?:swc|ofc-sim|pineapple-app|progressive-pineapple|2-7-pineapple|"
                   r"fl_repeat|joker_rule)\b")
SNAKE = re.compile(r"\b[a-z]+(?:_[a-z0-9]+)+\b")
UUID = re.compile(r"\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b", re.I)
MISSING = re.compile(r"\b(?:None|nan|NaN)\b")
PATH = re.compile(r"\S*/\S*")
"""A file or folder's path (the user's own names: imported files, watched folders)."""

SNAKE_ALLOWED = frozenset()
"""snake_case words a page may show (none: a command's option would be written with dashes)."""


def violations(text: str) -> dict[str, list[str]]:
    """What a page's text shows that a reader should not see, by kind.

    >>> violations("Hands 12 · room swc · hand_id None · 2026-11-20")
    {'code': ['swc'], 'snake_case': ['hand_id'], 'None/nan': ['None']}
    >>> violations("Seals with Clubs · Progressive pineapple · 2 jokers")
    {}
    >>> violations("watching /tmp/my_logs/hand_01.jsonl")  # a path is the user's own name
    {}
    """
    text = PATH.sub(" ", text)
    found = {
        "code": sorted(set(CODES.findall(text))),
        "snake_case": sorted(set(SNAKE.findall(text)) - SNAKE_ALLOWED),
        "uuid": sorted(set(UUID.findall(text))),
        "None/nan": sorted(set(MISSING.findall(text))),
    }
    return {k: v for k, v in found.items() if v}


def page_text(page: Page) -> str:
    """The words a reader sees: the page, the sidebar, and every table's cells (the grids
    draw on a canvas; their accessible table holds the headers and the rows drawn), without
    the icons' names."""
    parts = [page.locator("[data-testid=stMain]").inner_text(),
             page.locator("[data-testid=stSidebarContent]").inner_text()]
    for icon in set(page.locator("[data-testid=stIconMaterial]").all_inner_texts()):
        parts = [p.replace(icon, "") for p in parts]  # an icon's ligature is no word
    for grid in page.locator("[data-testid=stDataFrame]").all():
        cells = grid.locator("th, td, [role=columnheader], [role=gridcell]")
        parts.extend(cells.all_text_contents())
    return "\n".join(parts)


WIDE_TABLES = """() => [...document.querySelectorAll("[data-testid=stDataFrame]")]
    .filter(grid => grid.checkVisibility())
    .map(grid => grid.querySelector(".dvn-scroller"))
    .filter(s => s !== null && s.scrollWidth > s.clientWidth + 1)
    .map(s => [s.closest("[data-testid=stDataFrame]").querySelector("[role=columnheader]")
               ?.textContent ?? "", s.scrollWidth, s.clientWidth])"""
"""Each drawn table that scrolls sideways: its first header, its scroll and client widths."""

GRIDS_DRAWN = """() => [...document.querySelectorAll("[data-testid=stDataFrame]")]
    .filter(grid => grid.checkVisibility())
    .every(grid => grid.querySelector(".dvn-scroller") !== null)"""


def _visit(dashboard: Dashboard, tab: Page, path: str, player: str, width: int) -> None:
    tab.set_viewport_size({"width": width, "height": 2400})  # drawn at that width from the start
    tab.goto(f"{dashboard.url}/{path}?player={quote(player)}")
    tab.wait_for_selector("[data-testid='stAppViewContainer']", timeout=60_000)
    wait_run_over(tab)
    if path == "hands":  # Hand review opens the newest hand: scanned with it
        tab.get_by_role("heading", name="Replayer").wait_for()
    tab.wait_for_function(GRIDS_DRAWN)
    tab.wait_for_timeout(500)  # the grids fill their accessible tables after drawing


def _scan(dashboard: Dashboard, tab: Page, player: str, width: int = 1400
          ) -> tuple[dict[str, dict[str, list[str]]], dict[str, list[list[object]]]]:
    """Every page's words that should not be there, and its tables wider than their
    place, by page."""
    bad, wide = {}, {}
    for path in PAGES_SCANNED:
        _visit(dashboard, tab, path, player, width)
        found = violations(page_text(tab))
        if found:
            bad[path or "overview"] = found
        scrolling = tab.evaluate(WIDE_TABLES)
        if scrolling:
            wide[path or "overview"] = scrolling
    return bad, wide


def test_every_page_is_scanned() -> None:
    """The scan reads the menu itself: Hand review, Review, Tournaments, Knockout, Train, Play,
    Enter and Import among the pages."""
    assert {"", "hands", "review", "tournaments", "knockout", "train", "play", "enter",
            "import"} <= set(PAGES_SCANNED)
    assert len(PAGES_SCANNED) == len(PAGES)


def test_demo_pages_show_words_not_codes_and_fit_1280_px(demo_dashboard: Dashboard,
                                                        tab: Page) -> None:
    bad, wide = _scan(demo_dashboard, tab, "Hero", WIDTH)
    assert {"words": bad, "tables wider than the page": wide} == {
        "words": {}, "tables wider than the page": {}}
    # the check sees a table that scrolls: Sessions with "Every column" on shows them all
    _visit(demo_dashboard, tab, "sessions", "Hero", WIDTH)
    tab.get_by_text(ALL_COLUMNS, exact=True).click()
    tab.wait_for_function(f"() => ({WIDE_TABLES})().length > 0")


def test_real_capture_pages_show_words_not_codes_and_fit_1280_px(writable_dashboard: Dashboard,
                                                 tab: Page) -> None:
    with_captures(writable_dashboard)
    bad, wide = _scan(writable_dashboard, tab, "Hero", WIDTH)
    assert {"words": bad, "tables wider than the page": wide} == {
        "words": {}, "tables wider than the page": {}}


def test_unknown_player_stake_and_room_are_said(demo_dashboard: Dashboard, tab: Page) -> None:
    """``?player=nobody`` and ``?stake=7+XYZ`` say so instead of falling back silently; a room
    the player never played in says which filter empties the page and where the hands are."""
    from playwright.sync_api import expect

    open_page(tab, f"{demo_dashboard.url}/?player=nobody")
    wait_run_over(tab)
    expect(tab.get_by_text("asks for the player “nobody”")).to_be_visible()
    open_page(tab, f"{demo_dashboard.url}/sessions?player=Hero&stake=7+XYZ")
    wait_run_over(tab)
    expect(tab.get_by_text("asks for stake “7 XYZ”")).to_be_visible()
    # Zoë never sat in Hero's match session with Anna
    open_page(tab, f"{demo_dashboard.url}/?player=Zo%C3%AB&session=demo-double-anna-1")
    wait_run_over(tab)
    expect(tab.get_by_text("Zoë has no hands with this Session")).to_be_visible()


def test_a_room_the_player_never_played_says_where_their_hands_are(
        writable_dashboard: Dashboard, tab: Page) -> None:
    from playwright.sync_api import expect

    with_captures(writable_dashboard)
    open_page(tab, f"{writable_dashboard.url}/?player=Villain+2&room=pineapple-app")
    wait_run_over(tab)
    expect(tab.get_by_text("Villain 2 has no hands with this Room")).to_be_visible()
    expect(tab.get_by_text("hands come from Seals with Clubs")).to_be_visible()
