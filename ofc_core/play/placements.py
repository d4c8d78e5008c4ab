"""Every legal placement of one street, for the decision review.

A street deals ``len(dealt)`` cards; ``place`` of them go onto the board (each into a row with a
free slot), the rest are discarded. Two placements are the same when they put the same cards in
the same rows, so the order of cards within a row never makes a second placement. Pineapple's
first street (5 cards, 3/5/5 free) has 3^5 = 243 row choices, of which 232 fit (no row takes
four or five on top); its later streets (3 dealt, 2 placed) have at most 3 x 3^2 = 27.

>>> from ofc_core.cards import parse_cards
>>> dealt = tuple(c.index for c in parse_cards("Ah Kd 2c 7s 7h"))
>>> len(legal_placements(dealt, 5, (3, 5, 5)))
232
>>> len(legal_placements(dealt[:3], 2, (3, 5, 5)))
27
>>> legal_placements(dealt[:3], 2, (0, 0, 2))
[Placement(top=(), middle=(), bottom=(50, 45), discard=(0,)), \
Placement(top=(), middle=(), bottom=(50, 0), discard=(45,)), \
Placement(top=(), middle=(), bottom=(45, 0), discard=(50,))]
"""

from __future__ import annotations

from itertools import combinations, product

from ofc_core.play.engine import Cards, Placement, Rows


def legal_placements(dealt: Cards, place: int, free: tuple[int, int, int]) -> list[Placement]:
    """All placements of ``place`` of the ``dealt`` cards into rows with ``free`` empty slots
    (top, middle, bottom), the other cards discarded; in a fixed order (by kept cards, then
    rows), so the same street always lists its placements the same way."""
    out: list[Placement] = []
    for kept in combinations(dealt, place):
        discard = tuple(c for c in dealt if c not in kept)
        for rows in product(range(3), repeat=place):
            if any(rows.count(r) > free[r] for r in range(3)):
                continue
            top = tuple(c for c, r in zip(kept, rows, strict=True) if r == 0)
            middle = tuple(c for c, r in zip(kept, rows, strict=True) if r == 1)
            bottom = tuple(c for c, r in zip(kept, rows, strict=True) if r == 2)
            out.append(Placement(top, middle, bottom, discard))
    return out


def free_slots(board: Rows) -> tuple[int, int, int]:
    """Empty slots per row of a partial board.

    >>> free_slots(((1,), (), (2, 3, 4, 5, 6)))
    (2, 5, 0)
    """
    top, middle, bottom = board
    return (3 - len(top), 5 - len(middle), 5 - len(bottom))


def apply(board: Rows, placement: Placement) -> Rows:
    """The board after a placement.

    >>> apply(((1,), (), ()), Placement((2,), (), (3,), (4,)))
    ((1, 2), (), (3,))
    """
    return (board[0] + placement.top, board[1] + placement.middle, board[2] + placement.bottom)


def same_placement(a: Placement, b: Placement) -> bool:
    """Same cards in the same rows and the same discards, in any order.

    >>> same_placement(Placement((1, 2), (), (), (3,)), Placement((2, 1), (), (), (3,)))
    True
    """
    return all(sorted(x) == sorted(y) for x, y in zip(a, b, strict=True))
