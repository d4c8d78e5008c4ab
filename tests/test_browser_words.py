"""In headless Chromium: words, not codes (issue 39). Every page's visible text (the main
block, the sidebar and the tables' cells, which the grid keeps in an accessible table) on the
demo and on the real-capture fixtures holds no snake_case header, no UUID, no ``None``, no
``nan`` and no raw room or ruleset code; and the pages say what the address asks for that
the hands do not have.

The real-capture store is the writable dashboard's (``tests/helpers/captures.py``).
"""

from __future__ import annotations

import re
from urllib.parse import quote

import pytest

from tests.helpers.browser import Dashboard, Page, open_page, wait_run_over
from tests.helpers.captures import with_captures

pytestmark = pytest.mark.slow

PAGES_SCANNED = ("", "sessions", "matches", "opponents", "fouls", "fantasyland", "variants",
                 "import")
"""The pages whose every word is checked (url paths of ``dashboard/app.py``'s PAGES)."""

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


def _scan(dashboard: Dashboard, tab: Page, player: str) -> dict[str, dict[str, list[str]]]:
    bad = {}
    for path in PAGES_SCANNED:
        open_page(tab, f"{dashboard.url}/{path}?player={quote(player)}", height=2400)
        wait_run_over(tab)
        tab.wait_for_timeout(500)  # the grids fill their accessible tables after drawing
        found = violations(page_text(tab))
        if found:
            bad[path or "overview"] = found
    return bad


def test_demo_pages_show_words_not_codes(demo_dashboard: Dashboard, tab: Page) -> None:
    assert _scan(demo_dashboard, tab, "Hero") == {}


def test_real_capture_pages_show_words_not_codes(writable_dashboard: Dashboard,
                                                 tab: Page) -> None:
    with_captures(writable_dashboard)
    assert _scan(writable_dashboard, tab, "Hero") == {}


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
