"""Tournaments: what a hand's log says about the tournament it belongs to, and the summary of a
tournament once it is over (docs/variations.md section 9).

Two kinds (:class:`Kind`):

- **chips** (the JokerPoker rules, seed 002: "in a tournament the points are worth a set
  number of chips, and chips are settled after every hand"): each player starts with a stack
  of chips, a point is worth ``chips_per_point`` chips (rising by level), a hand settles under
  table stakes as at a cash table (:mod:`ofc_core.settlement`: nobody loses more than the
  chips in front of him), and a player whose stack reaches zero is out;
- **knockout** (the OFC Double rules, seed 004): single elimination, each round's pairs play
  OFC Double matches to 31 points **without the cube** until one has won two; a player who has
  not opened the table 15 minutes after the start loses by forfeit.

A hand's stack in points is its chips over the chips a point is worth:

>>> t = TournamentHand("wk49", Kind.CHIPS, level=2, chips_per_point=20.0)
>>> t.points(1500), t.chips(75.0)
(75.0, 1500.0)
>>> is_out(0.0), is_out(20.0)
(True, False)
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum


class Kind(Enum):
    CHIPS = "chips"
    KNOCKOUT = "knockout"


KINDS = tuple(k.value for k in Kind)
"""The kinds' names as the logs spell them."""


@dataclass(frozen=True, slots=True)
class TournamentHand:
    """The tournament a hand is played in, as its log says: ``id`` (unique within the hand's
    source), ``kind``, and where known its ``name``, ``level`` (1-based), the chips a point
    is worth at that level, the ``table`` (a chip tournament of several tables) and the
    knockout ``round`` (1-based)."""

    id: str
    kind: Kind
    name: str | None = None
    level: int | None = None
    chips_per_point: float | None = None
    table: str | None = None
    round: int | None = None

    def points(self, chips: float) -> float:
        """A stack of ``chips`` in points (the unit table stakes settle in)."""
        if not self.chips_per_point:
            raise ValueError(f"tournament {self.id!r}: no chips_per_point to count chips in")
        return chips / self.chips_per_point

    def chips(self, points: float) -> float:
        """``points`` in chips, rounded to a millionth (a stack read as chips / points and
        written back gives the chips written: ``chips(points(1000)) == 1000`` at 3 a point).

        >>> TournamentHand("t", Kind.CHIPS, chips_per_point=3.0).chips(1000 / 3)
        1000.0
        """
        if not self.chips_per_point:
            raise ValueError(f"tournament {self.id!r}: no chips_per_point to count chips in")
        return round(points * self.chips_per_point, 6)


def is_out(stack: float) -> bool:
    """A chip tournament's player is out when no chip is left (seed 002's table stakes: a
    player can lose only what he has, so a stack never goes below zero)."""
    return stack <= 0


@dataclass(frozen=True, slots=True)
class Finish:
    """A player's result in a tournament: ``place`` 1 is the winner; ``prize`` in the
    tournament's currency (0 out of the money)."""

    player: str
    place: int
    prize: float = 0.0


@dataclass(frozen=True, slots=True)
class Series:
    """A knockout pair's series in ``round``: the first to win two matches goes on.
    ``wins`` are the matches each of ``players`` won (a forfeit: 0 and 0, ``forfeit``
    names the player who lost by it). ``matches`` are the match ids played, when known."""

    round: int
    players: tuple[str, str]
    wins: tuple[int, int]
    winner: str
    forfeit: bool = False
    matches: tuple[str, ...] = ()

    @property
    def score(self) -> str:
        """``'2-1'`` (the winner's wins first), or ``'forfeit'``.

        >>> Series(1, ("ann", "bob"), (1, 2), "bob").score
        '2-1'
        """
        if self.forfeit:
            return "forfeit"
        mine = self.wins[self.players.index(self.winner)]
        return f"{mine}-{sum(self.wins) - mine}"


WINS_NEEDED = 2
"""Matches a knockout series is played to (seed 004: "до 2х побед")."""


def series_problems(series: Series) -> list[str]:
    """Why a series cannot have ended as written; ``[]`` when it can.

    >>> series_problems(Series(1, ("ann", "bob"), (2, 1), "ann"))
    []
    >>> series_problems(Series(1, ("ann", "bob"), (1, 1), "ann"))
    ['round 1 ann - bob: nobody has won 2 matches (1-1)']
    """
    where = f"round {series.round} {series.players[0]} - {series.players[1]}"
    if series.winner not in series.players:
        return [f"{where}: the winner {series.winner!r} is not one of the pair"]
    if series.players[0] == series.players[1]:
        return [f"{where}: a player cannot play himself"]
    if series.forfeit:
        return []
    mine = series.wins[series.players.index(series.winner)]
    other = sum(series.wins) - mine
    if mine != WINS_NEEDED or other >= WINS_NEEDED or min(series.wins) < 0:
        return [f"{where}: nobody has won {WINS_NEEDED} matches "
                f"({series.wins[0]}-{series.wins[1]})"]
    return []


@dataclass(frozen=True, slots=True)
class TournamentSummary:
    """A tournament's summary record (``ofc-tournament/1``): what it cost, what it paid,
    and who finished where; a knockout's series round by round."""

    source: str
    id: str
    kind: Kind
    name: str | None = None
    started_at: str | None = None
    buy_in: float | None = None
    fee: float | None = None
    currency: str | None = None
    starting_stack: float | None = None
    prize_pool: float | None = None
    players: int | None = None
    finishes: tuple[Finish, ...] = ()
    series: tuple[Series, ...] = ()


def summary_problems(summary: TournamentSummary) -> list[str]:
    """Every reason the summary cannot be right as written; ``[]`` when it can.

    >>> s = TournamentSummary("club", "k1", Kind.CHIPS, prize_pool=100.0,
    ...                       finishes=(Finish("ann", 1, 70.0), Finish("bob", 1, 40.0)))
    >>> summary_problems(s)
    ['place 1 is given twice', 'prizes (110) exceed the prize pool (100)']
    """
    problems: list[str] = []
    places = [f.place for f in summary.finishes]
    if summary.kind is Kind.CHIPS:  # a knockout's losers of one round share a place
        problems += [f"place {p} is given twice" for p in sorted(set(places))
                     if places.count(p) > 1]
    names = [f.player for f in summary.finishes]
    problems += [f"player {n!r} finishes twice" for n in sorted(set(names))
                 if names.count(n) > 1]
    problems += [f"{f.player}: place must be 1 or more, got {f.place}"
                 for f in summary.finishes if f.place < 1]
    problems += [f"{f.player}: a prize cannot be negative" for f in summary.finishes
                 if f.prize < 0]
    paid = sum(f.prize for f in summary.finishes)
    if summary.prize_pool is not None and paid > summary.prize_pool + 1e-9:
        problems.append(f"prizes ({paid:g}) exceed the prize pool ({summary.prize_pool:g})")
    for s in summary.series:
        problems += series_problems(s)
    if summary.series and summary.kind is not Kind.KNOCKOUT:
        problems.append("only a knockout has series")
    return problems


def hand_problems(tournament: TournamentHand, stake: float | None, scoring: str,
                  stacks: list[float | None], doubles: int = 0) -> list[str]:
    """Why a hand cannot be played in ``tournament`` as logged; ``[]`` when it can.

    A tournament hand plays for chips, never money (its ``stake`` is absent: the chips a
    point is worth are the tournament's); a chip tournament's stacks are counted in chips,
    so they need ``chips_per_point``; a knockout is OFC Double (race scoring) played without
    the cube (seed 004: "игра происходит без удвоения").

    >>> hand_problems(TournamentHand("t", Kind.CHIPS), 0.5, "1-6", [10.0, None])
    ["tournament 't': a tournament hand plays for chips, not a stake (give the chips a \
point is worth as chips_per_point)", "tournament 't': stacks need chips_per_point"]
    >>> hand_problems(TournamentHand("k", Kind.KNOCKOUT, round=1), None, "race", [], 1)
    ["tournament 'k': a knockout is played without the cube, got 1 double"]
    """
    where = f"tournament {tournament.id!r}"
    problems: list[str] = []
    if stake is not None:
        problems.append(f"{where}: a tournament hand plays for chips, not a stake (give the "
                        "chips a point is worth as chips_per_point)")
    if tournament.chips_per_point is not None and tournament.chips_per_point <= 0:
        problems.append(f"{where}: chips_per_point must be more than 0")
    if any(s is not None for s in stacks) and not tournament.chips_per_point:
        problems.append(f"{where}: stacks need chips_per_point")
    if any(s is not None and s < 0 for s in stacks):
        problems.append(f"{where}: a stack cannot be negative")
    if tournament.kind is Kind.KNOCKOUT:
        if scoring != "race":
            problems.append(f"{where}: a knockout plays OFC Double matches (race scoring), "
                            f"got {scoring} scoring")
        if doubles:
            problems.append(f"{where}: a knockout is played without the cube, got {doubles} "
                            f"double{'s' * (doubles != 1)}")
    for value, what in ((tournament.level, "level"), (tournament.round, "round")):
        if value is not None and value < 1:
            problems.append(f"{where}: {what} must be 1 or more, got {value}")
    return problems


def knockout_place(round_lost: int | None, rounds: int) -> int:
    """The place of a knockout's player who lost in ``round_lost`` of ``rounds`` (``None``:
    won the final): the losers of a round share the best place left to them.

    >>> [knockout_place(r, 4) for r in (None, 4, 3, 2, 1)]
    [1, 2, 3, 5, 9]
    """
    if round_lost is None:
        return 1
    return (1 << (rounds - round_lost)) + 1


@dataclass(frozen=True, slots=True)
class LastHand:
    """A chip tournament player's last hand: its order in the tournament (later is larger),
    the stack brought to it and the stack left after it."""

    order: int
    stack_before: float
    stack_after: float


def chip_places(last: dict[str, LastHand]) -> dict[str, int]:
    """Places from the hands alone: players with chips left first (more chips better), then
    those out, the later out the better, two out in the same hand by the larger stack they
    brought to it.

    >>> chip_places({"ann": LastHand(9, 300, 600), "bob": LastHand(9, 300, 0),
    ...              "cy": LastHand(4, 100, 0), "dee": LastHand(4, 200, 0)})
    {'ann': 1, 'bob': 2, 'dee': 3, 'cy': 4}
    """
    def key(name: str) -> tuple[bool, float, int, float]:
        h = last[name]
        alive = not is_out(h.stack_after)
        return (alive, h.stack_after if alive else 0.0, h.order, h.stack_before)
    ranked = sorted(last, key=key, reverse=True)
    return {name: n for n, name in enumerate(ranked, start=1)}
