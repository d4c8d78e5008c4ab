"""An older store is upgraded in place by the entry points (``ingest.api.upgrade``, never by
opening it): nothing a log said is lost, and the derived columns the new schema added are
filled by rescoring."""

from pathlib import Path

import duckdb
import pytest

from ingest import store
from ingest.api import import_paths, upgrade
from ofc_cli.cli import main

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = [ROOT / "data" / "samples" / name for name in ("regular.jsonl", "pineapple.jsonl")]

# The columns schema v3 added to hand_players (schema v2 did not have them).
V3_COLUMNS = ["played_at", "session_id", "match_id", "variant", "ruleset_label", "scoring",
              "player_count", "stake", "currency", "top_hand", "middle_hand", "bottom_hand"]


def table_rows(con: duckdb.DuckDBPyConnection, table: str) -> list[tuple]:
    cols = [c for (c,) in con.execute(
        "SELECT column_name FROM information_schema.columns WHERE table_name = ? "
        "AND data_type NOT LIKE 'TIMESTAMP%' ORDER BY column_name", [table]).fetchall()]
    quoted = ", ".join(f'"{c}"' for c in cols)
    return con.execute(f"SELECT {quoted} FROM {table} ORDER BY ALL").fetchall()


def report_hands(path: Path) -> int:
    con = duckdb.connect(str(path), read_only=True)
    try:
        return con.execute("SELECT count(*) FROM hands").fetchone()[0]
    finally:
        con.close()


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
    # Opening does not upgrade (the store never calls up into the importer): the entry
    # points run the upgrade.
    assert con.execute("SELECT value FROM meta WHERE key = 'schema_version'").fetchone() == (
        "2",) and messages == []
    result = upgrade(con, old, notify=messages.append)
    assert result is not None and result.hands == report_hands(fresh)
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
    con = store.connect(old, notify=again.append)
    assert upgrade(con, old, notify=again.append) is None
    con.close()
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
    with pytest.raises(store.StoreError, match="ofc me --db") as said:
        store.connect(path, read_only=True)
    command = str(said.value).split("`")[1].split()  # the command the message names works
    assert main([*command[1:-1], str(path)]) == 0
    con = store.connect(path, read_only=True)
    try:
        assert store.schema_version(con) == store.SCHEMA_VERSION
    finally:
        con.close()


def _every_table(con: duckdb.DuckDBPyConnection) -> dict[str, list[tuple]]:
    tables = {t: table_rows(con, t) for t in ("hands", "hand_players", "hand_rows", "pairs",
                                              "placements", "events")}
    for t in ("hands", "hand_players"):  # the instants table_rows leaves out
        tables[f"{t}.played_at"] = con.execute(
            f"SELECT hand_key, epoch_ms(played_at) FROM {t} ORDER BY ALL").fetchall()
    return tables


def test_rescoring_in_bulk_stores_what_rescoring_records_stores(tmp_path: Path, monkeypatch,
                                                                 demo_db_path: Path) -> None:
    """``ofc rescore`` reads most stored hands back in the bulk reader's columns
    (``stored_columns.read_store``); the rows it stores are exactly those of the record path
    (every format, every variant, hidden cards, Fantasyland, surrender, rule overrides, merged
    perspectives)."""
    import shutil

    from ingest import rescoring

    samples = sorted((ROOT / "data" / "samples").rglob("*.*"))
    for name in ("bulk", "records"):
        shutil.copy(demo_db_path, tmp_path / f"{name}.duckdb")
        import_paths(samples, tmp_path / f"{name}.duckdb")
    con = store.connect(tmp_path / "bulk.duckdb")
    keys = [k for (k,) in con.execute("SELECT hand_key FROM hands").fetchall()]
    in_bulk = rescoring._rescore_in_bulk(con, keys)[0]
    assert in_bulk is not None
    taken = in_bulk["hands"].num_rows
    with_events = con.execute("SELECT count(DISTINCT hand_key) FROM events").fetchone()[0]
    assert taken > 0.9 * len(keys) and taken <= len(keys) - with_events
    rescoring.rescore(con, chunk_hands=400)
    bulk = _every_table(con)
    con.close()

    monkeypatch.setattr(rescoring, "_rescore_in_bulk", lambda con, keys: (None, sorted(keys)))
    con = store.connect(tmp_path / "records.duckdb")
    rescoring.rescore(con, chunk_hands=400)
    records = _every_table(con)
    con.close()
    for table, rows in records.items():
        assert bulk[table] == rows, table


def test_ofc_rescore_upgrades_an_older_store_rescoring_once(tmp_path: Path, monkeypatch,
                                                            capsys) -> None:
    from ingest import rescoring, upgrade
    from ofc_cli import cmd_rescore
    from ofc_cli.cli import main

    path = tmp_path / "old.duckdb"
    make_v2_store(path)
    calls = []
    real = rescoring.rescore

    def counted(con, **kwargs):
        calls.append(kwargs)
        return real(con, **kwargs)

    monkeypatch.setattr(upgrade, "rescore", counted)
    monkeypatch.setattr(cmd_rescore, "rescore", counted)
    assert main(["rescore", "--db", str(path)]) == 0
    out, err = capsys.readouterr()
    hands = duckdb.connect(str(path)).execute("SELECT count(*) FROM hands").fetchone()[0]
    assert len(calls) == 1 and calls[0]["progress"] is not None
    assert "Upgrading" in err and f"rescored {hands:,} hands" in out


def test_a_version_4_store_gains_the_jokers_column(tmp_path: Path) -> None:
    """Schema v5 added hand_rows.jokers (what a joker stood for): an upgrade adds and fills it."""
    path = tmp_path / "v4.duckdb"
    hand = ('{"format": "ofc-hh/1", "source": "m", "hand_id": "1", "variant": '
            '"joker-pineapple", "players": [{"name": "a", "seat": 0, "board": '
            '"AhX12c-KhKd9c7s3d-QhQdQc8s8d"}, {"name": "b", "seat": 1, "board": '
            '"3c4d5h-9s8h6c4h3s-KcJcTc9h7c"}]}\n')
    (tmp_path / "j.jsonl").write_text(hand, encoding="utf-8")
    assert import_paths([tmp_path / "j.jsonl"], path).stored == 1
    con = duckdb.connect(str(path))
    con.execute("ALTER TABLE hand_rows DROP COLUMN jokers")
    con.execute("UPDATE meta SET value = '4' WHERE key = 'schema_version'")
    con.close()
    con = store.connect(path, notify=lambda _: None)
    assert upgrade(con, path, notify=lambda _: None) is not None
    assert con.execute("SELECT jokers FROM hand_rows WHERE jokers IS NOT NULL").fetchall() == [
        ("X1=2d",)]
    con.close()
