"""The compact notation of the review's placements and boards (``top-middle-bottom`` of the
cards placed, discards after a slash), as ``ofc review`` prints and stores them."""

from __future__ import annotations

from ofc_core.board import Board
from ofc_core.cards import card_of_index
from ofc_core.play.engine import Placement, Rows
from ofc_core.play.positions import card_indexes


def board_text(rows: Rows) -> str:
    """A partial board in the compact notation.

    >>> board_text(((50,), (), (0, 1)))
    'Ah--2c2d'
    """
    return Board(*(tuple(card_of_index(c) for c in row) for row in rows)).compact()


def placement_text(p: Placement) -> str:
    """A placement in the compact board notation (``top-middle-bottom`` of the cards placed),
    with the discards after a slash.

    >>> from ofc_core.cards import parse_cards
    >>> q, k, two = (c.index for c in parse_cards("Qh Kd 2c"))
    >>> placement_text(Placement((q,), (), (k,), (two,)))
    'Qh--Kd/2c'
    """
    discard = "".join(str(card_of_index(c)) for c in p.discard)
    return board_text(p.rows) + (f"/{discard}" if discard else "")


def parse_placement(text: str) -> Placement:
    """The inverse of :func:`placement_text`.

    >>> placement_text(parse_placement('Qh--Kd/2c'))
    'Qh--Kd/2c'
    """
    rows, _, discard = text.partition("/")
    board = Board.parse_compact(rows)
    extra = Board.parse_compact(f"--{discard}").bottom if discard else ()
    return Placement(card_indexes(board.top), card_indexes(board.middle),
                     card_indexes(board.bottom), card_indexes(extra))
