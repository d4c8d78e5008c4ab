"""Row helpers shared by the bots: rank and suit counts of the rows during one decision,
royalties by strength index, the worth of a finished board, and rank and suit tallies.

>>> ranks_held(RANK_TALLY[0] + RANK_TALLY[1] + RANK_TALLY[4], 2) == 8  # two deuces, one trey
True
"""

from __future__ import annotations

from functools import partial

from ofc_core.batch_boards import ROYALTY_INDEX_SHIFT, royalty_array
from ofc_core.evaluate import Strength
from ofc_core.play.engine import Placement, View
from ofc_core.rules import RoyaltyTable, Ruleset

QUEEN, KING, ACE = 10, 11, 12
"""Rank indexes (card index >> 2) of the cards that open Fantasyland."""

PLACEMENT = partial(tuple.__new__, Placement)
"""A :class:`Placement` from its four rows as one tuple, without the keyword-default
constructor (one call layer less in the hot loop)."""

# --------------------------------------------------------------------------------------------
# Row state on rank and suit counts


class RowCounts:
    """Rank and suit counts of the three rows during one decision (mutable), with
    what is still to come: :attr:`to_come` cards will be dealt after this street, out of
    :attr:`unseen` cards the player has not seen."""

    __slots__ = ("counts", "suits", "size", "free", "pairs", "high_pair", "_dead", "_view")

    def __init__(self, board: tuple[tuple[int, ...], ...], view: View) -> None:
        self.counts = [[0] * 13, [0] * 13, [0] * 13]
        self.suits = [[0] * 4, [0] * 4, [0] * 4]
        self.pairs = [0, 0, 0]
        """Sum over ranks of count*(count-1)/2: 1 pair, 2 two pair, 3 trips, 4 full house."""
        self.high_pair = [-1, -1, -1]
        self.size = [0, 0, 0]
        self.free = [3, 5, 5]
        for row, cards in enumerate(board):
            for card in cards:
                self.add(row, card)
        self._view = view
        self._dead: list[int] | None = None

    def see(self, view: View) -> RowCounts:
        """The same rows, for the next decision (``view.board`` must hold exactly them)."""
        self._view, self._dead = view, None
        return self

    @property
    def to_come(self) -> int:
        """Cards the player is dealt after this street in a normal hand (read only when a
        chance is estimated, so not kept)."""
        view = self._view
        return cards_to_come(view.ruleset, view.street)

    @property
    def unseen(self) -> int:
        """Cards the player has not seen when it decides: not on its board (as the view shows
        it, before this street's cards are placed) and not dealt to it on this street."""
        view = self._view
        t, m, b = view.board
        return 52 - len(t) - len(m) - len(b) - len(view.dealt)

    def live(self, rank: int) -> int:
        """Cards of ``rank`` the player has not seen (not on its board, not dealt to it on this
        street, not on an opponent's visible board): its outs to pair that rank."""
        dead = self._dead
        if dead is None:
            dead = self._dead = [0] * 13
            view = self._view
            for card in view.dealt:
                dead[card >> 2] += 1
            for cards in view.board:
                for card in cards:
                    dead[card >> 2] += 1
            for rows in view.opponents:
                for cards in rows:
                    for card in cards:
                        dead[card >> 2] += 1
        return 4 - dead[rank]

    def hit(self, outs: int) -> float:
        """Chance that at least one of ``outs`` cards comes among the cards still to come."""
        to_come = self.to_come
        if outs <= 0 or to_come <= 0:
            return 0.0
        unseen = self.unseen
        if unseen <= 0:
            return 0.0
        return 1.0 - (1.0 - min(1.0, outs / unseen)) ** to_come

    def add(self, row: int, card: int) -> None:
        rank = card >> 2
        counts = self.counts[row]
        have = counts[rank]
        if have:
            self.pairs[row] += have
            if rank > self.high_pair[row]:
                self.high_pair[row] = rank
        counts[rank] = have + 1
        self.suits[row][card & 3] += 1
        self.free[row] -= 1
        self.size[row] += 1

    def middle_covers(self, rank: int) -> bool:
        """The middle already beats a top pair of ``rank`` (two pair or a higher pair) and
        the bottom is at least as strong."""
        middle = self.pairs[1] >= 2 or (self.pairs[1] == 1 and self.high_pair[1] >= rank)
        return middle and self.pairs[2] >= self.pairs[1]


_TO_COME: dict[tuple[int, int], tuple[object, int]] = {}


def cards_to_come(ruleset: Ruleset, street: int) -> int:
    """Cards a player is dealt after ``street`` in a normal hand."""
    dealing = ruleset.dealing
    key = (id(dealing), street)
    known = _TO_COME.get(key)
    if known is None or known[0] is not dealing:
        known = _TO_COME[key] = (dealing, sum(s.dealt for s in dealing.streets[street + 1:]))
    return known[1]



_ROW_ROYALTIES: dict[int, tuple[RoyaltyTable, tuple[list[int], ...]]] = {}


def row_royalties(table: RoyaltyTable) -> tuple[list[int], ...]:
    """``table.points`` of the top, the middle and the bottom, each by ``strength >>
    ROYALTY_INDEX_SHIFT`` (a royalty depends only on that index:
    :func:`ofc_core.batch_boards.royalty_array`), remembered per table (a royalty table is an
    immutable value)."""
    known = _ROW_ROYALTIES.get(id(table))
    if known is None or known[0] is not table:
        rows = tuple([int(r) for r in row] for row in royalty_array(table))
        known = _ROW_ROYALTIES[id(table)] = (table, rows)
    return known[1]


def row_royalty(table: RoyaltyTable, row: int, strength: Strength) -> int:
    """``table.points`` for row ``row`` (0 top, 1 middle, 2 bottom)."""
    return row_royalties(table)[row][strength >> ROYALTY_INDEX_SHIFT]


def worth(royalties: tuple[int, int, int], strengths: tuple[Strength, Strength, Strength],
           bonus: float) -> float:
    """Royalties plus ``bonus`` (the worth of Fantasyland next hand, 0 when not earned), plus
    a small pull toward strong rows (0.05 a row per hand category), so ties favour hands that
    win more rows."""
    top, middle, bottom = strengths
    return sum(royalties) + bonus + ((top >> 20) + (middle >> 20) + (bottom >> 20)) * 0.05


def board_value(ruleset: Ruleset, strengths: tuple[Strength, Strength, Strength],
                 fl_bonus: float, in_fl: bool) -> float:
    """Royalties plus the worth of Fantasyland next hand (:func:`worth`); fouls are ruled out
    by the caller."""
    table = ruleset.paid_royalties
    top, middle, bottom = strengths
    royalties = (row_royalty(table, 0, top), row_royalty(table, 1, middle),
                 row_royalty(table, 2, bottom))
    fl_next = ruleset.fantasyland_cards(False, in_fl, top, strengths, royalties)
    return worth(royalties, strengths, fl_bonus if fl_next else 0)


RANK_TALLY = tuple(1 << 4 * (c >> 2) for c in range(52))
"""Each card as a 1 in the 4-bit field of its rank: summed over cards, field ``r`` counts the
cards of rank ``r`` (at most 4, so fields never overflow)."""
_RANK_FIELDS = sum(1 << 4 * r for r in range(13))
_RANK_HELD_BIAS = tuple((8 - times) * _RANK_FIELDS for times in range(5))
_RANK_FIELD_TOPS = 8 * _RANK_FIELDS


def ranks_held(tally: int, times: int) -> int:
    """The top bit of the field (in a summed :data:`RANK_TALLY`) of each rank held at least
    ``times`` times (1 to 4)."""
    return (tally + _RANK_HELD_BIAS[times]) & _RANK_FIELD_TOPS
