"""A decision's valuation once the rounds of rollouts are done: the best shown, its paired
noise, the top three placements and the ties named (:func:`settle`, called by
:func:`ofc_core.play.review.evaluate`).

- The chosen placement, the rounds' leader, the next two the rounds cannot tell from the
  leader (their paired difference within ``z`` standard errors) and, when the leader does
  something a strong player would question (:mod:`ofc_core.play.oddities`), the best
  placement without it (the "natural" one), are valued again on the same fresh deals: the
  leader's value on the rounds that chose it is biased upwards (the largest of many noisy
  means).
- While the fresh deals cannot tell their best from another of them (its lead within ``z``
  paired standard errors), those close ones and the chosen get more fresh deals, doubling, up
  to a cap (:func:`_settle_close`): the rollouts go where the answer is in doubt, and a second
  review on other deals finds the same best, or names the same tie, far more often.
- The best shown is the highest on the fresh deals; an odd best is shown only when it leads
  the natural one by more than ``z`` paired standard errors, otherwise the natural one is
  shown and the tie named.
- ``ev_lost_se`` is the standard error of the mean of the per-deal differences between the
  best and the chosen on those common deals (the two values share their deals' luck, so it is
  far smaller than ``sqrt(chosen_se² + best_se²)``).
- The alternatives are the best and the two next by their paired difference to it: on the
  fresh deals where both were valued on them, else on the rounds' deals both were dealt.
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


def paired_diff(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Per-deal ``a - b`` on the deals both were valued on (the first ``min(len)``: every
    placement of a round is valued on the same deals, in order).

    >>> paired_diff(np.array([5.0, 7.0, 9.0, 1.0]), np.array([4.0, 6.0, 8.5]))
    array([1. , 1. , 0.5])
    """
    n = min(len(a), len(b))
    diff: np.ndarray = a[:n] - b[:n]
    return diff


def paired(a: np.ndarray, b: np.ndarray) -> tuple[float, float]:
    """Mean and standard error of :func:`paired_diff`.

    >>> paired(np.array([5.0, 7.0, 9.0, 1.0]), np.array([4.0, 6.0, 8.5]))
    (0.8333333333333334, 0.16666666666666666)
    """
    return stats(paired_diff(a, b))


def _within(leader: np.ndarray, other: np.ndarray, z: float) -> bool:
    """Whether ``leader``'s paired lead over ``other`` is within ``z`` standard errors."""
    lead, se = paired(leader, other)
    return lead <= z * se


def _settle_close(rollouts: SpotRollouts, placements: Sequence[Placement],
                  logs: tuple[dict[int, np.ndarray], dict[int, np.ndarray]], chosen_at: int,
                  n: int, cap: int, z: float, tie_se: float = 0.0) -> int:
    """More fresh deals (doubling, up to ``cap``) for the fresh best and the placements it
    does not lead by more than ``z`` paired standard errors on the first ``n`` fresh deals,
    and the chosen one (its EV lost is measured on every fresh deal). A close one is left out
    of a later doubling only once it is ``z + 1`` errors behind: a tie looked at again and
    again would otherwise stop at the first look that happens to part it (a third of true ties
    on five looks; this way about one in ten, as the final two-error test alone). A placement
    left out once is never dealt again, so every pair stays on common deals. The doubling
    stops once each close one's paired standard error is below ``tie_se``: within ``z`` of
    those errors of the best, it is a tie to within a point whatever more deals say (two
    placements with the same value on every deal, as some are, would otherwise be dealt to
    the cap). Returns the rollouts spent."""
    fresh, facts = logs
    extending = list(fresh)
    spent, first = 0, n
    while n < cap:
        best = max(extending, key=lambda a: float(fresh[a].mean()))
        apart = z if n == first else z + 1
        extending = [a for a in extending
                     if a in (best, chosen_at) or _within(fresh[best], fresh[a], apart)]
        close = [a for a in extending if a not in (best, chosen_at)]
        if all(paired(fresh[best], fresh[a])[1] < tie_se for a in close):
            break
        size = min(n, cap - n)
        values, outcomes = rollouts.values_and_facts([placements[a] for a in extending],
                                                     rollouts.deal(size))
        for row, a in enumerate(extending):
            fresh[a] = np.concatenate([fresh[a], values[row]])
            facts[a] = np.concatenate([facts[a], outcomes[row]])
        spent += len(extending) * size
        n += size
    return spent


def _natural(order: Sequence[int], placements: Sequence[Placement], dealt: Cards,
             board: Rows) -> int | None:
    """The highest-ranked placement in ``order`` without any oddity, ``None`` if none is."""
    return next((a for a in order if not oddities(dealt, board, placements[a])), None)


def settle(rollouts: SpotRollouts, placements: Sequence[Placement], chosen_at: int,
           runs: dict[int, np.ndarray], facts: dict[int, np.ndarray], leader: int,
           sizes: tuple[int, int], z: float, spent: int, tie_se: float = 0.0) -> Evaluation:
    """The decision's :class:`Evaluation` from the rounds' ``runs`` and ``facts`` per
    placement rolled out, their ``leader``; ``sizes``: the fresh deals of the second valuation,
    and the most the close ones get, and ``tie_se`` the paired error that ends their doubling
    (:func:`_settle_close`)."""
    fresh_size, cap = sizes
    spot = rollouts.spot
    dealt, board = spot.dealt, spot.hero_seat.board
    order = sorted(runs, key=lambda a: -float(runs[a].mean()))
    if leader == chosen_at or runs[chosen_at].mean() >= runs[leader].mean():
        return _kept(placements, chosen_at, chosen_at, runs, facts, order, set(), z, spent,
                     ev_lost_se=0.0, odd="")
    fresh_set = [chosen_at, leader, *[a for a in order if a not in (chosen_at, leader)
                                      and _within(runs[leader], runs[a], z)][:KEPT - 1]]
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
    spent += _settle_close(rollouts, placements, (fresh, fresh_facts), chosen_at, fresh_size,
                           cap, z, tie_se)
    longest = max(len(v) for v in fresh.values())
    best_at = max((a for a in fresh_set if len(fresh[a]) == longest),
                  key=lambda a: float(fresh[a].mean()))
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
                 set(fresh_set), z, spent, ev_lost_se=ev_lost_se, odd=odd, rounds=runs)


def _kept(placements: Sequence[Placement], chosen_at: int, best_at: int,
          runs: dict[int, np.ndarray], facts: dict[int, np.ndarray], order: Sequence[int],
          fresh: set[int], z: float, spent: int, *, ev_lost_se: float, odd: str,
          rounds: dict[int, np.ndarray] | None = None) -> Evaluation:
    """The evaluation with the best, the chosen and the top :data:`KEPT` placements: the best
    and the next by their paired difference to it. Those in ``fresh`` are compared on the
    fresh deals (their ``runs`` are those), the others on the ``rounds``' deals (``runs`` when
    there were no fresh deals), each pair on the deals both were dealt."""
    rounds = runs if rounds is None else rounds

    def valued(a: int) -> Valued:
        mean, se = stats(runs[a])
        return Valued(placements[a], mean, se, len(runs[a]), Facts.of(facts[a]))

    def against_best(a: int) -> tuple[float, float]:
        on = runs if a in fresh and best_at in fresh else rounds
        return paired(on[best_at], on[a])

    gaps = {a: against_best(a) for a in order if a != best_at}
    ranked = sorted(gaps, key=lambda a: gaps[a][0])[:KEPT - 1]
    alternatives = [Alternative(valued(best_at), 0.0, 0.0),
                    *(Alternative(valued(a), *gaps[a]) for a in ranked)]
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
