"""A hand that moved no money takes its table's stake and currency, flagged as inferred
(``hands.stake_inferred``, ``ingest/inferred_stakes.py``); a copy that logs the stake replaces
the inference; the stake filter's groups then hold every hand of the table."""

from __future__ import annotations

import json
import zipfile
from pathlib import Path

import duckdb

from ingest.api import connect, import_files, import_paths, upgrade

CAPTURE = Path(__file__).resolve().parent / "data" / "fpdb-capture" / "capture.zip"
DEMO = Path(__file__).resolve().parents[1] / "data" / "demo" / "regular.Hero.jsonl"


def test_the_captures_hands_without_money_take_their_tables_stake(tmp_path: Path) -> None:
    frames = tmp_path / "raw_messages.jsonl"
    with zipfile.ZipFile(CAPTURE) as z:
        frames.write_bytes(z.read("Capture/raw_messages.jsonl"))
    db = tmp_path / "ofc.duckdb"
    import_paths([frames], db)
    con = duckdb.connect(str(db), read_only=True)
    try:
        stakes = con.execute("SELECT stake, currency, stake_inferred IS TRUE, count(*) "
                             "FROM hands GROUP BY ALL ORDER BY ALL").fetchall()
        wrong = con.execute("SELECT count(*) FROM hand_players hp JOIN hands h "
                            "USING (hand_key) WHERE h.stake_inferred "
                            "AND hp.money IS DISTINCT FROM hp.points * 0.5").fetchone()
        grouped = con.execute("SELECT stake, currency, sum(hands) FROM agg_hands "
                              "GROUP BY ALL").fetchall()
    finally:
        con.close()
    assert stakes == [(0.5, "R", False, 120), (0.5, "R", True, 30)]
    assert wrong == (0,) and grouped == [(0.5, "R", 150)]


def _lines(stakes: list[float | None]) -> bytes:
    out = []
    for line, stake in zip(DEMO.read_text(encoding="utf-8").splitlines(), stakes, strict=False):
        hand = json.loads(line)
        hand["session_id"] = "t1"
        if stake is None:  # a hand where the room moved no money, so logged no stake
            del hand["stake"]
            for player in hand["players"]:
                player["reported_points"] = 0
        else:
            hand["stake"] = stake
        out.append(json.dumps(hand))
    return ("\n".join(out) + "\n").encode()


def test_a_logged_stake_replaces_the_inferred_one_and_a_split_table_infers_none(
        tmp_path: Path) -> None:
    con = connect(tmp_path / "ofc.duckdb")
    try:
        import_files([("a.jsonl", _lines([2.0, 2.0, None]))], con)
        first = con.execute("SELECT stake, stake_inferred FROM hands ORDER BY hand_key"
                            ).fetchall()
        third = con.execute("SELECT hand_id FROM hands ORDER BY hand_key").fetchall()[2][0]
        import_files([("b.jsonl", _lines([2.0, 2.0, 3.0]).splitlines(keepends=True)[2])], con)
        merged = con.execute("SELECT stake, stake_inferred FROM hands WHERE hand_id = ?",
                             [third]).fetchone()
    finally:
        con.close()
    assert first == [(2.0, None), (2.0, None), (2.0, True)]
    assert merged == (3.0, None)  # the logged stake: a better copy than the inferred one
    con = connect(tmp_path / "split.duckdb")
    try:
        import_files([("c.jsonl", _lines([2.0, 1.0, None]))], con)
        split = con.execute("SELECT stake FROM hands ORDER BY hand_key").fetchall()
    finally:
        con.close()
    assert split == [(2.0,), (1.0,), (None,)]  # the table's stakes disagree: nothing inferred
    con = connect(tmp_path / "moved.duckdb")
    try:
        hands = _lines([2.0, 2.0, 2.0]).splitlines(keepends=True)
        hand = json.loads(hands[2])
        del hand["stake"]  # no stake logged, but points moved: left as logged
        import_files([("d.jsonl", b"".join(hands[:2]) + json.dumps(hand).encode() + b"\n")],
                     con)
        moved = con.execute("SELECT stake, stake_inferred FROM hands ORDER BY hand_key"
                            ).fetchall()
    finally:
        con.close()
    assert moved == [(2.0, None), (2.0, None), (None, None)]


def test_the_upgrade_from_9_infers_in_place(tmp_path: Path) -> None:
    """A store of version 9 (no ``stake_inferred``, the hands without money without a stake):
    the upgrade adds the column and infers the stakes in SQL, nothing rescored."""
    con = connect(tmp_path / "ofc.duckdb")
    try:
        import_files([("a.jsonl", _lines([2.0, 2.0, None]))], con)
        con.execute("UPDATE hands SET stake = NULL, currency = NULL WHERE stake_inferred")
        con.execute("ALTER TABLE hands DROP COLUMN stake_inferred")
        con.execute("DROP TABLE hand_copies")
        con.execute("UPDATE meta SET value = '9' WHERE key = 'schema_version'")
        said: list[str] = []
        assert upgrade(con, notify=said.append) is None and "nothing rescored" in said[-1]
        rows = con.execute("SELECT stake, stake_inferred FROM hands ORDER BY hand_key"
                           ).fetchall()
        copies = con.execute("SELECT count(*) FROM hand_copies").fetchone()
    finally:
        con.close()
    assert rows == [(2.0, None), (2.0, None), (2.0, True)] and copies == (0,)


def test_the_whole_capture_in_one_zip_puts_every_hand_under_the_tables_stake(
        tmp_path: Path) -> None:
    """FPDB's database, hand files (money unit ``mBTC``) and frames (money in ``R``) of the
    150-hand capture: the 30 hands that moved no money take their table's 0.50 R too."""
    db = tmp_path / "ofc.duckdb"
    import_paths([CAPTURE], db)
    con = duckdb.connect(str(db), read_only=True)
    try:
        stakes = con.execute("SELECT stake, currency, stake_inferred IS TRUE, count(*) "
                             "FROM hands GROUP BY ALL ORDER BY ALL").fetchall()
    finally:
        con.close()
    assert stakes == [(0.5, "R", False, 120), (0.5, "R", True, 30)]
