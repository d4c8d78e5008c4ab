"""The pineapple app's log as the app writes it: its ``JK`` joker, table stakes (stacks,
``raw_score`` against ``actual_score``), the full audit (fouls, royalties, Fantasyland),
abandoned hands, and ``ofc import``'s one audit summary."""

from __future__ import annotations

import io
import json
import sqlite3
from datetime import UTC, datetime, timedelta
from pathlib import Path

import duckdb

from ingest.api import import_paths, rescore
from ingest.formats import LogFile, ParsedHand, ParseIssue
from ingest.formats.pineapple_app import APP_RULES, parse_database
from ofc_cli.cmd_import import print_report
from ofc_core.settlement import table_stakes
from tests.helpers.store import query
from tests.reallogs_fixtures import START, simulated, write_app_sqlite


def app_log(path: Path, hands: int = 12, seed: int = 61, unfinished: int = 0) -> list:
    records = simulated("progressive-pineapple", 2, hands, seed, rules=dict(APP_RULES),
                        session="st")
    write_app_sqlite(path, records, unfinished=unfinished)
    return records


def edit(path: Path, sql: str, params: tuple = ()) -> None:
    con = sqlite3.connect(path)
    con.execute(sql, params)
    con.commit()
    con.close()


def a_losing_hand(path: Path) -> tuple[str, list[int]]:
    """The first hand with a loss of 3 points or more, and its raw scores."""
    con = sqlite3.connect(path)
    try:
        for hand_id, raw in con.execute("SELECT hand_id, raw_score FROM hands "
                                        "ORDER BY hand_number"):
            scores = json.loads(raw)
            if min(scores) <= -3:
                return hand_id, scores
    finally:
        con.close()
    raise AssertionError("the seed should give a hand with a loss of 3 or more")


def test_a_short_stack_pays_what_it_has_and_the_audit_names_a_settlement_that_does_not_add_up(
        tmp_path: Path) -> None:
    log = tmp_path / "ofc_logs.db"
    app_log(log)
    hand_id, raw = a_losing_hand(log)
    loser = raw.index(min(raw))
    stacks = [200, 200]
    stacks[loser] = -min(raw) - 2  # two chips short of the loss
    settled = [sum(r) for r in table_stakes([[0, raw[0]], [raw[1], 0]], stacks, 0)]
    assert settled[loser] == -stacks[loser]
    wrong = list(settled)
    wrong[1 - loser] = raw[1 - loser]  # the app credits the winner in full: -57 / +63
    edit(log, "UPDATE hands SET chips_before = ?, actual_score = ? WHERE hand_id = ?",
         (json.dumps(stacks), json.dumps(wrong), hand_id))
    db = tmp_path / "ofc.duckdb"
    (f,) = import_paths([log], db).files
    sql = ("SELECT seat, points, raw_points, stack, reported_points, reported_raw_points "
           "FROM hand_players JOIN hands USING (hand_key) WHERE hand_id = ? ORDER BY seat")
    stored = query(db, sql, [hand_id])
    assert [r[1] for r in stored] == settled and [r[2] for r in stored] == raw
    assert [r[3] for r in stored] == stacks and [r[4] for r in stored] == wrong
    differ = [(d.hand_id, d.what, d.reported, d.ours) for d in f.audit.differ]
    assert (hand_id, "points", raw[1 - loser], settled[1 - loser]) in differ
    assert not any(d[0] == hand_id and d[1] == "uncapped points" for d in differ)

    before = query(db, sql, [hand_id])
    con = duckdb.connect(str(db))
    try:
        assert rescore(con).failed == ()
    finally:
        con.close()
    assert query(db, sql, [hand_id]) == before  # the stacks survive a rescore


def test_the_audit_compares_fouls_royalties_and_fantasyland(tmp_path: Path) -> None:
    log = tmp_path / "ofc_logs.db"
    app_log(log)
    con = sqlite3.connect(log)
    hand_id, detail = con.execute("SELECT hand_id, result_detail FROM hands "
                                  "ORDER BY hand_number LIMIT 1").fetchone()
    con.close()
    detail = json.loads(detail)
    detail["fl_entry"] = [not detail["fl_entry"][0], detail["fl_entry"][1]]
    detail["fl_card_count"] = [0 if detail["fl_card_count"][0] else 17,
                               detail["fl_card_count"][1]]
    detail["busted"] = [detail["busted"][0], not detail["busted"][1]]
    detail["royalties"][0]["total"] += 5
    edit(log, "UPDATE hands SET result_detail = ? WHERE hand_id = ?",
         (json.dumps(detail), hand_id))
    (f,) = import_paths([log], tmp_path / "ofc.duckdb").files
    found = {d.what for d in f.audit.differ if d.hand_id == hand_id}
    assert found == {"Fantasyland", "foul", "royalties"}
    assert f.audit.audited == f.stored and f.audit.equal == f.stored - 1
    text = io.StringIO()
    from ingest.api import ImportReport

    print_report(ImportReport((f,)), text)
    out = text.getvalue()
    assert out.count("audit:") == 1 and f"differs: hand '{hand_id}'" in out
    assert "Fantasyland: theirs" in out and "foul: theirs" in out


def test_jk_is_the_joker_the_player_was_dealt(tmp_path: Path) -> None:
    log = tmp_path / "ofc_logs.db"
    app_log(log, hands=30)
    con = sqlite3.connect(log)
    found = con.execute("SELECT t.hand_id, t.id, t.action_placements, h.result_detail "
                        "FROM turns t JOIN hands h USING (hand_id) "
                        "WHERE t.action_placements LIKE '%X1%' AND h.raw_score IS NOT NULL "
                        "ORDER BY t.id LIMIT 1").fetchone()
    con.close()
    assert found is not None, "the seed should place a joker"
    hand_id, turn_id, placements, detail = found
    edit(log, "UPDATE turns SET action_placements = ? WHERE id = ?",
         (placements.replace('"X1"', '"JK"'), turn_id))
    edit(log, "UPDATE hands SET result_detail = ? WHERE hand_id = ?",
         (detail.replace('"X1"', '"JK"'), hand_id))
    file = LogFile("ofc_logs.db", log.read_bytes(), log)
    items = {i.hand_id if isinstance(i, ParseIssue) else i.record.hand_id: i
             for i in parse_database(file)}
    item = items[hand_id]
    assert isinstance(item, ParsedHand), item
    cards = {str(c) for p in item.record.players for c in p.board.cards}
    assert "X1" in cards and all(str(c) != "JK" for c in cards)


def test_unfinished_hands_are_abandoned_unless_they_may_still_be_played(tmp_path: Path) -> None:
    log = tmp_path / "ofc_logs.db"
    records = app_log(log, hands=6, unfinished=1)
    last = f"app-{records[-1].hand_id}"
    file = LogFile("ofc_logs.db", log.read_bytes(), log)
    soon = [i for i in parse_database(file, now=START + timedelta(minutes=10))
            if isinstance(i, ParseIssue)]
    assert [(i.hand_id, i.partial, i.abandoned) for i in soon] == [(last, True, False)]
    assert "still be playing" in soon[0].message
    later = [i for i in parse_database(file, now=datetime.now(UTC))
             if isinstance(i, ParseIssue)]
    assert [(i.hand_id, i.partial, i.abandoned) for i in later] == [(last, True, True)]
    # an unfinished hand its session went on after is abandoned whatever the time
    edit(log, "UPDATE hands SET raw_score = NULL, result_detail = NULL WHERE hand_number = 2")
    file = LogFile("ofc_logs.db", log.read_bytes(), log)
    kinds = [(i.abandoned, "session went on" in i.message)
             for i in parse_database(file, now=START + timedelta(minutes=10))
             if isinstance(i, ParseIssue)]
    assert kinds == [(True, True), (False, False)]

    (f,) = import_paths([log], tmp_path / "ofc.duckdb").files
    assert (f.partial, f.abandoned) == (2, 2) and f.adds_up()
    text = io.StringIO()
    from ingest.api import ImportReport

    print_report(ImportReport((f,)), text)
    assert "2 partial (abandoned: the log left them without a result)" in text.getvalue()
    assert "still being written" not in text.getvalue()
