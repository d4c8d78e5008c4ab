"""Ties in the review, when ``Precision.prior_ties`` is on (not the default: docs/review.md,
"Version 5, and ties to the learned value"): placements the rollouts cannot tell from the
leader go to the learned value's favourite."""

from __future__ import annotations

import random

import numpy as np

from ofc_core.play.engine import Table
from ofc_core.play.learned_rollouts import LearnedRollouts
from ofc_core.play.placements import free_slots, legal_placements
from ofc_core.play.policies import policy
from ofc_core.play.positions import spots_of
from ofc_core.play.review import Precision, _boards, _tie_break
from ofc_core.play.rollout import SpotRollouts, fl_table
from ofc_core.play.sessions import SessionSpec, hero_view, play_session
from ofc_core.rules import PRESETS

PRIOR_TIES = Precision(prior_ties=True)


def _first_five() -> tuple[SpotRollouts, list, np.ndarray]:
    """A seeded first five of a three-handed pineapple session, its placements and the
    learned value's rating of each."""
    table = Table(PRESETS["pineapple"], ("Hero", "V1", "V2"),
                  tuple(policy(n) for n in ("careful", "chaser", "careful")))
    record = play_session(table, SessionSpec("ties", hands=1), random.Random(3))[0]
    decision = next(d for d in spots_of(hero_view(record, "Hero"), "Hero") if d.street == 1)
    spot = decision.spot
    placements = legal_placements(spot.dealt, spot.place, free_slots(spot.hero_seat.board))
    rollouts = SpotRollouts(spot, LearnedRollouts(), seed=1)
    fl = fl_table(spot.ruleset, rollouts.fl_value, len(spot.seats))
    prior = LearnedRollouts().prior(_boards(rollouts, placements), spot.ruleset, fl)
    assert prior is not None
    return rollouts, placements, prior


def _runs(means: list[float], spread: float, n: int = 48) -> list[list[np.ndarray]]:
    """Rollout values with the given means, the same noise for each placement (paired)."""
    noise = np.random.default_rng(0).normal(0.0, spread, n)
    return [[mean + noise + np.random.default_rng(i).normal(0.0, 1.0, n)]
            for i, mean in enumerate(means)]


def test_a_tie_goes_to_the_placement_the_learned_value_rates_higher() -> None:
    rollouts, placements, prior = _first_five()
    low, high = (int(a) for a in np.argsort(prior)[[0, -1]])
    alive = sorted({low, high})
    means = [0.0] * len(placements)
    means[low], means[high] = 0.1, 0.0  # the low-rated one leads by a hair: a tie
    history = _runs(means, 3.0)
    history = [h if a in alive else [] for a, h in enumerate(history)]
    assert _tie_break(rollouts, placements, history, alive, low, PRIOR_TIES) == high


def test_a_clear_lead_is_not_a_tie() -> None:
    rollouts, placements, prior = _first_five()
    low, high = (int(a) for a in np.argsort(prior)[[0, -1]])
    means = [0.0] * len(placements)
    means[low] = 5.0  # five points ahead with a standard error of about 0.15
    history = _runs(means, 3.0)
    alive = sorted({low, high})
    history = [h if a in alive else [] for a, h in enumerate(history)]
    assert _tie_break(rollouts, placements, history, alive, low, PRIOR_TIES) == low
