"""The folder watcher (``ingest.watch``): new files imported, grown files read again (a partial
last hand stored once it is complete), unchanged files left alone (the store not even opened),
a bad file's errors recorded with file and line, files still being written left for the next
check, a folder that disappears, the store held by another process, several watchers on the
same folders, and the watched folders kept through a rescore."""

from __future__ import annotations

import os
import shutil
import time
import zipfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import duckdb
import pytest

from ingest import api, store
from ingest.watch import Watcher
from ingest.watched_folders import FolderError, add_folder, folder_errors, remove_folder
from tests.helpers.store import hand_lines, query

DEMO = Path(__file__).resolve().parents[1] / "data" / "demo" / "regular.Hero.jsonl"
PNG = b"\x89PNG\r\n\x1a\n" + bytes(range(64))


def settled(path: Path) -> Path:
    """The file's modification time moved 10 s back: it looks finished."""
    past = time.time() - 10
    os.utime(path, (past, past))
    return path


def write(path: Path, text: str) -> Path:
    path.write_text(text, encoding="utf-8")
    return settled(path)


def stamp(db: Path) -> tuple[int, ...]:
    """The store's files as the dashboard's cache sees them (size and mtime, WAL included)."""
    out: list[int] = []
    for f in (db, db.with_name(db.name + ".wal")):
        info = os.stat(f) if f.exists() else None
        out += [info.st_size, info.st_mtime_ns] if info else [0, 0]
    return tuple(out)


def status(db: Path) -> dict[str, api.WatchedFolder]:
    con = store.connect(db)
    try:
        return {f.path: f for f in api.watched_folders(con)}
    finally:
        con.close()


@pytest.fixture
def setup(tmp_path: Path) -> Iterator[tuple[Path, Path]]:
    """A new store with one watched folder (empty)."""
    db, folder = tmp_path / "w.duckdb", tmp_path / "logs"
    folder.mkdir()
    con = store.connect(db)
    add_folder(con, folder)
    con.close()
    yield db, folder


def watcher(db: Path, folder: Path | None = None, **kw: object) -> Watcher:
    kw.setdefault("settle_seconds", 0.0)
    return Watcher(db, None if folder is None else [str(folder)], **kw)  # type: ignore[arg-type]


def test_a_new_file_is_imported_and_its_folder_status_stored(setup: tuple[Path, Path]) -> None:
    db, folder = setup
    write(folder / "a.jsonl", "\n".join(hand_lines("new", 3)) + "\n")
    done = watcher(db, folder).check()
    assert done.error is None
    [check] = done.folders
    assert (check.path, check.files, check.hands, check.errors) == (str(folder.resolve()), 1, 3,
                                                                    ())
    assert query(db, "SELECT count(*) FROM hands") == [(3,)]
    row = status(db)[str(folder.resolve())]
    assert (row.files, row.hands, row.errors, row.problem) == (1, 3, 0, None)
    assert row.last_check is not None and abs(row.last_check - time.time()) < 60


def test_an_unchanged_file_is_not_read_again_and_the_store_not_opened(
        setup: tuple[Path, Path], monkeypatch: pytest.MonkeyPatch) -> None:
    db, folder = setup
    write(folder / "a.jsonl", "\n".join(hand_lines("same", 3)) + "\n")
    w = watcher(db, folder)
    w.check()
    before, ledger = stamp(db), query(db, "SELECT count(*) FROM imports")
    opened: list[bool] = []
    real = w.writing
    w.writing = lambda: (opened.append(True), real())[1]
    again = w.check()
    assert again.imports == () and opened == []
    assert stamp(db) == before and query(db, "SELECT count(*) FROM imports") == ledger
    # a new watcher (a restart) reads the last imports from the store: still nothing read
    reads: list[Path] = []
    monkeypatch.setattr(Path, "read_bytes", lambda self: reads.append(self) or b"")
    assert watcher(db, folder).check().imports == () and reads == []
    assert query(db, "SELECT count(*) FROM imports") == ledger


def test_a_grown_file_with_a_partial_last_hand_is_completed_later(
        setup: tuple[Path, Path]) -> None:
    db, folder = setup
    lines = hand_lines("grow", 4)
    log = folder / "session.jsonl"
    cut = len(lines[2]) // 2
    write(log, lines[0] + "\n" + lines[1] + "\n" + lines[2][:cut])  # still being written
    w = watcher(db, folder)
    first = w.check()
    [report] = first.imports
    assert (report.stored, report.partial, report.errors) == (2, 1, ())
    assert first.folders[0].errors == ()
    # the writer finishes the hand and adds another
    with log.open("a", encoding="utf-8") as out:
        out.write(lines[2][cut:] + "\n" + lines[3] + "\n")
    settled(log)
    second = w.check()
    [report] = second.imports
    assert (report.stored, report.duplicate, report.partial, report.errors) == (2, 2, 0, ())
    assert query(db, "SELECT hand_id FROM hands ORDER BY hand_id") == [
        (f"grow-{n}",) for n in range(4)]
    row = status(db)[str(folder.resolve())]
    assert (row.files, row.hands, row.errors) == (1, 4, 0)
    assert query(db, "SELECT count(*) FROM rejected WHERE NOT partial") == [(0,)]


def test_bad_files_are_their_own_errors_with_file_and_line(setup: tuple[Path, Path]) -> None:
    db, folder = setup
    good = hand_lines("bad", 2)
    write(folder / "mixed.jsonl", good[0] + "\n{\"hand_id\": \"broken\", \n" + good[1] + "\n")
    (folder / "table.png").write_bytes(PNG)
    settled(folder / "table.png")
    done = watcher(db, folder).check()
    assert done.error is None
    errors = {(Path(e.file).name, e.line) for e in done.folders[0].errors}
    assert errors == {("mixed.jsonl", 2), ("table.png", 0)}
    assert query(db, "SELECT count(*) FROM hands") == [(2,)]
    path = str(folder.resolve())
    assert status(db)[path].errors == 2
    con = store.connect(db)
    try:
        listed = folder_errors(con, path)
    finally:
        con.close()
    assert [(Path(e.file).name, e.line) for e in listed] == [("mixed.jsonl", 2),
                                                             ("table.png", 0)]
    assert "line 2" in listed[0].text() and "not UTF-8 text" in listed[1].text()


def test_a_file_still_changing_waits_for_the_next_check(setup: tuple[Path, Path]) -> None:
    db, folder = setup
    log = folder / "live.jsonl"
    log.write_text("\n".join(hand_lines("fresh", 2)) + "\n", encoding="utf-8")  # just now
    w = watcher(db, folder, settle_seconds=5.0)
    first = w.check()
    assert first.imports == () and first.folders[0].waiting == 1
    settled(log)
    assert w.check().folders[0].hands == 2


def test_a_zip_in_a_watched_folder_is_imported_member_by_member(
        setup: tuple[Path, Path]) -> None:
    db, folder = setup
    with zipfile.ZipFile(folder / "week.zip", "w") as z:
        z.writestr("mon.jsonl", "\n".join(hand_lines("zip-mon", 2)) + "\n")
        z.writestr("tue.jsonl", "\n".join(hand_lines("zip-tue", 3)) + "\n")
    settled(folder / "week.zip")
    done = watcher(db, folder).check()
    assert sorted(Path(f.path).name for f in done.imports) == ["mon.jsonl", "tue.jsonl"]
    assert done.folders[0].hands == 5 and status(db)[str(folder.resolve())].files == 1


def test_a_removed_folder_is_reported_and_comes_back(setup: tuple[Path, Path]) -> None:
    db, folder = setup
    write(folder / "a.jsonl", "\n".join(hand_lines("gone", 2)) + "\n")
    w = watcher(db, folder)
    w.check()
    shutil.rmtree(folder)
    gone = w.check()
    assert gone.error is None
    assert "no such folder" in (gone.folders[0].problem or "")
    path = str(folder.resolve())
    assert "no such folder" in (status(db)[path].problem or "")
    assert query(db, "SELECT count(*) FROM hands") == [(2,)]  # its hands stay
    before = stamp(db)
    assert w.check().folders[0].problem is not None and stamp(db) == before  # said once
    folder.mkdir()
    write(folder / "b.jsonl", "\n".join(hand_lines("back", 1)) + "\n")
    back = w.check()
    assert back.folders[0].problem is None and back.folders[0].hands == 1
    row = status(db)[path]
    assert row.problem is None and (row.files, row.hands) == (1, 1)  # a.jsonl is forgotten


def test_folders_are_added_checked_and_removed(tmp_path: Path) -> None:
    con = store.connect(tmp_path / "w.duckdb")
    try:
        with pytest.raises(FolderError, match="no such folder"):
            add_folder(con, tmp_path / "nothing-here")
        (tmp_path / "file.txt").write_text("x")
        with pytest.raises(FolderError, match="not a folder"):
            add_folder(con, tmp_path / "file.txt")
        added = add_folder(con, tmp_path / "." / "")
        assert add_folder(con, tmp_path) == added == str(tmp_path.resolve())
        assert [f.path for f in api.watched_folders(con)] == [added]
        assert remove_folder(con, added) and not remove_folder(con, added)
        assert api.watched_folders(con) == []
    finally:
        con.close()


def test_the_store_held_elsewhere_is_a_status_not_a_crash(setup: tuple[Path, Path]) -> None:
    db, folder = setup
    write(folder / "a.jsonl", "\n".join(hand_lines("held", 2)) + "\n")
    reader = duckdb.connect(str(db), read_only=True)  # held the other way
    try:
        held = watcher(db, folder, wait_seconds=0.3).check()
    finally:
        reader.close()
    assert held.error is not None and held.imports == ()
    assert watcher(db, folder).check().folders[0].hands == 2


def test_two_watchers_never_import_a_file_twice(setup: tuple[Path, Path]) -> None:
    db, folder = setup
    first, second = watcher(db, folder), watcher(db, folder)
    first.check(), second.check()
    write(folder / "a.jsonl", "\n".join(hand_lines("twice", 3)) + "\n")
    assert first.check().folders[0].hands == 3
    assert second.check().imports == ()  # it saw the change, then the store's record of it
    assert query(db, "SELECT count(*) FROM imports") == [(1,)]


def test_the_store_is_let_go_between_files(setup: tuple[Path, Path]) -> None:
    db, folder = setup
    for n in range(3):
        write(folder / f"f{n}.jsonl", "\n".join(hand_lines(f"hold{n}", 2)) + "\n")
    opened: list[int] = []

    @contextmanager
    def writing() -> Iterator[duckdb.DuckDBPyConnection]:
        con = store.connect(db)
        opened.append(1)
        try:
            yield con
        finally:
            con.close()

    done = watcher(db, folder, writing=writing, hold_seconds=0.0).check()
    assert done.folders[0].hands == 6 and len(opened) == 3


def test_the_dashboard_watcher_follows_the_stores_list(setup: tuple[Path, Path],
                                                       tmp_path: Path) -> None:
    db, folder = setup
    other = tmp_path / "other"
    other.mkdir()
    write(other / "o.jsonl", "\n".join(hand_lines("other", 2)) + "\n")
    w = watcher(db)
    w.set_folders([str(folder.resolve())])
    w.check()  # reads the store's list
    assert w.folders == (str(folder.resolve()),)
    con = store.connect(db)
    add_folder(con, other)
    con.close()
    w.set_folders(f.path for f in status(db).values())
    assert w.check().imports[0].stored == 2


def test_watched_folders_survive_a_rescore_and_an_upgrade(setup: tuple[Path, Path]) -> None:
    db, folder = setup
    write(folder / "a.jsonl", "\n".join(hand_lines("keep", 2)) + "\n")
    watcher(db, folder).check()
    before = status(db)
    con = store.connect(db)
    api.rescore(con)
    con.execute("DROP TABLE watched_files")  # a store of schema 5 had neither table...
    con.execute("UPDATE meta SET value = '5' WHERE key = 'schema_version'")
    con.close()
    con = store.connect(db)
    api.upgrade(con, db, notify=lambda _: None)  # ...the upgrade adds what is missing
    assert [f.path for f in api.watched_folders(con)] == list(before)
    con.close()


def test_a_failing_check_is_said_and_the_next_one_runs(setup: tuple[Path, Path]) -> None:
    db, folder = setup
    write(folder / "a.jsonl", "\n".join(hand_lines("retry", 2)) + "\n")
    calls: list[int] = []

    @contextmanager
    def writing() -> Iterator[duckdb.DuckDBPyConnection]:
        calls.append(1)
        if len(calls) == 1:
            raise RuntimeError("planted")
        con = store.connect(db)
        try:
            yield con
        finally:
            con.close()

    seen: list[api.WatchPass] = []
    w = watcher(db, folder, writing=writing)
    w.on_check = lambda done: (seen.append(done), len(seen) >= 2 and w.stop())
    w.run(interval=0.01)
    assert "a bug in OFC Analytics" in (seen[0].error or "") and "planted" in seen[0].error
    assert seen[1].error is None and seen[1].folders[0].hands == 2


def test_a_store_of_this_version_without_the_watch_tables_gains_them(tmp_path: Path) -> None:
    """Schema 6 is shared by changes merged one after another: a store written by a build of
    version 6 that had no watched folders gets the tables at its next start, empty, its hands
    kept and not rescored."""
    db = tmp_path / "w.duckdb"
    folder = tmp_path / "logs"
    folder.mkdir()
    write(folder / "a.jsonl", "\n".join(hand_lines("v6", 2)) + "\n")
    api.import_paths([folder], db)
    con = store.connect(db)
    con.execute("DROP TABLE watched_files")
    con.execute("DROP TABLE watched_folders")
    said: list[str] = []
    assert api.upgrade(con, db, notify=said.append) is None and said == []
    assert api.watched_folders(con) == [] and add_folder(con, folder)
    assert con.execute("SELECT count(*) FROM hands").fetchone() == (2,)
    con.close()


def test_a_folder_removed_and_added_again_is_counted_again(setup: tuple[Path, Path]) -> None:
    db, folder = setup
    write(folder / "a.jsonl", "\n".join(hand_lines("again", 2)) + "\n")
    w = watcher(db)
    w.set_folders([str(folder.resolve())])
    assert w.check().folders[0].hands == 2
    con = store.connect(db)
    remove_folder(con, folder)  # on the Import page, which gives the watcher the new list
    w.set_folders([])
    w.check()
    add_folder(con, folder)
    con.close()
    w.set_folders([str(folder.resolve())])
    again = w.check()  # a new folder to this watcher, whose file the store forgot: read again
    assert [(f.stored, f.duplicate) for f in again.imports] == [(0, 2)]
    assert (status(db)[str(folder.resolve())].files, query(db, "SELECT count(*) FROM hands")) \
        == (1, [(2,)])
