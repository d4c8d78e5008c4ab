"""The Fantasyland solver with jokers against a brute force over every arrangement.

The brute force takes every (bottom, middle, top) of a 13-card deal holding one or two jokers
(72,072 arrangements), bounds each one's value from above by its rows alone (each row at the
most royalty any filling of its jokers reaches, read from the scalar evaluator and
``RoyaltyTable.points``; a stay if any row alone could stay), and resolves exactly, in order
of bound, by the table's own scoring (:func:`ofc_core.batch_boards.score_boards_under`, held
equal to :func:`ofc_core.jokers.resolve_board` by ``tests/test_jokers_27.py``), every
arrangement whose bound reaches the best value found: the best resolved value is the optimum.
It shares nothing with the solver's search (fillings from outside the hand, branch and bound
over bottoms).
"""

from __future__ import annotations

import functools
import random
from itertools import combinations, product

import numpy as np
import pytest

from ofc_core.batch_boards import score_boards_under
from ofc_core.board import Row
from ofc_core.cards import card_of_index, parse_cards
from ofc_core.evaluate import evaluate
from ofc_core.play.fl_jokers import fillings
from ofc_core.play.fl_solver import solve_fantasyland
from ofc_core.rules import PRESETS, Ruleset, resolve

JOKER = PRESETS["joker-pineapple"]


@functools.cache
def _arrangements() -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Every arrangement of 13 card positions (72,072) as indexes of its top (into the
    3-position subsets), middle and bottom (into the 5-position subsets), and those subsets."""
    fives = list(combinations(range(13), 5))
    threes = list(combinations(range(13), 3))
    five_at = {s: i for i, s in enumerate(fives)}
    three_at = {s: i for i, s in enumerate(threes)}
    top, middle, bottom = [], [], []
    everything = set(range(13))
    for b in fives:
        rest = sorted(everything - set(b))
        for m in combinations(rest, 5):
            top.append(three_at[tuple(sorted(set(rest) - set(m)))])
            middle.append(five_at[m])
            bottom.append(five_at[b])
    return (np.array(top), np.array(middle), np.array(bottom), np.array(fives),
            np.array(threes))


def _row_bounds(cards: np.ndarray, subsets: np.ndarray, ruleset: Ruleset,
                rows: tuple[Row, ...]) -> tuple[list[np.ndarray], np.ndarray]:
    """Per subset of the deal: the most royalty it reaches in each of ``rows`` over every
    filling of its jokers (any two different real cards not in the subset), and whether some
    filling alone could make a set stay."""
    rule = ruleset.fl_stay.rule
    points = ruleset.paid_royalties.points
    best = [np.zeros(len(subsets), np.int64) for _ in rows]
    stays = np.zeros(len(subsets), bool)
    for k, positions in enumerate(subsets):
        strengths = _filled_strengths(tuple(int(c) for c in cards[positions]))
        for r, row in enumerate(rows):
            best[r][k] = max(_points(points, row, s) for s in strengths)
            floor = {Row.TOP: rule.top, Row.MIDDLE: rule.middle, Row.BOTTOM: rule.bottom}[row]
            stays[k] |= floor is not None and max(strengths) >= floor
            stays[k] |= rule.row_royalty is not None and best[r][k] >= rule.row_royalty
    return best, stays


_POINTS: dict[tuple[int, Row, int], int] = {}


def _points(points, row: Row, strength: int) -> int:
    key = (id(points), row, strength)
    if key not in _POINTS:
        _POINTS[key] = points(row, strength)
    return _POINTS[key]


@functools.cache
def _filled_strengths(row: tuple[int, ...]) -> frozenset[int]:
    """The scalar evaluator's strength of ``row`` under every filling of its jokers, by the
    ranks and flush of each filled row (remembered: many fillings share them)."""
    real = [c for c in row if c < 52]
    pool = [c for c in range(52) if c not in real]
    out = set()
    for fill in product(pool, repeat=len(row) - len(real)):
        if len(set(fill)) == len(fill):
            out.add(_strength(tuple(sorted(real + list(fill)))))
    return frozenset(out)


@functools.cache
def _strength(cards: tuple[int, ...]) -> int:
    ranks = tuple(sorted(c >> 2 for c in cards))
    flush = len(cards) == 5 and len({c & 3 for c in cards}) == 1
    return _by_shape(ranks, flush)


@functools.cache
def _by_shape(ranks: tuple[int, ...], flush: bool) -> int:
    suits = "s" * len(ranks) if flush else "shdcs"[:len(ranks)]
    return evaluate(parse_cards(" ".join(f"{'23456789TJQKA'[r]}{u}"
                                         for r, u in zip(ranks, suits, strict=True))))


def brute_force(deal: tuple[int, ...], ruleset: Ruleset, stay: float) -> float:
    """The best value of a 13-card deal over every arrangement (see the module docstring)."""
    top, middle, bottom, fives, threes = _arrangements()
    cards = np.array(deal, np.int64)
    (as_middle, as_bottom), five_stays = _row_bounds(cards, fives, ruleset,
                                                     (Row.MIDDLE, Row.BOTTOM))
    (as_top,), three_stays = _row_bounds(cards, threes, ruleset, (Row.TOP,))
    could_stay = three_stays[top] | five_stays[middle] | five_stays[bottom]
    bounds = as_top[top] + as_middle[middle] + as_bottom[bottom] + stay * could_stay
    best = -np.inf
    order = np.argsort(-bounds, kind="stable")
    start = 0
    while start < len(order) and bounds[order[start]] >= best:
        part = order[start:start + 256]
        part = part[bounds[part] >= best]
        start += 256
        boards = np.concatenate([cards[threes[top[part]]], cards[fives[middle[part]]],
                                 cards[fives[bottom[part]]]], axis=1)
        best = max(best, max(_resolved(boards, ruleset, stay)))
    return float(best)


def _resolved(boards: np.ndarray, ruleset: Ruleset, stay: float) -> list[float]:
    """Each board's value, its jokers resolved by the table's scoring."""
    scores = score_boards_under(boards.reshape(-1, 13), ruleset)
    out = []
    for k in range(len(scores.fouled)):
        if bool(scores.fouled[k]):
            out.append(-np.inf)
            continue
        s = [int(x) for x in scores.strengths[k]]
        royalties = [int(r) for r in scores.royalties[k]]
        stays = ruleset.fantasyland_cards(False, True, s[0], (s[0], s[1], s[2]),
                                          (royalties[0], royalties[1], royalties[2])) > 0
        out.append(sum(royalties) + stay * stays)
    return out


def _deal(rng: random.Random, jokers: int) -> tuple[int, ...]:
    return tuple(rng.sample(range(52), 13 - jokers)) + (52, 53)[:jokers]


@pytest.mark.parametrize("jokers,deals", [(1, 5), (2, 3)])
def test_exact_against_the_brute_force(jokers, deals) -> None:
    """Seeded 13-card deals with one and two jokers, staying worth 0 or 15."""
    rng = random.Random(21 + jokers)
    for k in range(deals):
        deal = _deal(rng, jokers)
        stay = (0.0, 15.0)[k % 2]
        best = solve_fantasyland(deal, JOKER, stay)
        assert best.exact and not best.fouled
        assert sorted(best.top + best.middle + best.bottom + best.discard) == sorted(deal)
        assert best.value == _resolved(np.array(best.top + best.middle + best.bottom),
                                       JOKER, stay)[0]
        assert best.value == brute_force(deal, JOKER, stay), best.compact()


def test_hand_worked_jokers() -> None:
    """Two jokers with a queen on top make three queens (20 and a stay); one joker completes
    a straight flush in the bottom rather than three aces on top."""
    two = solve_fantasyland(parse_cards("X1 X2 Ah 7d 7c 5s 9h Jd Qc 3s 4h 8d Tc 2h"), JOKER, 10)
    assert two.compact().split("-")[0] == "X2X1Qc" and two.royalties[0] == 20 and two.stays
    assert two.value == sum(two.royalties) + 10
    one = solve_fantasyland(parse_cards("X1 As Ad Kh Kd Qs Qh 9h 8h 7h 6h 2c 3d 4s"), JOKER, 10)
    assert one.royalties == (9, 0, 15) and one.value == 34


def test_fillings_keep_one_of_each_kind() -> None:
    """Cards of a suit that can make no flush are alike: one per rank is kept; a suit that can
    reach five keeps every card."""
    real = tuple(c.index for c in parse_cards("Ah Kh Qh Jh 2c 3d 4s 5c 6d 7s 8c 9d"))
    kept = fillings(real, 1)
    hearts = [f for (f,) in kept if f & 3 == card_of_index(real[0]).suit.offset]
    assert len(hearts) == 9 and len(kept) == 9 + 13
    assert len(fillings(real, 2)) < len(list(combinations(range(52 - len(real)), 2)))


def test_jokers_only_at_a_joker_table() -> None:
    deal = parse_cards("X1 As Ad Kh Kd Qs Qh 9h 8h 7h 6h 2c 3d 4s")
    with pytest.raises(ValueError, match="no jokers at this table"):
        solve_fantasyland(deal, PRESETS["pineapple"], 10)
    one = resolve("pineapple", {"jokers": 1})
    assert solve_fantasyland(deal, one, 10).value == 34
