"""``hand_players.money`` (``ingest/money.py``) is settled by every writer: a match's money
depends on its other hands (the doubles accepted), which may come in other files, be removed,
or be rescored.

The logs are one OFC Double match of the demo (its first), with the ``match_end`` event's own
``cube`` taken out so that the final cube is counted from the accepted doubles. The expected
money is worked out here from the logs, not read back from the store's rule.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import duckdb

from ingest import api
from tests.helpers.double import MATCHES, expected_money, write_matches
from tests.helpers.store import query

DEMO = Path(__file__).resolve().parents[1] / "data" / "demo"


def _match() -> list[dict[str, Any]]:
    """The demo's first Double match, its ``match_end`` without a cube."""
    hands = [json.loads(line) for line in
             (DEMO / "double-anna.Hero.jsonl").read_text(encoding="utf-8").splitlines()]
    first = [h for h in hands if h["match_id"] == hands[0]["match_id"]]
    end = first[-1]["events"][-1]
    assert end["type"] == "match_end" and first[0]["events"][0]["accepted"]
    del end["cube"]
    return first


def _write(path: Path, hands: list[dict[str, Any]]) -> str:
    path.write_text("".join(json.dumps(h) + "\n" for h in hands), encoding="utf-8")
    return str(path)


def _money(db: Path) -> dict[tuple[str, str], float | None]:
    rows = query(db, "SELECT h.hand_id, hp.player, hp.money FROM hand_players hp "
                     "JOIN hands h USING (hand_key)")
    return {(hand, player): money for hand, player, money in rows}


def _expected(hands: list[dict[str, Any]], doubles: int) -> dict[tuple[str, str], float | None]:
    """Stake x 2 ** doubles to the winner, minus as much to the loser, on the last hand;
    nothing on the others."""
    end = hands[-1]
    stake = float(end["stake"]["amount"] if isinstance(end["stake"], dict) else end["stake"])
    winner = end["events"][-1]["by"]
    out: dict[tuple[str, str], float | None] = {}
    for hand in hands:
        for player in hand["players"]:
            name = player["name"]
            out[hand["hand_id"], name] = None
            if hand is end:
                out[hand["hand_id"], name] = (1 if name == winner else -1) * stake * 2 ** doubles
    return out


def test_a_match_in_two_files_is_settled_whatever_the_order(tmp_path: Path) -> None:
    hands = _match()
    start, end = _write(tmp_path / "a.jsonl", hands[:-1]), _write(tmp_path / "b.jsonl", hands[-1:])
    db = tmp_path / "ofc.duckdb"
    api.import_paths([end], db)  # the end alone: no double seen yet, the cube is 1
    assert _money(db) == {k: v for k, v in _expected(hands, 0).items() if k[0] in
                          {hands[-1]["hand_id"]}}
    api.import_paths([start], db)  # the double arrives: the cube is 2
    assert _money(db) == _expected(hands, 1)

    other = tmp_path / "other.duckdb"
    api.import_paths([start, end], other)
    assert _money(other) == _expected(hands, 1)


def test_removing_the_double_and_rescoring_settle_again(tmp_path: Path) -> None:
    hands = _match()
    start, end = _write(tmp_path / "a.jsonl", hands[:-1]), _write(tmp_path / "b.jsonl", hands[-1:])
    db = tmp_path / "ofc.duckdb"
    report = api.import_paths([start, end], db)
    con = api.connect(db)
    try:
        api.rescore(con)
        con.execute("CHECKPOINT")
    finally:
        con.close()
    assert _money(db) == _expected(hands, 1)
    con = api.connect(db)
    try:
        api.remove_imports(con, [report.files[0].import_id])
    finally:
        con.close()
    assert _money(db) == {k: v for k, v in _expected(hands, 0).items() if k[0] in
                          {hands[-1]["hand_id"]}}


def test_plain_hands_hold_points_times_stake(demo_db_path: Path) -> None:
    con = duckdb.connect(str(demo_db_path), read_only=True)
    try:
        wrong = con.execute("""
            SELECT count(*) FROM hand_players
            WHERE scoring <> 'race' AND money IS DISTINCT FROM points * stake""").fetchone()
        race = con.execute("""
            SELECT count(*) FILTER (WHERE money IS NOT NULL), count(DISTINCT hand_key)
                   FILTER (WHERE money IS NOT NULL), count(*)
            FROM hand_players WHERE scoring = 'race'""").fetchone()
        ends = con.execute("SELECT count(*) FROM events WHERE type = 'match_end'").fetchone()
    finally:
        con.close()
    assert wrong == (0,)
    assert race is not None and ends is not None
    assert race[1] == ends[0] > 0 and race[0] == 2 * ends[0] < race[2]  # heads-up matches


def test_hand_worked_matches_hold_their_money(tmp_path: Path) -> None:
    """No cube, one double, three doubles, declined doubles, a surrender, the log's own cube, a
    winner named by "by", no winner: the store holds the figures worked out by hand
    (tests/helpers/double.py), a file a match."""
    db = tmp_path / "ofc.duckdb"
    report = api.import_paths([str(p) for p in write_matches(tmp_path)], db)
    assert report.exit_code == 0, report.to_dict()
    assert report.stored == sum(len(m.events) for m in MATCHES) == 20, report.to_dict()
    got = _money(db)
    for match in MATCHES:
        expected = match.money()
        assert {k: got.get(k) for k in expected} == expected, match.name
    assert got == expected_money()
