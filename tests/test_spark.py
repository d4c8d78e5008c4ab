"""``ofc spark`` against the embedded path: the same logs through ``ofc import`` + ``ofc export
--parquet`` and through ``ofc spark score`` (Spark in local mode, ``local[2]``) give the same
tables, row for row; ``ofc spark report`` gives the dashboard's numbers.

The logs: the committed ofc-hh/1 samples, the demo data, and simulated logs (three players'
perspectives of the same hands, which merge; rule overrides; room errors; a file imported
twice; a log that disagrees with a stored hand). Both paths read the three folders in one run
(one Spark job graph instead of three keeps the module's time down on a shared machine).

Hand keys are surrogate on both sides (the embedded store numbers hands 1, 2, ...; Spark keys a
hand by its file and line), so rows are compared with ``hand_key`` replaced by the hand's
``(source, hand_id)``; every other column is compared as written, ``imports.imported_at``
(the clock) aside. Without Java these tests fail, naming the package to install.
"""

from __future__ import annotations

import json
import math
import shutil
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import duckdb
import pyarrow.dataset as ds
import pytest

from ingest import store
from ingest.api import import_paths
from ingest.hand_tables import HAND_TABLES
from ofc_cli.cmd_export import export_parquet
from tests.double_matches import MATCHES, expected_money, write_matches

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = ROOT / "data" / "samples"
DEMO = ROOT / "data" / "demo"
TABLES = (*HAND_TABLES, "rejected", "imports", "meta")


@pytest.fixture(scope="module")
def spark() -> Iterator[Any]:
    from ofc_spark.session import java_missing, session

    problem = java_missing()
    if problem is not None:
        pytest.fail(problem)
    spark = session("local[2]", app="ofc-tests", shuffle_partitions=2)
    spark.sparkContext.setLogLevel("ERROR")
    yield spark
    spark.stop()


def _read(folder: Path, name: str) -> list[dict[str, Any]]:
    path = folder / (name if name in HAND_TABLES else f"{name}.parquet")
    if not path.exists():
        return []
    partitioning = "hive" if name in HAND_TABLES else None
    return ds.dataset(path, format="parquet", partitioning=partitioning).to_table().to_pylist()


def _same(value: Any) -> Any:
    if isinstance(value, float) and math.isnan(value):
        return "NaN"
    return value


def _rows(folder: Path) -> dict[str, list[tuple]]:
    """Every table's rows, hand keys as ``(source, hand_id)``, sorted, each row a tuple of
    ``(column, value)`` pairs."""
    hands = _read(folder, "hands")
    natural = {h["hand_key"]: (h["source"], h["hand_id"]) for h in hands}
    out: dict[str, list[tuple]] = {}
    for name in TABLES:
        rows = hands if name == "hands" else _read(folder, name)
        shaped = []
        for row in rows:
            if "hand_key" in row:
                row["hand_key"] = natural[row["hand_key"]]
            row.pop("imported_at", None)
            shaped.append(tuple(sorted((k, _same(v)) for k, v in row.items())))
        out[name] = sorted(shaped, key=repr)
    return out


def _simulate(out: Path, *args: str) -> None:
    subprocess.run([sys.executable, "-m", "ofc_cli.cli", "simulate", *args, "--out", str(out)],
                   check=True, capture_output=True, cwd=ROOT)


def _generated(folder: Path) -> Path:
    folder.mkdir()
    _simulate(folder / "pineapple.jsonl", "--variant", "pineapple", "--players", "3",
              "--hands", "100", "--seed", "7", "--perspective", "hero",
              "--room-error-rate", "0.05")
    _simulate(folder / "regular.jsonl", "--variant", "regular", "--players", "2",
              "--hands", "100", "--seed", "8", "--rules", "scoring=2-4")
    files = sorted(folder.glob("*.jsonl"))
    assert len(files) == 4
    # the same log again (duplicates) and a log with one hand changed (a conflict)
    shutil.copy(files[0], folder / "z-again.jsonl")
    lines = files[-1].read_text().splitlines()
    lines[3] = lines[3].replace('"name": "', '"name": "x', 1)
    (folder / "z-changed.jsonl").write_text("\n".join(lines) + "\n")
    return folder


def _ofc_hh_samples(folder: Path) -> Path:
    """The committed ofc-hh/1 samples (ofc spark reads that format only)."""
    folder.mkdir()
    for path in sorted(SAMPLES.glob("*.jsonl")):
        shutil.copy(path, folder / path.name)
    return folder


@dataclass(frozen=True)
class Run:
    tmp: Path
    inputs: tuple[Path, ...]
    embedded: dict[str, list[tuple]]
    spark: dict[str, list[tuple]]
    result: Any


@pytest.fixture(scope="module")
def run(spark: Any, tmp_path_factory: pytest.TempPathFactory) -> Run:
    """The three sets of logs through both paths."""
    from ofc_spark.score import score

    tmp = tmp_path_factory.mktemp("spark")
    inputs = (_ofc_hh_samples(tmp / "samples"), DEMO, _generated(tmp / "generated"))
    db = tmp / "ofc.duckdb"
    import_paths([str(p) for p in inputs], db)
    con = store.connect(db, read_only=True)
    try:
        export_parquet(con, tmp / "embedded")
    finally:
        con.close()
    result = score(spark, [str(p) for p in inputs], str(tmp / "spark"), partitions=2)
    return Run(tmp, inputs, _rows(tmp / "embedded"), _rows(tmp / "spark"), result)


@pytest.mark.parametrize("name", TABLES)
def test_every_table_equals_the_embedded_import_row_for_row(run: Run, name: str) -> None:
    ours, theirs = run.spark[name], run.embedded[name]
    assert len(ours) == len(theirs) > 0, name
    for a, b in zip(ours, theirs, strict=True):
        assert a == b, (name, dict(a), dict(b))


def _imports(run: Run) -> dict[str, dict[str, Any]]:
    return {dict(r)["path"]: dict(r) for r in run.spark["imports"]}


def test_the_logs_cover_rejects_partials_merges_duplicates_and_conflicts(run: Run) -> None:
    imports = _imports(run)
    by_name = {Path(p).name: i for p, i in imports.items()}
    assert len(imports) == sum(len(list(p.glob("*.jsonl"))) for p in run.inputs)
    rejected = [dict(r) for r in run.spark["rejected"]]
    assert any(r["partial"] for r in rejected)
    assert all(r["line"] > 0 and r["path"] in imports for r in rejected)
    assert by_name["bad-hands.jsonl"]["rejected"] == 11
    assert all(i["hands"] == i["stored"] + i["duplicate"] + i["merged"] + i["partial"]
               + i["rejected"] for i in imports.values())  # every hand read counted once
    merged = [i for i in imports.values() if i["merged"] > 0]
    assert merged  # the other players' logs completed the hands the first log stored
    assert by_name["z-again.jsonl"]["duplicate"] == by_name["z-again.jsonl"]["hands"] > 0
    assert by_name["z-changed.jsonl"]["rejected"] == 1
    assert run.spark["events"]  # OFC Double's cube events, read by the reference reader
    assert run.result.stored == len(run.spark["hands"])
    assert run.result.merged == sum(i["merged"] for i in imports.values())


def test_rescoring_the_written_tables_gives_the_same_tables(spark: Any, run: Run) -> None:
    """A house-rule change is a rescore over the raw lines: scoring the written tables again
    (here under the same rules) gives the same rows, but for the hands a second log completed
    (the tables keep only the first log's line, so its hidden cards stay hidden)."""
    from ofc_spark.score import score

    score(spark, [str(run.tmp / "spark")], str(run.tmp / "again"), partitions=2)
    again = _rows(run.tmp / "again")
    merged = _merged_keys(run)
    assert merged
    for name in (*HAND_TABLES, "rejected"):
        def kept(rows: list[tuple]) -> list[tuple]:
            return [r for r in rows if dict(r).get("hand_key") not in merged]
        assert kept(again[name]) == kept(run.spark[name]), name


def _merged_keys(run: Run) -> set[Any]:
    """Natural keys of the hands whose stored placements show dealt cards their own line
    hides (another player's log completed them)."""
    shown: dict[Any, int] = {}
    for r in run.spark["placements"]:
        row = dict(r)
        shown[row["hand_key"]] = shown.get(row["hand_key"], 0) + (row["dealt"] is not None)
    merged = set()
    for h in run.spark["hands"]:
        hand = dict(h)
        obj = json.loads(hand["raw"])
        logged = sum(st.get("dealt") is not None for p in obj["players"]
                     for st in p.get("streets") or ())
        if shown.get(hand["hand_key"], 0) != logged:
            merged.add(hand["hand_key"])
    return merged


def test_report_equals_the_dashboard_queries(spark: Any, run: Run) -> None:
    _check_reports(spark, run.tmp)


def _close(a: Any, b: Any) -> bool:
    if a is None or b is None or (isinstance(b, float) and math.isnan(b)):
        return (a is None or (isinstance(a, float) and math.isnan(a))) and (
            b is None or (isinstance(b, float) and math.isnan(b)))
    if isinstance(a, float | int) and isinstance(b, float | int):
        return math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-9)
    return bool(a == b)


def _check_reports(spark: Any, tmp: Path) -> None:
    """``ofc spark report`` on Spark's tables gives, for every player, the numbers the
    dashboard's own queries give on the embedded store."""
    from dashboard.queries import opponents, overview, variants
    from dashboard.queries.common import Filters
    from ofc_spark.report import report

    report(spark, str(tmp / "spark"), str(tmp / "report"))
    got = {name: _read(tmp / "report", name) for name in ("players", "money", "opponents",
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
    on the hand-worked matches of tests/double_matches.py (no cube, one double, three doubles, a
    surrender, the log's own cube, no winner) both give the figures worked out by hand. Spark
    settles the store's own rows with their race money taken out."""
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
    for name, (_, worked) in MATCHES.items():
        assert {k: got.get(k) for k in worked} == worked, name
    assert got == expected
