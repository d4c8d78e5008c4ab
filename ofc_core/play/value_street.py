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
same for every option). The layers above the first run as in
:meth:`~ofc_core.play.value.Network.on_columns`. The values are those of the whole boards up to
float32 rounding (the sums run in another order): ``tests/test_value.py`` holds them equal.

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
    counts,
    cross_columns,
    joker_counts,
    layout,
    row_columns,
    street_options,
)

BOARDS_AT_ONCE = 16384
"""Subsets times boards whose features and first-layer contributions are computed in one pass
(measured on 2,000 first fives: 0.18 CPU s; 65,536 and 8,192 0.19-0.20, the load's noise)."""

OPTIONS_AT_ONCE = 4096
"""Options times boards whose first-layer sums and layers above run in one pass: 1 MB of sums,
which stay in the core's second-level cache through the passes over them (measured on 2,000
first fives: 0.167 CPU s, 2,048 0.176, 1,024 0.183, 512 0.25; all in one pass 0.27)."""


@cache
def subsets(dealt: int, place: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The subsets of ``dealt`` cards a street's option can send to one row, and where each
    option of :func:`~ofc_core.play.value_features.street_options` sends which: ``(S, dealt)``
    membership (0 or 1) of each subset (of at most ``place`` cards); ``(O, 3)`` the subset each
    option sends to each row; and that as ``(O, 3 * S)`` selectors (a 1 at ``r * S + i`` for
    subset ``i`` of row ``r``: an option's first layer sums the three rows' contributions its
    selector picks).

    >>> member, sent, selector = subsets(3, 2)
    >>> member.shape, sent.shape, selector.shape  # {}, 3 singles, 3 pairs; 27 options
    ((7, 3), (27, 3), (27, 21))
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
    selector = np.zeros((len(sent), 3 * len(every)), np.float32)
    for r in range(3):
        selector[np.arange(len(sent)), r * len(every) + sent[:, r]] = 1
    return member, sent, selector


def street_values(network: Network, boards: np.ndarray, dealt: np.ndarray, place: int,
                  jokers: bool, low27: bool, fits: np.ndarray) -> np.ndarray:
    """``(B, O)``: the value by ``network`` of each of ``(B, 13)`` boards (all holding the same
    number of cards) after each option of its ``(B, d)`` dealt cards, ``-inf`` where the
    option does not fit the board (``(B, O)`` ``fits``, of
    :func:`~ofc_core.play.value_features.room`)."""
    out = np.full(fits.shape, -np.inf)
    step = max(1, BOARDS_AT_ONCE // len(subsets(dealt.shape[1], place)[0]))
    for start in range(0, len(boards), step):
        part = slice(start, start + step)
        out[part] = _values(network, boards[part], dealt[part], place, jokers, low27)
    out[~fits] = -np.inf
    return out


def _values(network: Network, boards: np.ndarray, dealt: np.ndarray, place: int,
            jokers: bool, low27: bool) -> np.ndarray:
    """:func:`street_values` of a few boards, without the fit: ``(B, O)``.

    Each row's contributions are laid ``(subset, board, unit)``, a unit's value last, so an
    option's first-layer sums are three gathers of whole ``(H,)`` blocks, one per row, and one
    more of the cross features' from a table of their combinations (a 0/1 selector product
    did 32 times the arithmetic); they and the layers above run on :data:`OPTIONS_AT_ONCE`
    options at a time, in the cache."""
    member, sent, _ = subsets(dealt.shape[1], place)
    folded, bias = network.first_layer
    places = layout(jokers, low27)
    n, s, units = len(boards), len(member), len(bias)
    cards = int((boards[0] >= 0).sum()) + place  # the same for every option: with the bias
    constant = bias + count_columns(np.array([cards])).astype(np.float32)[:, 0] @ folded[
        places.count]
    ranks, suits, wild = _grown(boards, dealt, member, jokers)
    rows, cats, pair_ranks = [], [], []
    for r in range(3):
        columns, category, pair_rank = row_columns(
            ranks[r], suits[r], None if wild is None else wild[r], r, low27)
        rows.append((columns.T @ folded[places.rows[r]]).reshape(s, n, units))
        cats.append(category.reshape(s, n)[sent[:, r]])
        pair_ranks.append(pair_rank.reshape(s, n)[sent[:, r]])
    cross = cross_columns(cats, pair_ranks, low27)  # (C, O, B) of 0/1
    code = np.zeros(cross.shape[1:], np.intp)
    for c, column in enumerate(cross):
        code |= column.astype(np.intp) << c
    table = _combinations(len(cross)) @ folded[places.cross] + constant
    out = np.empty((len(sent), n), np.float32)
    step = max(1, OPTIONS_AT_ONCE // len(sent))
    for start in range(0, n, step):
        b = slice(start, start + step)
        h = rows[0][sent[:, 0], b]  # (O, b, H)
        h += rows[1][sent[:, 1], b]
        h += rows[2][sent[:, 2], b]
        h += table[code[:, b]]
        out[:, b] = _above_first(network, h.reshape(-1, units)).reshape(len(sent), -1)
    return out.T.astype(np.float64)


@cache
def _combinations(k: int) -> np.ndarray:
    """``(2 ** k, k)``: every combination of ``k`` 0/1 features, combination ``c``'s feature
    ``i`` its bit ``i``.

    >>> _combinations(2).tolist()
    [[0.0, 0.0], [1.0, 0.0], [0.0, 1.0], [1.0, 1.0]]
    """
    return ((np.arange(2 ** k)[:, None] >> np.arange(k)[None, :]) & 1).astype(np.float32)


def _above_first(network: Network, h: np.ndarray) -> np.ndarray:
    """The outputs of ``(N, H)`` first-layer sums (before the rectifier), a board's units
    together: :meth:`~ofc_core.play.value.Network.above_first` with the boards as rows."""
    h = np.maximum(h, 0.0, out=h)
    for w, b in network.layers[1:-1]:
        h = h @ w
        h += b
        h = np.maximum(h, 0.0, out=h)
    w, b = network.layers[-1]
    out: np.ndarray = h @ w[:, 0] + b[0]
    return out


def _grown(boards: np.ndarray, dealt: np.ndarray, member: np.ndarray, jokers: bool
           ) -> tuple[np.ndarray, np.ndarray, np.ndarray | None]:
    """Each row's counts with each subset of the dealt cards added: ``(3, 13, S * B)`` ranks,
    ``(3, 4, S * B)`` suits and ``(3, S * B)`` jokers (``None`` at a table without), the
    boards of one subset together (subset ``i`` of board ``b`` at ``i * B + b``)."""
    ranks, suits = counts(boards)
    real = (dealt >= 0) & (dealt < JOKER)  # (B, d)
    card = dealt.astype(np.intp)
    rank_hot = (np.arange(13)[None, :, None] == (card >> 2).T[:, None, :]) & real.T[:, None, :]
    suit_hot = (np.arange(4)[None, :, None] == (card & 3).T[:, None, :]) & real.T[:, None, :]
    s, n = len(member), len(boards)

    def grow(base: np.ndarray, hot: np.ndarray) -> np.ndarray:
        """``(3, K, S * B)`` from ``(3, K, B)`` counts and ``(d, K, B)`` dealt one-hots."""
        k = base.shape[1]
        added = (member @ hot.reshape(len(hot), -1).astype(np.float32)).astype(np.int8)
        grown = base[:, :, None, :] + added.reshape(s, k, n).transpose(1, 0, 2)[None]
        return grown.reshape(3, k, s * n)

    wild = None
    if jokers:
        jokers_added = (member @ (~real & (dealt >= 0)).T.astype(np.float32)).astype(np.int8)
        wild = (joker_counts(boards)[:, None, :] + jokers_added[None]).reshape(3, s * n)
    return grow(ranks, rank_hot), grow(suits, suit_hot), wild
