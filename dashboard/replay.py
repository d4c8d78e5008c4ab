"""The replayer's model: what the table looks like after each street, from stored placements.

Step ``k`` (1..streets) shows every board after street ``k``; the last step is the showdown.
A Fantasyland board is set face down and shown only at the showdown; a card the log hides
(an opponent's discard) is ``None``, drawn face down.

>>> import pandas as pd
>>> streets = pd.DataFrame({"seat": [0, 0], "street": [1, 2], "dealt": ["Ah Kh Qh Jh Th", None],
...     "top": ["Ah", ""], "middle": ["Kh Qh", "9c"], "bottom": ["Jh Th", "2c"],
...     "discard": [None, None]})
>>> seats = pd.DataFrame({"seat": [0], "player": ["ann"], "fantasyland": [False]})
>>> v = view_at(streets, seats, 2, discards=lambda seat, street: (0, 1)[street - 1])[0]
>>> v.top, v.middle, v.bottom, v.placed_now, v.dealt, v.discard
(('Ah',), ('Kh', 'Qh', '9c'), ('Jh', 'Th', '2c'), ('9c', '2c'), None, (None,))
>>> step_count(streets), step_label(3, step_count(streets))
(3, 'Showdown')
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pandas as pd

Hidden = None
CardSlot = str | None


@dataclass(frozen=True, slots=True)
class SeatView:
    seat: int
    player: str
    fantasyland: bool
    top: tuple[CardSlot, ...]
    middle: tuple[CardSlot, ...]
    bottom: tuple[CardSlot, ...]
    dealt: tuple[CardSlot, ...] | None
    """Cards dealt this street; ``None`` when the log hides them."""
    placed_now: tuple[str, ...]
    discard: tuple[CardSlot, ...]
    face_down: bool
    """A Fantasyland board before the showdown: every card is shown as a back."""
    recorded: bool = True
    """The log gives this seat street by street (else only its final board, at the showdown)."""


def step_count(placements: pd.DataFrame) -> int:
    """Streets of the longest street-by-street record, plus the showdown step."""
    return (int(placements["street"].max()) if len(placements) else 0) + 1


def step_label(step: int, steps: int) -> str:
    return "Showdown" if step >= steps else f"Street {step}"


def _missing(value: object) -> bool:
    """NULL from the database: ``None``, or NaN once pandas has had it."""
    return value is None or (isinstance(value, float) and value != value)


def whole_number(cell: Any) -> int:
    """A whole number read from a table cell (a seat, a street)."""
    return int(cell)


def _cards(text: str | None) -> tuple[str, ...]:
    return () if _missing(text) or not text else tuple(str(text).split())


def view_at(placements: pd.DataFrame, seats: pd.DataFrame, step: int,
            discards: Callable[[int, int], int] = lambda seat, street: 0) -> list[SeatView]:
    """Every seat's board after street ``step`` (the showdown when ``step`` is past the last
    street). ``discards(seat, street)`` is how many cards the rules discard that street, used
    to draw hidden discards face down."""
    showdown = step >= step_count(placements)
    out = []
    for seat in seats.itertuples(index=False):
        mine = placements[placements["seat"] == seat.seat]
        upto = mine if showdown else mine[mine["street"] <= step]
        rows: dict[str, tuple[CardSlot, ...]] = {
            r: tuple(c for t in upto[r] for c in _cards(t)) for r in ("top", "middle", "bottom")}
        fl = bool(seat.fantasyland)
        dealt: tuple[CardSlot, ...] | None = None
        placed_now: tuple[str, ...] = ()
        discard: tuple[CardSlot, ...] = ()
        now = mine[mine["street"] == step]
        if not showdown and len(now):
            street = now.iloc[0]
            dealt = None if _missing(street["dealt"]) else _cards(street["dealt"])
            placed_now = _cards(street["top"]) + _cards(street["middle"]) + _cards(
                street["bottom"])
            if _missing(street["discard"]):
                discard = (Hidden,) * discards(whole_number(seat.seat),
                                               whole_number(street["street"]))
            else:
                discard = _cards(street["discard"])
        face_down = fl and not showdown
        if face_down:
            rows = {r: (Hidden,) * len(cards) for r, cards in rows.items()}
            placed_now = ()
            dealt = None
            discard = (Hidden,) * len(discard)
        out.append(SeatView(whole_number(seat.seat), str(seat.player), fl, rows["top"],
                            rows["middle"], rows["bottom"], dealt, placed_now, discard,
                            face_down, recorded=len(mine) > 0))
    return out
