"""How good a decision was, in words and on a 0-100 scale: the review's anchor.

The review measures a decision by its EV lost (``ev_lost``, points) and the standard error of
that loss from the paired per-deal differences on the deals the played and the best placement
were valued on (``ev_lost_se``; 0 for an exact position). Both readings below use only the
part of the loss that the rollouts can tell from noise, :func:`beyond_noise`:

- a **class** (:data:`CLASSES`): ``best`` (the played is the best), ``tie`` (the loss is within
  :data:`NOISE_Z` of its own paired errors: the rollouts cannot tell the two apart), then by
  the loss beyond the noise: ``inaccuracy`` (under :data:`MISTAKE` points), ``mistake`` (under
  :data:`BLUNDER`), ``blunder``;
- an **accuracy**, ``100 * exp(-beyond / SCALE)``: 100 for the best or a tie, 78 a point beyond
  the noise, 37 at four points, near 0 for a loss of a scoop's worth twice over.

Why a decaying curve (as chess sites map an evaluation loss to an accuracy): the scale is
bounded, so one blunder of 30 points does not sink a session's accuracy below zero or swamp
twenty good decisions, and small losses, the ones a good player makes, are told apart finely.
:data:`SCALE` is four points so that the classes fall on round accuracies (an inaccuracy
scores above 78, a mistake 37-78, a blunder under 37). A hand's, session's or day's accuracy
is the plain mean of its decisions' accuracies (:func:`mean_accuracy`; in SQL
``AVG(accuracy)``), as chess sites average their moves'.

:data:`REFERENCE_LEVELS` anchors the scale: the accuracy the review gives the simulated seats
``strong``, ``careful``, ``chaser`` and ``random`` (``benchmarks/bench_review_calibration.py``,
docs/review.md, "Calibration").
"""

from __future__ import annotations

import math
from collections.abc import Iterable

CLASSES: tuple[str, ...] = ("best", "tie", "inaccuracy", "mistake", "blunder")
"""The classes of a decision, from the best to the worst."""

NOISE_Z = 2.0
"""A loss within this many of its own paired standard errors is a tie."""

MISTAKE = 1.0
"""Points lost beyond the noise from which a decision is a mistake (below: an inaccuracy)."""

BLUNDER = 4.0
"""Points lost beyond the noise from which a decision is a blunder."""

SCALE = 4.0
"""Points beyond the noise that take the accuracy from 100 to 100 / e (37)."""

REFERENCE_LEVELS: dict[str, float] = {
    # BEGIN CALIBRATED (written by benchmarks/bench_review_calibration.py --write)
    "strong": 87.29,
    "careful": 69.51,
    "chaser": 75.85,
    "random": 55.04,
    # END CALIBRATED
}
"""The mean decision accuracy of each simulated seat kind reviewed by this version of the review
(``benchmarks/bench_review_calibration.py``): the levels the Review page shows the player's
accuracy beside."""


def beyond_noise(ev_lost: float, ev_lost_se: float) -> float:
    """The points of ``ev_lost`` beyond :data:`NOISE_Z` paired standard errors, never negative.

    >>> beyond_noise(5.62, 0.05)
    5.52
    >>> beyond_noise(1.0, 0.6)
    0.0
    """
    return max(0.0, round(ev_lost - NOISE_Z * ev_lost_se, 10))


def is_tie(ev_lost: float, ev_lost_se: float) -> bool:
    """Whether a positive loss is within the noise: ``ev_lost <= 2 * ev_lost_se``.

    >>> is_tie(0.8, 0.5), is_tie(1.2, 0.5), is_tie(0.0, 0.0)
    (True, False, False)
    """
    return 0.0 < ev_lost <= NOISE_Z * ev_lost_se


def decision_class(ev_lost: float, ev_lost_se: float) -> str:
    """The class of a decision (one of :data:`CLASSES`) by its loss and the loss's paired error.

    >>> decision_class(0.0, 0.0)
    'best'
    >>> decision_class(0.9, 0.5)
    'tie'
    >>> decision_class(0.5, 0.0), decision_class(2.0, 0.25), decision_class(5.62, 0.05)
    ('inaccuracy', 'mistake', 'blunder')
    """
    if ev_lost <= 0.0:
        return "best"
    if is_tie(ev_lost, ev_lost_se):
        return "tie"
    beyond = beyond_noise(ev_lost, ev_lost_se)
    if beyond < MISTAKE:
        return "inaccuracy"
    return "mistake" if beyond < BLUNDER else "blunder"


def accuracy(ev_lost: float, ev_lost_se: float) -> float:
    """A decision's accuracy, 0-100: ``100 * exp(-beyond_noise / SCALE)``, two decimals.

    >>> accuracy(0.0, 0.0), accuracy(0.9, 0.5), accuracy(1.0, 0.0), accuracy(4.0, 0.0)
    (100.0, 100.0, 77.88, 36.79)
    """
    return round(100.0 * math.exp(-beyond_noise(ev_lost, ev_lost_se) / SCALE), 2)


def mean_accuracy(accuracies: Iterable[float]) -> float | None:
    """A hand's, session's or day's accuracy: the mean of its decisions' (``None`` for none).

    >>> mean_accuracy([100.0, 77.88, 36.79])
    71.56
    >>> mean_accuracy([]) is None
    True
    """
    values = list(accuracies)
    return round(sum(values) / len(values), 2) if values else None
