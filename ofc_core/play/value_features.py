"""What the learned value of a position reads of a board, and the placements a street allows,
both vectorised over many boards (numpy arrays of card indexes, ``-1`` for an empty slot, in
the 13-slot order of :func:`ofc_core.play.rollout.board_array`: top 0-2, middle 3-7, bottom
8-12).

:func:`features` turns ``(N, 13)`` boards into ``(N, F)`` numbers, per row: the cards of each
rank (a 13-long count), cards held, pairs, trips and quads, the rank of the highest pair and
trips, the highest card, the longest suit and whether a flush is still possible, the most ranks
in one straight window and whether a straight is still possible; for the top, which pair it
holds (one-hot); across rows, the made category of each row and whether a row already beats
the one below it (the foul risk). Only the player's own board is read (not the cards it has
seen elsewhere).

Two presets read more (their values are trained with it, and a weights file records which):

- at a joker table (``jokers=True``) a joker (card 52 or 53) is counted in no rank and no suit,
  and three more features count the jokers in each row (a joker is a wild card: the rows'
  rank and suit summaries say what it can complete);
- at a 2-7 table (``low27=True``) six more: whether the middle is still a live low (no pair,
  nothing above a ten, not five of one suit or five in a row), its highest and second highest
  rank, its cards of seven or lower, and whether the top already beats the bottom (by category,
  and by pair rank within one): the 2-7 foul rule, where the poker middle's "top beats middle"
  means nothing.

>>> import numpy as np
>>> from ofc_core.cards import parse_cards
>>> board = np.full((1, 13), -1, np.int8)
>>> board[0, :2] = [c.index for c in parse_cards("Qh Qd")]
>>> f = features(board)
>>> f.shape == (1, FEATURES)
True
>>> float(f[0, TOP_PAIR_AT + 10])  # a pair of queens on top (rank index 10)
1.0

:func:`street_options` lists every way to keep ``place`` of ``dealt`` cards and give each a
row; :func:`expand` lays each option onto many boards at once, and says which fit.

>>> opts = street_options(3, 2)
>>> len(opts.keep)  # keep 2 of 3 (3 ways), each into one of 3 rows (9 ways)
27
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from itertools import combinations, product

import numpy as np

ROW_START = (0, 3, 8)
ROW_SIZE = (3, 5, 5)
ROW_OF_SLOT = np.array([0] * 3 + [1] * 5 + [2] * 5, np.int64)

PER_ROW = 13 + 13
"""Per row: 13 rank counts, then 13 summaries (see :func:`_row_summary`)."""
TOP_PAIR_AT = 3 * PER_ROW
"""Where the top's pair one-hot (13, by rank index) starts."""
CROSS = 9
"""Across rows: made category of each row (3), top beats middle, middle beats bottom (each by
category and by pair rank: 4), free slots in all and cards on the board (2)."""
FEATURES = TOP_PAIR_AT + 13 + CROSS
"""Features of a board at a table without jokers and with a poker middle."""
JOKER_FEATURES = 3
"""More at a joker table: the jokers in each row."""
LOW27_FEATURES = 6
"""More at a 2-7 table (see the module's doc)."""
JOKER = 52
"""The first joker's card index (X1 52, X2 53)."""


def width(jokers: bool = False, low27: bool = False) -> int:
    """Features of a board at a table with or without jokers and a 2-7 middle.

    >>> width(), width(jokers=True), width(low27=True)
    (100, 103, 106)
    """
    return FEATURES + JOKER_FEATURES * jokers + LOW27_FEATURES * low27


def counts(boards: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``(3, 13, N)`` cards of each rank and ``(3, 4, N)`` of each suit, per row, board last
    (a joker is in neither). Boards last, so that every sum or maximum over ranks adds whole
    rows of ``N`` numbers: many times quicker than reducing 13 numbers per board."""
    n = len(boards)
    slots = boards.T.astype(np.intp)
    real = (slots >= 0) & (slots < JOKER)
    ranks = np.zeros((40, n), np.int8)  # row 39: the empty slots and jokers
    suits = np.zeros((13, n), np.int8)  # row 12: the same
    flat_ranks, flat_suits = ranks.reshape(-1), suits.reshape(-1)
    board = np.arange(n)
    for slot in range(13):
        row = int(ROW_OF_SLOT[slot])
        card = slots[slot]
        flat_ranks[np.where(real[slot], row * 13 + (card >> 2), 39) * n + board] += 1
        flat_suits[np.where(real[slot], row * 4 + (card & 3), 12) * n + board] += 1
    return ranks[:39].reshape(3, 13, n), suits[:12].reshape(3, 4, n)


_RANK_PLUS_ONE = np.arange(1, 14, dtype=np.int8)[:, None]


def _category(pairs: np.ndarray, trips: np.ndarray, quads: np.ndarray, flush: np.ndarray,
              straight: np.ndarray) -> np.ndarray:
    """Made category of a row so far: 0 high card, 1 pair, 2 two pair, 3 trips, 4 straight,
    5 flush, 6 full house, 7 quads (straight flushes count as flushes here)."""
    cat = np.where(pairs >= 1, 1, 0)
    cat = np.where(pairs >= 2, 2, cat)
    cat = np.where(trips >= 1, 3, cat)
    cat = np.where(straight, 4, cat)
    cat = np.where(flush, 5, cat)
    cat = np.where((trips >= 1) & (pairs >= 1), 6, cat)
    return np.where(quads >= 1, 7, cat)


def _windows(seen: np.ndarray, wheel: bool) -> np.ndarray:
    """``(N,)``: the most ranks of ``(13, N)`` ``seen`` in five in a row (the ace also low
    with ``wheel``)."""
    if wheel:
        seen = np.concatenate([seen[12:], seen], axis=0)
    k = len(seen) - 4
    window = seen[:k] + seen[1:k + 1] + seen[2:k + 2] + seen[3:k + 3] + seen[4:k + 4]
    most: np.ndarray = window.max(axis=0)
    return most


def _row_summary(ranks: np.ndarray, suits: np.ndarray, size: int, out: np.ndarray
                 ) -> tuple[np.ndarray, np.ndarray]:
    """Writes into ``(13, N)`` ``out`` the summaries of one row from its rank ``(13, N)`` and
    suit ``(4, N)`` counts; returns the row's made category and the rank (+1, 0 for none) of
    its highest pair."""
    held = ranks.sum(axis=0)
    pairs, trips, quads = ((ranks == k).sum(axis=0) for k in (2, 3, 4))
    pair_rank = ((ranks >= 2) * _RANK_PLUS_ONE).max(axis=0)
    trips_rank = ((ranks >= 3) * _RANK_PLUS_ONE).max(axis=0)
    high = ((ranks > 0) * _RANK_PLUS_ONE).max(axis=0)
    longest_suit = suits.max(axis=0)
    in_window = _windows((ranks > 0).astype(np.int8), wheel=True)
    unpaired = (pairs + trips + quads) == 0
    five = size == 5
    flush_live = five & (held > 0) & (longest_suit == held)
    straight_live = five & (held > 0) & unpaired & (in_window == held)
    made_flush = five & (longest_suit == 5)
    made_straight = five & (in_window == 5)
    category = _category(pairs, trips, quads, made_flush, made_straight)
    for k, column in enumerate((held / size, (size - held) / size, pairs, trips, quads,
                                pair_rank / 13, trips_rank / 13, high / 13, longest_suit / 5,
                                flush_live, straight_live, in_window / 5, category / 7)):
        out[k] = column
    return category, pair_rank


def features(boards: np.ndarray, jokers: bool = False, low27: bool = False) -> np.ndarray:
    """``(N, width(jokers, low27))`` float32 features of ``(N, 13)`` boards (see the module's
    doc)."""
    return np.ascontiguousarray(feature_columns(boards, jokers, low27).T)


def feature_columns(boards: np.ndarray, jokers: bool = False, low27: bool = False
                    ) -> np.ndarray:
    """:func:`features` with a feature's values together: ``(width(jokers, low27), N)``, as
    they are computed (the learned value's inference reads them so, without a copy)."""
    n = len(boards)
    ranks, suits = counts(boards)
    out = np.empty((width(jokers, low27), n), np.float32)  # a feature's values together
    cats, pair_ranks = [], []
    for r in range(3):
        at = r * PER_ROW
        out[at:at + 13] = ranks[r]
        category, pair_rank = _row_summary(ranks[r], suits[r], ROW_SIZE[r],
                                           out[at + 13:at + PER_ROW])
        cats.append(category)
        pair_ranks.append(pair_rank)
    out[TOP_PAIR_AT:TOP_PAIR_AT + 13] = ranks[0] >= 2
    at = TOP_PAIR_AT + 13
    top, middle, bottom = cats
    out[at:at + 3] = np.stack(cats, axis=0) / 7
    out[at + 3] = top > middle
    out[at + 4] = middle > bottom
    out[at + 5] = (top == middle) & (pair_ranks[0] > pair_ranks[1])
    out[at + 6] = (middle == bottom) & (pair_ranks[1] > pair_ranks[2])
    slots = boards.T
    on_board = (slots >= 0).sum(axis=0)
    out[at + 7] = (13 - on_board) / 13
    out[at + 8] = on_board / 13
    at = FEATURES
    if jokers:
        wild = slots >= JOKER
        out[at:at + 3] = np.stack([wild[s:s + k].sum(axis=0)
                                   for s, k in zip(ROW_START, ROW_SIZE, strict=True)], axis=0)
        at += JOKER_FEATURES
    if low27:
        out[at:at + LOW27_FEATURES] = _low27(ranks[1], suits[1], cats, pair_ranks)
    return out


_LOW_HIGHEST = 8
"""A 2-7 low's highest rank index: ten (ranks index 0 for a deuce to 12 for an ace)."""


def _low27(ranks: np.ndarray, suits: np.ndarray, cats: list[np.ndarray],
           pair_ranks: list[np.ndarray]) -> np.ndarray:
    """``(6, N)``: the 2-7 features of the middle's ``(13, N)`` rank and ``(4, N)`` suit counts
    and the rows' categories and pair ranks (see the module's doc)."""
    seen = ranks > 0
    order = seen * _RANK_PLUS_ONE
    highest = order.max(axis=0)
    second = np.where(order == highest, 0, order).max(axis=0)
    five_in_row = _windows(seen.astype(np.int8), wheel=False) == 5
    live = ((ranks <= 1).all(axis=0) & (highest <= _LOW_HIGHEST + 1)
            & (suits.max(axis=0) < 5) & ~five_in_row)
    seven_or_lower = ranks[:6].sum(axis=0)
    top, bottom = cats[0], cats[2]
    return np.stack([live, highest / 13, second / 13, seven_or_lower / 5,
                     top > bottom, (top == bottom) & (pair_ranks[0] > pair_ranks[2])], axis=0)


# --------------------------------------------------------------------------------------------
# The placements of one street, on many boards at once


@dataclass(frozen=True)
class StreetOptions:
    """Every way to place ``place`` of ``dealt`` cards: for option ``o``, the dealt cards kept
    ``keep[o]`` (indexes, ascending), the row of each ``rows[o]``, and how many kept cards
    before it go to the same row ``offset[o]`` (so each card gets its own slot)."""

    keep: np.ndarray  # (O, place)
    rows: np.ndarray  # (O, place)
    offset: np.ndarray  # (O, place)
    per_row: np.ndarray  # (O, 3): cards the option puts in each row


@cache
def street_options(dealt: int, place: int) -> StreetOptions:
    """All options of a street (cached): ``C(dealt, place) * 3**place`` of them."""
    keep, rows = [], []
    for kept in combinations(range(dealt), place):
        for labels in product(range(3), repeat=place):
            keep.append(kept)
            rows.append(labels)
    rows_a = np.array(rows, np.int64).reshape(len(rows), place)
    offset = np.zeros_like(rows_a)
    for j in range(place):
        offset[:, j] = (rows_a[:, :j] == rows_a[:, j:j + 1]).sum(axis=1)
    per_row = np.stack([(rows_a == r).sum(axis=1) for r in range(3)], axis=1)
    return StreetOptions(np.array(keep, np.int64).reshape(len(keep), place), rows_a, offset,
                         per_row)


def expand(boards: np.ndarray, dealt: np.ndarray, place: int
           ) -> tuple[np.ndarray, np.ndarray]:
    """Every option of a street laid on ``(B, 13)`` boards with ``(B, d)`` dealt cards: the
    ``(B, O, 13)`` boards after it and ``(B, O)`` whether it fits (no row overfilled).

    >>> board = np.full((1, 13), -1, np.int8)
    >>> after, fits = expand(board, np.array([[7, 8, 9]], np.int8), 2)
    >>> int(fits.sum()), sorted(int(c) for c in after[0, 0] if c >= 0)
    (27, [7, 8])
    """
    opts = street_options(dealt.shape[1], place)
    filled = np.stack([(boards[:, s:s + n] >= 0).sum(axis=1)
                       for s, n in zip(ROW_START, ROW_SIZE, strict=True)], axis=1)
    size = np.array(ROW_SIZE)
    fits = ((filled[:, None, :] + opts.per_row[None]) <= size).all(axis=2)
    after = np.repeat(boards[:, None, :], len(opts.keep), axis=1)
    start = np.array(ROW_START)
    b_index = np.arange(len(boards))[:, None]
    o_index = np.arange(len(opts.keep))[None, :]
    for j in range(place):
        row = opts.rows[:, j]
        slot = start[row][None, :] + np.take(filled, row, axis=1) + opts.offset[None, :, j]
        card = dealt[:, opts.keep[:, j]]
        after[b_index, o_index, np.minimum(slot, 12)] = np.where(
            fits, card, after[b_index, o_index, np.minimum(slot, 12)])
    return after, fits
