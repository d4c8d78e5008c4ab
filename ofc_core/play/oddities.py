"""Placements a strong player would question: the one list of kinds, each a plain predicate of
the cards dealt, the board before and a placement.

The review shows such a placement as the best only when it beats the best placement without
that feature by more than the paired noise, on extra rollouts on common deals
(:mod:`ofc_core.play.review`); the Review page's "leaks by situation" reads the same
predicates. Cards are indexes (rank ``card >> 2``, 0 = deuce .. 12 = ace); jokers (52, 53)
count as no rank.

>>> from ofc_core.cards import parse_cards
>>> def cards(text): return tuple(c.index for c in parse_cards(text))
>>> dealt = cards("9h 9d Ah Kh 2h")
>>> split = Placement(top=cards("9h"), middle=cards("9d"), bottom=cards("Ah Kh 2h"))
>>> [k.name for k in oddities(dealt, ((), (), ()), split)]
['splits a dealt pair']
>>> oddities(dealt, ((), (), ()), Placement(middle=cards("9h 9d"), bottom=cards("Ah Kh 2h")))
()
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass

from ofc_core.play.engine import Cards, Placement, Rows

QUEEN = 10
"""Rank index of a queen: a pair of queens or better on top earns Fantasyland."""


def _ranks(cards: Cards) -> list[int]:
    return [c >> 2 for c in cards if c < 52]


def _after(board: Rows, placement: Placement) -> Rows:
    return (board[0] + placement.top, board[1] + placement.middle, board[2] + placement.bottom)


def _pair_rank(row: Cards) -> int | None:
    """The highest rank held twice or more in ``row``, ``None`` when none is."""
    paired = [r for r, n in Counter(_ranks(row)).items() if n >= 2]
    return max(paired) if paired else None


def splits_a_pair(dealt: Cards, board: Rows, placement: Placement) -> bool:
    """Two dealt cards of one rank end in different rows (or one is discarded).

    >>> from ofc_core.cards import parse_cards
    >>> def cards(text): return tuple(c.index for c in parse_cards(text))
    >>> splits_a_pair(cards("7h 7d 2c"), ((), (), ()), Placement(middle=cards("7h"),
    ...               bottom=cards("2c"), discard=cards("7d")))
    True
    """
    where = {c: r for r, row in enumerate(placement.rows) for c in row}
    by_rank: dict[int, set[int]] = {}
    for c in dealt:
        if c < 52:
            by_rank.setdefault(c >> 2, set()).add(where.get(c, 3))
    return any(len(rows) > 1 for rank, rows in by_rank.items()
               if sum(1 for c in dealt if c < 52 and c >> 2 == rank) >= 2)


def higher_pair_in_the_middle(dealt: Cards, board: Rows, placement: Placement) -> bool:
    """After the placement the middle holds a pair above the bottom's pair (kings in the middle
    over nines on the bottom: the bottom must improve or the board fouls).

    >>> from ofc_core.cards import parse_cards
    >>> def cards(text): return tuple(c.index for c in parse_cards(text))
    >>> higher_pair_in_the_middle(cards("Ks Kd 9h 9c 2s"), ((), (), ()),
    ...     Placement(middle=cards("Ks Kd"), bottom=cards("9h 9c 2s")))
    True
    """
    _, middle, bottom = _after(board, placement)
    m, b = _pair_rank(middle), _pair_rank(bottom)
    return m is not None and b is not None and m > b


def unpaired_cards_on_top(dealt: Cards, board: Rows, placement: Placement) -> bool:
    """A first five (the board was empty) that puts two or more cards of different ranks on
    top.

    >>> from ofc_core.cards import parse_cards
    >>> def cards(text): return tuple(c.index for c in parse_cards(text))
    >>> unpaired_cards_on_top(cards("Jh 3d Ac Tc 5c"), ((), (), ()),
    ...     Placement(top=cards("Jh 3d"), bottom=cards("Ac Tc 5c")))
    True
    """
    first_five = not any(board)
    ranks = _ranks(placement.top)
    return first_five and len(ranks) >= 2 and len(set(ranks)) == len(ranks)


def useless_high_card_on_top(dealt: Cards, board: Rows, placement: Placement) -> bool:
    """The placement puts on top an unpaired card above the middle's pair but below a queen
    (pairing it would foul and earn no Fantasyland: nothing to gain).

    >>> from ofc_core.cards import parse_cards
    >>> def cards(text): return tuple(c.index for c in parse_cards(text))
    >>> useless_high_card_on_top(cards("Jh 8d 8c"), ((), (), ()),
    ...     Placement(top=cards("Jh"), middle=cards("8d 8c")))
    True
    """
    top, middle, _ = _after(board, placement)
    pair = _pair_rank(middle)
    counts = Counter(_ranks(top))
    return pair is not None and any(
        counts[r] == 1 and pair < r < QUEEN for r in _ranks(placement.top))


@dataclass(frozen=True)
class Oddity:
    """A kind of questionable placement: its name in words and its predicate."""

    name: str
    test: Callable[[Cards, Rows, Placement], bool]


ODDITIES: tuple[Oddity, ...] = (
    Oddity("splits a dealt pair", splits_a_pair),
    Oddity("a higher pair in the middle than on the bottom", higher_pair_in_the_middle),
    Oddity("two or more unpaired cards on top in a first five", unpaired_cards_on_top),
    Oddity("a card above the middle's pair on top with nothing to gain",
           useless_high_card_on_top),
)
"""Every kind, in the order they are named."""


def oddities(dealt: Cards, board: Rows, placement: Placement) -> tuple[Oddity, ...]:
    """The kinds of :data:`ODDITIES` that ``placement`` of ``dealt`` on ``board`` shows."""
    return tuple(k for k in ODDITIES if k.test(dealt, board, placement))
