"""Row strength on arrays: the top, middle and bottom strengths of many boards of card indexes
at once, on the integer scale of :func:`ofc_core.evaluate.evaluate`, but computed
independently, from lookup tables:

- every rank has an additive key, chosen so that the sums over any 5 (or 3) cards are unique;
  the key sum of a row indexes a table of strengths for rows that are not flushes;
- a 5-card row is a flush when its five suits (``index & 3``) are equal; the same key sum then
  indexes the table of flushes and straight flushes;
- the key sums of all three rows are gathered at once: a board is read as six pairs of cards
  (one uint16 each) and a last card, and per-position tables give each pair's keys already
  shifted into the packed field of their row.

The tables are built once, with numpy, from the rank multisets (no loop over hands), and
``tests/test_batch.py`` checks them against the scalar evaluator on every top, every 5-card
category and hundreds of thousands of random rows. The batch scorer (:mod:`ofc_core.batch`,
:mod:`ofc_core.batch_boards`) and the play wing's engine and Fantasyland solver read them.

>>> from ofc_core.board import Board
>>> board = Board.parse_compact("QhQd2c-KsKd9s5h3c-JhJdJc4s4d")
>>> evaluate_rows(np.array([[c.index for c in board.cards]])).tolist() == [list(board.strengths())]
True
"""

from __future__ import annotations

import functools
from collections.abc import Iterator
from dataclasses import dataclass

import numpy as np

from ofc_core.board import BOARD_SIZE
from ofc_core.evaluate import RANK_FIELD_BITS, Category

CHUNK_BOARDS = 1 << 15
"""Boards evaluated per step: small enough for the working arrays to stay in the L2 cache."""

RANK_KEYS = (0, 1, 5, 22, 94, 312, 992, 2422, 5624, 12522, 19998, 43258, 79415)
"""Additive key of each rank, deuce first: sums of up to five keys (at most four of a rank)
are unique, so a key sum identifies the ranks of a row (a greedy search found them)."""

# --------------------------------------------------------------------------------------------
# Lookup tables of row strength


def _rank_multisets(size: int) -> np.ndarray:
    """Every multiset of ``size`` ranks (2..14) with at most four of a rank, ascending."""
    grid = np.indices((13,) * size).reshape(size, -1).T
    grid = grid[np.all(grid[:, :-1] <= grid[:, 1:], axis=1)]
    counts = (grid[:, :, None] == np.arange(13)).sum(axis=1)
    multisets: np.ndarray = grid[counts.max(axis=1) <= 4] + 2
    return multisets


def _pack(category: np.ndarray, ranks: np.ndarray) -> np.ndarray:
    """Category and five rank fields (most significant first) packed into strengths."""
    value = category.astype(np.int64)
    for k in range(5):
        value = (value << RANK_FIELD_BITS) | ranks[:, k]
    return value


def _strengths_of(ranks: np.ndarray, flush: bool = False) -> np.ndarray:
    """Strengths of rows given by their ranks ``(M, 3)`` or ``(M, 5)``, computed on arrays.

    Ranks are grouped by multiplicity, then rank (QQQ55 reads Q, 5); a 3-card row keeps only
    high card, pair and trips; ``flush`` marks 5-card rows of one suit.
    """
    size = ranks.shape[1]
    counts = (ranks[:, :, None] == np.arange(15)).sum(axis=1)
    groups = np.sort(counts * 16 + np.arange(15), axis=1)[:, ::-1][:, :5]
    multiplicity = groups >> 4
    lead = np.where(multiplicity > 0, groups & 15, 0)
    first, second = multiplicity[:, 0], multiplicity[:, 1]
    if size == 3:
        category = np.select([first == 3, first == 2], [Category.TRIPS, Category.PAIR],
                             Category.HIGH_CARD)
        return _pack(category, lead)
    category = np.select(
        [first == 4, (first == 3) & (second == 2), first == 3, (first == 2) & (second == 2),
         first == 2],
        [Category.QUADS, Category.FULL_HOUSE, Category.TRIPS, Category.TWO_PAIR, Category.PAIR],
        Category.HIGH_CARD,
    )
    distinct = first == 1
    high = np.where(distinct & (lead[:, 0] - lead[:, 4] == 4), lead[:, 0], 0)
    high = np.where(distinct & np.all(lead == [14, 5, 4, 3, 2], axis=1), 5, high)
    straight = high > 0
    run = high[:, None] - np.arange(5)
    run[:, 4] = np.where(high == 5, 1, run[:, 4])  # the wheel's ace counts as 1
    if flush:
        category = np.where(straight, Category.STRAIGHT_FLUSH, Category.FLUSH)
    else:
        category = np.where(straight, Category.STRAIGHT, category)
    return _pack(category, np.where(straight[:, None], run, lead))


KEY_FIELD_BITS = 21
"""The key sums of top, middle and bottom are packed in one int64, 21 bits each."""
_KEY_MASK = (1 << KEY_FIELD_BITS) - 1

_PAIR_ROWS = (0, 0, 0, 1, 1, 1, 1, 1, 2, 2, 2, 2)
"""Row (0 top, 1 middle, 2 bottom) of board positions 0..11, read two at a time."""


@dataclass(frozen=True)
class RowTables:
    """Lookup tables. A board's positions are read in pairs (0-1, 2-3, ... 10-11, as one
    little-endian uint16 per pair) and position 12 alone; each pair table gives the rank keys
    of its two cards, shifted into the key-sum field of their rows, so six pair lookups and one
    single add up to the packed key sums of all three rows. The strength tables are indexed by
    a row's key sum (0 where no row sums so)."""

    pairs: tuple[np.ndarray, ...]  # six (65536,) int64 tables, by pair position
    last: np.ndarray  # (52,) int64: position 12 (bottom)
    top: np.ndarray  # 3-card rows
    five: np.ndarray  # 5-card rows that are not flushes
    flush: np.ndarray  # 5-card flushes (five distinct ranks)


def _table(keys: np.ndarray, strengths: np.ndarray, size: int) -> np.ndarray:
    table = np.zeros(size, np.int32)
    table[keys] = strengths
    return table


def _pair_table(card_key: np.ndarray, first_row: int, second_row: int) -> np.ndarray:
    """Packed keys of two cards by the uint16 ``first + 256 * second``."""
    pair = np.arange(1 << 16)
    first, second = pair & 255, pair >> 8
    valid = (first < 52) & (second < 52)
    table = np.zeros(1 << 16, np.int64)
    table[valid] = ((card_key[first[valid]] << (KEY_FIELD_BITS * first_row))
                    + (card_key[second[valid]] << (KEY_FIELD_BITS * second_row)))
    return table


@functools.cache
def row_tables() -> RowTables:
    """The row-strength lookup tables, built once (a few hundredths of a second); the engine
    reads them too."""
    rank_key = np.array(RANK_KEYS, np.int64)
    fives, threes = _rank_multisets(5), _rank_multisets(3)
    five_keys, three_keys = rank_key[fives - 2].sum(axis=1), rank_key[threes - 2].sum(axis=1)
    if len(np.unique(five_keys)) != len(five_keys):
        raise AssertionError("RANK_KEYS give two 5-card rows the same sum")
    if five_keys.max() > _KEY_MASK:
        raise AssertionError("a row's key sum overflows its packed field")
    distinct = np.all(fives[:, :-1] < fives[:, 1:], axis=1)
    size = int(five_keys.max()) + 1
    card_key = np.repeat(rank_key, 4)
    pair_tables = {rows: _pair_table(card_key, *rows)
                   for rows in zip(_PAIR_ROWS[::2], _PAIR_ROWS[1::2], strict=True)}
    return RowTables(
        pairs=tuple(pair_tables[rows]
                    for rows in zip(_PAIR_ROWS[::2], _PAIR_ROWS[1::2], strict=True)),
        last=card_key << (2 * KEY_FIELD_BITS),
        top=_table(three_keys, _strengths_of(threes), int(three_keys.max()) + 1),
        five=_table(five_keys, _strengths_of(fives), size),
        flush=_table(five_keys[distinct], _strengths_of(fives[distinct], flush=True), size),
    )


_SUIT_PAIR = np.uint16(0x0303)  # the suit bits (index & 3) of both cards of a pair


def _fix_flushes(strengths: np.ndarray, key_sum: np.ndarray, flush: np.ndarray,
                 tables: RowTables) -> None:
    """Rows of five cards of one suit read the flush table instead (flushes are rare)."""
    rows = np.flatnonzero(flush)
    if rows.size:
        strengths[rows] = tables.flush.take(key_sum[rows])


def evaluate_chunk(chunk: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Top, middle and bottom strengths of a C-contiguous ``(B, 13)`` uint8 chunk."""
    tables = row_tables()
    pairs = np.ascontiguousarray(chunk[:, :12].view("<u2").T)  # (6, B): positions 2k, 2k+1
    last = chunk[:, 12]
    packed = tables.last.take(last)
    for k, table in enumerate(tables.pairs):
        packed += table.take(pairs[k])
    top_sum = packed & _KEY_MASK
    middle_sum = (packed >> KEY_FIELD_BITS) & _KEY_MASK
    bottom_sum = packed >> (2 * KEY_FIELD_BITS)
    top = tables.top.take(top_sum)
    middle = tables.five.take(middle_sum)
    bottom = tables.five.take(bottom_sum)
    suits = pairs & _SUIT_PAIR
    # Middle: position 3 (high byte of pair 1), pairs 2 and 3; bottom: pairs 4, 5 and 12.
    same = (suits[1] >> 8) * np.uint16(0x0101)
    _fix_flushes(middle, middle_sum, (suits[2] == suits[3]) & (suits[2] == same), tables)
    same = (last & 3).astype(np.uint16) * np.uint16(0x0101)
    _fix_flushes(bottom, bottom_sum, (suits[4] == suits[5]) & (suits[4] == same), tables)
    return top, middle, bottom


def board_view(cards: np.ndarray, jokers: int = 0) -> np.ndarray:
    """Validated ``(N, 13)`` view of ``(..., 13)`` card indexes (jokers 52, 53 if allowed)."""
    cards = np.asarray(cards)
    if cards.ndim < 1 or cards.shape[-1] != BOARD_SIZE:
        raise ValueError(f"cards must have shape (..., {BOARD_SIZE}), got {cards.shape}")
    if not np.issubdtype(cards.dtype, np.integer):
        raise ValueError(f"cards must be integer card indexes, got dtype {cards.dtype}")
    flat = cards.reshape(-1, BOARD_SIZE)
    if flat.size and (int(flat.min()) < 0 or int(flat.max()) > 51 + jokers):
        raise ValueError(f"card indexes must be 0..{51 + jokers} (surrendered boards: use "
                         "score_batch)")
    return flat


def chunks(boards: np.ndarray) -> Iterator[tuple[int, int, np.ndarray]]:
    """``(start, stop, (B, 13) uint8 C-contiguous)`` chunks of boards."""
    for start in range(0, len(boards), CHUNK_BOARDS):
        chunk = np.ascontiguousarray(boards[start:start + CHUNK_BOARDS], dtype=np.uint8)
        yield start, start + len(chunk), chunk


def evaluate_rows(cards: np.ndarray) -> np.ndarray:
    """Strengths of top, middle and bottom for boards of 13 card indexes.

    ``cards`` is ``(..., 13)``: top ``[0:3]``, middle ``[3:8]``, bottom ``[8:13]``. The result
    ``(..., 3)`` int32 equals :func:`ofc_core.evaluate.evaluate` on each row. Cards within a
    board must be distinct.

    >>> from ofc_core.cards import parse_cards
    >>> from ofc_core.evaluate import hand_name
    >>> board = parse_cards("Ah Ad Ac 5s 4s 3h 2s As Kd Kc Qh Qs Qd")
    >>> [hand_name(int(s)) for s in evaluate_rows(np.array([c.index for c in board]))]
    ['Three of a kind, Aces', 'Straight, Five high', 'Full house, Queens full of Kings']
    >>> evaluate_rows(np.array([52] * 13))
    Traceback (most recent call last):
    ...
    ValueError: card indexes must be 0..51 (surrendered boards: use score_batch)
    """
    cards = np.asarray(cards)
    boards = board_view(cards)
    by_row = np.empty((3, len(boards)), np.int32)
    for start, stop, chunk in chunks(boards):
        for r, strengths in enumerate(evaluate_chunk(chunk)):
            by_row[r, start:stop] = strengths
    return np.ascontiguousarray(by_row.T).reshape(cards.shape[:-1] + (3,))
