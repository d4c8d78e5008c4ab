"""OFC Double's money on hand-worked matches (``tests/helpers/double.py``): no cube named and
no double, three doubles, a declined redouble, a surrender, no winner. The embedded store
(``ingest/money.py``), the pages' queries, a rescore, and Spark (``ofc_spark/money.py``: its
settling of the stored tables, ``ofc spark score`` and ``ofc spark report``) must all give the
money written out by hand. (Spark's ``score`` and ``report`` read the same matches among the
logs of the session's ``spark_run``, shared with ``tests/test_spark.py``.)
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import duckdb
import pytest

from dashboard.queries import matches as matches_page
from dashboard.queries import overview
from dashboard.queries.common import Filters
from ingest import api
from tests.helpers.double import MATCHES, TOTALS, Money, expected_money, write_log
from tests.helpers.spark import SparkRun, read_table


def _money(con: duckdb.DuckDBPyConnection) -> Money:
    rows = con.execute("SELECT h.hand_id, hp.player, hp.money FROM hand_players hp "
                       "JOIN hands h USING (hand_key)").fetchall()
    return {(hand, player): money for hand, player, money in rows}


def _stored(db: Path) -> Money:
    con = duckdb.connect(str(db), read_only=True)
    try:
        return _money(con)
    finally:
        con.close()


@pytest.fixture(scope="module")
def worked_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A store holding every hand-worked match."""
    folder = tmp_path_factory.mktemp("double")
    db = folder / "ofc.duckdb"
    report = api.import_paths([str(write_log(folder / "matches.jsonl"))], db)
    assert report.stored == sum(len(m.events) for m in MATCHES)
    return db


def test_a_match_without_cube_or_double_pays_the_stake(tmp_path: Path) -> None:
    match = next(m for m in MATCHES if m.name == "no-cube")
    db = tmp_path / "ofc.duckdb"
    api.import_paths([str(write_log(tmp_path / "m.jsonl", (match,)))], db)
    assert _stored(db) == {("no-cube-1", "wanda"): None, ("no-cube-1", "walt"): None,
                           ("no-cube-2", "wanda"): 2.0, ("no-cube-2", "walt"): -2.0}


def test_three_accepted_doubles_make_a_cube_of_eight(tmp_path: Path) -> None:
    match = next(m for m in MATCHES if m.name == "three-doubles")
    db = tmp_path / "ofc.duckdb"
    api.import_paths([str(write_log(tmp_path / "m.jsonl", (match,)))], db)
    stored = _stored(db)
    assert stored[("three-doubles-3", "walt")] == 16.0  # 2 EUR x 8
    assert stored[("three-doubles-3", "wanda")] == -16.0
    assert stored == match.money()


def test_every_match_is_settled_and_the_pages_sum_it(worked_db: Path) -> None:
    con = duckdb.connect(str(worked_db), read_only=True)
    try:
        assert _money(con) == expected_money()
        for player, total in TOTALS.items():
            f = Filters(player=player)
            hands = sum(len(m.events) for m in MATCHES)
            assert overview.summary(con, f).money == (("EUR", pytest.approx(total), hands),)
            by_match = matches_page.table(con, f).set_index("match_id")["money"].to_dict()
            # the Matches page shows no money (NaN: "–") for a match whose end names no winner
            assert math.isnan(by_match.pop("no-winner"))
            assert by_match == {m.name: pytest.approx(getattr(m, player)) for m in MATCHES
                                if m.name != "no-winner"}
            assert matches_page.summary(con, f)["money"] == pytest.approx(total)
    finally:
        con.close()


def test_rescoring_settles_the_same_money(tmp_path: Path) -> None:
    db = tmp_path / "ofc.duckdb"
    api.import_paths([str(write_log(tmp_path / "m.jsonl"))], db)
    con = api.connect(db)
    try:
        con.execute("UPDATE hand_players SET money = NULL")
        api.rescore(con)
        assert _money(con) == expected_money()
    finally:
        con.close()


# --------------------------------------------------------------------------------------------
# Spark: the same money from ofc_spark/money.py


SETTLE_INPUTS = (
    ("hand_players", "SELECT hp.hand_key, h.hand_id, hp.player, hp.scoring, hp.stake, "
                     "CAST(NULL AS DOUBLE) FROM hand_players hp JOIN hands h USING (hand_key)",
     "hand_key long, hand_id string, player string, scoring string, stake double, "
     "money double"),
    ("events", "SELECT hand_key, type, by_player, accepted, data FROM events",
     "hand_key long, type string, by_player string, accepted boolean, data string"),
    ("hands", "SELECT hand_key, match_id FROM hands", "hand_key long, match_id string"))
"""The columns :func:`ofc_spark.money.settle` reads, from the embedded store."""


def test_spark_settles_the_stored_tables_to_the_same_money(spark: Any, worked_db: Path) -> None:
    """Spark's rule on the embedded store's own tables (money cleared first)."""
    from ofc_spark.money import settle

    con = duckdb.connect(str(worked_db), read_only=True)
    try:
        frames = {name: spark.createDataFrame(con.execute(sql).fetchall(), schema) for
                  name, sql, schema in SETTLE_INPUTS}
    finally:
        con.close()
    settled = settle(frames["hand_players"], frames["events"], frames["hands"]).collect()
    got = {(r["hand_id"], r["player"]): r["money"] for r in settled}
    assert got == expected_money()


def test_spark_score_writes_the_same_money(spark_run: SparkRun) -> None:
    """``ofc spark score`` of the hand-worked log (among the logs of ``spark_run``)."""
    hands = {dict(h)["hand_key"]: dict(h) for h in spark_run.spark["hands"]}
    got = {}
    for row in map(dict, spark_run.spark["hand_players"]):
        hand = hands[row["hand_key"]]
        if hand["source"] == "worked":
            got[hand["hand_id"], row["player"]] = row["money"]
    assert got == expected_money()


def test_spark_report_sums_each_players_money(spark_run: SparkRun) -> None:
    money = read_table(spark_run.tmp / "report", "money")
    assert {(r["player"], r["currency"]): r["money"] for r in money
            if r["player"] in TOTALS} == {
        (player, "EUR"): pytest.approx(total) for player, total in TOTALS.items()}
