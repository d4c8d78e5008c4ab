"""The ``chaser`` bot: plays like ``careful`` (:mod:`ofc_core.play.careful`) but chases
Fantasyland.

It starts the top with a queen, king or ace and pairs it on a thinner cover chance (0.15), then
builds the middle to beat it (pairs first, live cards above the top pair as outs) with the
bottom above the middle, weighing each possible discard; while a Fantasyland top is at stake it
chooses the street's move by looking ahead (:func:`look_ahead`: every move of the street
against a few sampled futures).

>>> from ofc_core.play.careful import HeuristicPolicy
>>> from ofc_core.rules import PRESETS
>>> v = View(PRESETS["pineapple"], 1, 4, (40, 41, 0), 2, ((), (), ()), ())
>>> HeuristicPolicy(CHASER).place(v, random.Random(0))  # a queen starts the empty top
Placement(top=(41,), middle=(), bottom=(40,), discard=(0,))
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from itertools import combinations, product

from ofc_core.play.careful import Style, cover_chance
from ofc_core.play.engine import Placement, View, row_strength
from ofc_core.play.rows import QUEEN, RowCounts


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


def _fl_top_at_risk(rows: RowCounts) -> bool:
    """A queen-or-better pair on top that the middle and bottom do not surely cover yet."""
    return bool(rows.pairs[0]) and rows.high_pair[0] >= QUEEN and \
        cover_chance(rows, rows.high_pair[0]) < 1.0


def _may_pair_top(rows: RowCounts, dealt: tuple[int, ...]) -> bool:
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


def _look_ahead(view: View, rows: RowCounts, rng: random.Random) -> tuple[Placement, RowCounts]:
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


def look_ahead(view: View, rows: RowCounts, rng: random.Random,
               ) -> tuple[Placement, RowCounts] | None:
    """The chaser's street by :func:`_look_ahead` while a Fantasyland top is at stake (a
    queen-or-better pair on top not yet safe, or a dealt card that could pair one) and cards
    are still to come; ``None`` otherwise (the greedy move)."""
    if 0 < rows.to_come and (_fl_top_at_risk(rows) or _may_pair_top(rows, view.dealt)):
        return _look_ahead(view, rows, rng)
    return None


CHASER = Style("chaser", chase_fl=True, commit=0.15, weigh_discards=True, look_ahead=look_ahead,
               fl_bonus=15.0, double_lead=6, take_deficit=18)
