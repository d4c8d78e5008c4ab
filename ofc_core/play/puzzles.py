"""Puzzles from reviewed decisions: the position a player faced, and an answer valued by the
review's own code on the same common deals as the stored decision.

The position is rebuilt from the hand's record as the review rebuilds it
(:func:`ofc_core.play.positions.spots_of`); the answer is valued by
:func:`ofc_core.play.review.evaluate` with the decision's own seed
(:func:`~ofc_core.play.review.decision_seed`), so the rollouts deal the same cards the review
dealt when it valued what was played. An answer is **solved** when its EV is within the noise of
the best's: its class (:func:`ofc_core.play.accuracy.decision_class`) is ``best`` or ``tie``.

>>> import random
>>> from ofc_core.rules import PRESETS
>>> from ofc_core.play.engine import Table
>>> from ofc_core.play.policies import policy
>>> from ofc_core.play.sessions import SessionSpec, play_session
>>> table = Table(PRESETS["pineapple"], ("ann", "bob"), (policy("careful"), policy("careful")))
>>> record = play_session(table, SessionSpec("p", hands=1), random.Random(2))[0]
>>> spot = position(record, "ann", 5)
>>> spot.street, len(spot.spot.dealt)
(5, 3)
>>> answer = value_answer(record, "ann", 5, spot.chosen)
>>> answer.solved, answer.ev_lost >= 0
(True, True)
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass, replace

from ofc_core.hand import HandRecord
from ofc_core.play.accuracy import NOISE_Z, decision_class
from ofc_core.play.engine import CubeView, Placement, Policy, Table, View, play_hand
from ofc_core.play.policies import policy
from ofc_core.play.positions import Decision, spots_of
from ofc_core.play.practice import YourTurn
from ofc_core.play.review import decision_seed, evaluate
from ofc_core.play.review_eval import Evaluation
from ofc_core.play.sessions import SessionSpec, hand_record, score_played
from ofc_core.rules import Ruleset


def position(record: HandRecord, player: str, street: int) -> Decision | None:
    """The decision of ``player`` at ``street`` (1-based) as the review rebuilt it; ``None``
    when the log does not show it."""
    return next((d for d in spots_of(record, player) if d.street == street), None)


@dataclass(frozen=True)
class Answer:
    """An answer valued: the review's evaluation (the answer as its ``chosen``), its EV below
    the best, the noise of that difference (``NOISE_Z`` standard errors), solved or not."""

    evaluation: Evaluation
    ev_lost: float
    noise: float
    decision_class: str

    @property
    def solved(self) -> bool:
        return self.decision_class in ("best", "tie")


def value_answer(record: HandRecord, player: str, street: int, answer: Placement) -> Answer:
    """Value ``answer`` at the decision (``ValueError`` when the position cannot be rebuilt or
    the answer is not legal there), on the decision's common deals."""
    found = position(record, player, street)
    if found is None:
        raise ValueError(f"street {street} of {player} cannot be rebuilt from the hand")
    seed = decision_seed(record.source, record.hand_id, player, street)
    e = evaluate(found.spot, answer, seed=seed)
    se = getattr(e, "ev_lost_se", None)
    if se is None:  # a review without paired errors: the two values' errors taken apart
        se = math.hypot(e.chosen.se, e.best.se)
    return Answer(e, e.ev_lost, NOISE_Z * se, decision_class(e.ev_lost, se))


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
