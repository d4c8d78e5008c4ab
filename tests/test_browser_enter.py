"""The Enter page in headless Chromium, on the session's ``writable_dashboard``: a three-handed
pineapple hand entered street by street for every seat (typed rows, one street placed by
clicks on the board, the opponents' discards unseen), a card seen twice and an overfull row
refused at once; the stored hand has the same rows as ``ofc import`` gives for the same hand
written by hand in the live notation, and ``ofc score`` of it gives the store's results."""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path
from typing import Any

import pytest

from ingest import store
from tests.helpers import board
from tests.helpers.browser import Dashboard, no_exception, open_page, save_screenshot

pytestmark = pytest.mark.slow

NAMES = ("Anna", "Boris", "Hero")
STREETS = {  # the order of play: Anna, Boris, then Hero (on the button)
    "Anna": ["t:Ks m:6h3d b:4c4d", "m:Jc b:As", "t:Kd m:5s", "m:6s b:7d", "t:Kc b:9d"],
    "Boris": ["t:2s m:9sJs b:Qh5h", "m:4s b:5c", "t:Qd m:Td", "m:7c b:7h", "t:3c b:3h"],
    "Hero": ["t:9c m:8c2d b:ThAd", "m:Tc b:Ah x:5d", "t:3s m:8d x:9h", "m:4h b:Jh x:2h",
             "t:Ac b:8s x:8h"],
}
CLICKED = ("Hero", 1)
"""The street entered by clicks on the board (its cards typed alone): Tc middle, Ah bottom,
5d discarded."""

TABLES = {
    "hands": "SELECT * EXCLUDE (hand_key, import_id, raw, line) REPLACE "
             "(CAST(played_at AS VARCHAR) AS played_at) FROM hands WHERE hand_id = ?",
    "hand_players": "SELECT * EXCLUDE (hand_key) REPLACE (CAST(played_at AS VARCHAR) AS "
                    "played_at) FROM hand_players WHERE hand_key IN "
                    "(SELECT hand_key FROM hands WHERE hand_id = ?) ORDER BY seat",
    "hand_rows": "SELECT * EXCLUDE (hand_key) FROM hand_rows WHERE hand_key IN "
                 "(SELECT hand_key FROM hands WHERE hand_id = ?) ORDER BY seat, row_name",
    "placements": "SELECT * EXCLUDE (hand_key) FROM placements WHERE hand_key IN "
                  "(SELECT hand_key FROM hands WHERE hand_id = ?) ORDER BY seat, street",
}


def _rows_of(db: Path, hand_id: str) -> dict[str, list[tuple[Any, ...]]]:
    con = store.connect(db, read_only=True, wait_seconds=60)
    try:
        return {t: con.execute(sql, [hand_id]).fetchall() for t, sql in TABLES.items()}
    finally:
        con.close()


def _raw(db: Path, hand_id: str) -> str:
    con = store.connect(db, read_only=True, wait_seconds=60)
    try:
        return str(con.execute("SELECT raw FROM hands WHERE hand_id = ?", [hand_id]).fetchone()[0])
    finally:
        con.close()


def _type(page, text: str) -> None:  # type: ignore[no-untyped-def]
    field = page.get_by_label("Cards", exact=True)
    field.fill(text)
    page.get_by_role("button", name="Next", exact=True).click()
    board.after_click(page)


def _by_hand(name: str, street: int) -> str:
    """The board of ``name`` in the compact notation, from :data:`STREETS`."""
    rows: dict[str, str] = {"t": "", "m": "", "b": ""}
    for text in STREETS[name][:street]:
        for item in text.split():
            row, cards = item.split(":")
            if row in rows:
                rows[row] += cards
    return f"{rows['t']}-{rows['m']}-{rows['b']}"


def test_a_live_hand_is_entered_and_stored_as_ofc_import_stores_it(
        writable_dashboard: Dashboard, tab, tmp_path: Path, ofc_script: str,  # type: ignore[no-untyped-def]
        ) -> None:
    page = open_page(tab, f"{writable_dashboard.url}/enter", height=1600)
    page.get_by_role("heading", name="Enter").first.wait_for()
    board.after_click(page)
    page.get_by_label("Room or game", exact=True).fill("live-entry-test")
    page.get_by_label("Players, in seat order", exact=True).fill("\n".join(NAMES))
    page.get_by_label("You are (optional)", exact=True).fill("Hero")
    page.get_by_role("button", name="Start", exact=True).click()
    board.after_click(page)
    page.get_by_role("button", name="Deal", exact=True).click()  # button: Hero (the last seat)
    board.after_click(page)
    for street in range(5):
        for name in NAMES:
            page.get_by_text(f"{name}, street {street + 1}").first.wait_for()
            if (name, street) == CLICKED:
                _type(page, "Tc Ah 5d")
                for card, target in ((32, 1), (50, 2), (13, 3)):  # Tc, Ah, 5d
                    board.click_card(page, card)
                    board.click_target(page, target)
                board.confirm(page)
                continue
            if (name, street) == ("Boris", 0):
                _type(page, "t:Ks m:9sJs b:Qh5h")  # Anna's king
                assert "Ks is on Anna's board already" in page.locator(
                    "[data-testid='stAlertContentWarning']").first.inner_text()
            if (name, street) == ("Anna", 3):
                _type(page, "t:6s7d")  # four on top: Ks Kd there already
                assert "takes no more" in page.locator(
                    "[data-testid='stAlertContentWarning']").first.inner_text()
            _type(page, STREETS[name][street])
            no_exception(page)
    save_screenshot(page, "enter_complete")
    page.get_by_role("button", name="Store the hand").click()
    board.after_click(page)
    message = page.get_by_text("stored.").first
    message.wait_for()
    hand_id = message.inner_text().split("Hand ")[1].split(" stored")[0]
    stored = _rows_of(writable_dashboard.db, hand_id)
    (hand,) = stored["hands"]
    session = hand[2]
    played_at = re.search(r"time=(\S+)", _raw(writable_dashboard.db, hand_id)).group(1)
    text = ["@source live-entry-test", "@variant pineapple", "",
            f"hand {hand_id} button=Hero time={played_at} session={session} hero=Hero"]
    for name in NAMES:
        text += [f"{name}: {_by_hand(name, 5)}", "  streets: " + " | ".join(STREETS[name])]
    log = tmp_path / "same-hand.txt"
    log.write_text("\n".join(text) + "\n", encoding="utf-8")
    other = tmp_path / "import.duckdb"
    subprocess.run([ofc_script, "import", "--db", str(other), str(log)], check=True,
                   capture_output=True)
    imported = _rows_of(other, hand_id)
    assert imported == stored
    scored = subprocess.run([ofc_script, "score", "--json", str(log)], capture_output=True,
                            text=True, check=True).stdout
    (line,) = [json.loads(x) for x in scored.splitlines() if x.strip()]
    assert [line["players"][n]["points"] for n in NAMES] == [r[13] for r in
                                                           stored["hand_players"]]
    page.get_by_text("The session in the live notation", exact=True).click()
    assert "streets: t:Ks m:6h3d b:4c4d" in page.locator("[data-testid='stCode']").inner_text()
