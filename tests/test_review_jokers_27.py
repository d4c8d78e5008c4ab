"""The decision review at joker and 2-7 tables, and Fantasyland credited per opponent.

Exact positions are recounted independently: each placement's board is scored by the scalar
scorer (:func:`ofc_core.scoring.score_hand`, which resolves jokers by
:mod:`ofc_core.jokers` and reads a 2-7 middle as a low), and the Fantasyland each seat earns
is credited per opponent by hand (the player's own value against each opponent, each
opponent's value once against the player).
"""

from __future__ import annotations

import json
import random
from math import comb
from pathlib import Path

import duckdb
import numpy as np
import pytest

from dashboard.queries import review as q
from dashboard.queries.common import Filters
from ofc_cli.cli import main
from ofc_core.batch_boards import score_boards_under
from ofc_core.board import Board
from ofc_core.cards import parse_cards
from ofc_core.play.engine import Table
from ofc_core.play.placements import legal_placements
from ofc_core.play.policies import policy
from ofc_core.play.positions import spots_of
from ofc_core.play.review import (
    FINAL_BOARDS,
    FL_SET_27,
    Precision,
    not_reviewed,
    placement_text,
    review_hand,
)
from ofc_core.play.rollout import (
    BestOfK,
    SeatSpot,
    Spot,
    SpotRollouts,
    default_fantasyland_value,
)
from ofc_core.play.sessions import SessionSpec, hero_view, play_session
from ofc_core.play.stand_ins import joker_stand_ins
from ofc_core.rules import PRESETS, Ruleset, Street, resolve
from ofc_core.scoring import Seat, score_hand

QUICK = Precision(precision=1.0, max_rollouts=96)


def idx(text: str) -> tuple[int, ...]:
    return tuple(c.index for c in parse_cards(text))


def rows_of(compact: str) -> tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]:
    board = Board.parse_compact(compact)
    return (idx(" ".join(map(str, board.top))), idx(" ".join(map(str, board.middle))),
            idx(" ".join(map(str, board.bottom))))


def recount(ruleset: Ruleset, boards: list[Board], hero: int = 0) -> float:
    """The player's points on complete boards by the scalar scorer, plus the Fantasyland
    credit per opponent."""
    result = score_hand([Seat(f"s{k}", b) for k, b in enumerate(boards)], ruleset)
    players = len(boards)
    fl = [default_fantasyland_value(ruleset, p.fantasyland_next, players)
          for p in result.players]
    mine = result.players[hero].points
    return mine + (players - 1) * fl[hero] - (sum(fl) - fl[hero])


def exact_values(ruleset: Ruleset, hero: str, others: list[str], dealt: str, free_row: int
                 ) -> tuple[list[float], list[float]]:
    """The rollouts' values of every placement of the last card of ``hero`` (one slot free
    in row ``free_row``) and the recount of each."""
    seats = (SeatSpot(rows_of(hero)),) + tuple(SeatSpot(rows_of(o)) for o in others)
    spot = Spot(ruleset, seats, 0, idx(dealt), 1)
    r = SpotRollouts(spot)
    assert r.exact
    free = tuple(int(k == free_row) for k in range(3))
    options = legal_placements(spot.dealt, 1, free)
    got = r.values(options, r.deal(1))[:, 0].tolist()
    want = []
    base = Board.parse_compact(hero)
    for p in options:
        card = parse_cards(placement_text(p).split("/")[0].replace("-", " "))
        rows = [list(base.top), list(base.middle), list(base.bottom)]
        rows[free_row] += list(card)
        board = Board(tuple(rows[0]), tuple(rows[1]), tuple(rows[2]))
        want.append(recount(ruleset, [board] + [Board.parse_compact(o) for o in others]))
    return got, want


def test_a_joker_position_is_valued_exactly_by_the_scalar_scorer() -> None:
    """A joker on each board (X1 on top with a pair of queens: trips or less by the foul
    rule), the last card of the bottom to place: every placement agrees with the recount."""
    got, want = exact_values(PRESETS["joker-pineapple"], "QhQdX1-KsKd9s5h3c-JhJdJc4s",
                             ["AhKc3d-AsAd8h7c2h-QcTc8cX26c"], "4d 9d 7s", 2)
    assert got == pytest.approx(want)
    assert len(set(np.round(want, 6))) > 1  # the cards matter: the check can fail


def test_a_2_7_position_is_valued_exactly_by_the_scalar_scorer() -> None:
    """The last card of a 2-7 middle: a deuce pairs (a foul), a six makes a 7-6 low, a nine a
    9-high low; each agrees with the recount, and the foul is the worst."""
    got, want = exact_values(PRESETS["2-7-pineapple"], "KhKd4c-7h5d3c2h-AhAd8c8s5s",
                             ["QcJd3d-9s8d6c4s2c-TcTh7c7d6h"], "2d 6s 9h", 1)
    assert got == pytest.approx(want)
    options = legal_placements(idx("2d 6s 9h"), 1, (0, 1, 0))
    by_card = {placement_text(p).split("/")[0].strip("-"): v
               for p, v in zip(options, want, strict=True)}
    assert by_card["6s"] > by_card["9h"] > by_card["2d"] + 6


def test_three_handed_fantasyland_is_credited_per_opponent() -> None:
    """Three seats: the player's Fantasyland counts against each of its two opponents, an
    opponent's once against the player (both at the three-handed value)."""
    ruleset = PRESETS["pineapple"]
    got, want = exact_values(ruleset, "QhQd2c-KsKd9s5h3c-JhJdJc4s",
                             ["AhKc3d-AsAd8h7c2h-QcTc8c6c5c", "KcKh4h-9h9c7d7h2s-AcTsTd6s5d"],
                             "4d 9d 7s", 2)
    assert got == pytest.approx(want)
    v3 = default_fantasyland_value(ruleset, 14, 3)
    assert v3 > 0 and default_fantasyland_value(ruleset, 14, 2) > 0
    assert want[0] == pytest.approx(recount(ruleset, [
        Board.parse_compact("QhQd2c-KsKd9s5h3c-JhJdJc4s4d"),
        Board.parse_compact("AhKc3d-AsAd8h7c2h-QcTc8c6c5c"),
        Board.parse_compact("KcKh4h-9h9c7d7h2s-AcTsTd6s5d")]))


def test_jokers_are_dealt_from_a_54_card_deck_and_valued_exactly_on_a_last_street() -> None:
    """Heads-up, the villain's last street left: every deal of it, jokers among the unseen."""
    ruleset = PRESETS["joker-pineapple"]
    hero = SeatSpot(rows_of("QhQd2c-KsKd9s5h3c-JhJdJcX14s"))
    villain = SeatSpot(rows_of("AhKc3d-AsAd8h7c-QcTc8c6c"), (Street(3, 2),))
    spot = Spot(ruleset, (hero, villain), 0, (), 0, idx("2d 4d"))
    unseen = spot.unseen()
    assert 53 in unseen and 52 not in unseen and len(unseen) == 54 - 13 - 11 - 2
    r = SpotRollouts(spot)
    assert r.outcomes == comb(len(unseen), 3)
    block = r.deal_every()
    assert 53 in r.others[block][:, 1].ravel().tolist()


def test_stand_ins_are_the_highest_cards_not_on_the_board() -> None:
    boards = np.array([list(idx("As Ah X1")) + list(idx("Ks Kd 9s 5h 3c")) +
                       list(idx("Jh Jd Jc 4s")) + [53]])
    shown = joker_stand_ins(boards)[0].tolist()
    assert shown[2] == idx("Ad")[0] and shown[12] == idx("Ac")[0]


def _session(variant: str, seed: int) -> list:
    ruleset = PRESETS[variant]
    table = Table(ruleset, ("a", "b"), (policy("careful"), policy("careful")))
    return [hero_view(h, "a") for h in play_session(table, SessionSpec("s", hands=8),
                                                     random.Random(seed))]


@pytest.mark.parametrize("variant", ["joker-pineapple", "2-7-pineapple"])
def test_joker_and_2_7_hands_are_reviewed(variant) -> None:
    """Every street of a normal hand is reviewed; with jokers dealt, placements name them."""
    hands = _session(variant, 5)
    record = next(h for h in hands if not any(p.fantasyland for p in h.players))
    reviewed = review_hand(record, "a", precision=QUICK)
    assert [r.street for r in reviewed] == [1, 2, 3, 4, 5]
    assert all(r.evaluation.rollouts > 0 and np.isfinite(r.evaluation.chosen.ev)
               for r in reviewed)
    if variant == "joker-pineapple":
        hands_with_jokers = [h for h in hands if any(
            c >= 52 for d in spots_of(h, "a") for c in d.spot.dealt)]
        assert hands_with_jokers
        with_joker = review_hand(hands_with_jokers[0], "a", precision=QUICK)
        assert any("X" in placement_text(r.evaluation.chosen.placement) for r in with_joker)


def test_the_policy_plays_2_7_middles_as_lows() -> None:
    """The default policy, valuing boards by the ruleset's own rows, rarely fouls a 2-7 hand
    from a plain first five (a poker-middle policy would foul most)."""
    ruleset = PRESETS["2-7-pineapple"]
    fixed = np.full((1, 13), -1, np.int8)
    fixed[0, [0, 3, 4, 8, 9]] = idx("Qc 2d 5h Ks Kd")
    spot = Spot(ruleset, (SeatSpot(((), (), ())),), 0, (), 0)
    rng = np.random.default_rng(1)
    unseen = np.array([c for c in spot.unseen() if c not in set(fixed[0].tolist())], np.int8)
    future = np.stack([rng.permutation(unseen)[:12] for _ in range(200)])
    boards = BestOfK().complete(fixed, future, (Street(3, 2),) * 4, ruleset, np.zeros(18))[0]
    fouled = score_boards_under(boards, ruleset).fouled.mean()
    poker = BestOfK().complete(fixed, future, (Street(3, 2),) * 4, PRESETS["pineapple"],
                               np.zeros(18))[0]
    assert fouled < 0.35 and fouled < score_boards_under(poker, ruleset).fouled.mean() - 0.3


def _fantasyland_line(variant: str, dealt: str, board: list[str]) -> str:
    villain = [{"dealt": "Js Jc 3s 4s 5s", "top": "3s", "middle": "4s 5s", "bottom": "Js Jc"},
               {"dealt": "9c 9d 2c", "middle": "9c 9d", "discard": "2c"},
               {"dealt": "Ks Kc 6d", "bottom": "Ks Kc", "discard": "6d"},
               {"dealt": "7s 7d 3c", "top": "3c", "middle": "7s", "discard": "7d"},
               {"dealt": "As Ad 6s", "top": "As", "bottom": "Ad", "discard": "6s"}]
    top, middle, bottom, discard = board
    return json.dumps({
        "format": "ofc-hh/1", "source": "planted", "hand_id": "fl", "variant": variant,
        "played_at": "2026-02-01T20:00:00+00:00", "button": "Villain",
        "players": [{"name": "Hero", "seat": 0, "fantasyland": True, "streets": [
            {"dealt": dealt, "top": top, "middle": middle, "bottom": bottom,
             "discard": discard}]},
                    {"name": "Villain", "seat": 1, "streets": villain}]})


def _record(line: str):
    from ingest.formats.ofc_hh import parse_text

    return next(iter(parse_text(line, "fl.jsonl"))).record


def test_a_2_7_fantasyland_set_is_named_not_reviewed() -> None:
    rec = _record(_fantasyland_line(
        "2-7-pineapple", "Ah Kh Qh Jh Th 8d 7c 5h 4c 3d 2h Qd Qc 9h",
        ["Qd Qc 9h", "8d 7c 5h 4c 3d", "Ah Kh Qh Jh Th", "2h"]))
    assert review_hand(rec, "Hero") == [] and not_reviewed(rec, "Hero") == FL_SET_27


def test_a_joker_fantasyland_set_is_reviewed_against_the_solver() -> None:
    """Two jokers kept on top beside a queen (three queens, 20 and a stay) beat the set
    played (the jokers in the bottom's flush): the solver's set, with its jokers, is best."""
    rec = _record(_fantasyland_line(
        "joker-pineapple", "X1 X2 Ah 7h 7c 5h 9h Jd Qc 3h 4h 8d Tc 2h",
        ["Qc Jd Tc", "9h 8d 7h 7c 2h", "X1 X2 Ah 5h 4h", "3h"]))
    (reviewed,) = review_hand(rec, "Hero")
    e = reviewed.evaluation
    assert e.best.ev > e.chosen.ev and "X" in placement_text(e.best.placement).split("-")[0]


def _final_boards_line(hand_id: str) -> str:
    return json.dumps({
        "format": "ofc-hh/1", "source": "planted", "hand_id": hand_id,
        "variant": "joker-pineapple", "played_at": "2026-02-01T20:00:00+00:00",
        "players": [{"name": "Hero", "seat": 0, "board": "QhQdX1-KsKd9s5h3c-JhJdJc4s4d"},
                    {"name": "Villain", "seat": 1, "board": "AhKc3d-AsAd8h7c2h-QcTc8cX26c"}]})


def test_ofc_review_and_the_page_count_what_is_not_reviewed(tmp_path: Path, capsys) -> None:
    log = tmp_path / "final.jsonl"
    log.write_text("\n".join(_final_boards_line(f"f{k}") for k in range(3)) + "\n")
    db = tmp_path / "f.duckdb"
    assert main(["import", str(log), "--db", str(db)]) == 0
    capsys.readouterr()
    assert main(["review", "--db", str(db), "--player", "Hero"]) == 0
    captured = capsys.readouterr()
    assert f"not reviewed: 3 hands: {FINAL_BOARDS}" in captured.err
    assert "reviewed 0 hands" in captured.out and "3 with nothing to review" in captured.out
    con = duckdb.connect(str(db), read_only=True)
    frame = q.unreviewed(con, Filters(player="Hero"))
    con.close()
    assert frame.to_dict("records") == [{"reason": FINAL_BOARDS, "hands": 3}]


def test_four_handed_reads_the_three_handed_value() -> None:
    ruleset = resolve("regular")
    assert default_fantasyland_value(ruleset, 13, 4) == default_fantasyland_value(ruleset, 13, 3)


def test_a_stay_under_repeat_entry_is_worth_the_cards_dealt_again() -> None:
    """The pineapple app's rules (progressive, two jokers, ``fl_repeat: entry``): trips on top
    stay, and a 17-card hand that stays is dealt 17 again (worth V(17), not V(14))."""
    from ofc_core.play.review import fantasyland_set_value
    from ofc_core.play.rollout import fl_table

    rows = (idx("Qh Qd Qc"), idx("Ks Kd Kh 5h 3c"), idx("Ah Ad Ac 4s 4d"))
    app = resolve("progressive-pineapple", {"jokers": 2, "fl_repeat": "entry"})
    fl = fl_table(app, default_fantasyland_value, 2)
    royalties = 20 + 2 + 6
    assert fantasyland_set_value(rows, app, fl, 6.0, 1, 17) == pytest.approx(
        royalties + default_fantasyland_value(app, 17))
    assert fantasyland_set_value(rows, PRESETS["progressive-pineapple"], fl, 6.0, 1, 17) == \
        pytest.approx(royalties + default_fantasyland_value(app, 14))
