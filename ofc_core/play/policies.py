"""Player policies for the play engine: how simulated players place their cards.

Every policy follows :class:`ofc_core.play.engine.Policy`: given a
:class:`~ofc_core.play.engine.View`
(own board, dealt cards, opponents' visible boards, ruleset) it returns a legal
:class:`~ofc_core.play.engine.Placement`. Policies are fast heuristics on rank and suit counts; row
strengths (:func:`ofc_core.play.engine.row_strength`, the evaluator remembered) are used on the last
street, when the counts leave the order of the rows open (to keep the board legal, choosing the
best-paying finish if it must), by the chaser's look-ahead (:func:`_look_ahead`, a few sampled
futures, only while a Fantasyland top is at stake) and by the Fantasyland setter. Randomness
comes only from the ``rng`` the engine passes in.

- ``careful``: builds the bottom strongest, keeps the middle below the bottom, puts low cards on
  top and pairs a queen or better on top only when the middle already beats it or the outs
  left make covering it likely (:func:`_cover_chance` at least 0.25).
- ``chaser``: plays like ``careful`` but starts the top with a queen, king or ace and pairs it
  on a thinner cover chance (0.15), then builds the middle to beat it (pairs first, live cards
  above the top pair as outs) with the bottom above the middle, weighing each possible discard;
  while a Fantasyland top is at stake it chooses the street's move by looking ahead.
- ``random``: a uniformly random legal move (random discard, random free slots).

All three set a Fantasyland hand with :func:`set_fantasyland`, and decide the Double cube by
the score (:func:`offers_by_score`, :func:`accepts_by_score`).

>>> import random
>>> from ofc_core.play.engine import Table, SessionSpec, play_session
>>> from ofc_core.rules import PRESETS
>>> table = Table(PRESETS["pineapple"], ("ann", "bob", "cy"),
...               tuple(POLICIES[n]() for n in ("careful", "chaser", "random")))
>>> hands = play_session(table, SessionSpec("doc", hands=20), random.Random(3))
>>> len(hands)
20
"""

from __future__ import annotations

import random
from bisect import bisect_left
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from functools import partial
from itertools import accumulate, combinations, permutations, product
from operator import itemgetter

from ofc_core.batch import ROYALTY_INDEX_SHIFT, royalty_array
from ofc_core.evaluate import Category, Strength, encode
from ofc_core.play.engine import CubeView, Placement, Policy, View, row_strength
from ofc_core.rules import RoyaltyTable, Ruleset

QUEEN, KING, ACE = 10, 11, 12
"""Rank indexes (card index >> 2) of the cards that open Fantasyland."""

_PLACEMENT = partial(tuple.__new__, Placement)
"""A :class:`Placement` from its four rows as one tuple, without the keyword-default
constructor (one call layer less in the hot loop)."""

# --------------------------------------------------------------------------------------------
# Row state on rank and suit counts


class _Rows:
    """Rank and suit counts of the three rows during one decision (private, mutable), with
    what is still to come: :attr:`to_come` cards will be dealt after this street, out of
    :attr:`unseen` cards the player has not seen."""

    __slots__ = ("counts", "suits", "size", "free", "pairs", "high_pair", "_dead", "_view")

    def __init__(self, board: tuple[tuple[int, ...], ...], view: View) -> None:
        self.counts = [[0] * 13, [0] * 13, [0] * 13]
        self.suits = [[0] * 4, [0] * 4, [0] * 4]
        self.pairs = [0, 0, 0]
        """Sum over ranks of count*(count-1)/2: 1 pair, 2 two pair, 3 trips, 4 full house."""
        self.high_pair = [-1, -1, -1]
        self.size = [0, 0, 0]
        self.free = [3, 5, 5]
        for row, cards in enumerate(board):
            for card in cards:
                self.add(row, card)
        self._view = view
        self._dead: list[int] | None = None

    def see(self, view: View) -> _Rows:
        """The same rows, for the next decision (``view.board`` must hold exactly them)."""
        self._view, self._dead = view, None
        return self

    @property
    def to_come(self) -> int:
        """Cards the player is dealt after this street in a normal hand (read only when a
        chance is estimated, so not kept)."""
        view = self._view
        return _to_come(view[0], view[1])  # ruleset, street

    @property
    def unseen(self) -> int:
        """Cards the player has not seen when it decides: not on its board (as the view shows
        it, before this street's cards are placed) and not dealt to it on this street."""
        t, m, b = self._view[5]  # board
        return 52 - len(t) - len(m) - len(b) - len(self._view[3])  # dealt

    def live(self, rank: int) -> int:
        """Cards of ``rank`` the player has not seen (not on its board, not dealt to it on this
        street, not on an opponent's visible board): its outs to pair that rank."""
        dead = self._dead
        if dead is None:
            dead = self._dead = [0] * 13
            view = self._view
            for card in view.dealt:
                dead[card >> 2] += 1
            for cards in view.board:
                for card in cards:
                    dead[card >> 2] += 1
            for rows in view.opponents:
                for cards in rows:
                    for card in cards:
                        dead[card >> 2] += 1
        return 4 - dead[rank]

    def hit(self, outs: int) -> float:
        """Chance that at least one of ``outs`` cards comes among the cards still to come."""
        to_come = self.to_come
        if outs <= 0 or to_come <= 0:
            return 0.0
        unseen = self.unseen
        if unseen <= 0:
            return 0.0
        return 1.0 - (1.0 - min(1.0, outs / unseen)) ** to_come

    def add(self, row: int, card: int) -> None:
        rank = card >> 2
        counts = self.counts[row]
        have = counts[rank]
        if have:
            self.pairs[row] += have
            if rank > self.high_pair[row]:
                self.high_pair[row] = rank
        counts[rank] = have + 1
        self.suits[row][card & 3] += 1
        self.free[row] -= 1
        self.size[row] += 1

    def middle_covers(self, rank: int) -> bool:
        """The middle already beats a top pair of ``rank`` (two pair or a higher pair) and
        the bottom is at least as strong."""
        middle = self.pairs[1] >= 2 or (self.pairs[1] == 1 and self.high_pair[1] >= rank)
        return middle and self.pairs[2] >= self.pairs[1]


_TO_COME: dict[tuple[int, int], tuple[object, int]] = {}


def _to_come(ruleset: Ruleset, street: int) -> int:
    """Cards a player is dealt after ``street`` in a normal hand."""
    dealing = ruleset.dealing
    key = (id(dealing), street)
    known = _TO_COME.get(key)
    if known is None or known[0] is not dealing:
        known = _TO_COME[key] = (dealing, sum(s.dealt for s in dealing.streets[street + 1:]))
    return known[1]


@dataclass(frozen=True)
class Style:
    """The knobs that make one heuristic player differ from another."""

    name: str
    chase_fl: bool
    """Start the top with Q/K/A and pair it even when the middle does not cover it."""
    commit: float
    """Pair a queen or better on top (not yet beaten by the middle) when the estimated chance
    of covering it (:func:`_cover_chance`) is at least this."""
    weigh_discards: bool
    """Try each discard and keep the placement whose cards score best in total (slower);
    otherwise the weakest card by its own best score is discarded."""
    look_ahead: bool
    """With a queen-or-better pair on top not yet safe and at most two streets to come, choose
    the street's move by sampling the cards to come (:func:`_look_ahead`)."""
    fl_bonus: float
    """Worth of entering Fantasyland, in points, when choosing the last street's finish."""
    double_lead: float
    """Offer the cube when leading by at least this many points."""
    take_deficit: float
    """Accept the cube when trailing by at most this many points."""


def _cover_chance(rows: _Rows, rank: int) -> float:
    """A cheap estimate of the chance that the middle ends above a top pair of ``rank`` (a
    higher pair, two pair or better) with the bottom still above the middle, from the outs
    left on rank counts and the cards still to come."""
    counts, free = rows.counts[1], rows.free
    mp, fm = rows.pairs[1], free[1]
    if mp >= 2 or (mp == 1 and rows.high_pair[1] > rank):
        middle = 1.0
    elif fm == 0:
        return 0.0
    else:
        held = [r for r in range(13) if counts[r]]
        outs = sum(rows.live(r) for r in held)
        if mp == 1:  # a lower pair: trips or a second pair
            middle = rows.hit(outs)
        else:  # a pair above the top's, or two pair
            high = sum(rows.live(r) for r in held if r > rank)
            middle = 1 - (1 - rows.hit(high)) * (1 - 0.5 * rows.hit(outs) ** 2)
        fresh = 0.07 * (fm - 1) * rows.to_come / 12  # a new pair dealt into empty slots
        middle = min(1.0, middle + fresh)
    return middle * _bottom_chance(rows, max(mp, 1) if middle == 1.0 else mp + 1)


def _bottom_chance(rows: _Rows, level: int) -> float:
    """A cheap estimate of the chance that the bottom ends at least at pair ``level`` (1 a pair,
    2 two pair, 3 trips...) above the middle, a made or drawn flush counting as enough."""
    bp, fb, size = rows.pairs[2], rows.free[2], rows.size[2]
    if bp > level or (bp == level and rows.high_pair[2] > rows.high_pair[1]):
        return 1.0
    suits = rows.suits[2]
    suited = max(suits)
    if bp == 0 and suited == size and size + fb == 5 and size >= 2:
        missing = 5 - size
        flush = rows.hit(max(0, 11 - suited - missing)) ** missing if missing else 1.0
    else:
        flush = 0.0
    if fb == 0:
        return max(flush, 0.3 if bp == level else 0.0)
    counts = rows.counts[2]
    outs = sum(rows.live(r) for r in range(13) if counts[r])
    step = min(1.0, rows.hit(outs) + 0.06 * (fb - 1) * rows.to_come / 12)
    pairs = (0.5 + 0.5 * step) if bp == level else step ** (level - bp)
    return max(flush, pairs)


def _top_score(rows: _Rows, rank: int, style: Style) -> float:
    if rows.counts[0][rank]:
        if rows.middle_covers(rank):
            return 4 + 0.5 * rank + (3 if rank >= QUEEN else 0)
        if rank >= QUEEN:
            chance = _cover_chance(rows, rank)
            if chance >= style.commit:
                return 3 + 8 * chance + 0.5 * rank
        return -6
    if rank >= QUEEN and rows.pairs[0] == 0:
        if style.chase_fl and rows.free[0] == 3 and rows.live(rank) >= 2:
            return 2.5
        if rows.free[0] >= 2 and rows.pairs[1] and rows.pairs[2] >= rows.pairs[1]:
            return 2.0  # the middle is already paired: a queen or better on top is a safe try
    return 1.0 - 0.3 * rank - (1.0 if rows.pairs[1] == 0 and rank >= QUEEN else 0)


def _middle_under_pressure(rows: _Rows, rank: int, have: int, need: int) -> float:
    """A card for a middle that must still beat a top pair of rank ``need``: pairs (toward a
    higher pair or two pair) first, then live cards above the top pair (outs); anything else
    wastes a slot the middle needs."""
    free_bottom = rows.free[2]
    if have:
        level = rows.pairs[1] + have
        value = (9.0 if level >= 2 or rank > need else 6.0) + 0.1 * rank
        if level > rows.pairs[2] and free_bottom < 2:
            value -= 6  # the bottom has no room left to get above it
        return value
    slack = rows.free[1] - (1 if rows.pairs[1] else 2)
    if rank > need and rows.live(rank) >= 2 and slack > 0:
        return 1.5 + 0.1 * rank
    return -1.5 - (2.0 if slack <= 0 else 0)


def _uncovered_top_pair(rows: _Rows) -> int:
    """The rank of a top pair that the middle does not beat yet, or -1."""
    if not rows.pairs[0]:
        return -1
    need = rows.high_pair[0]
    middle = rows.pairs[1]
    return -1 if middle >= 2 or (middle == 1 and rows.high_pair[1] > need) else need


def _best_row(rows: _Rows, card: int, style: Style, need: int | None = None,
              ) -> tuple[float, int, int]:
    """The best score of ``card``, the row where it scores it, and the card (so that the
    cards of a street sort by score, then row, then card). ``need`` is the rank of a top pair
    the middle does not beat yet, -1 if none (:func:`_uncovered_top_pair`, computed here when
    the caller does not have it).

    A card's worth in the bottom (row 2) or the middle (row 1): pairing the row first (the
    middle kept below the bottom, the bottom kept above a middle that must beat a paired top),
    then a first card by rank, then suiting an unpaired row (a flush draw; the middle only when
    the bottom is surely above it), else a small penalty that keeps the rows open for pairs to
    come. A middle that must beat a top pair is scored by :func:`_middle_under_pressure`.
    """
    free, counts, pairs = rows.free, rows.counts, rows.pairs
    if need is None:
        need = _uncovered_top_pair(rows) if pairs[0] else -1
    rank = card >> 2
    best, best_row = -1e9, -1
    # The two five-card rows, bottom first (ties keep the bottom), then the top.
    if free[2]:
        have = counts[2][rank]
        if have:
            best = 3 + 2.5 * have + 0.15 * rank + 1
            if pairs[2] <= pairs[1] and (need >= 0 or pairs[0]):
                best += 4
        else:
            size = rows.size[2]
            if size == 0:
                best = 1.0 + 0.05 * rank + 0.5
            elif rows.suits[2][card & 3] == size and pairs[2] == 0:
                best = 1.0 + 0.9 * size + (3 if size == 4 else 0)
            else:
                best = -0.5 + 0.03 * rank - (1.5 if free[2] <= 2 else 0) - 0.6
        best_row = 2
    if free[1]:
        have = counts[1][rank]
        if need >= 0:
            value = _middle_under_pressure(rows, rank, have, need)
        elif have:
            level = pairs[1] + have
            if level > pairs[2] or (level == pairs[2] and rank > rows.high_pair[2]):
                value = -2.5 if free[2] >= 4 else -5.0
            else:
                value = 3 + 2.5 * have + 0.15 * rank
        else:
            size = rows.size[1]
            if size == 0:
                value = 1.0 + 0.05 * rank
            elif rows.suits[1][card & 3] == size and pairs[1] == 0 and (
                    pairs[2] >= 3 or max(rows.suits[2]) > size):
                value = 1.0 + 0.7 * size + (3 if size == 4 else 0)
            else:
                value = -0.5 + 0.03 * rank - (1.5 if free[1] <= 2 else 0)
        if value > best:
            best, best_row = value, 1
    if free[0]:
        if rank < QUEEN and not counts[0][rank]:
            value = 1.0 - 0.3 * rank  # a low card for the top (:func:`_top_score`)
        else:
            value = _top_score(rows, rank, style)
        if value > best:
            best, best_row = value, 0
    return best, best_row, card


def _ranked(rows: _Rows, cards: Iterable[int], style: Style) -> list[tuple[float, int, int]]:
    """(best score, its row, card) of each of ``cards`` on the same rows, best first."""
    need = _uncovered_top_pair(rows) if rows.pairs[0] else -1
    ranked = [_best_row(rows, card, style, need) for card in cards]
    ranked.sort(reverse=True)
    return ranked


def _place_in_order(view: View, style: Style, order: list[int], top: tuple[int, ...],
                    known: _Rows | None = None) -> tuple[Placement, _Rows]:
    """Every dealt card placed: ``top`` first on the top, then the ``order`` cards one at a
    time where they score best. ``known`` (the row state of ``view.board``, which it then
    goes on from) spares recounting the board."""
    rows = known.see(view) if known is not None else _Rows(view.board, view)
    placed: tuple[list[int], list[int], list[int]] = (list(top), [], [])
    for card in top:
        rows.add(0, card)
    for card in order:
        row = _best_row(rows, card, style)[1]
        rows.add(row, card)
        placed[row].append(card)
    return _PLACEMENT((tuple(placed[0]), tuple(placed[1]), tuple(placed[2]), ())), rows


def _place_kept(view: View, style: Style, kept: list[int], discard: tuple[int, ...],
                ) -> tuple[float, Placement, _Rows]:
    """The ``kept`` cards placed one at a time, the best-scoring first, with the sum of their
    scores (to compare discards)."""
    rows = _Rows(view.board, view)
    placed: tuple[list[int], list[int], list[int]] = ([], [], [])
    total = 0.0
    while kept:
        value, row, card = max(_best_row(rows, c, style) for c in kept)
        kept = [c for c in kept if c != card]
        total += value
        rows.add(row, card)
        placed[row].append(card)
    return total, Placement(tuple(placed[0]), tuple(placed[1]), tuple(placed[2]), discard), rows


def _options(view: View, free: list[int]) -> Iterator[tuple[tuple[int, ...], tuple[int, ...]]]:
    """Every legal way to play the street: (the row of each kept card, the kept cards)."""
    for kept in combinations(view.dealt, view.place):
        for targets in product((0, 1, 2), repeat=view.place):
            if targets.count(0) <= free[0] and targets.count(1) <= free[1] and \
                    targets.count(2) <= free[2]:
                yield targets, kept


def _unseen_cards(view: View) -> list[int]:
    seen = set(view.dealt)
    for cards in view.board:
        seen.update(cards)
    for rows in view.opponents:
        for cards in rows:
            seen.update(cards)
    return [c for c in range(52) if c not in seen]


def _can_finish(rows: tuple[tuple[int, ...], ...], future: list[int]) -> bool:
    """Whether some of the ``future`` cards fill the free slots into a legal board (the cards
    to come, all of them choosable: the discards of later streets are not enforced)."""
    top, middle, bottom = rows
    rest = sorted(future)
    kickers = 3 - len(top)
    top, rest = top + tuple(rest[:kickers]), rest[kickers:]  # the lowest cards kick the top
    strength_top = row_strength(top)
    need_bottom, need_middle = 5 - len(bottom), 5 - len(middle)
    bottoms = sorted(((row_strength(bottom + extra), extra)
                      for extra in combinations(rest, need_bottom)), reverse=True)
    for strength_bottom, extra in bottoms[:3]:
        left = [c for c in rest if c not in extra]
        for more in combinations(left, need_middle):
            if strength_top <= row_strength(middle + more) <= strength_bottom:
                return True
    return False


def _fl_top_at_risk(rows: _Rows) -> bool:
    """A queen-or-better pair on top that the middle and bottom do not surely cover yet."""
    return bool(rows.pairs[0]) and rows.high_pair[0] >= QUEEN and \
        _cover_chance(rows, rows.high_pair[0]) < 1.0


def _may_pair_top(rows: _Rows, dealt: tuple[int, ...]) -> bool:
    """A dealt card could pair a queen or better alone on the top."""
    counts = rows.counts[0]
    return rows.free[0] > 0 and not rows.pairs[0] and any(
        c >> 2 >= QUEEN and counts[c >> 2] for c in dealt)


def _fl_top(top: tuple[int, ...]) -> bool:
    ranks = [c >> 2 for c in top]
    return any(ranks.count(r) >= 2 for r in ranks if r >= QUEEN)


LEGAL_WORTH = 0.45
"""Worth of a legal board without Fantasyland, against 1 for a Fantasyland board and 0 for a
foul, in the chaser's look-ahead (a Fantasyland is worth about 15 points, a foul costs about
6 per opponent: committing pays from a chance of about 0.45)."""

LOOK_AHEAD_SAMPLES = 10
"""Futures sampled per decision by the chaser's look-ahead."""


def _look_ahead(view: View, rows: _Rows, rng: random.Random) -> tuple[Placement, _Rows]:
    """For a queen-or-better pair on top that is not yet safe, or a dealt card that could pair
    a queen or better on top: every way to play this street, judged by how many of a few
    sampled futures (the same ones for every option) can still be finished legally, a
    Fantasyland top counting 1 and any other legal board :data:`LEGAL_WORTH`."""
    pool = _unseen_cards(view)
    futures = [rng.sample(pool, rows.to_come) for _ in range(LOOK_AHEAD_SAMPLES)]
    t, m, b = view.board
    best: tuple[float, tuple[int, ...], tuple[int, ...]] | None = None
    for targets, kept in _options(view, rows.free):
        added: tuple[list[int], list[int], list[int]] = ([], [], [])
        for row, card in zip(targets, kept, strict=True):
            added[row].append(card)
        after = (t + tuple(added[0]), m + tuple(added[1]), b + tuple(added[2]))
        worth = 1.0 if _fl_top(after[0]) else LEGAL_WORTH
        value = worth * sum(_can_finish(after, f) for f in futures)
        if best is None or value > best[0]:
            best = (value, targets, kept)
    assert best is not None
    _, targets, kept = best
    placed: tuple[list[int], list[int], list[int]] = ([], [], [])
    for row, card in zip(targets, kept, strict=True):
        rows.add(row, card)
        placed[row].append(card)
    discard = tuple(c for c in view.dealt if c not in kept)
    return Placement(tuple(placed[0]), tuple(placed[1]), tuple(placed[2]), discard), rows


def _greedy_rows(view: View, style: Style, known: _Rows | None = None,
                 rng: random.Random | None = None) -> tuple[Placement, _Rows]:
    """Place cards one at a time where they score best; the cards left are discarded.

    ``known`` is the row state of ``view.board`` when the caller kept it from its last move.
    When every dealt card is placed (the first street, regular and turbo streets), the cards
    go in order, pairs and high cards first (a first street's queen-or-better pair goes on top
    when the other cards give it enough cover); otherwise the best-scoring cards are kept.
    """
    dealt = view.dealt
    if view.place == len(dealt):
        if not _ranks_held(sum(map(_RANK_TALLY.__getitem__, dealt)), 2):
            return _place_in_order(view, style, sorted(dealt, reverse=True), (), known)  # no pair
        ranks = [c >> 2 for c in dealt]
        order = [c for _, c in sorted([(ranks.count(c >> 2), c) for c in dealt], reverse=True)]
        if not view.board[0] and ranks.count(order[0] >> 2) == 2 and order[0] >> 2 >= QUEEN:
            tried = _place_in_order(view, style, order[2:], (order[0], order[1]))
            if _cover_chance(tried[1], order[0] >> 2) >= style.commit:
                return tried
        return _place_in_order(view, style, order, (), known)
    if style.look_ahead and view.place < len(dealt):
        rows = known.see(view) if known is not None else _Rows(view.board, view)
        if 0 < rows.to_come and (_fl_top_at_risk(rows) or _may_pair_top(rows, dealt)):
            return _look_ahead(view, rows, rng)
        known = rows
    if style.weigh_discards:
        return max((_place_kept(view, style, [c for c in dealt if c != d], (d,))
                    for d in dealt), key=lambda option: option[0])[1:]
    rows = known.see(view) if known is not None else _Rows(view.board, view)
    if view.place == 2 and len(dealt) == 3:
        return _keep_two(rows, dealt, style), rows
    placed: tuple[list[int], list[int], list[int]] = ([], [], [])
    # Rank the dealt cards by their best score: the weakest are discarded, the others placed
    # best first (each after the previous one is on the board).
    ranked = _ranked(rows, dealt, style)
    keep = view.place
    for k in range(keep):
        row, card = ranked[k][1], ranked[k][2]
        if k:
            row = _best_row(rows, card, style)[1]
        rows.add(row, card)
        placed[row].append(card)
    discard = tuple([r[2] for r in ranked[keep:]])
    return _PLACEMENT((tuple(placed[0]), tuple(placed[1]), tuple(placed[2]), discard)), rows


def _keep_two(rows: _Rows, dealt: tuple[int, ...], style: Style) -> Placement:
    """A pineapple street as :func:`_greedy_rows` plays it (the best-scoring card placed, then
    the next best where it now scores best, the third discarded), without its general loop."""
    need = _uncovered_top_pair(rows) if rows.pairs[0] else -1
    a, b, c = dealt
    first = _best_row(rows, a, style, need)  # then ordered best first (a sort of three)
    second = _best_row(rows, b, style, need)
    if second > first:
        first, second = second, first
    third = _best_row(rows, c, style, need)
    if third > second:
        second, third = third, second
        if second > first:
            first, second = second, first
    row, card = first[1], first[2]
    rows.add(row, card)
    placed: list[tuple[int, ...]] = [(), (), ()]
    placed[row] = (card,)
    card = second[2]
    row = _best_row(rows, card, style)[1]
    rows.add(row, card)
    placed[row] += (card,)
    return _PLACEMENT((placed[0], placed[1], placed[2], (third[2],)))


# --------------------------------------------------------------------------------------------
# Finishing: the last street, and Fantasyland, judged with the row evaluator


_ROW_ROYALTIES: dict[int, tuple[RoyaltyTable, tuple[list[int], ...]]] = {}


def _row_royalties(table: RoyaltyTable) -> tuple[list[int], ...]:
    """``table.points`` of the top, the middle and the bottom, each by ``strength >>
    ROYALTY_INDEX_SHIFT`` (a royalty depends only on that index:
    :func:`ofc_core.batch.royalty_array`), remembered per table (a royalty table is an
    immutable value)."""
    known = _ROW_ROYALTIES.get(id(table))
    if known is None or known[0] is not table:
        rows = tuple([int(r) for r in row] for row in royalty_array(table))
        known = _ROW_ROYALTIES[id(table)] = (table, rows)
    return known[1]


def _royalty(table: RoyaltyTable, row: int, strength: Strength) -> int:
    """``table.points`` for row ``row`` (0 top, 1 middle, 2 bottom)."""
    return _row_royalties(table)[row][strength >> ROYALTY_INDEX_SHIFT]


_MOST_ROYALTIES: dict[int, tuple[RoyaltyTable, tuple[list[int], ...]]] = {}


def _most_royalties(table: RoyaltyTable) -> tuple[list[int], ...]:
    """The most royalty a top, a middle and a bottom of strength at most ``s`` earn, each by
    ``s >> ROYALTY_INDEX_SHIFT`` (:func:`_row_royalties`)."""
    known = _MOST_ROYALTIES.get(id(table))
    if known is None or known[0] is not table:
        most = tuple(list(accumulate(row, max)) for row in _row_royalties(table))
        known = _MOST_ROYALTIES[id(table)] = (table, most)
    return known[1]


def _worth(royalties: tuple[int, int, int], strengths: tuple[Strength, Strength, Strength],
           bonus: float) -> float:
    """Royalties plus ``bonus`` (the worth of Fantasyland next hand, 0 when not earned), plus
    a small pull toward strong rows (0.05 a row per hand category), so ties favour hands that
    win more rows."""
    top, middle, bottom = strengths
    return sum(royalties) + bonus + ((top >> 20) + (middle >> 20) + (bottom >> 20)) * 0.05


def _board_value(ruleset: Ruleset, strengths: tuple[Strength, Strength, Strength],
                 fl_bonus: float, in_fl: bool) -> float:
    """Royalties plus the worth of Fantasyland next hand (:func:`_worth`); fouls are ruled out
    by the caller."""
    table = ruleset.royalties
    top, middle, bottom = strengths
    royalties = (_royalty(table, 0, top), _royalty(table, 1, middle), _royalty(table, 2, bottom))
    fl_next = ruleset.fantasyland_cards(False, in_fl, top, strengths, royalties)
    return _worth(royalties, strengths, fl_bonus if fl_next else 0)


def _finishes(view: View) -> Iterable[Placement]:
    """Every distinct legal placement of the last street (it fills the board)."""
    slots = [row for row, free in enumerate(view.free) for _ in range(free)]
    seen = set()
    for kept in combinations(view.dealt, view.place):
        discard = tuple(c for c in view.dealt if c not in kept)
        for order in permutations(kept):
            rows: tuple[list[int], list[int], list[int]] = ([], [], [])
            for row, card in zip(slots, order, strict=True):
                rows[row].append(card)
            key = tuple(tuple(sorted(r)) for r in rows)
            if key not in seen:
                seen.add(key)
                yield Placement(tuple(rows[0]), tuple(rows[1]), tuple(rows[2]), discard)


def _plain_order(rows: _Rows) -> tuple[bool, bool]:
    """Whether top <= middle and middle <= bottom are plain from the counts alone: a paired row
    is never a straight or a flush, so among paired rows more pairing (pair, two pair, trips,
    full house, quads) is stronger, and any pair beats an unpaired top. What is not plain goes
    to the evaluator."""
    top, middle, bottom = rows.pairs
    return (0 < middle and (top == 0 or (top == 1 and middle >= 2))), 0 < middle < bottom


def _finish(view: View, style: Style, greedy: Placement, rows: _Rows) -> Placement:
    """The last street: the ``greedy`` move (:func:`_greedy_rows`, which left ``rows``) if it
    does not foul; otherwise the best-paying finish that does not (or the greedy move when
    every finish fouls)."""
    top_ok, bottom_ok = _plain_order(rows)
    if top_ok and bottom_ok:
        return greedy
    t, m, b = view.board
    middle = row_strength(m + greedy[1])
    if (top_ok or row_strength(t + greedy[0]) <= middle) and (
            bottom_ok or middle <= row_strength(b + greedy[2])):
        return greedy
    best, best_value = greedy, -1e9
    for placement in _finishes(view):
        top, middle, bottom = (row_strength(t + placement[0]), row_strength(m + placement[1]),
                               row_strength(b + placement[2]))
        if middle < top or bottom < middle:
            continue
        value = _board_value(view.ruleset, (top, middle, bottom), style.fl_bonus, False)
        if value > best_value:
            best, best_value = placement, value
    return best


_STRAIGHTS = tuple(tuple(range(high - 4, high + 1)) for high in range(ACE, 3, -1)) + (
    (0, 1, 2, 3, ACE),)  # the wheel last: 5-4-3-2-A
"""The ranks of the straights, ace-high first, each lowest rank first (so one card of each
rank, taken in this order, is in index order)."""
_RANK_TALLY = tuple(1 << 4 * (c >> 2) for c in range(52))
"""Each card as a 1 in the 4-bit field of its rank: summed over cards, field ``r`` counts the
cards of rank ``r`` (at most 4, so fields never overflow)."""
_RANK_FIELDS = sum(1 << 4 * r for r in range(13))
_RANK_HELD_BIAS = tuple((8 - times) * _RANK_FIELDS for times in range(5))
_RANK_FIELD_TOPS = 8 * _RANK_FIELDS
_SUIT_TALLY = tuple(1 << 8 * (c & 3) for c in range(52))
"""Each card as a 1 in the 8-bit field of its suit (at most 17 cards: no overflow below)."""
_SUIT_FIELDS = sum(1 << 8 * s for s in range(4))
_SUIT_FIVE_BIAS, _SUIT_FIELD_TOPS = 123 * _SUIT_FIELDS, 128 * _SUIT_FIELDS
_STRAIGHT_HELD = tuple((ranks, sum(8 << 4 * r for r in ranks)) for ranks in _STRAIGHTS)
"""Each straight's ranks with its mask of ranks held (:func:`_ranks_held`)."""
_STRAIGHTS_IN: dict[int, tuple[tuple[int, ...], ...]] = {}
_last, _second = itemgetter(-1), itemgetter(1)


def _ranks_held(tally: int, times: int) -> int:
    """The top bit of the field (in a summed :data:`_RANK_TALLY`) of each rank held at least
    ``times`` times (1 to 4)."""
    return (tally + _RANK_HELD_BIAS[times]) & _RANK_FIELD_TOPS


def _straights_in(held: int) -> tuple[tuple[int, ...], ...]:
    """The ranks of the straights (ace-high first) whose ranks are all held (``held`` as
    :func:`_ranks_held` gives it), remembered by mask."""
    known = _STRAIGHTS_IN.get(held)
    if known is None:
        known = _STRAIGHTS_IN[held] = tuple(
            ranks for ranks, bits in _STRAIGHT_HELD if held & bits == bits)
    return known


def _five_of_a_suit(cards: Sequence[int]) -> bool:
    """Whether at least five of ``cards`` share a suit (a suit's field in the summed
    :data:`_SUIT_TALLY` reaches 128 from 123 exactly then)."""
    tally = sum(map(_SUIT_TALLY.__getitem__, cards))
    return bool((tally + _SUIT_FIVE_BIAS) & _SUIT_FIELD_TOPS)


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
    if _five_of_a_suit(low):
        suits = [[c for c in low if c & 3 == suit] for suit in range(4)]
        for cards in sorted((s for s in suits if len(s) >= 5), key=_last, reverse=True):
            out += tuple(cards[-5:]), tuple(cards[:5])
    if len(by_rank) >= 5:  # a straight needs five ranks
        for ranks in _straights_in(_ranks_held(sum(map(_RANK_TALLY.__getitem__, low)), 1)):
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
    tally = sum(map(_RANK_TALLY.__getitem__, cards))
    if _ranks_held(tally, 3):
        return _NO_CEILING
    held = _ranks_held(tally, 1)
    if held.bit_count() >= 5 and (_straights_in(held) or _five_of_a_suit(cards)):
        return _NO_CEILING
    paired = _ranks_held(tally, 2)
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
    top_royalty, middle_royalty, bottom_royalty = _row_royalties(ruleset.royalties)
    _, middle_most, bottom_most = _most_royalties(ruleset.royalties)
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
            if sb < st or _worth(most, (st, sb, sb), 10.0 if may_stay else 0) <= best_value:
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
    """What a Fantasyland board is worth (:func:`_worth`, staying in Fantasyland worth 10),
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
        staying = _worth(royalties, strengths, 10.0)
        if staying <= floor:
            return None
        if ruleset.fantasyland_cards(False, True, strengths[0], strengths, royalties):
            return staying
    value = _worth(royalties, strengths, 0)
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
    _, middle_most, bottom_most = _most_royalties(ruleset.royalties)
    index = bottom >> ROYALTY_INDEX_SHIFT
    return bool(ruleset.fantasyland_cards(False, True, top, (top, bottom, bottom),
                                          (top_royalty, middle_most[index], bottom_most[index])))


def _fallback_fl(cards: tuple[int, ...]) -> Placement:
    """Strongest cards low, weakest on top: never used unless no candidate is legal."""
    ranked = sorted(cards, reverse=True)
    return Placement(tuple(ranked[10:13]), tuple(ranked[5:10]), tuple(ranked[:5]),
                     tuple(ranked[13:]))


# --------------------------------------------------------------------------------------------
# The doubling cube


def offers_by_score(cube: CubeView, lead: float) -> bool:
    """Offer when ahead by ``lead`` points or more and the match is not yet decided.

    >>> offers_by_score(CubeView(20, 9, 31, 1), 10)
    True
    """
    return cube.score - cube.opponent_score >= lead and cube.score < cube.target


def accepts_by_score(cube: CubeView, deficit: float) -> bool:
    """Accept unless behind by more than ``deficit`` points.

    >>> accepts_by_score(CubeView(5, 25, 31, 2), 12)
    False
    """
    return cube.opponent_score - cube.score <= deficit


class HeuristicPolicy:
    """A policy driven by a :class:`Style` (``careful``, ``chaser``). It remembers the row
    state its last move left, and reuses it when its next view shows exactly that board (a
    speed-up only: the moves are the same without it)."""

    __slots__ = ("style", "_after", "_rows", "_plain")

    def __init__(self, style: Style) -> None:
        self.style = style
        self._after: tuple[tuple[int, ...], ...] | None = None
        self._rows: _Rows | None = None
        self._plain = not (style.look_ahead or style.weigh_discards)
        """A pineapple street goes straight to :func:`_keep_two` (what :func:`_greedy_rows`
        does for such a style)."""

    @property
    def name(self) -> str:
        return self.style.name

    def place(self, view: View, rng: random.Random) -> Placement:
        ruleset, street, last_street, dealt, place, board, _, fantasyland = view
        if fantasyland:
            return set_fantasyland(dealt, ruleset)
        known = self._rows if self._after == board else None
        self._after = self._rows = None
        if self._plain and known is not None and place == 2 and len(dealt) == 3:
            rows = known.see(view)
            placement = _keep_two(rows, dealt, self.style)
        else:
            placement, rows = _greedy_rows(view, self.style, known, rng)
        if street == last_street:
            return _finish(view, self.style, placement, rows)
        t, m, b = board
        self._after = (t + placement[0], m + placement[1], b + placement[2])
        self._rows = rows
        return placement

    def offers_double(self, cube: CubeView, rng: random.Random) -> bool:
        return offers_by_score(cube, self.style.double_lead)

    def accepts_double(self, cube: CubeView, rng: random.Random) -> bool:
        return accepts_by_score(cube, self.style.take_deficit)


@dataclass(frozen=True)
class RandomPolicy:
    """A uniformly random legal move; Fantasyland is still set well; the cube at random."""

    name: str = "random"

    def place(self, view: View, rng: random.Random) -> Placement:
        if view.fantasyland:
            return set_fantasyland(view.dealt, view.ruleset)
        cards = list(view.dealt)
        rng.shuffle(cards)
        slots = [row for row, free in enumerate(view.free) for _ in range(free)]
        rows: tuple[list[int], list[int], list[int]] = ([], [], [])
        for row, card in zip(rng.sample(slots, view.place), cards, strict=False):
            rows[row].append(card)
        return Placement(tuple(rows[0]), tuple(rows[1]), tuple(rows[2]),
                         tuple(cards[view.place:]))

    def offers_double(self, cube: CubeView, rng: random.Random) -> bool:
        return rng.random() < 0.15

    def accepts_double(self, cube: CubeView, rng: random.Random) -> bool:
        return rng.random() < 0.7


CAREFUL = Style("careful", chase_fl=False, commit=0.25, weigh_discards=False, look_ahead=False,
                fl_bonus=8.0, double_lead=10, take_deficit=12)
CHASER = Style("chaser", chase_fl=True, commit=0.15, weigh_discards=True, look_ahead=True,
               fl_bonus=15.0, double_lead=6, take_deficit=18)

POLICIES: dict[str, Callable[[], Policy]] = {
    "careful": lambda: HeuristicPolicy(CAREFUL),
    "chaser": lambda: HeuristicPolicy(CHASER),
    "random": RandomPolicy,
}
"""Policy factories by name (the ``--policies`` of ``ofc simulate``)."""


def policy(name: str) -> Policy:
    """The policy called ``name``.

    >>> policy("careful").name
    'careful'
    >>> policy("bold")
    Traceback (most recent call last):
    ...
    ValueError: unknown policy 'bold' (one of careful, chaser, random)
    """
    if name not in POLICIES:
        raise ValueError(f"unknown policy {name!r} (one of {', '.join(POLICIES)})")
    return POLICIES[name]()
