"""``ofc dashboard --parquet DIR``: the pages over the Parquet tables ``ofc export --parquet``
(here) or ``ofc spark score`` (``tests/test_spark.py``) wrote show the numbers the store shows,
read-only.

The store is the demo sample plus a second room with another stake and currency
(``rooms_db_path``), with a note and tags added so that the notes tables and the tag filter
are read from Parquet too, the demo's reviewed decisions (the Review page's numbers) and the
user's names ("me"); every page's main queries (``tests/helpers/pages.py``) run on the store
and on an in-memory connection over its export (:func:`ingest.api.open_parquet`), for the
player with the most hands, under a tag, for the second under a room and a stake, and for
"me".
"""

from __future__ import annotations

import argparse
import shutil
from pathlib import Path

import duckdb
import pytest

from dashboard.demo import DEMO_DECISIONS
from dashboard.queries.filter_set import Filters, Stake
from ingest import store
from ingest.api import (
    MyName,
    ParquetError,
    StoreError,
    add_my_name,
    open_parquet,
    read_decisions,
    set_hand_annotation,
    write_decisions,
)
from ofc_cli import cmd_dashboard
from ofc_cli.cmd_export import export_parquet
from tests.helpers.apptest import app, open_page
from tests.helpers.pages import differences, page_numbers, players_to_check
from tests.helpers.store import query

TAG = "Reviewed"


@pytest.fixture(scope="module")
def tables(rooms_db_path: Path, tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """(the store, the folder of its ``ofc export --parquet``)."""
    folder = tmp_path_factory.mktemp("parquet-dashboard")
    db = folder / "store.duckdb"
    shutil.copy(rooms_db_path, db)
    con = store.connect(db)
    try:
        for source, hand_id in con.execute(
                "SELECT source, hand_id FROM hands ORDER BY hand_key LIMIT 40").fetchall():
            set_hand_annotation(con, source, hand_id, "a note", [TAG, "second"])
        assert write_decisions(con, read_decisions(DEMO_DECISIONS)) > 0
        add_my_name(con, "Hero")
        export_parquet(con, folder / "tables")
    finally:
        con.close()
    return db, folder / "tables"


def _filters(con: duckdb.DuckDBPyConnection) -> list[Filters]:
    first, second = players_to_check(con)
    room, stake, currency = con.execute(
        "SELECT source, stake, currency FROM hands WHERE stake IS NOT NULL "
        "ORDER BY source DESC LIMIT 1").fetchone() or ("", None, None)
    return [Filters(player=first), Filters(player=first, tag=TAG.lower()),
            Filters(player=second, room=room, stake=Stake(stake, currency)),
            Filters(me=(MyName("Hero"),))]


def test_every_page_shows_the_store_numbers_over_its_parquet_export(
        tables: tuple[Path, Path]) -> None:
    db, folder = tables
    ours = duckdb.connect(str(db), read_only=True)
    theirs = open_parquet(folder)
    try:
        for filters in _filters(ours):
            a, b = page_numbers(ours, filters), page_numbers(theirs, filters)
            assert not differences(a, b), (filters, differences(a, b))
            assert a["overview.summary"]["hands"] > 0, filters
        tagged = page_numbers(theirs, _filters(ours)[1])
        assert 0 < tagged["overview.summary"]["hands"] <= 40  # the notes tables came along
        mine = page_numbers(theirs, _filters(ours)[3])
        assert mine["overview.summary"]["hands"] > 0  # my_names came along
        assert mine["review.summary"] == page_numbers(ours, _filters(ours)[3])[
            "review.summary"]
    finally:
        ours.close()
        theirs.close()


def test_the_views_have_the_schema_columns_and_types(tables: tuple[Path, Path]) -> None:
    db, folder = tables
    ours = duckdb.connect(str(db), read_only=True)
    theirs = open_parquet(folder)
    try:
        sql = ("SELECT table_name, column_name, data_type FROM information_schema.columns "
               "WHERE table_schema = 'main' ORDER BY table_name, ordinal_position")
        assert theirs.execute(sql).fetchall() == ours.execute(sql).fetchall()
        views = {t for (t,) in theirs.execute(
            "SELECT table_name FROM information_schema.tables WHERE table_type = 'VIEW'"
        ).fetchall()}
        assert {"hands", "hand_players", "pairs", "imports", "rejected", "meta",
                "hand_tags", "hand_notes", "decisions"} <= views
        for sql in ("SELECT * EXCLUDE (reviewed_at) FROM decisions ORDER BY ALL",
                    "SELECT name, source FROM my_names ORDER BY added_at, rowid"):
            assert theirs.execute(sql).fetchall() == ours.execute(sql).fetchall(), sql
        assert theirs.execute("SELECT count(*) FROM decisions").fetchone()[0] > 0
    finally:
        ours.close()
        theirs.close()


def test_a_folder_without_tables_is_a_message(tmp_path: Path) -> None:
    with pytest.raises(ParquetError, match="is not a folder"):
        open_parquet(tmp_path / "missing")
    with pytest.raises(ParquetError, match="holds no hands table"):
        open_parquet(tmp_path)
    args = argparse.Namespace(parquet=tmp_path / "missing", db=None, port=8599,
                              address="localhost")
    assert cmd_dashboard.run(args) == 1  # said on stderr, no server started
    command = cmd_dashboard.streamlit_command(tmp_path, 8599, parquet=tmp_path)
    assert command[-3:] == ["--", "--parquet", str(tmp_path)]


def test_the_app_over_parquet_says_it_is_read_only_and_writes_nothing(
        tables: tuple[Path, Path], monkeypatch: pytest.MonkeyPatch) -> None:
    db, folder = tables
    [(imports,)] = query(db, "SELECT count(*) FROM imports")
    monkeypatch.setenv("OFC_PARQUET", str(folder))
    at = open_page(app(Path("/nonexistent/never.duckdb"), monkeypatch), "views/import_page.py")
    assert not at.exception
    lines = [i.value.replace("\\", "") for i in at.info]  # markdown escapes dropped
    assert sum("Read-only" in line for line in lines) == 1, lines
    assert not at.get("file_uploader") and not [t for t in at.text_input
                                                 if t.key == "watch_folder"]
    assert [s.value for s in at.subheader][0] == "Every import so far"
    assert len(at.dataframe[0].value) == imports  # the ledger, read from imports.parquet
    assert not Path("/nonexistent/never.duckdb").exists()
    hand = open_page(app(Path("/nonexistent/never.duckdb"), monkeypatch),
                     "views/hand_review.py")
    assert not hand.exception
    area = next(t for t in hand.text_area if t.key.startswith("hand_"))
    assert area.disabled
    from dashboard import db

    with pytest.raises(StoreError, match="Read-only"), db.writing():
        pass
