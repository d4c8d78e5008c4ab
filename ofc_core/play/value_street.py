"""The learned value of every placement of a street at once, row by row: what
:func:`ofc_core.play.learned_rollouts.best_options` computes by laying every option on every
board (:func:`~ofc_core.play.value_features.expand`) and valuing each board whole, in about a
third of the time.

Every feature of a board is a feature of one row, of the rows' categories and pair ranks
together, or of the cards on the board (:func:`~ofc_core.play.value_features.layout`), and the
network's first layer is a sum of its features' contributions. A street's option sends each
row a subset of the dealt cards (a pineapple street: 7 subsets of its 3 cards with at most 2,
for 27 options; a first five: 32 subsets of 5 for 232 options). So the features and the first
layer's contributions of each row are computed once per subset, not once per option; each
option sums its three rows' contributions, the few cross features' and the card count's (the
same for every option): three gathers of whole runs of boards. The layers above the first run
as in :meth:`~ofc_core.play.value.Network.on_columns`. The values are those of the whole boards
up to float32 rounding (the sums run in another order): ``tests/test_value.py`` holds them
equal.

>>> import numpy as np
>>> from ofc_core.play.value import load_value
>>> from ofc_core.play.value_features import expand, feature_columns
>>> value = load_value("pineapple")
>>> boards = np.full((1, 13), -1, np.int8)
>>> dealt = np.array([[48, 49, 20, 9, 0]], np.int8)  # Ac Ad 7c 4d 2c
>>> after, fits = expand(boards, dealt, 5)
>>> fast = street_values(value.networks[5], boards, dealt, 5, False, False, fits)
>>> whole = value.networks[5].on_columns(feature_columns(after[fits]))
>>> bool(np.allclose(fast[fits], whole, atol=1e-3))
True
"""

from __future__ import annotations

from functools import cache
from itertools import combinations

import numpy as np

from ofc_core.play.value import Network
from ofc_core.play.value_features import (
    JOKER,
    count_columns,
    cross_columns,
    joker_counts,
    layout,
    rank_suit_counts,
    row_widths,
    rows_columns,
    street_options,
)

BOARDS_AT_ONCE = 16384
"""Options times boards valued in one pass (4 MB of first-layer sums): fewer, larger passes are
quicker (measured: 8,192 took 10% longer than 16,384 on the same boards, 1,024 70% longer)."""


@cache
def subsets(dealt: int, place: int) -> tuple[np.ndarray, np.ndarray]:
    """The subsets of ``dealt`` cards a street's option can send to one row, and where each
    option of :func:`~ofc_core.play.value_features.street_options` sends which: ``(S, dealt)``
    membership (0 or 1) of each subset (of at most ``place`` cards); ``(O, 3)`` the subset each
    option sends to each row (an option's first layer sums those three rows' contributions).

    >>> member, sent = subsets(3, 2)
    >>> member.shape, sent.shape  # {}, 3 singles, 3 pairs; 27 options
    ((7, 3), (27, 3))
    """
    every = [kept for k in range(place + 1) for kept in combinations(range(dealt), k)]
    at = {kept: i for i, kept in enumerate(every)}
    member = np.zeros((len(every), dealt), np.float32)
    for i, kept in enumerate(every):
        member[i, list(kept)] = 1
    opts = street_options(dealt, place)
    sent = np.array([[at[tuple(int(c) for c, row in zip(keep, rows, strict=True) if row == r)]
                      for r in range(3)] for keep, rows in zip(opts.keep, opts.rows, strict=True)],
                    np.intp)
    return member, sent


def street_values(network: Network, boards: np.ndarray, dealt: np.ndarray, place: int,
                  jokers: bool, low27: bool, fits: np.ndarray) -> np.ndarray:
    """``(B, O)``: the value by ``network`` of each of ``(B, 13)`` boards (all holding the same
    number of cards) after each option of its ``(B, d)`` dealt cards, ``-inf`` where the
    option does not fit the board (``(B, O)`` ``fits``, of
    :func:`~ofc_core.play.value_features.room`)."""
    out = np.full(fits.shape, -np.inf)
    step = max(1, BOARDS_AT_ONCE // fits.shape[1])
    for start in range(0, len(boards), step):
        part = slice(start, start + step)
        out[part] = _values(network, boards[part], dealt[part], place, jokers, low27)
    out[~fits] = -np.inf
    return out


def _values(network: Network, boards: np.ndarray, dealt: np.ndarray, place: int,
            jokers: bool, low27: bool) -> np.ndarray:
    """:func:`street_values` of a few boards, without the fit: ``(B, O)``."""
    member, sent = subsets(dealt.shape[1], place)
    folded, bias = network.first_layer
    places = layout(jokers, low27)
    n, s, units = len(boards), len(member), len(bias)
    cards = int((boards[0] >= 0).sum()) + place  # the same for every option: with the bias
    constant = bias + count_columns(np.array([cards])).astype(np.float32)[:, 0] @ folded[
        places.count]
    ranks, suits, wild = _grown(boards, dealt, member, jokers)
    rows = np.empty((units, 3 * s, n), np.float32)  # each row's contribution, per subset
    columns, category, pair_rank = rows_columns(ranks, suits, wild, low27)
    for r, k in enumerate(row_widths(jokers, low27)):
        part = rows[:, r * s:(r + 1) * s].reshape(units, s * n)  # a view: written in place
        np.matmul(folded[places.rows[r]].T, columns[r, :k], out=part)
        if r == 0:
            part += constant[:, None]  # every option sends the top one subset
    each = (np.arange(3)[:, None], sent.T)  # each option's subset in each row
    cats, pair_ranks = category.reshape(3, s, n)[each], pair_rank.reshape(3, s, n)[each]
    h = np.take(rows, sent[:, 0], axis=1)  # (H, O, B): each option's three rows' sums
    for r in (1, 2):
        h += np.take(rows, r * s + sent[:, r], axis=1)
    h = h.reshape(units, -1)  # (H, O * B)
    cross = cross_columns(list(cats), list(pair_ranks), low27)  # (C, O, B)
    h += folded[places.cross].T @ cross.reshape(len(cross), -1)
    return network.above_first(h).reshape(-1, n).T.astype(np.float64)


def _grown(boards: np.ndarray, dealt: np.ndarray, member: np.ndarray, jokers: bool
           ) -> tuple[np.ndarray, np.ndarray, np.ndarray | None]:
    """Each row's counts with each subset of the dealt cards added: ``(3, 13, S * B)`` ranks,
    ``(3, 4, S * B)`` suits and ``(3, S * B)`` jokers (``None`` at a table without), the
    boards of one subset together (subset ``i`` of board ``b`` at ``i * B + b``)."""
    real = (dealt >= 0) & (dealt < JOKER)  # (B, d)
    card = dealt.astype(np.intp).T[:, None, :]
    hot = np.concatenate([np.arange(13)[None, :, None] == (card >> 2),
                          np.arange(4)[None, :, None] == (card & 3)], axis=1)  # (d, 17, B)
    hot &= real.T[:, None, :]
    s, n = len(member), len(boards)
    added = (member @ hot.reshape(len(hot), -1).astype(np.float32)).astype(np.int8)
    base = rank_suit_counts(boards)  # (3, 17, B)
    grown = (base[:, :, None, :] + added.reshape(s, 17, n).transpose(1, 0, 2)[None]).reshape(
        3, 17, s * n)
    wild = None
    if jokers:
        jokers_added = (member @ (~real & (dealt >= 0)).T.astype(np.float32)).astype(np.int8)
        wild = (joker_counts(boards)[:, None, :] + jokers_added[None]).reshape(3, s * n)
    return grown[:, :13], grown[:, 13:], wild
