"""Codes in words: each room's and money unit's name (``ingest.names``, kept with each format
module), the SwC hand files' money unit read, and ``ofc simulate --help`` on ``--start``."""

from __future__ import annotations

import zipfile
from pathlib import Path

import duckdb
import pytest

from ingest.api import currency_name, currency_names, import_paths, room_name, room_names
from ofc_cli.cli import main

CAPTURE = Path(__file__).resolve().parent / "data" / "fpdb-capture" / "capture.zip"


def test_every_room_the_readers_write_has_a_name() -> None:
    """The rooms of each format module's ``ROOM_NAMES``, gathered (a new format's own rooms
    join them without a change here)."""
    assert room_names().items() >= {"swc": "Seals with Clubs", "pineapple-app": "Pineapple app",
                                    "ofc-sim": "OFC Analytics simulator",
                                    "practice": "Practice table"}.items()
    assert room_name("home-game") == "home-game" and room_name(None) == "unknown room"


def test_money_units_in_words() -> None:
    assert currency_names()["mBTC"] == "mBTC (millibitcoin)"
    assert currency_name("R") == "SwC money (R)"
    assert currency_name("EUR", "ofc-sim") == "EUR"  # a unit nobody names: as written
    assert currency_name(None, "swc") == "unknown"
    assert currency_name(None, "pineapple-app") == "play money"
    assert currency_name("", "pineapple-app") == "play money"


def _hand_files(folder: Path, names: list[str]) -> Path:
    folder.mkdir()
    with zipfile.ZipFile(CAPTURE) as z:
        for name in names:
            (folder / Path(name).name).write_bytes(z.read(name))
    return folder


def test_hand_files_alone_store_their_money_unit(tmp_path: Path) -> None:
    """FPDB's hand files name the table's unit (``gametype.currency``: mBTC) and give no
    money message: imported alone, each hand keeps the unit, without a stake."""
    hands = _hand_files(tmp_path / "hands", ["Capture/hand_1227001.json",
                                             "Capture/hand_1433001.json"])
    db = tmp_path / "ofc.duckdb"
    import_paths([hands], db)
    con = duckdb.connect(str(db), read_only=True)
    try:
        rows = con.execute("SELECT hand_id, stake, currency FROM hands ORDER BY 1").fetchall()
    finally:
        con.close()
    assert rows == [("1227001", None, "mBTC"), ("1433001", None, "mBTC")]


@pytest.mark.parametrize("first", ["hands", "db"])
def test_the_unit_survives_a_merge_with_the_database(tmp_path: Path, first: str) -> None:
    """FPDB's database keeps no unit: merged with a hand file either way round, the hand keeps
    the hand file's."""
    hands = _hand_files(tmp_path / "hands", ["Capture/hand_1227001.json"])
    dbfile = _hand_files(tmp_path / "fpdb", ["Capture/fpdb.db3"])
    db = tmp_path / "ofc.duckdb"
    for group in ([hands, dbfile] if first == "hands" else [dbfile, hands]):
        import_paths([group], db)
    con = duckdb.connect(str(db), read_only=True)
    try:
        units = con.execute("SELECT currency, count(*) FROM hands GROUP BY ALL").fetchall()
        one = con.execute("SELECT currency FROM hands WHERE hand_id = '1227001'").fetchone()
    finally:
        con.close()
    assert one == ("mBTC",) and sorted(units, key=str) == [("mBTC", 1), (None, 149)]


def test_simulate_help_says_hands_start_up_to_3_hours_after_start(capsys) -> None:
    with pytest.raises(SystemExit):
        main(["simulate", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert "random 0-3 hours" in text and "up to 3 h after --start" in text
