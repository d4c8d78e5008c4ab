"""Decision review: what each placement of a logged hand was worth, and the best one.

For every street of a player whose dealt cards and placement the log shows, the position is
rebuilt as the player saw it (:func:`ofc_core.play.positions.spots_of`): its own board, the
opponents' rows placed so far (those who act before it this street have placed it already), and
what each seat has left to play. :func:`evaluate` values every legal placement by rollouts
(``ofc_core.play.rollout``) and finds the best:

- rollouts come in rounds on the same deals for every placement (common random numbers); after
  each round a placement whose paired difference to the leader is more than ``z`` standard
  errors below it is dropped, so later rounds go to the close ones;
- the chosen placement is never dropped, so its value and its difference to the best are
  measured on every rollout;
- it stops when one placement is left, when every remaining one is within ``precision`` points
  of the leader at one standard error, or at ``max_rollouts`` per placement;
- a position with nothing left to deal is valued exactly, once; so is one where a single
  seat has its last street to come (the player's own, or an opponent's after the player's last
  street) with at most ``EXACT_OUTCOMES`` deals: every deal once, the exact value under the
  policy;
- the chosen, the best and the placements the rounds cannot tell from it are then valued
  again on fresh deals (the best's value on the rollouts that picked it is biased upwards),
  the close ones on more of them (:attr:`Precision.confirm`), and those values are reported;
  a best whose fresh value is not above the chosen one's is not shown: the chosen is the
  best (:func:`ofc_core.play.review_eval.settle`).

A Fantasyland hand is set in one street (street 1): its set is valued by its rows against the
table, its royalties and the Fantasyland value if it stays (a foul as a foul), and compared with
the setter's (:func:`review_fantasyland`).

Joker and 2-7 tables are reviewed like the others: a 54-card deck (the jokers among the unseen
cards), completion boards scored with the jokers resolved and the 2-7 middle read as a low. What
is not reviewed, and why, is :func:`not_reviewed` (``ofc review`` prints it by reason): a hand
whose positions the log does not show, and a 2-7 Fantasyland set (the exact solver sets poker
middles only).
"""

from __future__ import annotations

import zlib
from collections.abc import Callable
from dataclasses import dataclass, replace

import numpy as np

from ofc_core.hand import HandRecord, StreetPlay, board_from_streets
from ofc_core.play.engine import Cards, Placement, Rows
from ofc_core.play.fl_rows import fantasyland_set_value as fantasyland_set_value
from ofc_core.play.fl_rows import set_by_rows
from ofc_core.play.fl_solver import set_fantasyland
from ofc_core.play.learned_rollouts import LearnedRollouts
from ofc_core.play.lookahead import ahead_values
from ofc_core.play.notation import board_text as board_text
from ofc_core.play.notation import parse_placement as parse_placement
from ofc_core.play.notation import placement_text as placement_text
from ofc_core.play.outcomes import reason
from ofc_core.play.placements import apply, free_slots, legal_placements, same_placement
from ofc_core.play.positions import card_indexes, spots_of, street_placement
from ofc_core.play.review_eval import Alternative as Alternative
from ofc_core.play.review_eval import Evaluation, Valued, exactly, paired_diff, settle, stats
from ofc_core.play.reviewable import DEALT_NOT_LOGGED as DEALT_NOT_LOGGED
from ofc_core.play.reviewable import FINAL_BOARDS as FINAL_BOARDS
from ofc_core.play.reviewable import FL_NOT_LOGGED as FL_NOT_LOGGED
from ofc_core.play.reviewable import FL_SET_27 as FL_SET_27
from ofc_core.play.reviewable import OPPONENT_SURRENDERED as OPPONENT_SURRENDERED
from ofc_core.play.reviewable import SURRENDERED as SURRENDERED
from ofc_core.play.reviewable import ReviewFacts, why_not
from ofc_core.play.rollout import (
    FantasylandValue,
    RolloutPolicy,
    Spot,
    SpotRollouts,
    board_array,
    default_fantasyland_value,
    fl_table,
)
from ofc_core.rules import MiddleKind, Ruleset

REVIEW_VERSION = "8"
"""Bumped when the review's method changes (``ofc review --again`` recomputes older rows)."""

REVIEW_POLICY: RolloutPolicy = LearnedRollouts()
"""How the review plays each rollout: every seat, each remaining street, without seeing its
future cards, by the learned value of the hand's preset (:mod:`ofc_core.play.learned_rollouts`; the
clairvoyant :data:`~ofc_core.play.rollout.BEST_OF_24` where no value fits the hand, such as
``double``)."""

FIRST_ROUND = 24
"""Rollouts per placement in the first round; each later round doubles the total."""


@dataclass(frozen=True)
class Precision:
    """When to stop: ``precision`` points (one standard error of the difference to the
    leader), ``max_rollouts`` per placement, ``z`` standard errors to drop a placement."""

    precision: float = 0.5
    max_rollouts: int = 384
    z: float = 2.0
    shortlist: int = 8
    """With a policy that values a board before any rollout (the learned one: ``prior``),
    only the placements it rates among this many best, and the chosen one, are rolled out."""
    ahead: int = 4
    """And the placements its value rates among this many best one street ahead
    (:func:`~ofc_core.play.lookahead.ahead_values`: a placement the value underrates but the
    next street favours; 0: none)."""
    ahead_samples: int = 16
    """The next street's deals that valuation samples."""
    prior_ties: bool = False
    """Among the placements the rollouts cannot tell from the leader (its lead over each is
    within ``z`` standard errors), take the one the policy's ``prior`` rates highest as best
    (:func:`_tie_break`) instead of the leader. Measured against the deep reference on 56
    first fives: the same best again 61% -> 68%, but 0.34 ± 0.16 points more regret (the
    value's favourite is the worse of a tie more often than not), so not the default
    (docs/review.md, "Version 5, and ties to the learned value")."""
    confirm: int = 4
    """Where the fresh deals cannot tell the best from another placement valued on them (its
    lead within ``z`` paired standard errors), those close ones and the chosen one get more
    fresh deals, doubling, up to ``confirm`` times ``max_rollouts`` each
    (:func:`ofc_core.play.review_eval.settle`; 1: none). With the rounds at 384 a placement,
    the rollouts go where the answer is in doubt for about the CPU version 6 spent
    (docs/review-method.md, docs/benchmarks.md)."""
    tie_se: float = 0.25
    """The close ones' doubling stops once the paired standard error of each against the best
    is below this (:func:`ofc_core.play.review_eval.settle`): within ``z`` of those errors,
    they are a tie to within ``2 * z * tie_se`` points, one point, whatever more deals say
    (0: double them to the cap)."""


DEFAULT_PRECISION = Precision()


_stats = stats


def evaluate(spot: Spot, chosen: Placement, *, policy: RolloutPolicy = REVIEW_POLICY,
             fl_value: FantasylandValue = default_fantasyland_value,
             precision: Precision = DEFAULT_PRECISION, seed: int = 0) -> Evaluation:
    """Value every legal placement of ``spot`` and the ``chosen`` one; the best by rollouts."""
    hero = spot.hero_seat
    placements = legal_placements(spot.dealt, spot.place, free_slots(hero.board))
    chosen_at = next((i for i, p in enumerate(placements) if same_placement(p, chosen)), None)
    if chosen_at is None:
        raise ValueError(f"the chosen placement {chosen} is not legal here")
    rollouts = SpotRollouts(spot, policy, fl_value, seed)
    if rollouts.exact or rollouts.outcomes is not None:
        return _exactly(rollouts, placements, chosen_at)
    history: list[list[np.ndarray]] = [[] for _ in placements]
    facts: list[list[np.ndarray]] = [[] for _ in placements]
    alive = _shortlist(rollouts, placements, chosen_at, precision)
    total = 0
    n_done = 0
    while True:
        size = FIRST_ROUND if n_done == 0 else n_done
        size = max(1, min(size, precision.max_rollouts - n_done))
        block = rollouts.deal(size)
        values, outcomes = rollouts.values_and_facts([placements[a] for a in alive], block)
        total += len(alive) * size
        n_done += size
        for row, a in enumerate(alive):
            history[a].append(values[row])
            facts[a].append(outcomes[row])
        if len(alive) == 1 or n_done >= precision.max_rollouts:
            break
        alive, close = _survivors(history, alive, precision, chosen_at)
        if len(alive) == 1 or close or _found(history, alive, chosen_at):
            break
    runs = {a: np.concatenate(h) for a, h in enumerate(history) if h}
    best_at = max(alive, key=lambda a: float(runs[a].mean()))
    if precision.prior_ties:
        best_at = _tie_break(rollouts, placements, history, alive, best_at, precision)
    size = _fresh_size(history, best_at, chosen_at, n_done, precision) if best_at != chosen_at \
        else 0
    return settle(rollouts, placements, chosen_at, runs,
                  {a: np.concatenate(f) for a, f in enumerate(facts) if f}, best_at,
                  (size, precision.confirm * precision.max_rollouts), precision.z, total,
                  precision.tie_se)


def _shortlist(rollouts: SpotRollouts, placements: list[Placement], chosen_at: int,
               precision: Precision) -> list[int]:
    """The placements worth rolling out: those the policy's ``prior`` rates highest, and
    highest one street ahead (:attr:`Precision.shortlist`, :attr:`Precision.ahead`; every one
    when the policy has no prior), and the chosen one."""
    most = precision.shortlist + max(precision.ahead, 0)
    prior = getattr(rollouts.policy, "prior", None)
    if prior is None or len(placements) <= most + 1:
        return list(range(len(placements)))
    boards = _boards(rollouts, placements)
    spot = rollouts.spot
    fl = fl_table(spot.ruleset, rollouts.fl_value, len(spot.seats))
    values = prior(boards, spot.ruleset, fl)
    if values is None:
        return list(range(len(placements)))
    top = {int(a) for a in np.argsort(-values, kind="stable")[:precision.shortlist]}
    ahead = _ahead(rollouts, boards, fl, precision)
    if ahead is not None:
        top |= {int(a) for a in np.argsort(-ahead, kind="stable")[:precision.ahead]}
    return sorted(top | {chosen_at})


def _boards(rollouts: SpotRollouts, placements: list[Placement]) -> np.ndarray:
    """Hero's board after each of ``placements``, as the value reads boards."""
    board = rollouts.spot.hero_seat.board
    return np.stack([board_array(apply(board, p)) for p in placements])


def _tie_break(rollouts: SpotRollouts, placements: list[Placement],
               history: list[list[np.ndarray]], alive: list[int], leader: int,
               precision: Precision) -> int:
    """The best among the placements ``alive`` whose rollouts cannot tell them from the
    ``leader`` (the paired lead within ``precision.z`` standard errors): the one the policy's
    prior rates highest; the leader when it is alone, or the policy has no prior.

    Two placements 0.2 points apart with a standard error of 0.4 are a tie: the rollouts'
    order of the two is a coin's, the learned value's is the same every time.
    """
    prior = getattr(rollouts.policy, "prior", None)
    runs = {a: np.concatenate(history[a]) for a in alive}
    ties = [leader, *(a for a in alive
                      if a != leader and not _lead(runs[leader], runs[a], precision.z))]
    if prior is None or len(ties) == 1:
        return leader
    spot = rollouts.spot
    fl = fl_table(spot.ruleset, rollouts.fl_value, len(spot.seats))
    values = prior(_boards(rollouts, [placements[a] for a in ties]), spot.ruleset, fl)
    return leader if values is None else ties[int(np.argmax(values))]


def _lead(leader: np.ndarray, other: np.ndarray, z: float) -> bool:
    """Whether ``leader`` is ahead of ``other`` by more than ``z`` standard errors of their
    paired difference.

    >>> _lead(np.array([1.0, 2.0, 3.0]), np.array([0.0, 1.0, 2.0]), 2.0)
    True
    >>> _lead(np.array([1.0, 2.0, 3.0]), np.array([2.0, 0.0, 3.0]), 2.0)
    False
    """
    mean, se = _stats(leader - other)
    return bool(mean > z * se)


def _ahead(rollouts: SpotRollouts, boards: np.ndarray, fl: np.ndarray, precision: Precision
           ) -> np.ndarray | None:
    """The placements' ``boards`` valued one street ahead by the policy's learned value
    (seeded by the rollouts' seed); ``None`` where it has none or no street follows."""
    spot = rollouts.spot
    value_for = getattr(rollouts.policy, "value_for", None)
    value = value_for(spot.ruleset) if value_for is not None else None
    streets = spot.hero_seat.streets
    if value is None or not streets or precision.ahead <= 0:
        return None
    if not value.knows(int((boards[0] >= 0).sum()) + streets[0].placed):
        return None
    return ahead_values(boards, streets[0], np.array(spot.unseen(), np.int8),
                        precision.ahead_samples, np.random.default_rng(rollouts.seed), value,
                        spot.ruleset, fl)


def _exactly(rollouts: SpotRollouts, placements: list[Placement], chosen_at: int) -> Evaluation:
    """Every placement valued on every deal left, once: exact values (no standard error)."""
    block = rollouts.deal(1) if rollouts.exact else rollouts.deal_every()
    values, facts = rollouts.values_and_facts(placements, block)
    return exactly(placements, chosen_at, values.mean(axis=1), facts, len(rollouts.others[block]))


def _found(history: list[list[np.ndarray]], alive: list[int], chosen: int) -> bool:
    """Whether the best is found: only the chosen placement and one other are left, the other
    ahead. What is left to measure is how far ahead, and the fresh deals measure that (more
    rounds here would only be thrown away)."""
    if len(alive) != 2 or chosen not in alive:
        return False
    other = alive[0] if alive[1] == chosen else alive[1]
    return bool(np.concatenate(history[other]).mean() > np.concatenate(history[chosen]).mean())


def _fresh_size(history: list[list[np.ndarray]], best: int, chosen: int, n_done: int,
                precision: Precision) -> int:
    """Fresh deals for the chosen and the best placement: enough for one standard error of
    their paired difference within ``precision`` (by its spread so far), at least as many as
    the rounds dealt, at most ``max_rollouts``.

    >>> runs = [[np.zeros(48)], [np.tile([-5.0, 5.0], 24)]]  # a spread of 5.05 points
    >>> _fresh_size(runs, 1, 0, 48, Precision())  # (5.05 / 0.5) ** 2, rounded up
    103
    """
    diff = paired_diff(np.concatenate(history[best]), np.concatenate(history[chosen]))
    spread = float(diff.std(ddof=1)) if len(diff) > 1 else 0.0
    needed = int(np.ceil((spread / precision.precision) ** 2))
    return min(max(needed, n_done, FIRST_ROUND), precision.max_rollouts)


def _survivors(history: list[list[np.ndarray]], alive: list[int], precision: Precision,
               chosen: int) -> tuple[list[int], bool]:
    """The placements not clearly worse than the leader (and the chosen one, always: its
    value is what the review reports), and whether all of those are within ``precision`` of
    the leader (one standard error of the paired difference)."""
    runs = {a: np.concatenate(history[a]) for a in alive}
    leader = max(alive, key=lambda a: runs[a].mean())
    keep = [leader]
    close = True
    for a in alive:
        if a == leader:
            continue
        if a != chosen and _lead(runs[leader], runs[a], precision.z):
            continue
        keep.append(a)
        close = close and _stats(runs[leader] - runs[a])[1] <= precision.precision
    return sorted(keep), close


# --------------------------------------------------------------------------------------------
# Fantasyland sets


def fantasyland_decision(record: HandRecord, player: str) -> tuple[Cards, Placement] | None:
    """The dealt cards and the set of ``player``'s Fantasyland hand, when the log shows them."""
    me = next((p for p in record.players if p.name == player), None)
    if me is None or not me.fantasyland or not me.streets or me.streets[0].dealt is None:
        return None
    s = me.streets[0]
    return card_indexes(s.dealt), street_placement(s)


FantasylandSetter = Callable[[Cards, Ruleset], Placement]


def review_fantasyland(dealt: Cards, chosen: Placement, ruleset: Ruleset, players: int, *,
                       fl_value: FantasylandValue = default_fantasyland_value,
                       setter: FantasylandSetter = set_fantasyland,
                       policy: RolloutPolicy = REVIEW_POLICY) -> Evaluation:
    """The chosen Fantasyland set against the setter's, both valued by their rows against the
    table (:func:`ofc_core.play.fl_rows.set_by_rows`, the pool of the ``policy``'s learned
    value; exact values, no rollouts), in points against the ``players - 1`` opponents
    together. A set that fouls is valued, and named, as a foul."""
    fl = fl_table(ruleset, fl_value, players)
    opponents = max(players - 1, 1)
    value_for = getattr(policy, "value_for", None)
    value = value_for(ruleset) if value_for is not None else None
    best = setter(dealt, ruleset)
    (mine_ev, mine_facts), (best_ev, best_facts) = (
        set_by_rows(p.rows, ruleset, fl, opponents, len(dealt), value) for p in (chosen, best))
    mine = Valued(chosen, mine_ev, 0.0, 0, mine_facts)
    theirs = Valued(best, best_ev, 0.0, 0, best_facts) if best_ev > mine_ev else mine
    alternatives = tuple(Alternative(v, theirs.ev - v.ev, 0.0)
                         for v in dict.fromkeys((theirs, mine)))
    return Evaluation(mine, theirs, 0, 2, 0.0, alternatives)


def with_streets(record: HandRecord, player: str, streets: tuple[StreetPlay, ...]) -> HandRecord:
    """``record`` with ``player``'s streets replaced (and its board made of them): for tests
    and what-ifs."""
    players = tuple(replace(p, streets=streets, board=board_from_streets(streets))
                    if p.name == player else p for p in record.players)
    return replace(record, players=players)


# --------------------------------------------------------------------------------------------
# A hand's review


FIRST_FIVE, STREET, FANTASYLAND_SET = "first five", "street", "fantasyland set"
"""The kinds of decision: a hand's first street, a later street, a Fantasyland set."""

QUEEN = 10
"""Rank index (``card >> 2``) of a queen."""


@dataclass(frozen=True)
class Reviewed:
    """One decision of a hand, valued."""

    player: str
    street: int
    kind: str
    board: Rows
    """The player's board before the decision."""
    dealt: Cards
    evaluation: Evaluation
    reason: str = ""
    """One sentence from the largest difference between the played and the best (''
    when the played is the best): :func:`ofc_core.play.outcomes.reason`."""

    @property
    def fl_chase(self) -> bool:
        """The best placement aims at Fantasyland: it puts a queen or better on top."""
        return any(c >> 2 >= QUEEN for c in self.evaluation.best.placement.top) and (
            self.kind != FANTASYLAND_SET)


def reason_of(evaluation: Evaluation, ruleset: Ruleset, players: int, staying: bool = False,
              fl_value: FantasylandValue = default_fantasyland_value) -> str:
    """The reason of a decision (:func:`ofc_core.play.outcomes.reason`): a foul weighed as two
    scoops from each opponent (the scoop it loses, and about as much that its rows, counted in
    the rows' points too, would have won), Fantasyland as the first Fantasyland hand's value
    against each."""
    if same_placement(evaluation.best.placement, evaluation.chosen.placement):
        return ""
    fl = fl_table(ruleset, fl_value, players)
    opponents = max(players - 1, 1)
    fl_points = opponents * float(fl[fl > 0].min()) if (fl > 0).any() else 0.0
    return reason(evaluation.chosen.facts, evaluation.best.facts, fl_points,
                  2 * opponents * ruleset.scoring.scoop_value, staying)


def tie_text(evaluation: Evaluation) -> str:
    """``'a tie: A or B'`` naming the best shown and the placements the rollouts cannot tell
    from it (:attr:`Evaluation.tied`); '' when there are none."""
    if not evaluation.tied:
        return ""
    names = [placement_text(p) for p in (evaluation.best.placement, *evaluation.tied)]
    return "a tie: " + " or ".join(names)


def decision_seed(source: str, hand_id: str, player: str, street: int) -> int:
    """The rollouts' seed of one decision: the same decision is always dealt the same cards."""
    return zlib.crc32(f"{source}\x1f{hand_id}\x1f{player}\x1f{street}".encode())


def review_hand(record: HandRecord, player: str, *, policy: RolloutPolicy = REVIEW_POLICY,
                fl_value: FantasylandValue = default_fantasyland_value,
                precision: Precision = DEFAULT_PRECISION,
                setter: FantasylandSetter = set_fantasyland) -> list[Reviewed]:
    """Every decision of ``player`` in ``record`` the log lets us rebuild, valued (none, for
    the reasons :func:`not_reviewed` gives)."""
    out: list[Reviewed] = []
    fl = fantasyland_decision(record, player)
    if fl is not None:
        if not_reviewed(record, player) is not None:
            return out
        dealt, chosen = fl
        evaluation = review_fantasyland(dealt, chosen, record.ruleset, len(record.players),
                                        fl_value=fl_value, setter=setter, policy=policy)
        why = reason_of(evaluation, record.ruleset, len(record.players), True, fl_value)
        out.append(Reviewed(player, 1, FANTASYLAND_SET, ((), (), ()), dealt, evaluation, why))
        return out
    for d in spots_of(record, player):
        seed = decision_seed(record.source, record.hand_id, player, d.street)
        evaluation = evaluate(d.spot, d.chosen, policy=policy, fl_value=fl_value,
                              precision=precision, seed=seed)
        kind = FIRST_FIVE if d.street == 1 else STREET
        why = reason_of(evaluation, record.ruleset, len(record.players), fl_value=fl_value)
        out.append(Reviewed(player, d.street, kind, d.board_before, d.spot.dealt, evaluation,
                            why))
    return out


def not_reviewed(record: HandRecord, player: str) -> str | None:
    """Why :func:`review_hand` finds no decision of ``player`` in ``record`` (``None`` when it
    does), in words ``ofc review`` counts hands by (:func:`ofc_core.play.reviewable.why_not`
    on the record's facts): the player surrendered; its Fantasyland hand's cards are not
    logged, or it is a 2-7 Fantasyland set; a seat's streets are not logged (final boards
    only); an opponent surrendered; the player's dealt cards are not logged."""
    me = next((p for p in record.players if p.name == player), None)
    if me is None:
        return "the player is not seated in the hand"
    streets = me.streets
    return why_not(ReviewFacts(
        surrendered=me.surrendered, fantasyland=me.fantasyland,
        poker_middle=record.ruleset.middle is MiddleKind.HIGH,
        streets_logged=streets is not None,
        dealt_logged=bool(streets) and streets is not None and streets[0].dealt is not None,
        all_streets_logged=all(p.streets is not None for p in record.players),
        someone_surrendered=any(p.surrendered for p in record.players)))
