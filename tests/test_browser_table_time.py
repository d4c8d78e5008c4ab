"""In headless Chromium, issue 39 as a user sees it: time at the table on the Overview and the
Sessions page, a single day graphed in hours, the money tiles following the Points/Money
choice, the race hands the net points leave out named beside them, the room's result beside
ours on the hand page with its reason, and the tables readable at 1,280 px."""

from __future__ import annotations

import pytest

from tests.helpers.browser import Dashboard, Page, metric, open_page, wait_run_over
from tests.helpers.captures import with_captures

pytestmark = pytest.mark.slow


def _open(tab: Page, url: str, width: int = 1280, height: int = 2400) -> Page:
    open_page(tab, url, height=height)
    tab.set_viewport_size({"width": width, "height": height})
    wait_run_over(tab)
    return tab


def test_overview_and_sessions_give_the_time_at_the_table(demo_dashboard: Dashboard,
                                                          tab: Page) -> None:
    """The demo: 12 sessions of 85-111 hands, each its own sitting (days apart), 20 hours."""
    from playwright.sync_api import expect

    page = _open(tab, f"{demo_dashboard.url}/?player=Hero")
    assert metric(page, "Hours played") == "20 h 01 min"
    assert metric(page, "Sittings") == "12"
    assert metric(page, "Points an hour").startswith("+")
    expect(page.get_by_text("hands an hour", exact=False).first).to_be_visible()
    # the Hands tile counts the race hands the net points leave out: said beside them
    expect(page.get_by_text("221 race hands left out", exact=False)).to_be_visible()
    page = _open(tab, f"{demo_dashboard.url}/sessions?player=Hero")
    assert metric(page, "Hours played") == "20 h 01 min"
    assert metric(page, "Best") == "+524.0"


def test_money_tiles_follow_the_money_choice(demo_dashboard: Dashboard, tab: Page) -> None:
    page = _open(tab, f"{demo_dashboard.url}/sessions?player=Hero&in=money")
    assert metric(page, "Best").endswith(" EUR") and metric(page, "Worst").endswith(" EUR")
    assert metric(page, "Money an hour").endswith(" EUR")
    labels = page.locator("[data-testid=stMetricLabel]").all_inner_texts()
    # money first: the rate tile shown first is money's
    assert labels.index("Money an hour") < labels.index("Points an hour")


def test_one_day_is_graphed_in_hours(demo_dashboard: Dashboard, tab: Page) -> None:
    from playwright.sync_api import expect

    # one session, 20:18-22:02 on its log's clock
    page = _open(tab, f"{demo_dashboard.url}/?player=Hero&session=demo-regular-2&by=date")
    expect(page.get_by_text("the graph reads in hours", exact=False)).to_be_visible()
    ticks = page.locator(".xtick text").all_text_contents()
    assert ticks and all(":" in t and len(t) == 5 for t in ticks), ticks  # 21:00, never .9995


def test_the_hand_page_sets_the_rooms_result_beside_ours(writable_dashboard: Dashboard,
                                                         tab: Page) -> None:
    """The pineapple app's hand where the app's points differ from ours: the table says what
    the room reports differently, the warning why."""
    from playwright.sync_api import expect

    with_captures(writable_dashboard)
    page = _open(tab, f"{writable_dashboard.url}/hands?source=pineapple-app&id=app-app-0001")
    expect(page.get_by_text("The room's result differs from ours", exact=False)).to_be_visible()
    expect(page.get_by_text("the room scores the rows differently (before caps -7 (ours: -10))",
                            exact=False)).to_be_visible()


HEADERS = """() => [...document.querySelectorAll("[data-testid=stDataFrame]")][0]
    .querySelectorAll("th, [role=columnheader]")"""


@pytest.mark.parametrize(("path", "wanted"), [
    ("", ["Session", "Hands", "Points", "Money"]),
    ("sessions", ["Session", "Hands", "Time", "Points", "Money", "Currency"]),
    ("variants", ["Ruleset", "Hands", "Per hand", "Points", "Money"]),
    ("opponents", ["Opponent", "Hands together", "Net points", "Money"]),
    ("matches", ["Started", "Opponent", "Result", "Money"]),
])
def test_tables_show_their_most_useful_columns_at_1280_px(demo_dashboard: Dashboard, tab: Page,
                                                          path: str, wanted: list[str]) -> None:
    """The grid draws only the columns in view (its accessible table holds those): at 1,280
    px the most useful ones come first, in view; the rest scroll."""
    page = _open(tab, f"{demo_dashboard.url}/{path}?player=Hero")
    grid = page.locator("[data-testid=stDataFrame]").first
    grid.wait_for()
    heads = grid.locator("th, [role=columnheader]")
    for _ in range(40):  # the grid fills its accessible table once drawn
        if heads.count():
            break
        page.wait_for_timeout(250)
    shown = [h.strip() for h in heads.all_text_contents()]
    assert all(w in shown for w in wanted), shown
