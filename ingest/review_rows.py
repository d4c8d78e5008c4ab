"""A reviewed decision as a row of the ``decisions`` table: the one home of that conversion,
used by ``ofc review`` (embedded) and ``ofc spark review`` (on Spark's executors), so both
write the same row for the same decision.

>>> from ofc_core.play.review import REVIEW_POLICY
>>> from ofc_core.rules import PRESETS
>>> policy_name(REVIEW_POLICY, PRESETS["pineapple"]), policy_name(REVIEW_POLICY, PRESETS["double"])
('learned-pineapple', 'best-of-24')
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
    tie_text,
)
from ofc_core.play.rollout import RolloutPolicy
from ofc_core.rules import Ruleset

from .decisions import AlternativeRow, DecisionRow


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
    """The ``decisions`` row of decision ``r`` of ``record``, reviewed with ``policy``, with its
    top placements (``decision_alternatives``)."""
    e = r.evaluation
    chosen, best = e.chosen.facts, e.best.facts
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
        version=REVIEW_VERSION, ev_lost_se=round(e.ev_lost_se, 4),
        decision_class=e.decision_class, accuracy=e.accuracy,
        **{f"{who}_{name}": round(getattr(facts, name), 4)
           for who, facts in (("chosen", chosen), ("best", best))
           for name in FACT_COLUMNS},
        reason=r.reason, tie_with=tie_text(e),
        alternatives=tuple(AlternativeRow(
            rank, placement_text(a.valued.placement), round(a.valued.ev, 4),
            round(a.valued.se, 4), round(a.diff, 4), round(a.diff_se, 4),
            *(round(getattr(a.valued.facts, n), 4) for n in FACT_COLUMNS))
            for rank, a in enumerate(e.alternatives, start=1)))


FACT_COLUMNS = ("foul", "foul_se", "fl", "fl_se", "royalties", "royalties_se", "rows", "rows_se")
"""The facts of a placement stored per chosen, best and alternative (docs/schema.md)."""
