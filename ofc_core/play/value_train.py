"""Training the learned value of a position (:mod:`ofc_core.play.value`) by backward induction,
numpy only (no training library: the networks are small enough for a hand-written Adam, and
the runtime and the training then share one code path for features and values).

1. **Positions.** Three-handed sessions of the engine's bots (``careful``, ``chaser``,
   ``random``: the random seat gives the boards a strong player never makes, so the value
   learns what they are worth too) are played from ``seed``; every normal hand gives each seat's
   board after each street. The ``careful`` and ``chaser`` seats' finished boards are the pool
   of opponents of :meth:`~ofc_core.play.value.PositionValue.terminal`. Where those bots foul
   more than half their boards (:data:`BOOTSTRAP_FOULS`: at 2-7 pineapple, whose low middle
   they do not play, 97 %), that first value is only a start: another round plays the
   positions and the pool again with the ``strong`` policy on it (:data:`STRONG_TABLES`,
   seed ``seed + 1``, then ``seed + 2``) and trains the value afresh on them, up to
   :data:`ROUNDS` rounds in all.
2. **Labels, last street first.** A board of 11 cards is labelled by the mean, over ``deals``
   sampled last streets (3 cards from the 41 not on it), of the best exact terminal value among
   that street's placements (a Fantasyland the top earns credited by
   :func:`~ofc_core.play.value.fantasyland_credit`: none at 2-7). Its network is fitted, then a
   board of 9 cards is labelled the same way by the best 11-card network value, and so on down
   to the first five (5 cards).
3. **Fit.** Each network (two ReLU layers, :data:`HIDDEN`) minimises the squared error by Adam
   on 90 % of the positions; the other 10 % are held out and measured (:class:`StreetReport`).
4. **Distil** (unless ``small=False``): networks of :data:`SMALL` layers, a fifth of the
   teacher's arithmetic, are fitted to those networks' values (:func:`distill`) on the
   positions and on the boards the options of a next street lead to, the poor ones too (the
   boards a rollout compares); their reports measure the fit against the teacher's values.

Everything random is drawn from ``seed``: the same arguments give the same weights (three runs
of the shipped command, with one BLAS thread and with two, wrote identical arrays; another numpy
or BLAS build may round differently). The labels of a street depend on the inference of the
networks after it, so a change to :class:`~ofc_core.play.value.Network` changes the weights.

>>> result = train("pineapple", hands=40, deals=2, epochs=1, seed=3)
>>> sorted(result.value.networks)
[5, 7, 9, 11]
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from ofc_core.batch_boards import score_boards_under
from ofc_core.play.engine import Policy, Rows, Table
from ofc_core.play.learned_rollouts import LearnedRollouts, best_options
from ofc_core.play.policies import policy
from ofc_core.play.rollout import board_array, fl_table
from ofc_core.play.sessions import SessionSpec, play_session
from ofc_core.play.strong import StrongPolicy
from ofc_core.play.value import Network, Pool, PositionValue, fantasyland_credit
from ofc_core.play.value_features import expand, features
from ofc_core.rules import PRESETS, MiddleKind, Ruleset, Street

Progress = Callable[[str, int, int], None]
"""Called with a stage's name, the work done and the work in all."""

TABLES = (("careful", "chaser", "careful"), ("careful", "random", "chaser"))
"""The seats of the sessions that give the positions (half the hands each)."""
POOL_SEATS = ("careful", "chaser", "strong")
STRONG_TABLES = (("strong", "strong", "strong"), ("strong", "random", "strong"))
"""The seats of a second round (``strong`` playing by the first round's value)."""
BOOTSTRAP_FOULS = 0.5
"""A round whose pool fouls more often than this is followed by another round."""
ROUNDS = 3
"""The most rounds of training."""
HIDDEN = (64, 32)
"""The hidden layers of the networks fitted to the labels (the teacher's)."""
SMALL = (16, 8)
"""The hidden layers of the networks that ship, fitted to the teacher's values (a quarter of
the teacher's first-layer products, a sixteenth of its second's: the review's rollouts run on
them). The ``strong`` bot wins as much on them as on the teacher or on (32, 16), and less on
(8, 4) (docs/benchmarks.md)."""
DISTILL_DEALS = 2
"""Next streets dealt to each position when distilling: every board it leads to is valued."""
DISTILL_OPTIONS = 12
"""Options (of those that fit) kept per position and deal when distilling, drawn at random."""
CHUNK = 1024
"""Positions labelled at once (times ``deals`` times 27 options of boards in memory)."""


@dataclass(frozen=True)
class StreetReport:
    """How well one network fits its held-out positions: root mean squared error against the
    labels, the labels' spread, R squared, and the labels' own sampling error (the part of the
    error no network can remove)."""

    cards: int
    positions: int
    rmse: float
    spread: float
    r2: float
    label_se: float
    seconds: float


@dataclass(frozen=True)
class Trained:
    value: PositionValue
    reports: tuple[StreetReport, ...]


def _quiet(stage: str, done: int, total: int) -> None:
    return None


def _seat(name: str, strong: PositionValue | None) -> Policy:
    if name == "strong":
        return StrongPolicy(rollouts=LearnedRollouts(weights=strong))
    return policy(name)


def positions(ruleset: Ruleset, hands: int, seed: int, progress: Progress = _quiet,
              strong: PositionValue | None = None) -> tuple[dict[int, np.ndarray], np.ndarray]:
    """Boards by cards on them (5, 7, ... 13) from ``hands`` simulated hands, and the pool's
    finished boards (with ``strong``: at :data:`STRONG_TABLES`, playing by that value)."""
    rng = random.Random(seed)
    by_cards: dict[int, list[np.ndarray]] = {}
    pool: list[np.ndarray] = []
    tables = TABLES if strong is None else STRONG_TABLES
    for t, seats in enumerate(tables):
        table = Table(ruleset, ("a", "b", "c"), tuple(_seat(s, strong) for s in seats))
        count = hands // len(tables) + (t < hands % len(tables))
        before = t * (hands // len(tables))

        def tick(k: int, before: int = before) -> None:
            progress("positions", before + k, hands)

        records = play_session(table, SessionSpec(f"train-{t}", count), rng, tick)
        for record in records:
            for seat, player in enumerate(record.players):
                if player.fantasyland or not player.streets:
                    continue
                rows: Rows = ((), (), ())
                for street in player.streets:
                    rows = (rows[0] + tuple(c.index for c in street.top),
                            rows[1] + tuple(c.index for c in street.middle),
                            rows[2] + tuple(c.index for c in street.bottom))
                    board = board_array(rows)
                    by_cards.setdefault(int((board >= 0).sum()), []).append(board)
                if seats[seat] in POOL_SEATS:
                    pool.append(board)
    return {k: np.stack(v) for k, v in by_cards.items()}, np.stack(pool)


def make_pool(boards: np.ndarray, ruleset: Ruleset) -> Pool:
    """The opponents' pool from finished boards: the sound boards' sorted row strengths and
    mean royalties, and the share that fouled."""
    scores = score_boards_under(boards, ruleset)
    sound = ~scores.fouled
    top, middle, bottom = (np.sort(scores.strengths[sound, r]) for r in range(3))
    royalties = float(scores.royalties[sound].sum(axis=1).mean()) if sound.any() else 0.0
    return Pool((top, middle, bottom), royalties, float(scores.fouled.mean()))


def deal_next(boards: np.ndarray, count: int, deals: int, rng: np.random.Generator,
              deck: int = 52) -> np.ndarray:
    """``(B * deals, count)``: ``deals`` random deals of ``count`` cards of a ``deck`` (52, or
    53-54 with the jokers) per board, none of them on the board (board ``b``'s deals are rows
    ``b * deals`` to ``(b + 1) * deals - 1``)."""
    keys = rng.random((len(boards) * deals, deck + 1))
    on_board = np.repeat(boards, deals, axis=0).astype(np.int64)
    np.put_along_axis(keys, np.where(on_board >= 0, on_board, deck), 2.0, axis=1)
    keys = keys[:, :deck]
    return np.argsort(keys, axis=1)[:, :count].astype(np.int8)


def next_street(ruleset: Ruleset, cards: int) -> Street:
    """The street dealt to a board holding ``cards`` cards (in a normal hand).

    >>> next_street(PRESETS["pineapple"], 5)
    Street(dealt=3, placed=2)
    """
    placed = 0
    for street in ruleset.dealing.streets:
        if placed == cards:
            return street
        placed += street.placed
    raise ValueError(f"no street follows a board of {cards} cards")


def label(boards: np.ndarray, value: PositionValue, ruleset: Ruleset, fl_values: np.ndarray,
          deals: int, rng: np.random.Generator, progress: Callable[[int], None]
          ) -> tuple[np.ndarray, np.ndarray]:
    """Each board's label (mean over ``deals`` next streets of the best next value) and its
    standard error."""
    street = next_street(ruleset, int((boards[0] >= 0).sum()))
    means, ses = np.empty(len(boards)), np.empty(len(boards))
    for start in range(0, len(boards), CHUNK):
        part = boards[start:start + CHUNK]
        dealt = deal_next(part, street.dealt, deals, rng, 52 + ruleset.jokers)
        _, best = best_options(np.repeat(part, deals, axis=0), dealt, street.placed, value,
                               ruleset, fl_values)
        best = best.reshape(len(part), deals)
        means[start:start + len(part)] = best.mean(axis=1)
        ses[start:start + len(part)] = best.std(axis=1, ddof=1) / np.sqrt(deals) if deals > 1 \
            else 0.0
        progress(start + len(part))
    return means, ses


def fit(x: np.ndarray, y: np.ndarray, rng: np.random.Generator, epochs: int,
        batch: int = 256, rate: float = 2e-3, hidden: tuple[int, ...] = HIDDEN) -> Network:
    """A :class:`Network` of ``hidden`` layers fitted to ``y`` by Adam on the squared error."""
    mean = x.mean(axis=0)
    scale = np.where(x.std(axis=0) > 1e-6, x.std(axis=0), 1.0)
    xs = ((x - mean) / scale).astype(np.float32)
    sizes = (x.shape[1],) + hidden + (1,)
    params = []
    for a, b in zip(sizes[:-1], sizes[1:], strict=True):
        params += [rng.normal(0, np.sqrt(2 / a), (a, b)).astype(np.float32),
                   np.zeros(b, np.float32)]
    params[-1] += np.float32(y.mean())
    moments = [(np.zeros_like(p), np.zeros_like(p)) for p in params]
    step = 0
    target = y.astype(np.float32)[:, None]
    for epoch in range(epochs):
        order = rng.permutation(len(xs))
        lr = rate * (0.5 ** (epoch * 3 / max(epochs, 1)))
        for start in range(0, len(xs), batch):
            idx = order[start:start + batch]
            grads = _gradients(params, xs[idx], target[idx])
            step += 1
            for p, g, (m1, m2) in zip(params, grads, moments, strict=True):
                m1 *= 0.9
                m1 += 0.1 * g
                m2 *= 0.999
                m2 += 0.001 * g * g
                p -= lr * (m1 / (1 - 0.9 ** step)) / (np.sqrt(m2 / (1 - 0.999 ** step)) + 1e-8)
    layers = tuple((params[i], params[i + 1]) for i in range(0, len(params), 2))
    return Network(mean.astype(np.float32), scale.astype(np.float32), layers)


def _gradients(params: list[np.ndarray], x: np.ndarray, y: np.ndarray) -> list[np.ndarray]:
    """Gradients of the mean squared error of the network ``params`` on one batch."""
    acts = [x]
    for i in range(0, len(params) - 2, 2):
        acts.append(np.maximum(acts[-1] @ params[i] + params[i + 1], 0.0))
    out = acts[-1] @ params[-2] + params[-1]
    delta = 2 * (out - y) / len(x)
    grads: list[np.ndarray] = []
    for i in range(len(params) - 2, -1, -2):
        grads = [acts[i // 2].T @ delta, delta.sum(axis=0)] + grads
        if i:
            delta = (delta @ params[i].T) * (acts[i // 2] > 0)
    return grads


def train(variant: str, *, hands: int = 6000, deals: int = 10, epochs: int = 15,
          seed: int = 0, progress: Progress = _quiet, rounds: int = ROUNDS,
          small: bool = True) -> Trained:
    """The learned value of the preset ``variant``, trained from ``seed`` (see the module's
    doc), and how well each network fits held-out positions: one network per board size
    between streets (pineapple 5, 7, 9, 11 cards; regular 5 to 12; turbo 5 and 9)."""
    ruleset = PRESETS[variant]
    started = time.process_time()
    meta: dict[str, Any] = {
        "hands": hands, "deals": deals, "epochs": epochs, "seed": seed,
        "tables": [list(t) for t in TABLES], "hidden": list(HIDDEN),
        "jokers": ruleset.jokers > 0, "low27": ruleset.middle is MiddleKind.LOW_27}
    boards, finished = positions(ruleset, hands, seed, progress)
    result = _fit_streets(variant, boards, make_pool(finished, ruleset), meta, seed, progress)
    fouls = [round(result.value.pool.fouled, 3)]
    while fouls[-1] > BOOTSTRAP_FOULS and len(fouls) < rounds:
        round_seed = seed + len(fouls)
        meta = dict(meta, rounds=len(fouls) + 1, tables=[list(t) for t in STRONG_TABLES])
        boards, finished = positions(ruleset, hands, round_seed, progress, result.value)
        result = _fit_streets(variant, boards, make_pool(finished, ruleset), meta, round_seed,
                              progress)
        fouls.append(round(result.value.pool.fouled, 3))
    result.value.meta["pool_fouls_by_round"] = fouls
    if small:
        result = distill(result.value, boards, np.random.default_rng(seed), progress)
    result.value.meta["cpu_seconds"] = round(time.process_time() - started, 1)
    result.value.meta["held_out"] = [r.__dict__ for r in result.reports]
    return result


def distill(teacher: PositionValue, boards: dict[int, np.ndarray], rng: np.random.Generator,
            progress: Progress = _quiet, hidden: tuple[int, ...] = SMALL) -> Trained:
    """Networks of ``hidden`` layers fitted to ``teacher``'s values: on each board of
    ``boards`` (by cards on them) and on the boards that :data:`DISTILL_OPTIONS` options of
    :data:`DISTILL_DEALS` next streets lead to from the board a street before (the boards the
    rollouts compare, the poor ones too); the same pool, and the epochs of the teacher's
    training. Its reports measure the fit against the teacher's values."""
    ruleset = PRESETS[teacher.variant]
    value = PositionValue(teacher.variant, {}, teacher.pool, teacher.opponents,
                          dict(teacher.meta, hidden=list(hidden), distilled_from=list(HIDDEN)))
    reports = []
    for cards in sorted(teacher.networks, reverse=True):
        t0 = time.process_time()
        street = next_street(ruleset, cards - _placed_before(ruleset, cards))
        before = boards.get(cards - street.placed, np.full((len(boards[cards]), 13), -1,
                                                           np.int8))
        x_boards = np.concatenate([boards[cards], _led_to(before, street, ruleset, rng)])
        x = features(x_boards, value.jokers, value.low27)
        y = teacher.networks[cards](x).astype(np.float64)
        held = rng.random(len(y)) < 0.1
        net = fit(x[~held], y[~held], rng, int(teacher.meta["epochs"]), hidden=hidden)
        value.networks[cards] = net
        reports.append(_report(cards, net, x[held], y[held], np.zeros(int(held.sum())),
                               time.process_time() - t0))
        progress(f"distil {cards}", 1, 1)
    return Trained(value, tuple(reports))


def _placed_before(ruleset: Ruleset, cards: int) -> int:
    """The cards the street that fills a board to ``cards`` cards places."""
    placed = 0
    for street in ruleset.dealing.streets:
        if placed + street.placed == cards:
            return street.placed
        placed += street.placed
    raise ValueError(f"no street fills a board to {cards} cards")


def _led_to(before: np.ndarray, street: Street, ruleset: Ruleset, rng: np.random.Generator
            ) -> np.ndarray:
    """Boards that :data:`DISTILL_OPTIONS` random fitting options of :data:`DISTILL_DEALS`
    random deals of ``street`` lead to from each of ``before``."""
    out = []
    for start in range(0, len(before), CHUNK):
        part = np.repeat(before[start:start + CHUNK], DISTILL_DEALS, axis=0)
        dealt = deal_next(before[start:start + CHUNK], street.dealt, DISTILL_DEALS, rng,
                          52 + ruleset.jokers)
        after, fits = expand(part, dealt, street.placed)
        keys = np.where(fits, rng.random(fits.shape), 2.0)
        pick = np.argsort(keys, axis=1)[:, :DISTILL_OPTIONS]
        chosen = np.take_along_axis(after, pick[:, :, None], axis=1)
        out.append(chosen[np.take_along_axis(fits, pick, axis=1)])
    return np.concatenate(out)


def _fit_streets(variant: str, boards: dict[int, np.ndarray], pool: Pool, meta: dict[str, Any],
                 seed: int, progress: Progress) -> Trained:
    """Label and fit the networks of ``boards`` last street first (see the module's doc)."""
    ruleset = PRESETS[variant]
    fl_values = fl_table(ruleset, fantasyland_credit)
    rng = np.random.default_rng(seed)
    value = PositionValue(variant, {}, pool, 2, dict(meta))
    reports = []
    for cards in sorted((k for k in boards if k < 13), reverse=True):
        t0 = time.process_time()
        x_boards = boards[cards]

        def labelled(k: int, c: int = cards, n: int = len(x_boards)) -> None:
            progress(f"labels {c}", k, n)

        y, se = label(x_boards, value, ruleset, fl_values, int(meta["deals"]), rng, labelled)
        held = rng.random(len(y)) < 0.1
        x = features(x_boards, value.jokers, value.low27)
        net = fit(x[~held], y[~held], rng, int(meta["epochs"]))
        value.networks[cards] = net
        reports.append(_report(cards, net, x[held], y[held], se[held], time.process_time() - t0))
        progress(f"fit {cards}", 1, 1)
    return Trained(value, tuple(reports))


def _report(cards: int, net: Network, x: np.ndarray, y: np.ndarray, se: np.ndarray,
            seconds: float) -> StreetReport:
    if len(y) < 2:
        return StreetReport(cards, len(y), float("nan"), float("nan"), float("nan"),
                            float("nan"), seconds)
    error = net(x) - y
    rmse = float(np.sqrt((error ** 2).mean()))
    spread = float(y.std())
    return StreetReport(cards, len(y), round(rmse, 3), round(spread, 3),
                        round(1 - rmse ** 2 / spread ** 2, 3) if spread > 0 else float("nan"),
                        round(float(np.sqrt((se ** 2).mean())), 3), round(seconds, 1))
