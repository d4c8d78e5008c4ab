"""Batch scoring per board: each board's row strengths, foul and royalties, from arrays of card
indexes (:func:`score_boards` under a royalty table; :func:`score_boards_under` under a whole
ruleset, with 2-7 middles and jokers resolved by the table's rule). The array twin of
:mod:`ofc_core.jokers` and of the per-board part of :mod:`ofc_core.scoring`; the strengths come
from :mod:`ofc_core.row_tables`, the rules (royalties, the middle's kind, the joker rule) from
the :class:`~ofc_core.rules.Ruleset`, by calling its own functions once per table entry. The
per-hand part (Fantasyland, pairs) is :mod:`ofc_core.batch`.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass

import numpy as np

from ofc_core.board import ROW_SIZE, ROW_START, ROWS, Row, is_foul
from ofc_core.cards import MAX_JOKERS
from ofc_core.evaluate import (
    CATEGORY_SHIFT,
    LOW_27_FIELD,
    RANK_FIELD_BITS,
    Category,
    Strength,
    encode_low_27,
)
from ofc_core.row_tables import board_view, chunks, evaluate_chunk, evaluate_rows
from ofc_core.rules import MiddleKind, RoyaltyTable, Ruleset

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
                out[r, index] = table.points(row, Strength(index << ROYALTY_INDEX_SHIFT))
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
    boards = board_view(cards)
    n = len(boards)
    roy = royalty_array(table)
    strengths = np.empty((3, n), np.int32)  # row-major by row: returned transposed
    fouled = np.empty(n, bool)
    royalties = np.empty((3, n), np.int16)
    for start, stop, chunk in chunks(boards):
        rows = evaluate_chunk(chunk)
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
    for j in range(count):  # only the first cards of each class that rates the same
        legal &= _first_of_class(boards, slots[:, j], on_board, count)[:, choices[:, j]]
    owner, pick = np.nonzero(legal)
    filled = boards[owner].astype(np.uint8)
    for j in range(count):
        filled[np.arange(len(owner)), slots[owner, j]] = choices[pick, j]
    return filled, owner, choices[pick]


def _first_of_class(boards: np.ndarray, slot: np.ndarray, on_board: np.ndarray, count: int
                    ) -> np.ndarray:
    """``(B, 52)``: the cards the joker in ``slot`` of each board needs to try. In a row that
    can make no flush (the top, or a middle or bottom whose real cards hold two suits) the
    cards of one rank rate the same there, so only the lowest of each rank not on the board is
    tried (the two lowest with two jokers: they may not stand for the same card); this is exact,
    and the lowest keeps the search order's first best filling. In a row that can still make a
    flush, every card.

    >>> from ofc_core.cards import parse_cards
    >>> board = np.array([[c.index for c in parse_cards("Ah Ad 2c 7s 5d 4s 3h 9c Kh Kd Ks Qs")]
    ...                   + [52]])  # X1 in a bottom of three suits
    >>> tried = _first_of_class(board, np.array([12]), np.isin(np.arange(54), board)[None], 1)
    >>> int(tried.sum()), bool(tried[0, 0]), bool(tried[0, 1])  # 13 ranks; 2c is on the board
    (13, False, True)
    """
    available = ~on_board[:, :52]
    row = np.searchsorted(np.array(ROW_START[1:]), slot, side="right")  # 0 top ... 2 bottom
    start = np.array(ROW_START)[row]
    size = np.array(ROW_SIZE)[row]
    at = start[:, None] + np.arange(5)[None, :]
    cards = np.where(np.arange(5)[None, :] < size[:, None],
                     np.take_along_axis(boards, np.minimum(at, 12), axis=1), -1)
    real = (cards >= 0) & (cards < 52)
    suits = np.where(real, cards & 3, -1)
    first_suit = np.max(suits, axis=1)
    mixed = (real & (suits != first_suit[:, None])).any(axis=1)
    rank_only = (row == 0) | mixed
    order = np.cumsum(available.reshape(-1, 13, 4), axis=2).reshape(-1, 52)
    first: np.ndarray = available & ((order <= count) | ~rank_only[:, None])
    return first


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
    boards = board_view(cards, ruleset.jokers)
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
        return score_boards(cards, ruleset.paid_royalties)
    strengths, stood_for = resolve_boards(cards, ruleset)
    top, middle, bottom = strengths[:, 0], strengths[:, 1], strengths[:, 2]
    fouled = np.asarray(ruleset.middle.is_foul(top, middle, bottom), bool)
    roy = royalty_array(ruleset.paid_royalties)
    royalties = np.stack([roy[r].take(strengths[:, r] >> ROYALTY_INDEX_SHIFT)
                          for r in range(3)], axis=1)
    is_low = (middle >> CATEGORY_SHIFT) == Category.LOW_27
    if is_low.any():
        lows, points = _low_royalties(ruleset.paid_royalties)
        royalties[is_low, 1] = points[np.searchsorted(lows, middle[is_low])]
    royalties[fouled] = 0
    return BoardScores(strengths, fouled, royalties.astype(np.int16), stood_for)
