"""The ``strong`` bot: every street, the legal placement whose board the learned value of a
position (:mod:`ofc_core.play.value`) rates highest, the last street by the exact terminal
value; it sees only its own board and the cards dealt to it (the same choice as the review's
non-clairvoyant rollout policy, :mod:`ofc_core.play.learned_rollouts`, one board at a time).

Each hand is played by the value of its preset where one ships (a preset without one, such as
``double``, is played as ``careful`` plays it); a Fantasyland hand is set
by the exact solver, and the Double cube is decided by the score, as the other bots do.

>>> import random
>>> from ofc_core.play.engine import View
>>> from ofc_core.rules import PRESETS
>>> from ofc_core.cards import parse_cards
>>> dealt = tuple(c.index for c in parse_cards("Kh Kd 7c 4s 2h"))
>>> p = StrongPolicy().place(View(PRESETS["pineapple"], 0, 4, dealt, 5, ((), (), ()), ()),
...                          random.Random(1))
>>> len(p.top) <= 1
True
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

import numpy as np

from ofc_core.board import ROW_SIZE, ROW_START
from ofc_core.play.careful import CAREFUL, HeuristicPolicy
from ofc_core.play.cube import accepts_by_score, offers_by_score
from ofc_core.play.engine import CubeView, Placement, View
from ofc_core.play.fl_solver import set_fantasyland
from ofc_core.play.learned_rollouts import LearnedRollouts, best_options
from ofc_core.play.rollout import board_array
from ofc_core.play.rollout import fl_table as make_fl_table
from ofc_core.play.value import fantasyland_credit


@dataclass
class StrongPolicy:
    """Plays by the learned value where it has one (see the module's doc)."""

    name: str = "strong"
    rollouts: LearnedRollouts = field(default_factory=LearnedRollouts)
    fallback: HeuristicPolicy = field(default_factory=lambda: HeuristicPolicy(CAREFUL))

    def place(self, view: View, rng: random.Random) -> Placement:
        if view.fantasyland:
            return set_fantasyland(view.dealt, view.ruleset)
        value = self.rollouts.value_for(view.ruleset)
        after_street = sum(len(row) for row in view.board) + view.place
        if value is None or not value.knows(after_street):
            return self.fallback.place(view, rng)  # a variant or a board it was not trained on
        before = board_array(view.board)
        fl = make_fl_table(view.ruleset, fantasyland_credit)
        dealt = np.array([view.dealt], np.int8)
        after, _ = best_options(before[None], dealt, view.place, value, view.ruleset, fl)
        return _placement(before, after[0], view.dealt)

    def offers_double(self, cube: CubeView, rng: random.Random) -> bool:
        return offers_by_score(cube, CAREFUL.double_lead)

    def accepts_double(self, cube: CubeView, rng: random.Random) -> bool:
        return accepts_by_score(cube, CAREFUL.take_deficit)


def _placement(before: np.ndarray, after: np.ndarray, dealt: tuple[int, ...]) -> Placement:
    """The placement that turns the 13-slot board ``before`` into ``after``."""
    rows = tuple(tuple(int(c) for c in after[s:s + n] if c >= 0 and c not in before[s:s + n])
                 for s, n in zip(ROW_START, ROW_SIZE, strict=True))
    placed = {c for row in rows for c in row}
    return Placement(rows[0], rows[1], rows[2], tuple(c for c in dealt if c not in placed))
