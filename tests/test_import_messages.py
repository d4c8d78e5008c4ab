"""What ``ofc import`` says: the audit counts hands (not copies), notes only for the copies
stored, partial (abandoned) hands named in text and ``--json``, one summary line for the many
files that went well (a line each with ``--verbose``)."""

from __future__ import annotations

import io
import json
from pathlib import Path

import duckdb

from ingest.api import combined, connect, import_files, import_paths
from ofc_cli.cli import main
from ofc_cli.cmd_import import SUMMARY_FILES, print_report
from tests.reallogs_fixtures import merge_capture

APP_LOG = Path(__file__).resolve().parent / "data" / "pineapple-app" / "ofc_logs.db"


def _files(folder: Path) -> list[tuple[str, bytes]]:
    return [(str(p), p.read_bytes()) for p in sorted(folder.iterdir())]


def test_the_audit_of_several_copies_counts_each_hand_once(tmp_path: Path) -> None:
    """The database, hand files and frames of 9 hands in one import: 9 hands audited (as their
    last copy found them), not one per copy."""
    merge_capture(tmp_path / "cap")
    con = connect(tmp_path / "ofc.duckdb")
    try:
        report = import_files([f for g in ("db", "hands", "frames")
                               for f in _files(tmp_path / "cap" / g)], con)
    finally:
        con.close()
    audits = [f.audit for f in report.files if f.audit is not None]
    assert sum(a.audited for a in audits) > 9  # copies: hands upgraded are audited again
    audit = combined(audits)
    assert audit.audited == 9 and audit.equal == 9 - len({d.hand_id for d in audit.differ})
    out = io.StringIO()
    print_report(report, out)
    assert "of 9 hands' reported results" in out.getvalue()


def test_notes_only_for_the_copies_stored(tmp_path: Path) -> None:
    """Hand files first, then FPDB's database: its 'assumed pineapple' note names only the
    hands it stored, not those the hand files hold (there the variant is named)."""
    merge_capture(tmp_path / "cap")
    db = tmp_path / "ofc.duckdb"
    import_paths([tmp_path / "cap" / "hands"], db)
    (f,) = import_paths([tmp_path / "cap" / "db"], db).files
    con = duckdb.connect(str(db), read_only=True)
    try:
        stored = {h for (h,) in con.execute("SELECT hand_id FROM hands WHERE import_id = ?",
                                            [f.import_id]).fetchall()}
    finally:
        con.close()
    assert f.stored == 3 and len(stored) == 3
    assert f.notes and {n.hand_id for n in f.notes} <= stored
    (again,) = import_paths([tmp_path / "cap" / "db"], db).files  # read again: all duplicates
    assert (again.duplicate, again.notes) == (9, ())


def test_notes_of_one_import_follow_the_copy_stored_at_its_end(tmp_path: Path) -> None:
    """FPDB's database, then its hand files, in one import: the database's "assumed" note names
    only the hands no hand file upgraded by the end of the import."""
    merge_capture(tmp_path / "cap")
    con = connect(tmp_path / "ofc.duckdb")
    try:
        report = import_files([f for g in ("db", "hands") for f in
                               _files(tmp_path / "cap" / g)], con)
        first = report.files[0]
        kept = {h for (h,) in con.execute("SELECT hand_id FROM hands WHERE import_id = ?",
                                          [first.import_id]).fetchall()}
    finally:
        con.close()
    assert first.stored == 9 and len(kept) == 3  # 6 upgraded by their hand files
    assert {n.hand_id for n in first.notes} == kept


def test_an_abandoned_hand_is_named_in_text_and_json(tmp_path: Path, capsys) -> None:
    db = tmp_path / "ofc.duckdb"
    assert main(["import", str(APP_LOG), "--db", str(db), "--json"]) == 0
    (f,) = json.loads(capsys.readouterr().out)["files"]
    assert f["errors"] == [] and f["partial"] == 1
    assert [(p["hand_id"], p["line"]) for p in f["partial_hands"]] == [("e955c3a6", 16)]
    assert "abandoned" in f["partial_hands"][0]["message"]
    assert main(["import", str(APP_LOG), "--db", str(tmp_path / "b.duckdb")]) == 0
    assert "partial: hand 'e955c3a6', line 16: hand 'e955c3a6' was abandoned" in \
        capsys.readouterr().out


def test_many_files_one_summary_line_each_with_verbose(tmp_path: Path, capsys) -> None:
    folder = tmp_path / "logs"
    folder.mkdir()
    line = (Path(__file__).resolve().parents[1] / "data" / "demo" / "regular.Hero.jsonl"
            ).read_text(encoding="utf-8").splitlines()
    for n in range(SUMMARY_FILES + 2):
        (folder / f"s{n:02}.jsonl").write_text(line[n] + "\n", encoding="utf-8")
    (folder / "zz-bad.jsonl").write_text("{not json\n", encoding="utf-8")
    assert main(["import", str(folder), "--db", str(tmp_path / "a.duckdb")]) == 1
    text = capsys.readouterr().out
    assert f"{SUMMARY_FILES + 2} other files [ofc-hh/1]: {SUMMARY_FILES + 2} hands, " \
           f"{SUMMARY_FILES + 2} stored, 0 duplicate (a line each: --verbose)" in text
    assert "zz-bad.jsonl" in text and "s00.jsonl" not in text
    assert main(["import", str(folder), "--db", str(tmp_path / "b.duckdb"), "--verbose"]) == 1
    text = capsys.readouterr().out
    assert all(f"s{n:02}.jsonl [ofc-hh/1]: 1 hands, 1 stored" in text
               for n in range(SUMMARY_FILES + 2))
