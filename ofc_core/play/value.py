"""The learned value of a position: what a board is worth (points, at a three-handed table),
before the cards still to come, when every seat plays on without seeing the future.

A :class:`PositionValue` holds one small network per street (two hidden layers of rectified
units over :func:`ofc_core.play.value_features.features`) for boards of 5, 7, 9 and 11 cards
(pineapple's streets 1 to 4), and the exact value of a finished board, :meth:`terminal`:

- a fouled board loses a scoop (and the opponent's royalties) to every opponent that did not
  foul;
- otherwise, against each opponent, each row is won, lost or tied with the chances read from
  the rows of a pool of finished boards of simulated play (the rows taken as independent), the
  scoop and majority bonuses of the table's scoring on those chances, plus the royalties' net;
- plus the value of the Fantasyland hand the top earns (:mod:`ofc_core.play.fl_value`), as
  :func:`fantasyland_credit` credits it (none at a 2-7 table, whose Fantasyland hands the bots
  cannot set).

The networks were fitted by backward induction (:mod:`ofc_core.play.value_train`): a board of
11 cards is labelled by the mean, over sampled last streets, of the best :meth:`terminal`
value among the placements of that street; a board of 9 cards by the best 11-card value, and
so on. Inference is numpy only; the weights are package data (``ofc_core/play/data``), read by
:func:`load_value` (``None`` for a variant without weights).

>>> value = load_value("pineapple")
>>> value is not None and value.streets
(5, 7, 9, 11)
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache, cached_property
from importlib import resources
from pathlib import Path
from typing import Any

import numpy as np

from ofc_core.batch import fantasyland_entry
from ofc_core.batch_boards import score_boards_under
from ofc_core.play.fl_solver import solves
from ofc_core.play.rollout import default_fantasyland_value
from ofc_core.play.value_features import feature_columns
from ofc_core.rules import MiddleKind, Ruleset, ScoringSystem

FORMAT = "ofc-value/1"
"""The weights file's format tag (bumped when the features or the network change)."""

DATA = "data"
"""The package folder of the shipped weights: ``value-<variant>.npz``."""


def fantasyland_credit(ruleset: Ruleset, cards: int, players: int = 2) -> float:
    """What the learned value (its training, and the ``strong`` bot) credits a board that
    earns a Fantasyland hand of ``cards`` cards: the measured value
    (:func:`~ofc_core.play.rollout.default_fantasyland_value`) where the bots can set that
    hand (:func:`~ofc_core.play.fl_solver.solves`), else nothing. At a 2-7 table the bots'
    plain set fouls 97% of Fantasyland hands, so pineapple's +16.9 (which 2-7 reads) paid
    them to chase a king-or-better top they then lose with (docs/review.md).

    >>> from ofc_core.rules import PRESETS
    >>> fantasyland_credit(PRESETS["pineapple"], 14) > 0, fantasyland_credit(
    ...     PRESETS["2-7-pineapple"], 14)
    (True, 0.0)
    """
    return default_fantasyland_value(ruleset, cards, players) if solves(ruleset) else 0.0


@dataclass(frozen=True)
class Network:
    """A small network: standardised features, two ReLU layers, one linear output."""

    mean: np.ndarray
    scale: np.ndarray
    layers: tuple[tuple[np.ndarray, np.ndarray], ...]

    def __call__(self, x: np.ndarray) -> np.ndarray:
        folded, bias = self.first_layer
        h = np.maximum(x @ folded + bias, 0.0)
        for w, b in self.layers[1:-1]:
            h = np.maximum(h @ w + b, 0.0)
        w, b = self.layers[-1]
        out: np.ndarray = (h @ w + b)[:, 0]
        return out

    @cached_property
    def first_layer(self) -> tuple[np.ndarray, np.ndarray]:
        """The first layer's ``(F, H)`` weights and ``(H,)`` bias with the standardisation
        folded in: the first layer of raw features ``x`` is ``x @ weights + bias``."""
        w, b = self.layers[0]
        folded = w / self.scale[:, None]
        return folded, b - self.mean @ folded

    def on_columns(self, x: np.ndarray) -> np.ndarray:
        """The same outputs from the features of ``(F, N)`` boards, a feature's values
        together (:func:`~ofc_core.play.value_features.feature_columns`): each layer is one
        matrix product over all the boards, without transposing them."""
        folded, bias = self.first_layer
        return self.above_first(folded.T @ x + bias[:, None])

    def above_first(self, h: np.ndarray) -> np.ndarray:
        """The outputs of ``(H, N)`` first-layer sums (before the rectifier), a unit's values
        together (:mod:`ofc_core.play.value_street` sums them row by row)."""
        h = np.maximum(h, 0.0, out=h)
        for w, b in self.layers[1:-1]:
            h = w.T @ h
            h += b[:, None]
            h = np.maximum(h, 0.0, out=h)
        w, b = self.layers[-1]
        out: np.ndarray = (w.T @ h + b[:, None])[0]
        return out


_ROW_SHIFT = np.arange(3, dtype=np.int64) << 32
"""Where each row's strengths go in :meth:`Pool.all_chances`' joined search."""


@dataclass(frozen=True)
class Pool:
    """Finished boards of simulated play, as the opponents a finished board meets: each row's
    strengths (sorted) and the mean royalties of the boards that did not foul, and the share
    that fouled."""

    rows: tuple[np.ndarray, np.ndarray, np.ndarray]
    royalties: float
    fouled: float

    def chances(self, r: int, strengths: np.ndarray) -> np.ndarray:
        """``(N, 3)``: the chances that row ``r`` of each strength beats, loses to and ties
        the same row of a board of the pool.

        >>> pool = Pool((np.array([1, 2, 2, 5]),) * 3, 0.0, 0.0)
        >>> pool.chances(0, np.array([2])).tolist()
        [[0.25, 0.25, 0.5]]
        """
        held, below = self._counts[r]
        if len(held) == 0:  # a pool that always fouled has no rows: every row a tie
            return np.tile([0.0, 0.0, 1.0], (len(strengths), 1))
        at = np.searchsorted(held, strengths)
        found = np.minimum(at, len(held) - 1)
        equal = np.where(held[found] == strengths, below[found + 1] - below[found], 0)
        won = below[at] / len(self.rows[r])
        lost = (below[-1] - below[at] - equal) / len(self.rows[r])
        return np.stack([won, lost, 1.0 - won - lost], axis=1)

    def all_chances(self, strengths: np.ndarray) -> np.ndarray:
        """``(N, 3, 3)``: :meth:`chances` of every row of ``(N, 3)`` strengths at once: one
        search among the three rows' distinct strengths joined, row ``r``'s shifted by ``r``
        times 2**32 (a strength is an ``int32``), so each row finds its own.

        >>> pool = Pool((np.array([1, 2, 2, 5]), np.array([3, 3, 4, 9]), np.array([0, 1, 1, 1])),
        ...             0.0, 0.0)
        >>> strengths = np.array([[2, 4, 1]])
        >>> all(np.array_equal(pool.all_chances(strengths)[:, r], pool.chances(r, strengths[:, r]))
        ...     for r in range(3))
        True
        """
        if self._joined is None:
            return np.stack([self.chances(r, strengths[:, r]) for r in range(3)], axis=1)
        held, below, last, size = self._joined
        shifted = strengths.astype(np.int64) + _ROW_SHIFT
        at = np.searchsorted(held, shifted)  # (N, 3)
        found = np.minimum(at, last)
        row = np.arange(3)  # row r's counts sit r places further on in ``below``
        equal = np.where(held[found] == shifted, below[found + row + 1] - below[found + row], 0)
        under = below[at + row]
        won = under / size
        lost = (size - under - equal) / size
        return np.stack([won, lost, 1.0 - won - lost], axis=2)

    @cached_property
    def _joined(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray] | None:
        """The rows' distinct strengths joined (row ``r``'s plus ``r`` times 2**32), their
        counts below each (each row's one entry longer), each row's last index in the joined
        strengths, and each row's size; ``None`` when a row is empty (a pool that always
        fouled)."""
        if any(len(held) == 0 for held, _ in self._counts):
            return None
        held = np.concatenate([h.astype(np.int64) + shift
                               for (h, _), shift in zip(self._counts, _ROW_SHIFT, strict=True)])
        below = np.concatenate([b for _, b in self._counts])
        last = np.cumsum([len(h) for h, _ in self._counts]) - 1
        size = np.array([len(row) for row in self.rows])
        return held, below, last, size

    @cached_property
    def _counts(self) -> tuple[tuple[np.ndarray, np.ndarray], ...]:
        """Per row, the pool's distinct strengths (sorted) and how many rows lie below each
        (one more entry: all of them)."""
        out = []
        for row in self.rows:
            held, counts = np.unique(row, return_counts=True)
            out.append((held, np.concatenate([[0], np.cumsum(counts)])))
        return tuple(out)


@dataclass(frozen=True)
class PositionValue:
    """Values of boards by their cards on the board (see the module's doc)."""

    variant: str
    networks: dict[int, Network]
    pool: Pool
    opponents: int
    meta: dict[str, Any]

    @property
    def streets(self) -> tuple[int, ...]:
        """Cards on a board the networks value."""
        return tuple(sorted(self.networks))

    @property
    def jokers(self) -> bool:
        """Whether it was trained at a joker table (its features count the jokers)."""
        return bool(self.meta.get("jokers", False))

    @property
    def low27(self) -> bool:
        """Whether it was trained at a 2-7 table (its features read the middle as a low)."""
        return bool(self.meta.get("low27", False))

    def knows(self, cards: int) -> bool:
        """Whether a board of ``cards`` cards has a value here (a network, or 13: finished)."""
        return cards == 13 or cards in self.networks

    def fits(self, ruleset: Ruleset) -> bool:
        """Whether it values the boards of ``ruleset``: the same deck (jokers or not), the same
        middle row, pairwise scoring (not a race, whose points are what a seat banks), and a
        network for the board after every street but the last.

        >>> from ofc_core.rules import PRESETS, resolve
        >>> value = load_value("pineapple")
        >>> value.fits(PRESETS["pineapple"]), value.fits(resolve("pineapple", {"jokers": 2}))
        (True, False)
        """
        if self.jokers != (ruleset.jokers > 0) or ruleset.scoring.is_race:
            return False
        if self.low27 != (ruleset.middle is MiddleKind.LOW_27):
            return False
        placed = 0
        for street in ruleset.dealing.streets:
            placed += street.placed
            if not self.knows(placed):
                return False
        return True

    def __call__(self, boards: np.ndarray, cards: int, ruleset: Ruleset,
                 fl_values: np.ndarray) -> np.ndarray:
        """Values of ``(N, 13)`` boards holding ``cards`` cards each (13: :meth:`terminal`)."""
        if cards == 13:
            return self.terminal(boards, ruleset, fl_values)
        if len(boards) == 0:
            return np.zeros(0)
        x = feature_columns(boards, self.jokers, self.low27)
        return self.networks[cards].on_columns(x).astype(np.float64)

    def terminal(self, boards: np.ndarray, ruleset: Ruleset, fl_values: np.ndarray
                 ) -> np.ndarray:
        """The value of ``(N, 13)`` finished boards against :attr:`opponents` opponents of the
        pool, plus the Fantasyland value their tops earn (at a 2-7 table, or the middle's).
        Jokers are resolved, a 2-7 middle read as a low, by the table's rules."""
        scores = score_boards_under(boards, ruleset)
        pool = self.pool
        chances = pool.all_chances(scores.strengths)  # (N, 3 rows, won / lost / tied)
        rows_points = _rows_points(chances, _outcome_points(ruleset.scoring))
        mine = scores.royalties.sum(axis=1)
        scoop = ruleset.scoring.scoop_value
        sound = (1 - pool.fouled) * (rows_points + mine - pool.royalties) + pool.fouled * (
            scoop + mine)
        fouled = -(1 - pool.fouled) * (scoop + pool.royalties)
        entry = np.zeros(len(boards), np.intp)
        if ruleset.fantasyland:
            entry = fantasyland_entry(ruleset, scores.strengths).astype(np.intp)
        value = np.where(scores.fouled, self.opponents * fouled,
                         self.opponents * sound + fl_values[entry])
        return value.astype(np.float64)


@cache
def _outcome_points(scoring: ScoringSystem) -> np.ndarray:
    """``(3, 3, 3)`` points against one opponent by each row's outcome (won, lost, tied)."""
    out = np.empty((3, 3, 3))
    for a in range(3):
        for b in range(3):
            for c in range(3):
                outcome = (a, b, c)
                out[a, b, c] = scoring.points(outcome.count(0), outcome.count(1))
    return out


def _rows_points(chances: np.ndarray, points: np.ndarray) -> np.ndarray:
    """``(N,)``: the expected points of ``(N, 3, 3)`` chances (each row won, lost, tied; the
    rows independent) under ``(3, 3, 3)`` points by the rows' outcomes: the bottom's chances
    summed out first, then the middle's, then the top's.

    >>> sure = np.array([[[1.0, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0]]])  # won, won, lost
    >>> float(_rows_points(sure, _outcome_points(ScoringSystem.ONE_SIX))[0])
    1.0
    """
    n = len(chances)
    by_top_middle = chances[:, 2] @ points.reshape(9, 3).T  # (N, 9)
    by_top = (by_top_middle.reshape(n, 3, 3) * chances[:, 1, None, :]).sum(axis=2)
    out: np.ndarray = (by_top * chances[:, 0]).sum(axis=1)
    return out


# --------------------------------------------------------------------------------------------
# Weights files


def save_value(value: PositionValue, path: Path) -> None:
    """Write ``value`` as one ``.npz`` (float32 weights; the metadata as JSON)."""
    arrays: dict[str, np.ndarray] = {}
    for cards, net in value.networks.items():
        arrays[f"n{cards}_mean"] = net.mean.astype(np.float32)
        arrays[f"n{cards}_scale"] = net.scale.astype(np.float32)
        for i, (w, b) in enumerate(net.layers):
            arrays[f"n{cards}_w{i}"] = w.astype(np.float32)
            arrays[f"n{cards}_b{i}"] = b.astype(np.float32)
    for r in range(3):
        arrays[f"pool_row{r}"] = value.pool.rows[r].astype(np.int32)
    meta = dict(value.meta, format=FORMAT, variant=value.variant, opponents=value.opponents,
                streets=list(value.networks), layers=len(next(iter(value.networks.values()))
                                                          .layers),
                pool_royalties=value.pool.royalties, pool_fouled=value.pool.fouled)
    arrays["meta"] = np.frombuffer(json.dumps(meta, sort_keys=True).encode(), np.uint8)
    with open(path, "wb") as out:
        np.savez_compressed(out, allow_pickle=False, **arrays)


def read_value(path: Path | Any) -> PositionValue:
    """A :class:`PositionValue` from a file written by :func:`save_value`."""
    with np.load(path) as data:
        meta = json.loads(bytes(data["meta"]).decode())
        if meta.get("format") != FORMAT:
            raise ValueError(f"{path}: not a {FORMAT} weights file")
        networks = {}
        for cards in meta["streets"]:
            layers = tuple((data[f"n{cards}_w{i}"], data[f"n{cards}_b{i}"])
                           for i in range(meta["layers"]))
            networks[int(cards)] = Network(data[f"n{cards}_mean"], data[f"n{cards}_scale"],
                                           layers)
        rows = (data["pool_row0"], data["pool_row1"], data["pool_row2"])
        pool = Pool(rows, float(meta["pool_royalties"]), float(meta["pool_fouled"]))
    return PositionValue(meta["variant"], networks, pool, int(meta["opponents"]), meta)


@cache
def shipped_variants() -> tuple[str, ...]:
    """The presets whose value ships (``ofc_core/play/data/value-<variant>.npz``), sorted.

    >>> "pineapple" in shipped_variants() and "double" not in shipped_variants()
    True
    """
    folder = resources.files("ofc_core.play").joinpath(DATA)
    names = (f.name for f in folder.iterdir() if f.name.startswith("value-"))
    return tuple(sorted(n.removeprefix("value-").removesuffix(".npz") for n in names
                        if n.endswith(".npz")))


@cache
def load_value(variant: str) -> PositionValue | None:
    """The shipped value of ``variant`` (``ofc_core/play/data/value-<variant>.npz``), or
    ``None`` when none ships."""
    name = f"value-{variant}.npz"
    source = resources.files("ofc_core.play").joinpath(DATA, name)
    if not source.is_file():
        return None
    with source.open("rb") as handle:
        return read_value(handle)
