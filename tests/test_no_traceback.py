"""No input makes ``ofc import``, ``ofc score``, ``ofc rescore`` or the upload page end in a
traceback: an exception while reading, checking or scoring a file (a bug of ours, made here by
a reader or scorer that raises on a marked hand) is that file's error in the ledger and the
``rejected`` table, at the line and hand where they are known, and the other files import."""

from __future__ import annotations

import io
import json
import zipfile
from pathlib import Path

import duckdb
import pytest

from dashboard.uploads import import_uploads
from ingest import fast_path, record_path, rescoring, store, stored_columns
from ingest.api import import_files, rescore
from ingest.formats import ofc_hh, ofc_hh_arrays, ofc_hh_fast
from ofc_cli import cmd_score
from ofc_cli.cli import main
from tests.helpers.apptest import app, open_page
from tests.helpers.store import LINE

BOOM = "boom"
"""The hand id a sabotaged reader or scorer raises on."""


def hand(hand_id: str, first_card: str = "Th") -> str:
    return LINE.replace('"h1"', json.dumps(hand_id)).replace("Th", first_card, 1)


def log(*ids: str, first_card: str = "Th") -> bytes:
    return "".join(hand(i, first_card) + "\n" for i in ids).encode()


FILES = [("a.jsonl", log("a1", BOOM, "a3")), ("b.jsonl", log("b1", "b2"))]


def raise_on_boom(real):
    """``real`` that raises a ``RuntimeError`` when its first argument mentions :data:`BOOM`."""
    def wrapper(first, *args, **kwargs):
        if BOOM in repr(first):
            raise RuntimeError("sabotaged")
        return real(first, *args, **kwargs)
    return wrapper


@pytest.fixture
def con(tmp_path: Path) -> duckdb.DuckDBPyConnection:
    c = store.connect(tmp_path / "t.duckdb")
    yield c
    c.close()


def ledger(con) -> list[tuple]:
    return con.execute("SELECT path, hands, stored, rejected FROM imports ORDER BY import_id"
                       ).fetchall()


def rejected(con) -> list[tuple]:
    return con.execute("SELECT path, line, message FROM rejected ORDER BY import_id, line"
                       ).fetchall()


def assert_a_failed_and_b_imported(con, report) -> str:
    a, b = report.files
    assert a.unreadable is not None and "RuntimeError: sabotaged" in a.unreadable
    assert "bug in OFC Analytics" in a.unreadable and report.exit_code == 1
    assert (b.stored, b.rejected, b.unreadable) == (2, 0, None)
    assert ledger(con) == [("a.jsonl", 0, 0, 0), ("b.jsonl", 2, 2, 0)]
    assert [r[:1] for r in rejected(con)] == [("a.jsonl",)]
    assert con.execute("SELECT list(hand_id ORDER BY hand_id) FROM hands").fetchone()[0] == [
        "b1", "b2"]
    return a.unreadable


def test_the_bulk_reader_raising_is_the_file_error(con, monkeypatch) -> None:
    monkeypatch.setattr(ofc_hh_fast, "parse_lines", raise_on_boom(ofc_hh_fast.parse_lines))
    message = assert_a_failed_and_b_imported(con, import_files(FILES, con))
    assert "bulk reader failed" in message


@pytest.mark.parametrize("fast", [True, False])
def test_scoring_raising_is_the_file_error(con, monkeypatch, fast: bool) -> None:
    monkeypatch.setattr(fast_path, "FAST_PATH", fast)
    monkeypatch.setattr(record_path, "score_records", raise_on_boom(record_path.score_records))
    monkeypatch.setattr(fast_path, "build_tables", raise_on_boom(fast_path.build_tables))
    assert_a_failed_and_b_imported(con, import_files(FILES, con))


def test_the_record_reader_raising_on_a_line_names_the_line(con, monkeypatch) -> None:
    """The bulk reader sends a respelled hand (``10h``) back to the record reader one line at a
    time, so the line the record reader failed on is known: that line is its error, the
    file's other hands are stored."""
    monkeypatch.setattr(ofc_hh, "parse_text", raise_on_boom(ofc_hh.parse_text))
    files = [("a.jsonl", hand("a1").encode() + b"\n" + log(BOOM, first_card="10h")),
             ("b.jsonl", log("b1", "b2"))]
    a, b = import_files(files, con).files
    assert a.unreadable is None and (a.stored, a.rejected, b.stored) == (1, 1, 2)
    assert [r[:2] for r in rejected(con)] == [("a.jsonl", 2)]  # that line only: a1 is kept
    message = rejected(con)[0][2]
    assert "reader failed at line 2 (RuntimeError: sabotaged)" in message
    assert "the other lines were read" in message and "bug in OFC Analytics" in message


def test_ofc_import_prints_the_file_error_and_goes_on(tmp_path: Path, monkeypatch,
                                                       capsys) -> None:
    monkeypatch.setattr(record_path, "score_records", raise_on_boom(record_path.score_records))
    monkeypatch.setattr(fast_path, "FAST_PATH", False)
    for name, data in FILES:
        (tmp_path / name).write_bytes(data)
    status = main(["import", str(tmp_path / "a.jsonl"), str(tmp_path / "b.jsonl"),
                   "--db", str(tmp_path / "cli.duckdb")])
    out = capsys.readouterr().out
    assert status == 1
    assert "a.jsonl: not imported:" in out and "RuntimeError: sabotaged" in out
    assert "b.jsonl [ofc-hh/1]: 2 hands, 2 stored" in out


def test_ofc_score_reports_a_hand_that_cannot_be_scored(tmp_path: Path, monkeypatch,
                                                        capsys) -> None:
    def score_hand(seats, ruleset, first_to_act):
        if any(BOOM in s.name for s in seats):
            raise RuntimeError("sabotaged")
        return real(seats, ruleset, first_to_act)

    real = cmd_score.score_hand
    monkeypatch.setattr(cmd_score, "score_hand", score_hand)
    path = tmp_path / "a.jsonl"
    path.write_bytes(log("a1") + hand("a2").replace('"ann"', f'"{BOOM}"').encode() + b"\n"
                     + log("a3"))
    assert main(["score", str(path), "--json"]) == 1
    out = [json.loads(x) for x in capsys.readouterr().out.splitlines()]
    assert [(o["line"], o["hand_id"]) for o in out] == [(1, "a1"), (2, "a2"), (3, "a3")]
    assert "RuntimeError: sabotaged" in out[1]["error"] and "players" in out[2]


def test_ofc_score_reports_a_reader_that_raises_and_scores_the_next_file(
        tmp_path: Path, monkeypatch, capsys) -> None:
    monkeypatch.setattr(ofc_hh, "loads_line", raise_on_boom(ofc_hh.loads_line))
    for name, data in FILES:
        (tmp_path / name).write_bytes(data)
    status = main(["score", str(tmp_path / "a.jsonl"), str(tmp_path / "b.jsonl"), "--json"])
    captured = capsys.readouterr()
    out = [json.loads(x) for x in captured.out.splitlines()]
    assert status == 1
    assert [(o["file"].rsplit("/", 1)[-1], o.get("hand_id")) for o in out] == [
        ("a.jsonl", "a1"), ("a.jsonl", None), ("b.jsonl", "b1"), ("b.jsonl", "b2")]
    assert "reading failed after line 1: RuntimeError: sabotaged" in out[1]["error"]
    assert "reading failed after line 1" in captured.err


def test_ofc_rescore_keeps_a_hand_it_cannot_score_and_rescores_the_others(
        tmp_path: Path, monkeypatch, capsys) -> None:
    db = tmp_path / "r.duckdb"
    con = store.connect(db)
    import_files(FILES[1:] + [("c.jsonl", log("c1", BOOM, "c3"))], con)
    before = con.execute("SELECT * FROM hand_players ORDER BY ALL").fetchall()
    con.close()
    monkeypatch.setattr(stored_columns, "read_store", raise_on_boom(stored_columns.read_store))
    monkeypatch.setattr(ofc_hh_arrays, "score_columns", lambda *a: 1 / 0)
    monkeypatch.setattr(rescoring, "score_records", raise_on_boom(rescoring.score_records))
    status = main(["rescore", "--db", str(db)])
    out = capsys.readouterr().out
    assert status == 1
    assert f"not rescored: hand '{BOOM}' (home): cannot be scored (RuntimeError" in out
    assert "rescored 4 hands" in out and "1 no longer valid" in out
    con = store.connect(db)
    try:
        assert con.execute("SELECT * FROM hand_players ORDER BY ALL").fetchall() == before
        line = con.execute("SELECT line FROM hands WHERE hand_id = ?", [BOOM]).fetchone()[0]
    finally:
        con.close()
    assert line == 2


def test_rescore_reports_a_hand_it_cannot_read_back(con, monkeypatch) -> None:
    import_files(FILES, con)
    real = rescoring.load_records

    def load_records(c, keys):
        if any(record.hand_id == BOOM for record, _ in real(c, keys).values()):
            raise KeyError("sabotaged")
        return real(c, keys)

    monkeypatch.setattr(rescoring, "load_records", load_records)
    monkeypatch.setattr(rescoring, "_rescore_in_bulk", lambda c, keys: (None, sorted(keys)))
    result = rescore(con)
    assert result.hands == 4
    assert [(f.line, f.hand_id) for f in result.failed] == [(2, BOOM)]
    assert "cannot be read back (KeyError" in result.failed[0].message


def damaged_zips() -> list[bytes]:
    """A zip of a log, with bytes changed in its headers and in its compressed data."""
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr("in.jsonl", log(*[f"z{k}" for k in range(30)]))
    data = buf.getvalue()
    out = []
    for at in (6, 8, 40, len(data) // 2, len(data) - 40, len(data) - 15):
        b = bytearray(data)
        b[at] ^= 0x5A
        out.append(bytes(b))
    return out


def test_import_uploads_never_raises_on_damaged_zips_or_a_failing_reader(
        con, monkeypatch) -> None:
    monkeypatch.setattr(ofc_hh_fast, "parse_lines", raise_on_boom(ofc_hh_fast.parse_lines))
    uploads = [(f"d{k}.zip", z) for k, z in enumerate(damaged_zips())] + FILES
    outcome = import_uploads(con, uploads)
    assert outcome.error is None
    paths = {p for p, *_ in ledger(con)}
    assert {"a.jsonl", "b.jsonl"} <= paths
    refused = {r.file.split("/")[0] for r in outcome.refused}
    assert refused | {p.split("/")[0] for p in paths} >= {f"d{k}.zip" for k in range(6)}


def test_import_uploads_gives_a_database_error_as_its_message(con, monkeypatch) -> None:
    def fail(*args, **kwargs):
        raise store.StoreError("the disk is full")

    monkeypatch.setattr("dashboard.uploads.import_files", fail)
    outcome = import_uploads(con, FILES)
    assert outcome.error == "the disk is full" and outcome.imported == 2


def test_the_import_page_shows_a_failing_file_and_imports_the_others(
        empty_db_path: Path, monkeypatch) -> None:
    monkeypatch.setattr(record_path, "score_records", raise_on_boom(record_path.score_records))
    monkeypatch.setattr(fast_path, "FAST_PATH", False)
    at = app(empty_db_path, monkeypatch)
    open_page(at, "views/import_page.py")
    hostile = [("deep.jsonl", b"[" * 100_000 + b"\n", "application/json"),
               ("d0.zip", damaged_zips()[3], "application/zip")]
    at.file_uploader[0].set_value(
        [(n, d, "application/json") for n, d in FILES] + hostile).run()
    at.button(key="import_button").click().run()
    assert not at.exception
    table = next(d.value for d in at.dataframe if "Stored" in d.value.columns)
    assert table.set_index("File").loc["b.jsonl", "Stored"] == 2
    problems = next(d.value for d in at.dataframe if "Reason" in d.value.columns)
    assert problems.Reason.str.contains("RuntimeError: sabotaged").any()
    assert set(problems.File) >= {"a.jsonl", "deep.jsonl"}


@pytest.mark.parametrize("command", [["import", "x.jsonl"], ["score"], ["rescore"]])
def test_a_database_of_another_program_is_a_message(tmp_path: Path, monkeypatch, capsys,
                                                    command: list[str]) -> None:
    """A DuckDB file with a ``hands`` table of its own used to end each command in a
    traceback (a ``BinderException`` on our first query)."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "x.jsonl").write_bytes(log("x1"))
    other = duckdb.connect(str(tmp_path / "other.duckdb"))
    other.execute("CREATE TABLE hands (x INTEGER)")
    other.close()
    assert main([*command, "--db", "other.duckdb"]) == 2
    assert "other.duckdb is not an OFC Analytics database (tables of another program: " \
           "hands)" in capsys.readouterr().err
