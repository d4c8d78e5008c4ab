"""The board: three rows of placed cards, and the foul rule.

A board is legal iff bottom >= middle >= top on the one strength scale; equal is legal.

>>> b = Board.parse("Qh Qd 7c", "Qs Qc 6h 5d 4c", "Ah Ad Kc Ks 2d")
>>> b.is_foul
True
>>> Board.parse("Qh Qd 7c", "Qs Qc 9h 8d 2c", "Ah Ad Kc Ks 2d").is_foul
False
>>> Board.parse_compact("Jh4s3h-As5c4c3c2h-KdJd9d7d3d").middle
(Card('As'), Card('5c'), Card('4c'), Card('3c'), Card('2h'))
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import StrEnum
from typing import TYPE_CHECKING, Any, overload

from ofc_core.cards import BoardCard, Joker, format_cards, parse_cards, real_cards
from ofc_core.evaluate import Strength, evaluate

if TYPE_CHECKING:
    import numpy as np
    from numpy.typing import NDArray


class Row(StrEnum):
    """The three rows, top (3 cards) to bottom (5 cards)."""

    TOP = "top"
    MIDDLE = "middle"
    BOTTOM = "bottom"

    @property
    def size(self) -> int:
        return 3 if self is Row.TOP else 5


ROWS: tuple[Row, Row, Row] = (Row.TOP, Row.MIDDLE, Row.BOTTOM)
ROW_NAMES: tuple[str, str, str] = ("top", "middle", "bottom")
"""The rows' names, which are also the row fields of :class:`Board` and of a street record
(plain strings, for code that reads rows by name in a loop)."""
BOARD_SIZE = 13
ROW_SIZE: tuple[int, int, int] = (ROWS[0].size, ROWS[1].size, ROWS[2].size)
"""Cards in top, middle and bottom: (3, 5, 5)."""
ROW_START: tuple[int, int, int] = (0, ROW_SIZE[0], ROW_SIZE[0] + ROW_SIZE[1])
"""First slot of top, middle and bottom in a 13-slot board array: (0, 3, 8)."""

_COMPACT_CARD = re.compile(r"(?:10|[2-9TJQKAtjqka])[cdhsCDHS♣♦♥♠]|[Xx][12]")


def parse_compact_row(text: str) -> tuple[BoardCard, ...]:
    """Cards written without spaces: ``parse_compact_row('KdJd9d') == parse_cards('Kd Jd 9d')``.

    Spaces are allowed too, so a normal card list parses the same; jokers are ``X1``, ``X2``.

    >>> parse_compact_row("AhX2Kd")
    (Card('Ah'), Joker('X2'), Card('Kd'))
    """
    stripped = "".join(text.split())
    tokens = _COMPACT_CARD.findall(stripped)
    if "".join(tokens) != stripped:
        bad = _COMPACT_CARD.sub(" ", stripped).split()
        raise ValueError(f"unknown card {bad[0] if bad else stripped!r} in {text!r} "
                         "(jokers are X1 and X2)")
    return parse_cards(tokens)


@dataclass(frozen=True, slots=True)
class Board:
    """The cards a player placed, row by row. Rows may be incomplete while a hand is played."""

    top: tuple[BoardCard, ...]
    middle: tuple[BoardCard, ...]
    bottom: tuple[BoardCard, ...]

    @classmethod
    def parse(cls, top: str, middle: str, bottom: str) -> Board:
        return cls(parse_cards(top), parse_cards(middle), parse_cards(bottom))

    @classmethod
    def parse_compact(cls, text: str) -> Board:
        """``top-middle-bottom`` with or without spaces between cards, the notation OFC tools
        use (``Jh4s3h-As5c4c3c2h-KdJd9d7d3d``)."""
        parts = text.strip().split("-")
        if len(parts) != 3:
            raise ValueError(f"a compact board is top-middle-bottom, got {text!r}")
        return cls(*(parse_compact_row(p) for p in parts))

    def row(self, row: Row) -> tuple[BoardCard, ...]:
        cards: tuple[BoardCard, ...] = getattr(self, row.value)
        return cards

    @property
    def cards(self) -> tuple[BoardCard, ...]:
        return self.top + self.middle + self.bottom

    @property
    def jokers(self) -> tuple[Joker, ...]:
        """The jokers on the board, in board order."""
        return tuple(c for c in self.cards if isinstance(c, Joker))

    @property
    def is_complete(self) -> bool:
        return all(len(self.row(r)) == r.size for r in ROWS)

    def strengths(self) -> tuple[Strength, Strength, Strength]:
        """Strength of top, middle and bottom as poker hands; the board must be complete and
        hold no joker (a ruleset scores jokers and 2-7 middles: :mod:`ofc_core.jokers`)."""
        if not self.is_complete:
            raise ValueError(f"incomplete board {self}")
        return (evaluate(real_cards(self.top)), evaluate(real_cards(self.middle)),
                evaluate(real_cards(self.bottom)))

    @property
    def is_foul(self) -> bool:
        top, middle, bottom = self.strengths()
        return is_foul(top, middle, bottom)

    def compact(self) -> str:
        return "-".join("".join(str(c) for c in self.row(r)) for r in ROWS)

    def __str__(self) -> str:
        return " / ".join(format_cards(self.row(r)) for r in ROWS)


@overload
def foul_halves(top: Strength, middle: Strength, bottom: Strength) -> tuple[bool, bool]: ...
@overload
def foul_halves(top: NDArray[Any], middle: NDArray[Any],
                bottom: NDArray[Any]) -> tuple[NDArray[np.bool_], NDArray[np.bool_]]: ...
def foul_halves(top: Any, middle: Any, bottom: Any) -> tuple[Any, Any]:
    """The two ways a board fouls, on its rows' strengths: (the top beats the middle, the
    middle beats the bottom). Equal rows are legal. Elementwise on numpy arrays too: the batch
    scorer stores both halves (``foul_top_middle``, ``foul_middle_bottom``) from here.

    >>> from ofc_core.evaluate import strength
    >>> foul_halves(strength("Qh Qd 7c"), strength("Qs Qc 6h 5d 4c"), strength("Ah Ad Kc Ks 2d"))
    (True, False)
    >>> foul_halves(strength("2h 3d 4c"), strength("Ah Ad Kc Ks 2d"), strength("Ac As Kd Kh 2c"))
    (False, False)
    """
    return middle < top, bottom < middle


@overload
def is_foul(top: Strength, middle: Strength, bottom: Strength) -> bool: ...
@overload
def is_foul(top: NDArray[Any], middle: NDArray[Any], bottom: NDArray[Any]) -> NDArray[np.bool_]: ...
def is_foul(top: Any, middle: Any, bottom: Any) -> Any:
    """The foul rule on strengths: either half of :func:`foul_halves` (elementwise on numpy
    arrays too). ``bottom >= middle >= top`` is legal, equal rows included."""
    top_beats_middle, middle_beats_bottom = foul_halves(top, middle, bottom)
    return top_beats_middle | middle_beats_bottom
