"""Sessions and OFC Double matches played by the engine (:mod:`ofc_core.play.engine`), and the
hand records they become, written as a room would log them.

- :func:`play_session`: hands at one table, the button moving between hands
  (:func:`next_button`), Fantasyland carried over, a session's points from the batch scorer
  (:func:`score_played`), the clock ticking 30-90 s a hand, and a simulated room's mistakes in
  ``reported_points`` (``SessionSpec.room_error_rate``) for the audit to find;
- :func:`play_matches`: under a match target (OFC Double), heads-up matches with the doubling
  cube between hands, until the session has its hands;
- :func:`hero_view`: a hand as one player's room logs it (opponents' dealt cards and discards
  hidden).

>>> import random
>>> from ofc_core.rules import PRESETS
>>> from ofc_core.hand import validate
>>> from ofc_core.play.random_bot import RandomPolicy
>>> table = Table(PRESETS["pineapple"], ("ann", "bob"), (RandomPolicy(), RandomPolicy()))
>>> hands = play_session(table, SessionSpec("s1", hands=3), random.Random(7))
>>> [len(h.players[0].streets) for h in hands], [validate(h) for h in hands]
([5, 5, 5], [[], [], []])
>>> [h.button for h in hands]
['ann', 'bob', 'ann']
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime, timedelta, timezone

import numpy as np

from ofc_core.batch import score_batch
from ofc_core.board import Board
from ofc_core.hand import NOTHING_REPORTED, Event, HandRecord, PlayerRecord, StreetPlay
from ofc_core.play.engine import (
    ROW_CARDS,
    CubeView,
    PlayedHand,
    Table,
    card_values,
    play_hand,
)
from ofc_core.records import gc_paused, positional
from ofc_core.rules import ButtonInFl, Ruleset

DEFAULT_START = datetime(2026, 1, 5, 20, 0, tzinfo=timezone(timedelta(hours=1)))


@dataclass(frozen=True)
class SessionSpec:
    """How one session is recorded: ids, clock, stake, and the simulated room's mistakes."""

    session_id: str
    hands: int
    start: datetime = DEFAULT_START
    stake: float | None = None
    currency: str | None = None
    button: int = 0
    """Seat index of the button on the first hand."""
    room_error_rate: float = 0.0
    """Fraction of hands whose ``reported_points`` the simulated room gets wrong (by moving
    1-3 points between two players), so the audit has something to find."""
    source: str = "ofc-sim"
    seconds_per_hand: tuple[int, int] = (30, 90)
    bankroll: float | None = 8
    """Double: each player's chips at the start, in stakes; ``None`` for unlimited."""


def next_button(ruleset: Ruleset, button: int, players: int, anyone_in_fl: bool) -> int:
    """The button moves one seat clockwise, unless it is frozen by a Fantasyland hand.

    >>> from ofc_core.rules import PRESETS
    >>> next_button(PRESETS["pineapple"], 2, 3, anyone_in_fl=False)
    0
    >>> next_button(PRESETS["pineapple"], 2, 3, anyone_in_fl=True)
    2
    """
    if anyone_in_fl and ruleset.button_in_fl is ButtonInFl.FROZEN:
        return button
    return (button + 1) % players


def _reported(points: Sequence[float], rate: float, rng: random.Random) -> list[float]:
    """The room's points: the scorer's, except on a ``rate`` fraction of hands where the room
    moves 1-3 points from one player to another."""
    reported = [_whole(p) for p in points]
    if rate > 0 and rng.random() < rate:
        a, b = rng.sample(range(len(reported)), 2)
        delta = rng.randint(1, 3)
        reported[a] += delta
        reported[b] -= delta
    return reported


def _whole(value: float) -> float:
    """Integral points as ints, so they print as ``6`` rather than ``6.0``."""
    value = float(value)
    return int(value) if value.is_integer() else value


@dataclass
class _Clock:
    now: datetime
    spread: tuple[int, int]

    def tick(self, rng: random.Random) -> str:
        stamp = self.now.isoformat(timespec="seconds")
        self.now += timedelta(seconds=rng.randint(*self.spread))
        return stamp


_PLAYER = positional(PlayerRecord)
_BOARD = positional(Board)
_HAND = positional(HandRecord)


def hand_record(table: Table, spec: SessionSpec, number: int, played: PlayedHand,
            reported: Sequence[float], played_at: str, match_id: str | None = None,
            events: tuple[Event, ...] = ()) -> HandRecord:
    rows = ROW_CARDS
    players = tuple([
        _PLAYER(name, i, _BOARD(rows[top], card_values(middle), card_values(bottom)), streets,
                bool(fl), False, points, None, NOTHING_REPORTED)
        for i, (name, (top, middle, bottom), streets, fl, points) in enumerate(zip(
            table.names, played.rows, played.streets, played.fantasyland, reported,
            strict=True))
    ])
    ruleset = table.ruleset
    return _HAND(spec.source, f"{spec.session_id}-{number:04d}", ruleset.variant.value, players,
                 dict(ruleset.overrides), table.names[played.button], spec.session_id,
                 match_id, played_at, spec.stake, spec.currency, None, events, False, None)


def score_played(table: Table, hands: Sequence[PlayedHand]) -> list[list[float]]:
    """Every hand's points per seat, from the batch scorer (equal to :func:`score_hand` by
    contract), checking that it agrees with the Fantasyland the engine dealt."""
    n = len(table.names)
    cards = np.array([[r[0] + r[1] + r[2] for r in h.rows] for h in hands], np.int64)
    fl_cards = np.array([h.fantasyland for h in hands]).reshape(len(hands), n)
    scores = score_batch(cards.reshape(len(hands), n, 13), table.ruleset,
                         fantasyland=fl_cards.astype(bool),
                         first_to_act=np.array([h.first_to_act for h in hands], np.intp),
                         fl_dealt=fl_cards)
    expected = np.array([h.fantasyland_next for h in hands]).reshape(len(hands), n)
    if not np.array_equal(scores.fantasyland_next[:, :n], expected):
        raise AssertionError("engine and batch scorer disagree on Fantasyland")
    points: list[list[float]] = scores.points[:, :n].tolist()
    return points


Progress = Callable[[int], None]
"""Called with the number of hands played so far in the session (for a progress bar)."""


def play_session(table: Table, spec: SessionSpec, rng: random.Random,
                 progress: Progress | None = None) -> list[HandRecord]:
    """Play ``spec.hands`` hands at one table (or, under a match target, Double matches until
    at least that many hands are played) and return them as records."""
    with gc_paused():
        if table.ruleset.match_target is not None:
            return play_matches(table, spec, rng, progress)
        return _play_hands(table, spec, rng, progress)


def _play_hands(table: Table, spec: SessionSpec, rng: random.Random,
                progress: Progress | None) -> list[HandRecord]:
    n = len(table.names)
    button, fantasyland = spec.button % n, (0,) * n
    hands = []
    for number in range(1, spec.hands + 1):
        played = play_hand(table, button, fantasyland, rng)
        hands.append(played)
        if progress is not None:
            progress(number)
        button = next_button(table.ruleset, button, n, any(fantasyland))
        fantasyland = played.fantasyland_next
    clock = _Clock(spec.start, spec.seconds_per_hand)
    return [hand_record(table, spec, number, played,
                    _reported(points, spec.room_error_rate, rng), clock.tick(rng))
            for number, (played, points) in enumerate(zip(hands, score_played(table, hands),
                                                          strict=True), start=1)]


# --------------------------------------------------------------------------------------------
# OFC Double: matches to a target with a doubling cube


@dataclass
class _Match:
    """Running state of one Double match (private)."""

    names: tuple[str, ...]
    target: int
    scores: list[float] = field(default_factory=lambda: [0.0, 0.0])
    multiplier: int = 1
    last_offer: int | None = None
    """Seat that made the last accepted offer: offers alternate, so it may not offer next."""

    def cube(self, seat: int) -> CubeView:
        return CubeView(self.scores[seat], self.scores[1 - seat], self.target, self.multiplier)

    def winner(self) -> int | None:
        """The player who reached the target with the higher score (a tie plays on)."""
        a, b = self.scores
        if max(a, b) < self.target or a == b:
            return None
        return 0 if a > b else 1


def _cube_action(table: Table, match: _Match, chips: list[float], rng: random.Random,
                 ) -> tuple[list[Event], int | None]:
    """Between hands: at most one doubling offer. Returns the events and, if the offer was
    declined, the seat that wins the match."""
    for seat in (0, 1):
        other = 1 - seat
        doubled = 2 * match.multiplier
        if match.last_offer == seat or chips[seat] < doubled:
            continue
        if not table.policies[seat].offers_double(match.cube(seat), rng):
            continue
        accepted = (chips[other] >= doubled
                    and table.policies[other].accepts_double(match.cube(other), rng))
        event = Event("double", table.names[seat], accepted=accepted,
                      data={"cube": doubled if accepted else match.multiplier})
        if not accepted:
            return [event], seat
        match.multiplier, match.last_offer = doubled, seat
        return [event], None
    return [], None


def _match_end(match: _Match, winner: int, reason: str) -> Event:
    """``by`` the winner, with the final score, the cube (stake multiplier) and the reason
    (``target`` reached, or a double ``declined``)."""
    score = {n: _whole(s) for n, s in zip(match.names, match.scores, strict=True)}
    return Event("match_end", match.names[winner],
                 data={"score": score, "cube": match.multiplier, "reason": reason})


def play_matches(table: Table, spec: SessionSpec, rng: random.Random,
                 progress: Progress | None = None) -> list[HandRecord]:
    """Double: heads-up matches, each hand banking the scorer's (race) points, until a player
    reaches ``ruleset.match_target``. New matches start until ``spec.hands`` hands are played.

    Between hands a player may offer to double the stake (offers alternate: the player whose
    offer was last accepted cannot offer next); declining loses the match at the current
    stake. A player whose chips are below the doubled stake can neither offer nor accept.
    Cube events are recorded on the hand after which they happen; the last hand of a match
    carries ``match_end`` with the final score and the cube multiplier. Fantasyland and the
    button carry over from one match to the next within the session.
    """
    target = table.ruleset.match_target
    if target is None or len(table.names) != 2:
        raise ValueError("Double matches need a match target and two players")
    unlimited = float("inf")
    chips = [spec.bankroll if spec.bankroll is not None else unlimited] * 2
    button = spec.button % 2
    fantasyland: tuple[int, ...] = (0, 0)
    clock = _Clock(spec.start, spec.seconds_per_hand)
    records: list[HandRecord] = []
    number, match_no = 0, 0
    while number < spec.hands:
        match_no += 1
        match_id = f"{spec.session_id}-m{match_no:02d}"
        match = _Match(table.names, target)
        winner: int | None = None
        while winner is None:
            number += 1
            played = play_hand(table, button, fantasyland, rng, score=True)
            if progress is not None:
                progress(number)
            assert played.result is not None
            for seat, p in enumerate(played.result.players):
                match.scores[seat] += p.points
            winner = match.winner()
            events: list[Event] = []
            reason = "target"
            if winner is None:
                events, winner = _cube_action(table, match, chips, rng)
                reason = "declined"
            if winner is not None:
                events.append(_match_end(match, winner, reason))
                chips[winner] += match.multiplier
                chips[1 - winner] -= match.multiplier
            reported = _reported([p.points for p in played.result.players],
                                 spec.room_error_rate, rng)
            records.append(hand_record(table, spec, number, played, reported, clock.tick(rng),
                                   match_id=match_id, events=tuple(events)))
            button = next_button(table.ruleset, button, 2, any(fantasyland))
            fantasyland = played.fantasyland_next
        clock.now += timedelta(seconds=rng.randint(20, 120))
    return records


# --------------------------------------------------------------------------------------------
# A room's view of the hands


def hero_view(record: HandRecord, hero: str) -> HandRecord:
    """The hand as ``hero``'s room logs it: the hero's dealt cards and discards are shown;
    opponents' dealt cards and discards are hidden (``None``), and an opponent's Fantasyland
    hand is shown only as placed at showdown (one street, 13 cards).

    >>> import random
    >>> from ofc_core.rules import PRESETS
    >>> from ofc_core.play.random_bot import RandomPolicy
    >>> t = Table(PRESETS["pineapple"], ("ann", "bob"), (RandomPolicy(), RandomPolicy()))
    >>> h = hero_view(play_session(t, SessionSpec("s", hands=1), random.Random(1))[0], "ann")
    >>> h.hero, h.players[0].streets[1].discard is None, h.players[1].streets[1].discard is None
    ('ann', False, True)
    """
    players = []
    for p in record.players:
        if p.name != hero and p.streets is not None:
            if p.fantasyland:
                b = p.board
                streets: tuple[StreetPlay, ...] = (StreetPlay(b.top, b.middle, b.bottom),)
            else:
                streets = tuple(replace(s, dealt=None, discard=None) for s in p.streets)
            p = replace(p, streets=streets)
        players.append(p)
    return replace(record, players=tuple(players), hero=hero)
