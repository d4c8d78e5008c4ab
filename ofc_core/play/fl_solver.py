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
brute force over every arrangement).

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

import functools
from collections.abc import Iterable
from dataclasses import dataclass
from itertools import combinations

import numpy as np

from ofc_core.batch_boards import ROYALTY_INDEX_SHIFT, royalty_array
from ofc_core.board import Board
from ofc_core.cards import DECK, Card
from ofc_core.evaluate import Strength
from ofc_core.play import fl_value
from ofc_core.play.engine import Placement
from ofc_core.row_tables import RANK_KEYS, row_tables
from ofc_core.rules import MiddleKind, Ruleset

MIN_CARDS, MAX_CARDS = 13, 17
"""A Fantasyland hand has 13 to 17 cards (progressive pineapple deals up to 17)."""

_NONE = -(1 << 40)
"""Below every value: no legal top."""


@dataclass(frozen=True)
class FantasylandSet:
    """A set Fantasyland hand (card indexes; rows lowest card first) and what it earns."""

    top: tuple[int, ...]
    middle: tuple[int, ...]
    bottom: tuple[int, ...]
    discard: tuple[int, ...]
    strengths: tuple[Strength, Strength, Strength]
    royalties: tuple[int, int, int]
    """Each row's royalty (all 0 when the set fouls)."""
    stays: bool
    """The set stays in Fantasyland by the ruleset's stay rule."""
    fouled: bool
    """Every arrangement of these cards fouls (this is then one of them); never with 13 or
    more cards of a standard deck."""
    value: float
    """Royalties plus the stay value if the set stays."""
    stay_value: float

    @property
    def placement(self) -> Placement:
        return Placement(self.top, self.middle, self.bottom, self.discard)

    @property
    def board(self) -> Board:
        """The rows as card values, highest card first."""
        return Board(*(tuple(DECK[c] for c in reversed(row))
                       for row in (self.top, self.middle, self.bottom)))

    def compact(self) -> str:
        """The set in compact board notation (``top-middle-bottom``, highest card first)."""
        return self.board.compact()

    @property
    def royalty_total(self) -> int:
        return sum(self.royalties)


def card_indexes(cards: Iterable[int | Card]) -> tuple[int, ...]:
    """The card indexes of ``cards`` (indexes 0..51 or :class:`Card` values), checked: 13 to
    17 different cards of the 52-card deck, else :class:`ValueError` saying what is wrong.

    >>> card_indexes(range(13))[:3]
    (0, 1, 2)
    >>> card_indexes([0] * 13)
    Traceback (most recent call last):
    ...
    ValueError: a card appears twice: 2c
    >>> card_indexes(range(12))
    Traceback (most recent call last):
    ...
    ValueError: a Fantasyland hand has 13-17 cards, got 12
    """
    out = []
    for card in cards:
        index = card.index if isinstance(card, Card) else card
        if isinstance(index, bool) or not isinstance(index, int) or not 0 <= index < 52:
            raise ValueError(f"not a card of the 52-card deck: {card!r} (jokers are not "
                             "supported by the Fantasyland solver)")
        out.append(index)
    if not MIN_CARDS <= len(out) <= MAX_CARDS:
        raise ValueError(f"a Fantasyland hand has {MIN_CARDS}-{MAX_CARDS} cards, got {len(out)}")
    if len(set(out)) != len(out):
        twice = next(c for c in out if out.count(c) > 1)
        raise ValueError(f"a card appears twice: {DECK[twice]}")
    return tuple(out)


# --------------------------------------------------------------------------------------------
# Card positions: which subsets of n cards there are (the same for every hand of n cards)


@dataclass(frozen=True)
class _Layout:
    fives: np.ndarray
    """``(F, 5)``: positions of every 5-card subset, in combination order."""
    five_masks: np.ndarray
    """``(F,)``: each subset as a bit mask of positions."""
    threes: np.ndarray
    """``(T3, 3)``: positions of every 3-card subset."""
    middles: np.ndarray
    """``(F, M)``: for each 5-card subset, the 5-card subsets disjoint from it."""
    leftover: np.ndarray
    """``(2**n,)``: the number of a leftover (the ``n - 10`` cards outside a bottom and a
    middle) by its mask."""
    leftover_tops: np.ndarray
    """``(L, T)``: for each leftover, its 3-card subsets (indexes into ``threes``)."""


def _subsets(n: int, k: int) -> tuple[np.ndarray, np.ndarray]:
    positions = np.array(list(combinations(range(n), k)), np.int64).reshape(-1, k)
    return positions, (np.int64(1) << positions).sum(axis=1)


@functools.cache
def _layout(n: int) -> _Layout:
    """The subsets of ``n`` card positions, built once per hand size (at most a few tenths of
    a second for 17 cards)."""
    fives, five_masks = _subsets(n, 5)
    threes, three_masks = _subsets(n, 3)
    middles = np.stack([np.flatnonzero((five_masks & mask) == 0) for mask in five_masks])
    left, left_masks = _subsets(n, n - 10)
    leftover = np.full(1 << n, -1, np.int64)
    leftover[left_masks] = np.arange(len(left_masks))
    three_index = np.full(1 << n, -1, np.int64)
    three_index[three_masks] = np.arange(len(three_masks))
    picks = np.array(list(combinations(range(n - 10), 3)), np.int64)
    leftover_tops = three_index[(np.int64(1) << left[:, picks]).sum(axis=2)]
    return _Layout(fives, five_masks, threes, middles.astype(np.int64), leftover,
                   leftover_tops)


# --------------------------------------------------------------------------------------------
# The rows of one hand


@dataclass(frozen=True)
class _Rows:
    """Every 5-card and 3-card subset of one hand: strength, royalty as a middle, as a bottom
    or as a top, and whether the row alone makes the set stay in Fantasyland."""

    s5: np.ndarray
    bottom_royalty: np.ndarray
    middle_royalty: np.ndarray
    bottom_stays: np.ndarray
    middle_stays: np.ndarray
    s3: np.ndarray
    top_royalty: np.ndarray
    top_stays: np.ndarray


_KEYS = np.array(RANK_KEYS, np.int64)


def _rows(cards: np.ndarray, layout: _Layout, ruleset: Ruleset) -> _Rows:
    tables = row_tables()
    key = _KEYS[cards >> 2]
    suit = cards & 3
    five_keys = key[layout.fives].sum(axis=1)
    suits = suit[layout.fives]
    flush = (suits == suits[:, :1]).all(axis=1)
    s5 = np.where(flush, tables.flush[five_keys], tables.five[five_keys]).astype(np.int64)
    s3 = tables.top[key[layout.threes].sum(axis=1)].astype(np.int64)
    royalty = royalty_array(ruleset.royalties).astype(np.int64)
    top, middle, bottom = (royalty[0][s3 >> ROYALTY_INDEX_SHIFT],
                           royalty[1][s5 >> ROYALTY_INDEX_SHIFT],
                           royalty[2][s5 >> ROYALTY_INDEX_SHIFT])
    rule = ruleset.fl_stay.rule

    def stays(strengths: np.ndarray, royalties: np.ndarray, minimum: int | None) -> np.ndarray:
        """The stay rule's part for one row: its minimum strength, or a row royalty."""
        flag = np.zeros(len(strengths), bool)
        if not ruleset.fantasyland:
            return flag
        if minimum is not None:
            flag |= strengths >= minimum
        if rule.row_royalty is not None:
            flag |= royalties >= rule.row_royalty
        return flag

    return _Rows(s5, bottom, middle, stays(s5, bottom, rule.bottom),
                 stays(s5, middle, rule.middle), s3, top, stays(s3, top, rule.top))


class _Caps:
    """The most royalty, and whether any row stays, among some rows no stronger than a given
    strength (sorted once per hand, asked for many strengths)."""

    def __init__(self, strengths: np.ndarray, royalties: np.ndarray, stays: np.ndarray) -> None:
        order = np.argsort(strengths, kind="stable")
        self.strengths = strengths[order]
        self.most = np.append(_NONE, np.maximum.accumulate(royalties[order]))
        self.stays = np.append(False, np.logical_or.accumulate(stays[order]))

    def at(self, at_most: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Per strength of ``at_most``: the most royalty (``_NONE`` when no row is that weak)
        and whether any of those rows stays."""
        at = np.searchsorted(self.strengths, at_most, side="right")
        return self.most[at], self.stays[at]


# --------------------------------------------------------------------------------------------
# The search


@dataclass
class _Best:
    key: tuple[float, int, int, int] = (float("-inf"), 0, 0, 0)
    """(value, bottom strength, middle strength, top strength) of the best set so far."""
    rows: tuple[int, int, int] = (-1, -1, -1)
    """Its bottom and middle (indexes of 5-card subsets) and top (of 3-card subsets)."""
    royalty: int = 0
    stays: bool = False

    def beaten_by(self, value: float, strength: int) -> bool:
        """Whether a bottom of this strength whose sets are worth at most ``value`` could
        still be returned (a higher value, or an equal value and at least as strong)."""
        best, bottom = self.key[0], self.key[1]
        return value > best or (value == best and strength >= bottom)


def solve_fantasyland(cards: Iterable[int | Card], ruleset: Ruleset,
                      stay_value: float | None = None) -> FantasylandSet:
    """The best set of a Fantasyland hand (13-17 cards, indexes or :class:`Card` values) under
    ``ruleset``: the most royalties plus ``stay_value`` if it stays, without a foul.

    ``stay_value`` is what staying in Fantasyland is worth, in points; by default the measured
    value of the Fantasyland hand the player would get
    (:func:`ofc_core.play.fl_value.stay_value`).

    >>> from ofc_core.cards import parse_cards
    >>> from ofc_core.rules import PRESETS
    >>> deal = parse_cards("2h 2d 2c Th Tc 3s 4s 5s 6s 7c Kd Qh 9s 8d")
    >>> best = solve_fantasyland(deal, PRESETS["pineapple"], stay_value=0)
    >>> best.compact(), best.value  # a flush in the middle over 222-TT: 8 + 6
    ('KdQh8d-9s6s5s4s3s-ThTc2h2d2c', 14.0)
    """
    if ruleset.middle is not MiddleKind.HIGH:
        raise ValueError(f"the Fantasyland solver does not solve {ruleset.middle.value} middles "
                         f"({ruleset.variant.value})")
    hand = np.array(sorted(card_indexes(cards)), np.int64)
    if stay_value is None:
        stay_value = fl_value.stay_value(ruleset)
    layout = _layout(len(hand))
    rows = _rows(hand, layout, ruleset)
    best = _search(layout, rows, float(stay_value), (1 << len(hand)) - 1)
    if best.rows[0] < 0:
        return _fouled(hand, ruleset, float(stay_value))
    return _result(hand, layout, rows, best, ruleset, float(stay_value))


def _search(layout: _Layout, rows: _Rows, stay: float, full: int) -> _Best:
    """Branch and bound over bottoms, strongest bound first (see the module docstring)."""
    gain = max(stay, 0.0)
    s5 = rows.s5
    middle_cap, middle_cap_stays = _Caps(s5, rows.middle_royalty, rows.middle_stays).at(s5)
    top_cap, top_cap_stays = _Caps(rows.s3, rows.top_royalty, rows.top_stays).at(s5)
    top_caps = (top_cap, top_cap_stays)  # also the caps of the tops under each middle
    bound = (rows.bottom_royalty + middle_cap + top_cap
             + gain * (rows.bottom_stays | middle_cap_stays | top_cap_stays))
    bound = np.where(top_cap == _NONE, -np.inf, bound)
    order = np.lexsort((-s5, -bound))
    best = _Best()
    per_bottom = layout.middles.shape[1]
    batch, start = 8, 0
    while start < len(order):
        first = order[start]
        if not best.beaten_by(float(bound[first]), int(s5[first])):
            break
        bottoms = order[start:start + batch]
        start += len(bottoms)
        _search_bottoms(layout, rows, top_caps, stay, gain, full, bottoms, best)
        batch = min(batch * 2, max(1, 8192 // per_bottom))
    return best


def _search_bottoms(layout: _Layout, rows: _Rows, top_caps: tuple[np.ndarray, np.ndarray],
                    stay: float, gain: float, full: int, bottoms: np.ndarray,
                    best: _Best) -> None:
    """The best set over some bottoms, each with every middle at most as strong that can
    still win, each completed with its best top; ``best`` is updated in place."""
    s5, s3 = rows.s5, rows.s3
    middles = layout.middles[bottoms]  # (K, M)
    sb = s5[bottoms][:, None]
    sm = s5[middles]
    stays = rows.bottom_stays[bottoms][:, None] | rows.middle_stays[middles]
    royalty = rows.bottom_royalty[bottoms][:, None] + rows.middle_royalty[middles]
    top_cap, top_cap_stays = top_caps[0][middles], top_caps[1][middles]
    bound = royalty + top_cap + gain * (stays | top_cap_stays)
    value, strength = best.key[0], best.key[1]
    keep = (sm <= sb) & (top_cap != _NONE) & (
        (bound > value) | ((bound == value) & (sb >= strength)))
    k, m = np.nonzero(keep)
    if not len(k):
        return
    b, mid = bottoms[k], middles[k, m]
    left = layout.leftover[full ^ layout.five_masks[b] ^ layout.five_masks[mid]]
    tops = layout.leftover_tops[left]  # (P, T)
    st = s3[tops]
    total_royalty = royalty[k, m][:, None] + rows.top_royalty[tops]
    total_stays = stays[k, m][:, None] | rows.top_stays[tops]
    total = np.where(st <= sm[k, m][:, None], total_royalty + stay * total_stays, -np.inf)
    top_value = total.max()
    if top_value == -np.inf or top_value < value:
        return
    p, t = np.nonzero(total == top_value)
    # the strongest bottom, middle, top; among exact ties the first in the search order
    keys = np.lexsort((-np.arange(len(p)), st[p, t], sm[k[p], m[p]], sb[k[p], 0]))
    winner = keys[-1]
    pw, tw = p[winner], t[winner]
    key = (float(top_value), int(sb[k[pw], 0]), int(sm[k[pw], m[pw]]), int(st[pw, tw]))
    if key > best.key:
        best.key = key
        best.rows = (int(b[pw]), int(mid[pw]), int(tops[pw, tw]))
        best.royalty = int(total_royalty[pw, tw])
        best.stays = bool(total_stays[pw, tw])


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


def set_fantasyland(cards: Iterable[int | Card], ruleset: Ruleset) -> Placement:
    """How the bots set a Fantasyland hand: the exact solver's best set, staying worth its
    measured value (:func:`ofc_core.play.fl_value.stay_value`), the other cards discarded.
    Under a 2-7 middle, which the solver does not solve, the plain set of :func:`_fouled`
    (strongest cards low), which often fouls there."""
    if ruleset.middle is not MiddleKind.HIGH:
        hand = np.array(sorted(card_indexes(cards)), np.int64)
        return _fouled(hand, ruleset, 0.0).placement
    return solve_fantasyland(cards, ruleset).placement


def _fouled(hand: np.ndarray, ruleset: Ruleset, stay: float) -> FantasylandSet:
    """When every arrangement fouls (not with a standard deck: kept for safety), the set with
    the strongest cards low and the weakest on top; it earns nothing."""
    ranked = [int(c) for c in sorted(hand, reverse=True)]
    bottom, middle, top = tuple(ranked[:5]), tuple(ranked[5:10]), tuple(ranked[10:13])
    board = Board(*(tuple(DECK[c] for c in row) for row in (top, middle, bottom)))
    return FantasylandSet(top, middle, bottom, tuple(ranked[13:]), board.strengths(),
                          (0, 0, 0), False, True, 0.0, stay)

