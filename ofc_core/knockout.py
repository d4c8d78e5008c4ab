"""A knockout bracket run by a club (seed 004's weekly OFC Double tournament): single
elimination of at least 16 players; each round the judge draws the pairs (seeded, so the draw
can be shown and checked); a pair plays until one has won two matches, or one loses by
forfeit; the winners go on, the next round is drawn, until one is left.

The bracket is the replay of its changes (:class:`Change`: ``create``, ``series``, ``draw``,
``undo``), which the store keeps with who made them and when; :func:`replay` checks each
against the bracket so far and raises ``ValueError`` with a message for the user.

When the players are not a power of two, the first round has byes: ``size - players`` of
them (``size`` the next power of two), spread evenly over the draw; a player with a bye goes
to round 2 without playing.

>>> names = tuple(f"p{i:02d}" for i in range(1, 18))
>>> b = replay([Change("create", {"name": "wk", "players": list(names), "seed": 7})])
>>> len(b.rounds[0]), b.size, len(b.byes)
(16, 32, 15)
>>> b = replay([Change("create", {"name": "wk", "players": list(names[:16]), "seed": 7})])
>>> a, c = b.rounds[0][0].players
>>> b = apply(b, Change("series", {"players": [a, c], "wins": [2, 1], "winner": a}))
>>> b.rounds[0][0].series.score, b.open_pairs()[0].slot
('2-1', 1)
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from types import MappingProxyType
from typing import Any

from ofc_core.tournament import Series, series_problems

MIN_PLAYERS = 16
"""Seed 004: "с минимальным количеством участников 16 человек"."""

ACTIONS = ("create", "series", "draw", "undo")


@dataclass(frozen=True, slots=True)
class Change:
    """One change of a bracket: its ``action`` and data (JSON-like)."""

    action: str
    data: Mapping[str, Any] = field(default_factory=lambda: MappingProxyType({}))


@dataclass(frozen=True, slots=True)
class Pair:
    """A pair of a round: ``b`` is ``None`` for a bye; ``series`` once decided."""

    round: int
    slot: int
    a: str
    b: str | None
    series: Series | None = None

    @property
    def players(self) -> tuple[str, str]:
        if self.b is None:
            raise ValueError(f"{self.a} has a bye in round {self.round}")
        return (self.a, self.b)

    @property
    def winner(self) -> str | None:
        if self.b is None:
            return self.a
        return None if self.series is None else self.series.winner


@dataclass(frozen=True, slots=True)
class Bracket:
    name: str
    players: tuple[str, ...]
    seed: int
    rounds: tuple[tuple[Pair, ...], ...] = ()

    @property
    def size(self) -> int:
        """The draw's size: the players rounded up to a power of two."""
        return 1 << (len(self.players) - 1).bit_length()

    @property
    def total_rounds(self) -> int:
        return self.size.bit_length() - 1

    @property
    def byes(self) -> tuple[str, ...]:
        """The players with a bye in round 1."""
        return tuple(p.a for p in self.rounds[0] if p.b is None) if self.rounds else ()

    def open_pairs(self) -> list[Pair]:
        """The pairs of the current round still to play."""
        return [p for p in self.rounds[-1] if p.winner is None] if self.rounds else []

    @property
    def round_over(self) -> bool:
        return bool(self.rounds) and not self.open_pairs()

    @property
    def champion(self) -> str | None:
        if len(self.rounds) == self.total_rounds and self.round_over:
            return self.rounds[-1][0].winner
        return None


def bye_slots(pairs: int, byes: int) -> set[int]:
    """Which of a first round's ``pairs`` hold a bye: spread evenly.

    >>> sorted(bye_slots(16, 4))
    [0, 4, 8, 12]
    """
    return {i * pairs // byes for i in range(byes)} if byes else set()


def draw(players: Sequence[str], seed: int, round_: int, size: int | None = None,
         ) -> tuple[Pair, ...]:
    """Round ``round_``'s pairs: ``players`` shuffled by ``random.Random(f"{seed}-{round_}")``
    (the same seed and round give the same draw), byes (round 1, ``size`` above the players)
    spread by :func:`bye_slots`.

    >>> [(p.a, p.b) for p in draw(["a", "b", "c"], 1, 1, 4)]
    [('b', None), ('c', 'a')]
    """
    order = list(players)
    random.Random(f"{seed}-{round_}").shuffle(order)
    count = size or len(order)
    pairs = count // 2
    slots = bye_slots(pairs, count - len(order))
    out: list[Pair] = []
    for slot in range(pairs):
        if slot in slots:
            out.append(Pair(round_, slot, order.pop(0), None))
        else:
            out.append(Pair(round_, slot, order.pop(0), order.pop(0)))
    return tuple(out)


def _create(data: Mapping[str, Any]) -> Bracket:
    players = tuple(str(p).strip() for p in data.get("players", ()) if str(p).strip())
    name = str(data.get("name", "")).strip()
    if not name:
        raise ValueError("a knockout needs a name")
    if len(players) < MIN_PLAYERS:
        raise ValueError(f"a knockout needs at least {MIN_PLAYERS} players (seed 004), got "
                         f"{len(players)}")
    twice = sorted({p for p in players if players.count(p) > 1})
    if twice:
        raise ValueError(f"players listed twice: {', '.join(twice)}")
    seed = int(data.get("seed", 0))
    bracket = Bracket(name, players, seed)
    return replace(bracket, rounds=(draw(players, seed, 1, bracket.size),))


def _series(bracket: Bracket, data: Mapping[str, Any]) -> Bracket:
    players = tuple(data.get("players", ()))
    pair = next((p for p in bracket.open_pairs() if set(p.players) == set(players)), None)
    if pair is None:
        raise ValueError(f"{' - '.join(map(str, players))} is not a pair of round "
                         f"{len(bracket.rounds)} still to play")
    wins = tuple(int(w) for w in data.get("wins", (0, 0)))
    if players != pair.players:  # given the other way round
        wins = wins[::-1]
    series = Series(pair.round, pair.players, (wins[0], wins[1]), str(data.get("winner")),
                    bool(data.get("forfeit", False)),
                    tuple(str(m) for m in data.get("matches", ())))
    problems = series_problems(series)
    if problems:
        raise ValueError("; ".join(problems))
    rounds = list(bracket.rounds)
    rounds[-1] = tuple(replace(p, series=series) if p is pair else p for p in rounds[-1])
    return replace(bracket, rounds=tuple(rounds))


def _draw(bracket: Bracket) -> Bracket:
    if not bracket.round_over:
        raise ValueError(f"round {len(bracket.rounds)} is not over: "
                         f"{len(bracket.open_pairs())} series still to record")
    if bracket.champion is not None:
        raise ValueError(f"the knockout is over: {bracket.champion} won")
    winners = [p.winner for p in bracket.rounds[-1] if p.winner is not None]
    return replace(bracket, rounds=(*bracket.rounds,
                                    draw(winners, bracket.seed, len(bracket.rounds) + 1)))


def apply(bracket: Bracket | None, change: Change) -> Bracket:
    """The bracket after ``change`` (``undo`` is resolved by :func:`live`, not here)."""
    if change.action == "create":
        if bracket is not None:
            raise ValueError("the knockout exists already")
        return _create(change.data)
    if bracket is None:
        raise ValueError("no such knockout: create it first")
    if change.action == "series":
        return _series(bracket, change.data)
    if change.action == "draw":
        return _draw(bracket)
    raise ValueError(f"unknown change {change.action!r} (one of {', '.join(ACTIONS)})")


def live(changes: Sequence[Change]) -> list[Change]:
    """The changes still in force: each ``undo`` cancels the latest change in force before it
    (never the creation)."""
    kept: list[Change] = []
    for change in changes:
        if change.action == "undo":
            if len(kept) <= 1:
                raise ValueError("nothing to undo")
            kept.pop()
        else:
            kept.append(change)
    return kept


def replay(changes: Sequence[Change]) -> Bracket:
    """The bracket its changes make."""
    bracket: Bracket | None = None
    for change in live(changes):
        bracket = apply(bracket, change)
    if bracket is None:
        raise ValueError("no such knockout")
    return bracket


def parse_score(text: str) -> tuple[tuple[int, int], bool]:
    """A typed result, the winner's wins first: ``'2-0'``, ``'2-1'`` or ``'forfeit'``.

    >>> parse_score("2-1"), parse_score(" Forfeit ")
    (((2, 1), False), ((0, 0), True))
    """
    text = text.strip().lower()
    if text == "forfeit":
        return (0, 0), True
    if text in ("2-0", "2-1"):
        return (2, int(text[-1])), False
    raise ValueError(f"a series ends 2-0, 2-1 or by forfeit, got {text!r}")
