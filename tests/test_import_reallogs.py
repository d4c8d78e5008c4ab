"""Real logs through the import pipeline: FPDB's capture folders, zips and databases, the
pineapple app's database; the ledger, the audit, re-imports, locked and damaged files."""

from __future__ import annotations

import json
import shutil
import sqlite3
import zipfile
from pathlib import Path

import duckdb
import pytest

from ingest import store
from ingest.api import import_files, import_paths, rescore
from ingest.formats import ParsedHand
from ingest.formats.ofc_hh import parse_text
from ofc_cli.cli import main
from ofc_core.hand import HandRecord
from ofc_core.scoring import score_hand
from tests.reallogs_fixtures import (
    hand_envelope,
    raw_lines,
    simulated,
    swc_hand_id,
    write_fpdb_sqlite,
)


def capture_folder(folder: Path) -> dict[str, HandRecord]:
    """An FPDB capture folder: frames of a pineapple table (all its hands), hand files of
    some of them, and a database of a turbo table; the room errs on some hands. Returns the
    hands by SwC id."""
    folder.mkdir(parents=True, exist_ok=True)
    pineapple = simulated("pineapple", 3, 8, seed=31, error_rate=0.3, session="cap-p")
    turbo = simulated("turbo", 2, 6, seed=32, error_rate=0.3, session="cap-t")
    (folder / "raw_messages.jsonl").write_text("\n".join(raw_lines(pineapple)) + "\n",
                                               encoding="utf-8")
    for record in pineapple[:4]:
        (folder / f"hand_{swc_hand_id(record)}.json").write_text(
            json.dumps(hand_envelope(record), indent=2), encoding="utf-8")
    write_fpdb_sqlite(folder / "fpdb.db3", [hand_envelope(r) for r in turbo])
    return {str(swc_hand_id(r)): r for r in pineapple + turbo}


def count(db: Path, sql: str) -> int:
    con = duckdb.connect(str(db), read_only=True)
    try:
        return int(con.execute(sql).fetchone()[0])
    finally:
        con.close()


def expected_differences(hands: dict[str, HandRecord]) -> list[tuple[str, str, float, float]]:
    """(hand id, player, theirs, ours) where the room's points are not the scalar scorer's."""
    out = []
    for hand_id, record in hands.items():
        result = score_hand(record.seats(), record.ruleset, record.first_to_act)
        out += [(hand_id, p.name, p.reported_points, result.player(p.name).points)
                for p in record.players if p.reported_points != result.player(p.name).points]
    return sorted(out)


def test_a_capture_folder_imported_twice_stores_each_hand_once(tmp_path: Path,
                                                               capsys) -> None:
    hands = capture_folder(tmp_path / "Capture")
    db = tmp_path / "ofc.duckdb"
    assert main(["import", str(tmp_path / "Capture"), "--db", str(db), "--json"]) == 0
    first = json.loads(capsys.readouterr().out)
    assert count(db, "SELECT count(*) FROM hands") == len(hands) == 14
    assert count(db, "SELECT count(DISTINCT hand_id) FROM hands") == len(hands)
    assert count(db, "SELECT count(*) FROM imports") == 4 + 1 + 1  # hand files, frames, db
    by_file = {Path(f["path"]).name: f for f in first["files"]}
    assert by_file["fpdb.db3"]["stored"] == 6 and by_file["fpdb.db3"]["format"] == "fpdb-swc"
    assert by_file["raw_messages.jsonl"]["stored"] == 4  # 4 hands came from the hand files
    assert by_file["raw_messages.jsonl"]["duplicate"] == 4
    differ = sorted((d["hand_id"], d["player"], d["theirs"], d["ours"])
                    for f in first["files"] for d in f.get("audit", {}).get("differ", []))
    assert differ == expected_differences(hands) and differ
    audited = sum(f["audit"]["audited"] for f in first["files"] if "audit" in f)
    equal = sum(f["audit"]["equal"] for f in first["files"] if "audit" in f)
    assert (audited, audited - equal) == (14, len({d[0] for d in differ}))

    assert main(["import", str(tmp_path / "Capture"), "--db", str(db), "--json"]) == 0
    again = json.loads(capsys.readouterr().out)
    assert (again["stored"], again["duplicate"], again["rejected"]) == (0, 14 + 4, 0)
    assert count(db, "SELECT count(*) FROM hands") == 14

    packed = tmp_path / "capture.zip"
    with zipfile.ZipFile(packed, "w") as z:
        for path in sorted((tmp_path / "Capture").iterdir()):
            z.write(path, f"Capture/{path.name}")
    assert main(["import", str(packed), "--db", str(db)]) == 0
    out = capsys.readouterr().out
    assert "capture.zip/Capture/fpdb.db3 [fpdb-swc]: 6 hands, 0 stored, 6 duplicate" in out
    assert count(db, "SELECT count(*) FROM hands") == 14


def test_a_database_is_one_ledger_row_and_its_bad_hands_are_named(tmp_path: Path) -> None:
    turbo = simulated("turbo", 2, 5, seed=33, session="db-t")
    db3 = write_fpdb_sqlite(tmp_path / "fpdb.db3", [hand_envelope(r) for r in turbo])
    con = sqlite3.connect(db3)
    con.execute("UPDATE HttpOFCHands SET rawJson = '{not json' WHERE id = 2")
    con.commit()
    con.close()
    report = import_paths([db3], tmp_path / "ofc.duckdb")
    (f,) = report.files
    assert (f.format, f.hands, f.stored, f.rejected) == ("fpdb-swc", 5, 4, 1)
    assert f.errors[0].hand_id == str(swc_hand_id(turbo[1])) and f.errors[0].line == 2
    assert "cannot read its rawJson" in f.errors[0].message
    ledger = store.connect(tmp_path / "ofc.duckdb")
    try:
        assert ledger.execute("SELECT count(*), sum(rejected) FROM imports").fetchone() == (1, 1)
        assert ledger.execute("SELECT hand_id FROM rejected").fetchone()[0] == f.errors[0].hand_id
    finally:
        ledger.close()


def test_locked_damaged_and_unknown_databases_store_nothing(tmp_path: Path) -> None:
    regular = simulated("regular", 2, 3, seed=34, session="lk")
    db3 = write_fpdb_sqlite(tmp_path / "fpdb.db3", [hand_envelope(r) for r in regular])
    before = db3.read_bytes()
    target = tmp_path / "ofc.duckdb"
    holder = sqlite3.connect(db3)
    holder.execute("BEGIN EXCLUSIVE")
    try:
        (locked,) = import_paths([db3], target).files
    finally:
        holder.rollback()
        holder.close()
    assert locked.unreadable is not None and "locked by another program" in locked.unreadable
    assert count(target, "SELECT count(*) FROM hands") == 0
    assert db3.read_bytes() == before  # read-only: the file is as it was

    damaged = tmp_path / "damaged.db3"
    damaged.write_bytes(before[:100] + b"\x00" * (len(before) - 100))
    other = tmp_path / "notes.sqlite"
    con = sqlite3.connect(other)
    con.execute("CREATE TABLE notes (text TEXT)")
    con.commit()
    con.close()
    report = import_paths([damaged, other], target)
    assert [f.format for f in report.files] == [None, None]
    assert "damaged" in report.files[0].unreadable
    assert "not a log this version reads" in report.files[1].unreadable
    assert "its tables: notes" in report.files[1].unreadable
    assert report.exit_code == 1

    (after,) = import_paths([db3], target).files  # nothing was lost: it imports now
    assert after.stored == 3 and count(target, "SELECT count(*) FROM hands") == 3


def test_a_cut_capture_is_partial_and_read_when_it_grows(tmp_path: Path) -> None:
    hands = simulated("progressive-pineapple", 2, 4, seed=35, session="cut")
    full = "\n".join(raw_lines(hands)) + "\n"
    cut = full[: full.rindex('"GameState"') - 30]
    con = store.connect(tmp_path / "ofc.duckdb")
    try:
        (first,) = import_files([("raw_messages.jsonl", cut.encode())], con).files
        assert (first.stored, first.partial) == (3, 1)
        (again,) = import_files([("raw_messages.jsonl", full.encode())], con).files
        assert (again.stored, again.duplicate, again.partial) == (1, 3, 0)
    finally:
        con.close()


def json_text(raw: str) -> bool:
    """A hand's kept text is its JSON (a hand file, a database row) or its frames' lines."""
    try:
        return isinstance(json.loads(raw), dict)
    except ValueError:
        return all(isinstance(json.loads(line), dict) for line in raw.split("\n"))


def test_stored_capture_hands_rescore_without_their_files(tmp_path: Path) -> None:
    folder = tmp_path / "Capture"
    capture_folder(folder)
    target = tmp_path / "ofc.duckdb"
    import_paths([folder], target)
    shutil.rmtree(folder)
    con = store.connect(target)
    try:
        query = ("SELECT h.hand_id, player, points, reported_points, hp.points_differ "
                 "FROM hand_players hp JOIN hands h USING (hand_key) ORDER BY ALL")
        before = con.execute(query).fetchall()
        result = rescore(con)
        assert (result.hands, result.failed) == (14, ())
        assert con.execute(query).fetchall() == before
        raws = [r for (r,) in con.execute("SELECT raw FROM hands WHERE source = 'swc'")
                .fetchall()]
        assert len(raws) == 14 and all(map(json_text, raws))
    finally:
        con.close()


@pytest.mark.parametrize("code", [77, 84])
def test_variant_tables_are_rejected_with_their_code(tmp_path: Path, code: int) -> None:
    hands = simulated("pineapple", 2, 2, seed=36, session=f"v{code}")
    text = "\n".join(raw_lines(hands, codes=[code, code])) + "\n"
    con = store.connect(tmp_path / "ofc.duckdb")
    try:
        (f,) = import_files([("raw_messages.jsonl", text.encode())], con).files
    finally:
        con.close()
    assert (f.stored, f.rejected) == (0, 2)
    assert all(f"game code {code}" in e.message for e in f.errors)


SAMPLES = Path(__file__).resolve().parent.parent / "data" / "samples"


@pytest.mark.parametrize("name", ["fpdb-swc/raw_messages.jsonl", "fpdb-swc/hand_1480001.json",
                                  "fpdb-swc/fpdb.db3", "pineapple-app/ofc_logs.db"])
def test_importing_a_real_log_again_stores_nothing(tmp_path: Path, name: str) -> None:
    target = tmp_path / "ofc.duckdb"
    (first,) = import_paths([SAMPLES / name], target).files
    assert first.stored > 0 and first.audit is not None and first.audit.audited == first.stored
    (again,) = import_paths([SAMPLES / name], target).files
    assert (again.stored, again.duplicate, again.rejected) == (0, first.stored, 0)
    assert count(target, "SELECT count(*) FROM hands") == first.stored


FPDB_CAPTURE = Path(__file__).resolve().parent / "data" / "fpdb-capture"
PLAYED = ("SELECT h.hand_id, h.variant, h.button, hp.player, hp.seat, "
          "hp.fantasyland, hp.fouled, hp.royalties, hp.fantasyland_next, hp.points, "
          "hp.reported_points FROM hands h JOIN hand_players hp USING (hand_key) ORDER BY ALL")


def test_ofc_import_of_frames_fpdb_wrote_stores_150_of_150_as_played(tmp_path: Path,
                                                                     capsys) -> None:
    """``raw_messages.jsonl`` written by FPDB's own capture code (150 hands, game codes
    70-76): every hand stored with the variant, boards and results of the hands as played
    (``truth.jsonl``, imported beside it), the room's wrong points in the audit."""
    frames = tmp_path / "raw_messages.jsonl"
    with zipfile.ZipFile(FPDB_CAPTURE / "capture.zip") as z:
        frames.write_bytes(z.read("Capture/raw_messages.jsonl"))
    db, played = tmp_path / "ofc.duckdb", tmp_path / "played.duckdb"
    assert main(["import", str(frames), "--db", str(db), "--json"]) == 0
    (f,) = json.loads(capsys.readouterr().out)["files"]
    assert (f["format"], f["hands"], f["stored"], f["partial"], f["errors"]) == \
        ("fpdb-swc", 150, 150, 0, [])
    assert main(["import", str(FPDB_CAPTURE / "truth.jsonl"), "--db", str(played)]) == 0
    capsys.readouterr()
    got, expected = (duckdb.connect(str(p), read_only=True) for p in (db, played))
    try:
        assert got.execute(PLAYED).fetchall() == expected.execute(PLAYED).fetchall()
        assert got.execute("SELECT variant, count(*) FROM hands GROUP BY ALL ORDER BY ALL"
                           ).fetchall() == [("2-7-pineapple", 30), ("pineapple", 30),
                                            ("progressive-pineapple", 30), ("regular", 30),
                                            ("turbo", 30)]
        assert got.execute("SELECT DISTINCT stake, currency FROM hands WHERE stake IS NOT "
                           "NULL").fetchall() == [(0.5, "R")]
    finally:
        got.close()
        expected.close()
    differ = sorted((d["hand_id"], d["player"], d["theirs"], d["ours"])
                    for d in f["audit"]["differ"])
    truth = {i.record.hand_id: i.record for i in import_text(FPDB_CAPTURE / "truth.jsonl")}
    assert f["audit"]["audited"] == 150 and differ == expected_differences(truth) and differ


def import_text(path: Path) -> list[ParsedHand]:
    return [i for i in parse_text(path.read_text(encoding="utf-8"), path.name)
            if isinstance(i, ParsedHand)]


APP_LOG = Path(__file__).resolve().parent / "data" / "pineapple-app"


def test_the_app_log_its_own_writer_wrote_is_read_as_played(tmp_path: Path) -> None:
    """``ofc_logs.db`` written by the pineapple app's ``LogWriter`` (jokers, progressive
    Fantasyland; the last hand not finished): each finished hand as played."""
    truth = {i.record.hand_id: i.record for i in import_text(APP_LOG / "truth.jsonl")}
    (f,) = import_paths([APP_LOG / "ofc_logs.db"], tmp_path / "ofc.duckdb").files
    assert (f.format, f.stored, f.partial, f.rejected) == ("pineapple-app", 15, 1, 0)
    con = duckdb.connect(str(tmp_path / "ofc.duckdb"), read_only=True)
    try:
        rows = con.execute("SELECT h.hand_id, hp.player, hp.fantasyland, hp.reported_points, "
                           "(SELECT string_agg(cards, ' / ' ORDER BY row_name DESC) FROM "
                           "hand_rows r WHERE r.hand_key = h.hand_key AND r.seat = hp.seat) "
                           "FROM hands h JOIN hand_players hp USING (hand_key) ORDER BY ALL"
                           ).fetchall()
    finally:
        con.close()
    expected = sorted((r.hand_id, p.name, p.fantasyland, p.reported_points,
                       " / ".join(" ".join(map(str, getattr(p.board, k)))
                                  for k in ("top", "middle", "bottom")))
                      for r in truth.values() for p in r.players if r.hand_id in
                      {h for h, *_ in rows})
    assert rows == expected and len(rows) == 30
    assert any("X1" in r[4] or "X2" in r[4] for r in rows) and any(r[2] for r in rows)
