"""The pineapple app's SQLite log, read from databases written as the app's ``LogWriter`` writes
them, holding our own simulated heads-up hands (``tests/reallogs_fixtures.py``)."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from ingest.formats import LogFile, ParsedHand, ParseIssue, UnreadableFile, detect_file
from ingest.formats.pineapple_app import APP_RULES, FORMAT
from tests.reallogs_fixtures import simulated, write_app_sqlite


def app_file(tmp_path: Path, hands: int = 40, seed: int = 5, unfinished: int = 0,
             ) -> tuple[LogFile, list]:
    source = simulated("progressive-pineapple", 2, hands, seed, error_rate=0.25,
                       rules=dict(APP_RULES))
    path = write_app_sqlite(tmp_path / "ofc_logs.db", source, unfinished=unfinished)
    return LogFile("ofc_logs.db", path.read_bytes(), path), source


def test_hands_streets_fantasyland_and_the_apps_score(tmp_path: Path) -> None:
    file, source = app_file(tmp_path, unfinished=1)
    assert detect_file(file) is FORMAT
    before = file.data
    items = list(FORMAT.parse_file(file))
    assert file.path is not None and file.path.read_bytes() == before  # never changed
    *done, last = items
    assert isinstance(last, ParseIssue) and last.partial and last.hand_id == \
        f"app-{source[-1].hand_id}"
    assert all(isinstance(i, ParsedHand) for i in done)
    assert len(done) == len(source) - 1
    fl_seen = 0
    for item, played in zip(done, source, strict=False):
        record = item.record
        assert record.hand_id == f"app-{played.hand_id}" and record.source == "pineapple-app"
        assert (record.variant, dict(record.rules)) == ("progressive-pineapple", dict(APP_RULES))
        assert record.button == played.button and record.played_at.endswith("+00:00")
        for a, b in zip(played.players, record.players, strict=True):
            assert b.board == a.board and b.fantasyland == a.fantasyland
            assert b.reported_points == a.reported_points
            def plays(streets):  # (the order of dealt and discarded cards means nothing)
                return [(s.top, s.middle, s.bottom, sorted(s.dealt), sorted(s.discard or ()))
                        for s in streets]

            assert plays(b.streets) == plays(a.streets)
            if a.fantasyland:
                fl_seen += 1
                assert 14 <= len(b.streets[0].dealt) <= 17 and len(b.streets[0].placed) == 13
        assert json.loads(item.raw)["hand"]["hand_id"] == record.hand_id
    assert fl_seen, "the seed should give a Fantasyland hand"
    jokers = {str(c) for i in done for p in i.record.players for s in p.streets
              for c in s.dealt if c.is_joker}
    assert jokers == {"X1", "X2"}, "the app's (and our simulator's) deck has two jokers"


def test_a_hand_whose_rows_cannot_be_read_is_reported_with_its_id(tmp_path: Path) -> None:
    file, source = app_file(tmp_path, hands=3)
    con = sqlite3.connect(file.path)
    con.execute("UPDATE turns SET action_placements = '[[\"Zz\", \"top\"]]' "
                "WHERE hand_id = ? AND turn = 1", (f"app-{source[1].hand_id}",))
    con.commit()
    con.close()
    items = list(FORMAT.parse_file(LogFile(file.name, file.path.read_bytes(), file.path)))
    bad = [i for i in items if isinstance(i, ParseIssue)]
    assert len(bad) == 1 and bad[0].hand_id == f"app-{source[1].hand_id}"
    assert "unknown card 'Zz'" in bad[0].message
    assert sum(isinstance(i, ParsedHand) for i in items) == 2


def test_a_damaged_app_database_is_a_clear_error(tmp_path: Path) -> None:
    file, _ = app_file(tmp_path, hands=2)
    damaged = file.data[:4096] + b"\xff" * (len(file.data) - 4096)
    with pytest.raises(UnreadableFile, match="ofc_logs.db: "):
        list(FORMAT.parse_file(LogFile("ofc_logs.db", damaged)))
