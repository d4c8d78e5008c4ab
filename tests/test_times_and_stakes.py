"""Times, seats and stakes on the pages: every time shown with its zone, on the log's
clock by default (or UTC, or a named zone, chosen in the sidebar); the replayer names the log's
seat numbers; a session without a stake says so instead of None/nan; the Fantasyland page
does not add OFC Double's race points to other points."""

from __future__ import annotations

import json
from pathlib import Path

import duckdb
import pandas as pd
import pytest
from streamlit.testing.v1 import AppTest

from dashboard.queries import fantasyland
from dashboard.queries.common import Filters
from ingest.api import import_paths

ROOT = Path(__file__).resolve().parent.parent
APP = str(ROOT / "dashboard" / "app.py")
BOARDS = ("QhQd2c-KsKd9s5h3c-JhJdJc4s4d", "AhKc3d-AsAd8h7c2h-QcTc8c6c5c")


def log_line(hand_id: str, played_at: str, **extra: object) -> str:
    return json.dumps({
        "format": "ofc-hh/1", "source": "clock", "hand_id": hand_id, "session_id": "night",
        "played_at": played_at, "variant": "regular", "hero": "ann", "players": [
            {"name": "ann", "seat": 1, "board": BOARDS[0]},
            {"name": "bob", "seat": 3, "board": BOARDS[1]}], **extra})


@pytest.fixture
def clock_db(tmp_path: Path) -> Path:
    """Two hands of one session without a stake, played at 10:00 and 10:05 New York time
    (-05:00), and the OFC Double sample (+03:00, 5 RUB a point)."""
    log = tmp_path / "clock.jsonl"
    log.write_text(log_line("n1", "2026-11-29T10:00:00-05:00") + "\n"
                   + log_line("n2", "2026-11-29T10:05:00-05:00") + "\n")
    db = tmp_path / "clock.duckdb"
    report = import_paths([log, ROOT / "data" / "samples" / "double-match.jsonl"], db)
    assert report.stored > 2
    return db


def app(db: Path, monkeypatch: pytest.MonkeyPatch, **params: str) -> AppTest:
    monkeypatch.setenv("OFC_DB", str(db))
    at = AppTest.from_file(APP, default_timeout=60)
    at.query_params.update({"player": "ann", **params})
    return at


def page(at: AppTest, source: str) -> AppTest:
    at.run()
    at.switch_page(source).run()
    assert not at.exception
    return at


def frame_with(at: AppTest, column: str) -> pd.DataFrame:
    return next(d.value for d in at.dataframe if column in d.value.columns)


def no_none_or_nan(frame: pd.DataFrame) -> None:
    text = frame.astype(str)
    assert not text.isin(["None", "nan", "NaN", "<NA>", "NaT"]).any().any(), frame


def test_sessions_show_the_logs_clock_and_no_stake(clock_db: Path,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    at = page(app(clock_db, monkeypatch), "views/sessions.py")
    table = frame_with(at, "started")
    night = table[table["period"] == "id:night"].iloc[0]
    assert (night["started"], night["ended"]) == ("2026-11-29 10:00 -05:00",
                                                   "2026-11-29 10:05 -05:00")
    assert pd.isna(night["money"]) and night["currency"] == "no stake"  # money: a number
    assert table[table["period"] != "id:night"]["started"].str.endswith("+03:00").all()
    no_none_or_nan(table[["started", "ended", "currency"]])
    # the same session in UTC, then in a named zone, chosen in the sidebar
    at.sidebar.selectbox(key="times_in").set_value("UTC").run()
    night = frame_with(at, "started").set_index("period").loc["id:night"]
    assert night["started"] == "2026-11-29 15:00 UTC"
    assert at.query_params["tz"] in ("UTC", ["UTC"])
    at.sidebar.selectbox(key="times_in").set_value("Asia/Kolkata").run()
    night = frame_with(at, "started").set_index("period").loc["id:night"]
    assert night["started"] == "2026-11-29 20:30 +05:30"


def test_the_zone_comes_from_the_url(clock_db: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    at = page(app(clock_db, monkeypatch, tz="UTC"), "views/sessions.py")
    assert at.sidebar.selectbox(key="times_in").value == "UTC"
    assert frame_with(at, "started").set_index("period").loc["id:night", "started"] == \
        "2026-11-29 15:00 UTC"


def test_hand_review_names_the_zone_and_the_logs_seats(clock_db: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    con = duckdb.connect(str(clock_db), read_only=True)
    key = con.execute("SELECT hand_key FROM hands WHERE hand_id = 'n1'").fetchone()[0]
    con.close()
    at = page(app(clock_db, monkeypatch, hand=str(key)), "views/hand_review.py")
    captions = [c.value.replace("\\", "") for c in at.caption]
    assert any("2026-11-29 10:00:00 -05:00" in c for c in captions), captions
    titles = [m.value for m in at.markdown if m.value.startswith("**ann**")
              or m.value.startswith("**bob**")]
    assert any("seat 1" in t for t in titles if "ann" in t), titles
    assert any("seat 3" in t for t in titles if "bob" in t), titles
    found = frame_with(at, "played_at")
    assert set(found["played_at"]) >= {"2026-11-29 10:00 -05:00", "2026-11-29 10:05 -05:00"}


def test_matches_and_the_ledger_name_their_zone(clock_db: Path,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    at = page(app(clock_db, monkeypatch), "views/matches.py")
    started = frame_with(at, "started")["started"]
    assert len(started) and started.str.match(r"2026-11-29 \d\d:\d\d \+03:00$").all()
    at = page(app(clock_db, monkeypatch), "views/import_page.py")
    ledger = frame_with(at, "Imported")
    assert ledger["Imported"].str.endswith(" UTC").all()


def test_fantasyland_leaves_race_points_out_when_mixed(demo_db_path: Path) -> None:
    """The demo mixes OFC Double with other variants: points per hand are those of the other
    hands only, recounted here straight from hand_players."""
    con = duckdb.connect(str(demo_db_path), read_only=True)
    try:
        player = con.execute("SELECT player FROM hand_players WHERE scoring = 'race' "
                             "GROUP BY 1 ORDER BY count(*) DESC LIMIT 1").fetchone()[0]
        filters = Filters(player=player)
        summary = fantasyland.summary(con, filters)
        race, fl_avg, normal_avg = con.execute("""
            SELECT count(*) FILTER (WHERE scoring = 'race'),
                   avg(points) FILTER (WHERE scoring <> 'race' AND fantasyland),
                   avg(points) FILTER (WHERE scoring <> 'race' AND NOT fantasyland)
            FROM hand_players WHERE player = ?""", [player]).fetchone()
        by_cards = fantasyland.by_cards(con, filters)
        per_cards = dict(con.execute("""
            SELECT coalesce(fl_cards::VARCHAR, 'unknown'), avg(points) FROM hand_players
            WHERE player = ? AND fantasyland AND scoring <> 'race' GROUP BY 1""",
                                     [player]).fetchall())
        by_top = fantasyland.by_top(con, filters)
        hands_by_top = int(by_top["hands"].sum())
        normal = con.execute("SELECT count(*) FROM hand_players WHERE player = ? AND NOT "
                             "fantasyland", [player]).fetchone()[0]
    finally:
        con.close()
    assert 0 < race == summary["race_left_out"] < summary["hands"]
    assert summary["points_per_fl_hand"] == pytest.approx(fl_avg)
    assert summary["points_per_normal_hand"] == pytest.approx(normal_avg)
    got = dict(zip(by_cards["fl_cards"], by_cards["points_per_hand"], strict=True))
    assert got == pytest.approx(per_cards)
    assert hands_by_top == normal  # the counts still hold every hand, race ones too


def test_fantasyland_keeps_race_points_when_they_are_all_there_is() -> None:
    counts = pd.DataFrame({"fantasyland": [False, True], "top_class": ["QQ", "below QQ"],
                           "race": [True, True], "hands": [4, 2], "hands_set": [4, 2],
                           "fouled": [1, 0], "earned": [1, 1], "points": [8.0, 6.0]})
    s = fantasyland.summary_of(counts)
    assert (s["points_per_normal_hand"], s["points_per_fl_hand"], s["race_left_out"]) == (
        2.0, 3.0, 0)


def test_does_chasing_pay_leaves_race_points_out_when_mixed(demo_db_path: Path) -> None:
    """Per session points per hand, recounted from hand_players without race hands."""
    from dashboard.queries import sessions
    from dashboard.views.fantasyland import without_race

    con = duckdb.connect(str(demo_db_path), read_only=True)
    try:
        player = con.execute("SELECT player FROM hand_players WHERE scoring = 'race' "
                             "GROUP BY 1 ORDER BY count(*) DESC LIMIT 1").fetchone()[0]
        frame = sessions.period_table(con, Filters(player=player))
        recount = dict(con.execute("""
            SELECT 'id:' || session_id, avg(points) FILTER (WHERE scoring <> 'race')
            FROM hand_players WHERE player = ? AND session_id IS NOT NULL GROUP BY 1""",
                                   [player]).fetchall())
    finally:
        con.close()
    assert frame["race_hands"].gt(0).any() and frame["race_hands"].eq(0).any()
    shown = without_race(frame).set_index("period")
    for period, value in recount.items():
        got = shown.loc[period, "points_per_hand"]
        assert (pd.isna(got) and value is None) or got == pytest.approx(value), period
    assert shown["trend_points_per_hand"].notna().all()


def test_the_ledger_says_when_no_format_was_recognised(tmp_path: Path) -> None:
    from dashboard.queries import imports

    junk = tmp_path / "notes.txt"
    junk.write_text("hello\nworld\n")
    import_paths([junk], tmp_path / "s.duckdb")
    con = duckdb.connect(str(tmp_path / "s.duckdb"), read_only=True)
    try:
        ledger = imports.ledger(con)
    finally:
        con.close()
    assert list(ledger["format"]) == ["not recognised"]
    no_none_or_nan(ledger)
