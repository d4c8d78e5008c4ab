"""The decisions' storage (review version 6, schema 10): the new columns and the alternatives
written, read back, printed as JSON and read from it; an older store upgraded with its rows kept
and marked for review again; an older JSON file still read."""

from __future__ import annotations

import gzip
import json
from dataclasses import replace
from pathlib import Path

import duckdb
import pytest

from ingest import api
from ingest.decisions import (
    NEW_COLUMNS,
    AlternativeRow,
    DecisionRow,
    decision_json,
    decision_of_json,
    older_decisions,
    read_decisions,
    stored_decisions,
)
from ingest.store import SCHEMA_VERSION


def _row(street: int = 2, version: str = "6", **changes: object) -> DecisionRow:
    alternatives = (
        AlternativeRow(1, "-Qh-Kd/2c", 0.5, 0.2, 0.0, 0.0, 0.1, 0.02, 0.3, 0.04, 2.5, 0.3,
                       1.2, 0.5),
        AlternativeRow(2, "Qh--Kd/2c", -1.5, 0.2, 2.0, 0.25, 0.31, 0.03, 0.1, 0.02, 1.0,
                       0.2, -0.4, 0.5),
    )
    row = DecisionRow("s", "h1", "ann", street, "street", "--", "Qh Kd 2c", "Qh--Kd/2c", -1.5,
                      0.2, "-Qh-Kd/2c", 0.5, 0.2, 2.0, False, 27, 1000, "best-of-24", version,
                      ev_lost_se=0.25, chosen_foul=0.31, chosen_foul_se=0.03, best_foul=0.1,
                      best_foul_se=0.02, reason="fouls 31% against 10%",
                      alternatives=alternatives)
    return replace(row, **changes)  # type: ignore[arg-type]


def test_rows_and_alternatives_round_trip_through_the_store_and_json(tmp_path: Path) -> None:
    con = api.connect(":memory:")
    rows = [_row(2), _row(3, ev_lost=0.4, decision_class="tie", accuracy=100.0,
                          tie_with="a tie: -Qh-Kd/2c or Qh--Kd/2c")]
    assert api.write_decisions(con, rows) == 2
    assert stored_decisions(con, "ann") == rows
    assert con.execute("SELECT count(*) FROM decision_alternatives").fetchone() == (4,)
    assert con.execute("SELECT class, accuracy FROM decisions ORDER BY street").fetchall() == [
        ("mistake", 68.73), ("tie", 100.0)]
    # JSON: "class" (not the field's name) and "alternatives", read back the same
    printed = [json.dumps(decision_json(r)) for r in rows]
    assert json.loads(printed[0])["class"] == "mistake"
    assert "decision_class" not in json.loads(printed[0])
    assert json.loads(printed[0])["alternatives"][1]["diff_se"] == 0.25
    path = tmp_path / "d.jsonl.gz"
    with gzip.open(path, "wt", encoding="utf-8") as out:
        out.write("\n".join(printed) + "\n")
    assert read_decisions(path) == rows
    # writing a decision again replaces it and its alternatives
    api.write_decisions(con, [replace(rows[0], alternatives=rows[0].alternatives[:1])])
    assert con.execute("SELECT count(*) FROM decision_alternatives").fetchone() == (3,)


def test_a_row_of_an_older_version_gets_the_unpaired_error_and_its_class() -> None:
    """Version 5 wrote no paired error: the row carries the larger unpaired one."""
    new = {c for _, c in NEW_COLUMNS} | {"alternatives"}
    old = {k: v for k, v in decision_json(_row(version="5")).items() if k not in new}
    row = decision_of_json(old)
    assert row.ev_lost_se == pytest.approx((0.2 ** 2 + 0.2 ** 2) ** 0.5, abs=1e-4)
    assert (row.decision_class, row.reason, row.alternatives) == ("mistake", "", ())
    assert row.accuracy == pytest.approx(100 * 2.718281828 ** (-(2.0 - 2 * 0.2828) / 4), 0.01)


def test_a_json_line_lacking_a_column_names_the_file_and_line(tmp_path: Path) -> None:
    path = tmp_path / "d.jsonl"
    obj = decision_json(_row())
    del obj["ev_lost"]
    path.write_text("\n" + json.dumps(obj) + "\n", encoding="utf-8")
    with pytest.raises(ValueError, match=r"d\.jsonl: line 2: no ev_lost"):
        read_decisions(path)


@pytest.mark.parametrize("version", ["9", "8"])
def test_an_older_store_keeps_its_decisions_marked_for_review_again(version: str) -> None:
    """A store of schema 9 (or 8) gains the columns and the alternatives' table in place: its
    decisions are kept, filled as an older version's, counted as to be reviewed again."""
    con = api.connect(":memory:")
    api.write_decisions(con, [_row(2, version="5"), _row(3, version="4")])
    con.execute("DROP TABLE decision_alternatives")
    for _, column in sorted(NEW_COLUMNS):
        con.execute(f'ALTER TABLE decisions DROP COLUMN "{column}"')
    if version == "8":
        con.execute("ALTER TABLE hand_players DROP COLUMN review_reason")
    con.execute("UPDATE meta SET value = ? WHERE key = 'schema_version'", [version])
    said: list[str] = []
    assert api.upgrade(con, notify=said.append) is None
    assert "nothing rescored" in said[-1]
    assert con.execute("SELECT value FROM meta WHERE key = 'schema_version'").fetchone() == (
        SCHEMA_VERSION,)
    assert con.execute("SELECT count(*) FROM decisions WHERE class IS NULL OR ev_lost_se IS "
                       "NULL OR reason IS NULL").fetchone() == (0,)
    assert older_decisions(con, "6") == 2
    assert older_decisions(con, "5", "ann") == 1
    kept = {r.street: r for r in stored_decisions(con, "ann")}
    assert kept[2].version == "5" and kept[2].decision_class == "mistake"
    assert kept[2].ev_lost_se == pytest.approx(0.2828, abs=1e-4)
    assert con.execute("SELECT count(*) FROM decision_alternatives").fetchone() == (0,)


def test_removing_a_hand_removes_its_alternatives(tmp_path: Path) -> None:
    con: duckdb.DuckDBPyConnection = api.connect(":memory:")
    api.write_decisions(con, [_row()])
    from ingest.decisions import delete_decisions_of
    delete_decisions_of(con, "SELECT 's', 'h1'", [])
    assert con.execute("SELECT count(*) FROM decision_alternatives").fetchone() == (0,)
    assert con.execute("SELECT count(*) FROM decisions").fetchone() == (0,)
