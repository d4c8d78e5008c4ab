"""A played hand as recorded in a log: who sat where, what each placed street by street.

Parsers turn files into :class:`HandRecord` values; the simulator writes them; the store keeps
them. :func:`validate` checks a record against its ruleset and returns every problem as a
message a user can act on (an empty list means the hand is valid).

>>> rec = HandRecord(source="home", hand_id="1", variant="regular", players=(
...     PlayerRecord("ann", 0, Board.parse("Qh Qd 2c", "Ks Kd 9s 5h 3c", "Jh Jd Jc 4s 4d")),
...     PlayerRecord("bob", 1, Board.parse("Ah Kc 3d", "As Ad 8h 7c 2h", "Qc Tc 8c 6c 5c"))))
>>> validate(rec)
[]
>>> validate(HandRecord(source="home", hand_id="2", variant="regular", players=(
...     PlayerRecord("ann", 0, Board.parse("Qh Qd", "Ks Kd 9s 5h 3c", "Jh Jd Jc 4s 4d")),)))
['1 player: regular needs 2-4', 'ann: top has 2 cards, needs 3']
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from ofc_core.board import ROWS, Board
from ofc_core.cards import JOKERS, BoardCard, Joker, format_cards
from ofc_core.rules import Ruleset, resolve
from ofc_core.scoring import Seat
from ofc_core.tournament import TournamentHand, hand_problems


@dataclass(frozen=True, slots=True)
class StreetPlay:
    """One street of one player: cards dealt, placed per row, discarded.

    ``dealt`` and ``discard`` are ``None`` where the log hides them (an opponent's discard, or a
    Fantasyland hand seen from across the table).
    """

    top: tuple[BoardCard, ...] = ()
    middle: tuple[BoardCard, ...] = ()
    bottom: tuple[BoardCard, ...] = ()
    dealt: tuple[BoardCard, ...] | None = None
    discard: tuple[BoardCard, ...] | None = None

    @property
    def placed(self) -> tuple[BoardCard, ...]:
        return self.top + self.middle + self.bottom


def board_from_streets(streets: tuple[StreetPlay, ...]) -> Board:
    """The final board is the union of the streets, in the order the cards were placed."""
    return Board(
        tuple(c for s in streets for c in s.top),
        tuple(c for s in streets for c in s.middle),
        tuple(c for s in streets for c in s.bottom),
    )


@dataclass(frozen=True, slots=True)
class Reported:
    """What a log says of a player's result beyond the settled points (``reported_points``),
    for the audit against ours; ``None`` where the log is silent.

    The pineapple app, for instance, writes the uncapped score, the foul ("busted"), the
    royalties and the Fantasyland entry or stay with its card count:
    ``Reported(raw_points=63, fouled=False, royalties=57, fantasyland_next=17)``.
    """

    raw_points: float | None = None
    """The result before table stakes limited it."""
    fouled: bool | None = None
    royalties: int | None = None
    """The player's royalties over the three rows."""
    fantasyland_next: int | None = None
    """Fantasyland cards earned for the next hand (entry or stay); 0: none."""


NOTHING_REPORTED = Reported()


@dataclass(frozen=True, slots=True)
class PlayerRecord:
    name: str
    seat: int
    board: Board
    streets: tuple[StreetPlay, ...] | None = None
    """Street-by-street detail, ``None`` when the log gives only the final board."""
    fantasyland: bool = False
    surrendered: bool = False
    reported_points: float | None = None
    """The result the room itself recorded (what changed hands), for the audit against ours."""
    stack: float | None = None
    """Points the player brought to the hand (chips / stake), when the log gives them: under
    table stakes no player loses more, nor wins more (:mod:`ofc_core.settlement`)."""
    reported: Reported = NOTHING_REPORTED
    """The rest of the room's own result, for the audit."""

    @property
    def fl_dealt(self) -> int:
        """Cards dealt in this player's Fantasyland hand, 0 if not in FL or not shown."""
        if not self.fantasyland or not self.streets or self.streets[0].dealt is None:
            return 0
        return len(self.streets[0].dealt)


@dataclass(frozen=True, slots=True)
class Event:
    """A match event, e.g. a doubling offer: ``Event('double', 'ann', accepted=True)``."""

    type: str
    by: str
    accepted: bool | None = None
    data: Mapping[str, Any] = field(default_factory=lambda: MappingProxyType({}))


@dataclass(frozen=True, slots=True)
class HandRecord:
    source: str
    hand_id: str
    variant: str
    players: tuple[PlayerRecord, ...]
    rules: Mapping[str, Any] = field(default_factory=lambda: MappingProxyType({}))
    """Per-hand overrides of the preset, by ofc-hh/1 key."""
    button: str | None = None
    session_id: str | None = None
    match_id: str | None = None
    played_at: str | None = None
    """ISO 8601 with offset."""
    stake: float | None = None
    currency: str | None = None
    hero: str | None = None
    events: tuple[Event, ...] = ()
    variant_assumed: bool = False
    """The log does not name the variant and its reader assumed it (FPDB's database keeps
    only 'ofcp'): another log of the same hand that names it is the better copy."""
    tournament: TournamentHand | None = None
    """The tournament the hand is played in (``None``: a cash hand); a chip tournament's
    players' ``stack`` are then their chips in points (chips / ``chips_per_point``)."""

    @property
    def ruleset(self) -> Ruleset:
        return resolve(self.variant, self.rules)

    @property
    def first_to_act(self) -> int:
        """Index (in ``players``) of the player left of the button; 0 without a button."""
        names = [p.name for p in self.players]
        if self.button not in names:
            return 0
        return (names.index(self.button) + 1) % len(names)

    def seats(self) -> list[Seat]:
        return [Seat(p.name, p.board, p.fantasyland, p.surrendered, p.fl_dealt)
                for p in self.players]


def _check_streets(player: PlayerRecord, ruleset: Ruleset) -> list[str]:
    streets = player.streets or ()
    errors: list[str] = []
    if player.fantasyland:
        most = ruleset.fl_cards.most
        if len(streets) != 1:
            return [f"{player.name}: a Fantasyland hand is set in one street, got {len(streets)}"]
        s = streets[0]
        if s.dealt is not None and not 13 <= len(s.dealt) <= most:
            errors.append(f"{player.name}: Fantasyland deals 13-{most} cards in "
                          f"{ruleset.variant}, got {len(s.dealt)}")
        expected: list[tuple[int | None, int, int | None]] = [(None, 13, None)]
    else:
        plan = ruleset.dealing.streets
        if len(streets) > len(plan) or (not player.surrendered and len(streets) != len(plan)):
            return [f"{player.name}: {ruleset.variant} has {len(plan)} streets, got {len(streets)}"]
        expected = [(st.dealt, st.placed, st.discarded) for st in plan]
    pairs = zip(streets, expected, strict=False)  # a surrendered player may stop early
    for n, (s, (dealt, placed, discarded)) in enumerate(pairs, start=1):
        where = f"{player.name}, street {n}"
        if len(s.placed) != placed:
            what = f"{dealt} dealt, {placed} placed" if dealt else f"{placed} placed"
            errors.append(f"{where}: places {_count(len(s.placed))}, {ruleset.variant} wants "
                          f"{what}")
        if s.dealt is not None:
            if dealt is not None and len(s.dealt) != dealt:
                errors.append(f"{where}: {len(s.dealt)} cards dealt, "
                              f"{ruleset.variant} deals {dealt}")
            stray = set(s.placed) - set(s.dealt)
            if stray:
                errors.append(f"{where}: placed {format_cards(sorted(stray))} not dealt")
        if s.discard is not None:
            if discarded is not None and len(s.discard) != discarded:
                errors.append(f"{where}: discards {len(s.discard)}, {ruleset.variant} discards "
                              f"{discarded}")
            if s.dealt is not None and set(s.discard) - set(s.dealt):
                errors.append(f"{where}: discards a card that was not dealt")
            if set(s.discard) & set(s.placed):
                errors.append(f"{where}: a card is both placed and discarded")
    return errors


def _count(n: int) -> str:
    """``_count(1) == '1 card'``, ``_count(2) == '2 cards'``."""
    return f"{n} card{'s' * (n != 1)}"


def _cards_seen(player: PlayerRecord) -> list[BoardCard]:
    """Every distinct card a player's record shows (board, dealt, discards)."""
    seen = set(player.board.cards)
    for s in player.streets or ():
        seen.update(s.dealt or ())
        seen.update(s.discard or ())
    return list(seen)


def _check_jokers(player: PlayerRecord, ruleset: Ruleset) -> list[str]:
    """Jokers beyond the table's count (X2 at a one-joker table) are unknown cards."""
    extra = sorted({c for c in _cards_seen(player)
                    if isinstance(c, Joker) and c.number > ruleset.jokers})
    if not extra:
        return []
    plays = ("no jokers" if not ruleset.jokers else
             f"{ruleset.jokers} joker{'s' * (ruleset.jokers > 1)}: "
             + ", ".join(str(j) for j in JOKERS[:ruleset.jokers]))
    return [f"{player.name}: unknown card{'s' * (len(extra) > 1)} {format_cards(extra)} "
            f"(this table plays {plays})"]


def validate(record: HandRecord) -> list[str]:
    """Every reason this hand cannot be scored as recorded; ``[]`` if it is valid."""
    try:
        ruleset = record.ruleset
    except ValueError as exc:
        return [str(exc)]
    errors: list[str] = []
    count = len(record.players)
    if not ruleset.min_players <= count <= ruleset.max_players:
        errors.append(f"{count} player{'s' * (count != 1)}: {ruleset.variant} needs "
                      f"{ruleset.player_range}")
    names = Counter(p.name for p in record.players)
    errors += [f"player name {n!r} appears {k} times" for n, k in names.items() if k > 1]
    if record.button is not None and record.button not in names:
        errors.append(f"button {record.button!r} is not one of the players")
    if record.hero is not None and record.hero not in names:
        errors.append(f"hero {record.hero!r} is not one of the players")
    for p in record.players:
        errors += _check_jokers(p, ruleset)
        if not p.surrendered:
            errors += [f"{p.name}: {row} has {len(p.board.row(row))} cards, needs {row.size}"
                       for row in ROWS if len(p.board.row(row)) != row.size]
        if p.streets is not None:
            errors += _check_streets(p, ruleset)
    everyone = Counter(c for p in record.players for c in _cards_seen(p))
    twice = sorted(c for c, k in everyone.items() if k > 1)
    own = [c for p in record.players for c, k in Counter(p.board.cards).items() if k > 1]
    repeated = sorted(set(twice + own))
    if repeated:
        verb = "appears" if len(repeated) == 1 else "appear"
        errors.append(f"card{'s' * (len(repeated) > 1)} {format_cards(repeated)} {verb} more "
                      "than once in the hand")
    if record.tournament is not None:
        errors += hand_problems(record.tournament, record.stake, ruleset.scoring.value,
                                [p.stack for p in record.players],
                                sum(e.type == "double"
                                    for e in record.events))
    return errors
