"""Removing an import keeps every hand another import holds: the capture's logs (FPDB's
database, its hand files, its frames) imported in every order, then its imports removed one by
one, each time giving the store an import of the remaining logs alone gives; what was removed
and kept is said (``Removal``, ``ofc imports --remove``)."""

from __future__ import annotations

import itertools
import json
import shutil
import zipfile
from pathlib import Path

import duckdb
import pytest

from ingest.api import connect, import_files, remove_imports
from ofc_cli.cli import main
from tests.helpers.store import capture_dump
from tests.reallogs_fixtures import merge_capture

GROUPS = ("db", "hands", "frames")
CAPTURE = Path(__file__).resolve().parent / "data" / "fpdb-capture" / "capture.zip"


def _files(folder: Path) -> list[tuple[str, bytes]]:
    return [(str(p), p.read_bytes()) for p in sorted(folder.iterdir())]


def _import(db: Path, root: Path, groups: tuple[str, ...]) -> dict[str, list[int]]:
    """The groups imported in this order; their import ids by group."""
    con = connect(db)
    try:
        return {g: [f.import_id for f in import_files(_files(root / g), con).files
                    if f.import_id is not None] for g in groups}
    finally:
        con.close()


@pytest.fixture(scope="module")
def alone(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[frozenset[str], dict]]:
    """The capture, and the store each set of its logs gives imported alone (by group set)."""
    root = tmp_path_factory.mktemp("capture")
    merge_capture(root)
    stores = {}
    for size in (1, 2):
        for groups in itertools.combinations(GROUPS, size):
            db = root / f"{'-'.join(groups)}.duckdb"
            _import(db, root, groups)
            stores[frozenset(groups)] = capture_dump(db)
    return root, stores


@pytest.mark.parametrize("order", list(itertools.permutations(GROUPS)),
                         ids=lambda o: "-".join(o))
def test_removing_each_import_keeps_what_the_others_hold(tmp_path: Path, alone, order) -> None:
    root, stores = alone
    db = tmp_path / "ofc.duckdb"
    ids = _import(db, root, order)
    left = list(order)
    for group in (order if order[0] != "hands" else order[::-1])[:2]:
        con = connect(db)
        try:
            before = con.execute("SELECT count(*) FROM hands").fetchone()[0]
            removal = remove_imports(con, ids[group])
            after = con.execute("SELECT count(*) FROM hands").fetchone()[0]
        finally:
            con.close()
        left.remove(group)
        expected = stores[frozenset(left)]
        assert capture_dump(db) == expected, (order, group)
        assert before - after == removal.removed and removal.imports == len(ids[group])
        held = len({row[0:2] for row in stores[frozenset([group])]["hands"]})
        assert removal.removed + removal.kept == held, (order, group, removal)
        assert removal.kept == len({row[0:2] for row in expected["hands"]}
                                   & {row[0:2] for row in stores[frozenset([group])]["hands"]})


def test_the_upgraded_hand_falls_back_to_the_database_copy(tmp_path: Path) -> None:
    """The database first (variant assumed), then a hand file upgrades its hand and the hand
    moves to the hand file's import; removing that import keeps the hand, as the database
    stored it (variant assumed again, its import and text), scored again."""
    root = tmp_path / "cap"
    merge_capture(root)
    db = tmp_path / "ofc.duckdb"
    ids = _import(db, root, ("db", "hands"))
    con = connect(db)
    try:
        upgraded = con.execute("SELECT count(*) FROM hands WHERE list_contains(?, import_id)",
                               [ids["hands"]]).fetchone()[0]
        removal = remove_imports(con, ids["hands"])
        rows = con.execute("SELECT DISTINCT import_id, variant_assumed FROM hands "
                           "WHERE variant = 'pineapple' AND hand_id LIKE '%'").fetchall()
        count = con.execute("SELECT count(*) FROM hands").fetchone()[0]
    finally:
        con.close()
    assert upgraded == 6 and (removal.removed, removal.kept) == (0, 6)
    assert count == 9 and {i for i, _ in rows} == set(ids["db"])
    assert "0 hands removed; 6 hands kept" in removal.message()


def test_ofc_imports_lists_and_removes_saying_what_it_kept(tmp_path: Path, capsys) -> None:
    """The real capture: FPDB's database, then ten of its hand files (each upgrades its hand);
    ``ofc imports --remove`` of the hand files keeps all 150 hands."""
    folder = tmp_path / "hands"
    folder.mkdir()
    with zipfile.ZipFile(CAPTURE) as z:
        (tmp_path / "fpdb.db3").write_bytes(z.read("Capture/fpdb.db3"))
        for n in range(1, 11):
            (folder / f"hand_{1712000 + n}.json").write_bytes(
                z.read(f"Capture/hand_{1712000 + n}.json"))
    db = tmp_path / "ofc.duckdb"
    assert main(["import", str(tmp_path / "fpdb.db3"), "--db", str(db), "--json"]) == 0
    assert main(["import", str(folder), "--db", str(db), "--json"]) == 0
    files = json.loads(capsys.readouterr().out.splitlines()[-1])["files"]
    assert sum(f["merged"] for f in files) == 10
    assert main(["imports", "--db", str(db)]) == 0
    listing = capsys.readouterr().out
    assert "fpdb.db3" in listing and "hand_1712001.json" in listing
    ids = [line.split()[0] for line in listing.splitlines() if "hand_17120" in line]
    assert len(ids) == 10
    assert main(["imports", "--db", str(db), "--remove", *ids]) == 0
    said = capsys.readouterr().out
    assert "Removed 10 imports: 0 hands removed; 10 hands kept" in said
    con = duckdb.connect(str(db), read_only=True)
    try:
        assert con.execute("SELECT count(*), count(DISTINCT import_id) FROM hands"
                           ).fetchone() == (150, 1)
    finally:
        con.close()
    shutil.rmtree(folder)
