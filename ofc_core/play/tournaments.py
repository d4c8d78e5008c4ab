"""Tournaments played by the engine and written as real logs (docs/simulator.md, "Tournaments").

- :func:`play_chip_tournament`: a chip tournament (seed 002) at one or several tables: every
  player starts with the same chips, a point is worth ``levels[k]`` chips at level ``k + 1``
  (a level lasts ``hands_per_level`` hands of each table), each hand settles under table
  stakes (:func:`ofc_core.settlement.table_stakes`: nobody loses more than his chips), a
  player without chips is out, and a table is broken when the others have seats for its
  players, until one player holds every chip;
- :func:`play_knockout`: an OFC Double knockout (seed 004): a seeded random draw, each pair
  plays matches to 31 points without the cube until one has won two, a player forfeits a
  series with probability ``forfeit_rate``, rounds until one is left.

Both return the hands (:class:`~ofc_core.hand.HandRecord`, with their ``tournament``) and the
tournament's summary (:class:`~ofc_core.tournament.TournamentSummary`), places and prizes.

>>> import random
>>> from ofc_core.rules import PRESETS
>>> plan = ChipPlan("t1", tuple(f"p{i}" for i in range(5)), PRESETS["regular"], table_size=3,
...                 starting_stack=200, levels=(10, 20, 40), hands_per_level=4)
>>> hands, summary = play_chip_tournament(plan, random.Random(3))
>>> sorted(f.place for f in summary.finishes)
[1, 2, 3, 4, 5]
>>> chips = {p.name: p.stack * h.tournament.chips_per_point
...          for h in hands[-1:] for p in h.players}
>>> sum(chips.values()) == 1000
True
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from datetime import datetime, timedelta

from ofc_core.hand import Event, HandRecord
from ofc_core.play.engine import Table, play_hand
from ofc_core.play.policies import policy
from ofc_core.play.sessions import (
    DEFAULT_START,
    SessionSpec,
    _Clock,
    _Match,
    _match_end,
    hand_record,
)
from ofc_core.rules import PRESETS, Ruleset
from ofc_core.settlement import table_stakes
from ofc_core.tournament import (
    WINS_NEEDED,
    Finish,
    Kind,
    Series,
    TournamentHand,
    TournamentSummary,
    is_out,
    knockout_place,
)


def payouts(entrants: int, pool: float) -> list[float]:
    """The prizes of places 1, 2, ... (about one player in six paid, at least one; each
    place's share falling as 1 / place; cents, the rest to the winner).

    >>> payouts(5, 50.0), payouts(12, 120.0)
    ([50.0], [65.45, 32.73, 21.82])
    """
    paid = 1 if entrants < 6 else 2 if entrants < 10 else 3 if entrants < 18 else entrants // 6
    weights = [1 / k for k in range(1, paid + 1)]
    prizes = [round(pool * w / sum(weights), 2) for w in weights]
    prizes[0] = round(pool - sum(prizes[1:]), 2)
    return prizes


@dataclass(frozen=True)
class ChipPlan:
    """A chip tournament to play."""

    tournament_id: str
    names: tuple[str, ...]
    ruleset: Ruleset
    table_size: int = 3
    starting_stack: float = 1500
    levels: tuple[float, ...] = (10, 15, 20, 30, 50, 75, 100, 150, 200, 300, 500, 1000)
    hands_per_level: int = 8
    buy_in: float = 10.0
    fee: float = 1.0
    currency: str = "EUR"
    policies: tuple[str, ...] = ("careful",)
    start: datetime = DEFAULT_START
    source: str = "ofc-sim"
    name: str | None = None


def _tables(names: Sequence[str], size: int) -> list[list[str]]:
    """Players seated at as few tables as hold them, as evenly as can be."""
    count = -(-len(names) // size)
    return [list(names[k::count]) for k in range(count)]


def _rebalance(tables: list[list[str]], size: int) -> list[list[str]]:
    """Tables after players went out: the smallest table broken while the others have
    seats for its players, its players to the emptiest; a player left alone at a table gets
    an opponent from the fullest.

    >>> _rebalance([["a"], ["b", "c", "d"], ["e", "f"]], 3)
    [['e', 'f', 'a'], ['b', 'c', 'd']]
    >>> _rebalance([["a"], ["b", "c", "d"], ["e", "f", "g"]], 3)
    [['a', 'g'], ['b', 'c', 'd'], ['e', 'f']]
    """
    tables = [t for t in tables if t]
    while len(tables) > 1:
        tables.sort(key=len)
        spare = sum(size - len(t) for t in tables[1:])
        if len(tables[0]) > spare:
            if len(tables[0]) == 1:  # a player alone gets one from the fullest table
                tables[0].append(tables[-1].pop())
            break
        for name in tables.pop(0):
            min(tables, key=len).append(name)
    return tables


@dataclass
class _ChipState:
    chips: dict[str, float]
    fantasyland: dict[str, int]
    buttons: dict[int, int]
    out_order: list[tuple[int, float, str]]


def _chip_hand(plan: ChipPlan, state: _ChipState, seated: list[str], number: int,
               table_no: int, level: int, rng: random.Random, played_at: str,
               ) -> HandRecord:
    """One hand at one table, settled in chips; the chips and Fantasyland carried on."""
    per_point = plan.levels[min(level, len(plan.levels)) - 1]
    table = Table(plan.ruleset, tuple(seated),
                  tuple(policy(plan.policies[plan.names.index(n) % len(plan.policies)])
                        for n in seated))
    button = state.buttons.get(table_no, 0) % len(seated)
    fl = tuple(state.fantasyland.get(n, 0) for n in seated)
    played = play_hand(table, button, fl, rng, score=True)
    assert played.result is not None
    raw = [[played.result.players[i].vs.get(b, 0.0) if i != j else 0.0
            for j, b in enumerate(seated)] for i in range(len(seated))]
    stacks = [state.chips[n] / per_point for n in seated]
    settled = [sum(row) for row in table_stakes(raw, stacks, played.first_to_act)]
    spec = SessionSpec(f"{plan.tournament_id}-t{table_no}", 1, source=plan.source)
    record = hand_record(table, spec, number, played, settled, played_at)
    tournament = TournamentHand(plan.tournament_id, Kind.CHIPS, plan.name, level, per_point,
                                str(table_no))
    record = replace(record, stake=None, currency=None, tournament=tournament,
                     players=tuple(replace(p, stack=s)
                                   for p, s in zip(record.players, stacks, strict=True)))
    for name, points, before in zip(seated, settled, stacks, strict=True):
        state.chips[name] = round(state.chips[name] + points * per_point, 6)
        state.fantasyland[name] = 0
        if is_out(state.chips[name]):
            state.out_order.append((number, before, name))
    for name, cards in zip(seated, played.fantasyland_next, strict=True):
        state.fantasyland[name] = cards
    state.buttons[table_no] = button + (0 if any(fl) else 1)
    return record


def play_chip_tournament(plan: ChipPlan, rng: random.Random,
                         progress: Callable[[int], None] | None = None,
                         ) -> tuple[list[HandRecord], TournamentSummary]:
    """Play the tournament to its end (see the module); ``progress(hands)`` after each hand."""
    if len(plan.names) < 2 or len(set(plan.names)) != len(plan.names):
        raise ValueError("a tournament needs two or more players, all named differently")
    state = _ChipState({n: float(plan.starting_stack) for n in plan.names}, {}, {}, [])
    tables = _tables(plan.names, plan.table_size)
    clock = _Clock(plan.start, (30, 90))
    hands: list[HandRecord] = []
    rounds = 0
    while sum(len(t) for t in tables) > 1:
        rounds += 1
        level = 1 + (rounds - 1) // plan.hands_per_level
        played_at = clock.tick(rng)
        for table_no, seated in enumerate(tables, start=1):
            if len(seated) > 1:
                hands.append(_chip_hand(plan, state, seated, rounds, table_no, level, rng,
                                        played_at))
                if progress is not None:
                    progress(len(hands))
        tables = _rebalance([[n for n in t if not is_out(state.chips[n])] for t in tables],
                            plan.table_size)
    return hands, _chip_summary(plan, state)


def _chip_summary(plan: ChipPlan, state: _ChipState) -> TournamentSummary:
    alive = sorted((n for n in plan.names if not is_out(state.chips[n])),
                   key=lambda n: -state.chips[n])
    out = [name for _, _, name in sorted(state.out_order, reverse=True)]
    order = alive + out
    pool = plan.buy_in * len(plan.names)
    prizes = payouts(len(plan.names), pool)
    finishes = tuple(Finish(n, k, prizes[k - 1] if k <= len(prizes) else 0.0)
                     for k, n in enumerate(order, start=1))
    return TournamentSummary(plan.source, plan.tournament_id, Kind.CHIPS, plan.name,
                             plan.start.isoformat(timespec="seconds"), plan.buy_in, plan.fee,
                             plan.currency, plan.starting_stack, pool, len(plan.names),
                             finishes)


@dataclass(frozen=True)
class KnockoutPlan:
    """An OFC Double knockout to play: ``names`` in the order of the seeded draw's input."""

    tournament_id: str
    names: tuple[str, ...]
    forfeit_rate: float = 0.05
    buy_in: float = 10.0
    fee: float = 0.0
    currency: str = "EUR"
    policies: tuple[str, ...] = ("careful",)
    start: datetime = DEFAULT_START
    source: str = "ofc-sim"
    name: str | None = None


def _double_match(table: Table, spec: SessionSpec, match_id: str, number: int,
                  clock: _Clock, rng: random.Random) -> tuple[list[HandRecord], int]:
    """One Double match to the target without the cube; the hands and the winner's seat."""
    target = table.ruleset.match_target
    assert target is not None
    match = _Match(table.names, target)
    records: list[HandRecord] = []
    button = rng.randrange(2)
    fantasyland: tuple[int, ...] = (0, 0)
    winner: int | None = None
    while winner is None:
        played = play_hand(table, button, fantasyland, rng, score=True)
        assert played.result is not None
        for seat, p in enumerate(played.result.players):
            match.scores[seat] += p.points
        winner = match.winner()
        events: tuple[Event, ...] = ()
        if winner is not None:
            events = (_match_end(match, winner, "target"),)
        points = [p.points for p in played.result.players]
        records.append(hand_record(table, spec, number + len(records), played, points,
                               clock.tick(rng), match_id=match_id, events=events))
        fantasyland = tuple(played.fantasyland_next)
        button = 1 - button if not any(fantasyland) else button
    return records, winner


def _series(plan: KnockoutPlan, round_: int, pair: tuple[str, str], clock: _Clock,
            rng: random.Random) -> tuple[list[HandRecord], Series]:
    """A pair's series: a forfeit (no hands), or matches until one has won two."""
    if rng.random() < plan.forfeit_rate:
        loser = rng.randrange(2)
        return [], Series(round_, pair, (0, 0), pair[1 - loser], forfeit=True)
    table = Table(PRESETS["double"], pair,
                  tuple(policy(plan.policies[plan.names.index(n) % len(plan.policies)])
                        for n in pair))
    session = f"{plan.tournament_id}-r{round_}-{pair[0]}-{pair[1]}"
    spec = SessionSpec(session, 1, source=plan.source)
    tournament = TournamentHand(plan.tournament_id, Kind.KNOCKOUT, plan.name, round=round_)
    wins = [0, 0]
    hands: list[HandRecord] = []
    matches: list[str] = []
    while max(wins) < WINS_NEEDED:
        match_id = f"{session}-m{len(matches) + 1}"
        played, winner = _double_match(table, spec, match_id, len(hands) + 1, clock, rng)
        hands += [replace(h, tournament=tournament) for h in played]
        wins[winner] += 1
        matches.append(match_id)
        clock.now += timedelta(seconds=rng.randint(20, 120))
    winner_name = pair[0] if wins[0] == WINS_NEEDED else pair[1]
    return hands, Series(round_, pair, (wins[0], wins[1]), winner_name, matches=tuple(matches))


def play_knockout(plan: KnockoutPlan, rng: random.Random,
                  progress: Callable[[int], None] | None = None,
                  ) -> tuple[list[HandRecord], TournamentSummary]:
    """Play the knockout to its winner (a power of two of players: 16, 32, ...)."""
    count = len(plan.names)
    if count < 2 or count & (count - 1) or len(set(plan.names)) != count:
        raise ValueError(f"a simulated knockout needs 2, 4, 8, 16, 32... players, all named "
                         f"differently, got {count}")
    field_ = list(plan.names)
    rng.shuffle(field_)  # the seeded draw
    clock = _Clock(plan.start, (30, 90))
    hands: list[HandRecord] = []
    series: list[Series] = []
    round_, lost = 0, {}
    rounds = count.bit_length() - 1
    while len(field_) > 1:
        round_ += 1
        winners = []
        for a, b in zip(field_[::2], field_[1::2], strict=True):
            played, s = _series(plan, round_, (a, b), clock, rng)
            hands += played
            series.append(s)
            winners.append(s.winner)
            lost[b if s.winner == a else a] = round_
            if progress is not None:
                progress(len(hands))
        field_ = winners
    pool = plan.buy_in * count
    shares = {1: 0.5, 2: 0.3, 3: 0.1}
    finishes = [Finish(n, knockout_place(lost.get(n), rounds), 0.0) for n in plan.names]
    finishes = sorted((replace(f, prize=round(pool * shares.get(f.place, 0.0), 2))
                       for f in finishes), key=lambda f: (f.place, f.player))
    return hands, TournamentSummary(
        plan.source, plan.tournament_id, Kind.KNOCKOUT, plan.name,
        plan.start.isoformat(timespec="seconds"), plan.buy_in, plan.fee, plan.currency,
        None, pool, count, tuple(finishes), tuple(series))
