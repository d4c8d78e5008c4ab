"""The audit of an import (``ingest/audit.py``) counts hands, not players: a hand is equal to
the room's result only when every player's reported points equal ours. Worked by hand on a
log of three hands between ann and bob (the boards of ``tests.helpers.store.LINE``):

- ours: ann wins the bottom (jacks full against a flush), loses top (ten high against ace
  high) and middle (kings against aces): rows -1, royalties 6 - 4 = +2, so ann +1, bob -1;
- hand ``a1``: the room says ann +1 (equal) but bob -3 (not ours): the hand differs;
- hand ``a2``: the room says ann +1, bob -1: equal;
- hand ``a3``: no reported points: not audited.

So 2 hands audited, 1 equal, and one player of one hand differs, in its points (the log
reports nothing else: no foul, royalties or Fantasyland to compare).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from ingest import store
from ingest.api import import_files
from ingest.audit import Audit, Difference, audit_import
from ofc_cli.cli import main
from tests.helpers.apptest import app, open_page
from tests.helpers.store import LINE

EXPECTED = Audit(audited=2, equal=1, differ=(Difference("a1", "bob", -3.0, -1.0),))


def _hand(hand_id: str, ann: float | None, bob: float | None) -> str:
    hand = json.loads(LINE)
    hand["hand_id"] = hand_id
    for player, reported in zip(hand["players"], (ann, bob), strict=True):
        if reported is not None:
            player["reported_points"] = reported
    return json.dumps(hand)


LOG = "\n".join([_hand("a1", 1, -3), _hand("a2", 1, -1), _hand("a3", None, None)]) + "\n"


def test_one_differing_player_makes_the_hand_differ(tmp_path: Path) -> None:
    con = store.connect(tmp_path / "t.duckdb")
    try:
        report = import_files([("room.jsonl", LOG.encode())], con)
        assert report.stored == 3
        ours = con.execute("SELECT h.hand_id, hp.player, hp.points FROM hand_players hp "
                           "JOIN hands h USING (hand_key) WHERE h.hand_id = 'a3' "
                           "ORDER BY hp.seat").fetchall()
        assert ours == [("a3", "ann", 1.0), ("a3", "bob", -1.0)]  # worked out above
        audit = audit_import(con, report.files[0].import_id)
    finally:
        con.close()
    assert audit == EXPECTED
    assert report.files[0].audit == EXPECTED
    assert audit.summary() == ("audit: 1 of 2 hands' reported results equal ours (player-hands "
                               "that differ: points 1)")


def test_ofc_import_prints_the_audit(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    log = tmp_path / "room.jsonl"
    log.write_text(LOG, encoding="utf-8")
    assert main(["import", str(log), "--db", str(tmp_path / "a.duckdb"), "--json"]) == 0
    audit = json.loads(capsys.readouterr().out)["files"][0]["audit"]
    assert audit == {"audited": 2, "equal": 1,
                     "differ": [{"hand_id": "a1", "player": "bob", "what": "points",
                                 "theirs": -3.0, "ours": -1.0}]}
    assert main(["import", str(log), "--db", str(tmp_path / "b.duckdb")]) == 0
    assert "1 of 2 hands' reported results equal ours" in capsys.readouterr().out


def test_the_import_page_shows_one_hand_differing(empty_db_path: Path,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    at = app(empty_db_path, monkeypatch)
    open_page(at, "views/import_page.py")
    at.file_uploader[0].set_value([("room.jsonl", LOG.encode(), "application/json")]).run()
    at.button(key="import_button").click().run()
    assert not at.exception
    table = next(d.value for d in at.dataframe if "Hands audited" in d.value.columns)
    assert table.to_dict("records") == [{"File": "room.jsonl", "Hands audited": 2,
                                         "Equal to ours": 1, "Differ": 1, "Points": 1}]
    assert any(m.value.startswith("**1** hands where the room's result differs")
               for m in at.markdown)
