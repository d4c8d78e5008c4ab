"""Vectorised rollouts: many completions of one position at once, scored by the batch scorer.

A position (:class:`Spot`) is one player's decision in a hand: the boards as that player sees
them, the cards just dealt, and the streets every seat still has to play. A rollout deals the
unseen cards (the deck minus everything the player could see: its own board, dealt cards and
discards, the opponents' visible rows) at random, lets a rollout policy complete every board,
scores the boards under the hand's ruleset with :func:`ofc_core.batch.score_batch` (jokers
resolved by the table's rule, a 2-7 middle read as a low), and credits a seat that earns
Fantasyland with the Fantasyland value, measured per opponent at the table's size. The result
is the player's points: its points against every opponent, plus its own Fantasyland value
against each opponent, minus each opponent's Fantasyland value once (what that opponent gains
from the player). Under race scoring (OFC Double) a seat's points are what it banks minus what
the others bank on average.

At a joker table the deck has 52 + ``ruleset.jokers`` cards (jokers 52 and 53), and jokers are
dealt like any unseen card. The default policy values a board with a joker as if the joker
were a stand-in card (the highest real card not on that board; X1 the highest, X2 the next), as
the engine's bots play jokers; the completed boards are scored with the jokers resolved.

Common random numbers: rollout ``r`` of a position deals the same cards to every seat whatever
the placement valued; the opponents' completions, which do not depend on it, are shared.

The default policy, :class:`BestOfK`, completes a board by trying ``k`` ways to keep and place
the cards the seat will be dealt (for each way, the kept cards are sorted by rank and laid into
the free slots in a fixed order; one order is the plain "low cards up, high cards down") and
keeping the best by a board value: royalties, plus the Fantasyland value when the top earns it,
plus a little for row strength, and a large loss for a foul. It sees the seat's own future
cards (it is clairvoyant about them) and ignores the opponents' boards: docs/review.md says how
that biases the values. When a seat has few ways left (a last street), it tries all of them.
"""

from __future__ import annotations

import random
import zlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from itertools import combinations
from math import comb, factorial
from typing import Protocol

import numpy as np

from ofc_core.batch import fantasyland_entry, score_batch
from ofc_core.batch_boards import ROYALTY_INDEX_SHIFT, score_boards_under
from ofc_core.board import BOARD_SIZE, ROW_SIZE, ROW_START
from ofc_core.play.engine import Cards, Placement, Policy, Rows, View
from ofc_core.play.fl_value import fantasyland_value
from ofc_core.play.outcomes import FACTS, seat_facts
from ofc_core.play.placements import apply
from ofc_core.play.stand_ins import joker_stand_ins
from ofc_core.rules import Ruleset, Street

MOST_FL_CARDS = 17

FantasylandValue = Callable[[Ruleset, int, int], float]
"""``(ruleset, cards, players) -> points``: a Fantasyland hand's value per opponent."""


def default_fantasyland_value(ruleset: Ruleset, cards: int, players: int = 2) -> float:
    """The value of a Fantasyland hand of ``cards`` cards (0 for none) against each opponent at
    a table of ``players`` seats: the measured value of
    :func:`ofc_core.play.fl_value.fantasyland_value`.

    >>> from ofc_core.rules import PRESETS
    >>> default_fantasyland_value(PRESETS["pineapple"], 0)
    0.0
    >>> default_fantasyland_value(PRESETS["pineapple"], 14, 3) == fantasyland_value(
    ...     PRESETS["pineapple"], 14, 3)
    True
    """
    return fantasyland_value(ruleset, cards, players)


def fl_table(ruleset: Ruleset, value: FantasylandValue, players: int = 2) -> np.ndarray:
    """``value`` per opponent by card count 0..17 at a table of ``players`` seats, as an array
    to index with ``fantasyland_next``."""
    return np.array([value(ruleset, n, players) if n >= 13 else 0.0
                     for n in range(MOST_FL_CARDS + 1)])


# --------------------------------------------------------------------------------------------
# Positions


@dataclass(frozen=True)
class SeatSpot:
    """One seat as the reviewed player sees it: what it has placed, and the streets still to
    be dealt to it. A Fantasyland seat's board is complete (set at once) and fixed."""

    board: Rows
    streets: tuple[Street, ...] = ()
    fantasyland: bool = False

    @property
    def to_come(self) -> int:
        """Cards still to be dealt to this seat."""
        return sum(s.dealt for s in self.streets)


@dataclass(frozen=True)
class Spot:
    """A decision: seat ``hero`` (of ``seats``, in seat order) is dealt ``dealt`` and places
    ``place`` of them; its seat holds the board before the decision and the streets after it.
    ``dead`` are other cards the player has seen (its earlier discards)."""

    ruleset: Ruleset
    seats: tuple[SeatSpot, ...]
    hero: int
    dealt: Cards
    place: int
    dead: Cards = ()
    first_to_act: int = 0

    def unseen(self) -> list[int]:
        """The cards the player cannot see, in index order (the jokers 52, 53 of a joker table
        among them)."""
        seen = set(self.dealt) | set(self.dead)
        for seat in self.seats:
            seen.update(c for row in seat.board for c in row)
        return [c for c in range(52 + self.ruleset.jokers) if c not in seen]

    @property
    def hero_seat(self) -> SeatSpot:
        return self.seats[self.hero]


def board_array(rows: Rows) -> np.ndarray:
    """13 slots (top 0-2, middle 3-7, bottom 8-12), each row's cards from its first slot,
    -1 where a slot is empty.

    >>> board_array(((5,), (), (1, 2))).tolist()
    [5, -1, -1, -1, -1, -1, -1, -1, 1, 2, -1, -1, -1]
    """
    out = np.full(BOARD_SIZE, -1, np.int8)
    for start, cards in zip(ROW_START, rows, strict=True):
        out[start:start + len(cards)] = cards
    return out


# --------------------------------------------------------------------------------------------
# Rollout policies


class RolloutPolicy(Protocol):
    """Completes boards: ``fixed`` ``(m, 13)`` boards holding the same number of cards (-1
    where empty; their free slots may lie in different rows), the seat's future cards
    ``future`` ``(n, D)`` in dealing order (street by street), the streets they come in;
    returns the ``(m, n, 13)`` completed boards."""

    @property
    def name(self) -> str: ...

    def complete(self, fixed: np.ndarray, future: np.ndarray, streets: tuple[Street, ...],
                 ruleset: Ruleset, fl_values: np.ndarray) -> np.ndarray: ...


def _multinomial(n: int, parts: Sequence[int]) -> int:
    out = factorial(n)
    for p in parts:
        out //= factorial(p)
    return out


def _row_orders(free: tuple[int, int, int]) -> list[tuple[int, ...]]:
    """Every way to give the sorted kept cards rows: a row per card, as many of each row as it
    has free slots (distinct sequences only)."""
    labels = [r for r in range(3) for _ in range(free[r])]
    out: set[tuple[int, ...]] = set()

    def grow(prefix: tuple[int, ...], left: list[int]) -> None:
        if not left:
            out.add(prefix)
            return
        for r in sorted(set(left)):
            rest = list(left)
            rest.remove(r)
            grow(prefix + (r,), rest)

    grow((), labels)
    return sorted(out)


def _keeps(streets: tuple[Street, ...]) -> list[tuple[int, ...]]:
    """Every choice of kept cards, as indexes into the future cards."""
    per_street = []
    offset = 0
    for s in streets:
        per_street.append([tuple(offset + i for i in kept)
                           for kept in combinations(range(s.dealt), s.placed)])
        offset += s.dealt
    out: list[tuple[int, ...]] = [()]
    for options in per_street:
        out = [a + b for a in out for b in options]
    return out


def _slots_of(labels: Sequence[int], free: tuple[int, int, int]) -> np.ndarray:
    """For each free slot (in board order), the position among the sorted kept cards that goes
    there, given a row label per sorted kept card."""
    by_row: list[list[int]] = [[], [], []]
    for position, row in enumerate(labels):
        by_row[row].append(position)
    return np.array([p for row in range(3) for p in by_row[row]], np.intp)


def _free_positions(free: tuple[int, int, int]) -> np.ndarray:
    return np.array([ROW_START[r] + ROW_SIZE[r] - free[r] + i
                     for r in range(3) for i in range(free[r])], np.intp)


@dataclass(frozen=True)
class Templates:
    """Ways to complete a board of one free shape: for each, the future cards kept
    ``(K, F)`` and, for each free slot, which of the sorted kept cards fills it ``(K, F)``."""

    keep: np.ndarray
    slot_source: np.ndarray
    positions: np.ndarray  # (F,) the free slots, in board order
    exhaustive: bool


_TEMPLATES: dict[tuple[object, ...], Templates] = {}


def templates(free: tuple[int, int, int], streets: tuple[Street, ...], k: int) -> Templates:
    """At most ``k`` completions of a board with ``free`` slots by ``streets``: all of them
    when there are no more than ``k``, else ``k`` drawn with a seed fixed by the arguments
    (the same for every call), a quarter of them the plain low-to-high fill."""
    key = (free, tuple((s.dealt, s.placed) for s in streets), k)
    cached = _TEMPLATES.get(key)
    if cached is not None:
        return cached
    n_free = sum(free)
    if sum(s.placed for s in streets) != n_free:
        raise ValueError(f"streets place {sum(s.placed for s in streets)} cards, the board has "
                         f"{n_free} free slots")
    n_keeps = 1
    for s in streets:
        n_keeps *= comb(s.dealt, s.placed)
    total = n_keeps * _multinomial(n_free, free)
    plain = tuple(r for r in range(3) for _ in range(free[r]))
    if total <= k:
        pairs = [(keep, labels) for keep in _keeps(streets) for labels in _row_orders(free)]
    else:
        rng = random.Random(zlib.crc32(repr(key).encode()))
        keeps = _keeps(streets) if n_keeps <= 4096 else None
        pairs = []
        for i in range(k):
            keep = rng.choice(keeps) if keeps is not None else _random_keep(streets, rng)
            labels = list(plain)
            if i % 4:
                rng.shuffle(labels)
            pairs.append((keep, tuple(labels)))
    made = Templates(
        keep=np.array([p[0] for p in pairs], np.intp).reshape(len(pairs), n_free),
        slot_source=np.array([_slots_of(p[1], free) for p in pairs], np.intp
                             ).reshape(len(pairs), n_free),
        positions=_free_positions(free),
        exhaustive=total <= k,
    )
    _TEMPLATES[key] = made
    return made


def _random_keep(streets: tuple[Street, ...], rng: random.Random) -> tuple[int, ...]:
    out: list[int] = []
    offset = 0
    for s in streets:
        out += sorted(offset + i for i in rng.sample(range(s.dealt), s.placed))
        offset += s.dealt
    return tuple(out)


STRENGTH_WEIGHT = 0.04
"""Board value per step of ``strength >> 16`` (category * 16 + lead rank) over the three rows:
a category in one row is worth about 0.6 points, so that among legal boards without royalties
the policy keeps the stronger."""


def board_values(boards: np.ndarray, ruleset: Ruleset, fl_values: np.ndarray,
                 foul_cost: float) -> np.ndarray:
    """What a board is worth to the seat that sets it, before seeing the others: royalties,
    the Fantasyland value it earns, a little for strength; ``-foul_cost`` if it fouls. Under
    the ruleset's own rows (a 2-7 middle as a low, its Fantasyland by the middle too); a joker
    is valued as its stand-in (:func:`joker_stand_ins`)."""
    flat = boards.reshape(-1, BOARD_SIZE)
    if ruleset.jokers:
        flat = joker_stand_ins(flat)
    scores = score_boards_under(flat, ruleset)
    entry = (fantasyland_entry(ruleset, scores.strengths) if ruleset.fantasyland
             else np.zeros(len(flat), np.intp))
    value = (scores.royalties.sum(axis=1) + fl_values[entry]
             + STRENGTH_WEIGHT * (scores.strengths >> ROYALTY_INDEX_SHIFT).sum(axis=1))
    value = np.where(scores.fouled, -foul_cost, value)
    return value.reshape(boards.shape[:-1])


@dataclass(frozen=True)
class BestOfK:
    """The default rollout policy: the best of ``k`` completions by :func:`board_values`."""

    k: int = 24
    foul_cost: float = 12.0

    @property
    def name(self) -> str:
        return f"best-of-{self.k}"

    def complete(self, fixed: np.ndarray, future: np.ndarray, streets: tuple[Street, ...],
                 ruleset: Ruleset, fl_values: np.ndarray) -> np.ndarray:
        """The boards of each free shape completed by that shape's completions."""
        shapes = [_shape(board) for board in fixed]
        out = np.empty((len(fixed), len(future), BOARD_SIZE), np.int8)
        for shape in set(shapes):
            members = [a for a, other in enumerate(shapes) if other == shape]
            out[members] = self._complete(fixed[members], future, streets, ruleset, fl_values)
        return out

    def _complete(self, fixed: np.ndarray, future: np.ndarray, streets: tuple[Street, ...],
                  ruleset: Ruleset, fl_values: np.ndarray) -> np.ndarray:
        """:meth:`complete` of boards of one free shape."""
        m, n = len(fixed), len(future)
        free = _shape(fixed[0])
        if not streets:
            return np.broadcast_to(fixed[:, None, :], (m, n, BOARD_SIZE)).copy()
        t = templates(free, streets, self.k)
        kept = np.sort(future[:, t.keep], axis=-1)  # (n, K, F)
        kept = np.take_along_axis(kept, t.slot_source[None], axis=-1)
        boards = np.empty((m, n, len(t.keep), BOARD_SIZE), np.int8)
        boards[...] = fixed[:, None, None, :]
        boards[..., t.positions] = kept[None]
        values = board_values(boards, ruleset, fl_values, self.foul_cost)
        best = values.argmax(axis=-1)  # (m, n)
        return np.take_along_axis(boards, best[..., None, None], axis=2)[:, :, 0]


def _shape(board: np.ndarray) -> tuple[int, int, int]:
    empty = board < 0
    return (int(empty[0:3].sum()), int(empty[3:8].sum()), int(empty[8:13].sum()))


def _rows_of(board: np.ndarray) -> Rows:
    top, middle, bottom = (tuple(int(c) for c in board[s:s + n] if c >= 0)
                           for s, n in zip(ROW_START, ROW_SIZE, strict=True))
    return top, middle, bottom


@dataclass
class BotRollouts:
    """A slower rollout policy: one of the engine's bots (``ofc_core.play.policies``) plays
    every street of every rollout in Python, seeing only the cards dealt so far."""

    bot: Policy
    seed: int = 0
    _rng: random.Random = field(init=False)

    def __post_init__(self) -> None:
        self._rng = random.Random(self.seed)

    @property
    def name(self) -> str:
        return f"bot-{self.bot.name}"

    def complete(self, fixed: np.ndarray, future: np.ndarray, streets: tuple[Street, ...],
                 ruleset: Ruleset, fl_values: np.ndarray) -> np.ndarray:
        m, n = len(fixed), len(future)
        out = np.empty((m, n, BOARD_SIZE), np.int8)
        last = len(ruleset.dealing.streets) - 1
        for a in range(m):
            start = _rows_of(fixed[a])
            for r in range(n):
                rows, offset = start, 0
                for i, s in enumerate(streets):
                    dealt = tuple(int(c) for c in future[r, offset:offset + s.dealt])
                    offset += s.dealt
                    view = View(ruleset, last - len(streets) + 1 + i, last, dealt, s.placed,
                                rows, ())
                    rows = apply(rows, self.bot.place(view, self._rng))
                out[a, r] = board_array(rows)
        return out


BEST_OF_24 = BestOfK()
"""The clairvoyant best-of-24 (:class:`BestOfK`): the review's policy where no learned value
fits the hand, and ``ofc review --policy best-of-24``."""

EXACT_OUTCOMES = 5000
"""When one seat has its last street to come and the others nothing, at most this many deals
are all valued once each, not sampled (C(25, 3) = 2,300: a heads-up pineapple last street)."""


# --------------------------------------------------------------------------------------------
# Rollouts of one position


@dataclass
class SpotRollouts:
    """Rollouts of one :class:`Spot`, dealt in blocks; every placement is valued on the same
    blocks (common random numbers)."""

    spot: Spot
    policy: RolloutPolicy = BEST_OF_24
    fl_value: FantasylandValue = default_fantasyland_value
    seed: int = 0
    hero_future: list[np.ndarray] = field(default_factory=list)
    others: list[np.ndarray] = field(default_factory=list)  # per block: (n, seats, 13)

    def __post_init__(self) -> None:
        self._rng = np.random.default_rng(self.seed)
        self._unseen = np.array(self.spot.unseen(), np.int8)
        self._fl = fl_table(self.spot.ruleset, self.fl_value, len(self.spot.seats))
        need = sum(s.to_come for s in self.spot.seats)
        if need > len(self._unseen):
            raise ValueError(f"the seats need {need} more cards, {len(self._unseen)} are unseen")

    @property
    def exact(self) -> bool:
        """Nothing is left to deal: one rollout is the exact value."""
        return all(s.to_come == 0 for s in self.spot.seats)

    @property
    def outcomes(self) -> int | None:
        """How many deals the rest of the hand has, when they are few enough to value every one
        (:data:`EXACT_OUTCOMES`): one seat (the player or another) has one street to come, the
        others none."""
        waiting = [s for s in self.spot.seats if s.to_come]
        if len(waiting) != 1 or len(waiting[0].streets) != 1:
            return None
        count = comb(len(self._unseen), waiting[0].to_come)
        return count if count <= EXACT_OUTCOMES else None

    def deal_every(self) -> int:
        """A block holding every deal of the last street left once (see :attr:`outcomes`): its
        mean is the exact value."""
        cards = sum(s.to_come for s in self.spot.seats)
        deals = list(combinations(self._unseen.tolist(), cards))
        return self._block(np.array(deals, np.int8).reshape(len(deals), cards))

    def deal(self, n: int) -> int:
        """Deal ``n`` more rollouts (a block); complete the opponents' boards; the block's
        number."""
        u = len(self._unseen)
        keys = self._rng.random((n, u))
        return self._block(self._unseen[np.argsort(keys, axis=1)])

    def _block(self, deck: np.ndarray) -> int:
        """A block from ``(n, cards)`` deals: the player's cards first, then each other seat's
        in seat order."""
        spot = self.spot
        n = len(deck)
        hero = spot.hero_seat.to_come
        self.hero_future.append(deck[:, :hero])
        boards = np.empty((n, len(spot.seats), BOARD_SIZE), np.int8)
        offset = hero
        for i, seat in enumerate(spot.seats):
            if i == spot.hero:
                continue
            future = deck[:, offset:offset + seat.to_come]
            offset += seat.to_come
            fixed = board_array(seat.board)[None]
            boards[:, i] = self.policy.complete(fixed, future, seat.streets, spot.ruleset,
                                                self._fl)[0]
        self.others.append(boards)
        return len(self.others) - 1

    def values(self, placements: Sequence[Placement], block: int) -> np.ndarray:
        """The player's points ``(len(placements), n)`` in each rollout of ``block``."""
        return self.values_and_facts(placements, block)[0]

    def values_and_facts(self, placements: Sequence[Placement], block: int
                         ) -> tuple[np.ndarray, np.ndarray]:
        """:meth:`values`, and the player's facts in each rollout ``(len(placements), n, 4)``
        (:func:`ofc_core.play.outcomes.seat_facts`), from the same scores."""
        hero = self.spot.hero_seat  # every placement at once: fewer, larger passes
        fixed = np.stack([board_array(apply(hero.board, p)) for p in placements])
        return self._score(self.policy.complete(fixed, self.hero_future[block], hero.streets,
                                                self.spot.ruleset, self._fl), self.others[block])

    def _score(self, hero_boards: np.ndarray, others: np.ndarray
               ) -> tuple[np.ndarray, np.ndarray]:
        """The player's points and facts for ``(m, n, 13)`` boards against ``(n, P, 13)``."""
        spot = self.spot
        m, n = hero_boards.shape[:2]
        cards = np.broadcast_to(others[None], (m,) + others.shape).copy()
        cards[:, :, spot.hero] = hero_boards
        count = len(spot.seats)
        cards = cards.reshape(m * n, count, BOARD_SIZE)
        in_fl = np.broadcast_to(np.array([s.fantasyland for s in spot.seats]), (m * n, count))
        first = np.full(m * n, spot.first_to_act, np.intp)
        scores = score_batch(cards, spot.ruleset, fantasyland=in_fl, first_to_act=first)
        fl = self._fl[scores.fantasyland_next[:, :count].astype(np.intp)]  # per opponent
        opponents = max(count - 1, 1)
        theirs = fl.sum(axis=1) - fl[:, spot.hero]  # each opponent's, paid once by the player
        points = scores.points[:, :count]
        mine = points[:, spot.hero]
        if spot.ruleset.scoring.is_race:  # a race is won by banking more than the others
            mine = mine - (points.sum(axis=1) - mine) / opponents
        value: np.ndarray = (mine + opponents * fl[:, spot.hero] - theirs).reshape(m, n)
        return value, seat_facts(scores, spot.hero, count).reshape(m, n, len(FACTS))
