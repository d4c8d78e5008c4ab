"""A decision's valuation once the rounds of rollouts are done: the best shown, its paired
noise, the top three placements and the ties named (:func:`settle`, called by
:func:`ofc_core.play.review.evaluate`).

- The chosen placement, the rounds' leader, the runner-up and, when the leader does something a
  strong player would question (:mod:`ofc_core.play.oddities`), the best placement without it
  (the "natural" one), are valued again on the same fresh deals: the leader's value on the
  rounds that chose it is biased upwards (the largest of many noisy means).
- The best shown is the highest on the fresh deals; an odd best is shown only when it leads
  the natural one by more than ``z`` paired standard errors, otherwise the natural one is
  shown and the tie named.
- ``ev_lost_se`` is the standard error of the mean of the per-deal differences between the
  best and the chosen on those common deals (the two values share their deals' luck, so it is
  far smaller than ``sqrt(chosen_se² + best_se²)``).
- The alternatives are the three highest: those valued on the fresh deals by them, the others
  by the rounds (their difference to the best on the deals both were dealt there).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from ofc_core.play import accuracy as acc
from ofc_core.play.engine import Cards, Placement, Rows
from ofc_core.play.oddities import oddities
from ofc_core.play.outcomes import Facts
from ofc_core.play.rollout import SpotRollouts

KEPT = 3
"""Placements kept per decision (the best and two alternatives)."""


@dataclass(frozen=True)
class Valued:
    """A placement and its estimated value (points), standard error and rollouts, and the
    outcomes behind the value."""

    placement: Placement
    ev: float
    se: float
    rollouts: int
    facts: Facts = field(default_factory=Facts)


@dataclass(frozen=True)
class Alternative:
    """One of the top placements: its value, and its EV below the best's with the paired
    standard error of that difference (0 and 0 for the best itself)."""

    valued: Valued
    diff: float
    diff_se: float


@dataclass(frozen=True)
class Evaluation:
    chosen: Valued
    best: Valued
    rollouts: int
    """Rollouts spent on the decision (placements times rollouts each)."""
    candidates: int
    ev_lost_se: float = 0.0
    """Paired standard error of :attr:`ev_lost` on the common deals; 0 when exact."""
    alternatives: tuple[Alternative, ...] = ()
    tied: tuple[Placement, ...] = ()
    """Placements the rollouts cannot tell from the best shown (the chosen one among them when
    the decision is a tie): "a tie: best or these"."""
    odd: str = ""
    """The kinds of oddity of a leader not shown as the best (it did not beat the natural
    placement beyond the noise), '' when none."""

    @property
    def ev_lost(self) -> float:
        return max(0.0, self.best.ev - self.chosen.ev)

    @property
    def decision_class(self) -> str:
        return acc.decision_class(self.ev_lost, self.ev_lost_se)

    @property
    def accuracy(self) -> float:
        return acc.accuracy(self.ev_lost, self.ev_lost_se)


def stats(values: np.ndarray) -> tuple[float, float]:
    """Mean and standard error of the mean.

    >>> stats(np.array([1.0, 2.0, 3.0]))
    (2.0, 0.5773502691896258)
    """
    n = len(values)
    se = float(values.std(ddof=1) / np.sqrt(n)) if n > 1 else 0.0
    return float(values.mean()), se


def paired(a: np.ndarray, b: np.ndarray) -> tuple[float, float]:
    """Mean and standard error of ``a - b`` on the deals both were valued on (the first
    ``min(len)``: every placement of a round is valued on the same deals, in order).

    >>> paired(np.array([5.0, 7.0, 9.0, 1.0]), np.array([4.0, 6.0, 8.5]))
    (0.8333333333333334, 0.16666666666666666)
    """
    n = min(len(a), len(b))
    return stats(a[:n] - b[:n])


def _natural(order: Sequence[int], placements: Sequence[Placement], dealt: Cards,
             board: Rows) -> int | None:
    """The highest-ranked placement in ``order`` without any oddity, ``None`` if none is."""
    return next((a for a in order if not oddities(dealt, board, placements[a])), None)


def settle(rollouts: SpotRollouts, placements: Sequence[Placement], chosen_at: int,
           runs: dict[int, np.ndarray], facts: dict[int, np.ndarray], leader: int,
           fresh_size: int, z: float, spent: int) -> Evaluation:
    """The decision's :class:`Evaluation` from the rounds' ``runs`` and ``facts`` per
    placement rolled out, their ``leader``; ``fresh_size`` deals for the second valuation."""
    spot = rollouts.spot
    dealt, board = spot.dealt, spot.hero_seat.board
    order = sorted(runs, key=lambda a: -float(runs[a].mean()))
    if leader == chosen_at or runs[chosen_at].mean() >= runs[leader].mean():
        return _kept(placements, chosen_at, chosen_at, runs, facts, order, set(), z, spent,
                     ev_lost_se=0.0, odd="")
    fresh_set = [chosen_at, leader, *[a for a in order if a not in (chosen_at, leader)][:1]]
    natural = None
    if oddities(dealt, board, placements[leader]):
        natural = _natural(order, placements, dealt, board)
        if natural is not None and natural not in fresh_set:
            fresh_set.append(natural)
    values, new_facts = rollouts.values_and_facts([placements[a] for a in fresh_set],
                                                  rollouts.deal(fresh_size))
    fresh = {a: values[i] for i, a in enumerate(fresh_set)}
    fresh_facts = {a: new_facts[i] for i, a in enumerate(fresh_set)}
    spent += len(fresh_set) * fresh_size
    best_at = max(fresh_set, key=lambda a: float(fresh[a].mean()))
    odd = ""
    kinds = oddities(dealt, board, placements[best_at])
    if kinds:
        natural = _natural(sorted(fresh, key=lambda a: -float(fresh[a].mean())), placements,
                           dealt, board)
        if natural is not None:
            lead, lead_se = paired(fresh[best_at], fresh[natural])
            if lead <= z * lead_se:
                odd = "; ".join(k.name for k in kinds)
                best_at = natural
    if fresh[chosen_at].mean() >= fresh[best_at].mean():
        best_at = chosen_at
    ev_lost_se = paired(fresh[best_at], fresh[chosen_at])[1] if best_at != chosen_at else 0.0
    merged_runs = {**runs, **fresh}
    merged_facts = {**facts, **fresh_facts}
    return _kept(placements, chosen_at, best_at, merged_runs, merged_facts, order,
                 set(fresh_set), z, spent, ev_lost_se=ev_lost_se, odd=odd)


def _kept(placements: Sequence[Placement], chosen_at: int, best_at: int,
          runs: dict[int, np.ndarray], facts: dict[int, np.ndarray], order: Sequence[int],
          fresh: set[int], z: float, spent: int, *, ev_lost_se: float, odd: str
          ) -> Evaluation:
    """The evaluation with the best, the chosen and the top :data:`KEPT` placements. Those in
    ``fresh`` are compared on the fresh deals (their ``runs`` are those), the others on the
    rounds' deals."""
    def valued(a: int) -> Valued:
        mean, se = stats(runs[a])
        return Valued(placements[a], mean, se, len(runs[a]), Facts.of(facts[a]))

    ranked = [best_at, *sorted((a for a in fresh if a != best_at),
                               key=lambda a: -float(runs[a].mean()))]
    ranked += [a for a in order if a not in ranked]
    alternatives = []
    for a in ranked[:KEPT]:
        if a == best_at:
            alternatives.append(Alternative(valued(a), 0.0, 0.0))
            continue
        diff, diff_se = paired(runs[best_at], runs[a])
        alternatives.append(Alternative(valued(a), diff, diff_se))
    best, chosen = valued(best_at), valued(chosen_at)
    tied = [alt.valued.placement for alt in alternatives[1:]
            if alt.diff <= z * alt.diff_se]
    lost = best.ev - chosen.ev
    if best_at != chosen_at and acc.is_tie(lost, ev_lost_se) and chosen.placement not in tied:
        tied.append(chosen.placement)
    return Evaluation(chosen, best, spent, len(placements), round(ev_lost_se, 6),
                      tuple(alternatives), tuple(tied), odd)


def exactly(placements: Sequence[Placement], chosen_at: int, values: np.ndarray,
            facts: np.ndarray, deals: int) -> Evaluation:
    """Every placement valued on every deal left, once: ``values`` ``(m,)`` exact means and
    ``facts`` ``(m, n, 4)`` per deal; no standard error anywhere."""
    order = [int(a) for a in np.argsort(-values, kind="stable")]
    best_at = order[0] if values[order[0]] > values[chosen_at] else chosen_at
    ranked = [best_at, *[a for a in order if a != best_at]][:KEPT]

    def valued(a: int) -> Valued:
        return Valued(placements[a], float(values[a]), 0.0, deals,
                      Facts.of(facts[a]).exactly())

    alternatives = tuple(Alternative(valued(a), float(values[best_at] - values[a]), 0.0)
                         for a in ranked)
    tied = tuple(alt.valued.placement for alt in alternatives[1:] if alt.diff <= 0.0)
    return Evaluation(valued(chosen_at), valued(best_at), deals * len(placements),
                      len(placements), 0.0, alternatives, tied)
