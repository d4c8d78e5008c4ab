"""A reviewed decision as a row of ``decisions``: the one conversion from the review's result
(:class:`ofc_core.play.review.Reviewed`) to :class:`ingest.decisions.DecisionRow`, used by
``ofc review`` and by the dashboard's practice table (which reviews each finished hand).
"""

from __future__ import annotations

from collections.abc import Sequence

from ofc_core.cards import card_of_index
from ofc_core.hand import HandRecord
from ofc_core.play.learned_rollouts import LearnedRollouts
from ofc_core.play.review import (
    REVIEW_POLICY,
    REVIEW_VERSION,
    Reviewed,
    board_text,
    placement_text,
)
from ofc_core.play.rollout import RolloutPolicy
from ofc_core.rules import Ruleset

from .decisions import DecisionRow


def _text(cards: Sequence[int]) -> str:
    return " ".join(str(card_of_index(c)) for c in cards)


def policy_name(policy: RolloutPolicy, ruleset: Ruleset) -> str:
    """The name of the policy that really plays ``ruleset`` (the learned policy falls back to
    best-of-24 where it has no value)."""
    if isinstance(policy, LearnedRollouts):
        value = policy.value_for(ruleset)
        return policy.fallback.name if value is None else f"learned-{value.variant}"
    return policy.name


def decision_row(record: HandRecord, r: Reviewed,
                 policy: RolloutPolicy = REVIEW_POLICY) -> DecisionRow:
    """The row of one reviewed decision of ``record``."""
    e = r.evaluation
    return DecisionRow(
        source=record.source, hand_id=record.hand_id, player=r.player, street=r.street,
        kind=r.kind, board=board_text(r.board), dealt=_text(r.dealt),
        chosen=placement_text(e.chosen.placement),
        chosen_ev=round(e.chosen.ev, 4), chosen_se=round(e.chosen.se, 4),
        best=placement_text(e.best.placement), best_ev=round(e.best.ev, 4),
        best_se=round(e.best.se, 4), ev_lost=round(e.ev_lost, 4), fl_chase=r.fl_chase,
        candidates=e.candidates, rollouts=e.rollouts,
        policy=policy_name(policy, record.ruleset) if r.evaluation.rollouts
        else "fantasyland-solver",
        version=REVIEW_VERSION)
