"""Why a placement is worth what it is: the player's outcomes counted on the review's own
rollouts, and one sentence of reason from the largest difference between two placements.

Each rollout the review scores (:meth:`ofc_core.play.rollout.SpotRollouts.values_and_facts`)
also yields, for the player's seat, the four :data:`FACTS`: whether its board fouled, whether
it reached (or stayed in) Fantasyland, its royalties, and its points from rows and scoops
(the row points and scoop bonuses against every opponent, before caps; royalties and
Fantasyland apart). Their means over a placement's rollouts, with standard errors, are its
:class:`Facts`: nothing is rolled out twice.

>>> f = Facts.of(np.array([[1, 0, 0, -6], [0, 1, 7, 3], [0, 0, 2, 1], [0, 0, 0, -1]], float))
>>> f.foul, f.fl, f.royalties, f.rows
(0.25, 0.25, 2.25, -0.75)
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ofc_core.batch import RecordScores

FACTS = ("foul", "fl", "royalties", "rows")
"""The facts of one rollout, in the order of the last axis of the arrays here."""


def seat_facts(scores: RecordScores, seat: int, count: int) -> np.ndarray:
    """``(N, 4)``: the :data:`FACTS` of ``seat`` in ``N`` scored hands of ``count`` seats."""
    rows = (scores.row_points[:, seat, :count].sum(axis=1)
            + scores.bonus[:, seat, :count].sum(axis=1))
    return np.stack([scores.fouled[:, seat], scores.fantasyland_next[:, seat] > 0,
                     scores.royalties[:, seat].sum(axis=1), rows], axis=1).astype(np.float64)


@dataclass(frozen=True)
class Facts:
    """A placement's outcomes: chance to foul and to reach (or stay in) Fantasyland (0-1),
    expected royalties and points from rows and scoops, each with its standard error."""

    foul: float = 0.0
    foul_se: float = 0.0
    fl: float = 0.0
    fl_se: float = 0.0
    royalties: float = 0.0
    royalties_se: float = 0.0
    rows: float = 0.0
    rows_se: float = 0.0

    @staticmethod
    def of(facts: np.ndarray) -> Facts:
        """The means and standard errors of ``(n, 4)`` rollouts' facts (exact when ``n`` is
        every deal: pass ``exact`` errors of 0 by :meth:`exactly`)."""
        n = len(facts)
        means = facts.mean(axis=0)
        ses = facts.std(axis=0, ddof=1) / np.sqrt(n) if n > 1 else np.zeros(len(FACTS))
        return Facts(*(round(float(v), 4) for pair in zip(means, ses, strict=True)
                       for v in pair))

    def exactly(self) -> Facts:
        """The same means, with no error (a position valued on every deal left)."""
        return Facts(self.foul, 0.0, self.fl, 0.0, self.royalties, 0.0, self.rows, 0.0)


def _percent(p: float) -> str:
    return f"{100 * p:.0f}%"


def reason(chosen: Facts, best: Facts, fl_points: float, foul_points: float,
           staying: bool = False) -> str:
    """One sentence from the largest difference between the ``chosen`` and the ``best``
    placement, each difference weighed in points: a foul by ``foul_points`` (what a foul
    costs, about a scoop against each opponent), Fantasyland by ``fl_points`` (its value
    against the table), royalties and rows as they are. ``''`` when none differs.

    >>> a, b = Facts(foul=0.31, royalties=2.0), Facts(foul=0.09, royalties=2.5)
    >>> reason(a, b, fl_points=33.6, foul_points=12.0)
    'fouls 31% against 9%'
    >>> reason(Facts(fl=0.1), Facts(fl=0.3), fl_points=33.6, foul_points=12.0)
    'reaches Fantasyland 10% against 30%'
    >>> reason(Facts(rows=-1.5), Facts(rows=2.0), fl_points=33.6, foul_points=12.0)
    'wins -1.5 points on the rows against 2.0'
    >>> reason(Facts(), Facts(), 33.6, 12.0)
    ''
    """
    weighed = [
        (abs(chosen.foul - best.foul) * foul_points,
         f"fouls {_percent(chosen.foul)} against {_percent(best.foul)}"),
        (abs(chosen.fl - best.fl) * fl_points,
         f"{'stays in' if staying else 'reaches'} Fantasyland {_percent(chosen.fl)} against "
         f"{_percent(best.fl)}"),
        (abs(chosen.royalties - best.royalties),
         f"royalties {chosen.royalties:.1f} points against {best.royalties:.1f}"),
        (abs(chosen.rows - best.rows),
         f"wins {chosen.rows:.1f} points on the rows against {best.rows:.1f}"),
    ]
    size, sentence = max(weighed, key=lambda w: w[0])
    return sentence if size > 0.005 else ""
