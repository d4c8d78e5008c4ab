"""``ofc spark review`` against ``ofc review``: the same simulated hands reviewed embedded and on
Spark (local mode, the session's ``local[2]``) give the same decisions, row for row, every
column but the clock; a part already written is not reviewed again; the output merges into a
store (``ofc import DIR``) and opens with the hands (``ofc dashboard --parquet``).

Small and quick: a dozen three-handed pineapple hands, at most 16 rollouts a placement (the
seeds, the policy and the code are the review's own; only the count is small).
"""

from __future__ import annotations

import shutil
from dataclasses import replace
from pathlib import Path
from typing import Any

import duckdb
import pytest

from ingest import store
from ingest.api import import_paths, merge_decisions, open_parquet
from ingest.decisions import COLUMNS
from ingest.parquet_store import table_files
from ofc_cli.cli import main
from ofc_cli.cmd_export import export_parquet
from ofc_core.play.review import DEFAULT_PRECISION, REVIEW_POLICY
from ofc_spark.review import review

pytestmark = pytest.mark.spark

ROLLOUTS = 16
PRECISION = replace(DEFAULT_PRECISION, max_rollouts=ROLLOUTS)
COMPARED = ", ".join(f'"{c}"' for c in COLUMNS if c != "reviewed_at")
ORDER = "ORDER BY source, hand_id, player, street"


def _embedded(tmp: Path) -> tuple[Path, Path]:
    """A store of 12 simulated hands reviewed by ``ofc review`` for Hero, and its export."""
    log, db = tmp / "session.jsonl", tmp / "ofc.duckdb"
    assert main(["simulate", "--variant", "pineapple", "--players", "3", "--hands", "12",
                 "--seed", "7", "--policies", "careful,chaser,careful", "--perspective",
                 "hero", "--hero", "Hero", "--out", str(log)]) == 0
    import_paths([str(log)], db)
    con = store.connect(db, read_only=True)
    try:
        export_parquet(con, tmp / "export")
    finally:
        con.close()
    assert main(["review", "--db", str(db), "--player", "Hero", "--rollouts",
                 str(ROLLOUTS)]) == 0
    return db, tmp / "export"


ALTERNATIVES = f"SELECT * EXCLUDE (part) FROM {{}} {ORDER}, rank"


def _spark_rows(folder: Path, name: str = "decisions") -> list[tuple[Any, ...]]:
    source = table_files(folder, name)
    assert source is not None
    sql = f"SELECT {COMPARED} FROM {source} {ORDER}" if name == "decisions" else \
        ALTERNATIVES.format(source)
    return duckdb.connect().execute(sql).fetchall()


def test_spark_review_equals_the_embedded_review_and_resumes(spark: Any, tmp_path: Path,
                                                             capsys: Any) -> None:
    db, export = _embedded(tmp_path)
    con = duckdb.connect(str(db), read_only=True)
    embedded = con.execute(f"SELECT {COMPARED} FROM decisions {ORDER}").fetchall()
    alternatives = con.execute(ALTERNATIVES.replace(" EXCLUDE (part)", "").format(
        "decision_alternatives")).fetchall()
    con.close()
    assert len(embedded) >= 50  # five decisions a hand, Fantasyland hands aside

    first = review(spark, [str(export)], str(export), players=["Hero"], precision=PRECISION,
                   policy=REVIEW_POLICY.name, parts=3)
    assert (first.parts, first.skipped_parts, first.decisions) == (3, 0, len(embedded))
    assert _spark_rows(export) == embedded
    assert len(alternatives) >= len(embedded)  # the top placements, as ofc review keeps them
    assert _spark_rows(export, "decision_alternatives") == alternatives

    shutil.rmtree(export / "decisions" / "part=1")  # as if the run had stopped before it
    again = review(spark, [str(export)], str(export), players=["Hero"], precision=PRECISION,
                   policy=REVIEW_POLICY.name)
    assert again.skipped_parts == 2 and 0 < again.decisions < len(embedded)
    assert _spark_rows(export) == embedded
    assert _spark_rows(export, "decision_alternatives") == alternatives

    with pytest.raises(ValueError, match="other settings"):
        review(spark, [str(export)], str(export), players=["Villain"], precision=PRECISION,
               policy=REVIEW_POLICY.name)

    pages = open_parquet(export)  # `ofc dashboard --parquet`: the hands and their review
    assert pages.execute("SELECT count(*) FROM decisions d JOIN hands h USING "
                         "(source, hand_id)").fetchone() == (len(embedded),)
    pages.close()

    fresh = tmp_path / "fresh.duckdb"  # `ofc import DIR`: merged into another store
    capsys.readouterr()
    assert main(["import", str(export), "--db", str(fresh)]) == 0
    assert f"{len(embedded):,} reviewed decisions merged" in capsys.readouterr().out
    con = store.connect(fresh)
    try:
        assert con.execute(f"SELECT {COMPARED} FROM decisions {ORDER}").fetchall() == embedded
        assert con.execute(ALTERNATIVES.replace(" EXCLUDE (part)", "").format(
            "decision_alternatives")).fetchall() == alternatives
        assert merge_decisions(con, export) == len(embedded)  # again: replaced, not doubled
        assert con.execute("SELECT count(*) FROM decisions").fetchone() == (len(embedded),)
    finally:
        con.close()
