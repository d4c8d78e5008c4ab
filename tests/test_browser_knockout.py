"""In Chromium, on the session's ``writable_dashboard`` (the knockout and its players are this
module's own): a 16-player knockout run on the Knockout page from creation to its winner. Round
1's first series is recorded from imported OFC Double matches between the pair, the second is
typed 2-1 (after a wrong result undone), the third is a forfeit, the rest typed 2-0; the page is
reloaded at every round and shows the same bracket; the store's log holds every change with who
made it.

The expected results are worked out here from the imported log and the choices made, never by
the code under test; every wait is for something the page shows.
"""

from __future__ import annotations

import json
import re
from datetime import datetime, timedelta, timezone
from pathlib import Path

import duckdb
import pytest
from playwright.sync_api import Page, expect

from ingest.api import import_paths
from ofc_cli.cli import main
from tests.helpers.browser import Dashboard, open_page, settle, settle_drawn

NAME = "Browser knockout"
PLAYERS = [f"Kb{n:02d}" for n in range(1, 17)]
WHO = "judge Ann"
WAIT = 120_000

pytestmark = pytest.mark.slow


def _radio(page: Page, label: str):  # type: ignore[no-untyped-def]
    return page.get_by_test_id("stRadio").filter(has_text=label).first


def _pairs(page: Page) -> list[tuple[str, str]]:
    """The pairs still to play, as the Pair radio lists them."""
    texts = _radio(page, "Pair").locator("label").all_inner_texts()
    return [tuple(t.split(" – ")) for t in texts if " – " in t]  # type: ignore[misc]


def _record(page: Page, pair: int, result: str, second_wins: bool = False) -> tuple[str, str]:
    """Choose the ``pair``-th open pair, the result and the winner, press Record; wait for
    the page to say it was recorded. Returns the pair."""
    settle_drawn(page)  # the pairs of the last run, not a stale form drawn beside its message
    players = _pairs(page)[pair]
    _radio(page, "Pair").locator("label").nth(pair).click()
    _radio(page, "Result").get_by_text(result, exact=True).click()
    _radio(page, "Winner").get_by_text("second player" if second_wins else "first player",
                                       exact=True).click()
    page.get_by_role("button", name="Record").click()
    settle(page)
    expect(page.get_by_text(f"recorded {players[0]} – {players[1]}")).to_be_visible(
        timeout=WAIT)
    return players


def _reload(page: Page, round_: int) -> None:
    """Reload the page: the same bracket, at the same round."""
    page.reload()
    settle_drawn(page)
    expect(page.get_by_text("16 players")).to_be_visible(timeout=WAIT)
    assert f"ko={NAME.replace(' ', '+')}" in page.url or "ko=Browser" in page.url
    if round_:
        expect(page.get_by_text(f"Record a series of round {round_}")).to_be_visible(
            timeout=WAIT)


def _matches_file(tmp_path: Path, a: str, b: str) -> tuple[Path, str, str]:
    """A Double log between ``a`` and ``b`` played from now on (after the round's draw), and
    the series it makes, worked out from the file: the first matches until one has won two."""
    out = tmp_path / "pair.jsonl"
    start = (datetime.now(timezone.utc) + timedelta(minutes=1)).isoformat(timespec="seconds")
    assert main(["simulate", "--variant", "double", "--names", f"{a},{b}", "--hands", "70",
                 "--policies", "random", "--seed", "4", "--start", start,
                 "--session-prefix", "kb", "--out", str(out)]) == 0
    wins = {a: 0, b: 0}
    for line in out.read_text(encoding="utf-8").splitlines():
        for event in json.loads(line).get("events", []):
            if event["type"] == "match_end" and max(wins.values()) < 2:
                wins[event["by"]] += 1
    winner = max(wins, key=lambda n: wins[n])
    assert wins[winner] == 2, wins
    return out, winner, f"2-{min(wins.values())}"


def test_a_16_player_knockout_from_creation_to_winner(writable_dashboard: Dashboard, tab: Page,
                                                      tmp_path: Path) -> None:
    page = open_page(tab, f"{writable_dashboard.url}/knockout", 2400)
    settle_drawn(page)
    page.get_by_label("Your name (kept with every change)").fill(WHO)
    page.get_by_label("Your name (kept with every change)").press("Tab")
    settle(page)
    page.get_by_label("Seed of the draw").fill("11")
    page.get_by_label("Seed of the draw").press("Tab")
    page.get_by_label("Name", exact=True).fill(NAME)
    page.get_by_label("Players, one a line").fill("\n".join(PLAYERS))
    page.get_by_role("button", name="Create and draw round 1").click()
    settle(page)
    expect(page.get_by_text("seed 11")).to_be_visible(timeout=WAIT)
    page.wait_for_url(re.compile(r"[?&]ko="), timeout=WAIT)
    _reload(page, 1)

    first = _pairs(page)[0]
    log, winner, score = _matches_file(tmp_path, *first)
    import_paths([log], writable_dashboard.db)
    _record(page, 0, "from imported matches")
    chosen = {first: (winner, score)}
    wrong = _record(page, 0, "2-0")  # a mistake, undone
    page.get_by_role("button", name="Undo the last change").click()
    settle(page)
    expect(page.get_by_text("undone")).to_be_visible(timeout=WAIT)
    expect(page.get_by_text("Record a series of round 1 (7 to play)")).to_be_visible(
        timeout=WAIT)
    typed = _record(page, 0, "2-1", second_wins=True)
    assert typed == wrong
    chosen[typed] = (typed[1], "2-1")
    forfeit = _record(page, 0, "forfeit")
    chosen[forfeit] = (forfeit[0], "forfeit")
    for round_, series in ((1, 5), (2, 4), (3, 2), (4, 1)):
        for _ in range(series):
            pair = _record(page, 0, "2-0")
            chosen[pair] = (pair[0], "2-0")
        if round_ < 4:
            page.get_by_role("button", name=f"Draw round {round_ + 1}").click()
            settle(page)
            _reload(page, round_ + 1)
    champion = chosen[pair][0]
    _reload(page, 0)
    expect(page.get_by_text(f"Winner: {champion}")).to_be_visible(timeout=WAIT)

    con = duckdb.connect(str(writable_dashboard.db), read_only=True)
    try:
        rows = con.execute("SELECT action, who, data FROM knockout_events WHERE bracket = ? "
                           "ORDER BY seq", [NAME]).fetchall()
    finally:
        con.close()
    assert {who for _, who, _ in rows} == {WHO}
    assert [a for a, _, _ in rows].count("draw") == 3 and [a for a, _, _ in rows][-1] == "series"
    kept = [json.loads(d) for a, _, d in rows if a == "series"]
    kept = [k for k in kept if tuple(k["players"]) != wrong or k["winner"] != wrong[0]
            or k["wins"] != [2, 0]]
    assert len(kept) == 15
    for k in kept:
        w, s = chosen[tuple(k["players"])]
        assert k["winner"] == w
        assert ("forfeit" if k["forfeit"] else f"{max(k['wins'])}-{min(k['wins'])}") == s
    assert next(k for k in kept if tuple(k["players"]) == first)["matches"]
