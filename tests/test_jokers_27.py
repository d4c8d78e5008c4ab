"""Jokers, 2-7 middles and repeat Fantasyland: the worked examples of docs/rules.md, the
resolution rule on boards checked by hand, card spellings, and the scalar and batch scorers on
hands of those tables (the Hypothesis twin test in test_batch.py draws them too)."""

from __future__ import annotations

import json
from pathlib import Path

import duckdb
import numpy as np
import pytest

from dashboard.queries.fantasyland import TOP_CLASS
from ingest import store
from ingest.api import import_files
from ingest.formats import csv_boards, live, ofc_hh
from ofc_core.batch import score_batch
from ofc_core.batch_boards import resolved_rows
from ofc_core.board import Board, Row
from ofc_core.cards import JOKERS, Card, parse_card, parse_cards
from ofc_core.describe import WORKED_EXAMPLES
from ofc_core.evaluate import Category, category_of, evaluate_low_27, hand_name
from ofc_core.hand import HandRecord, PlayerRecord, validate
from ofc_core.jokers import resolve_board
from ofc_core.play.review import FINAL_BOARDS, Precision, not_reviewed, review_hand
from ofc_core.rules import PRESETS, resolve
from ofc_core.scoring import Seat, score_hand

ROOT = Path(__file__).resolve().parent.parent
JOKER = PRESETS["joker-pineapple"]
LOW = PRESETS["2-7-pineapple"]


def indexes(board: Board) -> list[int]:
    return [c.index for c in board.cards]


def batch_rows(board: Board, ruleset) -> tuple[int, ...]:
    return tuple(resolved_rows(np.array([indexes(board)]), ruleset)[0].tolist())


# ---------------------------------------------------------------- worked examples


def test_worked_example_joker_resolves_below_the_middle() -> None:
    example = WORKED_EXAMPLES[0]
    board = Board.parse_compact(example.board)
    resolved = resolve_board(board, example.ruleset)
    assert not resolved.fouled
    assert hand_name(resolved.strengths[0]) == "Pair of Twos"  # not aces: they beat KK
    assert resolved.stood_for == ((JOKERS[0], Card.parse("2d")),)
    assert batch_rows(board, example.ruleset) == resolved.strengths


def test_worked_example_27_middle_with_a_ten() -> None:
    example = WORKED_EXAMPLES[1]
    seat = Seat("ann", Board.parse_compact(example.board))
    other = Seat("bob", Board.parse("2c 3d 5h", "9s 8h 6c 4h 2s", "Kc Qc Jc 9c 7c"))
    result = score_hand([seat, other], example.ruleset)
    ann, bob = result.player("ann"), result.player("bob")
    assert not ann.fouled and not bob.fouled
    assert ann.hand_names == ("Pair of Kings", "Ten-Six low", "Two pair, Aces and Eights")
    assert ann.royalties == (8, 0, 0) and bob.royalties == (0, 1, 4)
    assert ann.fantasyland_next == 14
    # bob's 9-8 low beats ann's T-6 low; ann wins the top, bob the bottom (a flush).
    assert result.pair("ann", "bob").rows == (1, -1, -1)


def test_worked_example_27_pair_in_the_middle_fouls() -> None:
    example = WORKED_EXAMPLES[2]
    resolved = resolve_board(Board.parse_compact(example.board), example.ruleset)
    assert resolved.fouled
    assert category_of(resolved.strengths[1]) is Category.PAIR


def test_worked_example_joker_in_a_27_middle() -> None:
    example = WORKED_EXAMPLES[3]
    seat = Seat("ann", Board.parse_compact(example.board))
    other = Seat("bob", Board.parse("2c 3d 6h", "9s 8h 6c 4h 2s", "Kc Qc Jc 9c 7c"))
    ann = score_hand([seat, other], example.ruleset).player("ann")
    assert ann.royalties == (8, 8, 0) and ann.fantasyland_next == 15
    assert ann.hand_names is not None and ann.hand_names[1] == "Seven-Five low (joker)"


# ---------------------------------------------------------------- the rules, board by board


@pytest.mark.parametrize("middle, legal", [
    ("7h 5d 4c 3s 2h", True), ("Th 9d 8c 7s 5h", True),
    ("Ah 2d 3c 4s 5h", False),  # the wheel is ace high
    ("6h 5d 4c 3s 2h", False),  # a straight
    ("9h 7h 5h 3h 2h", False),  # a flush
    ("Jh 7d 5c 3s 2h", False),  # a card above ten
    ("7h 7d 5c 3s 2h", False),  # a pair
])
def test_27_middle_foul_rule(middle: str, legal: bool) -> None:
    board = Board.parse("Kh Qd 4c", middle, "Ah Ad 8c 8s 6d")
    resolved = resolve_board(board, LOW)
    assert resolved.fouled is not legal
    assert batch_rows(board, LOW) == resolved.strengths


def test_27_top_beating_the_bottom_fouls_but_middle_is_not_compared() -> None:
    assert resolve_board(Board.parse("Ah Ad 4c", "7h 5d 4s 3s 2h", "Kh Kd 8c 8s 6d"),
                         LOW).fouled is False
    assert resolve_board(Board.parse("Ah Ad Ac", "7h 5d 4s 3s 2h", "Kh Kd 8c 8s 6d"),
                         LOW).fouled is True


def test_27_lower_low_wins_the_middle() -> None:
    lows = ["7h 5d 4c 3s 2h", "7h 6d 4c 3s 2h", "8h 5d 4c 3s 2h", "Th 9d 8c 7s 5h"]
    strengths = [evaluate_low_27(parse_cards(m)) for m in lows]
    assert strengths == sorted(strengths, reverse=True)
    assert [LOW.royalties.points(Row.MIDDLE, s) for s in strengths] == [8, 4, 2, 0]


def test_two_jokers_never_stand_for_the_same_card() -> None:
    # Bottom As Ks Qs + X1 X2: a royal flush needs Js and Ts, one each.
    board = Board.parse("2c 3d 4h", "5c 6d 8h 9c Jd", "As Ks Qs X1 X2")
    resolved = resolve_board(board, JOKER)
    assert hand_name(resolved.strengths[2]) == "Royal flush"
    assert {str(c) for _, c in resolved.stood_for} == {"Js", "Ts"}
    assert batch_rows(board, JOKER) == resolved.strengths


def test_a_joker_never_stands_for_a_card_on_its_own_board() -> None:
    # Three aces placed; the fourth is on this board's top: the joker cannot be it.
    board = Board.parse("As 2c 3d", "Kc Kd 5h 6h 7c", "Ah Ad Ac X1 9d")
    resolved = resolve_board(board, JOKER)
    assert hand_name(resolved.strengths[2]) == "Full house, Aces full of Nines"
    assert batch_rows(board, JOKER) == resolved.strengths


def test_a_board_fouls_only_if_every_choice_fouls() -> None:
    never = Board.parse("Ah Ad X1", "Kh Kd 9c 7s 3d", "Qh Qd Qc 8s 8d")  # AA on top
    resolved = resolve_board(never, JOKER)
    assert resolved.fouled
    assert batch_rows(never, JOKER) == resolved.strengths


def test_royalties_and_fantasyland_read_the_resolved_rows() -> None:
    # Middle KK + joker: as a king it would be trips (2) but then beats... it may: bottom quads.
    board = Board.parse("Qh Qd X1", "Kh Kd 9c 7s 3d", "5h 5d 5c 5s 8d")
    result = score_hand([Seat("ann", board), Seat("bob", Board.parse(
        "2c 3d 4h", "6c 6d 8h 9s Jd", "Ts Js Qs 2s 3s"))], JOKER)
    ann = result.player("ann")
    assert ann.hand_names is not None
    assert ann.hand_names[0] == "Pair of Queens (joker)"  # QQQ would beat KK: a foul
    assert ann.royalties == (7, 0, 10) and ann.fantasyland_next == 14


# ---------------------------------------------------------------- cards and validation


def test_joker_spellings() -> None:
    assert parse_card("X1") is JOKERS[0] and parse_card("x2") is JOKERS[1]
    for bad in ("JK", "Jo", "X3", "X"):
        with pytest.raises(ValueError, match="jokers are X1 and X2"):
            parse_card(bad)
    with pytest.raises(ValueError, match="jokers are X1 and X2"):
        Board.parse_compact("AhJK2c-KhKd9c7s3d-QhQdQc8s8d")


def _record(variant: str, rules: dict, *boards: str) -> HandRecord:
    return HandRecord("t", "1", variant, tuple(
        PlayerRecord(f"p{k}", k, Board.parse_compact(b)) for k, b in enumerate(boards)),
        rules=rules)


def test_validate_jokers_against_the_ruleset() -> None:
    other = "3c4d5h-9s8h6c4h2s-KcJcTc9h7c"
    assert validate(_record("joker-pineapple", {}, "AhX12c-KhKd9c7s3d-QhQdQc8s8d", other)) == []
    assert validate(_record("joker-pineapple", {}, "AhX1X2-KhKd9c7s3d-QhQdQc8s8d", other)) == []
    one = validate(_record("pineapple", {"jokers": 1}, "AhX2Td-KhKd9c7s3d-QhQdQc8s8d", other))
    assert one == ["p0: unknown card X2 (this table plays 1 joker: X1)"]
    none = validate(_record("pineapple", {}, "AhX1Td-KhKd9c7s3d-QhQdQc8s8d", other))
    assert none == ["p0: unknown card X1 (this table plays no jokers)"]
    twice = validate(_record("joker-pineapple", {}, "AhX1Td-KhKd9c7s3d-QhQdQc8s8d",
                             "3cX15d-9s8h6c4h2s-KcJcTc9h7c"))
    assert twice == ["card X1 appears more than once in the hand"]


# ---------------------------------------------------------------- fl_repeat


def test_fl_repeat_entry_keeps_the_entrys_cards_in_both_scorers() -> None:
    stay = Board.parse("Qh Qd Qc", "Kh Kd Kc 7s 3d", "Ah Ad Ac As 8d")
    other = Board.parse("2c 3d 4h", "6c 6d 8h 9s Jd", "Ts Js 2s 4s 3s")
    for rules, expected in (({}, 14), ({"fl_repeat": "entry"}, 16), ({"fl_repeat": 14}, 14)):
        ruleset = resolve("progressive-pineapple", rules)
        result = score_hand([Seat("ann", stay, True, fl_dealt=16), Seat("bob", other)], ruleset)
        assert result.player("ann").fantasyland_next == expected
        scores = score_batch(np.array([[indexes(stay), indexes(other)]]), ruleset,
                             fantasyland=np.array([[True, False]]),
                             fl_dealt=np.array([[16, 0]]))
        assert scores.fantasyland_next[0, 0] == expected
    unknown = score_hand([Seat("ann", stay, True), Seat("bob", other)],
                         resolve("progressive-pineapple", {"fl_repeat": "entry"}))
    assert unknown.player("ann").fantasyland_next == 14


def test_bad_joker_overrides_are_named() -> None:
    with pytest.raises(ValueError, match="rules.jokers: expected 0, 1 or 2"):
        resolve("pineapple", {"jokers": 3})
    with pytest.raises(ValueError, match="rules.fl_repeat: unknown value"):
        resolve("pineapple", {"fl_repeat": "15"})
    with pytest.raises(ValueError, match="rules.joker_rule: unknown value"):
        resolve("pineapple", {"joker_rule": "row-by-row"})


# ---------------------------------------------------------------- import, end to end


def _line(hand_id: str, variant: str, boards: list[str], rules: dict | None = None,
          fl: tuple[int, ...] = ()) -> str:
    players = []
    for k, board in enumerate(boards):
        player: dict = {"name": f"p{k}", "seat": k}
        if k in fl:  # a Fantasyland hand of 16 cards, set in one street
            b = Board.parse_compact(board)
            rows = {name: " ".join(map(str, b.row(row))) for name, row in
                    zip(("top", "middle", "bottom"), (Row.TOP, Row.MIDDLE, Row.BOTTOM),
                        strict=True)}
            player["fantasyland"] = True
            player["streets"] = [{"dealt": " ".join(map(str, b.cards)) + " 2h 2d 2s",
                                  **rows, "discard": "2h 2d 2s"}]
        else:
            player["board"] = board
        players.append(player)
    hand = {"format": "ofc-hh/1", "source": "jk", "hand_id": hand_id, "variant": variant,
            "players": players}
    if rules:
        hand["rules"] = rules
    return json.dumps(hand)


def test_import_stores_jokers_27_and_repeat_fantasyland(tmp_path) -> None:
    other = "3c4d5h-9s8h6c4h3s-KcJcTc9h7c"
    low, plain = "Qs9d7h-9s8h6c4h5c-KcJcTc9h7c", "2c4d5h-9s8h6c4h3s-JcTc9h7c5c"
    lines = [
        _line("j1", "joker-pineapple", ["AhX12c-KhKd9c7s3d-QhQdQc8s8d", other]),
        _line("l1", "2-7-pineapple", ["KhKd4c-Th6d4s3c2h-AhAd8c8s5d", low]),
        _line("l2", "2-7-pineapple", ["QhJd4c-6h6d4s3c2h-AhAd8c8s5d", low]),
        _line("r1", "progressive-pineapple", ["QhQdQc-KhKdKc7s3d-AhAdAcAs8d", plain],
              {"fl_repeat": "entry"}, fl=(0,)),
        _line("one", "pineapple", ["AhX12c-KhKd9c7s3d-QhQdQc8s8d", other], {"jokers": 1}),
        _line("jk", "joker-pineapple", ["AhJK2c-KhKd9c7s3d-QhQdQc8s8d", other]),
    ]
    con = store.connect(tmp_path / "t.duckdb")
    try:
        report = import_files([("jk.jsonl", "\n".join(lines).encode())], con)
        assert report.stored == 5
        rejected = dict(con.execute("SELECT hand_id, message FROM rejected").fetchall())
        assert set(rejected) == {"jk"}  # "one": X1 is in a one-joker deck
        assert "jokers are X1 and X2" in rejected["jk"]
        got = {(h, r): (name, jokers) for h, r, name, jokers in con.execute(
            "SELECT h.hand_id, r.row_name, r.hand_name, r.jokers FROM hand_rows r "
            "JOIN hands h USING (hand_key) WHERE r.seat = 0").fetchall()}
        assert got["j1", "top"] == ("Pair of Twos (joker)", "X1=2d")
        assert got["j1", "bottom"] == ("Full house, Queens full of Eights", None)
        assert got["l1", "middle"] == ("Ten-Six low", None)
        assert got["l2", "middle"] == ("Pair of Sixes", None)
        players = dict(con.execute(
            "SELECT h.hand_id, p.fantasyland_next FROM hand_players p JOIN hands h "
            "USING (hand_key) WHERE p.seat = 0").fetchall())
        assert players == {"j1": 0, "l1": 14, "l2": 0, "r1": 16, "one": 0}
        fouled = dict(con.execute(
            "SELECT h.hand_id, p.fouled FROM hand_players p JOIN hands h USING (hand_key) "
            "WHERE p.seat = 0").fetchall())
        assert fouled == {"j1": False, "l1": False, "l2": True, "r1": False, "one": False}
        again = import_files([("jk2.jsonl", "\n".join(lines).encode())], con)
        assert again.stored == 0
    finally:
        con.close()


def test_live_notation_and_csv_read_jokers_and_the_new_variants() -> None:
    text = ("@variant 2-7-pineapple\n\nhand 1  [rules: jokers=1]\n"
            "ann:  KhKd4c-7h5dX14s2h-AhAd8c8s5s\nbob:  Qs9d7d / 9s8h6c4h5c / KcJcTc9h7c\n")
    (hand,) = [p for p in live.parse_text(text, "t.txt") if hasattr(p, "record")]
    rec = hand.record
    assert rec.variant == "2-7-pineapple" and rec.ruleset.jokers == 1
    assert validate(rec) == []
    ann = score_hand(rec.seats(), rec.ruleset).player("ann")
    assert ann.hand_names is not None and ann.hand_names[1] == "Seven-Five low (joker)"
    csv = ("Hand #,Game,Player,Front,Middle,Back\n"
           "1,joker-pineapple,ann,Ah X1 2c,Kh Kd 9c 7s 3d,Qh Qd Qc 8s 8d\n"
           "1,joker-pineapple,bob,3c 4d 5h,9s 8h 6c 4h 3s,Kc Jc Tc 9h 7c\n")
    (hand,) = [p for p in csv_boards.parse_text(csv, "t.csv") if hasattr(p, "record")]
    assert hand.record.players[0].board.top[1] is JOKERS[0]
    assert score_hand(hand.record.seats(), hand.record.ruleset).player("ann").stood_for == (
        (JOKERS[0], Card.parse("2d")),)


def test_fantasyland_top_class_reads_a_joker_top() -> None:
    names = ["Pair of Queens (joker)", "Pair of Aces", "Three of a kind, Twos (joker)",
             "Pair of Jacks (joker)"]
    got = duckdb.connect().execute(
        f"SELECT {TOP_CLASS} FROM (SELECT unnest(?) AS top_hand) s", [names]).fetchall()
    assert [c for (c,) in got] == ["QQ", "AA", "trips", "below QQ"]


def test_the_review_reviews_joker_and_27_hands_or_says_why_not() -> None:
    """The samples' final-board hands are named (not skipped silently); the one with streets
    (a progressive Fantasyland set with jokers) is reviewed (tests/test_review_jokers_27.py
    reviews joker and 2-7 streets)."""
    text = (ROOT / "data" / "samples" / "jokers-27.jsonl").read_text(encoding="utf-8")
    records = [p.record for p in ofc_hh.parse_text(text, "j.jsonl") if hasattr(p, "record")]
    assert len(records) == 7
    for r in records:
        name = r.players[0].name
        reviewed = review_hand(r, name, precision=Precision(1.0, 48))
        assert bool(reviewed) == (not_reviewed(r, name) is None)
        if not reviewed:
            assert not_reviewed(r, name) == FINAL_BOARDS
    assert sum(bool(review_hand(r, r.players[0].name)) for r in records) == 1


def test_the_batch_resolver_tries_fewer_cards_and_still_agrees_with_the_scalar_one() -> None:
    """The batch resolver tries one card per rank where a row can make no flush
    (``batch_boards._first_of_class``): on seeded boards with one and two jokers, half of them
    with X1 beside four cards of one suit in the bottom (a flush still possible), every board's
    strengths and the cards its jokers stood for equal the scalar resolver's, which tries
    every card."""
    from ofc_core.batch_boards import resolve_boards
    from ofc_core.cards import card_of_index
    rng = np.random.default_rng(11)
    for ruleset, count, n in ((JOKER, 1, 120), (JOKER, 2, 16),
                              (resolve("2-7-pineapple", {"jokers": 2}), 2, 8)):
        boards = []
        for i in range(n):
            if i % 2:  # X1 in a bottom of four cards of one suit, X2 (if any) anywhere above
                suited = [c for c in rng.permutation(52) if c % 4 == i % 4][:4]
                rest = [int(c) for c in rng.permutation(52) if c not in suited][:9 - count]
                above = list(rng.permutation(rest + [53][:count - 1]))
                cards = above + suited + [52]
            else:
                cards = list(rng.permutation([*rng.permutation(52)[:13 - count], 52, 53][
                    :13]))
            boards.append(np.array(cards, np.int64))
        strengths, stood = resolve_boards(np.array(boards), ruleset)
        for board, rows, jokers in zip(boards, strengths, stood, strict=True):
            cards = tuple(card_of_index(int(c)) for c in board)
            scalar = resolve_board(Board(cards[:3], cards[3:8], cards[8:]), ruleset)
            assert tuple(rows.tolist()) == scalar.strengths
            want = {j.number: c.index for j, c in scalar.stood_for}
            assert (int(jokers[0]), int(jokers[1])) == (want.get(1, -1), want.get(2, -1))
