"""Positions from a logged hand: each street of a player as the position it faced
(:func:`spots_of`), for the review (:mod:`ofc_core.play.review`): its own board, dealt cards
and earlier discards, and each opponent's rows as placed so far (an opponent who acts before it
this street has placed it already: acting goes clockwise from the left of the button); an
opponent playing Fantasyland is hidden until the showdown, so its logged board stands for it.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from ofc_core.cards import BoardCard
from ofc_core.hand import HandRecord, PlayerRecord, StreetPlay
from ofc_core.play.engine import Cards, Placement, Rows
from ofc_core.play.placements import apply
from ofc_core.play.rollout import SeatSpot, Spot
from ofc_core.rules import Street


@dataclass(frozen=True)
class Decision:
    """One reviewable decision of a logged hand: ``street`` is 1-based."""

    player: str
    street: int
    spot: Spot
    chosen: Placement
    board_before: Rows


def card_indexes(cards: tuple[BoardCard, ...] | None) -> Cards:
    """The card indexes of logged cards (none for ``None``)."""
    return tuple(c.index for c in cards or ())


def street_placement(s: StreetPlay) -> Placement:
    """The placement a logged street made."""
    return Placement(card_indexes(s.top), card_indexes(s.middle), card_indexes(s.bottom),
                     card_indexes(s.discard))


def _rows_after(streets: tuple[StreetPlay, ...], count: int) -> Rows:
    rows: Rows = ((), (), ())
    for s in streets[:count]:
        rows = apply(rows, street_placement(s))
    return rows


def _acting_order(record: HandRecord) -> list[int]:
    """Seats that play a normal hand, in acting order (from the left of the button)."""
    n = len(record.players)
    order = [(record.first_to_act + k) % n for k in range(n)]
    return [i for i in order if not record.players[i].fantasyland]


def spots_of(record: HandRecord, player: str) -> Iterator[Decision]:
    """Every street of ``player`` (not in Fantasyland) whose dealt cards the log shows, as the
    position the player faced."""
    ruleset = record.ruleset
    seat = next((i for i, p in enumerate(record.players) if p.name == player), None)
    if seat is None:
        return
    me = record.players[seat]
    if me.fantasyland or me.surrendered or me.streets is None:
        return
    if any(p.streets is None or p.surrendered for p in record.players):
        return
    plan = ruleset.dealing.streets
    order = _acting_order(record)
    before = set(order[:order.index(seat)])
    dead: Cards = ()
    for k, street in enumerate(me.streets):
        if street.dealt is None:
            return
        seats = []
        for i, p in enumerate(record.players):
            seats.append(_seat_view(p, i, seat, k, before, plan))
        board = _rows_after(me.streets, k)
        spot = Spot(ruleset, tuple(seats), seat, card_indexes(street.dealt), plan[k].placed,
                    dead, record.first_to_act)
        yield Decision(player, k + 1, spot, street_placement(street), board)
        if street.discard is None and plan[k].discarded:
            return  # the log hides this discard: later positions are unknown
        dead = dead + card_indexes(street.discard)


def _seat_view(p: PlayerRecord, i: int, hero: int, k: int, before: set[int],
               plan: tuple[Street, ...]) -> SeatSpot:
    """Seat ``i`` as the hero sees it on its street ``k`` (0-based)."""
    streets = p.streets or ()
    if p.fantasyland:  # hidden until showdown: its logged board stands for it (docs/review.md)
        return SeatSpot(_rows_after(streets, len(streets)), (), True)
    if i == hero:
        return SeatSpot(_rows_after(streets, k), tuple(plan[k + 1:]))
    shown = k + 1 if i in before else k
    return SeatSpot(_rows_after(streets, shown), tuple(plan[shown:]))
