"""Puzzles from reviewed decisions: the position a player faced, and an answer valued by the
review's own code on the same common deals as the stored decision.

The position is rebuilt from the hand's record as the review rebuilt it
(:func:`ofc_core.play.positions.spots_of`). An answer to a puzzle (:func:`answer_puzzle`) is
compared with the stored decision's best on the decision's own deals: the review's rollouts
(:class:`~ofc_core.play.rollout.SpotRollouts` with the review's policy and the decision's seed,
:func:`~ofc_core.play.review.decision_seed`) deal the cards the review's rounds dealt every
placement it rolled out (the played one among them), in the same blocks (24, then doubling),
and the answer and the best are valued on each block, paired, until the difference's standard
error is within the review's precision (:data:`~ofc_core.play.review.DEFAULT_PRECISION`, half
a point) or the review's most rollouts a placement are dealt; a position with every deal
countable is valued exactly, as the review values it. The answer that was played, or the best,
takes the stored values as they are (no rollout): the verdict the review gave.

Only two placements are rolled out, so a first five is answered in a fraction of a second
(``benchmarks/bench_train.py``), where reviewing it again with the answer as the choice
(:func:`value_answer`, what a drill does: there is no stored best) rolls out a dozen. An
answer is **solved** when it is within the noise of the best: its class
(:func:`ofc_core.play.accuracy.decision_class`) is ``best`` or ``tie``.

>>> import random
>>> from ofc_core.rules import PRESETS
>>> from ofc_core.play.engine import Table
>>> from ofc_core.play.policies import policy
>>> from ofc_core.play.sessions import SessionSpec, play_session
>>> table = Table(PRESETS["pineapple"], ("ann", "bob"), (policy("careful"), policy("careful")))
>>> record = play_session(table, SessionSpec("p", hands=1), random.Random(2))[0]
>>> spot = position(record, "ann", 2)
>>> spot.street, len(spot.spot.dealt)
(2, 3)
>>> reviewed = value_answer(record, "ann", 2, spot.chosen)
>>> stored = Stored(spot.chosen, reviewed.ev, reviewed.best, reviewed.best_ev,
...                 reviewed.ev_lost, reviewed.noise / NOISE_Z, "")
>>> answer_puzzle(record, "ann", 2, reviewed.best, stored).solved
True
>>> again = answer_puzzle(record, "ann", 2, spot.chosen, stored)
>>> (again.ev_lost, again.decision_class) == (reviewed.ev_lost, reviewed.decision_class)
True
>>> other = next(p for p in legal_placements(spot.spot.dealt, 2, free_slots(spot.board_before))
...              if not same_placement(p, spot.chosen) and not same_placement(p, reviewed.best))
>>> mine = answer_puzzle(record, "ann", 2, other, stored)
>>> mine.ev_lost >= 0 and mine.rollouts > 0 and mine.best == reviewed.best
True
"""

from __future__ import annotations

import random
from dataclasses import dataclass, replace

import numpy as np

from ofc_core.hand import HandRecord
from ofc_core.play.accuracy import NOISE_Z, decision_class
from ofc_core.play.engine import CubeView, Placement, Policy, Table, View, play_hand
from ofc_core.play.outcomes import Facts
from ofc_core.play.placements import free_slots, legal_placements, same_placement
from ofc_core.play.policies import policy
from ofc_core.play.positions import Decision, spots_of
from ofc_core.play.practice import YourTurn
from ofc_core.play.review import (
    DEFAULT_PRECISION,
    FIRST_ROUND,
    REVIEW_POLICY,
    Precision,
    decision_seed,
    evaluate,
    reason_of,
)
from ofc_core.play.review_eval import Evaluation, Valued, stats
from ofc_core.play.rollout import SpotRollouts, default_fantasyland_value
from ofc_core.play.sessions import SessionSpec, hand_record, score_played
from ofc_core.rules import Ruleset


def position(record: HandRecord, player: str, street: int) -> Decision | None:
    """The decision of ``player`` at ``street`` (1-based) as the review rebuilt it; ``None``
    when the log does not show it."""
    return next((d for d in spots_of(record, player) if d.street == street), None)


@dataclass(frozen=True)
class Stored:
    """The stored decision a puzzle is made of: the placement played and the best with their
    EVs, the EV lost and its paired standard error, the review's reason."""

    chosen: Placement
    chosen_ev: float
    best: Placement
    best_ev: float
    ev_lost: float
    ev_lost_se: float
    reason: str


@dataclass(frozen=True)
class Answer:
    """An answer valued: its EV, the best's and the EV lost below it, the noise of that
    difference (:data:`NOISE_Z` standard errors), the class, why it lost (the review's
    words: foul, Fantasyland, royalties, rows; '' when it did not) and the rollouts spent."""

    ev: float
    best: Placement
    best_ev: float
    ev_lost: float
    noise: float
    decision_class: str
    reason: str
    rollouts: int

    @property
    def solved(self) -> bool:
        return self.decision_class in ("best", "tie")


def _spot(record: HandRecord, player: str, street: int, answer: Placement) -> Decision:
    """The decision, with ``answer`` checked legal there (``ValueError`` otherwise)."""
    found = position(record, player, street)
    if found is None:
        raise ValueError(f"street {street} of {player} cannot be rebuilt from the hand")
    spot = found.spot
    legal = legal_placements(spot.dealt, spot.place, free_slots(spot.hero_seat.board))
    if not any(same_placement(p, answer) for p in legal):
        raise ValueError(f"the answer {answer} is not legal here")
    return found


def value_answer(record: HandRecord, player: str, street: int, answer: Placement) -> Answer:
    """Value ``answer`` at the decision by reviewing it again with ``answer`` as the choice
    (``ValueError`` when the position cannot be rebuilt or the answer is not legal there): what
    the review would have said had it been played. A drill's answer, with no stored best."""
    found = _spot(record, player, street, answer)
    seed = decision_seed(record.source, record.hand_id, player, street)
    e = evaluate(found.spot, answer, seed=seed)
    se = e.ev_lost_se  # paired on the fresh deals; 0 when exact or the answer is the best
    why = reason_of(e, record.ruleset, len(record.players))
    return Answer(e.chosen.ev, e.best.placement, e.best.ev, e.ev_lost, NOISE_Z * se,
                  decision_class(e.ev_lost, se), why, e.rollouts)


def answer_puzzle(record: HandRecord, player: str, street: int, answer: Placement,
                  stored: Stored, precision: Precision = DEFAULT_PRECISION) -> Answer:
    """Value ``answer`` against the ``stored`` decision's best on the decision's common deals
    (the module's docstring); ``ValueError`` when the position cannot be rebuilt or the answer
    is not legal there."""
    found = _spot(record, player, street, answer)
    if same_placement(answer, stored.chosen):
        return Answer(stored.chosen_ev, stored.best, stored.best_ev, stored.ev_lost,
                      NOISE_Z * stored.ev_lost_se,
                      decision_class(stored.ev_lost, stored.ev_lost_se), stored.reason, 0)
    if same_placement(answer, stored.best):
        return Answer(stored.best_ev, stored.best, stored.best_ev, 0.0, 0.0, "best", "", 0)
    seed = decision_seed(record.source, record.hand_id, player, street)
    rollouts = SpotRollouts(found.spot, REVIEW_POLICY, default_fantasyland_value, seed)
    values, facts = _paired(rollouts, (stored.best, answer), precision)
    lost, se = stats(values[0] - values[1])
    exact = rollouts.exact or rollouts.outcomes is not None
    if exact:
        se = 0.0
    n = values.shape[1]
    best, mine = (Valued(p, float(v.mean()), 0.0, n, _facts(f, exact))
                  for p, v, f in zip((stored.best, answer), values, facts, strict=True))
    why = reason_of(Evaluation(mine, best, 2 * n, 2), record.ruleset, len(record.players))
    ev_lost = max(0.0, lost)
    return Answer(stored.best_ev - lost, stored.best, stored.best_ev, ev_lost, NOISE_Z * se,
                  decision_class(ev_lost, se), why if ev_lost > 0 else "", 2 * n)


def _paired(rollouts: SpotRollouts, placements: tuple[Placement, Placement],
            precision: Precision) -> tuple[np.ndarray, np.ndarray]:
    """The two ``placements``' values ``(2, n)`` and facts ``(2, n, 4)`` on the decision's
    deals: every deal once where the review counts them all, else the review's blocks (24,
    then doubling) until their paired difference's standard error is within ``precision``
    or ``precision.max_rollouts`` deals are dealt."""
    if rollouts.exact or rollouts.outcomes is not None:
        block = rollouts.deal(1) if rollouts.exact else rollouts.deal_every()
        return rollouts.values_and_facts(placements, block)
    values: list[np.ndarray] = []
    facts: list[np.ndarray] = []
    n_done = 0
    while n_done < precision.max_rollouts:
        size = min(FIRST_ROUND if n_done == 0 else n_done, precision.max_rollouts - n_done)
        v, f = rollouts.values_and_facts(placements, rollouts.deal(size))
        values.append(v)
        facts.append(f)
        n_done += size
        both = np.concatenate(values, axis=1)
        if n_done > 1 and stats(both[0] - both[1])[1] <= precision.precision:
            break
    return np.concatenate(values, axis=1), np.concatenate(facts, axis=1)


def _facts(facts: np.ndarray, exact: bool) -> Facts:
    found = Facts.of(facts)
    return found.exactly() if exact else found


# --------------------------------------------------------------------------------------------
# Drills: positions dealt fresh


DRILL_SOURCE = "drill"
DRILL_PLAYER = "you"


class _Until:
    """A seat that plays as ``policy`` before street ``street`` (0-based), gives the person's
    ``answer`` there (raising :class:`~ofc_core.play.practice.YourTurn` without one) and plays
    as ``policy`` again after it."""

    name = DRILL_PLAYER

    def __init__(self, policy: Policy, street: int, answer: Placement | None) -> None:
        self.policy, self.street, self.answer = policy, street, answer

    def place(self, view: View, rng: random.Random) -> Placement:
        if view.street != self.street:
            return self.policy.place(view, rng)
        if self.answer is None:
            raise YourTurn(view)
        return self.answer

    def offers_double(self, cube: CubeView, rng: random.Random) -> bool:
        return False

    def accepts_double(self, cube: CubeView, rng: random.Random) -> bool:
        return True


def drill(ruleset: Ruleset, street: int, seed: int,
          answer: Placement | None = None) -> YourTurn | HandRecord:
    """A fresh position at ``street`` (1-based) of a heads-up hand dealt by ``seed``, both
    seats played by ``careful`` before it: the person's turn, or (with ``answer``) the hand
    played to its end with that answer, as a record whose decision :func:`value_answer`
    values (source :data:`DRILL_SOURCE`, hand id ``drill-<seed>``).

    >>> from ofc_core.rules import PRESETS
    >>> from ofc_core.play.placements import legal_placements
    >>> turn = drill(PRESETS["pineapple"], 3, 7)
    >>> turn.view.street, len(turn.view.dealt), [len(r) for r in turn.view.board]
    (2, 3, [2, 3, 2])
    >>> record = drill(PRESETS["pineapple"], 3, 7, legal_placements(turn.view.dealt, 2,
    ...                                                           turn.view.free)[0])
    >>> position(record, DRILL_PLAYER, 3).spot.dealt == turn.view.dealt
    True
    """
    if not 1 <= street <= len(ruleset.dealing.streets):
        raise ValueError(f"{ruleset.variant.value} deals {len(ruleset.dealing.streets)} streets")
    person = _Until(policy("careful"), street - 1, answer)
    table = Table(ruleset, (DRILL_PLAYER, "careful"), (person, policy("careful")))
    try:
        played = play_hand(table, 1, (0, 0), random.Random(seed))
    except YourTurn as turn:
        return turn
    spec = SessionSpec("drill", hands=1, source=DRILL_SOURCE)
    points = score_played(table, [played])[0]
    record = hand_record(table, spec, 1, played, points, "2026-01-01T00:00:00+00:00")
    return replace(record, hand_id=f"drill-{seed}")
