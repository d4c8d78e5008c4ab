"""A Fantasyland set valued by its rows: what the review counts a set as worth.

The exact solver (:mod:`ofc_core.play.fl_solver`) sets the board that maximizes its royalties
plus the value of staying; the review values a set (the solver's and the one played) as a board
of the table: against each opponent, the expected points of its rows and scoops and the
royalties' net, read from the row strengths of a pool of finished boards of simulated play
(:meth:`ofc_core.play.value.PositionValue.terminal`, the learned value's own terminal value,
rows taken as independent), plus the Fantasyland value of the stay against each opponent. A
set that fouls loses a scoop and the pool's royalties to every opponent that does not foul,
and is named a foul (its :class:`~ofc_core.play.outcomes.Facts` say it fouls). Where no
learned value fits the table (``double``), the pool is missing and the set is valued by the
solver's objective, a foul costing a scoop from each opponent
(:func:`fantasyland_set_value`).

How far the two differ on 1,000 seeded deals: ``python benchmarks/bench_fl_rows.py``
(docs/fantasyland.md).
"""

from __future__ import annotations

import numpy as np

from ofc_core.batch import fantasyland_next
from ofc_core.batch_boards import score_boards_under
from ofc_core.play.engine import Rows
from ofc_core.play.outcomes import Facts
from ofc_core.play.rollout import board_array
from ofc_core.play.value import PositionValue
from ofc_core.rules import Ruleset


def _stay(ruleset: Ruleset, board: np.ndarray, dealt: int) -> tuple[bool, int, int]:
    """Whether the board fouls, its royalties, and the Fantasyland cards it stays with."""
    scores = score_boards_under(board, ruleset)
    stay = fantasyland_next(ruleset, scores.strengths, scores.fouled, scores.royalties,
                            np.ones(1, bool), np.full(1, dealt, np.int8))
    return bool(scores.fouled[0]), int(scores.royalties[0].sum()), int(stay[0])


def fantasyland_set_value(rows: Rows, ruleset: Ruleset, fl_values: np.ndarray,
                          foul_cost: float, opponents: int = 1, dealt: int = 0) -> float:
    """The solver's objective for a set: its royalties plus the value of the Fantasyland hand
    it earns by staying (``fl_values`` per opponent; a stay under ``fl_repeat: entry`` is dealt
    the ``dealt`` cards again), from each of its ``opponents``; ``-foul_cost`` if it fouls.
    Jokers are resolved by the table's rule: here three queens on top would beat the middle's
    kings (a foul), so the joker makes a pair of queens (7), from each of two opponents.

    >>> from ofc_core.rules import PRESETS
    >>> from ofc_core.cards import parse_cards
    >>> def cards(text): return tuple(c.index for c in parse_cards(text))
    >>> rows = (cards("Qh Qd X1"), cards("Ks Kd 9s 5h 3c"), cards("Ah Ad Ac 4s 2d"))
    >>> fl = np.zeros(18)
    >>> fantasyland_set_value(rows, PRESETS["joker-pineapple"], fl, 12.0, opponents=2)
    14.0
    """
    fouled, royalties, stay = _stay(ruleset, board_array(rows)[None], dealt)
    if fouled:
        return -foul_cost
    return float(opponents * (royalties + fl_values[stay]))


def set_by_rows(rows: Rows, ruleset: Ruleset, fl_values: np.ndarray, opponents: int,
                dealt: int, value: PositionValue | None) -> tuple[float, Facts]:
    """A set's value by its rows against ``opponents`` opponents of ``value``'s pool, plus the
    stay's Fantasyland value against each; and its facts (foul, stay, royalties, rows and
    scoops with the royalties' net, per the table). Exact (no error).

    >>> from ofc_core.rules import PRESETS
    >>> from ofc_core.cards import parse_cards
    >>> from ofc_core.play.value import load_value
    >>> def cards(text): return tuple(c.index for c in parse_cards(text))
    >>> strong = (cards("Qh Qd 2c"), cards("Ks Kd 9s 9h 3c"), cards("Ah Ad Ac 4s 4d"))
    >>> fouled = (cards("Ah Ad Ac"), cards("Ks Kd 9s 9h 3c"), cards("Qh Qd 2c 4s 4d"))
    >>> value = load_value("pineapple")
    >>> v, f = set_by_rows(strong, PRESETS["pineapple"], np.zeros(18), 2, 14, value)
    >>> v > 2 * f.royalties, f.foul, f.royalties
    (True, 0.0, 13.0)
    >>> v, f = set_by_rows(fouled, PRESETS["pineapple"], np.zeros(18), 2, 14, value)
    >>> v < -2 * 6, f.foul
    (True, 1.0)
    """
    board = board_array(rows)[None]
    fouled, royalties, stay = _stay(ruleset, board, dealt)
    fl = float(opponents * fl_values[stay]) if not fouled else 0.0
    if value is None:
        total = fantasyland_set_value(rows, ruleset, fl_values,
                                      ruleset.scoring.scoop_value * opponents, opponents, dealt)
        points = total - fl - opponents * royalties
    else:
        per = float(value.terminal(board, ruleset, np.zeros_like(fl_values))[0]) / value.opponents
        mine = 0 if fouled else royalties
        points = opponents * (per - mine + (1 - value.pool.fouled) * value.pool.royalties)
        total = opponents * per + fl
    facts = Facts(foul=float(fouled), fl=float(stay > 0), royalties=float(royalties),
                  rows=round(points, 4))
    return total, facts
