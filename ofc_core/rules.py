"""Rulesets as data: every difference between rooms is a field, never an ``if`` in the scorer.

A :class:`Ruleset` is a frozen value. The presets (:data:`PRESETS`: ``regular``, ``turbo``,
``pineapple``, ``progressive-pineapple``, ``double``, ``joker-pineapple``, ``2-7-pineapple``)
follow ``docs/variations.md``; a hand may override fields
by name (the ``rules`` object of the ``ofc-hh/1`` format), see :func:`resolve`.

Why one module of this size: it is the one catalogue of what differs between rooms (royalty
tables, scoring systems, Fantasyland, dealing, the middle row and jokers, the presets and the
overrides a log may give), read as a whole by the scorers and by :mod:`ofc_core.describe`,
which generates ``docs/rules.md`` from it; it holds data and the small functions that read it.

>>> r = resolve("pineapple", {"scoring": "2-4"})
>>> (r.variant.value, r.scoring.value, r.fl_stay.value, r.scoring.scoop_value)
('pineapple', '2-4', 'pineapple', 4)
>>> resolve("pineapple", {"scoring": "3-5"})
Traceback (most recent call last):
...
ValueError: rules.scoring: unknown value '3-5' (one of 1-6, 2-4, majority, race)
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field, replace
from enum import Enum, StrEnum
from types import MappingProxyType
from typing import Any, TypeVar

from ofc_core.board import BOARD_SIZE, Row, is_foul
from ofc_core.cards import Card, Rank
from ofc_core.evaluate import (
    CATEGORY_SHIFT,
    Category,
    Strength,
    category_of,
    encode,
    encode_low_27,
    evaluate,
    evaluate_low_27,
    is_royal_flush,
    lead_rank,
    low_ranks,
)

# --------------------------------------------------------------------------------------------
# Royalties


class HandClass(StrEnum):
    """What a royalty table pays for in a 5-card row (the top pays by pair or trips rank)."""

    TRIPS = "trips"
    STRAIGHT = "straight"
    FLUSH = "flush"
    FULL_HOUSE = "full_house"
    QUADS = "quads"
    STRAIGHT_FLUSH = "straight_flush"
    ROYAL_FLUSH = "royal_flush"


_CLASS_OF_CATEGORY = {
    Category.TRIPS: HandClass.TRIPS,
    Category.STRAIGHT: HandClass.STRAIGHT,
    Category.FLUSH: HandClass.FLUSH,
    Category.FULL_HOUSE: HandClass.FULL_HOUSE,
    Category.QUADS: HandClass.QUADS,
    Category.STRAIGHT_FLUSH: HandClass.STRAIGHT_FLUSH,
}


def hand_class(s: Strength) -> HandClass | None:
    """The royalty class of a 5-card row, ``None`` below trips."""
    if is_royal_flush(s):
        return HandClass.ROYAL_FLUSH
    return _CLASS_OF_CATEGORY.get(category_of(s))


@dataclass(frozen=True)
class RoyaltyTable:
    """Royalty points per row. A new room's table is a new value, not new code."""

    name: str
    bottom: Mapping[HandClass, int]
    middle: Mapping[HandClass, int]
    top_pairs: Mapping[Rank, int]
    top_trips: Mapping[Rank, int]
    middle_lows: tuple[tuple[tuple[int, ...], int], ...] = ()
    """2-7 lows in the middle: (leading ranks, points) pairs; a low earns the points of the
    longest entry its ranks begin with (``((9,), 1)``: any nine-high low earns 1)."""

    def __hash__(self) -> int:
        """By name (tables equal by value share their name), so a table can key a cache."""
        return hash(self.name)

    def points(self, row: Row, s: Strength) -> int:
        """Royalty earned by one row, win or lose (the foul rule is applied by the scorer).

        >>> from ofc_core.evaluate import strength
        >>> AMERICAN.points(Row.TOP, strength("Qh Qd 2c"))
        7
        >>> AMERICAN.points(Row.MIDDLE, strength("7h 7d 7c Ks 2d"))
        2
        >>> AMERICAN_NO_MIDDLE_TRIPS.points(Row.MIDDLE, strength("7h 7d 7c Ks 2d"))
        0
        >>> AMERICAN.points(Row.BOTTOM, strength("Ts Js Qs Ks As"))
        25
        """
        if row is Row.TOP:
            category = category_of(s)
            if category is Category.TRIPS:
                return self.top_trips.get(Rank(lead_rank(s)), 0)
            if category is Category.PAIR:
                return self.top_pairs.get(Rank(lead_rank(s)), 0)
            return 0
        if category_of(s) is Category.LOW_27:
            return self._low_points(low_ranks(s)) if row is Row.MIDDLE else 0
        cls = hand_class(s)
        if cls is None:
            return 0
        table = self.middle if row is Row.MIDDLE else self.bottom
        return table.get(cls, 0)

    def _low_points(self, ranks: tuple[int, ...]) -> int:
        """Points of a 2-7 low by its ranks, highest first (longest matching entry wins).

        >>> AMERICAN_27.points(Row.MIDDLE, encode_low_27([7, 5, 4, 3, 2]))
        8
        >>> AMERICAN_27.points(Row.MIDDLE, encode_low_27([7, 6, 4, 3, 2]))
        4
        >>> AMERICAN_27.points(Row.MIDDLE, encode_low_27([10, 6, 4, 3, 2]))
        0
        """
        points, longest = 0, -1
        for lead, value in self.middle_lows:
            if ranks[:len(lead)] == lead and len(lead) > longest:
                points, longest = value, len(lead)
        return points


def _frozen(d: Mapping[Any, int]) -> Mapping[Any, int]:
    return MappingProxyType(dict(d))


_AMERICAN_BOTTOM = {
    HandClass.STRAIGHT: 2, HandClass.FLUSH: 4, HandClass.FULL_HOUSE: 6, HandClass.QUADS: 10,
    HandClass.STRAIGHT_FLUSH: 15, HandClass.ROYAL_FLUSH: 25,
}
_TOP_PAIRS = {Rank(r): r - 5 for r in range(6, 15)}  # 66 = 1 ... AA = 9
_TOP_TRIPS = {Rank(r): r + 8 for r in range(2, 15)}  # 222 = 10 ... AAA = 22

AMERICAN = RoyaltyTable(
    name="american",
    bottom=_frozen(_AMERICAN_BOTTOM),
    middle=_frozen({HandClass.TRIPS: 2} | {k: 2 * v for k, v in _AMERICAN_BOTTOM.items()}),
    top_pairs=_frozen(_TOP_PAIRS),
    top_trips=_frozen(_TOP_TRIPS),
)
"""docs/variations.md section 5, the default; seed 003's full table."""

AMERICAN_NO_MIDDLE_TRIPS = replace(
    AMERICAN,
    name="american-no-middle-trips",
    middle=_frozen({k: v for k, v in AMERICAN.middle.items() if k is not HandClass.TRIPS}),
)
"""Seed 001: as American, with no royalty for trips in the middle."""

OLD_SCHEDULE = RoyaltyTable(
    name="old-schedule",
    bottom=_frozen({HandClass.STRAIGHT: 2, HandClass.FLUSH: 4, HandClass.FULL_HOUSE: 6,
                    HandClass.QUADS: 8, HandClass.STRAIGHT_FLUSH: 10,
                    HandClass.ROYAL_FLUSH: 20}),
    middle=_frozen({HandClass.STRAIGHT: 4, HandClass.FLUSH: 8, HandClass.FULL_HOUSE: 12,
                    HandClass.QUADS: 16, HandClass.STRAIGHT_FLUSH: 20,
                    HandClass.ROYAL_FLUSH: 40}),
    top_pairs=_frozen(_TOP_PAIRS),
    top_trips=_frozen(_TOP_TRIPS),
)
"""The older schedule of docs/variations.md section 5 (no trips anywhere; middle royal assumed
double)."""

AMERICAN_27 = replace(
    AMERICAN,
    name="american-2-7",
    middle=_frozen({}),
    middle_lows=(((9,), 1), ((8,), 2), ((7,), 4), ((7, 5, 4, 3, 2), 8)),
)
"""2-7 pineapple (docs/variations.md section 8): American top and bottom; the middle pays for its
2-7 low, 9-high 1, 8-high 2, 7-high 4, 7-5-4-3-2 8 (what most public rule pages give)."""

ROYALTY_TABLES: Mapping[str, RoyaltyTable] = MappingProxyType(
    {t.name: t for t in (AMERICAN, AMERICAN_NO_MIDDLE_TRIPS, OLD_SCHEDULE, AMERICAN_27)}
)

# --------------------------------------------------------------------------------------------
# Pairwise scoring systems


@dataclass(frozen=True)
class _SystemSpec:
    row_point: int
    majority_bonus: int
    scoop_bonus: int
    banked: bool  # race: each player banks its own points instead of a zero-sum exchange


class ScoringSystem(StrEnum):
    """How rows won and lost turn into points between two players (docs/variations.md section 4).

    ``points(won, lost)`` is ``row_point * (won - lost)``, plus ``majority_bonus`` to whoever
    won more rows, plus ``scoop_bonus`` for winning all three.

    >>> [ScoringSystem.ONE_SIX.points(3, 0), ScoringSystem.ONE_SIX.points(2, 1)]
    [6, 1]
    >>> [ScoringSystem.TWO_FOUR.points(3, 0), ScoringSystem.TWO_FOUR.points(2, 1)]
    [4, 2]
    >>> [ScoringSystem.MAJORITY.points(3, 0), ScoringSystem.MAJORITY.points(1, 0)]
    [6, 1]
    """

    ONE_SIX = "1-6"
    TWO_FOUR = "2-4"
    MAJORITY = "majority"
    RACE = "race"

    @property
    def spec(self) -> _SystemSpec:
        return _SYSTEM_SPECS[self]

    def row_points(self, won: int, lost: int) -> int:
        """Points for rows alone (no majority or scoop bonus)."""
        return self.spec.row_point * (won - lost)

    def bonus(self, won: int, lost: int) -> int:
        """Majority and scoop bonus, signed for the player who won ``won`` rows."""
        spec = self.spec
        sign = (won > lost) - (won < lost)
        scoop = (won == 3) - (lost == 3)
        return spec.majority_bonus * sign + spec.scoop_bonus * scoop

    def points(self, won: int, lost: int) -> int:
        return self.row_points(won, lost) + self.bonus(won, lost)

    def banked(self, won: int, lost: int) -> int:
        """Race scoring: what one player banks from its own rows (never negative)."""
        spec = self.spec
        return spec.row_point * won + spec.majority_bonus * (won > lost) + spec.scoop_bonus * (
            won == 3
        )

    @property
    def scoop_value(self) -> int:
        """Worth of a scoop, and what a foul costs: 6 under 1-6, 4 under 2-4."""
        return self.points(3, 0)

    @property
    def is_race(self) -> bool:
        return self.spec.banked


_SYSTEM_SPECS = {
    ScoringSystem.ONE_SIX: _SystemSpec(1, 0, 3, banked=False),
    ScoringSystem.TWO_FOUR: _SystemSpec(1, 1, 0, banked=False),
    ScoringSystem.MAJORITY: _SystemSpec(0, 1, 5, banked=False),
    ScoringSystem.RACE: _SystemSpec(1, 0, 3, banked=True),
}


class FoulPayout(StrEnum):
    """What a fouled player pays a player who did not foul."""

    SCOOP_PLUS_ROYALTIES = "scoop-plus-royalties"
    SCOOP = "scoop"


# --------------------------------------------------------------------------------------------
# Fantasyland


@dataclass(frozen=True)
class StayRule:
    """Thresholds for staying in Fantasyland, judged on the FL hand itself (no foul).

    A player stays if any row reaches its minimum strength, or if any one row earns at least
    ``row_royalty`` royalty points.
    """

    top: Strength | None = None
    middle: Strength | None = None
    bottom: Strength | None = None
    row_royalty: int | None = None

    def stays(self, strengths: tuple[Strength, Strength, Strength],
              royalties: tuple[int, int, int]) -> bool:
        minimums = (self.top, self.middle, self.bottom)
        if any(m is not None and s >= m for m, s in zip(minimums, strengths, strict=True)):
            return True
        return self.row_royalty is not None and max(royalties) >= self.row_royalty


TRIPS_ON_TOP = encode(Category.TRIPS, [2])
FULL_HOUSE_MIN = encode(Category.FULL_HOUSE, [2, 2])
QUADS_MIN = encode(Category.QUADS, [2, 2])
PAIR_OF = {r: encode(Category.PAIR, [r]) for r in Rank}


class FlStay(StrEnum):
    """Which stay (re-Fantasy) rule a table plays."""

    CLASSIC = "classic"
    PINEAPPLE = "pineapple"
    ROYALTY_10 = "royalty-10"

    @property
    def rule(self) -> StayRule:
        return _STAY_RULES[self]


_STAY_RULES = {
    FlStay.CLASSIC: StayRule(top=TRIPS_ON_TOP, middle=FULL_HOUSE_MIN, bottom=QUADS_MIN),
    FlStay.PINEAPPLE: StayRule(top=TRIPS_ON_TOP, bottom=QUADS_MIN),
    FlStay.ROYALTY_10: StayRule(row_royalty=10),
}


class ButtonInFl(StrEnum):
    """Whether the button moves while someone plays a Fantasyland hand."""

    FROZEN = "frozen"
    ROTATES = "rotates"


class FlRepeat(StrEnum):
    """Cards dealt on a repeat Fantasyland (a player who stays).

    ``14``: the table's own rule (progressive deals 14 on a repeat; the other presets deal a
    stay as they deal an entry). ``entry``: the same number of cards as the Fantasyland hand
    being played, so the entry's count carries on (15, 16, 17 in progressive); when the log
    does not show how many cards that hand was dealt, as ``14``.
    """

    FOURTEEN = "14"
    ENTRY = "entry"


NO_MIDDLE = Strength(0)
"""No middle given: weaker than every row, so only the top counts."""


@dataclass(frozen=True)
class FlCards:
    """Cards dealt in Fantasyland, by the top row that earned it (best threshold reached wins).

    ``entry`` lists (minimum top strength, cards) pairs, weakest first; the first pair's minimum
    is the entry requirement (QQ). ``repeat`` is the count for a player who stays in FL (``None``:
    as by entry). Cards above 13 are discarded. ``middle_entry`` (2-7) is a minimum middle that
    also enters, with the first entry's cards; ``both`` is the count when top and middle both
    qualify.
    """

    entry: tuple[tuple[Strength, int], ...]
    repeat: int | None = None
    middle_entry: Strength | None = None
    both: int | None = None

    @property
    def threshold(self) -> Strength:
        return self.entry[0][0]

    def for_entry(self, top: Strength, middle: Strength = NO_MIDDLE) -> int:
        """Cards for a player entering with this top (and middle), 0 below the threshold.

        >>> PROGRESSIVE_FL.for_entry(PAIR_OF[Rank.KING] + 0x300)
        15
        >>> PINEAPPLE_FL.for_entry(PAIR_OF[Rank.JACK])
        0
        >>> nut_low = encode_low_27([7, 5, 4, 3, 2])
        >>> [LOW_27_FL.for_entry(PAIR_OF[Rank.QUEEN], nut_low),
        ...  LOW_27_FL.for_entry(PAIR_OF[Rank.KING]), LOW_27_FL.for_entry(TRIPS_ON_TOP, nut_low)]
        [14, 14, 15]
        """
        cards = 0
        for minimum, n in self.entry:
            if top >= minimum:
                cards = n
        if self.middle_entry is not None and middle >= self.middle_entry:
            cards = self.both if cards and self.both else max(cards, self.entry[0][1])
        return cards

    def for_stay(self, top: Strength, middle: Strength = NO_MIDDLE) -> int:
        if self.repeat is not None:
            return self.repeat
        return max(self.for_entry(top, middle), self.entry[0][1])

    @property
    def most(self) -> int:
        return max([n for _, n in self.entry] + [self.repeat or 0, self.both or 0])


REGULAR_FL = FlCards(entry=((PAIR_OF[Rank.QUEEN], 13),))
PINEAPPLE_FL = FlCards(entry=((PAIR_OF[Rank.QUEEN], 14),))
PROGRESSIVE_FL = FlCards(
    entry=((PAIR_OF[Rank.QUEEN], 14), (PAIR_OF[Rank.KING], 15), (PAIR_OF[Rank.ACE], 16),
           (TRIPS_ON_TOP, 17)),
    repeat=14,
)
NUT_LOW_27 = encode_low_27([7, 5, 4, 3, 2])
LOW_27_FL = FlCards(entry=((PAIR_OF[Rank.KING], 14),), middle_entry=NUT_LOW_27, both=15)
"""2-7 pineapple: KK or better on top, or a 7-5-4-3-2 middle, gives 14 cards; both give 15."""

# --------------------------------------------------------------------------------------------
# Dealing


@dataclass(frozen=True)
class Street:
    """One deal to a player: ``dealt`` cards arrive, ``placed`` go onto the board, the rest are
    discarded face down."""

    dealt: int
    placed: int

    @property
    def discarded(self) -> int:
        return self.dealt - self.placed


@dataclass(frozen=True)
class Dealing:
    """How a variant deals a normal (non-Fantasyland) hand."""

    streets: tuple[Street, ...]

    @property
    def cards_per_player(self) -> int:
        return sum(s.dealt for s in self.streets)


REGULAR_DEALING = Dealing((Street(5, 5),) + (Street(1, 1),) * 8)
TURBO_DEALING = Dealing((Street(5, 5), Street(4, 4), Street(4, 4)))
PINEAPPLE_DEALING = Dealing((Street(5, 5),) + (Street(3, 2),) * 4)

# --------------------------------------------------------------------------------------------
# The middle row, and jokers


class MiddleKind(StrEnum):
    """What the middle row is: a poker hand between top and bottom (``high``), or a 2-7 low.

    A 2-7 middle is legal only as a low: five distinct ranks, ten or lower, no straight and no
    flush (the ace is high, so A-2-3-4-5 is an ace-high hand); it is then scored as a low
    (:func:`ofc_core.evaluate.evaluate_low_27`) and the lower low is the stronger middle. The
    board fouls if the middle is no low or if the top beats the bottom.

    >>> from ofc_core.cards import parse_cards
    >>> low = MiddleKind.LOW_27.strength(parse_cards("Th 6d 4c 3s 2h"))
    >>> MiddleKind.LOW_27.is_foul(evaluate(parse_cards("Kh Kd 2c")), low,
    ...                           evaluate(parse_cards("Ah Ad 8c 8s 3d")))
    False
    >>> pair = MiddleKind.LOW_27.strength(parse_cards("6h 6d 4c 3s 2h"))
    >>> MiddleKind.LOW_27.is_foul(evaluate(parse_cards("Kh Kd 2c")), pair,
    ...                           evaluate(parse_cards("Ah Ad 8c 8s 3d")))
    True
    """

    HIGH = "high"
    LOW_27 = "2-7"

    def strength(self, cards: Iterable[Card]) -> Strength:
        """Strength of a complete middle row of this kind."""
        return evaluate_low_27(cards) if self is MiddleKind.LOW_27 else evaluate(cards)

    def is_foul(self, top: Any, middle: Any, bottom: Any) -> Any:
        """The foul rule on strengths (elementwise on numpy arrays too)."""
        if self is MiddleKind.LOW_27:
            return ((middle >> CATEGORY_SHIFT) != Category.LOW_27) | (bottom < top)
        return is_foul(top, middle, bottom)


class JokerRule(StrEnum):
    """How a joker resolves. ``bottom-up``: a joker stands for any card not on its player's own
    board, two jokers never for the same card; of the choices that avoid a foul, the board
    takes the one whose bottom is strongest, then whose middle is, then whose top is (so the
    middle never beats the bottom, the top never the middle); fouled only if no choice avoids
    a foul. Royalties, Fantasyland and row comparisons all read the resolved rows."""

    BOTTOM_UP = "bottom-up"


# --------------------------------------------------------------------------------------------
# Rulesets


class Variant(StrEnum):
    """The presets of docs/variations.md section 3."""

    REGULAR = "regular"
    TURBO = "turbo"
    PINEAPPLE = "pineapple"
    PROGRESSIVE_PINEAPPLE = "progressive-pineapple"
    DOUBLE = "double"
    JOKER_PINEAPPLE = "joker-pineapple"
    TWO_SEVEN_PINEAPPLE = "2-7-pineapple"


@dataclass(frozen=True)
class Ruleset:
    """Everything that differs between rooms, as one value."""

    variant: Variant
    dealing: Dealing
    min_players: int
    max_players: int
    scoring: ScoringSystem = ScoringSystem.ONE_SIX
    royalties: RoyaltyTable = AMERICAN
    foul_payout: FoulPayout = FoulPayout.SCOOP_PLUS_ROYALTIES
    fantasyland: bool = True
    fl_cards: FlCards = REGULAR_FL
    fl_stay: FlStay = FlStay.CLASSIC
    button_in_fl: ButtonInFl = ButtonInFl.FROZEN
    surrender_cost: float = 2
    cap: float | None = None
    """Table stakes: no player wins or loses more than this many points in a hand."""
    match_target: int | None = None
    """Race scoring: the match is won by the first player to bank this many points."""
    jokers: int = 0
    """Jokers in the deck (0, 1 or 2): written ``X1`` and ``X2``; the deck has 52 + jokers."""
    joker_rule: JokerRule = JokerRule.BOTTOM_UP
    middle: MiddleKind = MiddleKind.HIGH
    fl_repeat: FlRepeat = FlRepeat.FOURTEEN
    overrides: Mapping[str, Any] = field(default_factory=lambda: MappingProxyType({}))
    """The per-hand overrides this ruleset was resolved with (empty for a preset)."""

    @property
    def paid_royalties(self) -> RoyaltyTable:
        """The royalties this ruleset pays: the one home of the royalty rule.

        Every reader of a royalty goes through here (the scalar and batch scorers, the play
        engine, the bots' board value, the Fantasyland solver, the rules doc): the table named
        by ``royalties``, with any house rule about royalties applied. A new house rule is a
        field of :class:`Ruleset`, its key in :data:`OVERRIDE_FIELDS`, and a derived table here
        (remembered per value, as :func:`_paid_royalties` does), never an ``if`` in a reader.

        >>> from ofc_core.evaluate import strength
        >>> PRESETS["regular"].paid_royalties.points(Row.TOP, strength("Qh Qd 2c"))
        7
        """
        return _paid_royalties(self.royalties)

    def row_royalties(self, strengths: tuple[Strength, Strength, Strength]
                      ) -> tuple[int, int, int]:
        """The royalty of each row (top, middle, bottom) by :attr:`paid_royalties`, win or
        lose; a fouled board's royalties are the scorer's to zero.

        >>> from ofc_core.evaluate import strength
        >>> PRESETS["regular"].row_royalties(
        ...     (strength("Qh Qd 2c"), strength("7h 7d 7c Ks 2d"), strength("Ts Js Qs Ks As")))
        (7, 2, 25)
        """
        table = self.paid_royalties
        return (table.points(Row.TOP, strengths[0]), table.points(Row.MIDDLE, strengths[1]),
                table.points(Row.BOTTOM, strengths[2]))

    def fantasyland_cards(self, fouled: bool, in_fl: bool, top: Strength,
                          strengths: tuple[Strength, Strength, Strength],
                          royalties: tuple[int, int, int], fl_dealt: int = 0) -> int:
        """Cards dealt to this player next hand in Fantasyland, 0 if none.

        A fouled player never enters or stays; a player in FL stays only by the stay rule.
        ``fl_dealt`` is the number of cards of the Fantasyland hand being played (0: unknown),
        which a stay keeps under ``fl_repeat: entry``.

        >>> r = resolve("progressive-pineapple", {"fl_repeat": "entry"})
        >>> trips = (TRIPS_ON_TOP, QUADS_MIN, QUADS_MIN)
        >>> r.fantasyland_cards(False, True, TRIPS_ON_TOP, trips, (10, 0, 10), fl_dealt=16)
        16
        >>> PRESETS["progressive-pineapple"].fantasyland_cards(
        ...     False, True, TRIPS_ON_TOP, trips, (10, 0, 10), fl_dealt=16)
        14
        """
        if not self.fantasyland or fouled:
            return 0
        middle = strengths[1]
        if in_fl:
            if not self.fl_stay.rule.stays(strengths, royalties):
                return 0
            if self.fl_repeat is FlRepeat.ENTRY and fl_dealt:
                return fl_dealt
            return self.fl_cards.for_stay(top, middle)
        return self.entry_cards(top, middle)

    def entry_cards(self, top: Strength, middle: Strength = NO_MIDDLE) -> int:
        """Cards a player entering Fantasyland with this top (and middle, at a 2-7 table) is
        dealt, foul or not; 0 below the entry: the one home of the entry rule, which
        :meth:`fantasyland_cards` and the play engine read (the batch scorer's
        ``fantasyland_entry`` is held equal to it by ``tests/test_batch.py``).

        >>> PRESETS["pineapple"].entry_cards(PAIR_OF[Rank.KING]), PRESETS["regular"].entry_cards(
        ...     PAIR_OF[Rank.JACK])
        (14, 0)
        """
        return self.fl_cards.for_entry(top, middle)

    def settings(self) -> dict[str, Any]:
        """The ruleset as the flat settings of the ``rules`` object (all keys of
        :data:`OVERRIDE_FIELDS`, resolved, as a log writes them), after its ``variant``.

        >>> PRESETS["double"].settings()["scoring"], PRESETS["regular"].settings()["cap"]
        ('race', None)
        """
        return {"variant": self.variant.value,
                **{key: _written(getattr(self, key)) for key in OVERRIDE_FIELDS}}

    @property
    def player_range(self) -> str:
        """How many play, as written in messages: ``'2-4'``, or ``'2'`` for heads-up only.

        >>> PRESETS["regular"].player_range, PRESETS["double"].player_range
        ('2-4', '2')
        """
        if self.min_players == self.max_players:
            return str(self.min_players)
        return f"{self.min_players}-{self.max_players}"

    @property
    def label(self) -> str:
        """Short human label: the variant, plus any overrides (``pineapple (scoring 2-4)``)."""
        if not self.overrides:
            return self.variant.value
        extra = ", ".join(f"{k} {v}" for k, v in sorted(self.overrides.items()))
        return f"{self.variant.value} ({extra})"


PRESETS: Mapping[str, Ruleset] = MappingProxyType({
    "regular": Ruleset(Variant.REGULAR, REGULAR_DEALING, 2, 4),
    "turbo": Ruleset(Variant.TURBO, TURBO_DEALING, 2, 4),
    "pineapple": Ruleset(Variant.PINEAPPLE, PINEAPPLE_DEALING, 2, 3, fl_cards=PINEAPPLE_FL,
                         fl_stay=FlStay.PINEAPPLE),
    "progressive-pineapple": Ruleset(Variant.PROGRESSIVE_PINEAPPLE, PINEAPPLE_DEALING, 2, 3,
                                     fl_cards=PROGRESSIVE_FL, fl_stay=FlStay.PINEAPPLE),
    "double": Ruleset(Variant.DOUBLE, PINEAPPLE_DEALING, 2, 2, scoring=ScoringSystem.RACE,
                      fl_cards=PINEAPPLE_FL, fl_stay=FlStay.PINEAPPLE, match_target=31),
    "joker-pineapple": Ruleset(Variant.JOKER_PINEAPPLE, PINEAPPLE_DEALING, 2, 3,
                               fl_cards=PINEAPPLE_FL, fl_stay=FlStay.PINEAPPLE, jokers=2),
    "2-7-pineapple": Ruleset(Variant.TWO_SEVEN_PINEAPPLE, PINEAPPLE_DEALING, 2, 3,
                             royalties=AMERICAN_27, fl_cards=LOW_27_FL, fl_stay=FlStay.PINEAPPLE,
                             middle=MiddleKind.LOW_27),
})
"""The stay rule of ``2-7-pineapple`` is pineapple's: an assumption (no rule page we found
says how a 2-7 Fantasyland is kept), written down in ``docs/rules.md``."""


@functools.cache
def _paid_royalties(table: RoyaltyTable) -> RoyaltyTable:
    """The table paid under ``table``'s name and the house rules given with it (none today:
    the table itself), one value per argument, so that readers that remember a table by its
    identity (:func:`ofc_core.batch_boards.royalty_array`) build each once."""
    return table


def _number(key: str, value: Any, allow_none: bool = False) -> float | None:
    if value is None and allow_none:
        return None
    if isinstance(value, bool) or not isinstance(value, int | float) or value < 0:
        raise ValueError(f"rules.{key}: expected a non-negative number, got {value!r}")
    return value


EnumT = TypeVar("EnumT", bound=StrEnum)


def _choice(key: str, enum: type[EnumT]) -> Callable[[Any], EnumT]:
    def convert(value: Any) -> EnumT:
        """A value as the enum writes it, in any case (text readers lower-case a name)."""
        if isinstance(value, str):
            value = next((e.value for e in enum if e.value.lower() == value.lower()), value)
        try:
            return enum(value)
        except ValueError:
            options = ", ".join(e.value for e in enum)
            raise ValueError(f"rules.{key}: unknown value {value!r} (one of {options})") from None
    return convert


def _royalty_table(value: Any) -> RoyaltyTable:
    if not isinstance(value, str) or value not in ROYALTY_TABLES:
        options = ", ".join(ROYALTY_TABLES)
        raise ValueError(f"rules.royalties: unknown table {value!r} (one of {options})")
    return ROYALTY_TABLES[value]


def _on_off(key: str) -> Callable[[Any], bool]:
    """The converter of a yes/no key: ``on``/``off`` (or JSON's ``true``/``false``)."""
    def convert(value: Any) -> bool:
        if value in ("on", True):
            return True
        if value in ("off", False):
            return False
        raise ValueError(f"rules.{key}: expected 'on' or 'off', got {value!r}")
    return convert


def _jokers(value: Any) -> int:
    if isinstance(value, bool) or value not in (0, 1, 2):
        raise ValueError(f"rules.jokers: expected 0, 1 or 2, got {value!r}")
    return int(value)


def _fl_repeat(value: Any) -> FlRepeat:
    """``14`` may be written as a number or a string."""
    if isinstance(value, int) and not isinstance(value, bool):
        value = str(value)
    return _choice("fl_repeat", FlRepeat)(value)


def _written(value: Any) -> Any:
    """A ruleset's field as the ``rules`` object writes it: an enum by its value, a royalty
    table by its name, a yes/no as ``on``/``off``, a number as it is."""
    if isinstance(value, bool):
        return "on" if value else "off"
    if isinstance(value, RoyaltyTable):
        return value.name
    return value.value if isinstance(value, Enum) else value


OVERRIDE_FIELDS: Mapping[str, Any] = MappingProxyType({
    "scoring": _choice("scoring", ScoringSystem),
    "royalties": _royalty_table,
    "foul_payout": _choice("foul_payout", FoulPayout),
    "fantasyland": _on_off("fantasyland"),
    "fl_stay": _choice("fl_stay", FlStay),
    "button_in_fl": _choice("button_in_fl", ButtonInFl),
    "surrender_cost": lambda v: _number("surrender_cost", v),
    "cap": lambda v: _number("cap", v, allow_none=True),
    "jokers": _jokers,
    "joker_rule": _choice("joker_rule", JokerRule),
    "fl_repeat": _fl_repeat,
})
"""The keys a hand may override, each with its converter (the ``rules`` object of ofc-hh/1)."""


@dataclass(frozen=True)
class RuleKey:
    """How a ``rules`` key is written in a log and what it sets: the table of keys in
    ``docs/rules.md``; ``written`` tells the readers of text formats how to read its value
    (``on-off``: yes/no words, ``number``, ``name``: a word, lower-cased)."""

    written: str
    help: str


RULE_KEYS: Mapping[str, RuleKey] = MappingProxyType({
    "scoring": RuleKey("name", "how each pair of players settles: a scoring system (below)"),
    "royalties": RuleKey("name", "the royalty table (below)"),
    "foul_payout": RuleKey("name", "what a fouled player pays: `scoop-plus-royalties` (the "
                                   "scoop value plus the opponent's royalties) or `scoop`"),
    "fantasyland": RuleKey("on-off", "whether Fantasyland is played: `on` or `off`"),
    "fl_stay": RuleKey("name", "the rule for staying in Fantasyland (below)"),
    "button_in_fl": RuleKey("name", "`frozen`: the button stays while someone plays a "
                                    "Fantasyland hand; `rotates`: it moves on"),
    "surrender_cost": RuleKey("number", "points a surrendering player pays each rival"),
    "cap": RuleKey("number", "table stakes in points: no player wins or loses more in a hand "
                             "(`null`, or `none` in text: no cap)"),
    "jokers": RuleKey("number", "jokers in the deck: 0, 1 or 2 (below)"),
    "joker_rule": RuleKey("name", "how a joker resolves (below)"),
    "fl_repeat": RuleKey("name", "cards of a repeat Fantasyland: `14` or `entry` (below)"),
})
"""Every key of :data:`OVERRIDE_FIELDS`, described (a test holds the two, the JSON Schema's
``rules`` and ``docs/rules.md`` to the same keys)."""

ON_OFF_KEYS = frozenset(k for k, v in RULE_KEYS.items() if v.written == "on-off")
NUMBER_KEYS = frozenset(k for k, v in RULE_KEYS.items() if v.written == "number")


def resolve(variant: str, overrides: Mapping[str, Any] | None = None) -> Ruleset:
    """The preset named ``variant`` with per-hand ``overrides`` applied and validated (a named
    value in any case: the text formats write names lower-cased).

    >>> resolve("regular", {"fl_stay": "PINEAPPLE", "cap": 30}).settings()["fl_stay"]
    'pineapple'
    """
    if variant not in PRESETS:
        raise ValueError(f"unknown variant {variant!r} (one of {', '.join(PRESETS)})")
    preset = PRESETS[variant]
    if not overrides:
        return preset
    changes: dict[str, Any] = {}
    for key, value in overrides.items():
        if key not in OVERRIDE_FIELDS:
            raise ValueError(f"rules: unknown key {key!r} (one of {', '.join(OVERRIDE_FIELDS)})")
        changes[key] = OVERRIDE_FIELDS[key](value)
    return replace(preset, **changes, overrides=MappingProxyType(dict(overrides)))


def discards(ruleset: Ruleset, street: int, fantasyland: bool = False,
             fl_cards: int | None = None) -> int:
    """Cards a player throws away on ``street`` (1-based): as the ruleset's dealing plan says,
    or in Fantasyland, where all ``fl_cards`` come at once, all but the 13 set (0 when how
    many were dealt is not known).

    >>> discards(PRESETS["pineapple"], 2), discards(PRESETS["regular"], 2)
    (1, 0)
    >>> discards(PRESETS["regular"], 1, fantasyland=True, fl_cards=14)
    1
    """
    if fantasyland:
        return 0 if fl_cards is None else max(0, fl_cards - BOARD_SIZE)
    plan = ruleset.dealing.streets
    return plan[street - 1].discarded if 0 < street <= len(plan) else 0
