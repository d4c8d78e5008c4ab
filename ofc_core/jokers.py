"""A board under its ruleset: jokers resolved, the middle read as the ruleset's kind (a poker
hand, or a 2-7 low), the foul rule applied.

This is the scalar, readable statement of the rules; :mod:`ofc_core.batch` computes the same
on arrays and tests hold the two equal.

Rule ``bottom-up`` (:class:`~ofc_core.rules.JokerRule`): a joker stands for any card not on
its player's own board, two jokers never for the same card. Of the choices that avoid a foul,
the board takes the one whose bottom is strongest, then (among those) whose middle is, then
whose top is; the board fouls only if no choice avoids a foul (it is then read as its
strongest bottom, middle and top, in that order). Here every choice is tried, each row's
strength computed once per card its jokers stand for. Among equal choices the lowest cards
win, so what a joker "became" is always the same card.

A joker that would foul as the strongest card resolves lower: with an ace and a deuce on top
over a middle of two kings, a joker as an ace makes two aces, which beat the middle (a foul);
the strongest top that does not is a pair of deuces, so the joker becomes a deuce.

>>> from ofc_core.rules import PRESETS
>>> board = Board.parse("Ah X1 2c", "Kh Kd 9c 7s 3d", "Qh Qd Qc 8s 8d")
>>> resolved = resolve_board(board, PRESETS["joker-pineapple"])
>>> resolved.fouled, resolved.stood_for
(False, ((Joker('X1'), Card('2d')),))
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass

from ofc_core.board import Board
from ofc_core.cards import DECK, Card, Joker, real_cards
from ofc_core.evaluate import Strength, evaluate
from ofc_core.rules import Ruleset

Rows = tuple[tuple[Card, ...], tuple[Card, ...], tuple[Card, ...]]


@dataclass(frozen=True, slots=True)
class ResolvedBoard:
    """A complete board as its ruleset scores it: rows with every joker replaced by the card it
    stood for, their strengths (the middle of a 2-7 table as a low), and the foul."""

    top: tuple[Card, ...]
    middle: tuple[Card, ...]
    bottom: tuple[Card, ...]
    strengths: tuple[Strength, Strength, Strength]
    fouled: bool
    stood_for: tuple[tuple[Joker, Card], ...] = ()
    """Each joker and the card it became, in board order."""
    joker_rows: tuple[bool, bool, bool] = (False, False, False)
    """Which rows (top, middle, bottom) hold a joker."""


def row_strengths(rows: Rows, ruleset: Ruleset) -> tuple[Strength, Strength, Strength]:
    """Top and bottom as poker hands, the middle as the ruleset's middle kind."""
    top, middle, bottom = rows
    return (evaluate(top), ruleset.middle.strength(middle), evaluate(bottom))


def _fouled(strengths: tuple[Strength, Strength, Strength], ruleset: Ruleset) -> bool:
    return bool(ruleset.middle.is_foul(*strengths))


def resolve_board(board: Board, ruleset: Ruleset) -> ResolvedBoard:
    """The board as ``ruleset`` scores it (see the module docstring for the joker rule).

    >>> from ofc_core.rules import PRESETS
    >>> plain = resolve_board(Board.parse("Qh Qd 7c", "Qs Qc 6h 5d 4c", "Ah Ad Kc Ks 2d"),
    ...                       PRESETS["pineapple"])
    >>> plain.fouled, plain.stood_for
    (True, ())
    """
    rows = (board.top, board.middle, board.bottom)
    slots = [(r, k) for r, row in enumerate(rows) for k, c in enumerate(row)
             if isinstance(c, Joker)]
    joker_rows = (any(r == 0 for r, _ in slots), any(r == 1 for r, _ in slots),
                  any(r == 2 for r, _ in slots))
    if not slots:
        real = (real_cards(board.top), real_cards(board.middle), real_cards(board.bottom))
        strengths = row_strengths(real, ruleset)
        return ResolvedBoard(*real, strengths, _fouled(strengths, ruleset))
    base = tuple(tuple(c if isinstance(c, Card) else DECK[0] for c in row) for row in rows)
    on_board = {c for c in board.cards if isinstance(c, Card)}
    pool = [c for c in DECK if c not in on_board]
    cache: dict[tuple[int, tuple[Card, ...]], Strength] = {}

    def strength(r: int, row: tuple[Card, ...]) -> Strength:
        key = (r, row)
        if key not in cache:
            cache[key] = ruleset.middle.strength(row) if r == 1 else evaluate(row)
        return cache[key]

    best: tuple[tuple[bool, Strength, Strength, Strength], Rows, tuple[Card, ...]] | None = None
    for choice in itertools.permutations(pool, len(slots)):
        filled = _substitute(base, slots, choice)
        top, middle, bottom = (strength(r, row) for r, row in enumerate(filled))
        legal = not _fouled((top, middle, bottom), ruleset)
        key = (legal, bottom, middle, top)
        if best is None or key > best[0]:
            best = (key, filled, choice)
    assert best is not None
    (legal, bottom, middle, top), filled, choice = best
    jokers = tuple(c for row in rows for c in row if isinstance(c, Joker))  # in slot order
    stood_for = tuple(zip(jokers, choice, strict=True))
    return ResolvedBoard(*filled, (top, middle, bottom), not legal, stood_for, joker_rows)


def _substitute(base: tuple[tuple[Card, ...], ...], slots: list[tuple[int, int]],
                choice: tuple[Card, ...]) -> Rows:
    """The rows with the joker at each slot replaced by the chosen card (``base``: the board's
    rows, a placeholder card at each joker's slot)."""
    out = [list(row) for row in base]
    for (r, k), card in zip(slots, choice, strict=True):
        out[r][k] = card
    return (tuple(out[0]), tuple(out[1]), tuple(out[2]))
