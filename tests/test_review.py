"""The decision review: legal placements, rollouts checked against the scalar scorer, planted
bad placements found among the costliest, Fantasyland sets, and ``ofc review`` on a store."""

from __future__ import annotations

import json
import random
from math import comb
from pathlib import Path

import duckdb
import numpy as np
import pytest

from ingest.formats.ofc_hh import parse_text
from ofc_cli import cmd_review
from ofc_cli.cli import main
from ofc_core.batch_boards import score_boards
from ofc_core.board import Board
from ofc_core.cards import DECK, parse_cards
from ofc_core.hand import HandRecord
from ofc_core.play.engine import Placement, Table
from ofc_core.play.placements import legal_placements
from ofc_core.play.policies import policy
from ofc_core.play.positions import spots_of
from ofc_core.play.review import (
    FANTASYLAND_SET,
    Precision,
    _found,
    _fresh_size,
    evaluate,
    parse_placement,
    placement_text,
    review_fantasyland,
    review_hand,
)
from ofc_core.play.rollout import (
    BestOfK,
    SeatSpot,
    Spot,
    SpotRollouts,
    default_fantasyland_value,
    templates,
)
from ofc_core.play.sessions import SessionSpec, hero_view, play_session
from ofc_core.rules import PRESETS, Street
from ofc_core.scoring import Seat, score_hand
from tests.helpers.planted import QQ_TOP_FOUL, VILLAIN_1, street


def idx(text: str) -> tuple[int, ...]:
    return tuple(c.index for c in parse_cards(text))


FLUSH_BROKEN = [  # street 3: the 2h completes a heart flush; 7c breaks it (and fouls)
    street("Ah Kh 9h 5h Qs", top="Qs", bottom="Ah Kh 9h 5h"),
    street("Tc Td 4c", middle="Tc Td", discard="4c"),
    street("2h 7c 3d", middle="3d", bottom="7c", discard="2h"),
    street("8s 8c Jd", middle="8s 8c", discard="Jd"),
    street("4d 6c 2s", top="4d 2s", discard="6c"),
]
VILLAIN_2 = [
    street("Js Jc 3s 4s 5s", top="3s", middle="4s 5s", bottom="Js Jc"),
    street("9c 9d 2c", middle="9c 9d", discard="2c"),
    street("Ks Kc 6d", bottom="Ks Kc", discard="6d"),
    street("7s 7d 3c", top="3c", middle="7s", discard="7d"),
    street("As Ad 6s", top="As", bottom="Ad", discard="6s"),
]
PLANTED = {"qq-top": (QQ_TOP_FOUL, VILLAIN_1, 2), "flush-broken": (FLUSH_BROKEN, VILLAIN_2, 3)}


def hand_line(hand_id: str, hero: list[dict], villain: list[dict],
              played_at: str = "2026-02-01T20:00:00+00:00") -> str:
    return json.dumps({
        "format": "ofc-hh/1", "source": "planted", "hand_id": hand_id, "variant": "pineapple",
        "button": "Villain", "played_at": played_at, "hero": "Hero",
        "players": [{"name": "Hero", "seat": 0, "streets": hero},
                    {"name": "Villain", "seat": 1, "streets": villain}]})


def planted(name: str) -> HandRecord:
    hero, villain, _ = PLANTED[name]
    items = list(parse_text(hand_line(name, hero, villain), "planted.jsonl"))
    return items[0].record


QUICK = Precision(precision=0.5, max_rollouts=384)


# --------------------------------------------------------------------------------------------


def test_placements_count_every_legal_way_once():
    five = idx("Ah Kd 2c 7s 7h")
    first = legal_placements(five, 5, (3, 5, 5))
    assert len(first) == 243 - 11  # four or five cards on top do not fit
    assert len({tuple(map(frozenset, p)) for p in first}) == len(first)
    assert len(legal_placements(five[:3], 2, (3, 5, 5))) == 27
    assert len(legal_placements(five[:1], 1, (3, 5, 5))) == 3  # regular
    assert len(legal_placements(five[:4], 4, (1, 5, 5))) == 2 ** 4 + 4 * 2 ** 3  # turbo: 1 top slot
    assert all(len(p.top) <= 1 for p in legal_placements(five[:4], 4, (1, 5, 5)))


def test_templates_are_exhaustive_on_a_last_street_and_fill_every_slot():
    t = templates((0, 1, 1), (Street(3, 2),), 24)
    assert t.exhaustive and len(t.keep) == 3 * 2  # a card to discard, two ways to lay the rest
    big = templates((2, 3, 3), (Street(3, 2),) * 4, 24)
    assert not big.exhaustive and len(big.keep) == 24
    assert all(sorted(k) == sorted(set(k)) for k in big.keep.tolist())


def test_a_complete_position_is_valued_exactly_by_the_scalar_scorer():
    ruleset = PRESETS["pineapple"]
    hero = Board.parse_compact("QhQd2c-KsKd9s5h3c-JhJdJc4s")
    villain = Board.parse_compact("AhKc3d-AsAd8h7c2h-QcTc8c6c5c")
    rows = tuple(tuple(c.index for c in r) for r in (hero.top, hero.middle, hero.bottom))
    spot = Spot(ruleset, (SeatSpot(rows), SeatSpot(tuple(tuple(c.index for c in r) for r in (
        villain.top, villain.middle, villain.bottom)))), 0, idx("4d 9d 7s"), 1)
    r = SpotRollouts(spot)
    assert r.exact
    block = r.deal(1)
    options = legal_placements(spot.dealt, 1, (0, 0, 1))
    values = r.values(options, block)[:, 0]
    for p, value in zip(options, values, strict=True):
        board = Board(hero.top, hero.middle, hero.bottom + (DECK[p.bottom[0]],))
        result = score_hand([Seat("h", board), Seat("v", villain)], ruleset)
        me, them = result.players
        fl = default_fantasyland_value(ruleset, me.fantasyland_next) - \
            default_fantasyland_value(ruleset, them.fantasyland_next)
        assert value == pytest.approx(me.points + fl)


def test_rollouts_deal_only_unseen_cards_and_share_them_across_placements():
    rec = hero_view(play_session(Table(PRESETS["pineapple"], ("a", "b", "c"),
                                       tuple(policy("careful") for _ in range(3))),
                                 SessionSpec("s", hands=1), random.Random(2))[0], "a")
    d = next(d for d in spots_of(rec, "a") if d.street == 2)
    r = SpotRollouts(d.spot, seed=4)
    block = r.deal(50)
    seen = set(d.spot.dealt) | set(d.spot.dead) | {c for s in d.spot.seats for row in s.board
                                                   for c in row}
    assert not seen & set(r.hero_future[block].ravel().tolist())
    for i in (1, 2):  # the opponents' completions keep what they placed
        visible = [c for row in d.spot.seats[i].board for c in row]
        assert all(set(visible) <= set(b.tolist()) for b in r.others[block][:, i])
    again = SpotRollouts(d.spot, seed=4)
    again.deal(50)
    assert np.array_equal(again.hero_future[0], r.hero_future[block])


def test_the_default_policy_rarely_fouls_from_a_plain_first_street():
    ruleset = PRESETS["pineapple"]
    fixed = np.array([[-1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1]], np.int8)
    fixed[0, [0, 3, 4, 8, 9]] = idx("5c 9d 9h Ks Kd")
    spot = Spot(ruleset, (SeatSpot(((), (), ())),), 0, (), 0)
    rng = np.random.default_rng(1)
    unseen = np.array([c for c in spot.unseen() if c not in set(fixed[0].tolist())], np.int8)
    future = np.stack([rng.permutation(unseen)[:12] for _ in range(400)])
    boards = BestOfK().complete(fixed, future, (Street(3, 2),) * 4, ruleset,
                                np.zeros(18))[0]
    assert score_boards(boards, ruleset.royalties).fouled.mean() < 0.1


@pytest.mark.parametrize("name", sorted(PLANTED))
def test_a_planted_bad_placement_is_the_costliest_decision(name):
    record = planted(name)
    reviewed = review_hand(record, "Hero", precision=QUICK)
    assert [r.street for r in reviewed] == [1, 2, 3, 4, 5]
    worst = max(reviewed, key=lambda r: r.evaluation.ev_lost)
    assert worst.street == PLANTED[name][2]
    assert worst.evaluation.ev_lost > 4
    assert worst.evaluation.best.ev > worst.evaluation.chosen.ev + 2 * worst.evaluation.chosen.se


def test_a_last_street_with_few_deals_is_valued_exactly():
    record = planted("qq-top")  # heads-up; Hero acts first, so the villain's last street is left
    last = next(d for d in spots_of(record, "Hero") if d.street == 5)
    r = SpotRollouts(last.spot)
    unseen = 52 - 17 - 11  # Hero's 11 placed, 3 dealt, 3 discarded; the villain's 11 placed
    assert len(last.spot.unseen()) == unseen and r.outcomes == comb(unseen, 3)
    runs = [evaluate(last.spot, last.chosen, seed=seed) for seed in (1, 2)]
    assert runs[0] == runs[1] and runs[0].chosen.se == 0 and runs[0].best.se == 0
    assert runs[0].rollouts == comb(unseen, 3) * runs[0].candidates
    sampled = SpotRollouts(last.spot, seed=3)
    estimate = sampled.values([last.chosen], sampled.deal(3000))[0]
    assert abs(estimate.mean() - runs[0].chosen.ev) < 4 * estimate.std() / np.sqrt(3000)


def test_a_fantasyland_set_is_compared_with_the_setter():
    ruleset = PRESETS["pineapple"]
    dealt = idx("As Ad Ac Kh Kd Qs Qh 9h 8h 7h 6h 5h 2c 3d")
    weak = Placement(idx("2c 3d Qh"), idx("As Ad Kh Kd Qs"), idx("9h 8h 7h 6h 5h"), idx("Ac"))
    e = review_fantasyland(dealt, weak, ruleset, 2)
    assert e.best.ev > e.chosen.ev and e.ev_lost == pytest.approx(e.best.ev - e.chosen.ev)
    assert review_fantasyland(dealt, e.best.placement, ruleset, 2).ev_lost == 0


def test_placement_notation_round_trips():
    p = Placement(idx("Qh"), (), idx("Kd 7s"), idx("2c"))
    assert placement_text(p) == "Qh--Kd7s/2c"
    assert parse_placement(placement_text(p)) == p


# --------------------------------------------------------------------------------------------
# ofc review on a store


@pytest.fixture()
def planted_db(tmp_path: Path) -> Path:
    log = tmp_path / "planted.jsonl"
    log.write_text("\n".join(hand_line(name, *PLANTED[name][:2],
                                       played_at=f"2026-02-0{k + 1}T20:00:00+00:00")
                             for k, name in enumerate(sorted(PLANTED))) + "\n")
    db = tmp_path / "p.duckdb"
    assert main(["import", str(log), "--db", str(db)]) == 0
    return db


def test_ofc_review_stores_the_decisions_and_resumes(planted_db: Path, capsys):
    db = str(planted_db)
    assert main(["review", "--db", db, "--player", "Hero", "--rollouts", "384"]) == 0
    con = duckdb.connect(db, read_only=True)
    rows = con.execute("SELECT hand_id, street, kind, ev_lost, chosen, best, version "
                       "FROM decisions ORDER BY ev_lost DESC").fetchall()
    con.close()
    assert len(rows) == 10
    top_two = {(h, s) for h, s, *_ in rows[:2]}
    assert top_two == {(name, PLANTED[name][2]) for name in PLANTED}
    assert {k for _, _, k, *_ in rows} == {"first five", "street"}
    assert all(Board.parse_compact(c.split("/")[0]) for *_, c, _, _ in rows)
    capsys.readouterr()
    assert main(["review", "--db", db, "--player", "Hero"]) == 0
    assert "0 hands" in capsys.readouterr().out
    assert main(["review", "--db", db, "--player", "Hero", "--again", "--hands", "1",
                 "--json", "--rollouts", "48"]) == 0
    captured = capsys.readouterr()
    lines = [json.loads(x) for x in captured.out.splitlines()]
    assert len(lines) == 5 and {x["street"] for x in lines} == {1, 2, 3, 4, 5}
    assert {"source", "hand_id", "player", "street", "dealt", "chosen", "chosen_ev",
            "chosen_se", "best", "best_ev", "ev_lost", "rollouts", "policy",
            "version"} <= set(lines[0])
    # version 6: the paired noise, class, accuracy, reasons and the top three (issue 36)
    assert {"ev_lost_se", "class", "accuracy", "chosen_foul", "best_foul", "chosen_fl",
            "best_fl", "chosen_royalties", "best_royalties", "chosen_rows", "best_rows",
            "reason", "tie_with", "alternatives"} <= set(lines[0])
    for x in lines:
        assert x["class"] in ("best", "tie", "inaccuracy", "mistake", "blunder")
        assert (x["class"] == "best") == (x["ev_lost"] == 0) and 0 <= x["accuracy"] <= 100
        assert (x["reason"] == "") == (x["best"] == x["chosen"])
        assert 1 <= len(x["alternatives"]) <= 3 and x["alternatives"][0]["placement"] == x["best"]
    assert "beyond the noise" in captured.err and "accuracy " in captured.err


def test_ofc_review_says_what_is_wrong(planted_db: Path, capsys):
    assert main(["review", "--db", str(planted_db), "--player", "Nobody"]) == 1
    assert "no stored hands" in capsys.readouterr().err
    assert main(["review", "--db", str(planted_db), "--player", "Hero", "--hands", "0"]) == 2


def test_rescore_keeps_the_decisions(planted_db: Path):
    db = str(planted_db)
    assert main(["review", "--db", db, "--player", "Hero", "--rollouts", "48"]) == 0
    assert main(["rescore", "--db", db]) == 0
    con = duckdb.connect(db, read_only=True)
    assert con.execute("SELECT count(*) FROM decisions").fetchone() == (10,)
    con.close()


def test_fantasyland_sets_are_reviewed_as_street_one():
    rec = None
    table = Table(PRESETS["pineapple"], ("a", "b"), (policy("chaser"), policy("chaser")))
    for h in play_session(table, SessionSpec("s", hands=60), random.Random(11)):
        if h.players[0].fantasyland:
            rec = h
            break
    assert rec is not None, "no Fantasyland hand in 60 chaser hands"
    reviewed = review_hand(rec, "a", precision=QUICK)
    assert [(r.street, r.kind) for r in reviewed] == [(1, FANTASYLAND_SET)]


def test_a_hand_the_review_cannot_rebuild_is_named_and_the_others_are_stored(
        planted_db: Path, monkeypatch, capsys):
    real = cmd_review.review_hand

    def fails_on_qq(record, player, **kwargs):
        if record.hand_id == "qq-top":
            raise ValueError("the chosen placement is not legal here")
        return real(record, player, **kwargs)

    monkeypatch.setattr(cmd_review, "review_hand", fails_on_qq)
    assert main(["review", "--db", str(planted_db), "--player", "Hero", "--rollouts", "48"]) == 0
    err = capsys.readouterr().err
    assert "not reviewed: planted/qq-top: the chosen placement is not legal here" in err
    con = duckdb.connect(str(planted_db), read_only=True)
    assert con.execute("SELECT DISTINCT hand_id FROM decisions").fetchall() == [("flush-broken",)]
    con.close()


def test_the_rounds_stop_once_the_best_is_found_and_the_fresh_deals_reach_the_precision():
    """Only the chosen placement and one ahead of it left: the best is found, the rounds stop
    (the fresh deals measure how far ahead, as many as the precision needs); with the chosen
    ahead, or a third placement left, the rounds go on."""
    behind, ahead, other = [np.zeros(48)], [np.full(48, 3.0)], [np.full(48, 1.0)]
    assert _found([behind, ahead], [0, 1], chosen=0)
    assert not _found([ahead, behind], [0, 1], chosen=0)
    assert not _found([behind, ahead, other], [0, 1, 2], chosen=0)
    noisy = [np.tile([-9.0, 15.0], 24)]  # the difference spreads 12.1 points
    assert _fresh_size([behind, noisy], 1, 0, 48, Precision(0.5, 768)) == 589  # (12.13 / 0.5)²
    assert _fresh_size([behind, noisy], 1, 0, 48, Precision(0.5, 300)) == 300
    assert _fresh_size([behind, ahead], 1, 0, 96, Precision()) == 96  # no spread: the rounds'
