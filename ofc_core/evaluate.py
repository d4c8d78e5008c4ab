"""Row strength: 3-card and 5-card rows on one integer scale.

A strength is ``category << 20`` followed by five 4-bit rank fields, most significant first
(``0`` pads a 3-card row). Comparing two rows, and checking a foul, is comparing two integers:

- rows compare by category, then ranks and kickers lexicographically;
- the 3-card top is compared with only its own cards, so a top that equals a prefix of the
  middle (QQ9 over QQ9xx) is not stronger than it, while QQ7 over QQ654 is;
- the top scores only high card, pair or trips (no straights, no flushes);
- A-2-3-4-5 is the lowest straight (five-high); suits never break ties.

>>> strength("Qh Qd 7c") > strength("Qs Qc 6h 5d 4c")
True
>>> strength("Qh Qd 7c") > strength("Qs Qc 9h 8d 2c")
False
>>> strength("Qh Qd 9c") > strength("Qs Qc 9h 8d 2c")
False
>>> hand_name(strength("Ad 2c 3h 4s 5d"))
'Straight, Five high'
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from enum import IntEnum
from typing import NewType

from ofc_core.cards import Card, Rank, parse_cards, real_cards

Strength = NewType("Strength", int)
"""An integer on the one scale shared by all rows; greater is stronger. A type of its own, so
that a royalty, a rank or a count is never passed where a row's strength is meant (wrap a
number read back from arrays or the store with ``Strength(int(x))``)."""

CATEGORY_SHIFT = 20
RANK_FIELD_BITS = 4


class Category(IntEnum):
    """Poker hand categories, weakest first. A royal flush is the ace-high straight flush."""

    HIGH_CARD = 0
    PAIR = 1
    TWO_PAIR = 2
    TRIPS = 3
    STRAIGHT = 4
    FLUSH = 5
    FULL_HOUSE = 6
    QUADS = 7
    STRAIGHT_FLUSH = 8
    LOW_27 = 9
    """A legal 2-7 low in the middle of a 2-7 table (only ever compared with other lows)."""


def encode(category: Category, ranks: Iterable[int]) -> Strength:
    """Pack a category and up to five significant ranks (most significant first).

    >>> hex(encode(Category.PAIR, [12, 7]))
    '0x1c7000'
    """
    value = int(category)
    fields = list(ranks)
    if len(fields) > 5:
        raise ValueError("at most five rank fields")
    for r in fields + [0] * (5 - len(fields)):
        value = (value << RANK_FIELD_BITS) | r
    return Strength(value)


def category_of(s: Strength) -> Category:
    """``category_of(strength('Ah Ad Ac')) is Category.TRIPS``."""
    return Category(s >> CATEGORY_SHIFT)


def ranks_of(s: Strength) -> tuple[int, ...]:
    """The significant ranks of a strength, padding dropped; the wheel's ace reads as 1."""
    fields = [(s >> (RANK_FIELD_BITS * (4 - i))) & 0xF for i in range(5)]
    return tuple(r for r in fields if r)


def lead_rank(s: Strength) -> int:
    """The most significant rank: the pair's rank, the trips' rank, a straight's high card."""
    return (s >> (RANK_FIELD_BITS * 4)) & 0xF


def _straight_high(distinct_desc: list[int]) -> int:
    """High card of a 5-distinct-rank straight, 5 for the wheel, 0 if not a straight."""
    if len(distinct_desc) != 5:
        return 0
    if distinct_desc[0] - distinct_desc[4] == 4:
        return distinct_desc[0]
    if distinct_desc == [14, 5, 4, 3, 2]:
        return 5
    return 0


def evaluate(cards: Iterable[Card]) -> Strength:
    """Strength of a complete 3-card (top) or 5-card (middle, bottom) row.

    >>> category_of(evaluate(parse_cards("Ah Kh Qh")))
    <Category.HIGH_CARD: 0>
    >>> evaluate(parse_cards("Ah Kh"))
    Traceback (most recent call last):
    ...
    ValueError: a row has 3 or 5 cards, got 2
    """
    row = tuple(cards)
    if len(row) not in (3, 5):
        raise ValueError(f"a row has 3 or 5 cards, got {len(row)}")
    counts = Counter(c.rank.value for c in row)
    # Ranks grouped by multiplicity, then rank: (3, Q), (2, 5) for a full house QQQ55.
    groups = sorted(counts.items(), key=lambda rc: (rc[1], rc[0]), reverse=True)
    shape = tuple(n for _, n in groups)
    ordered = [r for r, _ in groups]
    if len(row) == 3:
        category = {(3,): Category.TRIPS, (2, 1): Category.PAIR}.get(shape, Category.HIGH_CARD)
        return encode(category, ordered)
    flush = len({c.suit for c in row}) == 1
    high = _straight_high(ordered) if shape == (1, 1, 1, 1, 1) else 0
    if high:
        category = Category.STRAIGHT_FLUSH if flush else Category.STRAIGHT
        return encode(category, [high, high - 1, high - 2, high - 3, high - 4 or 1])
    if flush:
        return encode(Category.FLUSH, ordered)
    category = {
        (4, 1): Category.QUADS,
        (3, 2): Category.FULL_HOUSE,
        (3, 1, 1): Category.TRIPS,
        (2, 2, 1): Category.TWO_PAIR,
        (2, 1, 1, 1): Category.PAIR,
    }.get(shape, Category.HIGH_CARD)
    return encode(category, ordered)


LOW_27_FIELD = 15
"""A 2-7 low stores each rank as ``15 - rank``, so the lower hand is the greater strength."""


def encode_low_27(ranks: Iterable[int]) -> Strength:
    """The strength of a 2-7 low from its five ranks, highest first.

    >>> encode_low_27([7, 5, 4, 3, 2]) > encode_low_27([8, 4, 3, 2, 6])
    True
    """
    return encode(Category.LOW_27, [LOW_27_FIELD - r for r in sorted(ranks, reverse=True)])


def low_ranks(s: Strength) -> tuple[int, ...]:
    """The ranks of a 2-7 low, highest first: ``low_ranks(encode_low_27([2, 3, 4, 5, 7]))``
    is ``(7, 5, 4, 3, 2)``."""
    return tuple(LOW_27_FIELD - r for r in ranks_of(s))


def evaluate_low_27(cards: Iterable[Card]) -> Strength:
    """Strength of a 2-7 middle. A legal low (five distinct ranks, ten or lower, no straight,
    no flush; the ace is always high) is a :attr:`Category.LOW_27`; any other middle keeps its
    poker value with the ace high (A-2-3-4-5 is an ace-high hand, not a straight), and fouls.

    >>> hand_name(evaluate_low_27(parse_cards("7h 5d 4c 3s 2h")))
    'Seven-Five low'
    >>> hand_name(evaluate_low_27(parse_cards("Ah 2d 3c 4s 5h")))
    'Ace high'
    >>> hand_name(evaluate_low_27(parse_cards("8h 6h 5h 3h 2h")))
    'Flush, Eight high'
    """
    row = tuple(cards)
    ranks = sorted((c.rank.value for c in row), reverse=True)
    distinct = len(set(ranks)) == 5
    flush = len({c.suit for c in row}) == 1
    straight = distinct and ranks[0] - ranks[4] == 4
    if distinct and not flush and not straight and ranks[0] <= Rank.TEN:
        return encode_low_27(ranks)
    if ranks == [14, 5, 4, 3, 2]:
        return encode(Category.FLUSH if flush else Category.HIGH_CARD, ranks)
    return evaluate(row)


def strength(text: str) -> Strength:
    """Shorthand for tests and docs: ``strength("Qh Qd 2c") == evaluate(parse_cards(...))``."""
    return evaluate(real_cards(parse_cards(text)))


def is_royal_flush(s: Strength) -> bool:
    """``is_royal_flush(strength('Th Jh Qh Kh Ah'))`` is True."""
    return category_of(s) is Category.STRAIGHT_FLUSH and lead_rank(s) == Rank.ACE


def hand_name(s: Strength) -> str:
    """Display name of a row, in the words players use.

    >>> hand_name(strength("Qh Qd 2c"))
    'Pair of Queens'
    >>> hand_name(strength("Kh 9h 7h 4h 2h"))
    'Flush, King high'
    >>> hand_name(strength("6h 6d 6c 2s 2h"))
    'Full house, Sixes full of Twos'
    >>> hand_name(strength("Ts Js Qs Ks As"))
    'Royal flush'
    """
    category = category_of(s)
    ranks = [Rank(r) if r >= 2 else Rank.ACE for r in ranks_of(s)]
    lead = ranks[0]
    match category:
        case Category.HIGH_CARD:
            return f"{lead.singular} high"
        case Category.PAIR:
            return f"Pair of {lead.plural}"
        case Category.TWO_PAIR:
            return f"Two pair, {lead.plural} and {ranks[1].plural}"
        case Category.TRIPS:
            return f"Three of a kind, {lead.plural}"
        case Category.STRAIGHT:
            return f"Straight, {lead.singular} high"
        case Category.FLUSH:
            return f"Flush, {lead.singular} high"
        case Category.FULL_HOUSE:
            return f"Full house, {lead.plural} full of {ranks[1].plural}"
        case Category.QUADS:
            return f"Four of a kind, {lead.plural}"
        case Category.STRAIGHT_FLUSH:
            return "Royal flush" if lead is Rank.ACE else f"Straight flush, {lead.singular} high"
        case Category.LOW_27:
            high, second = (Rank(r) for r in low_ranks(s)[:2])
            return f"{high.singular}-{second.singular} low"
    raise AssertionError(category)
