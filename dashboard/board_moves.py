"""The placement board's moves, without Streamlit: a card chosen, then a row or the discard,
undone one at a time; refused in words, never by an exception.

The rules are the core's: the free slots of each row are :func:`ofc_core.play.placements.
free_slots` of the board, the number of cards to place is the street's (``place``, from the
engine's :class:`~ofc_core.play.engine.View` or the ruleset's dealing), and the finished
placement is checked by :func:`ofc_core.play.engine.check_placement`. This module only keeps
the moves made so far and says why one is refused.

>>> from ofc_core.cards import parse_cards
>>> dealt = tuple(c.index for c in parse_cards("Ah Kd 2c"))
>>> street = Street(board=((), (), ()), dealt=dealt, place=2)
>>> moves = Moves()
>>> moves, said = choose(street, moves, dealt[0]); said
''
>>> moves, said = put(street, moves, TOP); said
''
>>> choose(street, moves, dealt[0])[1]
'A♥ is placed already: undo to move it'
>>> moves, _ = choose(street, moves, dealt[2])
>>> moves, said = put(street, moves, DISCARD); said
''
>>> moves, _ = choose(street, moves, dealt[1])
>>> put(street, moves, DISCARD)[1]
'this street discards 1 card: the discard is full'
>>> moves, said = put(street, moves, BOTTOM)
>>> finished(street, moves)
Placement(top=(50,), middle=(), bottom=(45,), discard=(0,))
>>> undo(moves).made
((50, 0), (0, 3))
"""

from __future__ import annotations

from dataclasses import dataclass

from ofc_core.cards import card_of_index
from ofc_core.play.engine import Cards, IllegalMove, Placement, Rows, View, check_placement
from ofc_core.play.placements import free_slots
from ofc_core.rules import PRESETS

TOP, MIDDLE, BOTTOM, DISCARD = 0, 1, 2, 3
TARGETS = ("top", "middle", "bottom", "discard")
"""Where a card goes: a row by its index in the board, or the discard."""


@dataclass(frozen=True)
class Street:
    """What the player must place: their board so far, the cards dealt (card indexes; the
    jokers are 52 and 53), how many of them go on the board (the rest are discarded)."""

    board: Rows
    dealt: Cards
    place: int

    @classmethod
    def of_view(cls, view: View) -> Street:
        return cls(view.board, view.dealt, view.place)


@dataclass(frozen=True)
class Moves:
    """The moves made so far, ``(card, target)`` in order, and the card chosen (if any)."""

    made: tuple[tuple[int, int], ...] = ()
    chosen: int | None = None

    def at(self, target: int) -> Cards:
        """The cards put on ``target`` so far, in order."""
        return tuple(c for c, t in self.made if t == target)

    @property
    def placed(self) -> frozenset[int]:
        return frozenset(c for c, _ in self.made)


def name(card: int) -> str:
    """A card for a message: ``A♥``; a joker ``X1``."""
    value = card_of_index(card)
    return getattr(value, "pretty", str(value))


def room_left(street: Street, moves: Moves, target: int) -> int:
    """How many more cards ``target`` takes: a row's free slots (the core's
    :func:`free_slots`) less the cards put there; the discard's share of the dealt cards."""
    if target == DISCARD:
        return len(street.dealt) - street.place - len(moves.at(DISCARD))
    return free_slots(street.board)[target] - len(moves.at(target))


def choose(street: Street, moves: Moves, card: int) -> tuple[Moves, str]:
    """Choose a dealt card to place next (choosing it again lets it go); the moves and ``''``,
    or the moves unchanged and why not."""
    if card not in street.dealt:
        return moves, f"{name(card)} is not among the cards dealt"
    if card in moves.placed:
        return moves, f"{name(card)} is placed already: undo to move it"
    return Moves(moves.made, None if moves.chosen == card else card), ""


def put(street: Street, moves: Moves, target: int) -> tuple[Moves, str]:
    """Put the chosen card on ``target``; the moves and ``''``, or unchanged and why not."""
    if moves.chosen is None:
        return moves, "choose a card first, then a row or the discard"
    if room_left(street, moves, target) <= 0:
        return moves, _full(street, target)
    return Moves(moves.made + ((moves.chosen, target),), None), ""


def _full(street: Street, target: int) -> str:
    if target == DISCARD:
        thrown = len(street.dealt) - street.place
        if thrown == 0:
            return "this street discards nothing: every card goes on the board"
        return f"this street discards {thrown} card{'s' * (thrown != 1)}: the discard is full"
    size = 3 if target == TOP else 5
    return f"the {TARGETS[target]} row is full ({size} cards)"


def undo(moves: Moves) -> Moves:
    """The last move taken back (a chosen card let go first)."""
    if moves.chosen is not None:
        return Moves(moves.made, None)
    return Moves(moves.made[:-1], None)


def finished(street: Street, moves: Moves) -> Placement | None:
    """The placement once every dealt card is put somewhere and the core accepts it;
    ``None`` before."""
    if len(moves.made) != len(street.dealt):
        return None
    placement = Placement(moves.at(TOP), moves.at(MIDDLE), moves.at(BOTTOM), moves.at(DISCARD))
    view = View(PRESETS["regular"], 0, 0, street.dealt, street.place, street.board, ())
    try:
        check_placement(view, placement)
    except IllegalMove:
        return None
    return placement


def rows_after(street: Street, moves: Moves) -> Rows:
    """The board with the moves so far on it."""
    top, middle, bottom = street.board
    return (top + moves.at(TOP), middle + moves.at(MIDDLE), bottom + moves.at(BOTTOM))
