"""The importer as the dashboard and the command line use it: files in, tables out.

Every stored number is checked against the scalar scorer (an independent computation of the
same rules), and a small hand-checked session is compared with a golden dump of the tables
(regenerate with ``OFC_UPDATE_GOLDEN=1`` after an intended change, and review the diff).
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import duckdb
import pytest

from ingest import store
from ingest.api import ImportReport, import_files, import_paths, merge_records, rescore
from ingest.formats import LogFile, detect, detect_file, registry
from ingest.formats.encoding import decode_bytes
from ingest.formats.ofc_hh import dumps_record, parse_text
from ingest.hand_tables import HAND_TABLES, delete_hands
from ingest.stored_hands import load_records, stored_results
from ofc_core.hand import HandRecord
from ofc_core.scoring import score_hand
from tests.helpers.store import (
    PERSPECTIVE_A,
    PERSPECTIVE_B,
    assert_stored_equals_scalar,
    one,
    rows,
    table_dump,
)

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = ROOT / "data" / "samples"
GOLDEN = ROOT / "tests" / "golden" / "import"
EVIL = "<img src=x onerror=alert(1)>"


@pytest.fixture
def con(tmp_path: Path) -> duckdb.DuckDBPyConnection:
    c = store.connect(tmp_path / "t.duckdb")
    yield c
    c.close()


def format_of(path: Path):  # type: ignore[no-untyped-def]
    """The format the registry detects for a file (a database format first, as imports do)."""
    found = detect_file(LogFile(path.name, path.read_bytes(), path))
    return found or detect(decode_bytes(path.read_bytes(), path.name), path.name)


def records_of(path: Path) -> list[HandRecord]:
    """The good hands of a file, read by the format the registry detects."""
    fmt = format_of(path)
    assert fmt is not None, path
    file = LogFile(path.name, path.read_bytes(), path)
    if detect_file(file) is not None:
        items = fmt.parse_file(file)
    else:
        items = fmt.parse(decode_bytes(path.read_bytes(), path.name), path.name)
    return [i.record for i in items if hasattr(i, "record")]


# --------------------------------------------------------------------------------------------
# Stored results equal the scalar scorer, for every sample


SAMPLE_FILES = sorted(str(p.relative_to(SAMPLES)) for p in SAMPLES.rglob("*")
                      if p.is_file() and not p.name.startswith("."))


def test_samples_cover_every_format() -> None:
    formats = {format_of(SAMPLES / n).name for n in SAMPLE_FILES}
    assert formats == {f.name for f in registry()}


@pytest.mark.parametrize("name", SAMPLE_FILES)
def test_every_sample_hand_is_stored_as_the_scalar_scorer_scores_it(con, name: str) -> None:
    report = import_files([(name, (SAMPLES / name).read_bytes())], con)
    records = records_of(SAMPLES / name)
    if report.files[0].format == "ofc-tournament/1":  # summaries, not hands
        lines = (SAMPLES / name).read_text(encoding="utf-8").split()
        assert report.stored == 0 and one(con, "SELECT count(*) FROM tournament_summaries") > 0
        assert lines and not records
        return
    assert report.files[0].format == format_of(SAMPLES / name).name
    assert report.stored == len(records) > 0
    assert one(con, "SELECT count(*) FROM hands") == len(records)
    for record in records:
        assert_stored_equals_scalar(con, record)


# --------------------------------------------------------------------------------------------
# Golden session


GOLDEN_INPUTS = {
    "session": GOLDEN / "session.jsonl",  # ofc-hh/1, hand-checked below
    "live-dimas-home-game": SAMPLES / "live" / "dimas-home-game.txt",
    "csv-club-export": SAMPLES / "csv" / "club-export.csv",
    "csv-app-export": SAMPLES / "csv" / "app-export.tsv",
}


@pytest.mark.parametrize("golden", sorted(GOLDEN_INPUTS))
def test_golden_tables(con, golden: str) -> None:
    source = GOLDEN_INPUTS[golden]
    import_files([(source.name, source.read_bytes())], con)
    dump = json.loads(json.dumps(table_dump(con)))
    expected_path = GOLDEN / f"{golden}.expected.json"
    if os.environ.get("OFC_UPDATE_GOLDEN"):
        expected_path.write_text(json.dumps(dump, indent=1, ensure_ascii=False) + "\n",
                                 encoding="utf-8")
    expected = json.loads(expected_path.read_text(encoding="utf-8"))
    assert dump == expected


def test_golden_session_hand_checked_numbers(con) -> None:
    """The numbers worked out by hand in docs/import.md's example."""
    import_files([("session.jsonl", (GOLDEN / "session.jsonl").read_bytes())], con)
    points = dict(((h, p), v) for h, p, v in rows(
        con, "SELECT h.hand_id, p.player, p.points FROM hands h JOIN hand_players p "
             "USING (hand_key)"))
    assert points[("g1", "Ivey")] == 4 and points[("g1", "Hellmuth")] == -4
    assert (points[("g2", "ann")], points[("g2", "bob")], points[("g2", "cid")]) == (29, 0, -29)
    assert (points[("g3", "ann")], points[("g3", "bob")], points[("g3", "cid")]) == (45, -6, -39)
    differ = rows(con, "SELECT h.hand_id, p.player, p.reported_points, h.points_differ "
                       "FROM hands h JOIN hand_players p USING (hand_key) "
                       "WHERE p.points_differ ORDER BY ALL")
    assert differ == [("g2", "ann", 20.0, True), ("g3", "bob", -3.0, True)]
    assert one(con, "SELECT points_differ FROM hands WHERE hand_id = 'g1'") is False
    # Hidden cards are NULL: bob's dealt cards and discards are not in ann's log.
    hidden = rows(con, "SELECT p.seat, count(*) FILTER (dealt IS NULL), "
                       "count(*) FILTER (discard IS NULL) FROM placements p JOIN hands h "
                       "USING (hand_key) WHERE h.hand_id = 'g2' GROUP BY ALL ORDER BY ALL")
    assert hidden == [(0, 0, 1), (1, 5, 5)]
    assert one(con, "SELECT fl_cards FROM hand_players p JOIN hands h USING (hand_key) "
                    "WHERE h.hand_id = 'g3' AND p.seat = 0") == 14
    settings = json.loads(one(con, "SELECT ruleset FROM hands WHERE hand_id = 'g3'"))
    assert settings["scoring"] == "2-4" and settings["surrender_cost"] == 3
    assert settings["overrides"] == {"scoring": "2-4", "surrender_cost": 3}


# --------------------------------------------------------------------------------------------
# Names, rejections, partial files, duplicates


def test_nasty_names_are_stored_verbatim(con) -> None:
    data = (SAMPLES / "nasty-names.jsonl").read_bytes()
    import_files([("nasty-names.jsonl", data)], con)
    expected = {p.name for r in records_of(SAMPLES / "nasty-names.jsonl") for p in r.players}
    stored = {n for (n,) in rows(con, "SELECT DISTINCT player FROM hand_players")}
    assert stored == expected
    assert EVIL in stored and any("Ж" in n for n in stored) and any("🂡" in n for n in stored)
    assert any('"' in n and "'" in n for n in stored)
    sources = {s for (s,) in rows(con, "SELECT DISTINCT source FROM hands")}
    assert sources == {r.source for r in records_of(SAMPLES / "nasty-names.jsonl")}
    raws = [r for (r,) in rows(con, "SELECT raw FROM hands ORDER BY line")]
    assert raws == [ln for ln in data.decode("utf-8").split("\n") if ln.strip()]


def test_every_rejection_reason_is_kept_with_file_line_and_hand(con) -> None:
    name = "bad-hands.jsonl"
    text = (SAMPLES / name).read_text(encoding="utf-8")
    issues = [i for i in parse_text(text, name) if not hasattr(i, "record")]
    bad = [i for i in issues if not i.partial]
    assert len(bad) >= 10
    report = import_files([(name, text.encode())], con)
    assert report.rejected == len(bad) and report.partial == 1
    stored = rows(con, "SELECT path, line, hand_id, message, partial, raw FROM rejected "
                       "ORDER BY line")
    assert [(r[1], r[2], r[3], r[4]) for r in stored] == [
        (i.line, i.hand_id, i.message, i.partial) for i in issues]
    assert {r[0] for r in stored} == {name}
    lines = text.split("\n")
    assert all(r[5] == lines[r[1] - 1] for r in stored)
    assert [e.line for e in report.files[0].errors] == [i.line for i in bad]
    assert report.exit_code == 1
    ledger = rows(con, "SELECT hands, stored, duplicate, partial, rejected FROM imports")
    assert ledger == [(report.files[0].hands, report.stored, 0, 1, len(bad))]


def test_the_good_hands_of_a_bad_file_are_stored(con) -> None:
    report = import_files([("bad-hands.jsonl", (SAMPLES / "bad-hands.jsonl").read_bytes())], con)
    good = records_of(SAMPLES / "bad-hands.jsonl")
    assert report.stored == len(good) == 2
    assert sorted(h for (h,) in rows(con, "SELECT hand_id FROM hands")) == \
        sorted(r.hand_id for r in good)


def test_a_partial_last_hand_imports_once_the_file_is_complete(con, tmp_path: Path) -> None:
    lines = (GOLDEN / "session.jsonl").read_text(encoding="utf-8").splitlines()
    path = tmp_path / "growing.jsonl"
    path.write_text("\n".join(lines[:2]) + "\n" + lines[2][:150], encoding="utf-8")
    first = import_paths([path], tmp_path / "t2.duckdb")
    assert (first.stored, first.partial, first.rejected, first.exit_code) == (2, 1, 0, 0)
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    second = import_paths([path], tmp_path / "t2.duckdb")
    assert (second.stored, second.duplicate, second.partial, second.rejected) == (1, 2, 0, 0)
    c = store.connect(tmp_path / "t2.duckdb")
    try:
        assert one(c, "SELECT count(*) FROM hands") == 3
        assert rows(c, "SELECT stored, duplicate, partial FROM imports ORDER BY import_id") == [
            (2, 0, 1), (1, 2, 0)]
    finally:
        c.close()


def test_reimport_adds_nothing_and_reports_duplicates(con) -> None:
    files = [(p.name, p.read_bytes()) for p in sorted(SAMPLES.glob("*.jsonl"))]
    first = import_files(files, con)
    before = {t: one(con, f"SELECT count(*) FROM {t}") for t in
              ("hands", "hand_players", "hand_rows", "placements", "pairs", "events")}
    second = import_files(files, con)
    after = {t: one(con, f"SELECT count(*) FROM {t}") for t in before}
    assert before == after
    assert second.stored == 0 and second.merged == 0
    assert second.duplicate == first.stored
    assert one(con, "SELECT count(*) FROM (SELECT source, hand_id FROM hands GROUP BY ALL "
                    "HAVING count(*) > 1)") == 0


def test_a_file_stored_in_full_before_is_not_read_again(con, monkeypatch) -> None:
    """Importing a folder again for its new files: a file whose bytes were imported before,
    every hand stored and still there, counts its hands as duplicates without being decoded
    or parsed; a file that had a bad hand, or whose hands went, is read again."""
    from ingest import pipeline

    good = (GOLDEN / "session.jsonl").read_bytes()
    bad = (SAMPLES / "bad-hands.jsonl").read_bytes()
    first = import_files([("a.jsonl", good), ("bad.jsonl", bad)], con)
    read: list[str] = []
    real = pipeline._prepare

    def prepare(name, data, digest, path=None):
        read.append(name)
        return real(name, data, digest, path)

    monkeypatch.setattr(pipeline, "_prepare", prepare)
    again = import_files([("copy-of-a.jsonl", good), ("bad.jsonl", bad)], con)
    a, b = again.files
    assert read == ["bad.jsonl"]
    assert (a.format, a.hands, a.stored, a.duplicate, a.merged, a.rejected) == \
        ("ofc-hh/1", first.files[0].stored, 0, first.files[0].stored, 0, 0)
    assert [e.message for e in b.errors] == [e.message for e in first.files[1].errors]
    assert rows(con, "SELECT path, format, hands, stored, duplicate FROM imports "
                     "WHERE path = 'copy-of-a.jsonl'") == [("copy-of-a.jsonl", "ofc-hh/1",
                                                           a.hands, 0, a.hands)]
    gone = one(con, "SELECT min(hand_key) FROM hands WHERE import_id = ?",
               [first.files[0].import_id])
    delete_hands(con, [gone], HAND_TABLES)
    third = import_files([("a.jsonl", good)], con)
    assert read[-1] == "a.jsonl" and (third.stored, third.duplicate) == (1, a.hands - 1)


def test_a_file_whose_hands_go_between_check_and_import_is_read(con, monkeypatch) -> None:
    from ingest import pipeline

    good = (GOLDEN / "session.jsonl").read_bytes()
    first = import_files([("a.jsonl", good)], con)
    delete_hands(con, [k for (k,) in rows(con, "SELECT hand_key FROM hands")], HAND_TABLES)
    real = pipeline.already_stored
    answers = iter([(registry()[0], first.stored)])  # the check outside the transaction

    def already_stored(c, digest):
        return next(answers, None) or real(c, digest)

    monkeypatch.setattr(pipeline, "already_stored", already_stored)
    again = import_files([("a.jsonl", good)], con)
    assert (again.stored, again.duplicate) == (first.stored, 0)
    assert one(con, "SELECT count(*) FROM hands") == first.stored


def test_a_hand_twice_in_one_file_is_stored_once(con) -> None:
    line = (GOLDEN / "session.jsonl").read_text(encoding="utf-8").splitlines()[0]
    report = import_files([("twice.jsonl", f"{line}\n{line}\n".encode())], con)
    assert (report.stored, report.duplicate) == (1, 1)
    assert one(con, "SELECT count(*) FROM hand_players") == 2


def test_unreadable_and_empty_files(con) -> None:
    report = import_files([("latin1.txt", "café;ann\n".encode("latin-1")),
                           ("notes.txt", b"just some notes\nabout poker\n"),
                           ("empty.jsonl", b"")], con)
    latin, notes, empty = report.files
    assert latin.unreadable and "not UTF-8" in latin.unreadable and latin.format is None
    assert notes.unreadable and "known formats" in notes.unreadable
    assert empty.unreadable is None and empty.hands == 0
    assert report.exit_code == 1 and report.rejected == 0
    as_json = report.to_dict()["files"][0]
    assert as_json["errors"] == [{"line": 0, "hand_id": None, "message": latin.unreadable}]
    assert rows(con, "SELECT path, line, message FROM rejected ORDER BY path") == [
        ("latin1.txt", 0, latin.unreadable), ("notes.txt", 0, notes.unreadable)]
    assert one(con, "SELECT count(*) FROM imports") == 3


def test_missing_path_is_reported_not_raised(tmp_path: Path) -> None:
    report = import_paths([tmp_path / "nope.jsonl"], tmp_path / "t.duckdb")
    assert report.files[0].unreadable is not None and "no such file" in \
        report.files[0].unreadable
    assert report.exit_code == 1


def test_folders_are_searched_recursively_skipping_hidden(tmp_path: Path) -> None:
    logs = tmp_path / "logs"
    (logs / "a" / "b").mkdir(parents=True)
    (logs / ".git").mkdir()
    lines = (GOLDEN / "session.jsonl").read_text(encoding="utf-8").splitlines()
    (logs / "a" / "one.jsonl").write_text(lines[0] + "\n", encoding="utf-8")
    (logs / "a" / "b" / "two.jsonl").write_text(lines[1] + "\n", encoding="utf-8")
    (logs / ".hidden.jsonl").write_text(lines[2] + "\n", encoding="utf-8")
    (logs / ".git" / "x.jsonl").write_text(lines[2] + "\n", encoding="utf-8")
    report = import_paths([logs], tmp_path / "t.duckdb")
    assert sorted(Path(f.path).name for f in report.files) == ["one.jsonl", "two.jsonl"]
    assert report.stored == 2


# --------------------------------------------------------------------------------------------
# The same hand from two players' logs


def test_two_perspectives_make_one_hand_with_both_discards(con) -> None:
    a = import_files([("ann.jsonl", (PERSPECTIVE_A + "\n").encode())], con)
    assert a.stored == 1
    points_before = rows(con, "SELECT seat, points FROM hand_players ORDER BY seat")
    b = import_files([("bob.jsonl", (PERSPECTIVE_B + "\n").encode())], con)
    assert (b.stored, b.merged, b.duplicate, b.rejected) == (0, 1, 0, 0)
    assert b.to_dict()["files"][0]["merged"] == 1
    assert one(con, "SELECT count(*) FROM hands") == 1
    assert one(con, "SELECT count(*) FROM hand_players") == 2
    assert one(con, "SELECT count(*) FROM placements") == 10
    assert one(con, "SELECT count(*) FROM placements WHERE dealt IS NULL") == 0
    discards = rows(con, "SELECT seat, string_agg(discard, ' ' ORDER BY street) "
                         "FROM placements WHERE street > 1 GROUP BY seat ORDER BY seat")
    assert discards == [(0, "3h 7d 8d 7s"), (1, "9h 6h 2d 5s")]
    # The first log's hand keeps its identity; results are unchanged; bob's view adds ann's
    # reported result, which agrees with ours (+10).
    assert one(con, "SELECT hero FROM hands") == "ann"
    assert rows(con, "SELECT seat, points FROM hand_players ORDER BY seat") == points_before
    assert rows(con, "SELECT reported_points, points_differ FROM hand_players ORDER BY seat") \
        == [(10.0, False), (None, False)]
    again = import_files([("ann.jsonl", (PERSPECTIVE_A + "\n").encode()),
                          ("bob.jsonl", (PERSPECTIVE_B + "\n").encode())], con)
    assert (again.duplicate, again.merged, again.stored) == (2, 0, 0)
    assert one(con, "SELECT count(*) FROM placements") == 10


def test_a_second_log_that_disagrees_is_rejected(con) -> None:
    import_files([("ann.jsonl", (PERSPECTIVE_A + "\n").encode())], con)
    other = PERSPECTIVE_B.replace('"middle": "2h", "bottom": "5c", "discard": "5s"',
                                  '"middle": "5c", "bottom": "2h", "discard": "5s"')
    assert other != PERSPECTIVE_B
    report = import_files([("bob.jsonl", (other + "\n").encode())], con)
    assert (report.rejected, report.merged) == (1, 0)
    assert "disagrees" in report.files[0].errors[0].message
    assert one(con, "SELECT count(*) FROM placements WHERE dealt IS NULL") == 5


def test_merge_records_fills_only_hidden_cards() -> None:
    a, b = (next(iter(parse_text(t, "x"))).record for t in (PERSPECTIVE_A, PERSPECTIVE_B))
    merged = merge_records(a, b)
    assert merged.hero == "ann"
    assert all(s.dealt is not None for p in merged.players for s in p.streets)
    assert merge_records(merged, a) == merged and merge_records(merged, b) == merged


# --------------------------------------------------------------------------------------------
# Rebuilding, rescoring, stored results


def test_load_records_rebuilds_the_imported_records(con) -> None:
    files = [(p.name, p.read_bytes()) for p in sorted(SAMPLES.glob("*.jsonl"))]
    import_files(files, con)
    keys = [k for (k,) in rows(con, "SELECT hand_key FROM hands")]
    loaded = {(r.source, r.hand_id): r for r, _ in load_records(con, keys).values()}
    for path in sorted(SAMPLES.glob("*.jsonl")):
        for record in records_of(path):
            back = loaded[(record.source, record.hand_id)]
            assert back.players == record.players
            assert back.events == record.events
            assert dict(back.rules) == dict(record.rules)
            assert (back.variant, back.button, back.hero, back.stake, back.session_id) == (
                record.variant, record.button, record.hero, record.stake, record.session_id)


def test_rescore_recomputes_the_same_results(con) -> None:
    files = [(p.name, p.read_bytes()) for p in sorted(SAMPLES.glob("*.jsonl"))]
    import_files(files, con)
    before = table_dump(con)
    con.execute("UPDATE hand_players SET points = points + 100, fouled = NOT fouled")
    con.execute("UPDATE pairs SET total = 0")
    con.execute("UPDATE hand_rows SET strength = 0, hand_name = 'x', royalty = 99")
    con.execute("DELETE FROM pairs WHERE seat = 0")
    con.execute("UPDATE hands SET points_differ = NOT points_differ, first_to_act = 3")
    seen = []
    result = rescore(con, progress=lambda d, t, label: seen.append((d, t)), chunk_hands=7)
    assert (result.hands, result.failed) == (len(before["hands"]) - 1, ())
    assert table_dump(con) == before
    assert seen[-1][0] == seen[-1][1] and len(seen) > 1


def test_stored_results_equal_the_scalar_results(con) -> None:
    import_files([("session.jsonl", (GOLDEN / "session.jsonl").read_bytes())], con)
    got = list(stored_results(con))
    records = records_of(GOLDEN / "session.jsonl")
    assert [(r.hand_id, f, line) for r, _, f, line in got] == [
        (r.hand_id, "session.jsonl", n) for n, r in enumerate(records, start=1)]
    for (_record, result, _, _), original in zip(got, records, strict=True):
        assert result == score_hand(original.seats(), original.ruleset, original.first_to_act)


def test_import_report_json_shape(con) -> None:
    report = import_files([("session.jsonl", (GOLDEN / "session.jsonl").read_bytes())], con)
    obj = report.to_dict()
    assert set(obj) >= {"files", "stored", "duplicate", "partial", "rejected"}
    assert set(obj["files"][0]) >= {"path", "format", "hands", "stored", "duplicate",
                                    "partial", "errors"}
    audit = obj["files"][0].pop("audit")
    assert obj["files"][0] | {"errors": []} == {
        "path": "session.jsonl", "format": "ofc-hh/1", "hands": 3, "stored": 3,
        "duplicate": 0, "merged": 0, "partial": 0, "rejected": 0, "errors": []}
    assert isinstance(report, ImportReport) and report.exit_code == 0
    # the audit: the log's reported points against the scalar scorer's, hand by hand
    differ, audited = [], 0
    for record in records_of(GOLDEN / "session.jsonl"):
        result = score_hand(record.seats(), record.ruleset, record.first_to_act)
        reported = [(p.name, p.reported_points) for p in record.players
                    if p.reported_points is not None]
        audited += bool(reported)
        differ += [{"hand_id": record.hand_id, "player": name, "what": "points", "theirs": theirs,
                    "ours": result.player(name).points} for name, theirs in reported
                   if theirs != result.player(name).points]
    assert differ, "the golden session has a hand the room scored differently"
    assert audit == {"audited": audited, "equal": audited - len({d["hand_id"] for d in differ}),
                     "differ": differ}


def test_progress_is_reported(con) -> None:
    calls = []
    import_files([("session.jsonl", (GOLDEN / "session.jsonl").read_bytes())], con,
                 progress=lambda d, t, label: calls.append((d, t, label)))
    assert calls and calls[-1][0] == calls[-1][1]
    assert "3 hands" in calls[-1][2] and "hands/s" in calls[-1][2]


def test_a_database_error_mid_file_leaves_nothing_half_written(con, monkeypatch) -> None:
    from ingest import fast_path, record_path

    import_files([("session.jsonl", (GOLDEN / "session.jsonl").read_bytes())], con)
    before = table_dump(con)
    real = fast_path.insert_tables
    calls = {"n": 0}

    def failing(c, tables):
        calls["n"] += 1
        if calls["n"] == 2:
            raise duckdb.IOException("IO Error: No space left on device")
        return real(c, tables)

    for module in (fast_path, record_path):  # the two paths that store new hands
        monkeypatch.setattr(module, "insert_tables", failing)
    monkeypatch.setattr(record_path, "CHUNK_HANDS", 1)
    text = "\n".join(dumps_record(r) for r in _renamed(records_of(SAMPLES / "regular.jsonl")))
    with pytest.raises(store.StoreError, match="disk .* is full"):
        import_files([("more.jsonl", text.encode())], con)
    assert table_dump(con) == before


def _renamed(records: list[HandRecord]) -> list[HandRecord]:
    from dataclasses import replace
    return [replace(r, source="renamed") for r in records]


def test_import_gives_back_the_connection_settings(con) -> None:
    con.execute("SET threads = 3")
    import_files([("session.jsonl", (GOLDEN / "session.jsonl").read_bytes())], con)
    assert one(con, "SELECT current_setting('threads')") == 3


def test_a_reader_that_crashes_is_reported_not_raised(con, monkeypatch) -> None:
    from ingest import record_path

    good = next(iter(parse_text((GOLDEN / "session.jsonl").read_text(encoding="utf-8"), "x")))

    class Broken:
        name, version = "broken/1", "1"

        def sniff(self, text: str, filename: str) -> bool:
            return True

        def parse(self, text: str, filename: str):
            yield good
            raise IndexError("list index out of range")

    monkeypatch.setattr(record_path, "detect", lambda text, name: Broken())
    report = import_files([("x.log", b"anything\n")], con)
    (f,) = report.files
    (failure,) = f.errors
    assert f.unreadable is None and f.stored == 1  # the hand it gave before failing is kept
    assert "broken/1 reader failed after line 1 (IndexError" in failure.message
    assert "the rest of the file was not" in failure.message and "report it" in failure.message
    assert report.exit_code == 1 and one(con, "SELECT count(*) FROM hands") == 1
    assert rows(con, "SELECT format, hands, stored, rejected FROM imports") == [
        ("broken/1", 2, 1, 1)]
    assert rows(con, "SELECT line, message FROM rejected") == [(0, failure.message)]


def test_a_reader_that_crashes_before_any_hand_is_the_files_error(con, monkeypatch) -> None:
    from ingest import record_path

    class Broken:
        name, version = "broken/1", "1"

        def sniff(self, text: str, filename: str) -> bool:
            return True

        def parse(self, text: str, filename: str):
            raise IndexError("list index out of range")
            yield

    monkeypatch.setattr(record_path, "detect", lambda text, name: Broken())
    report = import_files([("x.log", b"anything\n")], con)
    failure = report.files[0].unreadable
    assert failure is not None and "broken/1 reader failed (IndexError" in failure
    assert "nothing of this file was imported" in failure and report.exit_code == 1
    assert rows(con, "SELECT format, hands, stored FROM imports") == [("broken/1", 0, 0)]


def test_removing_an_import_takes_exactly_its_hands_and_ledger_rows(con) -> None:
    """``remove_imports`` with the ids of the import's reports: that file's hands go from
    every hand table, with its rejected and ledger rows; the other file's stay as they were."""
    from ingest.api import remove_imports

    bad = (SAMPLES / "bad-hands.jsonl").read_bytes()
    kept = import_files([("session.jsonl", (GOLDEN / "session.jsonl").read_bytes())], con)
    before = table_dump(con)
    gone = import_files([("regular.jsonl", (SAMPLES / "regular.jsonl").read_bytes()),
                         ("bad.jsonl", bad)], con)
    ids = [f.import_id for f in gone.files]
    assert None not in ids and kept.files[0].import_id not in ids
    assert one(con, "SELECT count(*) FROM rejected") > 0
    assert remove_imports(con, ids).removed == gone.stored > 0
    after = table_dump(con)
    assert {t: r for t, r in after.items() if t != "imports"} == \
        {t: r for t, r in before.items() if t != "imports"}
    assert rows(con, "SELECT import_id FROM imports") == [(kept.files[0].import_id,)]
    assert one(con, "SELECT count(*) FROM rejected") == 0
    assert remove_imports(con, ids).removed == 0
