"""The practice table without a browser: a person's hand played street by street from its
seed (the same cards and bot moves on every replay), Fantasyland carried to the next hand and
the button moved by the ruleset, the finished hand stored through the importer's path as room
``practice``, reviewed, and scored by ``ofc score`` exactly as the store holds it; the
placement board's moves refused in words, never by an exception."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from dashboard import board_moves
from dashboard.board_moves import BOTTOM, DISCARD, MIDDLE, TOP, Moves, Street
from ingest.api import connect, review_and_store, store_record, upgrade
from ofc_core.play.engine import Placement, PlayedHand
from ofc_core.play.placements import legal_placements
from ofc_core.play.practice import (
    PRACTICE_ROOM,
    Seating,
    YourTurn,
    entry_cards,
    play_on,
    practice_record,
    practice_table,
)
from ofc_core.rules import PRESETS


def _play_through(variant: str, bots: list[str], seating: Seating, seed: int,
                  ) -> tuple[PlayedHand, list[YourTurn]]:
    """The hand played to its end, the person taking the first legal placement each time."""
    table = practice_table(PRESETS[variant], "me", bots)
    decided: list[Placement] = []
    turns = []
    while True:
        turn = play_on(table, seating, seed, decided)
        if isinstance(turn, PlayedHand):
            return turn, turns
        turns.append(turn)
        v = turn.view
        decided.append(legal_placements(v.dealt, v.place, v.free)[-1])


def test_a_replayed_hand_deals_the_same_cards_and_bot_moves() -> None:
    played, turns = _play_through("pineapple", ["strong", "careful"], Seating(2, (0, 0, 0)), 4)
    again, turns_again = _play_through("pineapple", ["strong", "careful"],
                                       Seating(2, (0, 0, 0)), 4)
    assert [t.view for t in turns] == [t.view for t in turns_again]
    assert played.rows == again.rows and len(turns) == 5
    assert all(t.view.street == k for k, t in enumerate(turns))


def test_fantasyland_is_set_in_one_street_and_the_button_moves() -> None:
    ruleset = PRESETS["regular"]
    seating = Seating(1, (entry_cards(ruleset), 0))
    played, turns = _play_through("regular", ["careful"], seating, 9)
    assert len(turns) == 1 and turns[0].view.fantasyland and len(turns[0].view.dealt) == 13
    after = seating.after(ruleset, played)
    assert after.button == 1  # frozen: someone played Fantasyland (regular's button_in_fl)
    assert after.fantasyland == played.fantasyland_next
    normal = Seating(1, (0, 0)).after(ruleset, played)
    assert normal.button == 0


@pytest.mark.parametrize("variant,bots,fl", [("pineapple", ["strong"], 0),
                                              ("regular", ["careful", "chaser"], 13)])
def test_a_practice_hand_is_stored_scored_and_reviewed(tmp_path: Path, ofc_script: str,
                                                        variant: str, bots: list[str],
                                                        fl: int) -> None:
    seating = Seating(len(bots), (fl,) + (0,) * len(bots))
    played, _ = _play_through(variant, bots, seating, 3)
    table = practice_table(PRESETS[variant], "me", bots)
    record = practice_record(table, played, "t1", 1, "2026-12-07T01:00:00+00:00")
    db = tmp_path / "p.duckdb"
    con = connect(db)
    upgrade(con, db)
    assert store_record(con, record).stored == 1
    assert review_and_store(con, record, "me") >= 1
    stored = {row[0]: row[1:] for row in con.execute(
        "SELECT hp.player, hp.points, hp.fouled, hp.royalties, hp.fantasyland_next "
        "FROM hands h JOIN hand_players hp USING (hand_key) "
        "WHERE h.source = ? AND h.hand_id = ?", [PRACTICE_ROOM, "t1-0001"]).fetchall()}
    kinds = {k for (k,) in con.execute(
        "SELECT kind FROM decisions WHERE hand_id = 't1-0001' AND player = 'me'").fetchall()}
    (raw,) = con.execute("SELECT raw FROM hands WHERE hand_id = 't1-0001'").fetchone()
    con.close()
    assert kinds == ({"fantasyland set"} if fl else {"first five", "street"})
    assert sum(v[0] for v in stored.values()) == 0 and set(stored) == {"me", *table.names[1:]}
    log = tmp_path / "hand.jsonl"
    log.write_text(raw + "\n", encoding="utf-8")
    scored = subprocess.run([ofc_script, "score", "--json", str(log)], capture_output=True,
                            text=True, check=True).stdout
    (line,) = [json.loads(x) for x in scored.splitlines() if x.strip()]
    assert {name: (p["points"], p["fouled"], sum(p["royalties"].values()), p["fantasyland_next"])
            for name, p in line["players"].items()} == stored


def test_the_board_refuses_a_full_row_a_card_twice_and_the_discard_twice() -> None:
    dealt = (0, 4, 8, 12, 16)
    street = Street(((), (), ()), dealt, 5)
    moves = Moves()
    for card in dealt[:3]:
        moves, _ = board_moves.choose(street, moves, card)
        moves, said = board_moves.put(street, moves, TOP)
        assert said == ""
    moves, _ = board_moves.choose(street, moves, dealt[3])
    assert board_moves.put(street, moves, TOP)[1] == "the top row is full (3 cards)"
    assert board_moves.put(street, moves, DISCARD)[1].startswith("this street discards nothing")
    assert board_moves.choose(street, moves, dealt[0])[1].endswith(
        "placed already: undo to move it")
    assert board_moves.choose(street, moves, 51)[1] == "A♠ is not among the cards dealt"
    assert board_moves.put(street, Moves(moves.made), MIDDLE)[1].startswith("choose a card")
    moves, _ = board_moves.put(street, moves, BOTTOM)
    assert board_moves.finished(street, moves) is None  # one card left
    moves, _ = board_moves.choose(street, moves, dealt[4])
    moves, _ = board_moves.put(street, moves, BOTTOM)
    assert board_moves.finished(street, moves) == Placement((0, 4, 8), (), (12, 16), ())
    later = Street(((0, 4), (), ()), (20, 24, 28), 2)
    moves, _ = board_moves.choose(later, Moves(), 20)
    moves, _ = board_moves.put(later, moves, DISCARD)
    moves, _ = board_moves.choose(later, moves, 24)
    assert board_moves.put(later, moves, DISCARD)[1] == (
        "this street discards 1 card: the discard is full")
    assert board_moves.undo(board_moves.undo(moves)) == Moves()
