"""Situations a player recognises, for the Review page's leaks: what was dealt, and what a
placement did. Each kind is defined once here, by a predicate on a :class:`Spot` (the board
before the decision, the cards dealt, the placement) with a hand-worked example.

Two sides:

- ``dealt``: what the player was dealt (a pair, three to a flush, connected cards, a joker,
  queens or better). The same for the played and the best placement.
- ``played``: what a placement did (two or more cards on top in a first five, a dealt pair
  split, a Fantasyland chase, a flush draw in the middle, a fouled Fantasyland set). The page
  compares how often the player's placement does it with how often the best does, and counts
  the EV lost where the played does it and the best does not.

Placements are in the review's notation (``ofc_core.play.review.placement_text``): the cards
placed this street row by row, ``top-middle-bottom``, then ``/`` and the discard
(``Qh--Kd/2c``); boards in the compact notation (``Ks-2c5d-``).

>>> spot = Spot.parse("--", "Qh Qd 7s 7c 2h", "QhQd-7s7c-2h", 1, "first five")
>>> [s.key for s in SITUATIONS if s.test(spot)]
['dealt_pair', 'dealt_queens', 'top_early', 'fl_chase']
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache

from ofc_core.board import Board, parse_compact_row
from ofc_core.cards import BoardCard, Card, parse_cards
from ofc_core.play.engine import Placement
from ofc_core.play.oddities import splits_a_pair

FANTASYLAND_SET = "fantasyland set"
FIRST_FIVE = 1
QUEEN = 12


CACHED = 1 << 16
"""Parsed rows and dealt cards kept (a page counts thousands of decisions, each parsed twice:
the played and the best placement share the board and the cards dealt)."""


@lru_cache(maxsize=CACHED)
def _row(text: str) -> tuple[BoardCard, ...]:
    return parse_compact_row(text)


@lru_cache(maxsize=CACHED)
def _cards(text: str) -> tuple[BoardCard, ...]:
    return parse_cards(text)


@lru_cache(maxsize=CACHED)
def _board(text: str) -> Board:
    """A compact board (``top-middle-bottom``), each row parsed once."""
    parts = text.strip().split("-")
    if len(parts) != 3:
        raise ValueError(f"a compact board is top-middle-bottom, got {text!r}")
    return Board(*(_row(p) for p in parts))


@dataclass(frozen=True, slots=True)
class Spot:
    """A decision's position and one placement of it: ``before`` the board before it,
    ``dealt`` the cards dealt, ``placed`` the cards this placement put on each row,
    ``discard`` the card(s) thrown away, ``street`` (1: the first five) and ``kind``."""

    before: Board
    dealt: tuple[BoardCard, ...]
    placed: Board
    discard: tuple[BoardCard, ...]
    street: int
    kind: str

    @classmethod
    def parse(cls, board: str, dealt: str, placement: str, street: int, kind: str) -> Spot:
        """A spot from the stored notation (``ValueError`` on a malformed one)."""
        rows, _, thrown = placement.partition("/")
        return cls(_board(board), _cards(dealt), _board(rows), _row(thrown), street, kind)


    @property
    def after(self) -> Board:
        """The board after the placement."""
        return Board(self.before.top + self.placed.top, self.before.middle + self.placed.middle,
                     self.before.bottom + self.placed.bottom)


def _real(cards: tuple[BoardCard, ...]) -> list[Card]:
    return [c for c in cards if isinstance(c, Card)]


def dealt_pair(s: Spot) -> bool:
    """Two dealt cards of one rank.

    >>> dealt_pair(Spot.parse("--", "9h 9d 2c", "-9h9d-/2c", 2, "street"))
    True
    """
    return any(n >= 2 for n in Counter(c.rank for c in _real(s.dealt)).values())


def dealt_flush3(s: Spot) -> bool:
    """Three or more dealt cards of one suit.

    >>> dealt_flush3(Spot.parse("--", "Ah 9h 5h Kc 2d", "Kc-2d-Ah9h5h", 1, "first five"))
    True
    """
    return any(n >= 3 for n in Counter(c.suit for c in _real(s.dealt)).values())


def dealt_connected(s: Spot) -> bool:
    """Three or more dealt ranks within five in a row (a straight draw; the ace also low).

    >>> dealt_connected(Spot.parse("--", "9h Tc Jd 2s 2c", "2s2c-9hTcJd-", 1, "first five"))
    True
    >>> dealt_connected(Spot.parse("--", "9h Kc 3d", "-9h-Kc/3d", 2, "street"))
    False
    """
    ranks = {int(c.rank) for c in _real(s.dealt)}
    ranks |= {1} if 14 in ranks else set()
    return any(len({r for r in ranks if low <= r < low + 5}) >= 3 for low in range(1, 11))


def dealt_joker(s: Spot) -> bool:
    """A joker among the cards dealt.

    >>> dealt_joker(Spot.parse("--", "X1 Ah 2c", "-X1Ah-/2c", 2, "street"))
    True
    """
    return any(not isinstance(c, Card) for c in s.dealt)


def dealt_queens(s: Spot) -> bool:
    """A dealt pair of queens or better: Fantasyland material for the top.

    >>> dealt_queens(Spot.parse("--", "Kh Kd 4c", "KhKd--/4c", 2, "street"))
    True
    >>> dealt_queens(Spot.parse("--", "Jh Jd 4c", "JhJd--/4c", 2, "street"))
    False
    """
    ranks = Counter(c.rank for c in _real(s.dealt))
    return any(r >= QUEEN and n >= 2 for r, n in ranks.items())


def top_early(s: Spot) -> bool:
    """Two or more cards on top in a first five.

    >>> top_early(Spot.parse("--", "Kh 4d 8c 8s 2h", "Kh4d-8c8s-2h", 1, "first five"))
    True
    """
    return s.street == FIRST_FIVE and s.kind != FANTASYLAND_SET and len(s.placed.top) >= 2


def pair_split(s: Spot) -> bool:
    """A dealt pair split: its cards on different rows, or one thrown away (the review's own
    check of an odd best, :func:`ofc_core.play.oddities.splits_a_pair`).

    >>> pair_split(Spot.parse("--", "8c 8s Ah 4d 2h", "Ah-8c4d-8s2h", 1, "first five"))
    True
    >>> pair_split(Spot.parse("--", "8c 8s Ah 4d 2h", "Ah-4d2h-8c8s", 1, "first five"))
    False
    """
    if s.kind == FANTASYLAND_SET:
        return False
    placed = Placement(_indexes(s.placed.top), _indexes(s.placed.middle),
                       _indexes(s.placed.bottom), _indexes(s.discard))
    before = (_indexes(s.before.top), _indexes(s.before.middle), _indexes(s.before.bottom))
    return splits_a_pair(_indexes(s.dealt), before, placed)


def _indexes(cards: tuple[BoardCard, ...]) -> tuple[int, ...]:
    return tuple(c.index for c in cards)


def fl_chase(s: Spot) -> bool:
    """A Fantasyland chase: a queen or better placed on the top row (outside a Fantasyland
    set), aiming at queens or better there.

    >>> fl_chase(Spot.parse("--", "Qh 9d 8c 7s 2h", "Qh-9d8c7s-2h", 1, "first five"))
    True
    """
    return s.kind != FANTASYLAND_SET and any(c.rank >= QUEEN for c in _real(s.placed.top))


def middle_flush_draw(s: Spot) -> bool:
    """A flush draw in the middle: three or more cards there after the placement, all of one
    suit, one of them placed now.

    >>> middle_flush_draw(Spot.parse("-Kh9h-", "4h Ac 2d", "-4h-Ac/2d", 3, "street"))
    True
    """
    middle = _real(s.after.middle)
    return (bool(s.placed.middle) and len(middle) >= 3 and len(middle) < 5
            and len({c.suit for c in middle}) == 1)


def fouled_set(s: Spot) -> bool:
    """A Fantasyland set that fouls (its rows out of order).

    >>> fouled_set(Spot.parse("--", "", "AhAdKs-Kc2d3c4c5s-QhQd9c8c7s", 1, "fantasyland set"))
    True
    >>> fouled_set(Spot.parse("--", "", "2h3d4s-Kc2d3c4c5s-QhQd9c8c7s", 1, "fantasyland set"))
    False
    """
    board = s.after
    if s.kind != FANTASYLAND_SET or not board.is_complete or board.jokers:
        return False
    return board.is_foul


@dataclass(frozen=True, slots=True)
class Situation:
    """A kind of situation: its ``key``, its ``name`` as the page shows it, its ``side``
    (``'dealt'`` or ``'played'``) and its predicate."""

    key: str
    name: str
    side: str
    test: Callable[[Spot], bool]


SITUATIONS: tuple[Situation, ...] = (
    Situation("dealt_pair", "dealt a pair", "dealt", dealt_pair),
    Situation("dealt_flush3", "dealt three to a flush", "dealt", dealt_flush3),
    Situation("dealt_connected", "dealt connected cards", "dealt", dealt_connected),
    Situation("dealt_joker", "dealt a joker", "dealt", dealt_joker),
    Situation("dealt_queens", "dealt queens or better", "dealt", dealt_queens),
    Situation("top_early", "two or more cards on top early", "played", top_early),
    Situation("pair_split", "a dealt pair split", "played", pair_split),
    Situation("fl_chase", "a Fantasyland chase", "played", fl_chase),
    Situation("middle_flush_draw", "a flush draw in the middle", "played", middle_flush_draw),
    Situation("fouled_set", "a fouled Fantasyland set", "played", fouled_set),
)
"""Every kind, dealt ones first."""


EMPTY = Board((), (), ())


@lru_cache(maxsize=CACHED)
def _dealt_kinds(dealt: str) -> frozenset[str]:
    """The dealt kinds of the cards ``dealt`` (they depend on nothing else)."""
    spot = Spot(EMPTY, _cards(dealt), EMPTY, (), 0, "")
    return frozenset(s.key for s in SITUATIONS if s.side == "dealt" and s.test(spot))


def situations_of(board: str, dealt: str, placement: str, street: int, kind: str,
                  side: str | None = None) -> frozenset[str]:
    """The keys of the situations a placement is in, of one ``side`` only when given (none
    when the notation cannot be read).

    >>> sorted(situations_of("--", "8c 8s Kh 9d 2h", "Kh-8c9d-8s2h", 1, "first five"))
    ['dealt_pair', 'fl_chase', 'pair_split']
    >>> sorted(situations_of("--", "8c 8s Kh 9d 2h", "Kh-8c9d-8s2h", 1, "first five", "played"))
    ['fl_chase', 'pair_split']
    """
    try:
        spot = Spot.parse(board, dealt, placement, street, kind)
        dealt_kinds = _dealt_kinds(dealt) if side in (None, "dealt") else frozenset()
    except (ValueError, KeyError, IndexError):
        return frozenset()
    if side == "dealt":
        return dealt_kinds
    return dealt_kinds | {s.key for s in SITUATIONS if s.side == "played" and s.test(spot)}
