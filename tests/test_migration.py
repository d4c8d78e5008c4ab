"""An older store is upgraded in place on open: nothing a log said is lost, and the derived
columns the new schema added are filled by rescoring."""

from pathlib import Path

import duckdb
import pytest

from ingest import store
from ingest.importer import import_paths

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = [ROOT / "data" / "samples" / name for name in ("regular.jsonl", "pineapple.jsonl")]

# The columns schema v3 added to hand_players (schema v2 did not have them).
V3_COLUMNS = ["played_at", "session_id", "match_id", "variant", "ruleset_label", "scoring",
              "player_count", "stake", "currency", "top_hand", "middle_hand", "bottom_hand"]


def table_rows(con: duckdb.DuckDBPyConnection, table: str) -> list[tuple]:
    cols = [c for (c,) in con.execute(
        "SELECT column_name FROM information_schema.columns WHERE table_name = ? "
        "AND data_type NOT LIKE 'TIMESTAMP%' ORDER BY ordinal_position", [table]).fetchall()]
    quoted = ", ".join(f'"{c}"' for c in cols)
    return con.execute(f"SELECT {quoted} FROM {table} ORDER BY ALL").fetchall()


def make_v2_store(path: Path) -> None:
    """A store as schema version 2 left it: hand_players without the v3 columns."""
    report = import_paths(SAMPLES, path)
    assert report.stored > 0
    con = duckdb.connect(str(path))
    for column in V3_COLUMNS:
        con.execute(f'ALTER TABLE hand_players DROP COLUMN "{column}"')
    con.execute("UPDATE meta SET value = '2' WHERE key = 'schema_version'")
    con.close()


def test_an_older_store_is_upgraded_in_place(tmp_path: Path) -> None:
    fresh, old = tmp_path / "fresh.duckdb", tmp_path / "old.duckdb"
    import_paths(SAMPLES, fresh)
    make_v2_store(old)
    messages: list[str] = []
    con = store.connect(old, notify=messages.append)
    assert con.execute("SELECT value FROM meta WHERE key = 'schema_version'").fetchone() == (
        store.SCHEMA_VERSION,)
    assert any("Upgrading" in m for m in messages) and any("Upgraded" in m for m in messages)
    assert store.missing_columns(con) == []
    reference = duckdb.connect(str(fresh))
    for table in ("hands", "hand_players", "hand_rows", "pairs", "placements", "imports"):
        if table == "imports":
            # the ledger is kept as it was (same files, same counts)
            assert con.execute("SELECT path, stored FROM imports ORDER BY ALL").fetchall() == \
                reference.execute("SELECT path, stored FROM imports ORDER BY ALL").fetchall()
            continue
        assert table_rows(con, table) == table_rows(reference, table), table
    con.close()
    # Opening again does nothing more.
    again: list[str] = []
    store.connect(old, notify=again.append).close()
    assert again == []


def test_a_newer_store_is_refused_with_a_clear_message(tmp_path: Path) -> None:
    path = tmp_path / "newer.duckdb"
    store.connect(path).close()
    con = duckdb.connect(str(path))
    con.execute("UPDATE meta SET value = '99' WHERE key = 'schema_version'")
    con.close()
    with pytest.raises(store.StoreError, match="newer OFC Analytics"):
        store.connect(path)


def test_read_only_open_of_an_older_store_says_how_to_upgrade(tmp_path: Path) -> None:
    path = tmp_path / "old.duckdb"
    make_v2_store(path)
    with pytest.raises(store.StoreError, match="ofc rescore"):
        store.connect(path, read_only=True)
