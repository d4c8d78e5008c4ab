"""The deep reference's rollout policy (issue 21): every seat plays each street seeing only
its own cards, valuing each legal placement over sampled futures of the next street, the last
street exhaustively. (The review's shortlist uses the same one-street valuation once, at the
decision itself: :func:`ahead_values`.)

At a street before the last, each option of
:func:`~ofc_core.play.value_features.street_options` is valued as the mean, over ``samples``
deals of the next street drawn from the cards the seat has not seen (the same deals for every
option of a board: common random numbers), of the best next placement's value: by the learned
value (:mod:`ofc_core.play.value`) when the next street is not the last, by the exact terminal
value of every finished board when it is. The last street takes the best finished board, as
:class:`~ofc_core.play.learned_rollouts.LearnedRollouts` does. So it searches one street
deeper than the review's own policy, which rates a placement by the learned value of the board
it leaves: where the value is wrong about a board, the lookahead sees what the next street
really offers from it.

What a seat "has not seen" here is the deck less its own board and the cards dealt to it this
street: the :class:`~ofc_core.play.rollout.RolloutPolicy` it follows is given no opponents'
rows and no discards, so those cards may be drawn (the learned value ignores them too).

>>> import numpy as np
>>> from ofc_core.rules import PRESETS
>>> policy = LookaheadRollouts(samples=4, seed=1)
>>> fixed = np.full((1, 13), -1, np.int8)
>>> future = np.array([[48, 49, 20, 9, 0, 1, 2, 3, 4, 5, 6, 7, 8, 10, 11, 12, 13]], np.int8)
>>> streets = PRESETS["pineapple"].dealing.streets
>>> boards = policy.complete(fixed, future, streets, PRESETS["pineapple"], np.zeros(18))
>>> boards.shape, int((boards >= 0).sum())
((1, 1, 13), 13)
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from ofc_core.board import BOARD_SIZE
from ofc_core.play.learned_rollouts import LearnedRollouts, best_options, option_values
from ofc_core.play.value import PositionValue
from ofc_core.play.value_features import expand, lay, room, street_options
from ofc_core.rules import Ruleset, Street

VALUES_AT_ONCE = 400_000
"""Next-street options valued in one pass (a few tens of MB of boards and values)."""


@dataclass(frozen=True)
class LookaheadRollouts:
    """Plays every street by a one-street lookahead over ``samples`` sampled deals (see the
    module's doc); ``seed`` seeds the sampled deals, so a run is reproducible."""

    samples: int = 8
    seed: int = 0
    learned: LearnedRollouts = field(default_factory=LearnedRollouts)
    _rng: np.random.Generator = field(init=False, compare=False, repr=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_rng", np.random.default_rng(self.seed))

    @property
    def name(self) -> str:
        return f"lookahead-{self.samples}"

    def complete(self, fixed: np.ndarray, future: np.ndarray, streets: tuple[Street, ...],
                 ruleset: Ruleset, fl_values: np.ndarray) -> np.ndarray:
        """``(m, n, 13)``: each of the ``m`` boards completed on each of the ``n`` futures."""
        value = self.learned.value_for(ruleset)
        cards = int((fixed[0] >= 0).sum())
        counts = [cards + sum(s.placed for s in streets[:i + 1]) for i in range(len(streets))]
        if value is None or not all(value.knows(c) for c in counts):
            return self.learned.complete(fixed, future, streets, ruleset, fl_values)
        m, n = len(fixed), len(future)
        boards = np.repeat(fixed, n, axis=0)
        deals = np.tile(future, (m, 1))
        offset = 0
        for i, street in enumerate(streets):
            dealt = deals[:, offset:offset + street.dealt]
            offset += street.dealt
            if i == len(streets) - 1:
                boards, _ = best_options(boards, dealt, street.placed, value, ruleset,
                                         fl_values)
            else:
                boards = self.play(boards, dealt, street, streets[i + 1], value, ruleset,
                                   fl_values)
        return boards.reshape(m, n, BOARD_SIZE)

    def play(self, boards: np.ndarray, dealt: np.ndarray, street: Street, after: Street,
             value: PositionValue, ruleset: Ruleset, fl_values: np.ndarray) -> np.ndarray:
        """``(B, 13)``: each board after its best option of ``street`` by the lookahead over
        the ``after`` street (ties to the first option)."""
        per_board = _options(street) * self.samples * _options(after)
        step = max(1, VALUES_AT_ONCE // per_board)
        out = np.empty_like(boards)
        for start in range(0, len(boards), step):
            part = slice(start, start + step)
            scores, filled = self.option_scores(boards[part], dealt[part], street.placed,
                                                after, value, ruleset, fl_values)
            out[part] = lay(boards[part], dealt[part], street.placed, scores.argmax(axis=1),
                            filled)
        return out

    def option_scores(self, boards: np.ndarray, dealt: np.ndarray, place: int, after: Street,
                      value: PositionValue, ruleset: Ruleset, fl_values: np.ndarray
                      ) -> tuple[np.ndarray, np.ndarray]:
        """``(B, O)``: each option's mean over the sampled deals of the ``after`` street of its
        best next placement's value (``-inf`` where it does not fit); and ``(B, 3)`` the cards
        already in each row."""
        laid, fits = expand(boards, dealt, place)
        filled, _ = room(boards, dealt.shape[1], place)
        draws = self.draw(boards, dealt, after.dealt, 52 + ruleset.jokers)  # (B, S, d)
        b, o = np.nonzero(fits)
        scores = np.full(fits.shape, -np.inf)
        scores[b, o] = next_best(laid[b, o], draws[b], after, value, ruleset, fl_values)
        return scores, filled

    def draw(self, boards: np.ndarray, dealt: np.ndarray, cards: int, deck: int) -> np.ndarray:
        """``(B, samples, cards)``: for each board, ``samples`` deals of ``cards`` distinct
        cards from the ``deck`` less the board's cards and its dealt ones."""
        known = np.zeros((len(boards), deck), bool)
        rows = np.arange(len(boards))[:, None]
        held = np.concatenate([boards, dealt], axis=1).astype(np.intp)
        known[np.broadcast_to(rows, held.shape)[held >= 0], held[held >= 0]] = True
        keys = self._rng.random((len(boards), self.samples, deck))
        keys[np.broadcast_to(known[:, None, :], keys.shape)] = 2.0
        picked: np.ndarray = np.argpartition(keys, cards - 1, axis=2)[:, :, :cards]
        return picked.astype(np.int8)


def next_best(boards: np.ndarray, draws: np.ndarray, after: Street, value: PositionValue,
              ruleset: Ruleset, fl_values: np.ndarray) -> np.ndarray:
    """``(A,)``: for each of ``(A, 13)`` boards, the mean over its ``(A, S, d)`` sampled deals
    of the ``after`` street of the value of its best placement there (by the learned value, or
    the exact terminal value when ``after`` finishes the board)."""
    count, samples = len(boards), draws.shape[1]
    laid = np.repeat(boards, samples, axis=0)
    dealt = draws.reshape(count * samples, after.dealt)
    values, _ = option_values(laid, dealt, after.placed, value, ruleset, fl_values)
    best: np.ndarray = values.max(axis=1).reshape(count, samples).mean(axis=1)
    return best


def ahead_values(boards: np.ndarray, after: Street, unseen: np.ndarray, samples: int,
                 rng: np.random.Generator, value: PositionValue, ruleset: Ruleset,
                 fl_values: np.ndarray) -> np.ndarray:
    """``(m,)``: each of ``(m, 13)`` boards (one decision's placements) valued one street
    ahead: the mean, over ``samples`` deals of the ``after`` street from the ``unseen`` cards
    (the same deals for every board), of its best placement there (:func:`next_best`)."""
    keys = rng.random((samples, len(unseen)))
    deals = unseen[np.argsort(keys, axis=1)[:, :after.dealt]]
    draws = np.broadcast_to(deals[None], (len(boards), samples, after.dealt))
    return next_best(boards, draws, after, value, ruleset, fl_values)


def _options(street: Street) -> int:
    """The number of options of a street (before fitting)."""
    return len(street_options(street.dealt, street.placed).keep)
