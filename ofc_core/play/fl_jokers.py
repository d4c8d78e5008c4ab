"""The exact Fantasyland solver with jokers (``X1``, ``X2``: card indexes 52 and 53).

A joker stands for a card by the table's rule (``bottom-up``, :mod:`ofc_core.jokers`): of the
cards not on its own board, the choice that avoids a foul with the strongest bottom, then
middle, then top. A set with jokers is worth what its resolved rows earn: royalties plus
``stay_value`` if it stays, as :func:`ofc_core.play.fl_solver.solve_fantasyland`.

How it stays exact. Every set of a hand with jokers, once its jokers are resolved, is a set of
real cards: the hand's real cards and one card per joker from outside the hand (a joker that
stands for a discarded card is worth no more than one that stands for a card outside the
hand: the set then uses only the hand's real cards and the other joker). So the best value
over every way to fill the jokers with cards outside the hand, each solved exactly as a hand
of real cards, is an upper bound ``U`` on the best set. The rows of every filling are evaluated
at once; fillings are solved in order of a loose bound (each row's best royalty taken apart,
plus staying if any row could stay), each with the best value so far as its floor, and the
search ends at the first filling whose loose bound cannot beat that value. The best filling's
set, with the jokers put back where their cards are, is then resolved by the table's rule; its
value is ``U`` (so it is the best set) whenever the resolved rows are at least as strong as the
filled ones, which holds with one joker, with two jokers in one row, and with two jokers in
different rows unless both want the same card. When they do and the resolved set is worth less
than ``U``, every filling whose best set beats the best resolved value so far has that set
resolved; the result says ``exact=False`` when one of them resolves below its own value (another
set of that filling might then have been better). ``tests/test_fl_jokers.py`` checks the solver
against a brute force over every arrangement of seeded deals with one and two jokers.

Hand-worked, one joker (pineapple's royalties and stay rule, staying worth 10):
``X1 As Ad Kh Kd Qs Qh 9h 8h 7h 6h 2c 3d 4s``. The joker with the four hearts 9-6 is a straight
flush (as ``Th``: 15 in the bottom, and quads or better in the bottom stay), leaving aces on
top (9) over kings and queens (0): 34. Three aces on top instead (the joker as ``Ac``: 22 and a
stay) leave no straight flush and no flush below: 32 at best.

>>> from ofc_core.cards import parse_cards
>>> from ofc_core.rules import PRESETS
>>> from ofc_core.play.fl_solver import solve_fantasyland
>>> deal = parse_cards("X1 As Ad Kh Kd Qs Qh 9h 8h 7h 6h 2c 3d 4s")
>>> best = solve_fantasyland(deal, PRESETS["joker-pineapple"], stay_value=10)
>>> best.compact(), best.royalties, best.stays, best.value
('AsAd3d-KhKdQsQh4s-X19h8h7h6h', (9, 0, 15), True, 34.0)
"""

from __future__ import annotations

from dataclasses import fields, replace
from itertools import combinations

import numpy as np

from ofc_core.batch import fantasyland_next
from ofc_core.batch_boards import score_boards_under
from ofc_core.evaluate import Strength
from ofc_core.play.fl_search import (
    FantasylandSet,
    _Best,
    _layout,
    _loose_bound,
    _Rows,
    _rows,
    _search,
)
from ofc_core.rules import Ruleset


def filled_hand(real: tuple[int, ...], fills: tuple[int, ...]) -> tuple[int, ...]:
    """The hand with each joker replaced by a card of ``fills`` (sorted card indexes).

    >>> filled_hand((40, 3), (51,))
    (3, 40, 51)
    """
    return tuple(sorted(real + fills))


def resolved_value(top: tuple[int, ...], middle: tuple[int, ...], bottom: tuple[int, ...],
                   ruleset: Ruleset, stay: float,
                   ) -> tuple[float, tuple[int, int, int], tuple[int, int, int], bool, bool,
                              tuple[tuple[int, int], ...]]:
    """A set's value with its jokers resolved by the table's rule: (value, strengths,
    royalties, stays, fouled, each joker on the board and the card it stood for)."""
    board = np.array([top + middle + bottom], np.int64)
    scores = score_boards_under(board, ruleset)
    strengths = tuple(int(s) for s in scores.strengths[0])
    royalties = tuple(int(r) for r in scores.royalties[0])
    fouled = bool(scores.fouled[0])
    stays = bool(fantasyland_next(ruleset, scores.strengths, scores.fouled, scores.royalties,
                                  np.ones(1, bool))[0] > 0)
    value = -np.inf if fouled else sum(royalties) + (stay if stays else 0.0)
    stood = scores.jokers[0] if scores.jokers is not None else np.full(2, -1)
    stood_for = tuple((52 + j, int(c)) for j, c in enumerate(stood.tolist()) if c >= 0)
    return (float(value), (strengths[0], strengths[1], strengths[2]),
            (royalties[0], royalties[1], royalties[2]), stays, fouled, stood_for)


def _as_set(hand: np.ndarray, best: _Best, fills: tuple[int, ...], jokers: tuple[int, ...],
            ) -> tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...], tuple[int, ...]]:
    """The rows and discard of a filled hand's best set, each filling card back as its joker
    (rows lowest card first, as :class:`FantasylandSet`)."""
    back = dict(zip(fills, jokers, strict=True))
    layout = _layout(len(hand))
    b, m, t = best.rows
    rows = [tuple(sorted(back.get(int(c), int(c)) for c in hand[positions]))
            for positions in (layout.threes[t], layout.fives[m], layout.fives[b])]
    used = {c for row in rows for c in row}
    discard = tuple(sorted(back.get(int(c), int(c)) for c in hand
                           if back.get(int(c), int(c)) not in used))
    return rows[0], rows[1], rows[2], discard


def _filled_best(real: tuple[int, ...], fills: tuple[int, ...], ruleset: Ruleset, stay: float,
                 floor: float) -> tuple[np.ndarray, _Best] | None:
    """The best set of the real cards and ``fills``, if it is worth more than ``floor``."""
    hand = np.array(filled_hand(real, fills), np.int64)
    layout = _layout(len(hand))
    rows = _rows(hand, layout, ruleset)
    best = _search(layout, rows, stay, (1 << len(hand)) - 1, _Best.above(floor))
    return (hand, best) if best.rows[0] >= 0 else None


def fillings(real: tuple[int, ...], jokers: int) -> list[tuple[int, ...]]:
    """Every way to fill ``jokers`` jokers with cards outside the hand, one of each kind: two
    fillings are alike when they differ only in suits that can make no flush (a suit with
    fewer than 5 cards among the real cards and the filling), whose hands then have the same
    strengths in every row. Highest cards first (a good bound early prunes the rest).

    >>> from ofc_core.cards import parse_cards
    >>> real = tuple(c.index for c in parse_cards("Ah Kh Qh Jh 2c 3d 4s 5c 6d 7s 8c 9d"))
    >>> len(fillings(real, 1)), len([c for c in range(52) if c not in real])
    (22, 40)
    """
    inside = set(real)
    suits = [sum(1 for c in real if c & 3 == s) for s in range(4)]
    kinds: dict[tuple[tuple[int, int], ...], tuple[int, ...]] = {}
    for fills in combinations(sorted(set(range(52)) - inside, reverse=True), jokers):
        added = [sum(1 for c in fills if c & 3 == s) for s in range(4)]
        key = tuple(sorted((c >> 2, c & 3 if suits[c & 3] + added[c & 3] >= 5 else -1)
                           for c in fills))
        kinds.setdefault(key, fills)
    return list(kinds.values())


def solve_with_jokers(indexes: tuple[int, ...], ruleset: Ruleset,
                      stay: float) -> FantasylandSet:
    """The best set of a Fantasyland hand holding jokers (see the module docstring)."""
    real = tuple(sorted(c for c in indexes if c < 52))
    jokers = tuple(sorted(c for c in indexes if c >= 52))
    kinds = fillings(real, len(jokers))
    hands = np.array([filled_hand(real, fills) for fills in kinds], np.int64)
    layout = _layout(hands.shape[1])
    every = _rows(hands, layout, ruleset)  # every filling's rows at once
    loose = _loose_bound(every, max(stay, 0.0))
    bound, found = -np.inf, []
    for k in np.argsort(-loose, kind="stable"):
        if loose[k] <= bound:
            break  # no later filling can beat the best so far
        rows = _Rows(*(getattr(every, f.name)[k] for f in fields(_Rows)))
        best = _search(layout, rows, stay, (1 << len(hands[k])) - 1, _Best.above(bound))
        if best.rows[0] >= 0:
            bound = best.key[0]
            found.append((kinds[k], hands[k], best))
    fills, hand, best = found[-1]
    result = _resolved(_as_set(hand, best, fills, jokers), ruleset, stay)
    if result.value >= bound:
        return result
    return _search_resolved(real, jokers, ruleset, stay, result, bound)


def _resolved(rows: tuple[tuple[int, ...], ...], ruleset: Ruleset, stay: float,
              exact: bool = True) -> FantasylandSet:
    top, middle, bottom, discard = rows
    value, strengths, royalties, stays, fouled, stood_for = resolved_value(
        top, middle, bottom, ruleset, stay)
    return FantasylandSet(top, middle, bottom, discard,
                          (Strength(strengths[0]), Strength(strengths[1]),
                           Strength(strengths[2])),
                          royalties, stays, fouled, value, stay, exact, stood_for)


def _search_resolved(real: tuple[int, ...], jokers: tuple[int, ...], ruleset: Ruleset,
                     stay: float, result: FantasylandSet, bound: float) -> FantasylandSet:
    """Two jokers that want the same card: every filling whose best set could beat the best
    resolved value so far is resolved; exact when each such filling's best set resolves to its
    own value (no other set of that filling can then beat it)."""
    exact = True
    for fills in fillings(real, len(jokers)):
        solved = _filled_best(real, fills, ruleset, stay, result.value)
        if solved is None:
            continue
        hand, best = solved
        candidate = _resolved(_as_set(hand, best, fills, jokers), ruleset, stay)
        exact = exact and candidate.value >= best.key[0]
        if candidate.value > result.value:
            result = candidate
    return replace(result, exact=exact)
