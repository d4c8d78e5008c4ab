"""The Train page in headless Chromium, on the session's ``writable_dashboard``: a player's
hand imported and reviewed beside the server (``ofc import``, ``ofc review``), its decisions
that lost more than the noise asked as puzzles, costliest first; one missed by clicks (the
placement played) comes back after the next, one solved by clicks (the review's best) retires;
the score by day counts both."""

from __future__ import annotations

import random
import re
import subprocess
from pathlib import Path

import pytest

from ingest import store
from ingest.formats.ofc_hh import dumps_record
from ofc_core.play.engine import Table
from ofc_core.play.notation import parse_placement
from ofc_core.play.policies import policy
from ofc_core.play.sessions import SessionSpec, hero_view, play_session
from ofc_core.rules import PRESETS
from tests.helpers import board
from tests.helpers.browser import Dashboard, no_exception, open_page, save_screenshot

pytestmark = pytest.mark.slow

ROOM = "train-test"


def _reviewed_hand(db: Path, folder: Path, ofc_script: str) -> list[tuple[int, str, str]]:
    """Tess's hand imported and reviewed; her puzzles (street, played, best), costliest
    first."""
    table = Table(PRESETS["pineapple"], ("Tess", "Bot"), (policy("random"), policy("careful")))
    spec = SessionSpec("train-test", hands=1, source=ROOM)
    record = hero_view(play_session(table, spec, random.Random(5))[0], "Tess")
    log = folder / "tess.jsonl"
    log.write_text(dumps_record(record) + "\n", encoding="utf-8")
    for command in (["import", "--db", str(db), str(log)],
                    ["review", "--db", str(db), "--player", "Tess"]):
        subprocess.run([ofc_script, *command], check=True, capture_output=True)
    con = store.connect(db, read_only=True, wait_seconds=60)
    try:
        return [(s, c, b) for s, c, b in con.execute(
            "SELECT street, chosen, best FROM decisions WHERE source = ? AND player = 'Tess' "
            "AND ev_lost > 2 * ev_lost_se AND kind <> 'fantasyland set' "
            "ORDER BY ev_lost DESC", [ROOM]).fetchall()]
    finally:
        con.close()


def _place(page, text: str) -> None:  # type: ignore[no-untyped-def]
    """Click the placement ``text`` (the decisions' notation) on the board, then answer."""
    placement = parse_placement(text)
    for target, cards in enumerate(placement):
        for card in cards:
            board.click_card(page, card)
            board.click_target(page, target)
    board.confirm(page)


def _due(page) -> int:  # type: ignore[no-untyped-def]
    found = re.search(r"(\d+) puzzles? due", page.get_by_text(" due.").first.inner_text())
    assert found, "no count of the puzzles due"
    return int(found.group(1))


def test_a_missed_puzzle_comes_back_and_a_solved_one_retires(
        writable_dashboard: Dashboard, tab, tmp_path: Path, ofc_script: str,  # type: ignore[no-untyped-def]
        ) -> None:
    puzzles = _reviewed_hand(writable_dashboard.db, tmp_path, ofc_script)
    assert len(puzzles) >= 2, puzzles
    first, played, _ = puzzles[0]
    page = open_page(tab, f"{writable_dashboard.url}/train?player=Tess&room={ROOM}", height=1600)
    page.get_by_role("heading", name="Train").first.wait_for()
    board.after_click(page)
    due = _due(page)
    assert due == len(puzzles)
    page.get_by_text(f"street {first} (").first.wait_for()
    _place(page, played)  # what was played: missed
    page.get_by_text("Missed:").wait_for()
    save_screenshot(page, "train_missed")
    page.get_by_role("button", name="Next puzzle").click()
    board.after_click(page)
    assert _due(page) == due  # the missed one is due again, after the new ones
    for solved, (street, _, best) in enumerate(puzzles[1:], start=1):
        page.get_by_text(f"street {street} (").first.wait_for()
        assert page.get_by_text("tried 1 time").count() == 0
        _place(page, best)  # the review's best: solved
        page.get_by_text("Solved:").wait_for()
        page.get_by_role("button", name="Next puzzle").click()
        board.after_click(page)
        assert _due(page) == due - solved  # the solved one retired
    page.get_by_text(f"street {first} (").first.wait_for()  # the missed one came back
    page.get_by_text("tried 1 time").wait_for()
    no_exception(page)
    page.get_by_text("Score by day").wait_for()
