"""One capture's logs (FPDB's database, its hand files, its frames) imported in every order and
as one zip: the same store each time, each hand from its most informative copy; and the
ledger's arithmetic (hands = stored + duplicate + merged + partial + rejected) over every file
of the fixtures and samples, the same in the report, ``--json``, the CLI text, the ledger
table and the Import page's query."""

from __future__ import annotations

import io
import itertools
import json
import re
import zipfile
from pathlib import Path

import duckdb
import pytest

from dashboard.queries import imports as import_queries
from ingest.api import connect, import_files, import_paths
from ofc_cli.cmd_import import print_report
from tests.helpers.store import capture_dump
from tests.reallogs_fixtures import (
    hand_envelope,
    merge_capture,
    raw_lines,
    simulated,
)

capture = merge_capture
dump = capture_dump

def _files(folder: Path) -> list[tuple[str, bytes]]:
    return [(str(p), p.read_bytes()) for p in sorted(folder.iterdir())]


def test_every_order_and_a_zip_store_the_same_hands(tmp_path: Path) -> None:
    truth = capture(tmp_path / "cap")
    groups = [tmp_path / "cap" / g for g in ("db", "hands", "frames")]
    stores = {}
    for n, order in enumerate(itertools.permutations(groups)):
        db = tmp_path / f"order{n}.duckdb"
        con = connect(db)
        try:
            for group in order:
                report = import_files(_files(group), con)
                assert all(f.adds_up() for f in report.files)
                assert report.rejected == 0, [e.message for f in report.files for e in f.errors]
        finally:
            con.close()
        stores[" then ".join(g.name for g in order)] = dump(db)
    packed = tmp_path / "cap.zip"
    with zipfile.ZipFile(packed, "w") as z:
        for group in groups:
            for path in sorted(group.iterdir()):
                z.write(path, f"{group.name}/{path.name}")
    import_paths([packed], tmp_path / "zip.duckdb")
    stores["one zip"] = dump(tmp_path / "zip.duckdb")
    first = next(iter(stores.values()))
    for label, tables in stores.items():
        for name in first:
            assert tables[name] == first[name], (label, name)
    con = duckdb.connect(str(tmp_path / "zip.duckdb"), read_only=True)
    try:
        variants = dict(con.execute("SELECT hand_id, variant FROM hands").fetchall())
    finally:
        con.close()
    assert variants == truth  # the database alone says pineapple for most progressive hands
    assert sum(v == "progressive-pineapple" for v in truth.values()) == 6


def test_the_database_first_is_upgraded_by_the_hand_files(tmp_path: Path) -> None:
    truth = capture(tmp_path / "cap")
    db = tmp_path / "ofc.duckdb"
    (first,) = import_paths([tmp_path / "cap" / "db"], db).files
    assert first.notes and "assumed" in first.notes[0].message
    report = import_paths([tmp_path / "cap" / "hands"], db)
    assert (report.merged, report.rejected) == (6, 0)  # each hand file upgrades its hand
    con = duckdb.connect(str(db), read_only=True)
    try:
        stored = {h: (v, a, i) for h, v, a, i in con.execute(
            "SELECT hand_id, variant, variant_assumed, import_id FROM hands").fetchall()}
    finally:
        con.close()
    named = {p.name.removeprefix("hand_").removesuffix(".json")
             for p in (tmp_path / "cap" / "hands").iterdir()}
    for hand_id, (variant, assumed, import_id) in stored.items():
        if hand_id in named:  # the hand file's copy, upgraded in place and scored again
            assert (variant, assumed, import_id > first.import_id) == (truth[hand_id], False,
                                                                       True)
        else:
            assert import_id == first.import_id
    assert any(assumed for _, assumed, _ in stored.values())


def test_a_refused_hand_is_counted_once_and_names_both_logs(tmp_path: Path) -> None:
    (record,) = simulated("pineapple", 2, 1, seed=43, session="one")
    envelope = json.dumps(hand_envelope(record), indent=2)
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    (tmp_path / "a" / "hand_1.json").write_text(envelope, encoding="utf-8")
    (tmp_path / "b" / "hand_1.json").write_text(envelope.replace("Villain 1", "Villain 9"),
                                                encoding="utf-8")
    db = tmp_path / "ofc.duckdb"
    import_paths([tmp_path / "a"], db)
    (f,) = import_paths([tmp_path / "b"], db).files
    assert (f.hands, f.stored, f.duplicate, f.merged, f.partial, f.rejected) == (1, 0, 0, 0, 0, 1)
    message = f.errors[0].message
    assert str(tmp_path / "a" / "hand_1.json") in message
    assert str(tmp_path / "b" / "hand_1.json") in message and "players" in message


SAMPLES = Path(__file__).resolve().parent.parent / "data" / "samples"
_LINE = re.compile(r"^(?P<path>.+?) \[(?P<format>[^\]]+)\]: (?P<counts>.*)$")


def _text_counts(text: str) -> dict[str, dict[str, int]]:
    """Per file the counts ``ofc import`` prints: ``12 hands, 10 stored, 1 duplicate, ...``."""
    out = {}
    for line in text.splitlines():
        found = _LINE.match(line)
        if found is None:
            continue
        counts = {"merged": 0, "rejected": 0, "partial": 0}
        for number, word in re.findall(r"(\d+) (hands|stored|duplicate|merged|rejected|partial)",
                                       found["counts"]):
            counts[word] = int(number)
        out[found["path"]] = counts
    return out


def test_the_ledger_adds_up_on_every_file_everywhere(tmp_path: Path) -> None:
    capture(tmp_path / "cap")
    files = sorted(p for p in SAMPLES.rglob("*") if p.is_file()) + [tmp_path / "cap"]
    db = tmp_path / "ofc.duckdb"
    report = import_paths(files, db)
    assert len(report.files) > 20
    text = io.StringIO()
    print_report(report, text, verbose=True)
    printed = _text_counts(text.getvalue())
    assert sum(line.startswith("audit:") for line in text.getvalue().splitlines()) == 1
    as_json = {f["path"]: f for f in json.loads(json.dumps(report.to_dict()))["files"]}
    con = duckdb.connect(str(db), read_only=True)
    try:
        ledger = import_queries.ledger(con).set_index("import_id")
    finally:
        con.close()
    keys = ("hands", "stored", "duplicate", "merged", "partial", "rejected")
    for f in report.files:
        if f.unreadable is not None:
            continue
        mine = {k: getattr(f, k) for k in keys}
        assert f.adds_up(), (f.path, mine)
        assert {k: as_json[f.path][k] for k in keys} == mine, f.path
        assert {k: int(ledger.loc[f.import_id, k]) for k in keys} == mine, f.path
        assert printed[f.path] == mine, f.path
    assert report.merged > 0 and report.rejected > 0 and report.partial > 0


@pytest.mark.parametrize("seed", [44])
def test_merging_is_the_same_whichever_copy_is_stored(seed: int) -> None:
    from ingest.merge import copy_rank, merge_records

    (record,) = simulated("progressive-pineapple", 2, 1, seed=seed, session="m")
    from dataclasses import replace

    assumed = replace(record, variant="pineapple", variant_assumed=True,
                      players=tuple(replace(p, streets=None) for p in record.players))
    assert copy_rank(record) > copy_rank(assumed)
    assert merge_records(assumed, record) == merge_records(record, assumed)
    assert merge_records(assumed, record).variant == "progressive-pineapple"


def _with_chips(line: str, seat: int, chips: int) -> str:
    """A ``raw_messages.jsonl`` line whose GameState gives seat ``seat`` ``chips`` (``c``)."""
    obj = json.loads(line)
    prefix, rest = obj["payload"].split(",", 1)
    kind, inner = json.loads(rest)
    state = json.loads(inner)
    state["gameState"]["s"][seat]["c"] = chips
    obj["payload"] = f"{prefix}," + json.dumps([kind, json.dumps(state)])
    return json.dumps(obj)


def test_swc_stacks_settle_a_hand_under_table_stakes(tmp_path: Path) -> None:
    hands = simulated("pineapple", 2, 12, seed=45, session="stk")
    record = next(r for r in hands if min(p.reported_points for p in r.players) <= -5)
    loser = min(range(2), key=lambda i: record.players[i].reported_points)
    lines = raw_lines([record])
    first = next(n for n, line in enumerate(lines) if '"GameState"' in line)
    lines[first] = _with_chips(lines[first], loser, 200)  # 2.00 at 0.50 a point: 4 points
    (tmp_path / "raw_messages.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
    db = tmp_path / "ofc.duckdb"
    (f,) = import_paths([tmp_path / "raw_messages.jsonl"], db).files
    assert f.stored == 1
    con = duckdb.connect(str(db), read_only=True)
    try:
        stored = con.execute("SELECT seat, stack, points, raw_points FROM hand_players "
                             "ORDER BY seat").fetchall()
    finally:
        con.close()
    assert [s[1] for s in stored] == [4.0 if s == loser else 200.0 for s in range(2)]
    assert stored[loser][2] == -4 and stored[1 - loser][2] == 4
    assert stored[loser][3] == record.players[loser].reported_points
    assert any(d.what == "points" for d in f.audit.differ)  # the room's figure is uncapped


def test_an_older_ledger_gets_its_merged_count_on_upgrade(tmp_path: Path) -> None:
    """Schema 7 keeps ``imports.merged``; a store of version 6 gets it from its other counts."""
    from ingest.api import connect, upgrade

    db = tmp_path / "ofc.duckdb"
    capture(tmp_path / "cap")
    import_paths([tmp_path / "cap" / "db"], db)
    import_paths([tmp_path / "cap" / "hands"], db)
    con = duckdb.connect(str(db))
    con.execute("ALTER TABLE imports DROP COLUMN merged")
    con.execute("UPDATE meta SET value = '6' WHERE key = 'schema_version'")
    con.close()
    con = connect(db)
    try:
        upgrade(con, db, notify=lambda _: None)
        merged = [m for (m,) in con.execute("SELECT merged FROM imports ORDER BY import_id")
                  .fetchall()]
        assert merged == [0] + [1] * 6  # the database, then each hand file upgrading its hand
    finally:
        con.close()
