"""A rollout policy that does not see the future: every seat plays each street seeing only the
cards dealt to it so far, choosing among all the legal placements of that street the one whose
board the learned value (:mod:`ofc_core.play.value`) rates highest; on its last street it
takes the best finished board by the exact :meth:`~ofc_core.play.value.PositionValue.terminal`
value.

It follows :class:`ofc_core.play.rollout.RolloutPolicy`, vectorised over every board and every
rollout at once: per street, every option of
:func:`~ofc_core.play.value_features.street_options` is valued on every board (row by row,
:mod:`ofc_core.play.value_street`; the last street by the exact terminal value of every
finished board), and each board keeps its best (:func:`best_options`). A street's choice
reads only the board so far and that street's cards, never the cards of later streets (the
test in ``tests/test_value.py`` changes them and finds the same choice).

Each hand is played with the value of its own preset (``ofc_core/play/data/value-<preset>.npz``,
where one ships: docs/review.md lists them; ``ofc train-value`` trains the others); a house rule
plays with its preset's value, whose terminal value scores the house rule's own scoring and
royalties, or, where that value does not fit it (progressive with jokers), with another shipped
value that does (:meth:`LearnedRollouts.value_for`). A ruleset no shipped value fits
(``double``, a race: :meth:`~ofc_core.play.value.PositionValue.fits`) is completed by
``fallback`` (the clairvoyant best-of-24 of :class:`~ofc_core.play.rollout.BestOfK`).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from ofc_core.board import BOARD_SIZE
from ofc_core.play.rollout import BestOfK, RolloutPolicy
from ofc_core.play.value import PositionValue, load_value, shipped_variants
from ofc_core.play.value_features import lay, room
from ofc_core.play.value_street import street_values
from ofc_core.rules import Ruleset, Street


def option_values(boards: np.ndarray, dealt: np.ndarray, place: int, value: PositionValue,
                  ruleset: Ruleset, fl_values: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``(B, O)``: the value of each of ``(B, 13)`` boards (all holding the same number of
    cards) after each option of :func:`~ofc_core.play.value_features.street_options` with its
    ``(B, d)`` dealt cards, by ``value`` (``-inf`` where the option does not fit); and the
    ``(B, 3)`` cards already in each row.

    A street before the last is valued row by row
    (:func:`~ofc_core.play.value_street.street_values`: the values of the whole boards up to
    float32 rounding, within 2e-3 points); the last by the exact terminal value of every
    finished board."""
    cards = int((boards[0] >= 0).sum()) + place
    filled, fits = room(boards, dealt.shape[1], place)
    if cards < BOARD_SIZE:
        return street_values(value.networks[cards], boards, dealt, place, value.jokers,
                             value.low27, fits), filled
    on, option = np.nonzero(fits)  # only the options that fit are laid
    scores = np.full(fits.shape, -np.inf)
    scores[on, option] = value.terminal(lay(boards[on], dealt[on], place, option, filled[on]),
                                        ruleset, fl_values)
    return scores, filled


def best_options(boards: np.ndarray, dealt: np.ndarray, place: int, value: PositionValue,
                 ruleset: Ruleset, fl_values: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``(B, 13)``: each of ``(B, 13)`` boards (all holding the same number of cards) after its
    best placement of ``place`` of its ``(B, d)`` dealt cards, by ``value``
    (:func:`option_values`); and ``(B,)`` that best value.

    Ties go to the first option in :func:`~ofc_core.play.value_features.street_options`'
    order."""
    scores, filled = option_values(boards, dealt, place, value, ruleset, fl_values)
    best = scores.argmax(axis=1)
    return lay(boards, dealt, place, best, filled), scores[np.arange(len(boards)), best]


@dataclass(frozen=True)
class LearnedRollouts:
    """The non-clairvoyant rollout policy by the learned value of each hand's preset (or of
    ``variant``'s weights for every hand, when given)."""

    variant: str | None = None
    fallback: RolloutPolicy = field(default_factory=BestOfK)
    weights: PositionValue | None = field(default=None, compare=False, repr=False)
    """A value to play by instead of the shipped ones (the training's second round)."""

    @property
    def name(self) -> str:
        return f"learned-{self.variant}" if self.variant else "learned"

    def value_for(self, ruleset: Ruleset) -> PositionValue | None:
        """The learned value this policy plays ``ruleset`` with, ``None`` if none fits it: its
        preset's; for a house rule its preset's value does not fit (progressive with jokers,
        as a real app deals it), the first other shipped value that fits its deck, middle and
        streets (there: joker-pineapple's), whose terminal value scores the house rule's own
        rows, royalties and Fantasyland.

        >>> from ofc_core.rules import PRESETS, resolve
        >>> LearnedRollouts().value_for(PRESETS["regular"]).variant
        'regular'
        >>> LearnedRollouts().value_for(resolve("progressive-pineapple", {"jokers": 2})).variant
        'joker-pineapple'
        >>> LearnedRollouts().value_for(PRESETS["double"]) is None
        True
        """
        if self.weights is not None or self.variant is not None:
            value = self.weights or load_value(str(self.variant))
            return value if value is not None and value.fits(ruleset) else None
        own = ruleset.variant.value
        for variant in (own, *(v for v in shipped_variants() if v != own)):
            value = load_value(variant)
            if value is not None and value.fits(ruleset):
                return value
        return None

    def prior(self, boards: np.ndarray, ruleset: Ruleset, fl_values: np.ndarray
              ) -> np.ndarray | None:
        """The learned value of ``(m, 13)`` boards (all holding the same cards count: the
        boards after each placement of a decision), before any rollout; ``None`` where no
        value fits the ruleset or the board (the review then rolls out every placement)."""
        value = self.value_for(ruleset)
        cards = int((boards[0] >= 0).sum())
        if value is None or not value.knows(cards):
            return None
        return value(boards, cards, ruleset, fl_values)

    def complete(self, fixed: np.ndarray, future: np.ndarray, streets: tuple[Street, ...],
                 ruleset: Ruleset, fl_values: np.ndarray) -> np.ndarray:
        """``(m, n, 13)``: each of the ``m`` boards completed on each of the ``n`` futures."""
        value = self.value_for(ruleset)
        cards = int((fixed[0] >= 0).sum())
        counts = [cards + sum(s.placed for s in streets[:i + 1]) for i in range(len(streets))]
        if value is None or not all(value.knows(c) for c in counts):
            return self.fallback.complete(fixed, future, streets, ruleset, fl_values)
        m, n = len(fixed), len(future)
        boards = np.repeat(fixed, n, axis=0)  # board a's rollouts together
        deals = np.tile(future, (m, 1))
        offset = 0
        for s in streets:
            dealt = deals[:, offset:offset + s.dealt]
            offset += s.dealt
            boards, _ = best_options(boards, dealt, s.placed, value, ruleset, fl_values)
        return boards.reshape(m, n, BOARD_SIZE)
