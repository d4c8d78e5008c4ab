"""The play engine: deals and plays complete OFC hands by the rules.

Pure: no I/O, no clock. All randomness comes from the ``random.Random`` passed in, so the same
seed gives the same hands. Every rule difference is read from the :class:`Ruleset`:

- streets from ``ruleset.dealing.streets`` (regular 5 then 1x8, turbo 5-4-4, pineapple 5 then
  4 streets of 3: place 2, discard 1);
- dealing and acting go clockwise from the player left of the button;
- a Fantasyland player is dealt ``fantasyland_next`` cards (from the scorer's result for the
  previous hand), sets 13 of them at once and discards the rest; several players may be in
  Fantasyland in one hand;
- the button moves one seat after each hand, except after a hand in which someone played
  Fantasyland when ``ruleset.button_in_fl`` is ``frozen``;
- with ``ruleset.match_target`` (OFC Double), hands bank points under race scoring until a
  player reaches the target; the doubling cube is offered between hands.

Inside the engine a card is its integer index 0..51 (``Card.index``; the jokers of a joker
table are 52 and 53); records hold ``Card`` values.

Jokers (``ruleset.jokers``): the deck has 52 + jokers cards. The bots play a joker simply: a
policy never sees one, but a stand-in, the same for every seat and street of the hand: the
highest real card nobody is dealt that hand (X1 the highest, X2 the next); the engine places
the joker where the policy put its stand-in. The scorer then resolves the joker by the table's
rule. A joker table and a 2-7 table are scored hand by hand by :func:`score_hand` (their
Fantasyland depends on the resolved rows).

Results, fouls and Fantasyland come from the scorer: :func:`ofc_core.scoring.score_hand` hand by
hand where the next hand depends on it (Fantasyland, Double), and
:func:`ofc_core.batch.score_batch` (equal by contract) for a whole session's points.

This module plays one hand (:func:`play_hand`); sessions, Double matches and the hand records
they become are :mod:`ofc_core.play.sessions`.

>>> import random
>>> from ofc_core.rules import PRESETS
>>> from ofc_core.play.random_bot import RandomPolicy
>>> table = Table(PRESETS["pineapple"], ("ann", "bob"), (RandomPolicy(), RandomPolicy()))
>>> hand = play_hand(table, 0, (0, 0), random.Random(7))
>>> [len(s) for s in hand.streets], hand.first_to_act, [hand.board(i).is_complete for i in (0, 1)]
([5, 5], 1, [True, True])
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import starmap
from typing import NamedTuple, Protocol

from ofc_core.board import Board, is_foul
from ofc_core.cards import DECK, JOKERS, BoardCard
from ofc_core.evaluate import Strength
from ofc_core.hand import StreetPlay
from ofc_core.records import positional
from ofc_core.row_tables import RANK_KEYS, row_tables
from ofc_core.rules import MiddleKind, Ruleset
from ofc_core.scoring import HandResult, Seat, score_hand

Cards = tuple[int, ...]
Rows = tuple[Cards, Cards, Cards]


class IllegalMove(ValueError):
    """A policy returned a placement the rules do not allow."""


class Placement(NamedTuple):
    """What a player does with the cards dealt on one street (card indexes). An immutable
    named tuple: the engine makes one per decision, so it must be cheap."""

    top: Cards = ()
    middle: Cards = ()
    bottom: Cards = ()
    discard: Cards = ()

    @property
    def rows(self) -> Rows:
        return (self.top, self.middle, self.bottom)


class View(NamedTuple):
    """What a player sees when it must act: its own board, the cards just dealt, the boards
    its opponents have placed so far (clockwise from its left; a Fantasyland opponent's board
    stays hidden until showdown, so it shows as empty), and the ruleset. An immutable named
    tuple, cheap to make for every decision."""

    ruleset: Ruleset
    street: int
    """0-based street of this hand (0 for a Fantasyland hand, set in one street)."""
    last_street: int
    dealt: Cards
    place: int
    """How many of the dealt cards go on the board; the rest are discarded."""
    board: Rows
    opponents: tuple[Rows, ...]
    fantasyland: bool = False

    @property
    def free(self) -> tuple[int, int, int]:
        """Empty slots per row."""
        t, m, b = self.board
        return (3 - len(t), 5 - len(m), 5 - len(b))


@dataclass(frozen=True, slots=True)
class CubeView:
    """A Double match between hands, from one player's side."""

    score: float
    opponent_score: float
    target: int
    multiplier: int


class Policy(Protocol):
    """A player's decisions. ``place`` must return a legal :class:`Placement` for ``view``."""

    @property
    def name(self) -> str: ...

    def place(self, view: View, rng: random.Random) -> Placement: ...

    def offers_double(self, cube: CubeView, rng: random.Random) -> bool: ...

    def accepts_double(self, cube: CubeView, rng: random.Random) -> bool: ...


def check_placement(view: View, placement: Placement) -> None:
    """Raise :class:`IllegalMove` unless ``placement`` uses exactly the dealt cards, places
    ``view.place`` of them, and overfills no row.

    >>> from ofc_core.rules import PRESETS
    >>> v = View(PRESETS["pineapple"], 1, 4, (0, 1, 2), 2, ((), (), ()), ())
    >>> check_placement(v, Placement(top=(0, 1), discard=(2,)))
    >>> check_placement(v, Placement(top=(0,), discard=(1, 2)))
    Traceback (most recent call last):
    ...
    ofc_core.play.engine.IllegalMove: street 2: placed 1 cards and discarded 2, must place 2
    """
    top, middle, bottom, discard = placement
    street, dealt, place, board = view.street, view.dealt, view.place, view.board
    placed = len(top) + len(middle) + len(bottom)
    if placed != place or placed + len(discard) != len(dealt):
        raise IllegalMove(f"street {street + 1}: placed {placed} cards and discarded "
                          f"{len(discard)}, must place {place}")
    if sorted(top + middle + bottom + discard) != sorted(dealt):
        raise IllegalMove(f"street {street + 1}: uses cards that were not dealt")
    have_top, have_middle, have_bottom = board
    if len(have_top) + len(top) > 3 or len(have_middle) + len(middle) > 5 or \
            len(have_bottom) + len(bottom) > 5:
        size = 3 if len(have_top) + len(top) > 3 else 5
        raise IllegalMove(f"street {view.street + 1}: a row of {size} cards takes no more")


@dataclass(frozen=True)
class Table:
    """Who plays, in seat order (clockwise), with which policy, under which rules."""

    ruleset: Ruleset
    names: tuple[str, ...]
    policies: tuple[Policy, ...]

    def __post_init__(self) -> None:
        r = self.ruleset
        if not r.min_players <= len(self.names) <= r.max_players:
            raise ValueError(f"{r.variant} is played by {r.player_range} players,"
                             f" got {len(self.names)}")
        if len(set(self.names)) != len(self.names):
            raise ValueError(f"player names must differ, got {', '.join(self.names)}")
        if len(self.policies) != len(self.names):
            raise ValueError(f"{len(self.names)} players need {len(self.names)} policies")


@dataclass(frozen=True, slots=True)
class PlayedHand:
    """One hand as the engine played it (card indexes), before it becomes a record.

    ``fantasyland[i]`` is the number of cards seat ``i`` was dealt in Fantasyland (0: a normal
    hand); ``fantasyland_next`` the same for the next hand, from the scorer's result; ``result``
    is that result when the engine needed it (always under a match target).
    """

    button: int
    first_to_act: int
    fantasyland: tuple[int, ...]
    rows: tuple[Rows, ...]
    streets: tuple[tuple[StreetPlay, ...], ...]
    """Per seat, each street as its record holds it (card values), made as it is played."""
    fantasyland_next: tuple[int, ...]
    result: HandResult | None = None

    def board(self, seat: int) -> Board:
        return Board(*(card_values(r) for r in self.rows[seat]))


_PLAYED = positional(PlayedHand)
_DECK_ORDER = range(52)
_NO_ARGUMENTS = ((),) * 52


def _shuffled(rng: random.Random, jokers: int = 0) -> Cards:
    """The 52 card indexes (and the jokers' 52, 53) in a random order drawn from ``rng`` (a sort
    on random keys: the same seed gives the same deck). Cards are dealt from its end."""
    if jokers:
        size = 52 + jokers
        keys = [rng.random() for _ in range(size)]
        return tuple(sorted(range(size), key=keys.__getitem__))
    keys = list(starmap(rng.random, _NO_ARGUMENTS))  # 52 draws, called from C
    return tuple(sorted(_DECK_ORDER, key=keys.__getitem__))


_CARD = (DECK + JOKERS).__getitem__
_STREET = positional(StreetPlay)


def card_values(indexes: Cards) -> tuple[BoardCard, ...]:
    """Card values of card indexes."""
    return tuple(map(_CARD, indexes))


class _CardTuples(dict[Cards, tuple[BoardCard, ...]]):
    """Card values of card-index tuples: looked up for the tuples of up to two cards (what a
    pineapple street places in a row or discards); a tuple of three (a finished top, three
    cards a first street puts in one row) is converted once and remembered (at most 132,600
    of them), longer ones are converted each time. (A street's dealt cards are sliced from
    the deck's card values instead.)"""

    def __missing__(self, indexes: Cards) -> tuple[BoardCard, ...]:
        cards = tuple(map(_CARD, indexes))
        if len(indexes) == 3:
            self[indexes] = cards
        return cards


ROW_CARDS = _CardTuples({(): ()})
ROW_CARDS.update({(a,): (DECK[a],) for a in range(52)})
ROW_CARDS.update({(a, b): (DECK[a], DECK[b]) for a in range(52) for b in range(52) if a != b})


_STRENGTHS: dict[int, Strength] = {}
_KEY = tuple(RANK_KEYS[c >> 2] for c in range(52))
"""The batch scorer's additive rank key of each card: a row's key sum identifies its ranks."""
_TOP_KEY = 1 << 24
"""Added to a top's key sum (3 cards) so it never meets a 5-card row's."""


def row_strength(cards: Cards) -> Strength:
    """The evaluator's strength of a complete row of card indexes, remembered: a row's strength
    depends only on its ranks (identified by the sum of their ``RANK_KEYS``) and on whether it
    is a flush (fewer than 13,000 keys); a key not seen yet is read from the batch scorer's
    tables.

    >>> from ofc_core.cards import parse_cards
    >>> from ofc_core.evaluate import evaluate
    >>> row_strength(tuple(c.index for c in parse_cards("Qh Qd 2c"))) == evaluate(
    ...     parse_cards("Qs Qc 2h"))
    True
    """
    if len(cards) == 5:
        a, b, c, d, e = cards
        key = _KEY[a] + _KEY[b] + _KEY[c] + _KEY[d] + _KEY[e]
        if a & 3 == b & 3 == c & 3 == d & 3 == e & 3:
            key = -1 - key
    else:
        a, b, c = cards
        key = _TOP_KEY + _KEY[a] + _KEY[b] + _KEY[c]
    strength = _STRENGTHS.get(key)
    if strength is None:
        strength = _STRENGTHS[key] = _table_strength(key)
    return strength


def _table_strength(key: int) -> Strength:
    """The strength of a row's key (as :func:`row_strength` forms it) from the batch scorer's
    lookup tables (equal to the evaluator's by the batch scorer's contract)."""
    tables = row_tables()
    if key < 0:
        return Strength(int(tables.flush[-1 - key]))
    if key >= _TOP_KEY:
        return Strength(int(tables.top[key - _TOP_KEY]))
    return Strength(int(tables.five[key]))


def _seat_fantasyland_next(ruleset: Ruleset, rows: Rows, fl_cards: int) -> int:
    """Cards this seat gets in Fantasyland next hand (``fl_cards``: the cards of its Fantasyland
    hand now, 0 if none): the ruleset's rule on the rows' strengths, foul and royalties (what
    :func:`score_hand` reports as ``fantasyland_next``)."""
    strengths = (row_strength(rows[0]), row_strength(rows[1]), row_strength(rows[2]))
    fouled = bool(is_foul(*strengths))
    royalties = (0, 0, 0) if fouled else ruleset.row_royalties(strengths)
    return ruleset.fantasyland_cards(fouled, bool(fl_cards), strengths[0], strengths, royalties,
                                     fl_cards)


def _needs_scorer(ruleset: Ruleset) -> bool:
    """Jokers and 2-7 middles are read by the scorer only (resolution, the low middle)."""
    return bool(ruleset.jokers) or ruleset.middle is not MiddleKind.HIGH


def fantasyland_next(table: Table, button: int, fantasyland: Sequence[int],
                     rows: Sequence[Rows], force_score: bool = False,
                     ) -> tuple[tuple[int, ...], HandResult | None]:
    """Cards each seat gets in Fantasyland next hand, as :func:`score_hand` reports it.

    With ``force_score`` (Double, which banks the points) the scorer's result is computed and
    returned. Otherwise only the seats that played Fantasyland or whose top reaches the entry
    (``ruleset.entry_cards``) are looked at, by the ruleset's Fantasyland rule on their
    strengths, foul and royalties (a foul only takes Fantasyland away, so every other seat
    gets 0); the batch scorer re-checks every hand of the session afterwards.
    """
    ruleset = table.ruleset
    if not force_score and not _needs_scorer(ruleset):
        for_entry = ruleset.entry_cards
        return tuple([
            _seat_fantasyland_next(ruleset, r, fl)
            if fl or for_entry(row_strength(r[0])) else 0
            for r, fl in zip(rows, fantasyland, strict=True)]), None
    seats = [Seat(name, Board(*(card_values(r) for r in seat_rows)), bool(fl), fl_dealt=fl)
             for name, seat_rows, fl in zip(table.names, rows, fantasyland, strict=True)]
    result = score_hand(seats, ruleset, (button + 1) % len(rows))
    return tuple(p.fantasyland_next for p in result.players), result


_CLOCKWISE: dict[tuple[int, int], tuple[tuple[int, ...], tuple[tuple[int, ...], ...]]] = {}


def _clockwise(players: int, button: int) -> tuple[tuple[int, ...], tuple[tuple[int, ...], ...]]:
    """The order of play, clockwise from the player left of the button, and each seat's
    opponents, clockwise from its left (remembered: a table has few such tuples).

    >>> _clockwise(3, 0)
    ((1, 2, 0), ((1, 2), (2, 0), (0, 1)))
    """
    known = _CLOCKWISE.get((players, button))
    if known is None:
        order = tuple((button + 1 + k) % players for k in range(players))
        opponents = tuple(tuple((seat + 1 + k) % players for k in range(players - 1))
                          for seat in range(players))
        known = _CLOCKWISE[players, button] = (order, opponents)
    return known


def play_hand(table: Table, button: int, fantasyland: Sequence[int],
              rng: random.Random, *, score: bool = False) -> PlayedHand:
    """Deal and play one hand. ``fantasyland[i]`` is the number of cards seat ``i`` gets in
    Fantasyland (0: a normal hand). With ``score`` the scorer's result is always kept."""
    ruleset, policies, n = table.ruleset, table.policies, len(table.names)
    order, opponents = _clockwise(n, button)
    deck = _shuffled(rng, ruleset.jokers)
    end = len(deck)  # dealt from the end: deck[end - count:end]
    if ruleset.jokers:
        policies = _with_stand_ins(policies, deck, ruleset, fantasyland)
    deck_cards = tuple(map(_CARD, deck))  # the same as card values, for the street records
    empty: Rows = ((), (), ())
    rows: list[Rows] = [empty] * n
    streets: list[list[StreetPlay]] = [[] for _ in range(n)]
    new_view = tuple.__new__  # View's fields in order, without its keyword defaults
    street_play, card_tuple = _STREET, ROW_CARDS
    for i in order:  # Fantasyland hands are set first, all 13 cards at once
        count = fantasyland[i]
        if count:
            view = View(ruleset, 0, 0, deck[end - count:end], 13, empty, (), True)
            placement = policies[i].place(view, rng)
            check_placement(view, placement)
            rows[i] = (placement.top, placement.middle, placement.bottom)
            streets[i].append(_street_play(deck_cards[end - count:end], placement))
            end -= count
    # Opponents clockwise from each player's left; a Fantasyland board stays hidden.
    seen = [(i, policies[i].place, streets[i].append, opponents[i])
            for i in order if not fantasyland[i]]
    hidden = any(fantasyland)
    row_of = rows.__getitem__
    plan = ruleset.dealing.streets
    last = len(plan) - 1
    for k, street in enumerate(plan):
        dealt, placed = street.dealt, street.placed
        for i, place, record, others_of in seen:
            others = tuple([rows[j] if not fantasyland[j] else empty for j in others_of]
                           ) if hidden else tuple(map(row_of, others_of))
            cards = deck[end - dealt:end]
            board = rows[i]
            view = new_view(View, (ruleset, k, last, cards, placed, board, others, False))
            placement = place(view, rng)
            top, middle, bottom, discard = placement
            t, m, b = board
            t, m, b = t + top, m + middle, b + bottom
            # check_placement's tests inline (the dealt cards are distinct, so equal sorted
            # cards also mean the right number discarded); it runs only to raise its message
            if len(t) > 3 or len(m) > 5 or len(b) > 5 or \
                    len(top) + len(middle) + len(bottom) != placed or \
                    sorted(top + middle + bottom + discard) != sorted(cards):
                check_placement(view, placement)
            rows[i] = (t, m, b)
            # the street's record, as _street_play makes it, inline (15 a hand)
            record(street_play(card_tuple[top], card_tuple[middle], card_tuple[bottom],
                               deck_cards[end - dealt:end],
                               card_tuple[discard] if discard else None))
            end -= dealt
    fl_next, result = fantasyland_next(table, button, fantasyland, rows, force_score=score)
    return _PLAYED(button, order[0], tuple(fantasyland), tuple(rows), tuple(map(tuple, streets)),
                   fl_next, result)


class _StandIn:
    """A policy at a joker table: it sees each joker as its stand-in card, and the engine puts
    the joker where the policy put the stand-in."""

    def __init__(self, policy: Policy, to_stand_in: dict[int, int]) -> None:
        self.policy, self.name = policy, policy.name
        self.there = to_stand_in
        self.back = {v: k for k, v in to_stand_in.items()}

    def _cards(self, cards: Cards) -> Cards:
        there = self.there
        return tuple([there.get(c, c) for c in cards])

    def place(self, view: View, rng: random.Random) -> Placement:
        swap = self._cards
        board = (swap(view.board[0]), swap(view.board[1]), swap(view.board[2]))
        others = tuple((swap(r[0]), swap(r[1]), swap(r[2])) for r in view.opponents)
        seen = view._replace(dealt=swap(view.dealt), board=board, opponents=others)
        back = self.back
        return Placement(*(tuple([back.get(c, c) for c in part])
                           for part in self.policy.place(seen, rng)))

    def offers_double(self, cube: CubeView, rng: random.Random) -> bool:
        return self.policy.offers_double(cube, rng)

    def accepts_double(self, cube: CubeView, rng: random.Random) -> bool:
        return self.policy.accepts_double(cube, rng)


def _with_stand_ins(policies: tuple[Policy, ...], deck: Cards, ruleset: Ruleset,
                    fantasyland: Sequence[int]) -> tuple[Policy, ...]:
    """The policies of a joker table, each seeing a joker as the highest real card nobody is
    dealt this hand (X1 the highest, X2 the next)."""
    dealt = sum(fl or ruleset.dealing.cards_per_player for fl in fantasyland)
    undealt = sorted((c for c in deck[:len(deck) - dealt] if c < 52), reverse=True)
    to_stand_in = {52 + k: undealt[k] for k in range(min(ruleset.jokers, len(undealt)))}
    return tuple(_StandIn(p, to_stand_in) for p in policies)




def _street_play(dealt: tuple[BoardCard, ...], placement: Placement) -> StreetPlay:
    """The record of one street: the ``dealt`` cards (card values), the placed and discarded
    ones (the discard ``None`` when the street discards nothing)."""
    top, middle, bottom, discard = placement
    return _STREET(ROW_CARDS[top], ROW_CARDS[middle], ROW_CARDS[bottom], dealt,
                   ROW_CARDS[discard] if discard else None)
