"""A hand from a live table, entered as it is played: street by street, one seat after
another, in the order of play.

The order is the engine's: Fantasyland seats set their cards first (one street each, the
cards dealt in Fantasyland), then each street of the ruleset's deal (``ruleset.dealing``) goes
round the table clockwise from the player left of the button. A seat's street gives the cards
it placed on each row and, where the table saw it, its discard (an opponent's pineapple
discard is face down: it may be left unknown). A card already seen in the hand, a wrong number
of cards or a joker at a table without jokers is refused with a word (:meth:`LiveHand.refuse`).

>>> from ofc_core.rules import PRESETS
>>> from ofc_core.cards import parse_cards
>>> hand = LiveHand(PRESETS["pineapple"], ("ann", "bob"), button=1, fantasyland=(0, 0))
>>> turn = hand.next_turn(); (turn.seat, turn.street, turn.dealt, turn.place)
(0, 0, 5, 5)
>>> hand.refuse(turn, parse_cards("Ah Kd 2c 7s"), discard_known=True)
'ann is dealt 5 cards on street 1: 4 given'
>>> hand = hand.add(StreetPlay(bottom=parse_cards("Ah Kd 2c 7s 7h"),
...                            dealt=parse_cards("Ah Kd 2c 7s 7h")))
>>> hand.refuse(hand.next_turn(), parse_cards("Ah 3c 4c 5c 6c"), discard_known=True)
"Ah is on ann's board already"
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from types import MappingProxyType
from typing import Any

from ofc_core.cards import BoardCard, Joker
from ofc_core.hand import HandRecord, PlayerRecord, StreetPlay, board_from_streets
from ofc_core.rules import Ruleset

__all__ = ["LiveHand", "Turn", "StreetPlay"]


@dataclass(frozen=True)
class Turn:
    """One seat's street to enter: ``dealt`` cards arrive, ``place`` go on the board."""

    seat: int
    street: int
    """0-based."""
    dealt: int
    place: int
    fantasyland: bool = False


@dataclass(frozen=True)
class LiveHand:
    """A hand being entered: the table (ruleset, names in seat order, the button's seat,
    the Fantasyland cards of each seat, 0 for none) and each seat's streets so far."""

    ruleset: Ruleset
    names: tuple[str, ...]
    button: int
    fantasyland: tuple[int, ...]
    streets: tuple[tuple[StreetPlay, ...], ...] = ()

    def __post_init__(self) -> None:
        if not self.streets:
            object.__setattr__(self, "streets", ((),) * len(self.names))

    @property
    def order(self) -> tuple[int, ...]:
        """Seats in the order of play: clockwise from the player left of the button."""
        n = len(self.names)
        return tuple((self.button + 1 + k) % n for k in range(n))

    def turns(self) -> list[Turn]:
        """Every turn of the hand, in order."""
        out = [Turn(i, 0, self.fantasyland[i], 13, True) for i in self.order
               if self.fantasyland[i]]
        for k, street in enumerate(self.ruleset.dealing.streets):
            out += [Turn(i, k, street.dealt, street.placed) for i in self.order
                    if not self.fantasyland[i]]
        return out

    def next_turn(self) -> Turn | None:
        """The turn to enter now; ``None`` when the hand is complete."""
        done = sum(len(s) for s in self.streets)
        turns = self.turns()
        return turns[done] if done < len(turns) else None

    def seen(self) -> dict[BoardCard, str]:
        """Every card placed or discarded so far, and whose it is."""
        out: dict[BoardCard, str] = {}
        for name, streets in zip(self.names, self.streets, strict=True):
            for s in streets:
                for card in s.placed + (s.discard or ()):
                    out[card] = name
        return out

    def refuse(self, turn: Turn, cards: Sequence[BoardCard], discard_known: bool) -> str:
        """Why ``cards`` (all the seat's cards of the turn: placed, then any discard) cannot be
        this turn's; ``''`` when they can."""
        name = self.names[turn.seat]
        wanted = turn.dealt if discard_known else turn.place
        what = "is dealt" if discard_known else "places"
        if len(cards) != wanted:
            return (f"{name} {what} {wanted} cards on street {turn.street + 1}: "
                    f"{len(cards)} given")
        if len(set(cards)) != len(cards):
            twice = next(c for c in cards if list(cards).count(c) > 1)
            return f"{twice} is given twice"
        seen = self.seen()
        for card in cards:
            if card in seen:
                return f"{card} is on {seen[card]}'s board already"
            if isinstance(card, Joker) and card.index - 52 >= self.ruleset.jokers:
                return f"{card}: this table plays {self.ruleset.jokers or 'no'} jokers"
        return ""

    def add(self, street: StreetPlay) -> LiveHand:
        """The hand with the next turn's street entered (checked by the caller with
        :meth:`refuse` and the placement board)."""
        turn = self.next_turn()
        if turn is None:
            raise ValueError("the hand is complete")
        streets = list(self.streets)
        streets[turn.seat] = streets[turn.seat] + (street,)
        return replace(self, streets=tuple(streets))

    def undo(self) -> LiveHand:
        """The hand without the last street entered."""
        done = sum(len(s) for s in self.streets)
        if not done:
            return self
        seat = self.turns()[done - 1].seat
        streets = list(self.streets)
        streets[seat] = streets[seat][:-1]
        return replace(self, streets=tuple(streets))

    def record(self, source: str, hand_id: str, *, session_id: str | None = None,
               played_at: str | None = None, stake: float | None = None,
               currency: str | None = None, hero: str | None = None,
               rules: Mapping[str, Any] | None = None) -> HandRecord:
        """The complete hand as a record, with the table's other facts."""
        players = tuple(PlayerRecord(name, i, board_from_streets(streets), streets,
                                     bool(self.fantasyland[i]))
                        for i, (name, streets) in enumerate(zip(self.names, self.streets,
                                                                strict=True)))
        return HandRecord(source, hand_id, self.ruleset.variant.value, players,
                          MappingProxyType(dict(rules or {})), self.names[self.button],
                          session_id, None, played_at, stake, currency, hero)
