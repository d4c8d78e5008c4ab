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

from ofc_core.board import ROW_SIZE, ROW_START

ROW_OF_SLOT = np.array([0] * 3 + [1] * 5 + [2] * 5, np.int64)
_ROW_STARTS = np.array(ROW_START)

PER_ROW = 13 + 13
"""Per row: 13 rank counts, then 13 summaries (see :func:`_rows_summary`)."""
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
    both = rank_suit_counts(boards)
    return both[:, :13], both[:, 13:]


def rank_suit_counts(boards: np.ndarray) -> np.ndarray:
    """``(3, 17, N)``: per row, the cards of each rank (13), then of each suit (4), of
    ``(N, 13)`` boards (:func:`counts` together, in one count).

    >>> board = np.full((1, 13), -1, np.int8)
    >>> board[0, :2] = [48, 49]  # Ac Ad on top
    >>> rank_suit_counts(board)[0, [12, 13, 14], 0].tolist()  # aces, clubs, diamonds
    [2, 1, 1]
    """
    n = len(boards)
    slots = boards.T.astype(np.intp)
    real = (slots >= 0) & (slots < JOKER)
    at = ROW_OF_SLOT[:, None] * 17
    board = np.arange(n)
    rank = np.where(real, at + (slots >> 2), 51) * n + board  # 51: empty slots and jokers
    suit = np.where(real, at + 13 + (slots & 3), 51) * n + board
    found = np.bincount(np.concatenate([rank.ravel(), suit.ravel()]), minlength=52 * n)
    return found[:51 * n].astype(np.int8).reshape(3, 17, n)


_RANK_PLUS_ONE = np.arange(1, 14, dtype=np.int8)[:, None]


def _category(pairs: np.ndarray, trips: np.ndarray, quads: np.ndarray, flush: np.ndarray,
              straight: np.ndarray) -> np.ndarray:
    """Made category of a row so far: 0 high card, 1 pair, 2 two pair, 3 trips, 4 straight,
    5 flush, 6 full house, 7 quads (straight flushes count as flushes here)."""
    cat: np.ndarray = np.minimum(pairs, 2).astype(np.int8)  # later categories outrank earlier
    for made, category in ((trips >= 1, 3), (straight, 4), (flush, 5),
                           ((trips >= 1) & (pairs >= 1), 6), (quads >= 1, 7)):
        np.maximum(cat, made * np.int8(category), out=cat)
    return cat


def _windows(seen: np.ndarray, wheel: bool) -> np.ndarray:
    """``(N,)``: the most ranks of ``(13, N)`` ``seen`` in five in a row (the ace also low
    with ``wheel``)."""
    if wheel:
        seen = np.concatenate([seen[12:], seen], axis=0)
    k = len(seen) - 4
    window = seen[:k] + seen[1:k + 1] + seen[2:k + 2] + seen[3:k + 3] + seen[4:k + 4]
    most: np.ndarray = window.max(axis=0)
    return most


def _rank_masks(ranks: np.ndarray) -> np.ndarray:
    """``(4, N)``: for ``t`` = 1 to 4, the ranks of ``(13, N)`` rank counts with at least ``t``
    cards, as 13 bits (bit ``k`` for rank index ``k``). A row's rank summaries are looked up by
    these masks (:func:`_mask_tables`): one matrix product instead of a pass over the 13 ranks
    per summary.

    >>> ranks = np.zeros((13, 1), np.int8)
    >>> ranks[[0, 12], 0] = [2, 1]  # a pair of deuces and an ace
    >>> _rank_masks(ranks)[:, 0].tolist()
    [4097, 1, 0, 0]
    """
    thresholds = _THRESHOLDS.reshape((4,) + (1,) * ranks.ndim)
    at_least = (ranks[None] >= thresholds).astype(np.float32)  # (4, ..., 13, N)
    masks: np.ndarray = (_BITS @ at_least).astype(np.intp)  # exact: sums of powers of two
    return masks


_THRESHOLDS = np.arange(1, 5, dtype=np.int8)
_BITS = (2.0 ** np.arange(13)).astype(np.float32)


@cache
def _mask_tables() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """By a 13-bit rank mask (8,192 of them): the ranks it holds, its highest rank (+1, 0 for
    none) and the most of its ranks in five in a row (the ace also low), each ``int8``.

    >>> held, highest, window = _mask_tables()
    >>> mask = 0b1000000001111  # 2 3 4 5 and the ace: a wheel
    >>> int(held[mask]), int(highest[mask]), int(window[mask])
    (5, 13, 5)
    """
    bits = ((np.arange(8192)[None, :] >> np.arange(13)[:, None]) & 1).astype(np.int8)
    held = bits.sum(axis=0, dtype=np.int8)
    highest = (bits * _RANK_PLUS_ONE).max(axis=0)
    return held, highest, _windows(bits, wheel=True)


def _made_key(at_least: np.ndarray) -> np.ndarray:
    """``(...)``: an index of :func:`_rank_category` from ``(4, ...)`` counts of the ranks with at
    least 1, 2, 3 and 4 cards (a row holds at most 13 cards: at most 6 ranks with two, 4 with
    three, 3 with four)."""
    key: np.ndarray = (at_least[1] * np.int16(5) + at_least[2]) * np.int16(4) + at_least[3]
    return key


@cache
def _rank_category() -> np.ndarray:
    """The made category (:func:`_category`) of a row's ranks alone (no straight, no flush),
    by :func:`_made_key`.

    >>> int(_rank_category()[(1 * 5 + 1) * 4 + 0])  # one rank with three or more: trips
    3
    """
    two, three, four = np.meshgrid(np.arange(7), np.arange(5), np.arange(4), indexing="ij")
    key = (two * 5 + three) * 4 + four
    table = np.zeros(key.max() + 1, np.int8)
    none = np.zeros(key.shape, bool)
    table[key] = _category(two - three, three - four, four, none, none)
    return table


_FIVES = slice(1, 3)
"""The rows of five (the middle and the bottom: :data:`~ofc_core.board.ROW_SIZE`), where a
straight or a flush counts."""
_SIZES = np.array(ROW_SIZE, np.int8)[:, None]
_SCALED = ((slice(0, 2), None), (slice(2, 5), 1.0), (slice(5, 8), 13.0), (slice(8, 9), 5.0),
           (slice(9, 11), 1.0), (slice(11, 12), 5.0), (slice(12, 13), 7.0))
"""What runs of a row's 13 summaries are divided by (:func:`_rows_summary`; ``None``: the
row's size)."""


def _rows_summary(ranks: np.ndarray, suits: np.ndarray, out: np.ndarray
                  ) -> tuple[np.ndarray, np.ndarray]:
    """Writes into ``(3, 13, N)`` ``out`` the summaries of each row from its ``(3, 13, N)`` rank
    and ``(3, 4, N)`` suit counts; returns each row's made category and the rank (+1, 0 for
    none) of its highest pair, ``(3, N)`` each. The rank summaries are looked up by the rows'
    rank masks (:func:`_rank_masks`); straights and flushes count in a row of five only. All
    three rows go through each step together, as whole numbers, scaled at the end: the boards
    of a street are few (tens to hundreds), so numpy's cost per call, not per number, is most
    of the time."""
    held_of, highest, window = _mask_tables()
    masks = _rank_masks(ranks)  # (4, 3, N)
    at_least = held_of[masks]  # ranks with at least 1, 2, 3, 4 cards
    whole = np.zeros((13,) + masks.shape[1:], np.int8)  # the summaries before scaling
    held = at_least.sum(axis=0, dtype=np.int8, out=whole[0])
    np.subtract(_SIZES, held, out=whole[1])
    np.subtract(at_least[1], at_least[2], out=whole[2])  # pairs
    np.subtract(at_least[2], at_least[3], out=whole[3])  # trips
    whole[4] = at_least[3]  # quads
    for k, mask in ((5, masks[1]), (6, masks[2]), (7, masks[0])):  # pair, trips, high card
        np.take(highest, mask, out=whole[k], mode="clip")
    longest_suit = suits.max(axis=1, out=whole[8])
    in_window = np.take(window, masks[0], out=whole[11], mode="clip")
    category = np.take(_rank_category(), _made_key(at_least.astype(np.int16)), out=whole[12],
                       mode="clip")
    five_held, some = held[_FIVES], held[_FIVES] > 0
    whole[9, _FIVES] = some & (longest_suit[_FIVES] == five_held)  # a flush still live
    whole[10, _FIVES] = some & (masks[1, _FIVES] == 0) & (in_window[_FIVES] == five_held)
    made = category[_FIVES]
    np.maximum(made, (in_window[_FIVES] == 5) * np.int8(4), out=made)
    np.maximum(made, (longest_suit[_FIVES] == 5) * np.int8(5), out=made)
    for part, scale in _SCALED:  # a float64 division, rounded to float32 as it is stored
        if scale is None:
            np.divide(whole[part, 0], float(ROW_SIZE[0]), out=out[0, part])
            np.divide(whole[part, _FIVES].transpose(1, 0, 2), 5.0, out=out[_FIVES, part])
        else:
            np.divide(whole[part].transpose(1, 0, 2), scale, out=out[:, part])
    return category, whole[5]


def features(boards: np.ndarray, jokers: bool = False, low27: bool = False) -> np.ndarray:
    """``(N, width(jokers, low27))`` float32 features of ``(N, 13)`` boards (see the module's
    doc)."""
    return np.ascontiguousarray(feature_columns(boards, jokers, low27).T)


def feature_columns(boards: np.ndarray, jokers: bool = False, low27: bool = False
                    ) -> np.ndarray:
    """:func:`features` with a feature's values together: ``(width(jokers, low27), N)``, as
    they are computed (the learned value's inference reads them so, without a copy).

    Every feature is a feature of one row (:func:`rows_columns`), of the rows' categories and
    pair ranks together (:func:`cross_columns`), or of the number of cards on the board
    (:func:`count_columns`); :func:`layout` says where each part goes."""
    n = len(boards)
    ranks, suits = counts(boards)
    wild = joker_counts(boards) if jokers else None
    places = layout(jokers, low27)
    out = np.empty((width(jokers, low27), n), np.float32)  # a feature's values together
    rows, cats, pair_ranks = rows_columns(ranks, suits, wild, low27)
    for r, k in enumerate(row_widths(jokers, low27)):
        out[places.rows[r]] = rows[r, :k]
    out[places.cross] = cross_columns(list(cats), list(pair_ranks), low27)
    out[places.count] = count_columns((boards >= 0).sum(axis=1))
    return out


@dataclass(frozen=True)
class Layout:
    """Where each part of the features sits in :func:`feature_columns`: ``rows[r]`` the
    indexes of row ``r``'s features in :func:`rows_columns`' order, ``cross`` those of
    :func:`cross_columns`, ``count`` those of :func:`count_columns`."""

    rows: tuple[np.ndarray, np.ndarray, np.ndarray]
    cross: np.ndarray
    count: np.ndarray


@cache
def layout(jokers: bool = False, low27: bool = False) -> Layout:
    """The :class:`Layout` of the features at a table with or without jokers and a 2-7 middle.

    >>> places = layout()
    >>> [len(r) for r in places.rows], len(places.cross), len(places.count)
    ([40, 27, 27], 4, 2)
    """
    at = TOP_PAIR_AT + 13  # the across-rows block
    extra = FEATURES + JOKER_FEATURES * jokers  # the 2-7 block
    rows = []
    for r in range(3):
        index = list(range(r * PER_ROW, (r + 1) * PER_ROW))
        if r == 0:
            index += range(TOP_PAIR_AT, TOP_PAIR_AT + 13)
        index.append(at + r)
        if jokers:
            index.append(FEATURES + r)
        if low27 and r == 1:
            index += range(extra, extra + 4)
        rows.append(np.array(index, np.intp))
    cross = [at + 3, at + 4, at + 5, at + 6] + ([extra + 4, extra + 5] if low27 else [])
    return Layout((rows[0], rows[1], rows[2]), np.array(cross, np.intp),
                  np.array([at + 7, at + 8], np.intp))


def joker_counts(boards: np.ndarray) -> np.ndarray:
    """``(3, N)``: the jokers in each row of ``(N, 13)`` boards."""
    return per_row(boards >= JOKER).T


def per_row(slots: np.ndarray) -> np.ndarray:
    """``(B, 3)``: how many of each row's slots are true in ``(B, 13)`` ``slots``.

    >>> per_row(np.array([[1, 0, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0, 1]], bool)).tolist()
    [[2, 2, 1]]
    """
    counted: np.ndarray = np.add.reduceat(slots, _ROW_STARTS, axis=1, dtype=np.intp)
    return counted


def row_widths(jokers: bool = False, low27: bool = False) -> tuple[int, int, int]:
    """How many features each row has (:func:`rows_columns`).

    >>> row_widths(), row_widths(jokers=True, low27=True)
    ((40, 27, 27), (41, 32, 28))
    """
    return (PER_ROW + 13 + 1 + jokers, PER_ROW + 1 + jokers + 4 * low27, PER_ROW + 1 + jokers)


def rows_columns(ranks: np.ndarray, suits: np.ndarray, wild: np.ndarray | None, low27: bool
                 ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The features of the three rows from their ``(3, 13, N)`` rank and ``(3, 4, N)`` suit
    counts and ``(3, N)`` jokers (``None`` at a table without): ``(3, K, N)``, row ``r``'s
    features in its first :func:`row_widths` ``[r]`` places in :func:`layout`'s order (rank
    counts, summaries, the top's pair one-hot, the category, the jokers, the 2-7 middle's
    four), the rows' made categories and highest pairs' ranks (+1, 0 for none), ``(3, N)``
    each."""
    widths = row_widths(wild is not None, low27)
    out = np.empty((3, max(widths), ranks.shape[2]), np.float32)
    out[:, :13] = ranks
    category, pair_rank = _rows_summary(ranks, suits, out[:, 13:PER_ROW])
    out[0, PER_ROW:PER_ROW + 13] = ranks[0] >= 2
    at = np.array([PER_ROW + 13, PER_ROW, PER_ROW])  # each row's category, then the rest
    out[0, at[0]] = category[0] / 7
    out[1:, at[1]] = category[1:] / 7
    at += 1
    if wild is not None:
        out[0, at[0]] = wild[0]
        out[1:, at[1]] = wild[1:]
        at += 1
    if low27:
        out[1, at[1]:at[1] + 4] = _low27_middle(ranks[1], suits[1])
    return out, category, pair_rank


def cross_columns(cats: list[np.ndarray], pair_ranks: list[np.ndarray], low27: bool
                  ) -> np.ndarray:
    """``(4, N)`` float32 (6 with ``low27``): whether the top beats the middle and the middle the
    bottom, by category and by pair rank within one (the foul risk); at a 2-7 table also the
    top against the bottom, the 2-7 foul rule."""
    top, middle, bottom = cats
    out = np.empty((4 + 2 * low27,) + top.shape, np.float32)
    np.greater(top, middle, out=out[0])
    np.greater(middle, bottom, out=out[1])
    out[2] = (top == middle) & (pair_ranks[0] > pair_ranks[1])
    out[3] = (middle == bottom) & (pair_ranks[1] > pair_ranks[2])
    if low27:
        np.greater(top, bottom, out=out[4])
        out[5] = (top == bottom) & (pair_ranks[0] > pair_ranks[2])
    return out


def count_columns(on_board: np.ndarray) -> np.ndarray:
    """``(2, N)``: free slots and cards on the board, each over 13."""
    return np.stack([(13 - on_board) / 13, on_board / 13], axis=0)


_LOW_HIGHEST = 8
"""A 2-7 low's highest rank index: ten (ranks index 0 for a deuce to 12 for an ace)."""


def _low27_middle(ranks: np.ndarray, suits: np.ndarray) -> np.ndarray:
    """``(4, N)``: from the middle's ``(13, N)`` rank and ``(4, N)`` suit counts, whether it is
    still a live low, its highest and second highest rank, its cards of seven or lower."""
    seen = ranks > 0
    order = seen * _RANK_PLUS_ONE
    highest = order.max(axis=0)
    second = np.where(order == highest, 0, order).max(axis=0)
    five_in_row = _windows(seen.astype(np.int8), wheel=False) == 5
    live = ((ranks <= 1).all(axis=0) & (highest <= _LOW_HIGHEST + 1)
            & (suits.max(axis=0) < 5) & ~five_in_row)
    seven_or_lower = ranks[:6].sum(axis=0)
    return np.stack([live, highest / 13, second / 13, seven_or_lower / 5], axis=0)


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
    filled, fits = room(boards, dealt.shape[1], place)
    after = np.repeat(boards[:, None, :], len(opts.keep), axis=1)
    b_index = np.arange(len(boards))[:, None]
    o_index = np.arange(len(opts.keep))[None, :]
    for j in range(place):
        row = opts.rows[:, j]
        slot = _ROW_STARTS[row][None, :] + np.take(filled, row, axis=1) + opts.offset[None, :, j]
        card = dealt[:, opts.keep[:, j]]
        after[b_index, o_index, np.minimum(slot, 12)] = np.where(
            fits, card, after[b_index, o_index, np.minimum(slot, 12)])
    return after, fits


def room(boards: np.ndarray, dealt: int, place: int) -> tuple[np.ndarray, np.ndarray]:
    """``(B, 3)`` cards already in each row of ``(B, 13)`` boards, and ``(B, O)`` whether each
    option of :func:`street_options` ``(dealt, place)`` fits them (no row overfilled)."""
    filled = per_row(boards >= 0)
    code = (filled[:, 0] * 6 + filled[:, 1]) * 6 + filled[:, 2]
    return filled, _fitting(dealt, place)[code]


@cache
def _fitting(dealt: int, place: int) -> np.ndarray:
    """``(216, O)``: whether each option fits a board with ``(t, m, b)`` cards in its rows, at
    ``(t * 6 + m) * 6 + b``."""
    opts = street_options(dealt, place)
    filled = np.array([(t, m, b) for t in range(6) for m in range(6) for b in range(6)])
    fits: np.ndarray = ((filled[:, None, :] + opts.per_row[None]) <= np.array(ROW_SIZE)).all(
        axis=2)
    return fits


def lay(boards: np.ndarray, dealt: np.ndarray, place: int, chosen: np.ndarray,
        filled: np.ndarray | None = None) -> np.ndarray:
    """``(B, 13)``: each of ``(B, 13)`` boards after option ``chosen[b]`` (which fits) of
    :func:`street_options` with its ``(B, d)`` dealt cards (the boards of :func:`expand`
    picked one per board, without building the others); ``filled``: the cards in each row, as
    :func:`room` gives them.

    >>> board = np.full((1, 13), -1, np.int8)
    >>> [int(c) for c in lay(board, np.array([[7, 8, 9]], np.int8), 2, np.array([0]))[0]]
    [7, 8, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1]
    """
    opts = street_options(dealt.shape[1], place)
    if filled is None:
        filled, _ = room(boards, dealt.shape[1], place)
    after = boards.copy()
    b = np.arange(len(boards))
    for j in range(place):
        row = opts.rows[chosen, j]
        slot = _ROW_STARTS[row] + filled[b, row] + opts.offset[chosen, j]
        after[b, slot] = dealt[b, opts.keep[chosen, j]]
    return after
