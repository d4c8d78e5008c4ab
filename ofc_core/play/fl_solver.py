"""The exact Fantasyland solver: the best way to set 13 of a Fantasyland hand's 13-17 cards.

A Fantasyland player sees all its cards at once and sets a top (3 cards), a middle and a bottom
(5 each), discarding the rest. :func:`solve_fantasyland` returns the set that maximises

    royalties (top + middle + bottom) + ``stay_value`` if the set stays in Fantasyland

among the sets that do not foul (top <= middle <= bottom), with its value. Staying is the
ruleset's stay rule (``Ruleset.fantasyland_cards`` for a player in Fantasyland); royalties are
the ruleset's royalty table. Among sets of equal value the one with the strongest bottom, then
the strongest middle, then the strongest top is returned (it wins the most rows).

How it is exact and fast: every 5-card and 3-card subset of the hand is evaluated at once with
the batch scorer's lookup tables (:func:`ofc_core.row_tables.row_tables`,
:func:`ofc_core.batch_boards.royalty_array`). A row's royalty and its part of the stay rule
depend only on its strength class (``strength >> 16``: category and lead rank), so each subset's
royalty and stay flag are read from per-class arrays. Bottoms are searched strongest bound
first: a bottom's bound is its royalty plus the most any middle and any top at most as strong
could earn, plus the stay value if any of them could stay. Once the best set found is worth more
than a bottom's bound, that bottom and every later one are skipped; within a bottom, each middle
gets the same kind of bound, and only the middles that can still win are completed with their
best top (every top of the cards left, at most as strong as the middle). Nothing that could be
best is skipped, so the result is the optimum (``tests/test_fl_solver.py`` checks it against a
brute force over every arrangement). A hand with jokers (``X1``, ``X2`` at a joker table) is
solved by :mod:`ofc_core.play.fl_jokers` on top of this search (the search itself:
:mod:`ofc_core.play.fl_search`).

>>> from ofc_core.cards import parse_cards
>>> from ofc_core.rules import PRESETS
>>> best = solve_fantasyland(parse_cards("As Ad Ac Kh Kd Qs Qh 9h 8h 7h 6h 5h 2c 3d"),
...                          PRESETS["pineapple"], stay_value=10)
>>> best.compact(), best.royalties, best.stays, best.value
('KhKd3d-AsAdAcQsQh-9h8h7h6h5h', (8, 12, 15), True, 45.0)
>>> [str(DECK[c]) for c in best.discard]
['2c']
"""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np

from ofc_core.board import Board
from ofc_core.cards import DECK, Card, Joker, card_of_index
from ofc_core.evaluate import Strength
from ofc_core.play import fl_value
from ofc_core.play.engine import Placement
from ofc_core.play.fl_jokers import solve_with_jokers
from ofc_core.play.fl_search import (
    MAX_CARDS,
    MIN_CARDS,
    FantasylandSet,
    _Best,
    _Layout,
    _layout,
    _Rows,
    _rows,
    _search,
    card_indexes,
)
from ofc_core.rules import MiddleKind, Ruleset

__all__ = ["MAX_CARDS", "MIN_CARDS", "DECK", "FantasylandSet", "card_indexes",
           "set_fantasyland", "solve_fantasyland"]


def solve_fantasyland(cards: Iterable[int | Card | Joker], ruleset: Ruleset,
                      stay_value: float | None = None) -> FantasylandSet:
    """The best set of a Fantasyland hand (13-17 cards, indexes or :class:`Card` values) under
    ``ruleset``: the most royalties plus ``stay_value`` if it stays, without a foul.

    ``stay_value`` is what staying in Fantasyland is worth, in points; by default the measured
    value of the Fantasyland hand the player would get
    (:func:`ofc_core.play.fl_value.stay_value`). At a joker table the cards may hold its jokers
    (indexes 52, 53 or :class:`Joker` values): :func:`ofc_core.play.fl_jokers.solve_with_jokers`.

    >>> from ofc_core.cards import parse_cards
    >>> from ofc_core.rules import PRESETS
    >>> deal = parse_cards("2h 2d 2c Th Tc 3s 4s 5s 6s 7c Kd Qh 9s 8d")
    >>> best = solve_fantasyland(deal, PRESETS["pineapple"], stay_value=0)
    >>> best.compact(), best.value  # a flush in the middle over 222-TT: 8 + 6
    ('KdQh8d-9s6s5s4s3s-ThTc2h2d2c', 14.0)
    """
    if not solves(ruleset):
        raise ValueError(f"the Fantasyland solver does not solve {ruleset.middle.value} middles "
                         f"({ruleset.variant.value})")
    indexes = card_indexes(cards, ruleset.jokers)
    if stay_value is None:
        stay_value = fl_value.stay_value(ruleset)
    if max(indexes) >= 52:
        return solve_with_jokers(indexes, ruleset, float(stay_value))
    hand = np.array(sorted(indexes), np.int64)
    layout = _layout(len(hand))
    rows = _rows(hand, layout, ruleset)
    best = _search(layout, rows, float(stay_value), (1 << len(hand)) - 1)
    if best.rows[0] < 0:
        return _fouled(hand, ruleset, float(stay_value))
    return _result(hand, layout, rows, best, ruleset, float(stay_value))



def _result(hand: np.ndarray, layout: _Layout, rows: _Rows, best: _Best, ruleset: Ruleset,
            stay: float) -> FantasylandSet:
    b, m, t = best.rows
    bottom = tuple(int(c) for c in hand[layout.fives[b]])
    middle = tuple(int(c) for c in hand[layout.fives[m]])
    top = tuple(int(c) for c in hand[layout.threes[t]])
    used = set(top + middle + bottom)
    discard = tuple(int(c) for c in hand if c not in used)
    strengths = (Strength(int(rows.s3[t])), Strength(int(rows.s5[m])),
                 Strength(int(rows.s5[b])))
    royalties = (int(rows.top_royalty[t]), int(rows.middle_royalty[m]),
                 int(rows.bottom_royalty[b]))
    stays = ruleset.fantasyland_cards(False, True, strengths[0], strengths, royalties) > 0
    if stays != best.stays or sum(royalties) != best.royalty:
        raise AssertionError("the solver's stay flags disagree with the ruleset's stay rule")
    return FantasylandSet(top, middle, bottom, discard, strengths, royalties, stays, False,
                          sum(royalties) + (stay if stays else 0.0), stay)


def solves(ruleset: Ruleset) -> bool:
    """Whether the exact solver sets the Fantasyland hands of ``ruleset``: a poker middle.
    Under a 2-7 middle the bots set the plain set of :func:`_fouled` instead, which fouls
    97.3% of 2,000 seeded 14-card hands (docs/review.md).

    >>> from ofc_core.rules import PRESETS
    >>> solves(PRESETS["pineapple"]), solves(PRESETS["2-7-pineapple"])
    (True, False)
    """
    return ruleset.middle is MiddleKind.HIGH


def set_fantasyland(cards: Iterable[int | Card], ruleset: Ruleset) -> Placement:
    """How the bots set a Fantasyland hand: the exact solver's best set, staying worth its
    measured value (:func:`ofc_core.play.fl_value.stay_value`), the other cards discarded.
    Under a 2-7 middle, which the solver does not solve (:func:`solves`), the plain set of
    :func:`_fouled` (strongest cards low), which mostly fouls there."""
    if not solves(ruleset):
        hand = np.array(sorted(card_indexes(cards, ruleset.jokers)), np.int64)
        return _fouled(hand, ruleset, 0.0).placement
    return solve_fantasyland(cards, ruleset).placement


def _fouled(hand: np.ndarray, ruleset: Ruleset, stay: float) -> FantasylandSet:
    """When every arrangement fouls (not with a standard deck: kept for safety), the set with
    the strongest cards low and the weakest on top; it earns nothing."""
    ranked = [int(c) for c in sorted(hand, reverse=True)]
    bottom, middle, top = tuple(ranked[:5]), tuple(ranked[5:10]), tuple(ranked[10:13])
    board = Board(*(tuple(card_of_index(c) for c in row) for row in (top, middle, bottom)))
    strengths = (board.strengths() if max(ranked[:13]) < 52
                 else (Strength(0), Strength(0), Strength(0)))  # jokers: not resolved here
    return FantasylandSet(top, middle, bottom, tuple(ranked[13:]), strengths,
                          (0, 0, 0), False, True, 0.0, stay)

