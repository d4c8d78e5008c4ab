"""Rulesets as data: every difference between rooms is a field, never an ``if`` in the scorer.

A :class:`Ruleset` is a frozen value. The presets (``regular``, ``turbo``, ``pineapple``,
``progressive-pineapple``, ``double``) follow RULES.md; a hand may override fields by name
(the ``rules`` object of the ``ofc-hh/1`` format), see :func:`resolve`.

>>> r = resolve("pineapple", {"scoring": "2-4"})
>>> (r.variant.value, r.scoring.value, r.fl_stay.value, r.scoring.scoop_value)
('pineapple', '2-4', 'pineapple', 4)
>>> resolve("pineapple", {"scoring": "3-5"})
Traceback (most recent call last):
...
ValueError: rules.scoring: unknown value '3-5' (one of 1-6, 2-4, majority, race)
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from enum import StrEnum
from types import MappingProxyType
from typing import Any

from ofc_core.board import BOARD_SIZE, Row
from ofc_core.cards import Rank
from ofc_core.evaluate import Category, Strength, category_of, encode, is_royal_flush, lead_rank

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
        cls = hand_class(s)
        if cls is None:
            return 0
        table = self.middle if row is Row.MIDDLE else self.bottom
        return table.get(cls, 0)


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
"""RULES.md section 5, the default; seed 003's full table."""

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
"""The older schedule of RULES.md section 5 (no trips anywhere; middle royal assumed double)."""

ROYALTY_TABLES: Mapping[str, RoyaltyTable] = MappingProxyType(
    {t.name: t for t in (AMERICAN, AMERICAN_NO_MIDDLE_TRIPS, OLD_SCHEDULE)}
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
    """How rows won and lost turn into points between two players (RULES.md section 4).

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


@dataclass(frozen=True)
class FlCards:
    """Cards dealt in Fantasyland, by the top row that earned it (best threshold reached wins).

    ``entry`` lists (minimum top strength, cards) pairs, weakest first; the first pair's minimum
    is the entry requirement (QQ). ``repeat`` is the count for a player who stays in FL (``None``:
    as by entry). Cards above 13 are discarded.
    """

    entry: tuple[tuple[Strength, int], ...]
    repeat: int | None = None

    @property
    def threshold(self) -> Strength:
        return self.entry[0][0]

    def for_entry(self, top: Strength) -> int:
        """Cards for a player entering with this top, 0 below the threshold.

        >>> PROGRESSIVE_FL.for_entry(PAIR_OF[Rank.KING] + 0x300)
        15
        >>> PINEAPPLE_FL.for_entry(PAIR_OF[Rank.JACK])
        0
        """
        cards = 0
        for minimum, n in self.entry:
            if top >= minimum:
                cards = n
        return cards

    def for_stay(self, top: Strength) -> int:
        if self.repeat is not None:
            return self.repeat
        return max(self.for_entry(top), self.entry[0][1])

    @property
    def most(self) -> int:
        return max([n for _, n in self.entry] + [self.repeat or 0])


REGULAR_FL = FlCards(entry=((PAIR_OF[Rank.QUEEN], 13),))
PINEAPPLE_FL = FlCards(entry=((PAIR_OF[Rank.QUEEN], 14),))
PROGRESSIVE_FL = FlCards(
    entry=((PAIR_OF[Rank.QUEEN], 14), (PAIR_OF[Rank.KING], 15), (PAIR_OF[Rank.ACE], 16),
           (TRIPS_ON_TOP, 17)),
    repeat=14,
)

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
# Rulesets


class Variant(StrEnum):
    """The presets of RULES.md section 3."""

    REGULAR = "regular"
    TURBO = "turbo"
    PINEAPPLE = "pineapple"
    PROGRESSIVE_PINEAPPLE = "progressive-pineapple"
    DOUBLE = "double"


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
    overrides: Mapping[str, Any] = field(default_factory=lambda: MappingProxyType({}))
    """The per-hand overrides this ruleset was resolved with (empty for a preset)."""

    def fantasyland_cards(self, fouled: bool, in_fl: bool, top: Strength,
                          strengths: tuple[Strength, Strength, Strength],
                          royalties: tuple[int, int, int]) -> int:
        """Cards dealt to this player next hand in Fantasyland, 0 if none.

        A fouled player never enters or stays; a player in FL stays only by the stay rule.
        """
        if not self.fantasyland or fouled:
            return 0
        if in_fl:
            stays = self.fl_stay.rule.stays(strengths, royalties)
            return self.fl_cards.for_stay(top) if stays else 0
        return self.fl_cards.for_entry(top)

    def settings(self) -> dict[str, Any]:
        """The ruleset as the flat settings of the ``rules`` object (all keys, resolved)."""
        return {
            "variant": self.variant.value,
            "scoring": self.scoring.value,
            "royalties": self.royalties.name,
            "foul_payout": self.foul_payout.value,
            "fantasyland": "on" if self.fantasyland else "off",
            "fl_stay": self.fl_stay.value,
            "button_in_fl": self.button_in_fl.value,
            "surrender_cost": self.surrender_cost,
            "cap": self.cap,
        }

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
})


def _number(key: str, value: Any, allow_none: bool = False) -> float | None:
    if value is None and allow_none:
        return None
    if isinstance(value, bool) or not isinstance(value, int | float) or value < 0:
        raise ValueError(f"rules.{key}: expected a non-negative number, got {value!r}")
    return value


def _choice(key: str, enum: type[StrEnum]) -> Any:
    def convert(value: Any) -> Any:
        try:
            return enum(value)
        except ValueError:
            options = ", ".join(e.value for e in enum)
            raise ValueError(f"rules.{key}: unknown value {value!r} (one of {options})") from None
    return convert


def _royalty_table(value: Any) -> RoyaltyTable:
    if value not in ROYALTY_TABLES:
        options = ", ".join(ROYALTY_TABLES)
        raise ValueError(f"rules.royalties: unknown table {value!r} (one of {options})")
    return ROYALTY_TABLES[value]


def _on_off(value: Any) -> bool:
    if value in ("on", True):
        return True
    if value in ("off", False):
        return False
    raise ValueError(f"rules.fantasyland: expected 'on' or 'off', got {value!r}")


OVERRIDE_FIELDS: Mapping[str, Any] = MappingProxyType({
    "scoring": _choice("scoring", ScoringSystem),
    "royalties": _royalty_table,
    "foul_payout": _choice("foul_payout", FoulPayout),
    "fantasyland": _on_off,
    "fl_stay": _choice("fl_stay", FlStay),
    "button_in_fl": _choice("button_in_fl", ButtonInFl),
    "surrender_cost": lambda v: _number("surrender_cost", v),
    "cap": lambda v: _number("cap", v, allow_none=True),
})
"""The keys a hand may override, each with its converter (the ``rules`` object of ofc-hh/1)."""


def resolve(variant: str, overrides: Mapping[str, Any] | None = None) -> Ruleset:
    """The preset named ``variant`` with per-hand ``overrides`` applied and validated."""
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
