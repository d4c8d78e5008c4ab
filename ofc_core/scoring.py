"""Scoring one hand: fouls, royalties, Fantasyland, and the pairwise settlement.

This is the readable scalar entry point, used by tests, the replayer and ``ofc score``. The
batch entry point (:mod:`ofc_core.batch`) scores millions of hands from arrays and must agree
with it hand for hand; both read the same ruleset data.

Worked example (seed 000): Ivey wins the top with sixes (royalty 1) and the bottom with a full
house (6); Hellmuth wins the middle and has a flush on the bottom (4). Ivey +2 rows -1 row,
royalties 7 - 4: Hellmuth pays Ivey 4.

>>> from ofc_core.rules import PRESETS
>>> ivey = Seat("Ivey", Board.parse("6h 6d 2c", "Ks Kd 9s 5h 3c", "Jh Jd Jc 4s 4d"))
>>> hellmuth = Seat("Hellmuth", Board.parse("Ah Kc 3d", "As Ad 8h 7c 2h", "Qc Tc 8c 6c 5c"))
>>> result = score_hand([ivey, hellmuth], PRESETS["regular"])
>>> result.player("Ivey").points, result.player("Hellmuth").points
(4, -4)
>>> result.pair("Ivey", "Hellmuth").royalties
3
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace

from ofc_core.board import Board
from ofc_core.cards import Card, Joker
from ofc_core.evaluate import Strength, hand_name
from ofc_core.jokers import resolve_board
from ofc_core.rules import FoulPayout, Ruleset


@dataclass(frozen=True, slots=True)
class Seat:
    """One player's part of a hand, as the scorer needs it."""

    name: str
    board: Board
    fantasyland: bool = False
    """Played this hand in Fantasyland."""
    surrendered: bool = False
    fl_dealt: int = 0
    """Cards dealt in this Fantasyland hand (0: not in Fantasyland, or not known)."""


@dataclass(frozen=True, slots=True)
class PairResult:
    """The settlement between ``player`` and ``opponent``, from ``player``'s side.

    ``rows`` holds +1 / 0 / -1 per row (top, middle, bottom); a fouled player loses every row
    against a player who did not foul. ``total`` is ``row_points + bonus + royalties +
    surrender``; ``capped`` is the total after table-stakes caps (equal when there are none).
    Under race scoring the fields are what ``player`` banks, and the pair is not zero-sum.
    """

    player: str
    opponent: str
    rows: tuple[int, int, int]
    row_points: int
    bonus: int
    royalties: int
    surrender: float
    total: float
    capped: float

    @property
    def scoop(self) -> bool:
        """``player`` won all three rows (a foul by the opponent counts as a scoop)."""
        return self.rows == (1, 1, 1)


@dataclass(frozen=True, slots=True)
class PlayerResult:
    """One player's outcome: rows, foul, royalties, Fantasyland next hand, points."""

    name: str
    fouled: bool
    surrendered: bool
    strengths: tuple[Strength, Strength, Strength] | None
    royalties: tuple[int, int, int]
    fantasyland_next: int
    raw_points: float
    points: float
    vs: Mapping[str, float] = field(default_factory=dict)
    stood_for: tuple[tuple[Joker, Card], ...] = ()
    """Each joker on the board and the card it became."""
    joker_rows: tuple[bool, bool, bool] = (False, False, False)

    @property
    def hand_names(self) -> tuple[str, str, str] | None:
        """Each row's name; a row holding a joker says so: ``'Three of a kind, Aces (joker)'``."""
        if self.strengths is None:
            return None
        top, middle, bottom = (hand_name(s) + " (joker)" * joker
                               for s, joker in zip(self.strengths, self.joker_rows, strict=True))
        return (top, middle, bottom)

    @property
    def royalty_total(self) -> int:
        return sum(self.royalties)


@dataclass(frozen=True, slots=True)
class HandResult:
    players: tuple[PlayerResult, ...]
    pairs: tuple[PairResult, ...]

    def player(self, name: str) -> PlayerResult:
        return next(p for p in self.players if p.name == name)

    def pair(self, player: str, opponent: str) -> PairResult:
        return next(p for p in self.pairs if p.player == player and p.opponent == opponent)


def compare_rows(mine: Sequence[Strength], theirs: Sequence[Strength]) -> tuple[int, int, int]:
    """+1 / 0 / -1 per row: ``compare_rows((5, 9, 9), (4, 9, 10)) == (1, 0, -1)``."""
    a, b, c = ((m > t) - (m < t) for m, t in zip(mine, theirs, strict=True))
    return (a, b, c)


def _evaluate_seat(seat: Seat, ruleset: Ruleset) -> PlayerResult:
    if seat.surrendered:
        return PlayerResult(seat.name, False, True, None, (0, 0, 0), 0, 0, 0)
    resolved = resolve_board(seat.board, ruleset)
    strengths, fouled = resolved.strengths, resolved.fouled
    if fouled:
        royalties = (0, 0, 0)
    else:
        royalties = ruleset.row_royalties(strengths)
    fl_next = ruleset.fantasyland_cards(
        fouled, seat.fantasyland, strengths[0], strengths, royalties, seat.fl_dealt
    )
    return PlayerResult(seat.name, fouled, False, strengths, royalties, fl_next, 0, 0,
                        stood_for=resolved.stood_for, joker_rows=resolved.joker_rows)


def _row_outcome(me: PlayerResult, them: PlayerResult) -> tuple[int, int, int]:
    if me.fouled and them.fouled:
        return (0, 0, 0)
    if me.fouled:
        return (-1, -1, -1)
    if them.fouled:
        return (1, 1, 1)
    assert me.strengths is not None and them.strengths is not None
    return compare_rows(me.strengths, them.strengths)


def settle_pair(me: PlayerResult, them: PlayerResult, ruleset: Ruleset) -> PairResult:
    """The raw (uncapped) settlement of one ordered pair."""
    if me.surrendered or them.surrendered:
        cost = ruleset.surrender_cost
        if me.surrendered and them.surrendered:
            surrender = 0.0
        else:
            surrender = -cost if me.surrendered else cost
        if ruleset.scoring.is_race:
            surrender = max(surrender, 0.0)
        return PairResult(me.name, them.name, (0, 0, 0), 0, 0, 0, surrender, surrender, surrender)
    rows = _row_outcome(me, them)
    won, lost = rows.count(1), rows.count(-1)
    system = ruleset.scoring
    exchange_royalties = ruleset.foul_payout is FoulPayout.SCOOP_PLUS_ROYALTIES or not (
        me.fouled or them.fouled
    )
    if system.is_race:
        row_points = system.spec.row_point * won
        bonus = system.banked(won, lost) - row_points
        royalties = me.royalty_total if exchange_royalties else 0
    else:
        row_points = system.row_points(won, lost)
        bonus = system.bonus(won, lost)
        royalties = me.royalty_total - them.royalty_total if exchange_royalties else 0
    total = row_points + bonus + royalties
    return PairResult(me.name, them.name, rows, row_points, bonus, royalties, 0, total, total)


def settlement_order(count: int, first_to_act: int) -> list[tuple[int, int]]:
    """Pairs of seat indexes in the order they settle under caps, starting left of the button.

    >>> settlement_order(3, 1)
    [(1, 2), (1, 0), (2, 0)]
    """
    order = [(first_to_act + k) % count for k in range(count)]
    return [(order[i], order[j]) for i in range(count) for j in range(i + 1, count)]


def apply_caps(raw: Sequence[Sequence[float]], cap: float, first_to_act: int) -> list[list[float]]:
    """Cap every player's net to ``[-cap, cap]``, settling pairs in order from the left of the
    button; ``raw[i][j]`` is what ``i`` wins from ``j``. Returns the capped matrix.

    >>> apply_caps([[0, 10, 10], [-10, 0, 0], [-10, 0, 0]], 12, 0)
    [[0, 10, 2], [-10, 0, 0], [-2, 0, 0]]
    """
    count = len(raw)
    net = [0.0] * count
    capped = [[0.0] * count for _ in range(count)]
    for i, j in settlement_order(count, first_to_act):
        t = raw[i][j]
        if t > 0:
            t = max(0.0, min(t, cap - net[i], cap + net[j]))
        elif t < 0:
            t = min(0.0, max(t, -(cap + net[i]), -(cap - net[j])))
        net[i] += t
        net[j] -= t
        capped[i][j], capped[j][i] = t, -t
    return [[tidy_points(v) for v in row] for row in capped]


def tidy_points(value: float) -> float:
    """Integral floats as ints, so points print as ``6`` rather than ``6.0``.

    >>> tidy_points(6.0), tidy_points(-1.5)
    (6, -1.5)
    """
    return int(value) if float(value).is_integer() else value


def score_hand(seats: Sequence[Seat], ruleset: Ruleset, first_to_act: int = 0) -> HandResult:
    """Score one complete hand for 2-4 players under ``ruleset``.

    ``first_to_act`` is the seat index left of the button (the settlement order under caps).
    """
    evaluated = [_evaluate_seat(s, ruleset) for s in seats]
    count = len(evaluated)
    raw = [[0.0] * count for _ in range(count)]
    pairs: dict[tuple[int, int], PairResult] = {}
    for i, me in enumerate(evaluated):
        for j, them in enumerate(evaluated):
            if i != j:
                pairs[i, j] = settle_pair(me, them, ruleset)
                raw[i][j] = pairs[i, j].total
    capped = raw
    if ruleset.cap is not None and not ruleset.scoring.is_race:
        capped = apply_caps(raw, ruleset.cap, first_to_act)
        pairs = {(i, j): replace(p, capped=capped[i][j]) for (i, j), p in pairs.items()}
    players = tuple(
        replace(p, raw_points=tidy_points(sum(raw[i])), points=tidy_points(sum(capped[i])),
                vs={evaluated[j].name: tidy_points(capped[i][j]) for j in range(count) if j != i})
        for i, p in enumerate(evaluated)
    )
    return HandResult(players, tuple(pairs[k] for k in sorted(pairs)))

