"""The foul rule at its edge: a middle exactly as strong as the bottom is no foul (a row must
not be *weaker* than the row under it). Worked by hand, regular OFC, American royalties:

- ann: top ``Qs Qc 2c`` (queens, 7), middle ``Ah Kh 9h 7h 4h`` (a flush, 8), bottom
  ``Ad Kd 9d 7d 4d`` (the same flush in diamonds, 4): middle equals bottom, no foul,
  royalties 19;
- bob: top ``Jc 8c 3s``, middle ``5s 5c 8s 6c 2s``, bottom ``Ts Td Th 3c 3d`` (tens full, 6);
- ann wins top and middle, loses the bottom: rows +1, royalties 19 - 6: ann +14, bob -14.

Were the equal rows a foul, ann would lose all three rows and the scoop (-6) and her
royalties: -12. The board, the scalar and batch scorers, the store (both import paths) and
``ofc score`` must all say "no foul".
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from ingest import fast_path, store
from ingest.api import import_files
from ingest.formats.ofc_hh import loads_line, record_from_dict
from ofc_cli.cli import main
from ofc_core.batch import score_records
from ofc_core.board import Board
from ofc_core.scoring import score_hand

ANN = ("Qs Qc 2c", "Ah Kh 9h 7h 4h", "Ad Kd 9d 7d 4d")
BOB = ("Jc 8c 3s", "5s 5c 8s 6c 2s", "Ts Td Th 3c 3d")
LINE = json.dumps({
    "format": "ofc-hh/1", "source": "worked", "hand_id": "equal-rows", "variant": "regular",
    "players": [{"name": name, "seat": seat,
                 "board": dict(zip(("top", "middle", "bottom"), rows, strict=True))}
                for seat, (name, rows) in enumerate((("ann", ANN), ("bob", BOB)))]})


def test_a_middle_as_strong_as_the_bottom_is_no_foul() -> None:
    board = Board.parse(*ANN)
    top, middle, bottom = board.strengths()
    assert middle == bottom
    assert not board.is_foul
    weaker_bottom = Board.parse(ANN[0], ANN[1], "Ad Kd 9d 7d 3d")  # a smaller flush: a foul
    assert weaker_bottom.is_foul


def test_both_scorers_keep_the_royalties_of_equal_rows() -> None:
    record = record_from_dict(loads_line(LINE))
    result = score_hand(record.seats(), record.ruleset, record.first_to_act)
    ann, bob = result.players
    assert (ann.fouled, ann.royalties, ann.points) == (False, (7, 8, 4), 14)
    assert (bob.fouled, bob.royalty_total, bob.points) == (False, 6, -14)
    batch = score_records([record])
    assert batch.fouled[0, :2].tolist() == [False, False]
    assert batch.foul_middle_bottom[0, :2].tolist() == [False, False]
    assert batch.points[0, :2].tolist() == [14.0, -14.0]


@pytest.mark.parametrize("fast", [True, False], ids=["bulk path", "record path"])
def test_the_store_keeps_fouled_false(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                      fast: bool) -> None:
    monkeypatch.setattr(fast_path, "FAST_PATH", fast)
    con = store.connect(tmp_path / "t.duckdb")
    try:
        assert import_files([("worked.jsonl", (LINE + "\n").encode())], con).stored == 1
        rows = con.execute("SELECT player, fouled, foul_middle_bottom, royalties, points "
                           "FROM hand_players ORDER BY seat").fetchall()
    finally:
        con.close()
    assert rows == [("ann", False, False, 19, 14.0), ("bob", False, False, 6, -14.0)]


def test_ofc_score_says_no_foul(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    log = tmp_path / "worked.jsonl"
    log.write_text(LINE + "\n", encoding="utf-8")
    assert main(["score", str(log), "--json"]) == 0
    ann = json.loads(capsys.readouterr().out)["players"]["ann"]
    assert (ann["fouled"], ann["royalties"], ann["points"]) == (
        False, {"top": 7, "middle": 8, "bottom": 4}, 14)
