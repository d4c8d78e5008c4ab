"""Jokers seen as stand-in cards, for a policy that values boards of real cards.

The engine's bots never see a joker: each sees it as a stand-in, the highest real card nobody
is dealt that hand (``ofc_core.play.engine``). The review's rollout policy does the same on
each candidate board it values (:func:`joker_stand_ins`): the board it picks keeps its jokers,
and is scored with them resolved by the table's rule.
"""

from __future__ import annotations

import numpy as np


def joker_stand_ins(boards: np.ndarray) -> np.ndarray:
    """``(B, 13)`` boards with each joker replaced by a stand-in: the first joker on a board
    by the highest real card not on it, the second by the next (as the engine's bots see
    jokers: X1 the highest, X2 the next); boards without a joker unchanged.

    >>> board = np.array([[52, 51, 0] + [-1] * 10, [53, 0, 1] + [-1] * 10])
    >>> joker_stand_ins(board)[:, :3].tolist()  # As is on the first: X1 stands for Ah
    [[50, 51, 0], [51, 0, 1]]
    """
    out = np.array(boards, copy=True)
    holders = np.flatnonzero((out >= 52).any(axis=1))
    if not len(holders):
        return out
    part = out[holders].astype(np.int64)
    present = np.zeros((len(part), 54), bool)
    np.put_along_axis(present, part % 54, True, axis=1)  # an empty slot (-1) marks 53: no card
    absent = ~present[:, 51::-1]  # real cards, highest first
    first = 51 - absent.argmax(axis=1)
    absent[np.arange(len(part)), 51 - first] = False
    second = 51 - absent.argmax(axis=1)
    x2 = np.where((part == 52).any(axis=1), second, first)  # X2 alone takes the highest
    part = np.where(part == 52, first[:, None], np.where(part == 53, x2[:, None], part))
    out[holders] = part
    return out
