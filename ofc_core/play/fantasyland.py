"""The Fantasyland setter: arranges 13 of a Fantasyland hand's cards (a beam search on
candidate rows), the rest discarded.

>>> from ofc_core.rules import PRESETS
>>> len(set_fantasyland(tuple(range(14)), PRESETS["pineapple"]).discard)
1
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Iterable, Sequence
from operator import itemgetter

from ofc_core.batch import ROYALTY_INDEX_SHIFT
from ofc_core.evaluate import Category, Strength, encode
from ofc_core.play.engine import Placement, row_strength
from ofc_core.play.rows import (
    RANK_TALLY,
    five_of_a_suit,
    most_royalties,
    ranks_held,
    row_royalties,
    straights_in,
    worth,
)
from ofc_core.rules import Ruleset

_last, _second = itemgetter(-1), itemgetter(1)

def _five_candidates(pool: Sequence[int]) -> list[tuple[int, ...]]:
    """A handful of strong 5-card rows from ``pool`` (each sorted, without repeats, in this
    order): the rows made on rank groups (:func:`_group_rows`); the highest and the lowest five
    of each suit holding five (the suit of the higher card first); each straight, ace-high
    first, of the highest card of each rank; the five highest cards. Five cards are their only
    candidate.

    >>> from ofc_core.cards import DECK, parse_cards
    >>> pool = [c.index for c in parse_cards("Ah Ad Ac 7h 7c 5h 4h 3h 2h 9s")]
    >>> for row in _five_candidates(pool):
    ...     print(" ".join(str(DECK[c]) for c in reversed(row)))
    Ah Ad Ac 3h 2h
    Ah Ad Ac 7h 7c
    7h 7c 4h 3h 2h
    Ah 7h 5h 4h 3h
    7h 5h 4h 3h 2h
    Ah 5h 4h 3h 2h
    Ah Ad Ac 9s 7h
    """
    if len(pool) <= 5:
        return [tuple(sorted(pool))] if len(pool) == 5 else []
    low = sorted(pool)
    by_rank = _by_rank(low)
    out = _group_rows(low, by_rank) if len(by_rank) < len(low) else []
    if five_of_a_suit(low):
        suits = [[c for c in low if c & 3 == suit] for suit in range(4)]
        for cards in sorted((s for s in suits if len(s) >= 5), key=_last, reverse=True):
            out += tuple(cards[-5:]), tuple(cards[:5])
    if len(by_rank) >= 5:  # a straight needs five ranks
        for ranks in straights_in(ranks_held(sum(map(RANK_TALLY.__getitem__, low)), 1)):
            out.append(tuple([by_rank[r][0] for r in ranks]))
    out.append(tuple(low[-5:]))
    return list(dict.fromkeys(out))


def _by_rank(low: list[int]) -> dict[int, list[int]]:
    """The cards of ``low`` (ascending) by rank: ranks from the highest, each one's cards
    highest first."""
    by_rank: dict[int, list[int]] = {}
    for c in reversed(low):
        if c >> 2 in by_rank:
            by_rank[c >> 2].append(c)
        else:
            by_rank[c >> 2] = [c]
    return by_rank


def _group_rows(low: list[int], by_rank: dict[int, list[int]]) -> list[tuple[int, ...]]:
    """The rows of :func:`_five_candidates` made on rank groups (``low``: at least six cards,
    ascending; ``by_rank``: their cards by rank, as there), each sorted: for each of the four
    largest groups (larger first, then higher) the group with the lowest cards of other ranks;
    after trips, the trips with the smallest other group (a full house); after a pair, the pair,
    the next pair and the lowest card of neither rank (two pair)."""
    groups = [g for g in by_rank.values() if len(g) >= 2]
    groups.sort(key=len, reverse=True)  # a stable sort: higher first among groups of a size
    out = []
    for i, group in enumerate(groups[:4]):
        size = len(group)
        at = bisect_left(low, group[-1])  # a rank's cards are next to each other in ``low``
        others = low[:at] + low[at + size:]
        if at >= 5 - size:  # the lowest cards of other ranks are all below the group
            out.append(tuple(low[:5 - size] + group[::-1]))
        else:
            out.append(tuple(sorted(group + others[:5 - size])))
        if size >= 3:
            smaller = [g for g in groups if g is not group]
            if smaller:
                out.append(tuple(sorted(group[:3] + smaller[-1][:2])))
        elif i + 1 < len(groups):  # the next group is a pair too
            pair = groups[i + 1]
            kicker = others[2] if others[0] >> 2 == pair[0] >> 2 else others[0]
            out.append(tuple(sorted(group + pair + [kicker])))
    return out


_NO_CEILING = 1 << 30
"""Above every strength."""
_PAIRED = encode(Category.PAIR, [])
"""Below every pair and above every high card (an unpaired top is hardly ever above all that
the cards left can make: not worth a :func:`_ceiling`)."""
_CEILINGS = tuple(tuple(encode(category, [rank + 2 + 1]) for rank in range(13))
                  for category in (Category.HIGH_CARD, Category.PAIR, Category.TWO_PAIR))
"""Above every hand of high card, one pair or two pair led by a rank (index 0-12; its Rank is
2 more)."""


def _ceiling(cards: Sequence[int]) -> Strength:
    """A strength that no five of ``cards`` reach, from rank and suit counts alone: above the
    best high card, pair or two pair their ranks allow. With trips, or five ranks or five of a
    suit that may make a straight or a flush, there is no bound.

    >>> from ofc_core.cards import parse_cards
    >>> from ofc_core.evaluate import strength
    >>> cards = [c.index for c in parse_cards("9s 9d 7h 5c 3d 2s")]
    >>> strength("9h 9c Ah 7c 5d") < _ceiling(cards) <= strength("Th Tc 2h")
    True
    >>> _ceiling([c.index for c in parse_cards("9s 9d 7h 6c 5d 8s")]) == _NO_CEILING
    True
    """
    tally = sum(map(RANK_TALLY.__getitem__, cards))
    if ranks_held(tally, 3):
        return _NO_CEILING
    held = ranks_held(tally, 1)
    if held.bit_count() >= 5 and (straights_in(held) or five_of_a_suit(cards)):
        return _NO_CEILING
    paired = ranks_held(tally, 2)
    lead = (paired or held).bit_length() // 4 - 1  # the highest pair's rank, or highest rank
    return _CEILINGS[min(paired.bit_count(), 2)][lead]


def _top_candidates(pool: list[int]) -> list[tuple[int, ...]]:
    """Trips, the best pairs with the lowest kicker, the three lowest cards, and the lowest
    three of different ranks (an unpaired top)."""
    low = sorted(pool)
    by_rank = _by_rank(low)
    out = [tuple(g[:3]) for g in by_rank.values() if len(g) >= 3]
    for g in [g for g in by_rank.values() if len(g) >= 2][:3]:
        # The lowest card of another rank (a rank's cards are next to each other in ``low``).
        kicker = low[0] if low[0] >> 2 != g[0] >> 2 else low[len(g)] if len(g) < len(low) else None
        if kicker is not None:
            out.append((g[0], g[1], kicker))
    out.append(tuple(low[:3]))
    singles = [g[-1] for g in reversed(by_rank.values())]
    if len(singles) >= 3:
        out.append(tuple(singles[:3]))
    return list(dict.fromkeys(map(tuple, map(sorted, out))))


def set_fantasyland(cards: tuple[int, ...], ruleset: Ruleset, *, width: int = 4) -> Placement:
    """Arrange 13 of the Fantasyland cards: for each candidate top (trips, the best pairs, the
    lowest cards), try the ``width`` strongest bottoms of the rest, for each the strongest
    middles between top and bottom; keep the arrangement with the most royalties (staying in
    Fantasyland counts as 10). The extra cards are discarded.

    >>> from ofc_core.cards import parse_cards
    >>> from ofc_core.rules import PRESETS
    >>> hand = tuple(c.index for c in parse_cards("As Ad Ac Kh Kd Qs Qh 9h 8h 7h 6h 5h 2c 3d"))
    >>> p = set_fantasyland(hand, PRESETS["pineapple"])
    >>> from ofc_core.board import Board
    >>> from ofc_core.cards import DECK
    >>> Board(*(tuple(DECK[c] for c in sorted(r, reverse=True)) for r in p.rows)).compact()
    'KhKd2c-AsAdAcQsQh-9h8h7h6h5h'
    >>> [str(DECK[c]) for c in p.discard]
    ['3d']
    """
    best, best_value = None, -1e9
    top_royalty, middle_royalty, bottom_royalty = row_royalties(ruleset.royalties)
    _, middle_most, bottom_most = most_royalties(ruleset.royalties)
    pool = list(cards)
    for top in _top_candidates(pool):
        st = row_strength(top)
        tr = top_royalty[st >> ROYALTY_INDEX_SHIFT]
        rest = [c for c in pool if c not in top]
        bottoms = _by_strength(_five_candidates(rest))[:width]
        # The most any middle (at most the bottom) could make of this top and a bottom, the
        # rows earning the most they could at their strength: bottoms come strongest first, so
        # once that cannot beat the best so far, no weaker bottom can (nor can one below the
        # top). Staying is judged once, with the middle and the bottom as strong as the
        # strongest bottom (the stay rule only asks rows to reach minimums).
        may_stay = bool(bottoms) and _may_stay(ruleset, st, tr, bottoms[0][1])
        for bottom, sb in bottoms:
            index = sb >> ROYALTY_INDEX_SHIFT
            most = (tr, middle_most[index], bottom_most[index])
            if sb < st or worth(most, (st, sb, sb), 10.0 if may_stay else 0) <= best_value:
                break
            left = [c for c in rest if c not in bottom]
            if st >= _PAIRED and _ceiling(left) <= st:
                continue  # no five of them make a middle above the top
            middles = _by_strength(_five_candidates(left))
            for middle, sm in [(m, s) for m, s in middles if st <= s <= sb][:width]:
                royalties = (tr, middle_royalty[sm >> ROYALTY_INDEX_SHIFT], bottom_royalty[index])
                value = _fl_value(ruleset, (st, sm, sb), royalties, best_value, may_stay)
                if value is not None:
                    discard = tuple(c for c in left if c not in middle)
                    best, best_value = Placement(top, middle, bottom, discard), value
    return best if best is not None else _fallback_fl(cards)


def _by_strength(rows: Iterable[tuple[int, ...]]) -> list[tuple[tuple[int, ...], Strength]]:
    """Each row with its strength (:func:`ofc_core.play.engine.row_strength`), strongest first;
    rows of equal strength keep their order."""
    ranked = [(row, row_strength(row)) for row in rows]
    ranked.sort(key=_second, reverse=True)
    return ranked


def _fl_value(ruleset: Ruleset, strengths: tuple[Strength, Strength, Strength],
              royalties: tuple[int, int, int], floor: float, may_stay: bool) -> float | None:
    """What a Fantasyland board is worth (:func:`worth`, staying in Fantasyland worth 10),
    or ``None`` when that is not above ``floor``. The stay rule is asked only when its answer
    decides, and not at all when the board cannot stay (``may_stay`` false).

    >>> from ofc_core.rules import PRESETS
    >>> from ofc_core.evaluate import strength
    >>> rows = (strength("Qh Qd 2c"), strength("9s 9d 5h 4c 3d"), strength("As Ks Js 8s 2s"))
    >>> _fl_value(PRESETS["pineapple"], rows, (7, 0, 4), -1e9, True)  # 11 + 0.05 * (1 + 1 + 5)
    11.35
    >>> _fl_value(PRESETS["pineapple"], rows, (7, 0, 4), 11.35, True) is None
    True
    >>> trips = (strength("2h 2d 2c"),) + rows[1:]  # trips on top stay: 10 more
    >>> _fl_value(PRESETS["pineapple"], trips, (10, 0, 4), -1e9, True)
    24.45
    """
    if may_stay:
        staying = worth(royalties, strengths, 10.0)
        if staying <= floor:
            return None
        if ruleset.fantasyland_cards(False, True, strengths[0], strengths, royalties):
            return staying
    value = worth(royalties, strengths, 0)
    return value if value > floor else None


def _may_stay(ruleset: Ruleset, top: Strength, top_royalty: int, bottom: Strength) -> bool:
    """Whether a Fantasyland board with this top (and its royalty) and a bottom (and a middle)
    of strength at most ``bottom`` could stay in Fantasyland: the stay rule asked with the
    middle and the bottom as strong as ``bottom``, each earning the most it could at that
    strength (the stay rule only asks rows to reach minimums).

    >>> from ofc_core.rules import PRESETS
    >>> from ofc_core.evaluate import strength
    >>> pineapple, flush = PRESETS["pineapple"], strength("As Ks Js 8s 2s")
    >>> _may_stay(pineapple, strength("Qh Qd 2c"), 7, flush)
    False
    >>> _may_stay(pineapple, strength("2h 2d 2c"), 10, flush)  # trips on top
    True
    """
    _, middle_most, bottom_most = most_royalties(ruleset.royalties)
    index = bottom >> ROYALTY_INDEX_SHIFT
    return bool(ruleset.fantasyland_cards(False, True, top, (top, bottom, bottom),
                                          (top_royalty, middle_most[index], bottom_most[index])))


def _fallback_fl(cards: tuple[int, ...]) -> Placement:
    """Strongest cards low, weakest on top: never used unless no candidate is legal."""
    ranked = sorted(cards, reverse=True)
    return Placement(tuple(ranked[10:13]), tuple(ranked[5:10]), tuple(ranked[:5]),
                     tuple(ranked[13:]))
