"""Notes and tags (ingest.notes through ingest.api): set, read, clear; kept through a rescore,
a merge of the same hand from another log, an upgrade and the removal of other imports;
hostile strings stored as data."""

from __future__ import annotations

from pathlib import Path

import duckdb
import pytest

from ingest import api, store
from ingest.api import (
    NoteError,
    hand_annotation,
    import_files,
    player_annotation,
    set_hand_annotation,
    set_hand_note,
    set_hand_tags,
    set_player_annotation,
    set_player_note,
    set_player_tags,
    tag_choices,
)
from tests.helpers.store import PERSPECTIVE_A, PERSPECTIVE_B

HOSTILE = [
    "'); DROP TABLE hands; --",
    "<script>alert(1)</script>",
    "**bold** $x$ :red[red] [link](javascript:alert(1))",
    "\u202eevil\u202c مرحبا 🂡🃑 ğüß",
    "tab\there\nnew line",
    "%s %(x)s {0} ? $1",
]


@pytest.fixture()
def con(tmp_path: Path) -> duckdb.DuckDBPyConnection:
    c = store.connect(tmp_path / "notes.duckdb")
    yield c
    c.close()


def _import(con: duckdb.DuckDBPyConnection, name: str, text: str) -> api.ImportReport:
    return import_files([(name, (text + "\n").encode())], con)


def test_a_hand_note_and_tags_are_set_read_and_cleared(con) -> None:
    assert hand_annotation(con, "club", "x1") == api.Annotation("", ())
    set_hand_note(con, "club", "x1", "  misread the flush  \n")
    assert set_hand_tags(con, "club", "x1", ["Tilt", "fold-equity", " TILT "]) == \
        ("Tilt", "fold-equity")
    assert hand_annotation(con, "club", "x1") == api.Annotation("misread the flush",
                                                               ("Tilt", "fold-equity"))
    assert hand_annotation(con, "club", "x2") == api.Annotation("", ())  # others untouched
    set_hand_tags(con, "club", "x1", ["fold-equity"])
    set_hand_note(con, "club", "x1", "   ")
    assert hand_annotation(con, "club", "x1") == api.Annotation("", ("fold-equity",))
    assert con.execute("SELECT count(*) FROM hand_notes").fetchone() == (0,)
    set_hand_tags(con, "club", "x1", [])
    assert con.execute("SELECT count(*) FROM hand_tags").fetchone() == (0,)


def test_a_player_note_and_tags(con) -> None:
    set_player_note(con, "bob", "calls every double")
    set_player_tags(con, "bob", ["fish", "Fish", "Nit"])
    set_player_tags(con, "ann", ["nit"])
    assert player_annotation(con, "bob") == api.Annotation("calls every double", ("fish", "Nit"))
    assert player_annotation(con, "carl") == api.Annotation("", ())
    assert tag_choices(con, "player") == ("fish", "Nit")  # one per key; a tie: sort order
    set_player_note(con, "bob", "")
    assert player_annotation(con, "bob").note == ""


def test_tag_choices_show_the_spelling_used_most(con) -> None:
    for hand, tag in [("1", "Bluff"), ("2", "bluff"), ("3", "bluff"), ("4", "river")]:
        set_hand_tags(con, "s", hand, [tag])
    assert tag_choices(con) == ("bluff", "river")
    rows = con.execute("SELECT DISTINCT tag_key FROM hand_tags ORDER BY 1").fetchall()
    assert rows == [("bluff",), ("river",)]


@pytest.mark.parametrize("text", HOSTILE)
def test_hostile_strings_are_stored_as_data(con, text: str) -> None:
    set_hand_note(con, "s'; --", text, text)
    set_player_note(con, text, text)
    tag = " ".join(text.split())[:40]
    set_hand_tags(con, "s'; --", text, [tag])
    assert hand_annotation(con, "s'; --", text) == api.Annotation(text.strip(), (tag,))
    assert player_annotation(con, text).note == text.strip()
    assert con.execute("SELECT count(*) FROM hands").fetchone() == (0,)  # the table is there


@pytest.mark.parametrize("bad, message", [
    ("x" * 5001, "at most 5,000 characters; this one has 5,001"),
    ("nul \x00 byte", "cannot hold the character U\\+0000"),
    ("bell \x07", "cannot hold the character U\\+0007"),
    ("lone \ud800 surrogate", "cannot hold the character U\\+D800"),
])
def test_a_note_the_store_refuses_says_why_and_keeps_the_old_one(con, bad: str,
                                                                message: str) -> None:
    set_hand_note(con, "s", "1", "kept")
    with pytest.raises(NoteError, match=message):
        set_hand_note(con, "s", "1", bad)
    assert hand_annotation(con, "s", "1").note == "kept"


def test_a_tag_the_store_refuses_says_why(con) -> None:
    set_hand_tags(con, "s", "1", ["kept"])
    for tags, message in [(["a" * 41], "at most 40 characters"), (["  "], "cannot be empty"),
                          (["two\nlines"], "U\\+000A"),
                          ([f"t{i}" for i in range(21)], "At most 20 tags")]:
        with pytest.raises(NoteError, match=message):
            set_hand_tags(con, "s", "1", tags)
    assert hand_annotation(con, "s", "1").tags == ("kept",)
    assert set_hand_tags(con, "s", "1", ["a" * 40]) == ("a" * 40,)  # the limit itself is fine


def test_a_note_and_tags_saved_together_save_nothing_when_a_tag_is_refused(con) -> None:
    """The replayer and the Opponents page save a note and its tags with one button: a
    refused tag leaves the stored note as it was (it used to be written before the tags were
    checked), and a refused note leaves the tags."""
    for save, read, key in [(set_hand_annotation, hand_annotation, ("s", "1")),
                            (set_player_annotation, player_annotation, ("Bob",))]:
        assert save(con, *key, "old note", ["old"]) == ("old",)
        with pytest.raises(NoteError, match="At most 20 tags"):
            save(con, *key, "new note", [f"t{i}" for i in range(21)])
        with pytest.raises(NoteError, match="U\\+0000"):
            save(con, *key, "nul \x00", ["new"])
        assert read(con, *key) == api.Annotation("old note", ("old",))
        assert save(con, *key, "new note", ["new", "NEW"]) == ("new",)
        assert read(con, *key) == api.Annotation("new note", ("new",))


def test_notes_survive_rescore_merge_and_removing_other_imports(con) -> None:
    first = _import(con, "ann.jsonl", PERSPECTIVE_A)
    other = _import(con, "other.jsonl", PERSPECTIVE_A.replace('"x1"', '"x2"'))
    assert first.stored == other.stored == 1
    set_hand_note(con, "club", "x1", "first note")
    set_hand_tags(con, "club", "x1", ["Review me"])
    set_player_note(con, "bob", "sticky")
    want = api.Annotation("first note", ("Review me",))

    assert api.rescore(con).hands == 2
    assert hand_annotation(con, "club", "x1") == want
    merged = _import(con, "bob.jsonl", PERSPECTIVE_B)  # the same hand from bob's log
    assert merged.merged == 1
    assert hand_annotation(con, "club", "x1") == want
    api.remove_imports(con, [other.files[0].import_id])
    assert con.execute("SELECT hand_id FROM hands").fetchall() == [("x1",)]
    assert hand_annotation(con, "club", "x1") == want
    assert player_annotation(con, "bob").note == "sticky"


def test_removing_a_hands_import_keeps_its_note_for_a_re_import(con) -> None:
    report = _import(con, "ann.jsonl", PERSPECTIVE_A)
    set_hand_tags(con, "club", "x1", ["keep"])
    api.remove_imports(con, [report.files[0].import_id])
    assert con.execute("SELECT count(*) FROM hands").fetchone() == (0,)
    again = _import(con, "ann.jsonl", PERSPECTIVE_A)
    assert again.stored == 1
    key = con.execute("SELECT hand_key FROM hands").fetchone()[0]
    tagged = con.execute("SELECT h.hand_key FROM hand_tags t JOIN hands h USING (source, hand_id)"
                         ).fetchall()
    assert tagged == [(key,)]


def test_an_upgrade_from_version_5_adds_the_tables_and_keeps_the_hands(tmp_path: Path) -> None:
    path = tmp_path / "v5.duckdb"
    con = store.connect(path)
    _import(con, "ann.jsonl", PERSPECTIVE_A)
    for table in api.NOTE_TABLES:
        con.execute(f"DROP TABLE {table}")
    con.execute("UPDATE meta SET value = '5' WHERE key = 'schema_version'")
    con.close()
    con = store.connect(path, notify=lambda _: None)
    with pytest.raises(duckdb.CatalogException):
        hand_annotation(con, "club", "x1")
    assert api.upgrade(con, path, notify=lambda _: None) is not None
    set_hand_note(con, "club", "x1", "after the upgrade")
    assert hand_annotation(con, "club", "x1").note == "after the upgrade"
    assert store.schema_version(con) == store.SCHEMA_VERSION
    assert con.execute("SELECT count(*) FROM hands").fetchone() == (1,)
    con.close()


def test_ofc_export_writes_the_notes_and_tags(tmp_path: Path) -> None:
    import pyarrow.parquet as pq

    from ofc_cli.cli import main as ofc

    db = tmp_path / "e.duckdb"
    con = store.connect(db)
    _import(con, "ann.jsonl", PERSPECTIVE_A)
    set_hand_note(con, "club", "x1", HOSTILE[0])
    set_hand_tags(con, "club", "x1", ["Tilt", "river"])
    set_player_note(con, "bob", "nit")
    set_player_tags(con, "bob", ["Fish"])
    con.close()
    assert ofc(["export", "--db", str(db), "--parquet", str(tmp_path / "out")]) == 0
    read = {name: pq.read_table(tmp_path / "out" / f"{name}.parquet").to_pylist()
            for name in api.NOTE_TABLES}
    assert [(r["source"], r["hand_id"], r["note"]) for r in read["hand_notes"]] == [
        ("club", "x1", HOSTILE[0])]
    assert sorted((r["position"], r["tag"], r["tag_key"]) for r in read["hand_tags"]) == [
        (0, "Tilt", "tilt"), (1, "river", "river")]
    assert [(r["player"], r["note"]) for r in read["player_notes"]] == [("bob", "nit")]
    assert [(r["player"], r["tag"]) for r in read["player_tags"]] == [("bob", "Fish")]


def test_a_current_store_without_the_notes_tables_gets_them(tmp_path: Path) -> None:
    """Two changes bumped the schema to the same version: a store of that version written
    without the notes tables gets them at the next upgrade, without a rescore."""
    path = tmp_path / "v6.duckdb"
    con = store.connect(path)
    _import(con, "ann.jsonl", PERSPECTIVE_A)
    for table in api.NOTE_TABLES:
        con.execute(f"DROP TABLE {table}")
    assert api.upgrade(con, path, notify=lambda _: None) is None
    set_hand_tags(con, "club", "x1", ["back"])
    assert hand_annotation(con, "club", "x1").tags == ("back",)
    assert api.upgrade(con, path, notify=lambda _: None) is None  # nothing to do: no error
    con.close()
