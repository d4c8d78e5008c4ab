"""Table stakes: what changes hands when each player can lose only the chips they brought.

The rule (docs/rules.md, "Settlement under table stakes"): a hand's pairs settle one after the
other, in order from the left of the button (:func:`ofc_core.scoring.settlement_order`). In
each pair the winner takes the pair's raw result, but never more than the loser still has at
the table (their stack, plus what they won, less what they lost earlier in this hand), and no
player wins more in the hand than the stack they brought. Heads-up this is: neither player
wins or loses more than the smaller stack. A player whose stack is not known is not limited
by it; a ruleset's fixed ``cap`` applies on top (the smaller limit counts).

For example a loser who brought 57 chips to a hand whose raw result is 63 points:

>>> table_stakes([[0, -63], [63, 0]], [57, 343], 0)
[[0, -57], [57, 0]]

Three players, the first to act wins 10 from each of the others; the second brought 4:

>>> table_stakes([[0, 10, 10], [-10, 0, 0], [-10, 0, 0]], [100, 4, 100], 0)
[[0, 4, 10], [-4, 0, 0], [-10, 0, 0]]

The points stored for a hand are these (what changed hands); the uncapped ones are kept
beside them (``hand_players.raw_points``). Readers only carry the stacks
(``PlayerRecord.stack``); this module holds the rule.
"""

from __future__ import annotations

from collections.abc import Sequence

from ofc_core.scoring import settlement_order, tidy_points

RULE_TEXT = (
    "Where a log gives the players' stacks (`PlayerRecord.stack`, in points: chips / stake), "
    "the stored points are what changed hands under table stakes (`ofc_core/settlement.py`): "
    "pairs settle in order from the left of the button; in each, the winner takes the pair's "
    "result but never more than the loser still has at the table (stack, plus won, less lost "
    "earlier in the hand), and no player wins more in the hand than the stack he brought. "
    "Heads-up: neither player wins or loses more than the smaller stack; a loser with 57 chips "
    "left and a raw result of 63 settles -57 / +57. A ruleset `cap` applies too (the smaller "
    "limit counts); race scoring is never limited. The uncapped points stay beside them "
    "(`hand_players.raw_points`, `pairs.total`) and the audit compares both with the room's "
    "(`reported_points`, `reported_raw_points`). Where each format gives stacks: "
    "docs/formats.md (the pineapple app: `hands.chips_before`).")
"""The rule as docs/rules.md states it (``ofc_core.describe`` writes that file)."""


def limits(stacks: Sequence[float | None], cap: float | None) -> list[float | None]:
    """Each player's limit: the smaller of their stack and the ruleset's ``cap``
    (``None``: no limit).

    >>> limits([57, None], 50), limits([57, None], None)
    ([50, 50], [57, None])
    """
    out: list[float | None] = []
    for stack in stacks:
        known = [v for v in (stack, cap) if v is not None]
        out.append(min(known) if known else None)
    return out


def _bounded(value: float, bound: float | None) -> float:
    return value if bound is None else min(value, bound)


def table_stakes(raw: Sequence[Sequence[float]], stacks: Sequence[float | None],
                 first_to_act: int) -> list[list[float]]:
    """The settled matrix of one hand: ``raw[i][j]`` is what ``i`` wins from ``j`` before any
    limit, ``stacks[i]`` the most ``i`` can lose in the hand and win in it (``None``:
    unlimited), pairs settled in order from ``first_to_act`` (see the module's rule)."""
    count = len(raw)
    net = [0.0] * count
    settled = [[0.0] * count for _ in range(count)]
    for i, j in settlement_order(count, first_to_act):
        t = float(raw[i][j])
        if t < 0:  # settle from the winner's side
            i, j, t = j, i, -t
        win_stack, pay_stack = stacks[i], stacks[j]
        room_win = None if win_stack is None else max(0.0, float(win_stack) - net[i])
        room_pay = None if pay_stack is None else max(0.0, float(pay_stack) + net[j])
        t = _bounded(_bounded(t, room_win), room_pay)
        net[i] += t
        net[j] -= t
        settled[i][j], settled[j][i] = t, -t
    return [[tidy_points(v) for v in row] for row in settled]
