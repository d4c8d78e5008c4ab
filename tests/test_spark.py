"""``ofc spark`` against the embedded path: the same logs through ``ofc import`` + ``ofc export
--parquet`` and through ``ofc spark score`` (Spark in local mode, ``local[2]``) give the same
tables, row for row; ``ofc spark report`` gives the dashboard's numbers.

The logs: the committed ofc-hh/1 samples, the demo data, and simulated logs (three players'
perspectives of the same hands, which merge; rule overrides; room errors; a file imported
twice; a log that disagrees with a stored hand; hand-worked OFC Double matches whose end names
no cube). Both paths read the three folders in one run (one Spark job graph instead of three),
once a session: the ``spark_run`` fixture (``tests/helpers/spark.py``).

Hand keys are surrogate on both sides (the embedded store numbers hands 1, 2, ...; Spark keys a
hand by its file and line), so rows are compared with ``hand_key`` replaced by the hand's
``(source, hand_id)``; every other column is compared as written, ``imports.imported_at``
(the clock) aside. Without Java these tests fail, naming the package to install.
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import duckdb
import pytest

from ingest.api import import_paths
from ingest.hand_tables import HAND_TABLES
from tests.helpers.double import MATCHES, expected_money, write_matches
from tests.helpers.spark import TABLES, SparkRun, read_table, table_rows

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = ROOT / "data" / "samples"
DEMO = ROOT / "data" / "demo"


@pytest.mark.parametrize("name", TABLES)
def test_every_table_equals_the_embedded_import_row_for_row(spark_run: SparkRun, name: str) -> None:
    ours, theirs = spark_run.spark[name], spark_run.embedded[name]
    assert len(ours) == len(theirs) > 0, name
    for a, b in zip(ours, theirs, strict=True):
        assert a == b, (name, dict(a), dict(b))


def _imports(spark_run: SparkRun) -> dict[str, dict[str, Any]]:
    return {dict(r)["path"]: dict(r) for r in spark_run.spark["imports"]}


def test_the_logs_cover_rejects_partials_merges_duplicates_and_conflicts(
        spark_run: SparkRun) -> None:
    imports = _imports(spark_run)
    by_name = {Path(p).name: i for p, i in imports.items()}
    assert len(imports) == sum(len(list(p.glob("*.jsonl"))) for p in spark_run.inputs)
    rejected = [dict(r) for r in spark_run.spark["rejected"]]
    assert any(r["partial"] for r in rejected)
    assert all(r["line"] > 0 and r["path"] in imports for r in rejected)
    assert by_name["bad-hands.jsonl"]["rejected"] == 11
    assert all(i["hands"] == i["stored"] + i["duplicate"] + i["merged"] + i["partial"]
               + i["rejected"] for i in imports.values())  # every hand read counted once
    merged = [i for i in imports.values() if i["merged"] > 0]
    assert merged  # the other players' logs completed the hands the first log stored
    assert by_name["z-again.jsonl"]["duplicate"] == by_name["z-again.jsonl"]["hands"] > 0
    assert by_name["z-changed.jsonl"]["rejected"] == 1
    assert spark_run.spark["events"]  # OFC Double's cube events, read by the reference reader
    assert spark_run.result.stored == len(spark_run.spark["hands"])
    assert spark_run.result.merged == sum(i["merged"] for i in imports.values())


def test_rescoring_the_written_tables_gives_the_same_tables(spark: Any,
                                                           spark_run: SparkRun) -> None:
    """A house-rule change is a rescore over the raw lines: scoring the written tables again
    (here under the same rules) gives the same rows, but for the hands a second log completed
    (the tables keep only the first log's line, so its hidden cards stay hidden)."""
    from ofc_spark.score import score

    score(spark, [str(spark_run.tmp / "spark")], str(spark_run.tmp / "again"), partitions=2)
    again = table_rows(spark_run.tmp / "again")
    merged = _merged_keys(spark_run)
    assert merged
    for name in (*HAND_TABLES, "rejected"):
        def kept(rows: list[tuple]) -> list[tuple]:
            return [r for r in rows if dict(r).get("hand_key") not in merged]
        assert kept(again[name]) == kept(spark_run.spark[name]), name


def _merged_keys(spark_run: SparkRun) -> set[Any]:
    """Natural keys of the hands whose stored placements show dealt cards their own line
    hides (another player's log completed them)."""
    shown: dict[Any, int] = {}
    for r in spark_run.spark["placements"]:
        row = dict(r)
        shown[row["hand_key"]] = shown.get(row["hand_key"], 0) + (row["dealt"] is not None)
    merged = set()
    for h in spark_run.spark["hands"]:
        hand = dict(h)
        obj = json.loads(hand["raw"])
        logged = sum(st.get("dealt") is not None for p in obj["players"]
                     for st in p.get("streets") or ())
        if shown.get(hand["hand_key"], 0) != logged:
            merged.add(hand["hand_key"])
    return merged


def test_report_equals_the_dashboard_queries(spark: Any, spark_run: SparkRun) -> None:
    _check_reports(spark, spark_run.tmp)


def test_every_page_shows_the_store_numbers_over_sparks_parquet(spark_run: SparkRun) -> None:
    """``ofc dashboard --parquet`` over Spark's tables: every page's main queries
    (``tests/helpers/pages.py``) give the numbers they give on the embedded store of the same
    logs, whatever the hand keys (Spark's ``import_id << 32 | line``, the store's 1, 2, ...)."""
    from dashboard.queries.filter_set import Filters
    from ingest.api import open_parquet
    from tests.helpers.pages import differences, page_numbers, players_to_check

    ours = duckdb.connect(str(spark_run.tmp / "ofc.duckdb"), read_only=True)
    theirs = open_parquet(spark_run.tmp / "spark")
    try:
        assert theirs.execute("SELECT max(hand_key) FROM hands").fetchone()[0] > 1 << 32
        for player in players_to_check(ours):
            a, b = page_numbers(ours, Filters(player=player)), page_numbers(theirs,
                                                                            Filters(player=player))
            assert not differences(a, b), (player, differences(a, b))
            assert a["overview.summary"]["hands"] > 0
    finally:
        ours.close()
        theirs.close()


def _close(a: Any, b: Any) -> bool:
    if a is None or b is None or (isinstance(b, float) and math.isnan(b)):
        return (a is None or (isinstance(a, float) and math.isnan(a))) and (
            b is None or (isinstance(b, float) and math.isnan(b)))
    if isinstance(a, float | int) and isinstance(b, float | int):
        return math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-9)
    return bool(a == b)


def _check_reports(spark: Any, tmp: Path) -> None:
    """``ofc spark report`` on Spark's tables (written by the ``spark_run`` fixture) gives, for
    every player, the numbers the dashboard's own queries give on the embedded store."""
    from dashboard.queries import opponents, overview, variants
    from dashboard.queries.common import Filters

    got = {name: read_table(tmp / "report", name) for name in ("players", "money", "opponents",
                                                          "variants")}
    con = duckdb.connect(str(tmp / "ofc.duckdb"), read_only=True)
    try:
        names = [r[0] for r in con.execute("SELECT DISTINCT player FROM hand_players")
                 .fetchall()]
        assert len(got["players"]) == len(names) > 1
        for player in names:
            filters = Filters(player=player)
            summary = overview.summary(con, filters)
            mine = next(r for r in got["players"] if r["player"] == player)
            for key in ("hands", "net_points", "per_hand", "ci95", "foul_rate", "fl_entry",
                        "fl_stay", "fl_hands", "avg_royalties"):
                assert _close(mine[key], getattr(summary, key)), (player, key)
            money = sorted((r["currency"], r["money"], r["hands"]) for r in got["money"]
                           if r["player"] == player)
            assert len(money) == len(summary.money)
            for a, b in zip(money, sorted(summary.money), strict=True):
                assert all(_close(x, y) for x, y in zip(a, b, strict=True)), (player, a, b)
            for name, query, keys in (("opponents", opponents.table, ("opponent", "scoring")),
                                      ("variants", variants.table,
                                       ("variant", "ruleset_label", "scoring"))):
                expected = query(con, filters).to_dict("records")
                ours = {tuple(r[k] for k in keys): r for r in got[name]
                        if r["player"] == player}
                assert len(ours) == len(expected) > 0, (player, name)
                for row in expected:
                    theirs = ours[tuple(row[k] for k in keys)]
                    for column, value in row.items():
                        assert _close(theirs[column], value), (player, name, column)
    finally:
        con.close()


def test_missing_java_names_the_package(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    from ofc_spark.session import NoJava, session

    monkeypatch.delenv("JAVA_HOME", raising=False)
    monkeypatch.setenv("PATH", str(tmp_path))
    with pytest.raises(NoJava, match="openjdk-17-jre-headless"):
        session("local[1]")


def test_local_sessions_get_a_heap_for_a_million_hands(spark: Any) -> None:
    """Spark's own 1 GB default ran out of heap scoring 1,000,000 hands in 4 partitions
    (benchmarks/bench_spark.py); a local session gets :data:`LOCAL_MEMORY` unless told."""
    from ofc_spark.session import LOCAL_MEMORY

    assert spark.sparkContext.getConf().get("spark.driver.memory") == LOCAL_MEMORY == "4g"


def test_spark_money_equals_the_store_on_hand_worked_matches(spark: Any, tmp_path: Path) -> None:
    """The Double money rule has two homes, SQL (ingest/money.py) and Spark (ofc_spark/money.py):
    on the hand-worked matches of tests/helpers/double.py (no cube, one double, three
    doubles, declined doubles, a surrender, the log's own cube, a winner named by "by", no
    winner) both give the figures worked out by hand. Spark settles the store's own rows with
    their race money taken out."""
    from ofc_spark.money import settle

    db = tmp_path / "ofc.duckdb"
    import_paths([str(p) for p in write_matches(tmp_path)], db)
    con = duckdb.connect(str(db), read_only=True)
    try:
        players = con.execute("SELECT hand_key, player, scoring, stake, CASE WHEN scoring = "
                              "'race' THEN NULL ELSE money END FROM hand_players").fetchall()
        events = con.execute("SELECT hand_key, type, by_player, accepted, data "
                             "FROM events").fetchall()
        hands = con.execute("SELECT hand_key, match_id, hand_id FROM hands").fetchall()
        stored = con.execute("SELECT h.hand_id, hp.player, hp.money FROM hand_players hp "
                             "JOIN hands h USING (hand_key)").fetchall()
    finally:
        con.close()
    settled = settle(
        spark.createDataFrame(players, "hand_key long, player string, scoring string, "
                                       "stake double, money double"),
        spark.createDataFrame(events, "hand_key long, type string, by_player string, "
                                      "accepted boolean, data string"),
        spark.createDataFrame([h[:2] for h in hands], "hand_key long, match_id string"))
    hand_id = {key: hid for key, _, hid in hands}
    got = {(hand_id[r["hand_key"]], r["player"]): r["money"] for r in settled.collect()}
    expected = expected_money()
    assert {(h, p): m for h, p, m in stored} == expected
    for match in MATCHES:
        worked = match.money()
        assert {k: got.get(k) for k in worked} == worked, match.name
    assert got == expected
