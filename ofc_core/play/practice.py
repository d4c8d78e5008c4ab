"""A practice table: one person plays against the bots, one decision at a time.

The engine (:func:`ofc_core.play.engine.play_hand`) asks each seat's policy for its placement
and waits for the answer; a person answers later, from a browser. So a practice hand is
played again from its seed each time the person has decided one more street: the person's
seat is a :class:`Person` holding the placements decided so far, and when the engine asks it
for one more it raises :class:`YourTurn` with what the person sees (the engine's
:class:`~ofc_core.play.engine.View`). The bots draw from the same seeded ``random.Random`` in
the same order every time, so the hand replays exactly and the next street deals the same
cards. When the person has decided every street, :func:`play_on` returns the played hand.

A session moves the button and carries Fantasyland from hand to hand by the engine's own
rules (:func:`ofc_core.play.sessions.next_button`, ``PlayedHand.fantasyland_next``): see
:class:`Seating`. A finished hand becomes a hand record as a room logs it for the person
(:func:`practice_record`: opponents' dealt cards and discards hidden), scored by the batch
scorer.

Double (a match target and its cube) is not played here: a preset with a match target is
refused (:func:`check_table`).

>>> from ofc_core.rules import PRESETS
>>> from ofc_core.play.policies import policy
>>> table = practice_table(PRESETS["pineapple"], "me", ["careful"])
>>> seat = Seating(button=1, fantasyland=(0, 0))
>>> turn = play_on(table, seat, seed=5, decided=())
>>> isinstance(turn, YourTurn), len(turn.view.dealt), turn.view.place
(True, 5, 5)
>>> first = Placement(bottom=turn.view.dealt)  # five cards on the bottom
>>> again = play_on(table, seat, seed=5, decided=(first,))
>>> isinstance(again, YourTurn), again.view.board[2] == first.bottom, again.view.street
(True, True, 1)
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from ofc_core.hand import HandRecord
from ofc_core.play.engine import CubeView, Placement, PlayedHand, Table, View, play_hand
from ofc_core.play.policies import POLICIES, policy
from ofc_core.play.sessions import SessionSpec, hand_record, hero_view, next_button, score_played
from ofc_core.rules import Ruleset

PRACTICE_ROOM = "practice"
"""The source (room) of every practice hand."""

BOTS = ("strong", "careful", "chaser")
"""The bots a person can practise against (``random`` is no opponent)."""


class YourTurn(Exception):
    """The person must decide: ``view`` is what they see (their board, the cards dealt, the
    opponents' visible rows, how many cards to place)."""

    def __init__(self, view: View) -> None:
        super().__init__("the person's turn")
        self.view = view


class Person:
    """The person's seat as a policy: it answers with the placements decided so far, in
    order, and raises :class:`YourTurn` when asked for one more. It never draws from the rng,
    so the bots' draws are the same on every replay."""

    name = "person"

    def __init__(self, decided: Sequence[Placement]) -> None:
        self.decided = tuple(decided)
        self.asked = 0

    def place(self, view: View, rng: random.Random) -> Placement:
        if self.asked >= len(self.decided):
            raise YourTurn(view)
        answer = self.decided[self.asked]
        self.asked += 1
        return answer

    def offers_double(self, cube: CubeView, rng: random.Random) -> bool:
        return False

    def accepts_double(self, cube: CubeView, rng: random.Random) -> bool:
        return True


def check_table(ruleset: Ruleset, bots: Sequence[str]) -> str | None:
    """Why this table cannot be played here (``None``: it can).

    >>> from ofc_core.rules import PRESETS
    >>> check_table(PRESETS["double"], ["strong"])
    'double is played as matches with a doubling cube, which the practice table does not deal'
    >>> check_table(PRESETS["pineapple"], ["strong", "careful", "chaser"])
    'pineapple is played by 2-3 players; you and 3 bots make 4'
    >>> check_table(PRESETS["regular"], ["bold"])
    "unknown bot 'bold' (one of strong, careful, chaser)"
    """
    if ruleset.match_target is not None:
        return (f"{ruleset.variant.value} is played as matches with a doubling cube, which the "
                "practice table does not deal")
    unknown = [b for b in bots if b not in BOTS or b not in POLICIES]
    if unknown:
        return f"unknown bot {unknown[0]!r} (one of {', '.join(BOTS)})"
    players = len(bots) + 1
    if not ruleset.min_players <= players <= ruleset.max_players:
        return (f"{ruleset.variant.value} is played by {ruleset.player_range} players; you and "
                f"{len(bots)} bot{'s' * (len(bots) != 1)} make {players}")
    return None


def bot_names(bots: Sequence[str]) -> tuple[str, ...]:
    """The bots' seat names: their policy's name, numbered when two are the same.

    >>> bot_names(["strong", "strong"]), bot_names(["careful", "chaser"])
    (('strong 1', 'strong 2'), ('careful', 'chaser'))
    """
    names = []
    for i, bot in enumerate(bots):
        names.append(f"{bot} {bots[:i].count(bot) + 1}" if bots.count(bot) > 1 else bot)
    return tuple(names)


def practice_table(ruleset: Ruleset, person: str, bots: Sequence[str],
                   decided: Sequence[Placement] = ()) -> Table:
    """The person in seat 0, the bots after them clockwise; ``ValueError`` with
    :func:`check_table`'s words when the table cannot be played."""
    problem = check_table(ruleset, bots)
    if problem is not None:
        raise ValueError(problem)
    names = (person, *bot_names(bots))
    if len(set(names)) != len(names):
        raise ValueError(f"your name {person!r} is a bot's; choose another")
    return Table(ruleset, names, (Person(decided), *(policy(b) for b in bots)))


@dataclass(frozen=True)
class Seating:
    """Where a hand of a session starts: the button's seat and each seat's Fantasyland cards
    (0: a normal hand)."""

    button: int
    fantasyland: tuple[int, ...]

    def after(self, ruleset: Ruleset, played: PlayedHand) -> Seating:
        """The next hand's: the button moved (or frozen by a Fantasyland hand, as the ruleset
        says) and Fantasyland from the scorer's result."""
        players = len(self.fantasyland)
        button = next_button(ruleset, self.button, players, any(self.fantasyland))
        return Seating(button, played.fantasyland_next)


def play_on(table: Table, seating: Seating, seed: int,
            decided: Sequence[Placement]) -> YourTurn | PlayedHand:
    """Play the hand dealt by ``seed`` with the person's ``decided`` placements: the person's
    next turn, or the finished hand. A decided placement the rules refuse raises
    :class:`~ofc_core.play.engine.IllegalMove` (the board checks each before it is decided)."""
    seats = (Person(decided), *table.policies[1:])
    live = Table(table.ruleset, table.names, seats)
    try:
        return play_hand(live, seating.button, seating.fantasyland, random.Random(seed))
    except YourTurn as turn:
        return turn


def practice_record(table: Table, played: PlayedHand, session_id: str, number: int,
                    played_at: str) -> HandRecord:
    """The finished hand as the practice room logs it for the person (seat 0): the batch
    scorer's points as the room's, the opponents' dealt cards and discards hidden; hand id
    ``<session_id>-<number>``, source :data:`PRACTICE_ROOM`."""
    spec = SessionSpec(session_id, hands=1, source=PRACTICE_ROOM)
    points = score_played(table, [played])[0]
    reported = [int(p) if float(p).is_integer() else p for p in points]
    record = hand_record(table, spec, number, played, reported, played_at)
    return hero_view(record, table.names[0])


def entry_cards(ruleset: Ruleset) -> int:
    """The cards a player is dealt on entering Fantasyland at this table (for a hand started
    in Fantasyland, to practise the set).

    >>> from ofc_core.rules import PRESETS
    >>> entry_cards(PRESETS["regular"]), entry_cards(PRESETS["pineapple"])
    (13, 14)
    """
    return ruleset.fl_cards.entry[0][1]
