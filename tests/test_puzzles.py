"""A Train puzzle's answer valued against the stored decision (``ofc_core.play.puzzles``): the
played placement and the best take the review's own verdict without a rollout; any other
answer is valued with the best on the decision's deals (the same figures every time), a
fouling one missed with the foul named, an illegal one refused; a last street is exact."""

from __future__ import annotations

import random

import pytest

from ofc_core.hand import HandRecord
from ofc_core.play.engine import Placement, Table
from ofc_core.play.placements import free_slots, legal_placements, same_placement
from ofc_core.play.policies import policy
from ofc_core.play.puzzles import Stored, answer_puzzle, position
from ofc_core.play.review import review_hand
from ofc_core.play.sessions import SessionSpec, play_session
from ofc_core.rules import PRESETS


@pytest.fixture(scope="module")
def reviewed() -> tuple[HandRecord, dict[int, Stored]]:
    """A seeded heads-up pineapple hand and ann's decisions as the review stored them."""
    table = Table(PRESETS["pineapple"], ("ann", "bob"), (policy("careful"), policy("careful")))
    record = play_session(table, SessionSpec("p", hands=1), random.Random(6))[0]
    stored = {}
    for r in review_hand(record, "ann"):
        e = r.evaluation
        stored[r.street] = Stored(e.chosen.placement, e.chosen.ev, e.best.placement, e.best.ev,
                                  e.ev_lost, e.ev_lost_se, r.reason)
    return record, stored


def _others(record: HandRecord, street: int, stored: Stored) -> list[Placement]:
    spot = position(record, "ann", street)
    assert spot is not None
    return [p for p in legal_placements(spot.spot.dealt, spot.spot.place,
                                        free_slots(spot.board_before))
            if not same_placement(p, stored.chosen) and not same_placement(p, stored.best)]


def test_the_played_and_the_best_take_the_reviews_verdict(reviewed) -> None:  # type: ignore[no-untyped-def]
    record, stored = reviewed
    first = stored[1]
    played = answer_puzzle(record, "ann", 1, first.chosen, first)
    assert (played.ev, played.ev_lost, played.rollouts) == (first.chosen_ev, first.ev_lost, 0)
    assert played.noise == pytest.approx(2 * first.ev_lost_se)
    assert played.reason == first.reason
    best = answer_puzzle(record, "ann", 1, first.best, first)
    assert best.solved and best.ev_lost == 0.0 and best.ev == first.best_ev
    assert best.rollouts == 0


def test_another_answer_is_valued_on_the_decisions_deals(reviewed) -> None:  # type: ignore[no-untyped-def]
    record, stored = reviewed
    first = stored[1]
    answer = _others(record, 1, first)[0]
    once = answer_puzzle(record, "ann", 1, answer, first)
    again = answer_puzzle(record, "ann", 1, answer, first)
    assert once == again  # the decision's own deals: the same figures every time
    assert 48 <= once.rollouts <= 2 * 768 and once.ev_lost >= 0.0
    assert once.best == first.best and once.best_ev == first.best_ev
    assert once.ev == pytest.approx(first.best_ev - once.ev_lost) or once.ev > first.best_ev
    assert once.solved == (once.ev_lost <= once.noise)


def test_a_fouling_answer_is_missed_and_says_so(reviewed) -> None:  # type: ignore[no-untyped-def]
    record, stored = reviewed
    last = max(stored)
    fouls = []
    for answer in _others(record, last, stored[last]):
        valued = answer_puzzle(record, "ann", last, answer, stored[last])
        assert valued.noise == 0.0  # the last street: every deal counted, exact
        if valued.reason.startswith("fouls 100%"):
            fouls.append(valued)
    assert fouls, "the seeded hand's last street has a fouling answer"
    assert all(not v.solved and v.ev_lost > 0 for v in fouls)


def test_an_illegal_answer_is_refused(reviewed) -> None:  # type: ignore[no-untyped-def]
    record, stored = reviewed
    first = stored[1]
    dealt = first.chosen.top + first.chosen.middle + first.chosen.bottom
    wrong = Placement(dealt, (), (), ())  # five cards on the top row
    with pytest.raises(ValueError, match="not legal"):
        answer_puzzle(record, "ann", 1, wrong, first)
    with pytest.raises(ValueError, match="cannot be rebuilt"):
        answer_puzzle(record, "ann", 9, first.chosen, first)
