"""The ``careful`` bot, and the heuristic machinery the chaser shares with it.

A :class:`HeuristicPolicy` plays by a :class:`Style`: it places cards one at a time where
they score best on rank and suit counts (:func:`_best_row`), builds the bottom strongest, keeps
the middle below the bottom, puts low cards on top and pairs a queen or better on top only when
the middle already beats it or the outs left make covering it likely (:func:`cover_chance` at
least the style's ``commit``). On the last street it keeps the greedy move when the board is
surely legal, otherwise it evaluates every finish with the row evaluator (:func:`_finish`).
A Fantasyland hand is set by the exact solver (:func:`ofc_core.play.fl_solver.set_fantasyland`);
the cube is
decided by the score (:mod:`ofc_core.play.cube`).

>>> from ofc_core.rules import PRESETS
>>> v = View(PRESETS["pineapple"], 1, 4, (48, 49, 0), 2, ((), (), ()), ())
>>> HeuristicPolicy(CAREFUL).place(v, random.Random(0)).discard  # aces kept, a deuce thrown
(0,)
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from itertools import combinations, permutations

from ofc_core.board import is_foul
from ofc_core.play.cube import accepts_by_score, offers_by_score
from ofc_core.play.engine import CubeView, Placement, View, row_strength
from ofc_core.play.fl_solver import set_fantasyland
from ofc_core.play.rows import (
    PLACEMENT,
    QUEEN,
    RANK_TALLY,
    RowCounts,
    board_value,
    ranks_held,
)

LookAhead = Callable[[View, RowCounts, random.Random], "tuple[Placement, RowCounts] | None"]
"""A style's look-ahead (:attr:`Style.look_ahead`)."""


@dataclass(frozen=True)
class Style:
    """The knobs that make one heuristic player differ from another."""

    name: str
    chase_fl: bool
    """Start the top with Q/K/A and pair it even when the middle does not cover it."""
    commit: float
    """Pair a queen or better on top (not yet beaten by the middle) when the estimated chance
    of covering it (:func:`cover_chance`) is at least this."""
    weigh_discards: bool
    """Try each discard and keep the placement whose cards score best in total (slower);
    otherwise the weakest card by its own best score is discarded."""
    look_ahead: LookAhead | None
    """Asked first on a street that discards (with the row state of the board): a move chosen
    by looking ahead, or ``None`` to play the greedy move (the chaser's
    :func:`ofc_core.play.chaser.look_ahead`)."""
    fl_bonus: float
    """Worth of entering Fantasyland, in points, when choosing the last street's finish."""
    double_lead: float
    """Offer the cube when leading by at least this many points."""
    take_deficit: float
    """Accept the cube when trailing by at most this many points."""


def cover_chance(rows: RowCounts, rank: int) -> float:
    """A cheap estimate of the chance that the middle ends above a top pair of ``rank`` (a
    higher pair, two pair or better) with the bottom still above the middle, from the outs
    left on rank counts and the cards still to come."""
    counts, free = rows.counts[1], rows.free
    mp, fm = rows.pairs[1], free[1]
    if mp >= 2 or (mp == 1 and rows.high_pair[1] > rank):
        middle = 1.0
    elif fm == 0:
        return 0.0
    else:
        held = [r for r in range(13) if counts[r]]
        outs = sum(rows.live(r) for r in held)
        if mp == 1:  # a lower pair: trips or a second pair
            middle = rows.hit(outs)
        else:  # a pair above the top's, or two pair
            high = sum(rows.live(r) for r in held if r > rank)
            middle = 1 - (1 - rows.hit(high)) * (1 - 0.5 * rows.hit(outs) ** 2)
        fresh = 0.07 * (fm - 1) * rows.to_come / 12  # a new pair dealt into empty slots
        middle = min(1.0, middle + fresh)
    return middle * _bottom_chance(rows, max(mp, 1) if middle == 1.0 else mp + 1)


def _bottom_chance(rows: RowCounts, level: int) -> float:
    """A cheap estimate of the chance that the bottom ends at least at pair ``level`` (1 a pair,
    2 two pair, 3 trips...) above the middle, a made or drawn flush counting as enough."""
    bp, fb, size = rows.pairs[2], rows.free[2], rows.size[2]
    if bp > level or (bp == level and rows.high_pair[2] > rows.high_pair[1]):
        return 1.0
    suits = rows.suits[2]
    suited = max(suits)
    if bp == 0 and suited == size and size + fb == 5 and size >= 2:
        missing = 5 - size
        flush = rows.hit(max(0, 11 - suited - missing)) ** missing if missing else 1.0
    else:
        flush = 0.0
    if fb == 0:
        return max(flush, 0.3 if bp == level else 0.0)
    counts = rows.counts[2]
    outs = sum(rows.live(r) for r in range(13) if counts[r])
    step = min(1.0, rows.hit(outs) + 0.06 * (fb - 1) * rows.to_come / 12)
    pairs = (0.5 + 0.5 * step) if bp == level else step ** (level - bp)
    return max(flush, pairs)


def _top_score(rows: RowCounts, rank: int, style: Style) -> float:
    if rows.counts[0][rank]:
        if rows.middle_covers(rank):
            return 4 + 0.5 * rank + (3 if rank >= QUEEN else 0)
        if rank >= QUEEN:
            chance = cover_chance(rows, rank)
            if chance >= style.commit:
                return 3 + 8 * chance + 0.5 * rank
        return -6
    if rank >= QUEEN and rows.pairs[0] == 0:
        if style.chase_fl and rows.free[0] == 3 and rows.live(rank) >= 2:
            return 2.5
        if rows.free[0] >= 2 and rows.pairs[1] and rows.pairs[2] >= rows.pairs[1]:
            return 2.0  # the middle is already paired: a queen or better on top is a safe try
    return 1.0 - 0.3 * rank - (1.0 if rows.pairs[1] == 0 and rank >= QUEEN else 0)


def _middle_under_pressure(rows: RowCounts, rank: int, have: int, need: int) -> float:
    """A card for a middle that must still beat a top pair of rank ``need``: pairs (toward a
    higher pair or two pair) first, then live cards above the top pair (outs); anything else
    wastes a slot the middle needs."""
    free_bottom = rows.free[2]
    if have:
        level = rows.pairs[1] + have
        value = (9.0 if level >= 2 or rank > need else 6.0) + 0.1 * rank
        if level > rows.pairs[2] and free_bottom < 2:
            value -= 6  # the bottom has no room left to get above it
        return value
    slack = rows.free[1] - (1 if rows.pairs[1] else 2)
    if rank > need and rows.live(rank) >= 2 and slack > 0:
        return 1.5 + 0.1 * rank
    return -1.5 - (2.0 if slack <= 0 else 0)


def _uncovered_top_pair(rows: RowCounts) -> int:
    """The rank of a top pair that the middle does not beat yet, or -1."""
    if not rows.pairs[0]:
        return -1
    need = rows.high_pair[0]
    middle = rows.pairs[1]
    return -1 if middle >= 2 or (middle == 1 and rows.high_pair[1] > need) else need


def _best_row(rows: RowCounts, card: int, style: Style, need: int | None = None,
              ) -> tuple[float, int, int]:
    """The best score of ``card``, the row where it scores it, and the card (so that the
    cards of a street sort by score, then row, then card). ``need`` is the rank of a top pair
    the middle does not beat yet, -1 if none (:func:`_uncovered_top_pair`, computed here when
    the caller does not have it).

    A card's worth in the bottom (row 2) or the middle (row 1): pairing the row first (the
    middle kept below the bottom, the bottom kept above a middle that must beat a paired top),
    then a first card by rank, then suiting an unpaired row (a flush draw; the middle only when
    the bottom is surely above it), else a small penalty that keeps the rows open for pairs to
    come. A middle that must beat a top pair is scored by :func:`_middle_under_pressure`.
    """
    free = rows.free
    if need is None:
        need = _uncovered_top_pair(rows) if rows.pairs[0] else -1
    rank = card >> 2
    best, best_row = -1e9, -1
    # The two five-card rows, bottom first (ties keep the bottom), then the top.
    if free[2]:
        best, best_row = _bottom_value(rows, card, need), 2
    if free[1]:
        value = _middle_value(rows, card, need)
        if value > best:
            best, best_row = value, 1
    if free[0]:
        if rank < QUEEN and not rows.counts[0][rank]:
            value = 1.0 - 0.3 * rank  # a low card for the top (:func:`_top_score`)
        else:
            value = _top_score(rows, rank, style)
        if value > best:
            best, best_row = value, 0
    return best, best_row, card


def _bottom_value(rows: RowCounts, card: int, need: int) -> float:
    """``card``'s worth in the bottom (see :func:`_best_row`)."""
    rank, pairs = card >> 2, rows.pairs
    have = rows.counts[2][rank]
    if have:
        value = 3 + 2.5 * have + 0.15 * rank + 1
        return value + 4 if pairs[2] <= pairs[1] and (need >= 0 or pairs[0]) else value
    size = rows.size[2]
    if size == 0:
        return 1.0 + 0.05 * rank + 0.5
    if rows.suits[2][card & 3] == size and pairs[2] == 0:
        return 1.0 + 0.9 * size + (3 if size == 4 else 0)
    return -0.5 + 0.03 * rank - (1.5 if rows.free[2] <= 2 else 0) - 0.6


def _middle_value(rows: RowCounts, card: int, need: int) -> float:
    """``card``'s worth in the middle (see :func:`_best_row`)."""
    rank, pairs = card >> 2, rows.pairs
    have = rows.counts[1][rank]
    if need >= 0:
        return _middle_under_pressure(rows, rank, have, need)
    if have:
        level = pairs[1] + have
        if level > pairs[2] or (level == pairs[2] and rank > rows.high_pair[2]):
            return -2.5 if rows.free[2] >= 4 else -5.0
        return 3 + 2.5 * have + 0.15 * rank
    size = rows.size[1]
    if size == 0:
        return 1.0 + 0.05 * rank
    if rows.suits[1][card & 3] == size and pairs[1] == 0 and (
            pairs[2] >= 3 or max(rows.suits[2]) > size):
        return 1.0 + 0.7 * size + (3 if size == 4 else 0)
    return -0.5 + 0.03 * rank - (1.5 if rows.free[1] <= 2 else 0)


def _ranked(rows: RowCounts, cards: Iterable[int], style: Style) -> list[tuple[float, int, int]]:
    """(best score, its row, card) of each of ``cards`` on the same rows, best first."""
    need = _uncovered_top_pair(rows) if rows.pairs[0] else -1
    ranked = [_best_row(rows, card, style, need) for card in cards]
    ranked.sort(reverse=True)
    return ranked


def _place_in_order(view: View, style: Style, order: list[int], top: tuple[int, ...],
                    known: RowCounts | None = None) -> tuple[Placement, RowCounts]:
    """Every dealt card placed: ``top`` first on the top, then the ``order`` cards one at a
    time where they score best. ``known`` (the row state of ``view.board``, which it then
    goes on from) spares recounting the board."""
    rows = known.see(view) if known is not None else RowCounts(view.board, view)
    placed: tuple[list[int], list[int], list[int]] = (list(top), [], [])
    for card in top:
        rows.add(0, card)
    for card in order:
        row = _best_row(rows, card, style)[1]
        rows.add(row, card)
        placed[row].append(card)
    return PLACEMENT((tuple(placed[0]), tuple(placed[1]), tuple(placed[2]), ())), rows


def _place_kept(view: View, style: Style, kept: list[int], discard: tuple[int, ...],
                ) -> tuple[float, Placement, RowCounts]:
    """The ``kept`` cards placed one at a time, the best-scoring first, with the sum of their
    scores (to compare discards)."""
    rows = RowCounts(view.board, view)
    placed: tuple[list[int], list[int], list[int]] = ([], [], [])
    total = 0.0
    while kept:
        value, row, card = max(_best_row(rows, c, style) for c in kept)
        kept = [c for c in kept if c != card]
        total += value
        rows.add(row, card)
        placed[row].append(card)
    return total, Placement(tuple(placed[0]), tuple(placed[1]), tuple(placed[2]), discard), rows


def _greedy_rows(view: View, style: Style, known: RowCounts | None,
                 rng: random.Random) -> tuple[Placement, RowCounts]:
    """Place cards one at a time where they score best; the cards left are discarded.

    ``known`` is the row state of ``view.board`` when the caller kept it from its last move.
    When every dealt card is placed (the first street, regular and turbo streets), the cards
    go in order, pairs and high cards first (a first street's queen-or-better pair goes on top
    when the other cards give it enough cover); otherwise the best-scoring cards are kept.
    """
    dealt = view.dealt
    if view.place == len(dealt):
        if not ranks_held(sum(map(RANK_TALLY.__getitem__, dealt)), 2):
            return _place_in_order(view, style, sorted(dealt, reverse=True), (), known)  # no pair
        ranks = [c >> 2 for c in dealt]
        order = [c for _, c in sorted([(ranks.count(c >> 2), c) for c in dealt], reverse=True)]
        if not view.board[0] and ranks.count(order[0] >> 2) == 2 and order[0] >> 2 >= QUEEN:
            tried = _place_in_order(view, style, order[2:], (order[0], order[1]))
            if cover_chance(tried[1], order[0] >> 2) >= style.commit:
                return tried
        return _place_in_order(view, style, order, (), known)
    if style.look_ahead is not None and view.place < len(dealt):
        rows = known.see(view) if known is not None else RowCounts(view.board, view)
        ahead = style.look_ahead(view, rows, rng)
        if ahead is not None:
            return ahead
        known = rows
    if style.weigh_discards:
        return max((_place_kept(view, style, [c for c in dealt if c != d], (d,))
                    for d in dealt), key=lambda option: option[0])[1:]
    rows = known.see(view) if known is not None else RowCounts(view.board, view)
    if view.place == 2 and len(dealt) == 3:
        return _keep_two(rows, dealt, style), rows
    placed: tuple[list[int], list[int], list[int]] = ([], [], [])
    # Rank the dealt cards by their best score: the weakest are discarded, the others placed
    # best first (each after the previous one is on the board).
    ranked = _ranked(rows, dealt, style)
    keep = view.place
    for k in range(keep):
        row, card = ranked[k][1], ranked[k][2]
        if k:
            row = _best_row(rows, card, style)[1]
        rows.add(row, card)
        placed[row].append(card)
    discard = tuple([r[2] for r in ranked[keep:]])
    return PLACEMENT((tuple(placed[0]), tuple(placed[1]), tuple(placed[2]), discard)), rows


def _keep_two(rows: RowCounts, dealt: tuple[int, ...], style: Style) -> Placement:
    """A pineapple street as :func:`_greedy_rows` plays it (the best-scoring card placed, then
    the next best where it now scores best, the third discarded), without its general loop."""
    need = _uncovered_top_pair(rows) if rows.pairs[0] else -1
    a, b, c = dealt
    first = _best_row(rows, a, style, need)  # then ordered best first (a sort of three)
    second = _best_row(rows, b, style, need)
    if second > first:
        first, second = second, first
    third = _best_row(rows, c, style, need)
    if third > second:
        second, third = third, second
        if second > first:
            first, second = second, first
    row, card = first[1], first[2]
    rows.add(row, card)
    placed: list[tuple[int, ...]] = [(), (), ()]
    placed[row] = (card,)
    card = second[2]
    row = _best_row(rows, card, style)[1]
    rows.add(row, card)
    placed[row] += (card,)
    return PLACEMENT((placed[0], placed[1], placed[2], (third[2],)))


def _finishes(view: View) -> Iterable[Placement]:
    """Every distinct legal placement of the last street (it fills the board)."""
    slots = [row for row, free in enumerate(view.free) for _ in range(free)]
    seen = set()
    for kept in combinations(view.dealt, view.place):
        discard = tuple(c for c in view.dealt if c not in kept)
        for order in permutations(kept):
            rows: tuple[list[int], list[int], list[int]] = ([], [], [])
            for row, card in zip(slots, order, strict=True):
                rows[row].append(card)
            key = tuple(tuple(sorted(r)) for r in rows)
            if key not in seen:
                seen.add(key)
                yield Placement(tuple(rows[0]), tuple(rows[1]), tuple(rows[2]), discard)


def _plain_order(rows: RowCounts) -> tuple[bool, bool]:
    """Whether top <= middle and middle <= bottom are plain from the counts alone: a paired row
    is never a straight or a flush, so among paired rows more pairing (pair, two pair, trips,
    full house, quads) is stronger, and any pair beats an unpaired top. What is not plain goes
    to the evaluator."""
    top, middle, bottom = rows.pairs
    return (0 < middle and (top == 0 or (top == 1 and middle >= 2))), 0 < middle < bottom


def _finish(view: View, style: Style, greedy: Placement, rows: RowCounts) -> Placement:
    """The last street: the ``greedy`` move (:func:`_greedy_rows`, which left ``rows``) if it
    does not foul; otherwise the best-paying finish that does not (or the greedy move when
    every finish fouls)."""
    top_ok, bottom_ok = _plain_order(rows)
    if top_ok and bottom_ok:
        return greedy
    t, m, b = view.board
    middle = row_strength(m + greedy[1])
    if (top_ok or row_strength(t + greedy[0]) <= middle) and (
            bottom_ok or middle <= row_strength(b + greedy[2])):
        return greedy
    best, best_value = greedy, -1e9
    for placement in _finishes(view):
        top, middle, bottom = (row_strength(t + placement[0]), row_strength(m + placement[1]),
                               row_strength(b + placement[2]))
        if is_foul(top, middle, bottom):
            continue
        value = board_value(view.ruleset, (top, middle, bottom), style.fl_bonus, False)
        if value > best_value:
            best, best_value = placement, value
    return best


class HeuristicPolicy:
    """A policy driven by a :class:`Style` (``careful``, ``chaser``). It remembers the row
    state its last move left, and reuses it when its next view shows exactly that board (a
    speed-up only: the moves are the same without it)."""

    __slots__ = ("style", "_after", "_rows", "_plain")

    def __init__(self, style: Style) -> None:
        self.style = style
        self._after: tuple[tuple[int, ...], ...] | None = None
        self._rows: RowCounts | None = None
        self._plain = not (style.look_ahead or style.weigh_discards)
        """A pineapple street goes straight to :func:`_keep_two` (what :func:`_greedy_rows`
        does for such a style)."""

    @property
    def name(self) -> str:
        return self.style.name

    def place(self, view: View, rng: random.Random) -> Placement:
        dealt, board = view.dealt, view.board
        if view.fantasyland:
            return set_fantasyland(dealt, view.ruleset)
        known = self._rows if self._after == board else None
        self._after = self._rows = None
        if self._plain and known is not None and view.place == 2 and len(dealt) == 3:
            rows = known.see(view)
            placement = _keep_two(rows, dealt, self.style)
        else:
            placement, rows = _greedy_rows(view, self.style, known, rng)
        if view.street == view.last_street:
            return _finish(view, self.style, placement, rows)
        t, m, b = board
        self._after = (t + placement[0], m + placement[1], b + placement[2])
        self._rows = rows
        return placement

    def offers_double(self, cube: CubeView, rng: random.Random) -> bool:
        return offers_by_score(cube, self.style.double_lead)

    def accepts_double(self, cube: CubeView, rng: random.Random) -> bool:
        return accepts_by_score(cube, self.style.take_deficit)



CAREFUL = Style("careful", chase_fl=False, commit=0.25, weigh_discards=False, look_ahead=None,
                fl_bonus=8.0, double_lead=10, take_deficit=12)
