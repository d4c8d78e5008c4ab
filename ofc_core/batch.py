"""Batch scoring: one hand or a million, from arrays of card indexes.

The batch scorer is the array twin of :mod:`ofc_core.scoring` and must agree with it hand for
hand, field for field. Row strengths are on the same integer scale as
:func:`ofc_core.evaluate.evaluate`, but computed independently, from lookup tables:

- every rank has an additive key, chosen so that the sums over any 5 (or 3) cards are unique;
  the key sum of a row indexes a table of strengths for rows that are not flushes;
- a 5-card row is a flush when its five suits (``index & 3``) are equal; the same key sum then
  indexes the table of flushes and straight flushes;
- the key sums of all three rows are gathered at once: a board is read as six pairs of cards
  (one uint16 each) and a last card, and per-position tables give each pair's keys already
  shifted into the packed field of their row.

The tables are built once, with numpy, from the rank multisets (no loop over hands), and
``tests/test_batch.py`` checks them against the scalar evaluator on every top, every 5-card
category and hundreds of thousands of random rows.

Everything that depends on the rules (royalties, Fantasyland, pairwise points) is read from the
:class:`~ofc_core.rules.Ruleset`, by calling its own functions once per table entry.

>>> from ofc_core.board import Board
>>> from ofc_core.rules import PRESETS
>>> board = Board.parse_compact("QhQd2c-KsKd9s5h3c-JhJdJc4s4d")
>>> cards = np.array([[c.index for c in board.cards]])
>>> evaluate_rows(cards).tolist() == [list(board.strengths())]
True
>>> scores = score_batch(cards[None].repeat(2, axis=1), PRESETS["regular"])
>>> scores.royalties[0, 0].tolist(), scores.fantasyland_next[0, :2].tolist()
([7, 0, 6], [13, 13])
>>> float(scores.total[0, 0, 1]), scores.points[0, :2].tolist()
(0.0, [0.0, 0.0])
"""

from __future__ import annotations

import functools
import itertools
import operator
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, fields
from typing import Any

import numpy as np

from ofc_core.board import BOARD_SIZE, ROWS, Row, foul_halves, is_foul
from ofc_core.cards import MAX_JOKERS, Suit
from ofc_core.evaluate import (
    CATEGORY_SHIFT,
    LOW_27_FIELD,
    RANK_FIELD_BITS,
    Category,
    encode_low_27,
)
from ofc_core.hand import HandRecord
from ofc_core.rules import (
    FlRepeat,
    FoulPayout,
    MiddleKind,
    RoyaltyTable,
    Ruleset,
    ScoringSystem,
    resolve,
)
from ofc_core.scoring import settlement_order

MAX_SEATS = 4
"""Seat axis of :class:`RecordScores`: every hand is padded to four seats."""

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


def _evaluate_chunk(chunk: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
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


def _boards(cards: np.ndarray, jokers: int = 0) -> np.ndarray:
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


def _chunks(boards: np.ndarray) -> Iterator[tuple[int, int, np.ndarray]]:
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
    boards = _boards(cards)
    by_row = np.empty((3, len(boards)), np.int32)
    for start, stop, chunk in _chunks(boards):
        for r, strengths in enumerate(_evaluate_chunk(chunk)):
            by_row[r, start:stop] = strengths
    return np.ascontiguousarray(by_row.T).reshape(cards.shape[:-1] + (3,))


# --------------------------------------------------------------------------------------------
# Per board: foul and royalties

ROYALTY_INDEX_SHIFT = CATEGORY_SHIFT - RANK_FIELD_BITS
"""``strength >> 16`` is ``category * 16 + lead rank``: all a royalty depends on."""

_ROYALTY_ARRAYS: dict[int, tuple[RoyaltyTable, np.ndarray]] = {}


def royalty_array(table: RoyaltyTable) -> np.ndarray:
    """``(3, 144)`` int16: royalty of each row by ``strength >> 16``, from ``table.points``.

    Built once per table by calling :meth:`RoyaltyTable.points` on a representative strength
    (category and lead rank, no kickers) for every index.

    >>> from ofc_core.evaluate import strength
    >>> from ofc_core.rules import AMERICAN
    >>> int(royalty_array(AMERICAN)[0, strength("Qh Qd 2c") >> ROYALTY_INDEX_SHIFT])
    7
    """
    cached = _ROYALTY_ARRAYS.get(id(table))
    if cached is not None and cached[0] is table:
        return cached[1]
    size = (max(Category) + 1) << RANK_FIELD_BITS
    out = np.zeros((len(ROWS), size), np.int16)
    for r, row in enumerate(ROWS):
        for index in range(size):
            if 2 <= index & 15 <= 14:  # a real row's lead rank is a Rank
                out[r, index] = table.points(row, index << ROYALTY_INDEX_SHIFT)
    out.setflags(write=False)
    _ROYALTY_ARRAYS[id(table)] = (table, out)
    return out


@dataclass(frozen=True)
class BoardScores:
    """What each board earns on its own: row strengths, foul, royalties (0 when fouled).

    The ``(N, 3)`` arrays are column-major (each row of the board contiguous)."""

    strengths: np.ndarray  # (N, 3) int32
    fouled: np.ndarray  # (N,) bool
    royalties: np.ndarray  # (N, 3) int16
    jokers: np.ndarray | None = None
    """(N, 2) int8: the card X1 and X2 stood for, -1 if absent (``None``: no joker possible)."""


def score_boards(cards: np.ndarray, table: RoyaltyTable) -> BoardScores:
    """Strengths, foul and royalties under ``table`` for ``(N, 13)`` boards.

    A fouled board earns no royalties.

    >>> from ofc_core.cards import parse_cards
    >>> from ofc_core.rules import AMERICAN
    >>> legal = [c.index for c in parse_cards("Kh Kd 2c 7s 7h 7c 3d 4d 9c Tc Jc Qc Kc")]
    >>> fouled = [c.index for c in parse_cards("Ah Ad Ac 7s 7h 7c 3d 4d 9c Tc Jc Qc Kc")]
    >>> s = score_boards(np.array([legal, fouled]), AMERICAN)
    >>> s.fouled.tolist(), s.royalties.tolist()
    ([False, True], [[8, 2, 15], [0, 0, 0]])
    """
    boards = _boards(cards)
    n = len(boards)
    roy = royalty_array(table)
    strengths = np.empty((3, n), np.int32)  # row-major by row: returned transposed
    fouled = np.empty(n, bool)
    royalties = np.empty((3, n), np.int16)
    for start, stop, chunk in _chunks(boards):
        rows = _evaluate_chunk(chunk)
        foul = is_foul(*rows)  # elementwise on arrays
        fouled[start:stop] = foul
        legal = ~foul
        for r, s in enumerate(rows):
            strengths[r, start:stop] = s
            np.multiply(roy[r].take(s >> ROYALTY_INDEX_SHIFT), legal, out=royalties[r, start:stop])
    return BoardScores(strengths.T, fouled, royalties.T)


# --------------------------------------------------------------------------------------------
# Per board under a ruleset: 2-7 middles and jokers

JOKER_CANDIDATES_PER_STEP = 1 << 19
"""Candidate boards evaluated per step of the joker search (about 7 MB of cards)."""

_KEY_BITS = 24
"""Every strength (a 2-7 low included) is below ``1 << 24``: two fit in one int64 key."""
_STRENGTH_MASK = (1 << _KEY_BITS) - 1


def to_low_27(middle: np.ndarray) -> np.ndarray:
    """2-7 middles from their poker strengths, as :func:`ofc_core.evaluate.evaluate_low_27`:
    a high-card hand of ten or lower becomes a low (each rank field ``r`` becomes ``15 - r``);
    the wheel is an ace-high hand (or flush), not a straight; everything else is unchanged.

    >>> from ofc_core.evaluate import evaluate, evaluate_low_27
    >>> from ofc_core.cards import parse_cards
    >>> rows = ["7h 5d 4c 3s 2h", "Ah 2d 3c 4s 5h", "As 2s 3s 4s 5s", "Kh 9d 7c 4s 2h"]
    >>> got = to_low_27(np.array([evaluate(parse_cards(r)) for r in rows]))
    >>> got.tolist() == [evaluate_low_27(parse_cards(r)) for r in rows]
    True
    """
    middle = np.asarray(middle, np.int64)
    category = middle >> CATEGORY_SHIFT
    lead = (middle >> (4 * RANK_FIELD_BITS)) & 15
    flipped = np.full(middle.shape, Category.LOW_27 << CATEGORY_SHIFT, np.int64)
    for k in range(5):
        shift = RANK_FIELD_BITS * (4 - k)
        flipped |= (LOW_27_FIELD - ((middle >> shift) & 15)) << shift
    wheel_rest = 0x5432  # the ranks after the ace in A-5-4-3-2
    wheel_high = (14 << (4 * RANK_FIELD_BITS)) | wheel_rest
    out = np.where((category == Category.HIGH_CARD) & (lead <= 10), flipped, middle)
    out = np.where((category == Category.STRAIGHT) & (lead == 5), wheel_high, out)
    wheel_flush = (Category.FLUSH << CATEGORY_SHIFT) | wheel_high
    out = np.where((category == Category.STRAIGHT_FLUSH) & (lead == 5), wheel_flush, out)
    return out.astype(np.int32)


def _rows_under(boards: np.ndarray, ruleset: Ruleset) -> np.ndarray:
    """``(N, 3)`` strengths of joker-free boards, the middle read as the ruleset's kind."""
    rows = evaluate_rows(boards)
    if ruleset.middle is MiddleKind.LOW_27:
        rows[:, 1] = to_low_27(rows[:, 1])
    return rows


def _joker_candidates(boards: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Every legal filling of ``(B, 13)`` boards that hold the same number of jokers: the
    candidate boards, the board each came from and the cards its jokers stand for (in board
    order). A joker stands for a card not on its own board; two jokers never for the same
    card. Candidates come in the order of :func:`ofc_core.jokers.resolve_board`'s search
    (lowest cards first)."""
    b = len(boards)
    slots = np.argsort(boards < 52, axis=1, kind="stable")[:, :int((boards[0] >= 52).sum())]
    count = slots.shape[1]
    choices = np.array(list(itertools.product(range(52), repeat=count)), np.int64)
    if count == 2:
        choices = choices[choices[:, 0] != choices[:, 1]]
    on_board = np.zeros((b, 54), bool)
    np.put_along_axis(on_board, boards.astype(np.int64), True, axis=1)
    legal = ~on_board[:, choices].any(axis=2)  # (B, C)
    owner, pick = np.nonzero(legal)
    filled = boards[owner].astype(np.uint8)
    for j in range(count):
        filled[np.arange(len(owner)), slots[owner, j]] = choices[pick, j]
    return filled, owner, choices[pick]


def _resolve_jokers(boards: np.ndarray, ruleset: Ruleset) -> tuple[np.ndarray, np.ndarray]:
    """``(B, 3)`` strengths of boards with the same number of jokers, by the bottom-up rule
    (:mod:`ofc_core.jokers`): of the fillings that avoid a foul, the strongest bottom, then
    middle, then top; the strongest such rows if every filling fouls. Two keys per candidate,
    ``legal << 24 | bottom`` then ``middle << 24 | top``, maximised per board. Also ``(B, 2)``
    the card X1 and X2 stood for (-1 if absent): the first best filling's."""
    filled, owner, chosen = _joker_candidates(boards)
    rows = _rows_under(filled, ruleset).astype(np.int64)
    top, middle, bottom = rows[:, 0], rows[:, 1], rows[:, 2]
    legal = ~np.asarray(ruleset.middle.is_foul(top, middle, bottom), bool)
    starts = np.flatnonzero(np.r_[True, owner[1:] != owner[:-1]])
    first = (legal.astype(np.int64) << _KEY_BITS) | bottom
    best_first = np.maximum.reduceat(first, starts)
    second = np.where(first == best_first[owner], (middle << _KEY_BITS) | top, -1)
    best_second = np.maximum.reduceat(second, starts)
    out = np.empty((len(boards), 3), np.int32)
    out[:, 0] = best_second & _STRENGTH_MASK
    out[:, 1] = best_second >> _KEY_BITS
    out[:, 2] = best_first & _STRENGTH_MASK
    winners = np.flatnonzero(second == best_second[owner])
    _, first_winner = np.unique(owner[winners], return_index=True)
    picked = chosen[winners[first_winner]]  # (B, count): by the jokers' board order
    slots = np.argsort(boards < 52, axis=1, kind="stable")[:, :picked.shape[1]]
    numbers = np.take_along_axis(boards, slots, axis=1).astype(np.int64) - 52
    jokers = np.full((len(boards), MAX_JOKERS), -1, np.int8)
    for j in range(picked.shape[1]):
        jokers[np.arange(len(boards)), numbers[:, j]] = picked[:, j]
    return out, jokers


def resolved_rows(cards: np.ndarray, ruleset: Ruleset) -> np.ndarray:
    """``(N, 3)`` strengths of boards under ``ruleset``: jokers (indexes 52, 53) resolved, a
    2-7 middle read as a low. Equal to :func:`ofc_core.jokers.resolve_board` board by board.
    (:func:`resolve_boards` gives what the jokers stood for too.)

    >>> from ofc_core.board import Board
    >>> from ofc_core.rules import PRESETS
    >>> board = Board.parse("Ah X1 2c", "Kh Kd 9c 7s 3d", "Qh Qd Qc 8s 8d")
    >>> from ofc_core.evaluate import hand_name
    >>> top = resolved_rows(np.array([[c.index for c in board.cards]]),
    ...                     PRESETS["joker-pineapple"])[0, 0]
    >>> hand_name(int(top))
    'Pair of Twos'
    """
    return resolve_boards(cards, ruleset)[0]


def resolve_boards(cards: np.ndarray, ruleset: Ruleset) -> tuple[np.ndarray, np.ndarray]:
    """:func:`resolved_rows`, and ``(N, 2)`` int8 the card index X1 and X2 stood for (-1 if
    absent), as :attr:`ofc_core.jokers.ResolvedBoard.stood_for`."""
    boards = _boards(cards, ruleset.jokers)
    jokers = (boards >= 52).sum(axis=1)
    out = np.empty((len(boards), 3), np.int32)
    stood_for = np.full((len(boards), MAX_JOKERS), -1, np.int8)
    plain = np.flatnonzero(jokers == 0)
    out[plain] = _rows_under(boards[plain], ruleset)
    for count in range(1, MAX_JOKERS + 1):
        members = np.flatnonzero(jokers == count)
        step = max(1, JOKER_CANDIDATES_PER_STEP // 52 ** count)
        for start in range(0, len(members), step):
            part = members[start:start + step]
            out[part], stood_for[part] = _resolve_jokers(boards[part], ruleset)
    return out, stood_for


_LOW_ROYALTIES: dict[int, tuple[RoyaltyTable, np.ndarray, np.ndarray]] = {}


def _low_royalties(table: RoyaltyTable) -> tuple[np.ndarray, np.ndarray]:
    """Every legal 2-7 low's strength (sorted) and its middle royalty under ``table``, from
    ``table.points`` (remembered per table, as :func:`royalty_array`)."""
    cached = _LOW_ROYALTIES.get(id(table))
    if cached is not None and cached[0] is table:
        return cached[1], cached[2]
    lows = sorted(encode_low_27(ranks) for ranks in itertools.combinations(range(2, 11), 5)
                  if ranks[4] - ranks[0] != 4)
    points = np.array([table.points(Row.MIDDLE, s) for s in lows], np.int16)
    _LOW_ROYALTIES[id(table)] = (table, np.array(lows, np.int64), points)
    _, lows_array, points_array = _LOW_ROYALTIES[id(table)]
    return lows_array, points_array


def score_boards_under(cards: np.ndarray, ruleset: Ruleset) -> BoardScores:
    """:func:`score_boards` for any ruleset: jokers resolved, 2-7 middles and their foul rule
    and royalties. A ruleset without jokers and with a poker middle takes
    :func:`score_boards` itself."""
    if not ruleset.jokers and ruleset.middle is MiddleKind.HIGH:
        return score_boards(cards, ruleset.royalties)
    strengths, stood_for = resolve_boards(cards, ruleset)
    top, middle, bottom = strengths[:, 0], strengths[:, 1], strengths[:, 2]
    fouled = np.asarray(ruleset.middle.is_foul(top, middle, bottom), bool)
    roy = royalty_array(ruleset.royalties)
    royalties = np.stack([roy[r].take(strengths[:, r] >> ROYALTY_INDEX_SHIFT)
                          for r in range(3)], axis=1)
    is_low = (middle >> CATEGORY_SHIFT) == Category.LOW_27
    if is_low.any():
        lows, points = _low_royalties(ruleset.royalties)
        royalties[is_low, 1] = points[np.searchsorted(lows, middle[is_low])]
    royalties[fouled] = 0
    return BoardScores(strengths, fouled, royalties.astype(np.int16), stood_for)


# --------------------------------------------------------------------------------------------
# Per hand: Fantasyland and the pairwise settlement


@dataclass(frozen=True)
class RecordScores:
    """Scores of many hands, aligned with the input, padded to four seats.

    Seat ``k`` is ``record.players[k]``; absent seats are zero. Per ordered pair ``[n, i, j]``
    is the settlement of seat ``i`` against seat ``j`` from ``i``'s side, as
    :class:`ofc_core.scoring.PairResult` (``royalties_net`` is its ``royalties``).
    """

    player_count: np.ndarray  # (N,) int8
    strengths: np.ndarray  # (N, 4, 3) int32, 0 where absent or surrendered
    fouled: np.ndarray  # (N, 4) bool
    foul_top_middle: np.ndarray  # (N, 4) bool: middle weaker than top (never, at a 2-7 table)
    foul_middle_bottom: np.ndarray  # (N, 4) bool: bottom weaker than middle (never at 2-7)
    surrendered: np.ndarray  # (N, 4) bool
    royalties: np.ndarray  # (N, 4, 3) int16
    fantasyland_next: np.ndarray  # (N, 4) int8: cards dealt in Fantasyland next hand, 0 if none
    raw_points: np.ndarray  # (N, 4) float64
    points: np.ndarray  # (N, 4) float64: after caps
    rows: np.ndarray  # (N, 4, 4, 3) int8: +1 / 0 / -1
    row_points: np.ndarray  # (N, 4, 4) int32
    bonus: np.ndarray  # (N, 4, 4) int32
    royalties_net: np.ndarray  # (N, 4, 4) int32
    surrender: np.ndarray  # (N, 4, 4) float64
    total: np.ndarray  # (N, 4, 4) float64
    capped: np.ndarray  # (N, 4, 4) float64
    jokers: np.ndarray  # (N, 4, 2) int8: the card X1, X2 stood for on the seat's board, -1 none

    def __len__(self) -> int:
        return len(self.player_count)


_FIELD_SHAPES = {
    "player_count": ((), np.int8), "strengths": ((4, 3), np.int32), "fouled": ((4,), bool),
    "foul_top_middle": ((4,), bool), "foul_middle_bottom": ((4,), bool),
    "surrendered": ((4,), bool), "royalties": ((4, 3), np.int16),
    "fantasyland_next": ((4,), np.int8), "raw_points": ((4,), np.float64),
    "points": ((4,), np.float64), "rows": ((4, 4, 3), np.int8),
    "row_points": ((4, 4), np.int32), "bonus": ((4, 4), np.int32),
    "royalties_net": ((4, 4), np.int32), "surrender": ((4, 4), np.float64),
    "total": ((4, 4), np.float64), "capped": ((4, 4), np.float64),
    "jokers": ((4, MAX_JOKERS), np.int8),
}


def _empty_scores(n: int) -> dict[str, np.ndarray]:
    out = {name: np.zeros((n,) + shape, dtype) for name, (shape, dtype) in _FIELD_SHAPES.items()}
    out["jokers"][...] = -1
    return out


@functools.cache
def _pair_tables(system: ScoringSystem) -> tuple[np.ndarray, np.ndarray]:
    """Row points and bonus by the code ``9 * top + 3 * middle + bottom + 13`` of the three row
    outcomes (+1 / 0 / -1), from the system's own functions.

    Under race scoring a player banks its rows (``row_points(won, 0)``) and the rest of
    ``banked(won, lost)`` as bonus, as :func:`ofc_core.scoring.settle_pair`.
    """
    row_points = np.zeros(27, np.int32)
    bonus = np.zeros(27, np.int32)
    for code, outcome in enumerate(itertools.product((-1, 0, 1), repeat=3)):
        won, lost = outcome.count(1), outcome.count(-1)
        if system.is_race:
            row_points[code] = system.row_points(won, 0)
            bonus[code] = system.banked(won, lost) - system.row_points(won, 0)
        else:
            row_points[code] = system.row_points(won, lost)
            bonus[code] = system.bonus(won, lost)
    return row_points, bonus


def _fantasyland_next(ruleset: Ruleset, strengths: np.ndarray, fouled: np.ndarray,
                      royalties: np.ndarray, in_fl: np.ndarray,
                      fl_dealt: np.ndarray | None = None) -> np.ndarray:
    """Vectorised :meth:`Ruleset.fantasyland_cards` on the ruleset's FlCards and StayRule."""
    top = strengths[..., 0]
    entry = np.zeros(top.shape, np.int8)
    fl = ruleset.fl_cards
    for minimum, count in fl.entry:
        entry = np.where(top >= minimum, np.int8(count), entry)
    if fl.middle_entry is not None:
        first = np.int8(fl.entry[0][1])
        by_middle = np.where((entry > 0) & bool(fl.both), np.int8(fl.both or 0),
                             np.maximum(entry, first))
        entry = np.where(strengths[..., 1] >= fl.middle_entry, by_middle, entry)
    rule = ruleset.fl_stay.rule
    stays = np.zeros(top.shape, bool)
    for r, floor in enumerate((rule.top, rule.middle, rule.bottom)):
        if floor is not None:
            stays |= strengths[..., r] >= floor
    if rule.row_royalty is not None:
        stays |= royalties.max(axis=-1) >= rule.row_royalty
    repeat = ruleset.fl_cards.repeat
    if repeat is None:
        stay_cards = np.maximum(entry, np.int8(ruleset.fl_cards.entry[0][1]))
    else:
        stay_cards = np.full(top.shape, repeat, np.int8)
    if ruleset.fl_repeat is FlRepeat.ENTRY and fl_dealt is not None:
        stay_cards = np.where(fl_dealt > 0, fl_dealt, stay_cards).astype(np.int8)
    cards = np.where(in_fl, np.where(stays, stay_cards, 0), entry).astype(np.int8)
    if not ruleset.fantasyland:
        cards[...] = 0
    return np.where(fouled, 0, cards).astype(np.int8)


def _apply_caps(raw: np.ndarray, cap: float, first_to_act: np.ndarray, count: int) -> np.ndarray:
    """Vectorised :func:`ofc_core.scoring.apply_caps`: hands settle their pairs in
    :func:`~ofc_core.scoring.settlement_order` from their own first-to-act seat."""
    capped = np.zeros_like(raw)
    for first in range(count):
        hands = first_to_act == first
        if not hands.any():
            continue
        part = raw[hands]
        net = np.zeros(part.shape[:2])
        result = np.zeros_like(part)
        for i, j in settlement_order(count, first):
            t = part[:, i, j]
            net_i, net_j = net[:, i], net[:, j]
            win = np.maximum(0.0, np.minimum(np.minimum(t, cap - net_i), cap + net_j))
            loss = np.minimum(0.0, np.maximum(np.maximum(t, -(cap + net_i)), -(cap - net_j)))
            t = np.where(t > 0, win, np.where(t < 0, loss, t))
            net[:, i] += t
            net[:, j] -= t
            result[:, i, j] = t
            result[:, j, i] = -t
        capped[hands] = result
    return capped


def _seat_flags(value: np.ndarray | None, n: int, count: int, name: str) -> np.ndarray:
    if value is None:
        return np.zeros((n, count), bool)
    flags = np.asarray(value, dtype=bool)
    if flags.shape != (n, count):
        raise ValueError(f"{name} must have shape {(n, count)}, got {flags.shape}")
    return flags


_PLACEHOLDER_BOARD = np.arange(BOARD_SIZE)
"""Cards evaluated in place of a surrendered board (its results are then zeroed)."""

CHUNK_HANDS = 1 << 13
"""Hands settled per step of :func:`score_batch` (the working arrays stay in cache)."""


def score_batch(cards: np.ndarray, ruleset: Ruleset, *, fantasyland: np.ndarray | None = None,
                surrendered: np.ndarray | None = None,
                first_to_act: np.ndarray | None = None,
                fl_dealt: np.ndarray | None = None) -> RecordScores:
    """Score ``N`` hands of ``P`` players (1-4) under one ruleset, as :func:`score_hand`.

    ``cards`` is ``(N, P, 13)`` card indexes (a surrendered player's may be -1);
    ``fantasyland`` and ``surrendered`` are ``(N, P)`` flags, ``first_to_act`` ``(N,)`` seat
    indexes (left of the button; the settlement order under caps), ``fl_dealt`` ``(N, P)`` the
    cards of each Fantasyland hand (0 unknown; read under ``fl_repeat: entry``). Jokers are
    card indexes 52 and 53. The result has four seats.

    >>> from ofc_core.board import Board
    >>> from ofc_core.rules import resolve
    >>> ivey = [c.index for c in Board.parse_compact("6h6d2c-KsKd9s5h3c-JhJdJc4s4d").cards]
    >>> hellmuth = [c.index for c in Board.parse_compact("AhKc3d-AsAd8h7c2h-QcTc8c6c5c").cards]
    >>> scores = score_batch(np.array([[ivey, hellmuth]]), resolve("regular"))
    >>> scores.points[0].tolist(), int(scores.royalties_net[0, 0, 1])
    ([4.0, -4.0, 0.0, 0.0], 3)
    """
    cards = np.asarray(cards)
    if cards.ndim != 3 or cards.shape[2] != BOARD_SIZE or not 1 <= cards.shape[1] <= MAX_SEATS:
        raise ValueError(f"cards must have shape (N, 1-4, 13), got {cards.shape}")
    n, count, _ = cards.shape
    surr = _seat_flags(surrendered, n, count, "surrendered")
    in_fl = _seat_flags(fantasyland, n, count, "fantasyland")
    first = np.zeros(n, np.intp) if first_to_act is None else np.asarray(first_to_act, np.intp)
    if first.shape != (n,) or (n and (first.min() < 0 or first.max() >= count)):
        raise ValueError(f"first_to_act must be {n} seat indexes in 0..{count - 1}")
    dealt = None if fl_dealt is None else np.asarray(fl_dealt, np.int8)
    if dealt is not None and dealt.shape != (n, count):
        raise ValueError(f"fl_dealt must have shape {(n, count)}, got {dealt.shape}")
    out = _empty_scores(n)
    out["player_count"][:] = count
    for start in range(0, n, CHUNK_HANDS):
        part = slice(start, start + CHUNK_HANDS)
        _score_hands({name: value[part] for name, value in out.items()}, cards[part], ruleset,
                     surr[part], in_fl[part], first[part],
                     None if dealt is None else dealt[part])
    return RecordScores(**out)


def _score_hands(out: dict[str, np.ndarray], cards: np.ndarray, ruleset: Ruleset,
                 surr: np.ndarray, in_fl: np.ndarray, first: np.ndarray,
                 fl_dealt: np.ndarray | None) -> None:
    """Score a chunk of hands into the views ``out``."""
    n, count, _ = cards.shape
    quits = surr.any()
    if quits:
        cards = np.where(surr[..., None], _PLACEHOLDER_BOARD, cards)
    boards = score_boards_under(cards.reshape(n * count, BOARD_SIZE), ruleset)
    seats = slice(0, count)
    strengths = boards.strengths.reshape(n, count, 3)
    fouled = boards.fouled.reshape(n, count)
    royalties = boards.royalties.reshape(n, count, 3)
    if quits:
        strengths[surr] = 0
        fouled &= ~surr
        royalties[surr] = 0
    top, middle, bottom = strengths[..., 0], strengths[..., 1], strengths[..., 2]
    out["strengths"][:, seats] = strengths
    out["fouled"][:, seats] = fouled
    if ruleset.middle is MiddleKind.HIGH:  # (a 2-7 middle is not compared with its neighbours)
        out["foul_top_middle"][:, seats], out["foul_middle_bottom"][:, seats] = foul_halves(
            top, middle, bottom)
    out["surrendered"][:, seats] = surr
    out["royalties"][:, seats] = royalties
    if boards.jokers is not None:
        jokers = boards.jokers.reshape(n, count, MAX_JOKERS)
        if quits:
            jokers[surr] = -1
        out["jokers"][:, seats] = jokers
    fl_next = _fantasyland_next(ruleset, strengths, fouled, royalties, in_fl, fl_dealt)
    if quits:
        fl_next[surr] = 0
    out["fantasyland_next"][:, seats] = fl_next
    royalty_total = royalties[..., 0].astype(np.int32) + royalties[..., 1] + royalties[..., 2]
    _settle_pairs(out, ruleset, strengths, fouled, surr, royalty_total)
    raw, capped = out["total"], out["capped"]
    if ruleset.cap is not None and not ruleset.scoring.is_race:
        capped[:, :count, :count] = _apply_caps(raw[:, :count, :count], ruleset.cap, first,
                                                count)
    else:
        capped[...] = raw
    for name, matrix in (("raw_points", raw), ("points", capped)):
        total = matrix[:, :, 0].copy()
        for j in range(1, count):  # in seat order, as the scalar sum
            total += matrix[:, :, j]
        out[name][...] = total


def _settle_pairs(out: dict[str, np.ndarray], ruleset: Ruleset, strengths: np.ndarray,
                  fouled: np.ndarray, surr: np.ndarray, royalty_total: np.ndarray) -> None:
    """Fill the pair fields of ``out``, as :func:`ofc_core.scoring.settle_pair` per pair:
    rows compared (a fouled player loses every row to one who did not foul), points by the
    system's tables, royalties exchanged (or not, after a foul, per ``foul_payout``), and a
    surrender settles the pair at its cost alone."""
    system = ruleset.scoring
    row_table, bonus_table = _pair_tables(system)
    always_exchange = ruleset.foul_payout is FoulPayout.SCOOP_PLUS_ROYALTIES
    cost = ruleset.surrender_cost
    n, count, _ = strengths.shape
    by_row = np.ascontiguousarray(strengths.transpose(1, 2, 0))  # (seat, row, hand)
    fouls = np.ascontiguousarray(fouled.T).view(np.int8)
    quits = np.ascontiguousarray(surr.T)
    any_foul, any_quit = fouled.any(), surr.any()
    rows = np.empty((3, n), np.int8)
    for i in range(count):
        for j in range(count):
            if i == j:
                continue
            for r in range(3):
                mine, theirs = by_row[i, r], by_row[j, r]
                np.subtract((mine > theirs).view(np.int8), (mine < theirs).view(np.int8),
                            out=rows[r])
            either = fouls[i] | fouls[j]
            if any_foul:
                np.copyto(rows, fouls[j] - fouls[i], where=either.view(bool))
            quit_pair = quits[i] | quits[j]
            if any_quit:
                rows[:, quit_pair] = 0
            code = rows[0] * np.int8(9) + rows[1] * np.int8(3) + rows[2] + np.int8(13)
            row_points = row_table.take(code)
            bonus = bonus_table.take(code)
            if system.is_race:
                royalties = royalty_total[:, i].copy()
            else:
                royalties = royalty_total[:, i] - royalty_total[:, j]
            if not always_exchange and any_foul:
                royalties[either.view(bool)] = 0
            total = (row_points + bonus + royalties).astype(np.float64)
            if any_quit:
                for value in (row_points, bonus, royalties):
                    value[quit_pair] = 0
                surrender = np.where(quits[i] & quits[j], 0.0, np.where(quits[i], -cost, cost))
                if system.is_race:
                    surrender = np.maximum(surrender, 0.0)
                surrender = np.where(quit_pair, surrender, 0.0)
                total = np.where(quit_pair, surrender, total)
                out["surrender"][:, i, j] = surrender
            out["rows"][:, i, j] = rows.T
            out["row_points"][:, i, j] = row_points
            out["bonus"][:, i, j] = bonus
            out["royalties_net"][:, i, j] = royalties
            out["total"][:, i, j] = total


# --------------------------------------------------------------------------------------------
# Hand records

_SUIT_OFFSET = np.full(256, -1, np.int8)
for _suit in Suit:
    _SUIT_OFFSET[ord(_suit.value)] = _suit.offset
_RANK_OF = operator.attrgetter("rank")
_SUIT_OF = operator.attrgetter("suit")
_INDEX_OF = operator.attrgetter("index")


@dataclass(frozen=True)
class _RecordArrays:
    cards: np.ndarray  # (N, P, 13) card indexes, -1 for a surrendered player's missing cards
    fantasyland: np.ndarray  # (N, P) bool
    surrendered: np.ndarray  # (N, P) bool
    first_to_act: np.ndarray  # (N,) seat index
    fl_dealt: np.ndarray  # (N, P) int8: cards of a Fantasyland hand, 0 unknown


def _record_arrays(records: Sequence[HandRecord], count: int) -> _RecordArrays:
    """The arrays :func:`score_batch` reads, from records of ``count`` players each."""
    flat: list[object] = []
    fantasyland: list[bool] = []
    surrendered: list[bool] = []
    fl_dealt: list[int] = []
    missing: list[int] = []
    for rec in records:
        for p in rec.players:
            b = p.board
            fantasyland.append(p.fantasyland)
            fl_dealt.append(p.fl_dealt)
            surrendered.append(p.surrendered)
            if len(b.top) == 3 and len(b.middle) == 5 and len(b.bottom) == 5:
                flat += b.top
                flat += b.middle
                flat += b.bottom
            elif p.surrendered:
                missing.append(len(fantasyland) - 1)
            else:
                raise ValueError(f"hand {rec.source}/{rec.hand_id}: {p.name} has an incomplete "
                                 f"board ({len(b.top)}/{len(b.middle)}/{len(b.bottom)} cards)")
    try:
        ranks = np.fromiter(map(_RANK_OF, flat), np.int8, count=len(flat))
        suits = np.frombuffer("".join(map(_SUIT_OF, flat)).encode("ascii"), np.uint8)
        indexes = ((ranks - 2) * 4 + _SUIT_OFFSET[suits]).reshape(-1, BOARD_SIZE)
    except AttributeError:  # a joker, which has no rank or suit: every card's own index
        indexes = np.fromiter(map(_INDEX_OF, flat), np.int8, len(flat)).reshape(-1, BOARD_SIZE)
    cards = np.full((len(records) * count, BOARD_SIZE), -1, np.int8)
    complete = np.ones(len(cards), bool)
    complete[missing] = False
    cards[complete] = indexes
    return _RecordArrays(
        cards=cards.reshape(len(records), count, BOARD_SIZE),
        fantasyland=np.array(fantasyland, bool).reshape(len(records), count),
        surrendered=np.array(surrendered, bool).reshape(len(records), count),
        first_to_act=np.fromiter((r.first_to_act for r in records), np.intp, len(records)),
        fl_dealt=np.array(fl_dealt, np.int8).reshape(len(records), count),
    )


def score_records(records: Sequence[HandRecord]) -> RecordScores:
    """Score many hands of any variants, rulesets and player counts, aligned with ``records``.

    Hands are grouped by (resolved ruleset, player count) and each group is scored by
    :func:`score_batch`. Every record must be valid (:func:`ofc_core.hand.validate`); a hand
    whose rules do not resolve raises ``ValueError`` naming it.

    >>> from ofc_core.board import Board
    >>> from ofc_core.hand import PlayerRecord
    >>> rec = HandRecord(source="home", hand_id="1", variant="regular", players=(
    ...     PlayerRecord("ann", 0, Board.parse("Qh Qd 2c", "Ks Kd 9s 5h 3c", "Jh Jd Jc 4s 4d")),
    ...     PlayerRecord("bob", 1, Board.parse("Ah Kc 3d", "As Ad 8h 7c 2h", "Qc Tc 8c 6c 5c"))))
    >>> score_records([rec]).points[0].tolist()
    [10.0, -10.0, 0.0, 0.0]
    """
    groups: dict[tuple[Any, ...], list[int]] = {}
    for k, rec in enumerate(records):
        rules = rec.rules
        key = (rec.variant, tuple(sorted(rules.items())) if rules else (), len(rec.players))
        groups.setdefault(key, []).append(k)
    out = _empty_scores(len(records))
    for (variant, rules, count), members in groups.items():
        group = [records[k] for k in members]
        try:
            ruleset = resolve(variant, dict(rules))
            if not 1 <= count <= MAX_SEATS:
                raise ValueError(f"{count} players (the scorer takes 1-{MAX_SEATS})")
        except ValueError as exc:
            rec = group[0]
            raise ValueError(f"hand {rec.source}/{rec.hand_id}: {exc}") from None
        arrays = _record_arrays(group, count)
        scores = score_batch(arrays.cards, ruleset, fantasyland=arrays.fantasyland,
                             surrendered=arrays.surrendered, first_to_act=arrays.first_to_act,
                             fl_dealt=arrays.fl_dealt)
        index = np.array(members)
        for f in fields(RecordScores):
            out[f.name][index] = getattr(scores, f.name)
    return RecordScores(**out)
