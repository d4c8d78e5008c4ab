"""Time at the table (issue 39, point 1): hours played, sittings and the rates an hour, from
hands whose times the test sets: two tables played at once are one sitting and their hours
are not counted twice; a break longer than the sitting break starts another; undated hands
have no time. And aliases (``ofc alias``, ``player_aliases``): set, listed, removed, kept
through a rescore."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone
from pathlib import Path

import duckdb
import pytest

from dashboard import hours
from dashboard.queries import sessions, table_time
from dashboard.queries.common import Filters
from ingest.api import aliases, connect, import_files, rescore, set_alias
from ofc_cli.cli import main as ofc
from tests.helpers.store import hand_lines

START = datetime(2026, 11, 20, 18, 0, tzinfo=timezone.utc)


def at(minutes: float) -> str:
    return (START + timedelta(minutes=minutes)).isoformat()


@pytest.fixture(scope="module")
def timed_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Table A: 10 hands a minute apart from 18:00; table B, played at the same time: 10 hands
    a minute apart from 18:00:30; then, after a 2-hour break, table C: 5 hands two minutes
    apart; and 2 hands without a date."""
    a = hand_lines("table-a", 10, 0, lambda n: at(n))
    b = hand_lines("table-b", 10, 10, lambda n: at(n - 10 + 0.5))
    c = hand_lines("table-c", 5, 20, lambda n: at(120 + 2 * (n - 20)))
    undated = [line.replace(f'"played_at": "{at(0)}"', '"played_at": null')
               for line in hand_lines("undated", 2, 25, lambda n: at(0))]
    db = tmp_path_factory.mktemp("timed") / "timed.duckdb"
    data = "\n".join(a + b + c + undated).encode()
    con = connect(str(db))
    try:
        import_files([("timed.jsonl", data)], con)
    finally:
        con.close()
    return db


def test_overlapping_tables_are_one_sitting_and_hours_are_not_doubled(timed_db: Path) -> None:
    con = duckdb.connect(str(timed_db), read_only=True)
    try:
        t = table_time.totals(con, Filters(player="Hero"))
        by_session = table_time.by_period(con, Filters(player="Hero"), "session", 30)
    finally:
        con.close()
    assert t.sittings == 2
    assert (t.dated_hands, t.undated) == (25, 2)
    # A and B: 18:00 .. 18:09:30 (the hands half a minute apart, 19 gaps), then the last
    # hand a typical hand's time (the median gap, 30 s); C: 4 gaps of 2 minutes + 30 s
    assert t.seconds == pytest.approx(9.5 * 60 + 30 + 8 * 60 + 30)
    assert t.hands_per_hour == pytest.approx(25 * 3600 / t.seconds)
    rows = by_session.set_index("period")
    assert rows.loc["id:table-a", "first_sitting"] == rows.loc["id:table-b", "first_sitting"] == 1
    assert rows.loc["id:table-c", "first_sitting"] == 2
    # the sessions' hours add up to the total (two tables at once are not counted twice)
    assert rows["seconds"].sum() == pytest.approx(t.seconds)


def test_the_sessions_table_gets_hours_and_rates(timed_db: Path) -> None:
    con = duckdb.connect(str(timed_db), read_only=True)
    try:
        frame = sessions.period_table(con, Filters(player="Hero"), "day", 30)
        timed = table_time.by_period(con, Filters(player="Hero"), "day", 30)
    finally:
        con.close()
    shown = hours.with_hours(frame, timed).set_index("period")
    day = shown.loc["2026-11-20"]
    assert day["hours"] == "19 min"
    assert day["per_hour"] == pytest.approx(day["points"] * 3600 / day["seconds"])
    assert shown.loc["undated", "hours"] == "–"


def test_the_sitting_break_is_one_constant_and_said_on_the_page() -> None:
    assert str(table_time.SITTING_BREAK_MINUTES) in hours.SITTING_HELP
    tiles = hours.tiles(table_time.TableTime(3600.0, 3600.0, (), 1, 60, 3), 12.0, ())
    assert tiles[0] == ("Hours played", "1 h 00 min", "60 hands an hour; 3 undated hands not "
                        "timed")
    assert tiles[1][2] == f"a break over {table_time.SITTING_BREAK_MINUTES} min ends one"
    assert tiles[2][:2] == ("Points an hour", "+12.0")


def test_aliases_are_set_listed_removed_and_kept_through_a_rescore(
        timed_db: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "alias.duckdb"
    db.write_bytes(timed_db.read_bytes())
    assert ofc(["alias", "Hero", "Émile", "--db", str(db)]) == 0
    assert "Hero is shown as Émile" in capsys.readouterr().out
    assert ofc(["alias", "--db", str(db)]) == 0
    assert "Hero -> Émile" in capsys.readouterr().out
    con = connect(str(db))
    try:
        rescore(con)
        assert aliases(con) == {"Hero": "Émile"}
        assert not set_alias(con, "Hero", "Émile")  # nothing changed
    finally:
        con.close()
    assert ofc(["alias", "Hero", "--remove", "--db", str(db)]) == 0
    assert ofc(["alias", "Hero", "--remove", "--db", str(db)]) == 1
    assert "has no alias" in capsys.readouterr().err
