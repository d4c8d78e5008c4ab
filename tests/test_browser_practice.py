"""The Play page in headless Chromium, on the session's ``writable_dashboard``: a whole
practice hand of pineapple and of regular OFC placed by clicks (Fantasyland set on the first
hand of a seeded regular table, then a normal hand with the button moved), each found stored
in the room ``practice``, scored like an imported hand (``ofc score`` of its stored text gives
the store's results), reviewed by the background review job (the first regular hand's while
the next is played), and opened in the replayer; illegal clicks (a full row, a card
chosen twice, the discard twice) refused in words, never an exception."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest
from playwright.sync_api import expect

from ingest import store
from tests.helpers import board
from tests.helpers.browser import (
    Dashboard,
    no_exception,
    open_page,
    save_screenshot,
    wait_still,
)

pytestmark = pytest.mark.slow


def _deal(page, url: str, variant: str, bots: tuple[str, ...], name: str, seed: int,  # type: ignore[no-untyped-def]
          in_fl: bool = False) -> None:
    open_page(page, f"{url}/play", height=1400)
    page.get_by_role("heading", name="Play").first.wait_for()
    board.after_click(page)
    _select(page, "Variant", variant)
    _select(page, "First bot", bots[0])
    if len(bots) > 1:
        _select(page, "Second bot", bots[1])
    page.get_by_label("Your name", exact=True).fill(name)
    page.get_by_text("More", exact=True).click()
    wait_still(page.get_by_test_id("stForm"))  # the expander opens by a transition
    page.get_by_label("Deal seed", exact=True).fill(str(seed))
    if in_fl:
        _tick(page, "Start in Fantasyland")
    page.get_by_role("button", name="Deal", exact=True).click()
    board.after_click(page)
    page.locator("[class*='-confirm'] button").first.wait_for()


def _tick(page, label: str) -> None:  # type: ignore[no-untyped-def]
    """Tick the form's checkbox ``label`` and see it ticked."""
    page.get_by_text(label, exact=True).click()
    expect(page.get_by_role("checkbox", name=label, exact=True)).to_be_checked()


def _select(page, label: str, value: str) -> None:  # type: ignore[no-untyped-def]
    page.get_by_test_id("stForm").get_by_label(label, exact=True).click()
    page.get_by_role("option", name=value, exact=True).click()
    board.after_click(page)


def _play_hand(page) -> int:  # type: ignore[no-untyped-def]
    """Place every street of the hand; the streets placed."""
    streets = 0
    while not page.get_by_text("Open in the replayer").count():
        board.place_street(page)
        no_exception(page)
        streets += 1
        assert streets <= 13, "the hand did not end"
    return streets


def _stored(db: Path, hand: str) -> tuple[dict[str, tuple[float, bool]], set[str], str]:
    con = store.connect(db, read_only=True, wait_seconds=60)  # beside the server
    try:
        seats = {p: (pts, f) for p, pts, f in con.execute(
            "SELECT hp.player, hp.points, hp.fouled FROM hands h JOIN hand_players hp "
            "USING (hand_key) WHERE h.source = 'practice' AND h.hand_id = ?", [hand]).fetchall()}
        kinds = {k for (k,) in con.execute(
            "SELECT kind FROM decisions WHERE source = 'practice' AND hand_id = ?",
            [hand]).fetchall()}
        raw = con.execute("SELECT raw FROM hands WHERE source = 'practice' AND hand_id = ?",
                          [hand]).fetchone()
    finally:
        con.close()
    return seats, kinds, raw[0] if raw else ""


def _hand_id(page, name: str) -> str:  # type: ignore[no-untyped-def]
    href = page.get_by_text("Open in the replayer").locator("xpath=ancestor::a").get_attribute(
        "href")
    assert href and f"player={name}" in href, href
    return href.split("id=")[1].split("&")[0]


def _scored_as_stored(raw: str, seats: dict[str, tuple[float, bool]], ofc_script: str,
                      tmp_path: Path) -> None:
    log = tmp_path / "hand.jsonl"
    log.write_text(raw + "\n", encoding="utf-8")
    out = subprocess.run([ofc_script, "score", "--json", str(log)], capture_output=True,
                         text=True, check=True).stdout
    (hand,) = [json.loads(x) for x in out.splitlines() if x.strip()]
    assert {n: (p["points"], p["fouled"]) for n, p in hand["players"].items()} == seats


def test_illegal_clicks_are_refused_and_a_pineapple_hand_is_stored_and_reviewed(
        writable_dashboard: Dashboard, tab, tmp_path: Path, ofc_script: str,  # type: ignore[no-untyped-def]
        ) -> None:
    page = tab
    _deal(page, writable_dashboard.url, "pineapple", ("strong",), "Pia", 7)
    cards = board.dealt_cards(page)
    for card in cards[:3]:
        board.click_card(page, card)
        board.click_target(page, 0)
    board.click_card(page, cards[3])
    board.click_target(page, 0)  # a full row
    assert board.refusal(page) == "the top row is full (3 cards)"
    board.click_card(page, cards[3])  # the same card again lets it go
    board.click_target(page, 1)
    assert board.refusal(page).startswith("choose a card first")
    board.click_card(page, cards[3])
    board.click_target(page, 1)
    assert board.refusal(page) == ""
    page.locator("[class*='-undo'] button").first.click()
    board.after_click(page)
    assert board.free(page, 1) == 5 and cards[3] in board.dealt_cards(page)
    board.place_street(page)
    cards = board.dealt_cards(page)  # street 2: three dealt, one discarded
    board.click_card(page, cards[0])
    board.click_target(page, 3)
    board.click_card(page, cards[1])
    board.click_target(page, 3)  # the discard twice
    assert board.refusal(page) == "this street discards 1 card: the discard is full"
    no_exception(page)
    save_screenshot(page, "play_board")
    assert _play_hand(page) == 4
    page.get_by_text("Review: 5 decisions").wait_for()
    hand = _hand_id(page, "Pia")
    seats, kinds, raw = _stored(writable_dashboard.db, hand)
    assert set(seats) == {"Pia", "strong"} and kinds == {"first five", "street"}
    _scored_as_stored(raw, seats, ofc_script, tmp_path)
    save_screenshot(page, "play_finished")
    page.get_by_text("Open in the replayer").click()
    page.wait_for_url("**/hands?**")
    page.get_by_text("Showdown").first.wait_for()
    no_exception(page)


def test_a_regular_session_plays_fantasyland_then_moves_on(
        writable_dashboard: Dashboard, tab, tmp_path: Path, ofc_script: str,  # type: ignore[no-untyped-def]
        ) -> None:
    page = tab
    _deal(page, writable_dashboard.url, "regular", ("careful", "chaser"), "Reg", 11,
          in_fl=True)
    page.get_by_text("Fantasyland: set 13 of your 13 cards.").wait_for()
    assert _play_hand(page) == 1
    first = _hand_id(page, "Reg")
    seats, _, raw = _stored(writable_dashboard.db, first)
    assert len(seats) == 3
    _scored_as_stored(raw, seats, ofc_script, tmp_path)
    assert json.loads(raw)["players"][0]["fantasyland"] is True
    page.get_by_role("button", name="Next hand").click()  # the review of the first runs on
    page.get_by_text("· hand 2 ·").wait_for()
    board.after_click(page)
    assert _play_hand(page) == 9  # five cards, then eight streets of one
    page.get_by_text("Review: 9 decisions").wait_for()
    assert _stored(writable_dashboard.db, first)[1] == {"fantasyland set"}
    second = _hand_id(page, "Reg")
    seats, kinds, raw = _stored(writable_dashboard.db, second)
    assert kinds == {"first five", "street"}
    _scored_as_stored(raw, seats, ofc_script, tmp_path)
    assert json.loads(raw)["button"] != "" and second.endswith("-0002")
