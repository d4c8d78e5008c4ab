"""The exact Fantasyland solver's search: every 5-card and 3-card subset of a hand evaluated
at once, and the branch and bound over bottoms (:mod:`ofc_core.play.fl_solver` states the method
and is its entry point; :mod:`ofc_core.play.fl_jokers` solves hands with jokers on top of it).

The names starting with ``_`` are these two modules' shared internals, not an API.

>>> card_indexes(range(13))[-1]
12
"""

from __future__ import annotations

import functools
from collections.abc import Iterable
from dataclasses import dataclass
from itertools import combinations

import numpy as np

from ofc_core.batch_boards import ROYALTY_INDEX_SHIFT, royalty_array
from ofc_core.board import Board
from ofc_core.cards import Card, Joker, card_of_index
from ofc_core.evaluate import Strength
from ofc_core.play.engine import Placement
from ofc_core.row_tables import RANK_KEYS, row_tables
from ofc_core.rules import Ruleset

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
    exact: bool = True
    """The set is proven the best (false only in the rare joker case
    :mod:`ofc_core.play.fl_jokers` describes)."""
    stood_for: tuple[tuple[int, int], ...] = ()
    """Each joker of the rows (52, 53) and the card it stood for, by the table's rule."""

    @property
    def placement(self) -> Placement:
        return Placement(self.top, self.middle, self.bottom, self.discard)

    @property
    def board(self) -> Board:
        """The rows as card values, highest card first."""
        return Board(*(tuple(card_of_index(c) for c in reversed(row))
                       for row in (self.top, self.middle, self.bottom)))

    def compact(self) -> str:
        """The set in compact board notation (``top-middle-bottom``, highest card first)."""
        return self.board.compact()

    @property
    def royalty_total(self) -> int:
        return sum(self.royalties)


def card_indexes(cards: Iterable[int | Card | Joker], jokers: int = 0) -> tuple[int, ...]:
    """The card indexes of ``cards`` (indexes or :class:`Card` and :class:`Joker` values),
    checked: 13 to 17 different cards of the deck of 52 + ``jokers`` cards, else
    :class:`ValueError` saying what is wrong.

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
        index = card.index if isinstance(card, Card | Joker) else card
        if isinstance(index, bool) or not isinstance(index, int) or not 0 <= index < 52 + jokers:
            deck = f"{52 + jokers}-card deck" + ("" if jokers else " (no jokers at this table)")
            shown = str(card) if isinstance(card, Card | Joker) else repr(card)
            raise ValueError(f"not a card of the {deck}: {shown}")
        out.append(index)
    if not MIN_CARDS <= len(out) <= MAX_CARDS:
        raise ValueError(f"a Fantasyland hand has {MIN_CARDS}-{MAX_CARDS} cards, got {len(out)}")
    if len(set(out)) != len(out):
        twice = next(c for c in out if out.count(c) > 1)
        raise ValueError(f"a card appears twice: {card_of_index(twice)}")
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
    """The rows of one hand ``(n,)``, or of many hands ``(F, n)`` at once (each array then
    ``(F, subsets)``)."""
    tables = row_tables()
    key = _KEYS[cards >> 2]
    suit = cards & 3
    five_keys = key[..., layout.fives].sum(axis=-1)
    suits = suit[..., layout.fives]
    flush = (suits == suits[..., :1]).all(axis=-1)
    s5 = np.where(flush, tables.flush[five_keys], tables.five[five_keys]).astype(np.int64)
    s3 = tables.top[key[..., layout.threes].sum(axis=-1)].astype(np.int64)
    royalty = royalty_array(ruleset.paid_royalties).astype(np.int64)
    top, middle, bottom = (royalty[0][s3 >> ROYALTY_INDEX_SHIFT],
                           royalty[1][s5 >> ROYALTY_INDEX_SHIFT],
                           royalty[2][s5 >> ROYALTY_INDEX_SHIFT])
    rule = ruleset.fl_stay.rule

    def stays(strengths: np.ndarray, royalties: np.ndarray, minimum: int | None) -> np.ndarray:
        """The stay rule's part for one row: its minimum strength, or a row royalty."""
        flag = np.zeros(strengths.shape, bool)
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

    @classmethod
    def above(cls, floor: float) -> _Best:
        """No set found yet; only sets worth more than ``floor`` can become the best."""
        return cls(key=(floor, 1 << 40, 0, 0))

    def beaten_by(self, value: float, strength: int) -> bool:
        """Whether a bottom of this strength whose sets are worth at most ``value`` could
        still be returned (a higher value, or an equal value and at least as strong)."""
        best, bottom = self.key[0], self.key[1]
        return value > best or (value == best and strength >= bottom)


def _search(layout: _Layout, rows: _Rows, stay: float, full: int,
            best: _Best | None = None) -> _Best:
    """Branch and bound over bottoms, strongest bound first (see the module docstring); from
    ``best`` when given (:meth:`_Best.above`)."""
    gain = max(stay, 0.0)
    if best is not None and float(_loose_bound(rows, gain)) <= best.key[0]:
        return best  # no set of these cards beats the floor (the best of each row apart)
    s5 = rows.s5
    middle_cap, middle_cap_stays = _Caps(s5, rows.middle_royalty, rows.middle_stays).at(s5)
    top_cap, top_cap_stays = _Caps(rows.s3, rows.top_royalty, rows.top_stays).at(s5)
    top_caps = (top_cap, top_cap_stays)  # also the caps of the tops under each middle
    bound = (rows.bottom_royalty + middle_cap + top_cap
             + gain * (rows.bottom_stays | middle_cap_stays | top_cap_stays))
    bound = np.where(top_cap == _NONE, -np.inf, bound)
    order = np.lexsort((-s5, -bound))
    best = _Best() if best is None else best
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


def _loose_bound(rows: _Rows, gain: float) -> np.ndarray:
    """The most any set of a hand could be worth (per hand, for the rows of many): each row's
    best royalty taken apart, plus the stay value if any row alone could stay."""
    stays = (rows.bottom_stays.any(axis=-1) | rows.middle_stays.any(axis=-1)
             | rows.top_stays.any(axis=-1))
    return np.asarray(rows.bottom_royalty.max(axis=-1) + rows.middle_royalty.max(axis=-1)
                      + rows.top_royalty.max(axis=-1) + gain * stays, float)


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
