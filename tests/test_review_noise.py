"""Issue 36: the review's paired noise, its ties, alternatives and reasons, the odd bests, and
Fantasyland sets valued by their rows."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from ingest.formats.ofc_hh import parse_text
from ofc_core.cards import parse_cards
from ofc_core.hand import HandRecord
from ofc_core.play.engine import Placement
from ofc_core.play.oddities import ODDITIES, oddities
from ofc_core.play.positions import spots_of
from ofc_core.play.review import (
    Precision,
    evaluate,
    reason_of,
    review_fantasyland,
    tie_text,
)
from ofc_core.play.rollout import SpotRollouts
from ofc_core.rules import PRESETS

DEMO = Path(__file__).resolve().parents[1] / "data" / "demo" / "pineapple.Hero.jsonl"


def idx(text: str) -> tuple[int, ...]:
    return tuple(c.index for c in parse_cards(text))


def _demo_hand(hand_id: str) -> HandRecord:
    line = next(line for line in DEMO.read_text(encoding="utf-8").splitlines()
                if f'"{hand_id}"' in line)
    item = next(iter(parse_text(line, DEMO.name)))
    return item.record  # type: ignore[union-attr]


def test_the_demo_blunder_once_within_the_noise_is_a_real_mistake() -> None:
    """``demo-pineapple-2-0054`` street 5: 5.62 points lost, shown "within the noise (± 7.3)"
    by the unpaired error; the paired one is a fraction of a point (the issue measured
    +5.41 ± 0.05 on fresh common deals)."""
    decision = next(d for d in spots_of(_demo_hand("demo-pineapple-2-0054"), "Hero")
                    if d.street == 5)
    e = evaluate(decision.spot, decision.chosen, seed=7)
    unpaired = float(np.hypot(e.chosen.se, e.best.se))
    assert e.ev_lost == pytest.approx(5.5, abs=0.6)
    assert e.ev_lost_se < unpaired / 4 and e.ev_lost > 2 * e.ev_lost_se
    assert e.decision_class in ("mistake", "blunder") and e.accuracy < 50
    assert e.chosen.placement not in e.tied


@pytest.mark.parametrize("street", [2, 3, 4, 5])
def test_ev_lost_se_is_the_spread_of_the_per_deal_differences(street: int) -> None:
    """Each decision's ``ev_lost_se`` is the error of the paired differences on its common
    deals: on 2,000 other common deals the differences of the same two placements spread as
    much (per deal), and their mean agrees with ``ev_lost``."""
    decision = next(d for d in spots_of(_demo_hand("demo-pineapple-2-0054"), "Hero")
                    if d.street == street)
    e = evaluate(decision.spot, decision.chosen, precision=Precision(max_rollouts=192), seed=3)
    if e.best.placement == e.chosen.placement or e.ev_lost_se == 0.0:
        assert e.ev_lost == 0.0 or e.ev_lost_se == 0.0
        return
    again = SpotRollouts(decision.spot, seed=99)
    values = again.values([e.best.placement, e.chosen.placement], again.deal(2000))
    diffs = values[0] - values[1]
    spread = float(diffs.std(ddof=1))
    n = e.best.rollouts  # the fresh common deals the two were valued on
    assert 0.5 < e.ev_lost_se * np.sqrt(n) / spread < 2.0
    assert abs(diffs.mean() - e.ev_lost) < 4 * np.hypot(e.ev_lost_se, spread / np.sqrt(2000))
    assert e.ev_lost_se < np.hypot(e.chosen.se, e.best.se)


def test_the_top_three_are_kept_with_paired_differences_and_ties_named() -> None:
    decision = next(d for d in spots_of(_demo_hand("demo-pineapple-2-0054"), "Hero")
                    if d.street == 1)
    e = evaluate(decision.spot, decision.chosen, precision=Precision(max_rollouts=192), seed=5)
    assert len(e.alternatives) == 3 and e.alternatives[0].valued == e.best
    assert (e.alternatives[0].diff, e.alternatives[0].diff_se) == (0.0, 0.0)
    assert all(a.diff_se > 0 for a in e.alternatives[1:])
    for alt in e.alternatives[1:]:  # a tie is named exactly when within two paired errors
        assert (alt.valued.placement in e.tied) == (alt.diff <= 2 * alt.diff_se)
    text = tie_text(e)
    assert (text == "") == (not e.tied) and (not text or text.startswith("a tie: "))
    for v in (e.chosen, e.best):  # the reasons come from the same rollouts
        assert 0 <= v.facts.foul <= 1 and 0 <= v.facts.fl <= 1 and v.facts.foul_se >= 0


def test_a_fouled_fantasyland_set_is_valued_and_named_as_a_foul() -> None:
    """Issue 36's hand 3fbabe42: a 6-T straight in the middle over an A-5 straight on the
    bottom fouls; the set is valued by its rows (a foul loses a scoop and the table's
    royalties to each opponent), not as -6 flat, and the reason names the foul."""
    ruleset = PRESETS["pineapple"]
    dealt = idx("6h 7d 8c 9s Th Ac 2d 3h 4s 5c Kd Kh 2s Qc")
    fouled = Placement(idx("Kd Kh 2s"), idx("6h 7d 8c 9s Th"), idx("Ac 2d 3h 4s 5c"), idx("Qc"))
    e = review_fantasyland(dealt, fouled, ruleset, 3)
    assert e.chosen.facts.foul == 1.0 and e.best.facts.foul == 0.0
    assert e.chosen.ev < -2 * 6 and e.best.ev > e.chosen.ev
    assert e.chosen.facts.rows < 0 and e.best.facts.royalties > 0
    assert reason_of(e, ruleset, 3, staying=True).startswith("fouls 100% against 0%")
    assert e.alternatives[0].valued == e.best and e.alternatives[1].diff == pytest.approx(
        e.ev_lost)


CASES = {  # each kind: a hand-worked placement that has it, and a natural one that has not
    "splits a dealt pair": (
        "7h 7d Ah Kh 2h", Placement(top=idx("7h"), middle=idx("7d"), bottom=idx("Ah Kh 2h")),
        Placement(middle=idx("7h 7d"), bottom=idx("Ah Kh 2h"))),
    "a higher pair in the middle than on the bottom": (
        "Ks Kd 9h 9c 2s", Placement(middle=idx("Ks Kd 2s"), bottom=idx("9h 9c")),
        Placement(middle=idx("9h 9c 2s"), bottom=idx("Ks Kd"))),
    "two or more unpaired cards on top in a first five": (
        "Jh 3d Ac Tc 5c", Placement(top=idx("Jh 3d"), bottom=idx("Ac Tc 5c")),
        Placement(top=idx("3d"), middle=idx("Jh"), bottom=idx("Ac Tc 5c"))),
    "a card above the middle's pair on top with nothing to gain": (
        "Jh 8d 8c 4s 2h", Placement(top=idx("Jh"), middle=idx("8d 8c"), bottom=idx("4s 2h")),
        Placement(top=idx("2h"), middle=idx("8d 8c"), bottom=idx("Jh 4s"))),
}


@pytest.mark.parametrize("kind", [k.name for k in ODDITIES])
def test_each_odd_kind_on_a_hand_worked_position(kind: str) -> None:
    dealt, odd, natural = CASES[kind]
    empty: tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]] = ((), (), ())
    assert kind in [k.name for k in oddities(idx(dealt), empty, odd)]
    assert oddities(idx(dealt), empty, natural) == ()


def test_a_queen_on_top_above_the_middles_pair_is_not_odd() -> None:
    """A queen may pair into Fantasyland: something to gain."""
    empty: tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]] = ((), (), ())
    placement = Placement(top=idx("Qh"), middle=idx("8d 8c"), bottom=idx("4s 2h"))
    assert oddities(idx("Qh 8d 8c 4s 2h"), empty, placement) == ()
