"""Money is one fact: OFC Double's money comes from its matches (stake x final cube, won or
lost), never from race points x stake, and every page gives the same figure.

The expected money is computed here from the demo's raw logs (``data/demo/*.jsonl``, their
``match_end`` events and stakes), independently of the store and of the dashboard's SQL.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import duckdb
import pytest
from streamlit.testing.v1 import AppTest

from dashboard.queries import matches, opponents, overview, sessions, variants
from dashboard.queries.common import Filters

DEMO = Path(__file__).resolve().parents[1] / "data" / "demo"
APP = str(Path(__file__).resolve().parents[1] / "dashboard" / "app.py")
HERO = "Hero"


def _from_logs(player: str, variant: str | None) -> float:
    """Sum over the logs' hands: race hands pay stake x cube at the match's end; other hands
    points x stake (``reported_points`` are not used: the store's points are ours)."""
    total = 0.0
    for path in sorted(DEMO.glob("double-*.jsonl")):
        for line in path.read_text(encoding="utf-8").splitlines():
            hand = json.loads(line)
            stake = hand.get("stake")
            amount = stake["amount"] if isinstance(stake, dict) else stake
            for event in hand.get("events") or ():
                if event.get("type") == "match_end":
                    winner = event.get("by") or event.get("winner")
                    sign = 1 if winner == player else -1
                    total += sign * float(amount) * int(event["cube"])
    assert variant == "double"
    return total


@pytest.fixture(scope="module")
def con(demo_db_path: Path):  # type: ignore[no-untyped-def]
    c = duckdb.connect(str(demo_db_path), read_only=True)
    yield c
    c.close()


def test_double_money_is_the_matches_money_on_every_page(con) -> None:  # type: ignore[no-untyped-def]
    f = Filters(player=HERO, variant="double")
    expected = _from_logs(HERO, "double")
    assert expected == -26.0  # 16 of 41 matches won, cubes 1, 2 and 4, stake 2 EUR
    s = overview.summary(con, f)
    assert s.money == (("EUR", pytest.approx(expected), s.hands),)
    assert overview.sessions(con, f)["money"].sum() == pytest.approx(expected)
    assert sessions.period_table(con, f)["money"].sum() == pytest.approx(expected)
    assert opponents.table(con, f)["money"].sum() == pytest.approx(expected)
    assert matches.summary(con, f)["money"] == pytest.approx(expected)
    assert variants.table(con, f)["money"].sum() == pytest.approx(expected)


def test_all_variants_money_agrees_and_race_points_stay_out_of_point_totals(con) -> None:  # type: ignore[no-untyped-def]
    f = Filters(player=HERO)
    s = overview.summary(con, f)
    total = s.money[0][1]
    assert overview.sessions(con, f)["money"].sum() == pytest.approx(total)
    assert sessions.period_table(con, f)["money"].sum() == pytest.approx(total)
    assert opponents.table(con, f)["money"].sum() == pytest.approx(total)
    assert variants.table(con, f)["money"].sum() == pytest.approx(total)
    plain = con.execute("SELECT sum(points * stake), sum(points), count(*) FROM hand_players "
                        "WHERE player = ? AND scoring <> 'race'", [HERO]).fetchone()
    assert total == pytest.approx(plain[0] + _from_logs(HERO, "double"))
    # the demo mixes race (Double) and 1-6 hands: race points are left out of net points
    assert s.net_points == pytest.approx(plain[1]) and s.race_left_out == s.hands - plain[2]
    assert overview.cumulative(con, f)["total"].iloc[-1] == pytest.approx(plain[1])
    assert sessions.period_table(con, f)["cumulative_points"].iloc[-1] == pytest.approx(plain[1])
    # opponents: one row per opponent and scoring system
    table = opponents.table(con, f)
    assert not table.duplicated(["opponent", "scoring"]).any()
    assert set(table["scoring"]) == {"race", "1-6"}


def test_overview_page_shows_the_matches_money_and_says_what_points_hold(
        demo_db_path: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    db = tmp_path / "demo.duckdb"
    shutil.copy(demo_db_path, db)
    monkeypatch.setenv("OFC_DB", str(db))
    at = AppTest.from_file(APP, default_timeout=60)
    at.query_params.update({"player": HERO, "variant": "double"})
    at.run()
    assert not at.exception
    values = {m.label: m.value for m in at.metric}
    assert values["Money"] == "-26.00 EUR"
    at = AppTest.from_file(APP, default_timeout=60)
    at.query_params.update({"player": HERO})
    at.run()
    notes = " ".join(c.value for c in at.caption)
    assert "left out of the net points" in notes
    at.switch_page("views/sessions.py").run()
    assert not at.exception
    values = {m.label: m.value for m in at.metric}
    # the two Double sessions lost money (-14, -2): not "winning" for their race points
    assert values["Winning"] == "6"
